//! The DirectStorage path as the title sees it: requests → IOs (split at `max_io`) → staging
//! buffer → NVMe device → MDU job → title memory. It wires the `sfsim-models` components
//! together and reports each request's completion; it owns no clock; its owner calls
//! [`IoPath::process`] at every time [`IoPath::next_wake`] names.
//!
//! The drive and the MDU are trait objects ([`NvmeModel`], [`MduModel`]): [`IoPath::new`]
//! builds sfsim's own from a [`Hardware`] section, [`IoPath::with_models`] takes any others.

mod process;
mod queue;
mod slab;
mod stats;

use sfsim_models::faults;
use sfsim_models::mdu::{Job, JobDone, MduModel, UnitStats};
use sfsim_models::nvme::{DeviceStats, IoDone, IoStatus, NvmeModel, StagingBuffer, Transfer};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::{ConfigError, Hardware};
use slab::Slab;
use std::collections::VecDeque;

/// A request whose data reached title memory, or that failed (`status`).
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
    /// How it ended: `Ok`, or the first fault one of its IOs met (`hardware.faults`). A
    /// request that is not `Ok` put no usable data in title memory.
    pub status: IoStatus,
}

/// What the path keeps of a request in flight (only what its completion reports: a small
/// record is quicker to store and move than the whole
/// [`Request`](sfsim_models::nvme::Request)).
struct RequestState {
    tag: u64,
    enqueued: Time,
    issued: Option<Time>,
    read: Time,
    source_size: Bytes,
    destination_size: Bytes,
    pieces_left: u32,
    status: IoStatus,
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
    /// Every MDU job that finished, for statistics and traces; drained by the owner.
    job_log: Vec<JobDone>,
    in_flight_requests: usize,
    merged_reads: u64,
    /// Requests completed per status ([`IoStatus`] order), for the fault stats.
    by_status: [u64; 4],
    /// Whether the scenario injects faults: only then are fault stats reported, so runs
    /// without faults keep their stats exactly.
    report_faults: bool,
    /// Staging space, a drive slot or the waiting list changed since the last
    /// [`pump`](Self::pump): only then can a waiting IO move (most events change neither).
    pump_due: bool,
    /// The backlog flag the drive was last given: [`NvmeModel::set_backlog`] is called
    /// only when it changes (after every change, as the trait asks).
    backlog_told: Option<bool>,
    /// [`next_wake`](Self::next_wake), refreshed whenever the path changes the drive or
    /// the MDU (the owner asks after every event).
    wake: Option<Time>,
    /// The drive's and the MDU's next events as of the last refresh of `wake`.
    device_next: Option<Time>,
    mdu_next: Option<Time>,
    /// The drive's [`NvmeModel::can_accept`], asked again after each call that changes
    /// the drive (`advance`, `submit`, `set_backlog`).
    accepting: bool,
}

impl IoPath {
    /// The path of a scenario's `hardware` section: sfsim's drive and MDU with the
    /// section's faults on them ([`faults::build_drive`], [`faults::build_mdu`]; the drive's
    /// stalls and faults seeded by `seed`). Errors name the field as
    /// the scenario does (`hardware.nvme.peak`, `hardware.staging`).
    pub fn new(hw: &Hardware, seed: u64) -> Result<Self, ConfigError> {
        hw.validate()?;
        let device = faults::build_drive(&hw.nvme, &hw.faults, seed).map_err(|e| e.within("hardware.nvme"))?;
        let mdu = faults::build_mdu(&hw.mdu, &hw.faults).map_err(|e| e.within("hardware.mdu"))?;
        let mut path = Self::with_models(device, mdu, hw.staging, hw.nvme.max_io)?;
        path.merge_adjacent = hw.nvme.merge_adjacent;
        path.report_faults = hw.faults.any();
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
    ///             done.push(IoDone::ok(id, end));
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
        let mut path = IoPath {
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
            job_log: Vec::new(),
            in_flight_requests: 0,
            merged_reads: 0,
            by_status: [0; 4],
            report_faults: false,
            pump_due: false,
            backlog_told: None,
            wake: None,
            device_next: None,
            mdu_next: None,
            accepting: false,
        };
        path.accepting = path.device.can_accept();
        // A drive may have an event before any IO (its first stall).
        path.refresh_wake();
        Ok(path)
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
        self.accepting = self.device.can_accept();
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

    /// Reports fault stats (`faults.*`) even for a path built from models; [`new`](Self::new)
    /// turns this on when the scenario configures a fault.
    pub fn set_report_faults(&mut self, on: bool) {
        self.report_faults = on;
    }

    /// Requests completed so far with `status`.
    pub fn completed_with(&self, status: IoStatus) -> u64 {
        self.by_status[status as usize]
    }
}
