//! Camera paths: the shipped files in scenarios/cameras/, `sfsim camera record` / `show`,
//! and round trips between formats.

use crate::common::{repo, sfsim};
use glam::{DQuat, DVec3, EulerRot};
use sfsim::camera::pose::rotation_angle;
use sfsim::camera::tum::to_tum;
use sfsim::camera::{CameraPath, CameraPose, CameraSource, Generator, KeyframePath, RecordedPath, TumPath, TumSample};
use std::path::{Path, PathBuf};

const GENERATORS: [&str; 3] = ["orbit", "rollercoaster", "paint-mixer"];

fn cameras(file: &str) -> PathBuf {
    repo(&format!("scenarios/cameras/{file}"))
}

fn generator(name: &str) -> Box<dyn CameraPath> {
    Box::new(Generator::load(&cameras(&format!("{name}.gen.ron"))).unwrap().build().unwrap())
}

/// Runs `sfsim` with `args`; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = sfsim().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn close(a: &CameraPose, b: &CameraPose, tol: f64) -> bool {
    a.position.distance(b.position) <= tol
        && rotation_angle(a.orientation, b.orientation) <= tol
        && (a.fov_y_deg - b.fov_y_deg).abs() <= tol
}

#[test]
fn recording_a_generator_then_replaying_the_csv_gives_the_same_poses() {
    let dir = tempfile::tempdir().unwrap();
    for name in GENERATORS {
        let out = dir.path().join(format!("{name}.csv"));
        let input = cameras(&format!("{name}.gen.ron"));
        let (code, stdout, stderr) =
            run(&["camera", "record", s(&input), "--frames", "240", "--fps", "60", "-o", s(&out)]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("recorded 240 frames"), "{stdout}");
        let gen = generator(name);
        let replay = CameraSource::Recorded(format!("{name}.csv").into()).open(dir.path(), 60.0).unwrap();
        for frame in 0..240u64 {
            let t = frame as f64 / 60.0;
            assert_eq!(replay.pose_at(t, frame), gen.pose_at(t, frame), "{name} {frame}");
        }
    }
}

#[test]
fn record_load_record_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    for name in GENERATORS {
        let shipped = cameras(&format!("{name}.csv"));
        let again = dir.path().join(format!("{name}.csv"));
        // The input kind comes from the .csv extension; the frame count from its length.
        let (code, _, stderr) = run(&["camera", "record", s(&shipped), "-o", s(&again)]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            std::fs::read(&shipped).unwrap() == std::fs::read(&again).unwrap(),
            "{name}.csv changed on re-recording"
        );
    }
}

#[test]
fn shipped_recordings_match_their_generators_and_stay_small() {
    let mut rows = Vec::new();
    for name in GENERATORS {
        let file = cameras(&format!("{name}.csv"));
        assert!(std::fs::metadata(&file).unwrap().len() < 1_000_000, "{name}.csv");
        let rec = RecordedPath::load(&file).unwrap().with_fps(60.0);
        assert!(rec.replays_by_frame());
        assert_eq!(rec.rows().len(), 3600, "{name}: 60 s at 60 fps");
        let gen = generator(name);
        for r in rec.rows() {
            // Bit-exact on the machine that recorded them; 1e-9 allows another libm.
            assert!(close(&r.pose, &gen.pose_at(r.time_s, r.frame), 1e-9), "{name} frame {}", r.frame);
        }
        rows.push(rec);
    }
    // paint-mixer = orbit on frames 0–3, 8–11, ...; roller-coaster on 4–7, 12–15, ...
    let [orbit, coaster, mixer] = [&rows[0], &rows[1], &rows[2]];
    for (i, m) in mixer.rows().iter().enumerate() {
        let want = if (i / 4) % 2 == 0 { orbit } else { coaster };
        assert_eq!(m.pose, want.rows()[i].pose, "paint-mixer frame {i}");
    }
}

