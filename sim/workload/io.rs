//! The IO workload: a title that, every `cadence`, enqueues requests until `in_flight`
//! source bytes are outstanding — the pattern of SPEC §1's "enqueue every 16.7 ms, keep
//! 64 MiB in flight" guidance.

use crate::iopath::{Completed, IoPath};
use crate::kernel::Kernel;
use crate::scenario::Scenario;
use crate::stats::{Bins, Latencies, StatSet, LATENCY_POINTS};
use crate::workload::throughput_bins::ThroughputBins;
use crate::workload::title::Title;
use sfsim_models::nvme::{IoStatus, RequestError};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

pub use super::io_config::{IoWorkload, SourceKind, StagingChange, StreamSize};

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
