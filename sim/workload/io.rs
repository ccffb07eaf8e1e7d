//! The IO workload: a title that, every `cadence`, enqueues requests until `in_flight`
//! source bytes are outstanding — the pattern of SPEC §1's "enqueue every 16.7 ms, keep
//! 64 MiB in flight" guidance.

use crate::iopath::{Completed, IoPath};
use crate::kernel::Kernel;
use crate::scenario::Scenario;
use crate::stats::{Bins, Latencies, StatSet, LATENCY_POINTS};
use crate::workload::throughput_bins::ThroughputBins;
use crate::workload::title::Title;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sfsim_models::nvme::{IoStatus, RequestError, RequestOptions, SwizzleMode, BCPACK_MODE_MAX, MAX_ZLIB_OUTPUT};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

/// Where requests read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum SourceKind {
    /// Streams in a file on the NVMe device, laid out back to back on 16-byte boundaries.
    #[default]
    File,
    /// In-memory decompression: the MDU only, no NVMe and no staging.
    Memory,
}

/// Uncompressed (destination) size of each request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamSize {
    Fixed(Bytes),
    /// Uniform in [min, max].
    Uniform {
        min: Bytes,
        max: Bytes,
    },
    /// One of the listed sizes, equally likely.
    Choice(Vec<Bytes>),
}

impl Default for StreamSize {
    fn default() -> Self {
        StreamSize::Fixed(Bytes::kib(64))
    }
}

impl StreamSize {
    fn bounds(&self) -> (Bytes, Bytes) {
        match self {
            StreamSize::Fixed(b) => (*b, *b),
            StreamSize::Uniform { min, max } => (*min, *max),
            StreamSize::Choice(list) => {
                (list.iter().copied().min().unwrap_or(Bytes::ZERO), list.iter().copied().max().unwrap_or(Bytes::ZERO))
            }
        }
    }

