//! The engine beside other IO (`background`): asset reads that saturate the drive and
//! in-memory decompression on the MDU share the path with tile loads.

use crate::common::{run_file, stat};

const SHORT: [&str; 2] = ["duration=2s", "workload.render.resolution=(960, 540)"];

#[test]
fn background_reads_saturate_the_drive_and_delay_the_tiles() {
    let mixed = run_file("scenarios/stream/mixed-io.ron", &SHORT);
    let alone = run_file("scenarios/stream/mixed-io.ron", &[&SHORT[..], &["workload.background=[]"]].concat());
    // The background titles ran and are reported on their own.
    assert!(stat(&mixed, "background0.throughput") > 2000.0, "asset reads {}", stat(&mixed, "background0.throughput"));
    assert!(stat(&mixed, "background1.completed") > 100.0);
    assert!(stat(&mixed, "nvme.throughput") > 1900.0);
    assert!(stat(&mixed, "nvme.window_min") >= 500.0, "the guarantee holds with the engine beside a title");
    assert!(alone.iter().all(|s| !s.name.starts_with("background")));
    // Tiles wait behind the title's reads: the drive queue grows and the drive is named.
    assert!(stat(&mixed, "tile.stage.io_queue.mean") > 5.0 * stat(&alone, "tile.stage.io_queue.mean") + 1.0);
    assert!(stat(&mixed, "tile.latency.p95") > stat(&alone, "tile.latency.p95"));
    assert!(stat(&mixed, "engine.bottleneck.drive") > 0.5);
    // Every tile the engine asked for still loads; the engine's own latencies exclude the
    // title's requests.
    assert!(stat(&mixed, "engine.tiles_loaded") > 0.95 * stat(&alone, "engine.tiles_loaded"));
}

#[test]
fn a_background_title_is_checked_like_an_io_workload() {
    let file = crate::common::repo("scenarios/stream/mixed-io.ron");
    for (set, field) in [
        ("workload.background=[(cadence: \"0s\")]", "background[0].cadence"),
        ("workload.background=[(set_staging: [(at: \"1s\", size: \"64MiB\")])]", "background[0].set_staging"),
    ] {
        let err = sfsim::scenario::Scenario::load(&file, &[set.parse().unwrap()]).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(field), "{set}: {err}");
    }
}
