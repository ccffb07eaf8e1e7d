use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use sfsim::output::write_run;
use sfsim::run::{run_in, RunOptions};
use sfsim::scenario::{Override, Scenario};
use sfsim_models::units::Time;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct RunArgs {
    /// Scenario file (.ron).
    pub file: PathBuf,
    /// Override a field, e.g. --set workload.in_flight=16MiB (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Output folder (default: reports/out/<scenario name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Leave the wall-clock host.* stats out of stats.json so runs compare byte for byte.
    #[arg(long)]
    pub no_host_stats: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Threads that trace a frame's samples, 1..=1024 (default: one per core, or
    /// RAYON_NUM_THREADS). The outputs are the same for any count; only the host.* stats,
    /// host.threads among them, differ.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// A progress bar that appears only once a run has taken more than a second.
pub(super) struct Progress {
    started: Instant,
    bar: Option<ProgressBar>,
    quiet: bool,
}

impl Progress {
    pub(super) fn new(quiet: bool) -> Self {
        Progress { started: Instant::now(), bar: None, quiet }
    }

    pub(super) fn update(&mut self, now: Time, end: Time) {
        if self.quiet || self.started.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::new(1000);
            bar.set_style(
                ProgressStyle::with_template("{spinner} simulated {msg} [{bar:40}] {percent}% eta {eta}")
                    .expect("valid template"),
            );
            bar
        });
        bar.set_message(format!("{:.2}s / {:.2}s", now.as_secs_f64(), end.as_secs_f64()));
        bar.set_position(((now.0 as u128 * 1000) / end.0.max(1) as u128) as u64);
    }

    pub(super) fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn execute(args: RunArgs) -> anyhow::Result<()> {
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads.into())
            .build_global()
            .with_context(|| format!("--threads {threads}: the thread pool was already started"))?;
    }
    let scenario = Scenario::load(&args.file, &args.set)?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("reports/out").join(&scenario.name));
    sfsim::output::prepare_dir(&out)?;
    let mut progress = Progress::new(args.quiet);
    let options = RunOptions { host_stats: !args.no_host_stats };
    let result = run_in(&scenario, options, Some(&out), &mut |now, end| progress.update(now, end))
        .with_context(|| format!("{}: run failed", args.file.display()))?;
    progress.finish();
    write_run(&out, &scenario, &result.outcome, &result.stats)?;
    if !args.quiet {
        let show = [
            "nvme.throughput",
            "nvme.window_min",
            "mdu.input_throughput",
            "mdu.output_throughput",
            "request.latency.p50",
            "request.latency.p99",
            "scene.virtual_size",
            "feedback.tiles_requested.mean",
            "feedback.tiles_seen",
            "engine.loads",
            "engine.evictions",
            "tile.latency.p95",
            "quality.lod_deficit.mean",
            "host.sim_speed",
            "content.verified_tiles",
            "content.hash_mismatches",
        ];
        for s in result.stats.iter().filter(|s| show.contains(&s.name.as_str())) {
            let value = s.value.map_or("n/a".to_string(), |v| format!("{v:.3}"));
            println!("{:<24} {:>12} {}", s.name, value, s.unit);
        }
        println!("report: {}", out.join("index.html").display());
    }
    Ok(())
}
