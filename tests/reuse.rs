//! `render.reuse`, the approximate timing-only mode: every stat within its stated tolerance
//! of the exact timing-only run (README, "Approximate timing-only runs").

use crate::common::run_file;
use sfsim::stats::StatSet;

const TIMING_ONLY: [&str; 2] = ["workload.mode=TimingOnly", "workload.render.feedback.writes=Location"];

/// The README's tolerance: a stat of the approximate run is within 3 % of the exact run's,
/// or no further from it than the exact run with another seed is (the run's own noise:
/// latency tails, rare bottlenecks), or within two percentage points for fractions (shares
/// of frames, whose per-frame labels flip on microseconds), or within 5 for counts of
/// tiles, requests and frames (end-of-run snapshots such as `residency.mip2`).
fn within_tolerance(exact: &StatSet, other_seeds: &[StatSet], approx: &StatSet) -> Vec<String> {
    let mut out = Vec::new();
    for stat in exact.iter().filter(|s| !s.name.starts_with("host.")) {
        let (Some(e), Some(a)) = (stat.value, approx.get(&stat.name)) else {
            if stat.value.is_some() != approx.get(&stat.name).is_some() {
                out.push(format!("{}: {:?} exact, {:?} approximate", stat.name, stat.value, approx.get(&stat.name)));
            }
            continue;
        };
        let noise = other_seeds.iter().filter_map(|o| o.get(&stat.name)).map(|o| (o - e).abs()).fold(0.0, f64::max);
        let floor = match stat.unit {
            "fraction" => 0.02,
            "count" | "tiles" | "requests" | "frames" => 5.0,
            _ => 0.0,
        };
        let allowed = (0.03 * e.abs()).max(noise).max(floor);
        if (a - e).abs() > allowed {
            out.push(format!("{}: {a} approximate, {e} exact (allowed ±{allowed})", stat.name));
        }
    }
    out
}

/// The exact timing-only run of `file`'s first `duration`, and with seeds 2 and 3.
fn exact_runs(file: &str, duration: &str) -> (StatSet, Vec<StatSet>) {
    let run = |extra: &[&str]| {
        let d = format!("duration={duration}");
        let mut sets: Vec<&str> = TIMING_ONLY.to_vec();
        sets.push(&d);
        sets.extend(extra);
        run_file(file, &sets)
    };
    (run(&[]), vec![run(&["seed=2"]), run(&["seed=3"])])
}

fn approx_run(file: &str, duration: &str, extra: &str) -> StatSet {
    let d = format!("duration={duration}");
    let mut sets: Vec<&str> = TIMING_ONLY.to_vec();
    sets.extend([d.as_str(), extra]);
    run_file(file, &sets)
}

#[test]
fn sample_grid_with_reuse_stays_within_tolerance_of_the_exact_run() {
    let file = "scenarios/stream/sample-grid.ron";
    let (exact, other_seeds) = exact_runs(file, "10s");
    assert_eq!(exact.get("render.reused_share"), None, "an exact run reports no reuse");
    for reuse in ["(frames: 2, max_motion: 32.0)", "(frames: 4, max_motion: 64.0)"] {
        let approx = approx_run(file, "10s", &format!("workload.render.reuse=Some({reuse})"));
        let reused = approx.get("render.reused_share").expect("the reuse share is reported");
        assert!(reused > 0.45, "{reuse}: only {reused} of the samples were reused: the comparison proves little");
        let misses = within_tolerance(&exact, &other_seeds, &approx);
        assert!(misses.is_empty(), "{reuse}: {misses:#?}");
    }
    // Half the feedback rate is a different workload, not an approximation: the check
    // must notice it, or passing it proves nothing.
    let sparse = approx_run(file, "10s", "workload.render.feedback.one_in=512");
    assert!(!within_tolerance(&exact, &other_seeds, &sparse).is_empty());
}

/// The whole 60 s orbit (README, "Approximate timing-only runs"; about 20 s of runs):
/// `cargo test --release --test integration reuse -- --ignored`.
#[test]
#[ignore]
fn whole_sample_grid_with_reuse_stays_within_tolerance() {
    let file = "scenarios/stream/sample-grid.ron";
    let (exact, other_seeds) = exact_runs(file, "60s");
    for reuse in ["(frames: 2, max_motion: 32.0)", "(frames: 4, max_motion: 64.0)"] {
        let approx = approx_run(file, "60s", &format!("workload.render.reuse=Some({reuse})"));
        let misses = within_tolerance(&exact, &other_seeds, &approx);
        assert!(misses.is_empty(), "{reuse}: {misses:#?}");
    }
}

#[test]
fn camera_cuts_trace_every_cell_again() {
    // Cuts move the camera far past the bound: the frame after one reuses nothing.
    let file = "scenarios/stream/camera-cuts.ron";
    let (exact, other_seeds) = exact_runs(file, "12s");
    let approx = approx_run(file, "12s", "workload.render.reuse=Some((frames: 2, max_motion: 32.0))");
    let misses = within_tolerance(&exact, &other_seeds, &approx);
    assert!(misses.is_empty(), "{misses:#?}");
    let reused = approx.get("render.reused_share").unwrap();
    assert!(reused < 0.5, "{reused}");
}

#[test]
fn reuse_is_refused_where_it_cannot_apply() {
    let scenario = crate::common::repo("scenarios/stream/sample-grid.ron");
    for (sets, expected) in [
        (vec!["workload.render.reuse=Some((frames: 2, max_motion: 4.0))"], "a full Stream run"),
        (vec!["workload.mode=TimingOnly", "workload.render.reuse=Some((frames: 2, max_motion: 4.0))"], "footprint"),
        (
            vec![
                "workload.mode=TimingOnly",
                "workload.render.feedback.writes=Location",
                "workload.render.reuse=Some((frames: 1, max_motion: 4.0))",
            ],
            "2 or 4",
        ),
        (
            vec![
                "workload.mode=TimingOnly",
                "workload.render.feedback.writes=Location",
                "workload.render.reuse=Some((frames: 2, max_motion: 100.0))",
            ],
            "max_motion",
        ),
    ] {
        let overrides: Vec<sfsim::scenario::Override> = sets.iter().map(|s| s.parse().unwrap()).collect();
        let err = sfsim::scenario::Scenario::load(&scenario, &overrides).err().map(|e| e.to_string());
        let err = err.unwrap_or_else(|| panic!("{sets:?} was accepted"));
        assert!(err.contains("render.reuse") && err.contains(expected), "{sets:?}: {err}");
    }
    // A Render workload always measures quality.
    let scenario = crate::common::repo("scenarios/render/cube-grid.ron");
    let overrides = ["workload.render.reuse=Some((frames: 2, max_motion: 4.0))".parse().unwrap()];
    let err = sfsim::scenario::Scenario::load(&scenario, &overrides).err().map(|e| e.to_string());
    assert!(err.as_deref().is_some_and(|e| e.contains("Render workload")), "{err:?}");
}