#[test]
fn every_shipped_path_opens_from_a_scenario_style_source() {
    let sources: Vec<CameraSource> = ron::from_str(
        r#"[
            Keyframes("flyby.keys.ron"),
            Recorded("orbit.csv"),
            Recorded("rollercoaster.csv"),
            Recorded("paint-mixer.csv"),
            Tum(file: "handheld.tum", fov_y_deg: 60.0),
            Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 10.0, period_s: 30.0)),
        ]"#,
    )
    .unwrap();
    let base = cameras("");
    for source in &sources {
        source.validate().unwrap();
        let path = source.open(&base, 60.0).unwrap();
        for frame in [0u64, 1, 59, 600, 10_000] {
            let p = path.pose_at(frame as f64 / 60.0, frame);
            assert!(p.position.is_finite() && (p.orientation.length() - 1.0).abs() < 1e-12);
            // Everything looks roughly at the scene: the centre is in front of the camera
            // or the camera is inside the 40 × 40 × 40 box.
            let inside = p.position.abs().max_element() < 20.0;
            assert!(inside || p.forward().dot(-p.position) > 0.0, "{source:?} {frame}");
        }
    }
    // The flyby's keys come back exactly.
    let flyby = KeyframePath::load(&cameras("flyby.keys.ron")).unwrap();
    assert_eq!(flyby.duration(), Some(20.0));
    for &(t, key) in flyby.keys() {
        assert_eq!(flyby.pose_at(t, 0), key);
    }
}

/// The synthetic hand-held trajectory shipped as scenarios/cameras/handheld.tum: someone
/// walking past the cube grid for 10 s (30 poses/s), eye height 1.6, 30 units in front of
/// it, panning the camera to follow the centre, with walking bob and hand shake made of
/// sums of sines (not measured from a real camera).
fn synthetic_handheld() -> Vec<TumSample> {
    const T0: f64 = 1_700_000_000.0;
    let wave = |t: f64, hz: f64, phase: f64| (std::f64::consts::TAU * hz * t + phase).sin();
    (0..300)
        .map(|i| {
            let t = f64::from(i) / 30.0;
            let x = -6.0 + 1.2 * t;
            let position = DVec3::new(
                x + 0.015 * wave(t, 0.9, 0.4),
                1.6 + 0.03 * wave(t, 1.8, 0.0),
                30.0 + 0.02 * wave(t, 0.9, 1.9),
            );
            let base = CameraPose::look_at(position, DVec3::new(0.5 * x, 0.0, 0.0), DVec3::Y, 60.0);
            let deg = |d: f64| d.to_radians();
            let shake = DQuat::from_euler(
                EulerRot::YXZ,
                deg(0.8 * wave(t, 0.7, 0.0) + 0.3 * wave(t, 2.3, 1.1)),
                deg(0.6 * wave(t, 1.1, 0.5) + 0.25 * wave(t, 3.7, 2.0)),
                deg(0.5 * wave(t, 0.5, 0.3) + 0.2 * wave(t, 4.3, 0.0)),
            );
            TumSample {
                timestamp: T0 + t,
                pose: CameraPose { orientation: (base.orientation * shake).normalize(), ..base },
            }
        })
        .collect()
}

const HANDHELD_NOTE: &str = "# SYNTHETIC hand-held camera (not a real recording): a 10 s walk past the\n# cube grid with walking bob and sum-of-sines hand shake, 30 poses/s. Made by\n# `cargo test --test integration camera::regenerate_handheld_tum -- --ignored`.\n";

#[test]
#[ignore = "rewrites scenarios/cameras/handheld.tum"]
fn regenerate_handheld_tum() {
    let text = format!("{HANDHELD_NOTE}{}", to_tum(&synthetic_handheld()));
    std::fs::write(cameras("handheld.tum"), text).unwrap();
}

#[test]
fn handheld_tum_is_the_documented_synthetic_walk() {
    let file = cameras("handheld.tum");
    assert!(std::fs::read_to_string(&file).unwrap().starts_with(HANDHELD_NOTE));
    let path = TumPath::load(&file, 60.0).unwrap();
    let want = synthetic_handheld();
    assert_eq!(path.samples().len(), want.len());
    for (a, b) in path.samples().iter().zip(&want) {
        assert!((a.timestamp - b.timestamp).abs() < 1e-6);
        assert!(close(&a.pose, &b.pose, 1e-9));
    }
    assert!((path.duration().unwrap() - 299.0 / 30.0).abs() < 1e-6);
    // Replay interpolates: half-way between two samples is between them.
    let (s0, s1) = (&path.samples()[10].pose, &path.samples()[11].pose);
    let mid = path.pose_at(10.5 / 30.0, 0);
    assert!(mid.position.distance((s0.position + s1.position) / 2.0) < 1e-6);
}

#[test]
fn tum_output_reads_back_within_1e_12() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flyby.tum");
    let input = cameras("flyby.keys.ron");
    let (code, _, stderr) = run(&["camera", "record", s(&input), "--fps", "30", "-o", s(&out)]);
    assert_eq!(code, 0, "{stderr}");
    let keys = KeyframePath::load(&input).unwrap();
    let tum = TumPath::load(&out, 60.0).unwrap();
    assert_eq!(tum.samples().len(), 601);
    for (i, sample) in tum.samples().iter().enumerate() {
        let want = keys.pose_at(i as f64 / 30.0, i as u64);
        assert_eq!(sample.pose.position, want.position);
        assert!(rotation_angle(sample.pose.orientation, want.orientation) < 1e-12);
    }
}

