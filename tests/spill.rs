//! Spill files: a streaming run longer than its in-memory buffers writes finished rows to
//! anonymous files in the folder it is given, leaves nothing there, gives the same outputs
//! as a run short enough to keep them in memory, and names the folder when it cannot.

use crate::common::{repo, sfsim};
use sfsim::run::{run_in, RunOptions};
use sfsim::scenario::Scenario;

/// The quickstart for 40 s: over a thousand frames and thousands of loads, past both
/// buffers.
fn long_quickstart() -> Scenario {
    Scenario::load(&repo("scenarios/quickstart.ron"), &["duration=40s".parse().unwrap()]).unwrap()
}

#[test]
fn a_spill_folder_that_cannot_hold_files_is_named_not_a_panic() {
    let missing = std::path::Path::new("/nonexistent/sfsim-spill-test");
    let options = RunOptions { host_stats: false };
    let Err(e) = run_in(&long_quickstart(), options, Some(missing), &mut |_, _| {}) else {
        panic!("a run spilling to a missing folder must fail");
    };
    assert!(e.to_string().contains("/nonexistent/sfsim-spill-test"), "{e}");
}

#[test]
fn a_spilling_run_leaves_only_its_outputs_and_reads_its_rows_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = sfsim()
        .args(["run", "scenarios/quickstart.ron", "--set", "duration=40s", "--no-host-stats", "-q", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert!(names.iter().all(|n| !n.starts_with('.')), "left behind: {names:?}");
    let frames = std::fs::read_to_string(out.join("frames.csv")).unwrap();
    let numbers: Vec<u64> = frames.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    assert!(numbers.len() > 1024, "the run must spill frames: {}", numbers.len());
    assert!(numbers.iter().enumerate().all(|(i, &n)| n == i as u64), "every frame, in order");
    let tiles = std::fs::read_to_string(out.join("tiles.csv")).unwrap();
    let loads: f64 = {
        let stats: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
        stats["engine.tiles_loaded"]["value"].as_f64().unwrap()
    };
    assert!(loads > 4096.0, "the run must spill records: {loads}");
    assert!(tiles.lines().count() as f64 > loads, "every load has a row");
}
