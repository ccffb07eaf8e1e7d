use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Override, Scenario};
use sfsim::stats::StatSet;
use std::path::{Path, PathBuf};

pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs a scenario file from the repository with `path=value` overrides.
pub fn run_file(file: &str, sets: &[&str]) -> StatSet {
    let overrides: Vec<Override> = sets.iter().map(|s| s.parse().expect("valid override")).collect();
    let scenario = Scenario::load(&repo(file), &overrides).expect("scenario loads");
    run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("run succeeds").stats
}

pub fn stat(stats: &StatSet, name: &str) -> f64 {
    stats.get(name).unwrap_or_else(|| panic!("stat {name} missing or null"))
}

pub fn sfsim() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_sfsim"))
}
