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
    self, DeviceStats, IoDone, NvmeModel, Request, RequestError, Source, StagingBuffer, Transfer,
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

#[derive(Clone, Copy)]
struct PieceState {
    request: u32,
    job: Job,
    from_file: bool,
}

/// The DirectStorage queue with its staging buffer, the drive and the MDU, as one
/// self-timed component of the owner's event loop.
pub struct IoPath {
    device: Box<dyn NvmeModel>,
    mdu: Box<dyn MduModel>,
    staging: StagingBuffer,
    max_io: Bytes,
    waiting: VecDeque<u32>,
    requests: Slab<RequestState>,
    pieces: Slab<PieceState>,
    io_done: Vec<IoDone>,
    jobs_done: Vec<JobDone>,
    completed: Vec<Completed>,
    /// Every MDU job that finished, for statistics and traces; drained by the owner.
    job_log: Vec<JobDone>,
    in_flight_requests: usize,
}

impl IoPath {
    /// The path of a scenario's `hardware` section: sfsim's drive ([`nvme::build_model`],
    /// its stalls seeded by `seed`) and MDU ([`mdu::build_model`]). Errors name the field as
    /// the scenario does (`hardware.nvme.peak`, `hardware.staging`).
    pub fn new(hw: &Hardware, seed: u64) -> Result<Self, ConfigError> {
        hw.validate()?;
        let device = nvme::build_model(&hw.nvme, seed).map_err(|e| e.within("hardware.nvme"))?;
        let mdu = mdu::build_model(&hw.mdu).map_err(|e| e.within("hardware.mdu"))?;
        Self::with_models(device, mdu, hw.staging, hw.nvme.max_io)
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
            waiting: VecDeque::new(),
            requests: Slab::new(),
            pieces: Slab::new(),
            io_done: Vec::new(),
            jobs_done: Vec::new(),
            completed: Vec::new(),
            job_log: Vec::new(),
            in_flight_requests: 0,
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

    /// Checks the request against the DirectStorage rules and queues it at `now`.
    pub fn enqueue(&mut self, now: Time, request: Request, tag: u64) -> Result<(), RequestError> {
        request.validate()?;
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
        let from_file = matches!(request.source, Source::File { .. });
        for piece in pieces {
            let job = Job {
                id: 0,
                input: piece.source_bytes,
                output: piece.destination_bytes,
                stages: Stages::from(request.options),
                fill: request.fill,
            };
            let pid = self.pieces.insert(PieceState { request: id, job, from_file });
            self.pieces.get_mut(pid).job.id = u64::from(pid);
            if from_file {
                self.waiting.push_back(pid);
            } else {
                self.mdu.submit(now, Job { id: u64::from(pid), ..job });
            }
        }
        self.pump(now);
        Ok(())
    }

    /// `SetStagingBuffer` at `now` (after [`process`](Self::process) up to `now`).
    pub fn set_staging(&mut self, now: Time, size: Bytes) {
        self.staging.resize(size);
        self.pump(now);
    }

    /// Moves waiting IOs into the device while staging space and a queue slot are free.
    fn pump(&mut self, now: Time) {
        while let Some(&pid) = self.waiting.front() {
            let bytes = self.pieces.get_mut(pid).job.input;
            if !self.device.can_accept() || !self.staging.try_alloc(bytes) {
                break;
            }
            self.waiting.pop_front();
            let request = self.pieces.get_mut(pid).request;
            let issued = &mut self.requests.get_mut(request).issued;
            issued.get_or_insert(now);
            self.device.submit(now, u64::from(pid), bytes);
        }
        self.device.set_backlog(now, !self.waiting.is_empty());
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
                let piece = *self.pieces.get_mut(done.id as u32);
                let req = self.requests.get_mut(piece.request);
                req.read = req.read.max(done.time);
                self.mdu.submit(done.time, piece.job);
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
        if piece.from_file {
            self.staging.free(piece.job.input);
        }
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