    pub(super) fn sample(&self, rng: &mut ChaCha8Rng) -> Bytes {
        match self {
            StreamSize::Fixed(b) => *b,
            StreamSize::Uniform { min, max } => Bytes(rng.gen_range(min.0..=max.0)),
            StreamSize::Choice(list) => list[rng.gen_range(0..list.len())],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IoWorkload {
    /// Where requests read from (File).
    pub source: SourceKind,
    /// Uncompressed size of each request (Fixed 64 KiB).
    pub stream: StreamSize,
    /// Uncompressed ÷ compressed size (2.0). Must be > 1 when zlib or BCPack is on and
    /// exactly 1 for uncompressed reads.
    pub ratio: f64,
    /// Each request's ratio is drawn uniformly from ratio × (1 ± ratio_spread) (0.1, 0..=0.5).
    pub ratio_spread: f64,
    /// DirectStorage request options (zlib on). When zlib and BCPack are both on, the
    /// IntermediateSize is the geometric mean of the compressed and uncompressed sizes.
    pub options: RequestOptions,
    /// The pages are perfectly compressible (written at the MDU's fill rate).
    pub fill: bool,
    /// The title enqueues every `cadence` (16.7 ms).
    pub cadence: Time,
    /// …until this many source (compressed) bytes are in flight (64 MiB).
    pub in_flight: Bytes,
    /// `SetStagingBuffer` calls during the run (none): from `at` on, the staging buffer has
    /// `size`; bytes already in it stay until the MDU consumes them.
    pub set_staging: Vec<StagingChange>,
}

/// One `SetStagingBuffer` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagingChange {
    pub at: Time,
    pub size: Bytes,
}

impl Default for IoWorkload {
    fn default() -> Self {
        IoWorkload {
            source: SourceKind::File,
            stream: StreamSize::default(),
            ratio: 2.0,
            ratio_spread: 0.1,
            options: RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 },
            fill: false,
            cadence: Time(16_700_000_000),
            in_flight: Bytes::mib(64),
            set_staging: Vec::new(),
        }
    }
}

impl IoWorkload {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (min, max) = self.stream.bounds();
        if let StreamSize::Choice(list) = &self.stream {
            if list.is_empty() {
                return Err(ConfigError::new("stream", "Choice needs at least one size"));
            }
        }
        if min.0 == 0 || max > Bytes::mib(512) || min > max {
            return Err(ConfigError::new(
                "stream",
                format!("sizes {min}..={max} are out of range; expected 1B..=512MiB with min ≤ max"),
            ));
        }
        if self.options.bcpack_mode > u32::from(BCPACK_MODE_MAX) {
            return Err(ConfigError::new(
                "options.bcpack_mode",
                format!("{} is out of range; expected 0..=7", self.options.bcpack_mode),
            ));
        }
        if SwizzleMode::from_raw(self.options.swizzle_mode).is_none() {
            return Err(ConfigError::new(
                "options.swizzle_mode",
                format!("{} is out of range; expected 0..={}", self.options.swizzle_mode, SwizzleMode::MAX),
            ));
        }
        let compresses = self.options.decompresses();
        if !self.ratio.is_finite() || (compresses && !(self.ratio > 1.0 && self.ratio <= 10_000.0)) {
            return Err(ConfigError::new("ratio", format!("{} is out of range; expected > 1 and ≤ 10000 when zlib or BCPack is on (compressed < uncompressed)", self.ratio)));
        }
        if !compresses && self.ratio != 1.0 {
            return Err(ConfigError::new(
                "ratio",
                format!("{} must be 1 for uncompressed reads (no zlib, no BCPack)", self.ratio),
            ));
        }
        if !(0.0..=0.5).contains(&self.ratio_spread) {
            return Err(ConfigError::new(
                "ratio_spread",
                format!("{} is out of range; expected 0..=0.5", self.ratio_spread),
            ));
        }
        if compresses && self.ratio * (1.0 - self.ratio_spread) <= 1.0 {
            return Err(ConfigError::new(
                "ratio_spread",
                format!("ratio {} × (1 − {}) must stay > 1 so every stream shrinks", self.ratio, self.ratio_spread),
            ));
        }
        // The zlib output is at most the uncompressed size.
        if self.options.zlib && max > MAX_ZLIB_OUTPUT {
            return Err(ConfigError::new(
                "stream",
                format!("largest stream {max} exceeds the zlib stage's {MAX_ZLIB_OUTPUT} per request"),
            ));
        }
        if self.fill && !compresses {
            return Err(ConfigError::new("fill", "perfectly compressible pages need zlib or BCPack on"));
        }
        if self.cadence < Time::from_us(1) || self.cadence > Time::from_secs(10) {
            return Err(ConfigError::new("cadence", format!("{} is out of range; expected 1us..=10s", self.cadence)));
        }
        if self.in_flight.0 == 0 || self.in_flight > Bytes::gib(16) {
            return Err(ConfigError::new(
                "in_flight",
                format!("{} is out of range; expected 1B..=16GiB", self.in_flight),
            ));
        }
        Ok(())
    }
}

/// A run that could not complete.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("request {index} rejected at enqueue: {source}")]
    Request { index: u64, source: RequestError },
}

/// One row of the per-window CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowRow {
    pub start: Time,
    pub end: Time,
    pub nvme_bytes: u64,
    pub mdu_in_bytes: u64,
    pub mdu_out_bytes: u64,
    pub requests_done: u64,
}

/// Everything a run measured, before it is written out.
pub struct IoOutcome {
    pub stats: StatSet,
    pub windows: Vec<WindowRow>,
    /// (bin start, NVMe bytes, MDU in bytes, MDU out bytes) at `fine_bin` resolution.
    pub fine: Vec<(Time, u64, u64, u64)>,
    pub fine_bin: Time,
    /// Completed requests' latencies (bounded memory: binned past `EXACT_SAMPLES`).
    pub latencies: Latencies,
    pub events: u64,
    /// Simulated time the run covers: the scenario's duration, or a content-pool run's
    /// elapsed time to its last completion.
    pub end: Time,
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Tick,
    Wake,
    SetStaging(Bytes),
}

