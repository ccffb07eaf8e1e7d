//! Bad input gets a clear error naming file, line:col, field and range; never a panic.

use crate::common::sfsim;

fn run_text(text: &str, extra: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, text).unwrap();
    let output =
        sfsim().arg("run").arg("-q").args(extra).arg("--out").arg(dir.path().join("out")).arg(&file).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code().unwrap_or(-1), stderr)
}

const GOOD: &str = "Scenario(\n  name: \"t\",\n  duration: \"100ms\",\n  workload: Io(()),\n)\n";

#[test]
fn good_file_runs() {
    assert_eq!(run_text(GOOD, &[]).0, 0);
}

#[test]
fn unknown_field() {
    let (code, err) = run_text(&GOOD.replace("duration", "durashun"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:3:") && err.contains("durashun"), "{err}");
}

#[test]
fn bad_unit() {
    let (code, err) = run_text(&GOOD.replace("100ms", "100 parsecs"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:3:") && err.contains("unknown unit"), "{err}");
}

#[test]
fn value_out_of_range() {
    let text = GOOD.replace("workload: Io(()),", "workload: Io((ratio_spread: 0.9)),");
    let (code, err) = run_text(&text, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:4:") && err.contains("workload.ratio_spread") && err.contains("0..=0.5"), "{err}");
}

#[test]
fn wrong_type() {
    let (code, err) = run_text(&GOOD.replace("\"100ms\"", "100"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:3:"), "{err}");
}

#[test]
fn syntax_error() {
    let (code, err) = run_text(&GOOD.replace("workload: Io(()),", "workload: Io((),"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:"), "{err}");
}

#[test]
fn missing_file() {
    let output = sfsim().args(["run", "/nonexistent/x.ron"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("/nonexistent/x.ron") && !stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_override() {
    let (code, err) = run_text(GOOD, &["--set", "hardware.mdu.units=0"]);
    assert_eq!(code, 2);
    assert!(err.contains("--set hardware.mdu.units=0") && err.contains("1..=64"), "{err}");
    let (code, err) = run_text(GOOD, &["--set", "hardware.nvme.turbo=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("no field \"turbo\""), "{err}");
}

#[test]
fn guarantee_breaking_device_is_rejected() {
    let (code, err) = run_text(GOOD, &["--set", "hardware.nvme.per_io=10us"]);
    assert_eq!(code, 2);
    assert!(err.contains("per_io") && err.contains("guaranteed"), "{err}");
}

const STREAM: &str = "Scenario(\n  name: \"t\",\n  duration: \"100ms\",\n  workload: Stream(()),\n)\n";

#[test]
fn feedback_resolution_has_one_knob_in_a_streaming_run() {
    let (code, err) = run_text(STREAM, &["--set", "workload.render.feedback.tiles_per_texel=2"]);
    assert_eq!(code, 2);
    assert!(err.contains("tiles_per_texel") && err.contains("expected 1") && err.contains("Coarse2x2"), "{err}");
    let (code, err) = run_text(
        STREAM,
        &["--set", "workload.engine.feedback=Coarse2x2", "--set", "workload.render.feedback.region=(1024, 1024)"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("feedback.region") && err.contains("Coarse2x2") && err.contains("expected None"), "{err}");
}

#[test]
fn eviction_policy_parameters_name_their_field_and_range() {
    let (code, err) =
        run_text(STREAM, &["--set", "workload.engine.eviction=RefCount(frames: 30, seen_horizon: \"0s\")"]);
    assert_eq!(code, 2);
    assert!(err.contains("eviction.seen_horizon") && err.contains("expected (0s, 1h]"), "{err}");
    let (code, err) = run_text(STREAM, &["--set", "workload.engine.eviction=Timeout(after: \"2h\")"]);
    assert_eq!(code, 2);
    assert!(err.contains("eviction.after") && err.contains("(0s, 1h]"), "{err}");
    let (code, err) = run_text(STREAM, &["--set", "workload.engine.mapping_per_tile=2ms"]);
    assert_eq!(code, 2);
    assert!(err.contains("mapping_per_tile") && err.contains("0s..=1ms"), "{err}");
}

#[test]
fn timeline_costs_name_their_field_and_range() {
    let cases: [(&str, &[&str]); 4] = [
        ("workload.engine.cpu.speed_percent=0", &["workload.engine.cpu.speed_percent", "10..=1000"]),
        ("workload.engine.cpu.frame_budget=\"0s\"", &["workload.engine.cpu.frame_budget", "(0s, 1s]"]),
        ("workload.engine.gpu.per_pixel=2us", &["workload.engine.gpu.per_pixel", "0s..=1us"]),
        ("workload.engine.gpu.feedback_budget=\"1s\"", &["workload.engine.gpu.feedback_budget", "(0s, 100ms]"]),
    ];
    for (set, wanted) in cases {
        let (code, err) = run_text(STREAM, &["--set", set]);
        assert_eq!(code, 2, "{set}");
        assert!(wanted.iter().all(|w| err.contains(w)), "{set}: {err}");
    }
}
