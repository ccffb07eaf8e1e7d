//! Fault injection (`hardware.faults`): every injected fault is counted, the engine
//! retries failed tiles with back-off and never shows one whose load failed, the counts are
//! conserved, a throttle below the guarantee is flagged, and losing an MDU unit halves an
//! MDU-bound run's throughput. Runs with faults stay deterministic.

use crate::common::{repo, run_file, stat};
use sfsim::scenario::{Override, Scenario};
use sfsim::workload::stream;

/// The shipped fault scenario, shortened: the throttle and the unit loss inside 1.5 s.
const STREAM: [&str; 4] = [
    "duration=1500ms",
    "workload.render.resolution=(960, 540)",
    "hardware.faults.throttle=Some((at: \"400ms\", length: \"700ms\", rate: \"500MB/s\"))",
    "hardware.faults.mdu_unit_lost_at=Some(\"1s\")",
];

const KINDS: [&str; 4] = ["io_error", "timeout", "latency_spike", "corrupt"];

#[test]
fn the_engine_retries_never_shows_a_failed_tile_and_conserves_every_failure() {
    let overrides: Vec<Override> = STREAM.iter().map(|s| s.parse().unwrap()).collect();
    let scenario = Scenario::load(&repo("scenarios/stream/faults.ron"), &overrides).unwrap();
    let sfsim::scenario::Workload::Stream(cfg) = &scenario.workload else { panic!("a Stream scenario") };
    let mut frames = 0;
    // The invariants include "no failed load is visible, no resident tile rests on one".
    let o = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |engine, renderer| {
        frames += 1;
        if let Err(e) = engine.check_invariants(renderer) {
            panic!("frame {frames}: {e}");
        }
    })
    .unwrap();
    let s = &o.stats;
    for kind in KINDS {
        assert!(stat(s, &format!("faults.injected.{kind}")) > 0.0, "{kind} injected");
    }
    let failures = stat(s, "engine.load_failures");
    let retries = stat(s, "engine.retries");
    assert!(failures > 0.0 && retries > 0.0, "failures {failures}, retries {retries}");
    assert_eq!(
        failures,
        retries + stat(s, "engine.retry_give_ups") + stat(s, "engine.retries_pending"),
        "every failure is retried, given up or still pending"
    );
    let by_status: f64 =
        ["io_error", "timeout", "corrupt"].iter().map(|k| stat(s, &format!("engine.load_failures.{k}"))).sum();
    assert_eq!(by_status, failures);
    // The engine's failures are a share of the path's (the background title has the rest).
    let path_failed: f64 =
        ["io_error", "timeout", "corrupt"].iter().map(|k| stat(s, &format!("request.failed.{k}"))).sum();
    assert!(failures <= path_failed);
    // A failed load's record never shows data in the pool; the tile loads again.
    assert!(o.engine.records().unwrap().into_iter().filter(|r| r.visible.is_some()).count() > 100);
    assert_eq!(stat(s, "mdu.units_lost"), 1.0);
    assert!(stat(s, "nvme.guarantee_violations") >= 1.0, "the throttle breaks the guarantee");

    // Deterministic: the same scenario and seed give the same stats, byte for byte.
    let again = run_file("scenarios/stream/faults.ron", &STREAM);
    for st in o.stats.iter() {
        assert_eq!(again.get(&st.name), st.value.filter(|v| v.is_finite()), "{}", st.name);
    }
}

/// The IO quickstart for `duration`, without stalls, with `faults` set.
fn io_run(duration: &str, faults: &[&str]) -> sfsim::stats::StatSet {
    let mut sets = vec![format!("duration={duration}"), "hardware.nvme.stalls=None".to_string()];
    sets.extend(faults.iter().map(|f| format!("hardware.faults.{f}")));
    let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
    run_file("scenarios/io/quick.ron", &sets)
}

