//! Running a scenario from Rust instead of the `sfsim` command line.
//!
//! ```text
//! cargo run --release --example run_from_rust
//! ```
//!
//! It loads the quickstart scenario with two overrides (the same `path=value` text that
//! `sfsim run --set` takes), runs it, and reads a few of the stats that `stats.json` would
//! hold. Nothing is written to disk: writing the outputs is `sfsim::output::write_run`.

use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Override, Scenario};
use std::error::Error;
use std::path::Path;

fn main() -> Result<(), Box<dyn Error>> {
    // The scenario file, found from the repository root whatever the working directory.
    // Paths inside it (the camera path) are relative to the file's folder.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/quickstart.ron");

    // Overrides are applied in order before validation, exactly like `--set`: one for a
    // top-level field, one for a nested field of the Stream workload.
    let overrides: Vec<Override> = vec!["duration=1s".parse()?, "workload.engine.pool=128MiB".parse()?];
    let scenario = Scenario::load(&file, &overrides)?;

    // `host_stats: false` leaves out the wall-clock `host.*` figures, so the stats are a
    // pure function of the scenario (byte-identical from run to run). The closure is
    // called now and then with (simulated now, simulated end), for a progress bar.
    let result = run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {})?;

    // Every stat is an f64 in the unit stats.json gives it; `None` when the run has no
    // value for it (e.g. a percentile of no samples).
    let stats = &result.stats;
    let loads = stats.get("engine.loads").ok_or("no engine.loads stat")?;
    let show = |name: &str| stats.get(name).map_or("-".to_string(), |v| format!("{v:.3}"));
    println!("scenario {:?}: {} simulated, pool 128 MiB", scenario.name, scenario.duration);
    println!("  engine.loads      {loads} tile loads submitted");
    println!("  tile.latency.p95  {} ms (feedback asked for the tile → visible)", show("tile.latency.p95"));
    println!("  nvme.throughput   {} MB/s (mean over the run)", show("nvme.throughput"));

    // The camera moves through the grid from the first frame on, so the engine must have
    // streamed tiles in.
    assert!(loads > 0.0, "the engine submitted no loads");
    Ok(())
}