const FINE_BIN: Time = Time::from_ms(10);

/// Events between drains of the path's transfer and job logs into the throughput bins.
const LOG_BATCH: u64 = 256;

/// Runs the IO workload for the scenario's duration. `progress(now, end)` is called now and
/// then so a caller can show progress; it never affects results.
pub fn run(scenario: &Scenario, cfg: &IoWorkload, progress: &mut dyn FnMut(Time, Time)) -> Result<IoOutcome, RunError> {
    run_with(scenario, cfg, IoPath::new(&scenario.hardware, scenario.seed)?, progress)
}

/// [`run`] on an IO path the caller built (e.g. with its own drive or MDU model through
/// [`IoPath::with_models`]); the scenario's `hardware` section is not used.
pub fn run_with(
    scenario: &Scenario,
    cfg: &IoWorkload,
    path: IoPath,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<IoOutcome, RunError> {
    let mut title = Title::new(cfg, scenario.seed ^ 0x5f5f_696f, 0, 0);
    let plan = Plan { cadence: cfg.cadence, set_staging: &cfg.set_staging, until_done: false };
    let mut ran = drive(scenario, &mut title, &plan, path, progress, &mut |_| {})?;
    let stats = collect_stats(scenario, &ran.path, &mut ran.latencies, title.enqueued(), ran.dest_done, ran.src_done);
    Ok(ran.into_outcome(stats))
}

/// How [`drive`] runs a title.
pub(super) struct Plan<'a> {
    /// The title enqueues every `cadence`.
    pub cadence: Time,
    pub set_staging: &'a [StagingChange],
    /// End when the title has nothing left to enqueue and everything completed (else run
    /// to the scenario's duration).
    pub until_done: bool,
}

/// What [`drive`] measured.
pub(super) struct Driven {
    pub path: IoPath,
    /// End of the measured span: the scenario's duration, or with `until_done` the last
    /// completion (the duration if the title had not finished by then).
    pub end: Time,
    pub windows: Vec<WindowRow>,
    pub fine: Vec<(Time, u64, u64, u64)>,
    pub latencies: Latencies,
    pub dest_done: u64,
    pub src_done: u64,
    pub events: u64,
}

impl Driven {
    pub(super) fn into_outcome(self, stats: StatSet) -> IoOutcome {
        IoOutcome {
            stats,
            windows: self.windows,
            fine: self.fine,
            fine_bin: FINE_BIN,
            latencies: self.latencies,
            events: self.events,
            end: self.end,
        }
    }
}