#[test]
fn each_fault_kind_alone_is_counted_at_its_rate() {
    let clean = io_run("500ms", &["mdu_unit_lost_at=Some(\"1h\")"]);
    for kind in KINDS {
        assert_eq!(stat(&clean, &format!("faults.injected.{kind}")), 0.0);
    }
    for (kind, set, rate) in [
        ("io_error", "io_error_rate=0.02", 0.02),
        ("timeout", "timeout_rate=0.02", 0.02),
        ("corrupt", "corrupt_rate=0.02", 0.02),
        ("latency_spike", "latency_spikes=(rate: 0.05, extra: \"2ms\")", 0.05),
    ] {
        let s = io_run("500ms", &[set]);
        let ios = stat(&s, "nvme.ios");
        let n = stat(&s, &format!("faults.injected.{kind}"));
        let expected = rate * ios;
        assert!((n - expected).abs() < 5.0 * expected.sqrt() + 1.0, "{kind}: {n} of {ios} IOs, expected ≈ {expected}");
        for other in KINDS.iter().filter(|k| **k != kind) {
            assert_eq!(stat(&s, &format!("faults.injected.{other}")), 0.0, "{kind} alone: {other}");
        }
        if kind != "latency_spike" {
            // One 64 KiB request per IO: the failed requests are the faulted IOs (a hung IO
            // still out at the end is not yet failed).
            let failed = stat(&s, &format!("request.failed.{kind}"));
            assert!(failed > 0.0 && failed <= n, "{kind}: {failed} failed of {n}");
            assert!(stat(&s, "request.completed") < stat(&s, "request.enqueued"));
        } else {
            assert!(stat(&s, "request.latency.max") > stat(&clean, "request.latency.max"));
        }
    }
}

#[test]
fn a_throttle_below_the_guarantee_is_flagged() {
    let s = io_run("2s", &["throttle=Some((at: \"500ms\", length: \"1s\", rate: \"1000MB/s\"))"]);
    assert!(stat(&s, "nvme.guarantee_violations") >= 1.0);
    let least = stat(&s, "nvme.min_window_rate");
    // The worst window sits inside the throttle (the MDU's queue may shave a little more).
    assert!(least > 900.0 && least < 1010.0, "the worst window runs at the throttled rate: {least} MB/s");
    // 1 s at 1000 of 2400 MB/s: 1 − 1000/2400 of it lost.
    let lost = stat(&s, "nvme.throttle_time");
    assert!((lost - 583.33).abs() < 1.0, "{lost} ms");
    assert!(stat(&s, "nvme.window_min") < 500.0);
    // The same drive without the throttle keeps its guarantee.
    let s = io_run("2s", &["latency_spikes=(rate: 0.0001, extra: \"1ms\")"]);
    assert_eq!(stat(&s, "nvme.guarantee_violations"), 0.0);
    // (null when no busy stretch covered a whole window)
    assert!(s.get("nvme.min_window_rate").is_none_or(|r| r >= 2000.0));
}

#[test]
fn losing_one_of_two_mdu_units_halves_an_mdu_bound_run() {
    let run = |sets: &[&str]| run_file("scenarios/io/mdu-memory.ron", &[&["duration=500ms"], sets].concat());
    let both = run(&[]);
    let one = run(&["hardware.faults.mdu_unit_lost_at=Some(\"0s\")"]);
    // 4 MiB out of 2 MiB in per job: 10 µs + 2 MiB / 1.6 GB/s = 1320.72 µs on one unit.
    let per_unit = 4_194_304.0 / (10e-6 + 2_097_152.0 / 1.6e9) / 1e9;
    let (b, o) = (stat(&both, "mdu.output_throughput"), stat(&one, "mdu.output_throughput"));
    // Within 5 % of the closed form (the title's enqueue cadence leaves short gaps).
    assert!((b / (2.0 * per_unit) - 1.0).abs() < 0.05, "two units {b} GB/s, closed form {}", 2.0 * per_unit);
    assert!((o / per_unit - 1.0).abs() < 0.05, "one unit {o} GB/s, closed form {per_unit}");
    assert!((o / b - 0.5).abs() < 0.03, "one unit of two: {o} / {b}");
    assert_eq!(stat(&one, "mdu.units_lost"), 1.0);
    assert!(stat(&one, "mdu.unit1.busy") < 0.01);
}

#[test]
fn runs_with_faults_are_deterministic_and_seeded() {
    let faults =
        ["io_error_rate=0.01", "timeout_rate=0.01", "corrupt_rate=0.01", "latency_spikes=(rate: 0.02, extra: \"1ms\")"];
    let a = io_run("300ms", &faults);
    let b = io_run("300ms", &faults);
    assert_eq!(a.to_json(), b.to_json());
    let mut other = vec!["seed=2", "duration=300ms", "hardware.nvme.stalls=None"];
    let faulted: Vec<String> = faults.iter().map(|f| format!("hardware.faults.{f}")).collect();
    other.extend(faulted.iter().map(String::as_str));
    let c = run_file("scenarios/io/quick.ron", &other);
    // Another seed hits other IOs.
    let counts = |s: &sfsim::stats::StatSet| KINDS.map(|k| stat(s, &format!("faults.injected.{k}")));
    assert_ne!(counts(&a), counts(&c));
}