#[test]
fn show_prints_a_table() {
    let input = cameras("paint-mixer.gen.ron");
    let (code, stdout, stderr) = run(&["camera", "show", s(&input), "--frames", "8"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2 + 8, "{stdout}");
    assert!(lines[1].contains("frame") && lines[1].contains("fwd_z"), "{stdout}");
    assert!(lines[2].trim_start().starts_with("0 "), "{stdout}");
}

/// Writes `text` to `dir/name` and runs `sfsim camera record` on it with `extra` args.
fn record_bad(name: &str, text: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out.csv");
    let mut args = vec!["camera", "record", s(&file), "--frames", "3", "-o", s(&out)];
    args.extend_from_slice(extra);
    let (code, _, stderr) = run(&args);
    assert_eq!(code, 2, "{stderr}");
    stderr
}

#[test]
fn malformed_files_report_file_line_and_column() {
    let keys = "CameraKeyframes(keys: [\n  (t: \"1s\", position: (0.0, 0.0, 5.0), look_at: (0.0, 0.0, 0.0)),\n  (t: \"1s\", position: (0.0, 0.0, 6.0), look_at: (0.0, 0.0, 0.0)),\n])\n";
    let e = record_bad("bad.keys.ron", keys, &["--kind", "keyframes"]);
    assert!(e.contains("bad.keys.ron:3:4: keys[1]: t:") && e.contains("strictly increase"), "{e}");
    // Guessing the kind reports both attempts.
    let e = record_bad("bad.keys.ron", keys, &[]);
    assert!(e.contains("as keyframes: ") && e.contains("bad.keys.ron:3:4:"), "{e}");
    assert!(e.contains("as a generator: ") && e.contains("bad.keys.ron:1:"), "{e}");
    let e = record_bad(
        "bad.keys.ron",
        &keys.replace("\"1s\", position: (0.0, 0.0, 6.0)", "\"2sec\", position: (0.0, 0.0, 6.0)"),
        &["--kind", "keyframes"],
    );
    assert!(e.contains("bad.keys.ron:3:") && e.contains("unit"), "{e}");
    let e = record_bad(
        "bad.gen.ron",
        "Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 1.0, period_s: 9.0, speed: 2.0)",
        &["--kind", "generator"],
    );
    assert!(e.contains("bad.gen.ron:1:") && e.contains("speed"), "{e}");
    let csv = "frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg\n0,0,0,0,0,0,0,0,1,60\n1,0.5,0,0,1e,0,0,0,1,60\n";
    let e = record_bad("bad.csv", csv, &[]);
    assert!(e.contains("bad.csv:3:11: pz: expected a finite number"), "{e}");
    let e = record_bad("bad.tum", "0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 0\n", &[]);
    assert!(e.contains("bad.tum:2:9: ") && e.contains("zero length"), "{e}");
    let e = record_bad("bad.tum", "0 0 0 0 0 0 0 1\n1 0 0 0 0 0 1\n", &[]);
    assert!(e.contains("bad.tum:2: ") && e.contains("missing qw"), "{e}");
    let e = record_bad("nothing.csv", "", &[]);
    assert!(e.contains("nothing.csv:1:1: expected the header"), "{e}");
}

#[test]
fn cli_usage_errors_are_explained() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let input = cameras("orbit.gen.ron");
    let (code, _, e) = run(&["camera", "record", s(&input), "-o", s(&out)]);
    assert_eq!(code, 2);
    assert!(e.contains("--frames"), "{e}");
    let (code, _, e) = run(&["camera", "record", s(&input), "--frames", "2", "--fps", "0", "-o", s(&out)]);
    assert_eq!(code, 2);
    assert!(e.contains("fps 0"), "{e}");
    let (code, _, e) = run(&["camera", "record", "/nonexistent/x.ron", "--frames", "2", "-o", s(&out)]);
    assert_eq!(code, 2);
    assert!(e.contains("/nonexistent/x.ron: cannot read"), "{e}");
    let (code, _, e) = run(&["camera", "record", s(&input), "--frames", "2", "-o", "/nonexistent/dir/o.csv"]);
    assert_eq!(code, 2);
    assert!(e.contains("/nonexistent/dir/o.csv: cannot write"), "{e}");
}