/// The IO run loop: `title` ticks every `plan.cadence` on `path` until the scenario's
/// duration (or, with `plan.until_done`, until it has finished); `on_complete` sees each
/// completion. Windows are whole `hardware.nvme.window`s from 0; with `until_done` a
/// last, shorter window ends at the end of the run.
pub(super) fn drive(
    scenario: &Scenario,
    title: &mut Title,
    plan: &Plan,
    mut path: IoPath,
    progress: &mut dyn FnMut(Time, Time),
    on_complete: &mut dyn FnMut(&Completed),
) -> Result<Driven, RunError> {
    let end = scenario.duration;
    let mut kernel = Kernel::new();
    kernel.schedule(Time::ZERO, Event::Tick);
    for change in plan.set_staging {
        kernel.schedule(change.at, Event::SetStaging(change.size));
    }
    let mut wake_at: Option<Time> = None;

    let window = scenario.hardware.nvme.window;
    let mut req_w = Bins::new(window);
    let mut bins = ThroughputBins::new(window, FINE_BIN);
    let mut completed: Vec<Completed> = Vec::new();
    let mut latencies = Latencies::default();
    let (mut dest_done, mut src_done) = (0u64, 0u64);
    let mut last_done: Option<Time> = None;

    while let Some((now, event)) = kernel.pop() {
        if now > end {
            break;
        }
        if kernel.processed() % 65_536 == 0 {
            progress(now, end);
        }
        match event {
            Event::Tick => {
                title.tick(now, &mut path)?;
                if !title.exhausted() {
                    kernel.schedule(now + plan.cadence, Event::Tick);
                }
            }
            Event::Wake => {
                if wake_at == Some(now) {
                    wake_at = None;
                }
            }
            Event::SetStaging(size) => path.set_staging(now, size),
        }
        path.process(now, &mut completed);
        // Read in place (field by field: a copy of the just-written record stalled on
        // store forwarding), then cleared: most events complete nothing, and a drain
        // costs more to set up than this loop.
        for c in &completed {
            title.completed(c);
            // A failed request put no data in memory: the path counts it by status
            // (request.failed.*), the title's throughput and latency leave it out.
            if c.status != IoStatus::Ok {
                continue;
            }
            on_complete(c);
            req_w.add_at(c.done, 1);
            latencies.push(c.done - c.enqueued);
            dest_done += c.destination_size.0;
            src_done += c.source_size.0;
            last_done = Some(last_done.map_or(c.done, |t| t.max(c.done)));
        }
        completed.clear();
        // Bins are sums, so the logs can wait: draining them in batches saves two calls
        // through the model traits per event.
        if kernel.processed() % LOG_BATCH == 0 {
            bins.drain(&mut path);
        }
        if plan.until_done && title.finished() {
            break;
        }
        if let Some(next) = path.next_wake() {
            if wake_at.is_none_or(|w| next < w) {
                kernel.schedule(next, Event::Wake);
                wake_at = Some(next);
            }
        }
    }
    let end = match last_done {
        Some(t) if plan.until_done && title.finished() => t.min(end),
        _ => end,
    };
    progress(end, end);
    bins.drain(&mut path);
    path.finish(end);

    let window_count = if plan.until_done { end.0.div_ceil(window.0) as usize } else { (end.0 / window.0) as usize };
    let (nv, mi, mo) = bins.windows(window_count);
    let rq = req_w.values(window_count);
    let windows = (0..window_count)
        .map(|i| WindowRow {
            start: Time(window.0 * i as u64),
            end: Time(window.0 * (i as u64 + 1)).min(end),
            nvme_bytes: nv[i],
            mdu_in_bytes: mi[i],
            mdu_out_bytes: mo[i],
            requests_done: rq[i],
        })
        .collect();
    let fine_count = end.0.div_ceil(FINE_BIN.0) as usize;
    let (fnv, fin, fout) = bins.fine(fine_count);
    let fine = (0..fine_count).map(|i| (Time(FINE_BIN.0 * i as u64), fnv[i], fin[i], fout[i])).collect();

    Ok(Driven { path, end, windows, fine, latencies, dest_done, src_done, events: kernel.processed() })
}

fn collect_stats(
    scenario: &Scenario,
    path: &IoPath,
    latencies: &mut Latencies,
    enqueued: u64,
    dest_done: u64,
    src_done: u64,
) -> StatSet {
    let secs = scenario.duration.as_secs_f64();
    let mut s = StatSet::default();
    path.push_stats(&mut s, scenario.duration);
    s.push("request.enqueued", Some(enqueued as f64), "count", "requests the title enqueued");
    s.push("request.completed", Some(latencies.len() as f64), "count", "requests whose data reached title memory");
    s.push(
        "request.throughput",
        Some(dest_done as f64 / 1e6 / secs),
        "MB/s",
        "uncompressed bytes of completed requests per second",
    );
    s.push(
        "request.source_throughput",
        Some(src_done as f64 / 1e6 / secs),
        "MB/s",
        "source (compressed) bytes of completed requests per second",
    );
    s.push_latency_percentiles_ms("request.latency", latencies, &LATENCY_POINTS, |n| {
        format!("request latency {n}: enqueue → data in title memory")
    });
    s
}
