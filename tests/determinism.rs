//! Same scenario + seed ⇒ byte-identical stats.

use crate::common::{repo, sfsim};

#[test]
fn reruns_write_byte_identical_stats_and_windows() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for run in 0..2 {
        let out = dir.path().join(format!("run{run}"));
        let status = sfsim()
            .args(["run", "-q", "--no-host-stats", "--out"])
            .arg(&out)
            .arg(repo("scenarios/io/quick.ron"))
            .status()
            .unwrap();
        assert!(status.success());
        outputs.push((std::fs::read(out.join("stats.json")).unwrap(), std::fs::read(out.join("windows.csv")).unwrap()));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "stats.json differs between runs");
    assert_eq!(outputs[0].1, outputs[1].1, "windows.csv differs between runs");
}

#[test]
fn another_seed_changes_the_stalls() {
    let a = crate::common::run_file("scenarios/io/quick.ron", &[]);
    let b = crate::common::run_file("scenarios/io/quick.ron", &["seed=2"]);
    assert_ne!(a.get("nvme.stall_time"), b.get("nvme.stall_time"));
}
