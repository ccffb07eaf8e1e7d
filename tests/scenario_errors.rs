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
