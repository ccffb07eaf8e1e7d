//! The DirectStorage path as the title sees it: requests → IOs (split at `max_io`) → staging
//! buffer → NVMe device → MDU job → title memory. It wires the `sfsim-models` components
//! together and reports each request's completion; it owns no clock; its owner calls
//! [`IoPath::process`] at every time [`IoPath::next_wake`] names.
//!
//! The drive and the MDU are trait objects ([`NvmeModel`], [`MduModel`]): [`IoPath::new`]
//! builds sfsim's own from a [`Hardware`] section, [`IoPath::with_models`] takes any others.

mod slab;
mod stats;

use sfsim_models::mdu::{self, Job, JobDone, MduModel, Stages, UnitStats};
use sfsim_models::nvme::{
    self, DeviceStats, IoDone, NvmeModel, Request, RequestError, Source, StagingBuffer, Transfer, STREAM_ALIGNMENT,
};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::{ConfigError, Hardware};
use slab::Slab;
use std::collections::VecDeque;

/// A request whose data reached title memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completed {
    /// The caller's tag from [`IoPath::enqueue`].
    pub tag: u64,
    /// When the title enqueued it.
    pub enqueued: Time,
    /// When its first IO entered the drive (staging space and a queue slot were free; the
    /// enqueue time for memory requests).
    pub issued: Time,
    /// When the last of its bytes left the drive (the enqueue time for memory requests).
    pub read: Time,
    /// When the last of its bytes was in title memory (its last MDU job ended).
    pub done: Time,
    /// The request's source (compressed) size.
    pub source_size: Bytes,
    /// The request's destination (uncompressed) size.
    pub destination_size: Bytes,
}

struct RequestState {
    tag: u64,
    enqueued: Time,
    issued: Option<Time>,
    read: Time,
    pieces_left: u32,
    request: Request,
}

/// One piece of a request: one MDU job, and for a file request part of one IO.
#[derive(Clone, Copy)]
struct PieceState {
    request: u32,
    job: Job,
    /// Staging bytes the piece holds from its IO's issue (or, from memory, its job's
    /// submission) to its job's end: its compressed bytes when read from a file, plus its
    /// share of the zlib → BCPack intermediate.
    staging: u64,
    /// File pieces: where its bytes end in the file (to merge the next adjacent read).
    file_end: u64,
    /// The next piece of the same IO (`NO_PIECE`: the last).
    next_in_io: u32,
    /// On an IO's first piece: the IO's source bytes and its last piece.
    io_bytes: u64,
    io_last: u32,
}

const NO_PIECE: u32 = u32::MAX;

/// The DirectStorage queue with its staging buffer, the drive and the MDU, as one
/// self-timed component of the owner's event loop.
pub struct IoPath {
    device: Box<dyn NvmeModel>,
    mdu: Box<dyn MduModel>,
    staging: StagingBuffer,
    max_io: Bytes,
    merge_adjacent: bool,
    /// File IOs (their first piece) waiting for staging space and a device slot.
    waiting: VecDeque<u32>,
    /// Memory pieces with a zlib → BCPack intermediate, waiting for its staging space.
    waiting_memory: VecDeque<u32>,
    requests: Slab<RequestState>,
    pieces: Slab<PieceState>,
    io_done: Vec<IoDone>,
    jobs_done: Vec<JobDone>,
    completed: Vec<Completed>,
    /// Every MDU job that finished, for statistics and traces; drained by the owner.
    job_log: Vec<JobDone>,
    in_flight_requests: usize,
    merged_reads: u64,
}

