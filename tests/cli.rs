//! The command line as a user runs it.

use crate::common::{repo, sfsim};

#[test]
fn run_writes_every_output_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("qs");
    let output = sfsim().args(["run", "--out"]).arg(&out).arg(repo("scenarios/io/quick.ron")).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("nvme.throughput"), "{stdout}");
    for file in [
        "resolved.ron",
        "stats.json",
        "windows.csv",
        "throughput.csv",
        "index.html",
        "throughput.png",
        "throughput.svg",
        "latency.png",
        "latency.svg",
    ] {
        let meta = std::fs::metadata(out.join(file)).unwrap_or_else(|_| panic!("{file} missing"));
        assert!(meta.len() > 0, "{file} empty");
    }
    let stats: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("stats.json")).unwrap()).unwrap();
    for name in [
        "nvme.throughput",
        "nvme.window_min",
        "mdu.input_throughput",
        "mdu.output_throughput",
        "request.latency.p50",
        "request.latency.p95",
        "request.latency.p99",
        "request.latency.max",
        "host.sim_speed",
        "host.events_per_second",
    ] {
        let entry = &stats[name];
        assert!(entry["value"].is_number(), "{name}: {entry}");
        assert!(entry["unit"].is_string() && entry["description"].is_string(), "{name}");
    }
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("throughput.png") && html.contains("latency.png"));
    // resolved.ron is itself a valid scenario that resolves to the same thing.
    let again = dir.path().join("again");
    let status = sfsim().args(["run", "-q", "--out"]).arg(&again).arg(out.join("resolved.ron")).status().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(out.join("resolved.ron")).unwrap(), std::fs::read(again.join("resolved.ron")).unwrap());
}

#[test]
fn set_overrides_reach_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let status = sfsim()
        .args(["run", "-q", "--set", "workload.in_flight=16MiB", "--set", "duration=500ms", "--out"])
        .arg(&out)
        .arg(repo("scenarios/io/quick.ron"))
        .status()
        .unwrap();
    assert!(status.success());
    let resolved = std::fs::read_to_string(out.join("resolved.ron")).unwrap();
    assert!(resolved.contains("in_flight: \"16MiB\"") && resolved.contains("duration: \"500ms\""), "{resolved}");
}

#[test]
fn sweep_tabulates_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let output = sfsim()
        .args([
            "sweep",
            "--vary",
            "workload.in_flight=8MiB,64MiB",
            "--set",
            "duration=1s",
            "--metric",
            "nvme.throughput",
            "--out",
        ])
        .arg(dir.path())
        .arg(repo("scenarios/io/saturate.ron"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let csv = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(dir.path().join("nvme_throughput_vs_workload_in_flight.png").exists());
}

#[test]
fn frame_writes_views_and_maps_with_legends() {
    let dir = tempfile::tempdir().unwrap();
    let output = sfsim()
        .args(["frame", "--frame", "30", "--textures", "2", "--set", "workload.render.resolution=(320, 180)", "--out"])
        .arg(dir.path())
        .arg(repo("scenarios/render/cube-grid.ron"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    for want in ["frame00030_desired_lod.png", "frame00030_minmip_overlay.png"] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    assert_eq!(names.iter().filter(|n| n.contains("_feedback_tex")).count(), 2, "{names:?}");
    assert_eq!(names.iter().filter(|n| n.contains("_minmip_tex")).count(), 2, "{names:?}");
    let view = image::open(dir.path().join("frame00030_desired_lod.png")).unwrap();
    assert_eq!(view.width(), 320);
    assert!(view.height() > 180, "the legend strip sits below the 180-row view");
    // A frame beyond the scenario's end and a non-render scenario are clear errors.
    let output =
        sfsim().args(["frame", "--frame", "999999"]).arg(repo("scenarios/render/cube-grid.ron")).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("out of range"));
    let output = sfsim().args(["frame"]).arg(repo("scenarios/io/quick.ron")).output().unwrap();
    assert!(String::from_utf8_lossy(&output.stderr).contains("Render workload"));
}

#[test]
fn render_run_is_deterministic_and_reports_feedback() {
    let dir = tempfile::tempdir().unwrap();
    let mut stats = Vec::new();
    for run in 0..2 {
        let out = dir.path().join(format!("r{run}"));
        let status = sfsim()
            .args([
                "run",
                "-q",
                "--no-host-stats",
                "--set",
                "duration=200ms",
                "--set",
                "workload.render.resolution=(640, 360)",
                "--out",
            ])
            .arg(&out)
            .arg(repo("scenarios/render/cube-grid.ron"))
            .status()
            .unwrap();
        assert!(status.success());
        stats.push(std::fs::read(out.join("stats.json")).unwrap());
        assert!(out.join("frames.csv").exists() && out.join("tiles.png").exists());
        // resolved.ron names the camera file relative to the output folder and runs from there.
        let again = out.join("again");
        let status = sfsim().args(["run", "-q", "--out"]).arg(&again).arg(out.join("resolved.ron")).status().unwrap();
        assert!(status.success(), "resolved.ron of a render run must run");
    }
    assert_eq!(stats[0], stats[1]);
    let json: serde_json::Value = serde_json::from_slice(&stats[0]).unwrap();
    assert_eq!(json["frames"]["value"], 12.0);
    assert!(json["feedback.tiles_seen"]["value"].as_f64().unwrap() > 0.0);
    assert!(json["scene.virtual_size"]["value"].as_f64().unwrap() > 10.0);
}

/// `sfsim run --threads N`: a streaming run's outputs do not depend on the thread count,
/// `host.threads` says what ran, and a count out of range is refused naming the range.
#[test]
fn threads_change_only_the_host_stats() {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "3"] {
        let out = dir.path().join(format!("t{threads}"));
        let stats =
            crate::common::run_cli(&["--threads", threads, "--set", "duration=1s"], &out, "scenarios/quickstart.ron");
        assert_eq!(stats["host.threads"]["value"].to_string(), format!("{threads}.0"));
        let deterministic: Vec<(String, serde_json::Value)> = stats
            .as_object()
            .unwrap()
            .iter()
            .filter(|(name, _)| !name.starts_with("host."))
            .map(|(name, v)| (name.clone(), v.clone()))
            .collect();
        let read = |file: &str| std::fs::read(out.join(file)).unwrap();
        outputs.push((deterministic, read("frames.csv"), read("tiles.csv")));
    }
    assert!(outputs[0].0.len() > 20);
    assert_eq!(outputs[0], outputs[1], "a run's outputs changed with --threads");
    for bad in ["0", "1025", "two"] {
        let output = sfsim()
            .args(["run", "-q", "--threads", bad, "--out"])
            .arg(dir.path().join("bad"))
            .arg(repo("scenarios/quickstart.ron"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "--threads {bad} must be refused");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--threads") && stderr.contains(bad), "{stderr}");
    }
    assert!(!dir.path().join("bad").exists(), "a refused run wrote its folder");
}
