//! The shipped IO scenarios against SPEC §1–2's published figures.

use crate::common::{run_file, stat};

#[test]
fn saturate_delivers_the_guaranteed_rate_in_every_window() {
    let s = run_file("scenarios/io/saturate.ron", &[]);
    assert!(stat(&s, "nvme.throughput") >= 1950.0, "{}", stat(&s, "nvme.throughput"));
    assert!(stat(&s, "nvme.window_min") >= 500.0, "{}", stat(&s, "nvme.window_min"));
    // The window maximum never exceeds peak × 250 ms = 600 MB.
    assert!(stat(&s, "nvme.window_max") <= 600.0);
}

#[test]
fn sixteen_mib_in_flight_starves_the_pipe() {
    let full = stat(&run_file("scenarios/io/saturate.ron", &[]), "nvme.throughput");
    let starved = stat(&run_file("scenarios/io/saturate.ron", &["workload.in_flight=16MiB"]), "nvme.throughput");
    assert!(starved < 0.6 * full, "16 MiB: {starved} MB/s vs 64 MiB: {full} MB/s");
    // Closed form: with the pipe never full, the title moves in_flight per cadence.
    let expected = 16.0 * 1.048_576 / 0.0167;
    assert!((starved - expected).abs() / expected < 0.03, "{starved} vs {expected}");
}

#[test]
fn mdu_memory_reaches_the_binding_limit_without_exceeding_either() {
    // 2:1: input binds (2 × 1.6 GB/s).
    let s = run_file("scenarios/io/mdu-memory.ron", &[]);
    let (input, output) = (stat(&s, "mdu.input_throughput"), stat(&s, "mdu.output_throughput"));
    assert!(input <= 3.2 && output <= 8.0, "{input} {output}");
    assert!(input >= 0.95 * 3.2, "input {input}");
    // 4:1: output binds (2 × 4 GB/s).
    let s = run_file("scenarios/io/mdu-memory.ron", &["workload.ratio=4"]);
    let (input, output) = (stat(&s, "mdu.input_throughput"), stat(&s, "mdu.output_throughput"));
    assert!(input <= 3.2 && output <= 8.0, "{input} {output}");
    assert!(output >= 0.95 * 8.0, "output {output}");
}

#[test]
fn perfectly_compressible_pages_cap_at_twelve_gb_per_s() {
    let s = run_file("scenarios/io/mdu-memory.ron", &["workload.fill=true", "workload.ratio=1000"]);
    let output = stat(&s, "mdu.output_throughput");
    assert!((0.95 * 12.0..=12.0).contains(&output), "fill output {output}");
}

#[test]
fn io_quick_runs_and_meets_the_guarantee() {
    let s = run_file("scenarios/io/quick.ron", &[]);
    assert!(stat(&s, "nvme.window_min") >= 500.0);
    assert!(stat(&s, "request.completed") > 1000.0);
    for name in ["request.latency.p50", "request.latency.p95", "request.latency.p99", "request.latency.max"] {
        assert!(stat(&s, name) > 0.0, "{name}");
    }
}

#[test]
fn set_staging_buffer_resizes_during_the_run() {
    // A 1 MiB staging buffer caps what can wait for the MDU; after SetStagingBuffer(32 MiB)
    // at 1 s the drive runs ahead of the MDU again and the buffer fills past 16 MiB.
    let small = run_file("scenarios/io/saturate.ron", &["duration=2s", "hardware.staging=1MiB"]);
    assert!(stat(&small, "staging.peak") <= 1.0);
    let resized = run_file(
        "scenarios/io/saturate.ron",
        &["duration=2s", "hardware.staging=1MiB", r#"workload.set_staging=[(at: "1s", size: "32MiB")]"#],
    );
    assert!(stat(&resized, "staging.peak") > 16.0, "{}", stat(&resized, "staging.peak"));
}
