//! Running a scenario: dispatch on the workload, then add the host-speed figures (the only
//! place that reads the wall clock).

use crate::scenario::{Scenario, Workload};
use crate::stats::StatSet;
use crate::workload::io::{self, IoOutcome};
use crate::workload::pool;
use crate::workload::render::{self, RenderError, RenderOutcome};
use crate::workload::stream::{self, StreamOutcome};
use sfsim_models::units::Time;
use std::time::Instant;

/// Options that change what is reported, never what is simulated.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Add `host.*` stats (wall-clock speed). They differ between runs; leave them out to
    /// compare stats.json files byte for byte.
    pub host_stats: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { host_stats: true }
    }
}

/// What a run measured, by workload kind (a content-pool run's is an IO run's).
pub enum Outcome {
    Io(Box<IoOutcome>),
    Render(RenderOutcome),
    Stream(Box<StreamOutcome>),
}

/// A run could not complete.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Io(#[from] io::RunError),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    Stream(#[from] stream::StreamError),
}

pub struct RunResult {
    pub outcome: Outcome,
    /// The outcome's stats plus, if asked for, the host figures.
    pub stats: StatSet,
}

/// Runs `scenario` to its end. `progress(now, end)` is called now and then. A streaming
/// run spills its finished frames.csv rows and tiles.csv records to anonymous files in the
/// system's temporary folder ([`run_in`] names the folder).
pub fn run(
    scenario: &Scenario,
    options: RunOptions,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<RunResult, RunError> {
    run_in(scenario, options, None, progress)
}

/// [`run`] with a streaming run's spill files in `spill_dir` (`sfsim run` gives its output
/// folder, so that nothing is written outside it); they are anonymous, so nothing remains.
pub fn run_in(
    scenario: &Scenario,
    options: RunOptions,
    spill_dir: Option<&std::path::Path>,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<RunResult, RunError> {
    let started = Instant::now();
    let (outcome, mut stats, events, simulated) = match &scenario.workload {
        Workload::Io(cfg) => {
            let o = io::run(scenario, cfg, progress)?;
            let (stats, events, end) = (o.stats.clone(), o.events, o.end);
            (Outcome::Io(Box::new(o)), stats, events, end)
        }
        Workload::Pool(cfg) => {
            let o = pool::run(scenario, cfg, progress)?.io;
            let (stats, events, end) = (o.stats.clone(), o.events, o.end);
            (Outcome::Io(Box::new(o)), stats, events, end)
        }
        Workload::Stream(cfg) => {
            let components = stream::Components::from_scenario(scenario, cfg)?;
            let spill = spill_dir.map(std::path::Path::to_path_buf);
            let o = stream::run_spilling(scenario, cfg, components, spill, progress, &mut |_, _| {})?;
            let (stats, events) = (o.stats.clone(), o.events);
            (Outcome::Stream(Box::new(o)), stats, events, scenario.duration)
        }
        Workload::Render(cfg) => {
            let o = render::run(scenario.duration, scenario.seed, &scenario.base_dir, cfg, progress)?;
            let (stats, events) = (o.stats.clone(), o.events);
            (Outcome::Render(o), stats, events, scenario.duration)
        }
    };
    let wall = started.elapsed().as_secs_f64().max(1e-9);
    if options.host_stats {
        stats.push("host.wall_seconds", Some(wall), "s", "wall-clock time of the simulation (not deterministic)");
        stats.push(
            "host.sim_speed",
            Some(simulated.as_secs_f64() / wall),
            "x",
            "simulated seconds per wall-clock second (not deterministic)",
        );
        stats.push(
            "host.events_per_second",
            Some(events as f64 / wall),
            "events/s",
            "kernel events per wall-clock second (not deterministic)",
        );
        stats.push(
            "host.threads",
            Some(rayon::current_num_threads() as f64),
            "count",
            "threads that traced the frames' samples (sfsim run --threads; outputs do not depend on it)",
        );
    }
    stats.push("sim.events", Some(events as f64), "count", "kernel events processed");
    Ok(RunResult { outcome, stats })
}
