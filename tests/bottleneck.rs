//! Bottleneck attribution (`engine.bottleneck.*`): starve one resource of the quickstart
//! and the shares name it; the shares always sum to 1.

use crate::common::run_file;
use sfsim::stats::StatSet;

fn shares(stats: &StatSet) -> Vec<(String, f64)> {
    stats.iter().filter_map(|s| Some((s.name.strip_prefix("engine.bottleneck.")?.to_string(), s.value?))).collect()
}

fn largest(sets: &[&str]) -> String {
    let stats = run_file("scenarios/quickstart.ron", &[sets, &["duration=1500ms"]].concat());
    let shares = shares(&stats);
    assert_eq!(shares.len(), 9, "{shares:?}");
    let total: f64 = shares.iter().map(|s| s.1).sum();
    assert!((total - 1.0).abs() < 1e-9, "shares sum to {total}: {shares:?}");
    let (name, _) = shares.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    name.clone()
}

#[test]
fn a_slow_drive_is_named() {
    assert_eq!(largest(&["hardware.nvme.peak=60MB/s", "hardware.nvme.guaranteed=50MB/s"]), "drive");
}

#[test]
fn a_slow_mdu_is_named() {
    assert_eq!(largest(&["hardware.mdu.units=1", "hardware.mdu.output=40MB/s", "hardware.mdu.input=40MB/s"]), "mdu");
}

#[test]
fn a_small_pool_is_named() {
    assert_eq!(largest(&["workload.engine.pool=2MiB"]), "pool");
}

#[test]
fn the_upload_cap_is_named() {
    assert_eq!(largest(&["workload.engine.upload_cap=1"]), "upload_cap");
}
