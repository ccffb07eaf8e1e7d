//! The DirectStorage path as the title sees it: requests → IOs (split at `max_io`) → staging
//! buffer → NVMe device → MDU job → title memory. It wires the `sfsim-models` components
//! together and reports each request's completion; it owns no clock; its owner calls
//! [`IoPath::process`] at every time [`IoPath::next_wake`] names.

use sfsim_models::mdu::{Job, JobDone, Mdu, Stages};
use sfsim_models::nvme::{IoDone, NvmeDevice, Request, RequestError, Source, StagingBuffer};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;
use std::collections::VecDeque;

use crate::scenario::Hardware;
use crate::stats::StatSet;

/// A request whose data reached title memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completed {
    /// The caller's tag from [`IoPath::enqueue`].
    pub tag: u64,
    pub enqueued: Time,
    /// When the last of its bytes left the drive (the enqueue time for memory requests).
    pub read: Time,
    pub done: Time,
    pub source_size: Bytes,
    pub destination_size: Bytes,
}

struct RequestState {
    tag: u64,
    enqueued: Time,
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

/// A free-list slab: stable small ids for in-flight requests and pieces.
struct Slab<T> {
    items: Vec<Option<T>>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    fn new() -> Self {
        Slab { items: Vec::new(), free: Vec::new() }
    }
    fn insert(&mut self, item: T) -> u32 {
        match self.free.pop() {
            Some(id) => {
                self.items[id as usize] = Some(item);
                id
            }
            None => {
                self.items.push(Some(item));
                (self.items.len() - 1) as u32
            }
        }
    }
    fn get_mut(&mut self, id: u32) -> &mut T {
        self.items[id as usize].as_mut().expect("live slab id")
    }
    fn remove(&mut self, id: u32) -> T {
        self.free.push(id);
        self.items[id as usize].take().expect("live slab id")
    }
}

pub struct IoPath {
    pub device: NvmeDevice,
    pub mdu: Mdu,
    pub staging: StagingBuffer,
    max_io: Bytes,
    waiting: VecDeque<u32>,
    requests: Slab<RequestState>,
    pieces: Slab<PieceState>,
    io_done: Vec<IoDone>,
    jobs_done: Vec<JobDone>,
    completed: Vec<Completed>,
    /// Every MDU job that finished, for statistics and traces; drained by the owner.
    pub job_log: Vec<JobDone>,
    in_flight_requests: usize,
}

impl IoPath {
    pub fn new(hw: &Hardware, seed: u64) -> Result<Self, ConfigError> {
        Ok(IoPath {
            device: NvmeDevice::new(&hw.nvme, seed).map_err(|e| e.within("hardware.nvme"))?,
            mdu: Mdu::new(&hw.mdu).map_err(|e| e.within("hardware.mdu"))?,
            staging: StagingBuffer::new(hw.staging),
            max_io: hw.nvme.max_io,
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

    /// The fixed throughput stats of a run of `duration`: `nvme.throughput`,
    /// `nvme.window_min`, `nvme.window_max`, `mdu.input_throughput`, `mdu.output_throughput`.
    pub fn push_throughput_stats(&self, s: &mut StatSet, duration: Time) {
        let secs = duration.as_secs_f64();
        let dev = self.device.stats();
        let window = self.device.config().window;
        let (mdu_in, mdu_out) = self.mdu.unit_stats().iter().fold((0u64, 0u64), |a, u| (a.0 + u.input, a.1 + u.output));
        s.push(
            "nvme.throughput",
            Some(dev.bytes as f64 / 1e6 / secs),
            "MB/s",
            "NVMe bytes read per second, mean over the run",
        );
        s.push(
            "nvme.window_min",
            dev.window_min.map(|b| b.as_mb_f64()),
            "MB",
            format!("least delivered in any full {window} window while IO was queued (null: no such window)"),
        );
        s.push(
            "nvme.window_max",
            dev.window_max.map(|b| b.as_mb_f64()),
            "MB",
            format!("most delivered in any full {window} window while IO was queued"),
        );
        s.push(
            "mdu.input_throughput",
            Some(mdu_in as f64 / 1e9 / secs),
            "GB/s",
            "bytes read by the MDU per second, mean over the run",
        );
        s.push(
            "mdu.output_throughput",
            Some(mdu_out as f64 / 1e9 / secs),
            "GB/s",
            "bytes the MDU wrote to memory per second, mean over the run",
        );
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
            self.device.submit(now, u64::from(pid), bytes);
        }
        self.device.set_backlog(now, !self.waiting.is_empty());
    }

    pub fn next_wake(&self) -> Option<Time> {
        match (self.device.next_event(), self.mdu.next_event()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Handles everything due at `now`; completed requests are appended to `out`.
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
                read: req.read,
                done: done.end,
                source_size: req.request.source_size,
                destination_size: req.request.destination_size,
            });
        }
    }
}