impl IoPath {
    /// The path of a scenario's `hardware` section: sfsim's drive ([`nvme::build_model`],
    /// its stalls seeded by `seed`) and MDU ([`mdu::build_model`]). Errors name the field as
    /// the scenario does (`hardware.nvme.peak`, `hardware.staging`).
    pub fn new(hw: &Hardware, seed: u64) -> Result<Self, ConfigError> {
        hw.validate()?;
        let device = nvme::build_model(&hw.nvme, seed).map_err(|e| e.within("hardware.nvme"))?;
        let mdu = mdu::build_model(&hw.mdu).map_err(|e| e.within("hardware.mdu"))?;
        let mut path = Self::with_models(device, mdu, hw.staging, hw.nvme.max_io)?;
        path.merge_adjacent = hw.nvme.merge_adjacent;
        Ok(path)
    }

    /// A path over any drive and MDU models: requests are split into IOs of at most
    /// `max_io` source bytes, and file IOs hold `staging` bytes of staging buffer from
    /// their submission to the drive until their MDU job ends. The models start idle at
    /// time zero. `staging` must hold one IO, or the path could never move a large request.
    ///
    /// A drive model of one's own, here one that moves one IO at a time at a fixed rate:
    ///
    /// ```
    /// use sfsim::iopath::IoPath;
    /// use sfsim::models::mdu::{self, MduConfig};
    /// use sfsim::models::nvme::{DeviceStats, IoDone, NvmeModel, Request, RequestOptions, Source, Transfer};
    /// use sfsim::models::units::{Bytes, Rate, Time};
    /// use std::collections::VecDeque;
    ///
    /// /// Moves queued IOs one after another at `rate`: no command cost, latency or stalls.
    /// struct FixedRateDrive {
    ///     rate: Rate,
    ///     queue: VecDeque<(u64, Bytes)>,
    ///     head_done: Option<Time>,
    ///     stats: DeviceStats,
    ///     transfers: Vec<Transfer>,
    /// }
    ///
    /// impl NvmeModel for FixedRateDrive {
    ///     fn can_accept(&self) -> bool {
    ///         self.queue.len() < 8
    ///     }
    ///     fn submit(&mut self, now: Time, id: u64, bytes: Bytes) {
    ///         self.queue.push_back((id, bytes));
    ///         self.stats.ios += 1;
    ///         self.head_done = self.head_done.or(Some(now + self.rate.time_for(bytes)));
    ///     }
    ///     fn set_backlog(&mut self, _now: Time, _waiting: bool) {}
    ///     fn next_event(&self) -> Option<Time> {
    ///         self.head_done
    ///     }
    ///     fn advance(&mut self, until: Time, done: &mut Vec<IoDone>) {
    ///         while let Some(end) = self.head_done.filter(|&t| t <= until) {
    ///             let (id, bytes) = self.queue.pop_front().expect("a head IO");
    ///             self.stats.bytes += bytes.0;
    ///             let start = end - self.rate.time_for(bytes);
    ///             self.transfers.push(Transfer { id, start, end, bytes: bytes.0 });
    ///             done.push(IoDone { id, time: end });
    ///             self.head_done = self.queue.front().map(|&(_, next)| end + self.rate.time_for(next));
    ///         }
    ///     }
    ///     fn finish(&mut self, _end: Time) {}
    ///     fn stats(&self) -> DeviceStats {
    ///         self.stats
    ///     }
    ///     fn window(&self) -> Time {
    ///         Time::from_ms(250)
    ///     }
    ///     fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer> {
    ///         self.transfers.drain(..)
    ///     }
    /// }
    ///
    /// let drive = FixedRateDrive {
    ///     rate: Rate::mb_per_sec(1000),
    ///     queue: VecDeque::new(),
    ///     head_done: None,
    ///     stats: DeviceStats::default(),
    ///     transfers: Vec::new(),
    /// };
    /// let mdu = mdu::build_model(&MduConfig::default())?;
    /// let mut io = IoPath::with_models(Box::new(drive), mdu, Bytes::mib(32), Bytes::kib(512))?;
    /// // 1 MiB, uncompressed: two 512 KiB IOs of 524.288 µs each at 1000 MB/s, each then an
    /// // MDU move of 10 µs set-up + 512 KiB at 1.6 GB/s (327.68 µs).
    /// let request = Request {
    ///     source: Source::File { offset: 0 },
    ///     source_size: Bytes::mib(1),
    ///     intermediate_size: Bytes::ZERO,
    ///     destination_size: Bytes::mib(1),
    ///     options: RequestOptions::default(),
    ///     fill: false,
    /// };
    /// io.enqueue(Time::ZERO, request, 7)?;
    /// let mut done = Vec::new();
    /// while let Some(t) = io.next_wake() {
    ///     io.process(t, &mut done);
    /// }
    /// assert_eq!((done.len(), done[0].tag), (1, 7));
    /// assert_eq!(done[0].read, Time::from_ns(1_048_576));
    /// assert_eq!(done[0].done, Time::from_ns(1_048_576 + 337_680));
    /// assert_eq!(io.device_stats().bytes, 1 << 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_models(
        device: Box<dyn NvmeModel>,
        mdu: Box<dyn MduModel>,
        staging: Bytes,
        max_io: Bytes,
    ) -> Result<Self, ConfigError> {
        if staging < max_io {
            return Err(ConfigError::new(
                "staging",
                format!("{staging} is smaller than one IO (max_io = {max_io}); expected ≥ max_io"),
            ));
        }
        Ok(IoPath {
            device,
            mdu,
            staging: StagingBuffer::new(staging),
            max_io,
            merge_adjacent: true,
            waiting: VecDeque::new(),
            waiting_memory: VecDeque::new(),
            requests: Slab::new(),
            pieces: Slab::new(),
            io_done: Vec::new(),
            jobs_done: Vec::new(),
            completed: Vec::new(),
            job_log: Vec::new(),
            in_flight_requests: 0,
            merged_reads: 0,
        })
    }

    /// The drive's counters so far.
    pub fn device_stats(&self) -> DeviceStats {
        self.device.stats()
    }

    /// The MDU's per-unit counters so far, in unit order.
    pub fn mdu_unit_stats(&self) -> &[UnitStats] {
        self.mdu.unit_stats()
    }

    /// The staging buffer: its capacity, use and peak use.
    pub fn staging(&self) -> &StagingBuffer {
        &self.staging
    }

    /// The drive's transfers since the last call (see [`NvmeModel::drain_transfers`]).
    pub fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer> {
        self.device.drain_transfers()
    }

    /// The MDU jobs that finished since the last call, in completion order; drain them now
    /// and then, since the path keeps every one until then.
    pub fn drain_jobs(&mut self) -> std::vec::Drain<'_, JobDone> {
        self.job_log.drain(..)
    }

    /// Closes the drive's accounting at `end`, the end of the run (call once, after the
    /// last [`process`](Self::process)); the stats then count busy time up to `end`.
    pub fn finish(&mut self, end: Time) {
        self.device.finish(end);
    }

    /// Requests enqueued and not yet in title memory.
    pub fn in_flight_requests(&self) -> usize {
        self.in_flight_requests
    }

    /// IOs waiting for staging space or a device slot.
    pub fn waiting_ios(&self) -> usize {
        self.waiting.len()
    }

    /// Reads merged with the read before them into one IO (`NvmeConfig::merge_adjacent`).
    pub fn merged_reads(&self) -> u64 {
        self.merged_reads
    }

    /// Checks the request against the DirectStorage rules and queues it at `now` (its own
    /// `Submit`: it is never merged with another request's reads).
    pub fn enqueue(&mut self, now: Time, request: Request, tag: u64) -> Result<(), RequestError> {
        self.enqueue_all(now, &[(request, tag)]).map_err(|(_, e)| e)
    }

    /// Queues `requests` at `now` as one `Submit` of the DirectStorage queue: reads whose
    /// file ranges follow each other (see `NvmeConfig::merge_adjacent`) become one IO at the
    /// drive, each request still its own MDU job. Every request is checked first; on an
    /// error nothing is queued and the error names the request's index.
    pub fn enqueue_all(&mut self, now: Time, requests: &[(Request, u64)]) -> Result<(), (usize, RequestError)> {
        for (i, (request, _)) in requests.iter().enumerate() {
            request.validate().map_err(|e| (i, e))?;
            let from_file = matches!(request.source, Source::File { .. });
            for piece in request.split(self.max_io) {
                let needed = Bytes(staging_need(from_file, &piece));
                if needed > self.staging.capacity() {
                    return Err((i, RequestError::StagingTooSmall { needed, capacity: self.staging.capacity() }));
                }
            }
        }
        let batch_start = self.waiting.len();
        for &(request, tag) in requests {
            self.queue_request(now, request, tag, batch_start);
        }
        self.pump(now);
        Ok(())
    }

    fn queue_request(&mut self, now: Time, request: Request, tag: u64, batch_start: usize) {
        let pieces = request.split(self.max_io);
        let id = self.requests.insert(RequestState {
            tag,
            enqueued: now,
            issued: None,
            read: now,
            pieces_left: pieces.len() as u32,
            request,
        });
        self.in_flight_requests += 1;
        let file_offset = match request.source {
            Source::File { offset } => Some(offset),
            Source::Memory => None,
        };
        for piece in pieces {
            let job = Job {
                id: 0,
                input: piece.source_bytes,
                output: piece.destination_bytes,
                stages: Stages::from(request.options),
                fill: request.fill,
            };
            let start = file_offset.map(|o| o + piece.source_offset);
            let state = PieceState {
                request: id,
                job,
                staging: staging_need(start.is_some(), &piece),
                file_end: start.map_or(0, |o| o + piece.source_bytes.0),
                next_in_io: NO_PIECE,
                io_bytes: piece.source_bytes.0,
                io_last: NO_PIECE,
            };
            let pid = self.pieces.insert(state);
            self.pieces.get_mut(pid).job.id = u64::from(pid);
            match start {
                Some(start) => {
                    if !self.merge_into_last_io(pid, start, batch_start) {
                        self.pieces.get_mut(pid).io_last = pid;
                        self.waiting.push_back(pid);
                    }
                }
                None if state.staging == 0 => self.mdu.submit(now, Job { id: u64::from(pid), ..job }),
                None => self.waiting_memory.push_back(pid),
            }
        }
    }

    /// Appends file piece `pid` (starting at `start`) to the last waiting IO when that IO
    /// was queued in this submission, its bytes end where the piece starts (up to the
    /// 16-byte stream alignment) and the merged IO stays within `max_io`.
    fn merge_into_last_io(&mut self, pid: u32, start: u64, batch_start: usize) -> bool {
        if !self.merge_adjacent || self.waiting.len() <= batch_start {
            return false;
        }
        let Some(&head) = self.waiting.back() else { return false };
        let bytes = self.pieces.get_mut(pid).io_bytes;
        let (last, io_bytes) = {
            let h = self.pieces.get_mut(head);
            (h.io_last, h.io_bytes)
        };
        let end = self.pieces.get_mut(last).file_end;
        let adjacent = start >= end && start - end < STREAM_ALIGNMENT;
        if !adjacent || io_bytes + bytes > self.max_io.0 {
            return false;
        }
        self.pieces.get_mut(last).next_in_io = pid;
        let h = self.pieces.get_mut(head);
        h.io_last = pid;
        h.io_bytes += bytes;
        self.merged_reads += 1;
        true
    }

    /// `SetStagingBuffer` at `now` (after [`process`](Self::process) up to `now`).
    pub fn set_staging(&mut self, now: Time, size: Bytes) {
        self.staging.resize(size);
        self.pump(now);
    }

    /// Moves waiting IOs into the device while staging space and a queue slot are free,
    /// and memory jobs to the MDU while their intermediate's staging space is.
    fn pump(&mut self, now: Time) {
        while let Some(&pid) = self.waiting_memory.front() {
            let piece = *self.pieces.get_mut(pid);
            if !self.staging.try_alloc(Bytes(piece.staging)) {
                break;
            }
            self.waiting_memory.pop_front();
            self.mdu.submit(now, piece.job);
        }
        while let Some(&head) = self.waiting.front() {
            let (io_bytes, staging) = self.io_totals(head);
            if !self.device.can_accept() || !self.staging.try_alloc(Bytes(staging)) {
                break;
            }
            self.waiting.pop_front();
            let mut pid = head;
            while pid != NO_PIECE {
                let piece = *self.pieces.get_mut(pid);
                self.requests.get_mut(piece.request).issued.get_or_insert(now);
                pid = piece.next_in_io;
            }
            self.device.submit(now, u64::from(head), Bytes(io_bytes));
        }
        self.device.set_backlog(now, !self.waiting.is_empty());
    }

    /// An IO's source bytes and the staging bytes its pieces hold.
    fn io_totals(&mut self, head: u32) -> (u64, u64) {
        let io_bytes = self.pieces.get_mut(head).io_bytes;
        let mut staging = 0;
        let mut pid = head;
        while pid != NO_PIECE {
            let piece = self.pieces.get_mut(pid);
            staging += piece.staging;
            pid = piece.next_in_io;
        }
        (io_bytes, staging)
    }

    /// When the drive or the MDU changes state next; the owner calls
    /// [`process`](Self::process) at that time. `None`: nothing is in flight.
    pub fn next_wake(&self) -> Option<Time> {
        match (self.device.next_event(), self.mdu.next_event()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Handles everything due at `now`; completed requests are appended to `out`. `now`
    /// never decreases from one call to the next.
    pub fn process(&mut self, now: Time, out: &mut Vec<Completed>) {
        loop {
            // Buffers are taken and put back to keep their capacity across calls.
            let mut jobs = std::mem::take(&mut self.jobs_done);
            self.mdu.advance(now, &mut jobs);
            for done in jobs.drain(..) {
                self.finish_piece(done);
            }
            self.jobs_done = jobs;
            let mut ios = std::mem::take(&mut self.io_done);
            self.device.advance(now, &mut ios);
            for done in ios.drain(..) {
                let mut pid = done.id as u32;
                while pid != NO_PIECE {
                    let piece = *self.pieces.get_mut(pid);
                    let req = self.requests.get_mut(piece.request);
                    req.read = req.read.max(done.time);
                    self.mdu.submit(done.time, piece.job);
                    pid = piece.next_in_io;
                }
            }
            self.io_done = ios;
            self.pump(now);
            if self.next_wake().is_none_or(|t| t > now) {
                break;
            }
        }
        out.append(&mut self.completed);
    }

    fn finish_piece(&mut self, done: JobDone) {
        self.job_log.push(done);
        let piece = self.pieces.remove(done.id as u32);
        self.staging.free(Bytes(piece.staging));
        let req = self.requests.get_mut(piece.request);
        req.pieces_left -= 1;
        if req.pieces_left == 0 {
            let req = self.requests.remove(piece.request);
            self.in_flight_requests -= 1;
            self.completed.push(Completed {
                tag: req.tag,
                enqueued: req.enqueued,
                issued: req.issued.unwrap_or(req.enqueued),
                read: req.read,
                done: done.end,
                source_size: req.request.source_size,
                destination_size: req.request.destination_size,
            });
        }
    }
}

/// Staging bytes a piece holds: its compressed bytes when read from a file, plus its share
/// of the zlib → BCPack intermediate, reserved with them so a job never waits for it.
fn staging_need(from_file: bool, piece: &nvme::Piece) -> u64 {
    let compressed = if from_file { piece.source_bytes.0 } else { 0 };
    compressed + piece.intermediate_bytes.0
}
