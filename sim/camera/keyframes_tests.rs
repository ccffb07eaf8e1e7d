//! Tests of `keyframes.rs`.

use super::*;
use crate::camera::pose::rotation_angle;
use proptest::prelude::*;

const GOOD: &str = r#"// a test path
CameraKeyframes(
    fov_y_deg: 60.0,
    interpolation: CatmullRom,
    keys: [
        (t: "0s", position: (0.0, 1.0, -5.0), look_at: Some((0.0, 0.0, 0.0)), orientation: None, fov_y_deg: None),
        (t: "1.5s", position: (5.0, 2.0, 0.0), look_at: (0.0, 0.0, 0.0)),
        (t: "3s", position: (0.0, 3.0, 5.0), orientation: Some((0.0, 2.0, 0.0, 0.0)), fov_y_deg: Some(40.0)),
        (t: "4500ms", position: (-5.0, 1, 0.0), orientation: (0.0, 0.0, 0.0, 1.0)),
    ],
)
"#;

fn load(text: &str) -> Result<KeyframePath, CameraError> {
    KeyframePath::from_text(text, Path::new("k.ron"))
}

fn err(text: &str) -> String {
    load(text).expect_err("must fail").to_string()
}

#[test]
fn keys_come_back_exactly_at_key_times() {
    let path = load(GOOD).unwrap();
    assert_eq!(path.keys().len(), 4);
    assert_eq!(path.duration(), Some(4.5));
    let want_pos =
        [DVec3::new(0.0, 1.0, -5.0), DVec3::new(5.0, 2.0, 0.0), DVec3::new(0.0, 3.0, 5.0), DVec3::new(-5.0, 1.0, 0.0)];
    for (i, &(t, key)) in path.keys().iter().enumerate() {
        let pose = path.pose_at(t, 0);
        assert_eq!(pose, key);
        assert_eq!(pose.position, want_pos[i]);
    }
    let k = path.keys();
    // look_at keys look at the target.
    let dir = (DVec3::ZERO - k[1].1.position).normalize();
    assert!(k[1].1.forward().distance(dir) < 1e-12);
    // orientation keys are normalized; fov falls back to the file's.
    assert_eq!(k[2].1.orientation, DQuat::from_xyzw(0.0, 1.0, 0.0, 0.0));
    assert_eq!(k[2].1.fov_y_deg, 40.0);
    assert_eq!(k[0].1.fov_y_deg, 60.0);
    // Hold before the first key and after the last.
    assert_eq!(path.pose_at(-1.0, 0), k[0].1);
    assert_eq!(path.pose_at(100.0, 0), k[3].1);
    assert_eq!(path.pose_at(f64::NAN, 0), k[0].1);
}

#[test]
fn interpolates_between_keys() {
    let path = load(GOOD).unwrap();
    let k = path.keys();
    let mid = path.pose_at(3.75, 0);
    assert!((mid.fov_y_deg - 50.0).abs() < 1e-12);
    // Half way in time, half way along the (short) arc between the two orientations.
    let whole = rotation_angle(k[2].1.orientation, k[3].1.orientation);
    let half = rotation_angle(k[2].1.orientation, mid.orientation);
    assert!((half - whole / 2.0).abs() < 1e-9);
    // The spline is continuous at the keys.
    for &(t, key) in &k[1..3] {
        let near = path.pose_at(t - 1e-9, 0);
        assert!(near.position.distance(key.position) < 1e-6);
    }
    let linear = load(&GOOD.replace("CatmullRom", "Linear")).unwrap();
    let p = linear.pose_at(0.75, 0).position;
    assert!(p.distance(DVec3::new(2.5, 1.5, -2.5)) < 1e-12);
    // The spline bends away from the straight line.
    assert!(path.pose_at(0.75, 0).position.distance(p) > 1e-3);
}

#[test]
fn one_key_holds_forever() {
    let path =
        load(r#"CameraKeyframes(keys: [(t: "1s", position: (1.0, 2.0, 3.0), look_at: (0.0, 0.0, 0.0))])"#).unwrap();
    assert_eq!(path.pose_at(0.0, 0), path.pose_at(10.0, 7));
}

#[test]
fn malformed_files_point_at_the_problem() {
    let e = err(&GOOD.replace("\"1.5s\"", "\"3s\""));
    assert!(e.starts_with("k.ron:8:10: keys[2]: t:") && e.contains("strictly increase"), "{e}");
    let e = err(&GOOD.replace("(0.0, 2.0, 0.0, 0.0)", "(0.0, 0.0, 0.0, 0.0)"));
    assert!(e.starts_with("k.ron:8:46: keys[2]: orientation:") && e.contains("zero length"), "{e}");
    let e =
        err(&GOOD.replace("look_at: (0.0, 0.0, 0.0)", "look_at: (0.0, 0.0, 0.0), orientation: (0.0, 0.0, 0.0, 1.0)"));
    assert!(e.starts_with("k.ron:7:74: keys[1]: orientation:") && e.contains("exactly one"), "{e}");
    let e = err(&GOOD.replace(", look_at: (0.0, 0.0, 0.0))", ")"));
    assert!(e.starts_with("k.ron:7:") && e.contains("neither"), "{e}");
    let e = err(&GOOD.replace("look_at: (0.0, 0.0, 0.0)", "look_at: (5.0, 9.0, 0.0)"));
    assert!(e.starts_with("k.ron:7:") && e.contains("straight above"), "{e}");
    let e = err(&GOOD.replace("\"1.5s\"", "\"1.5\""));
    assert!(e.starts_with("k.ron:7:") && e.contains("no unit"), "{e}");
    let e = err(&GOOD.replace("\"1.5s\"", "\"1.5parsecs\""));
    assert!(e.starts_with("k.ron:7:") && e.contains("unknown unit"), "{e}");
    let e = err(&GOOD.replace("(t: \"1.5s\"", "(t: \"1.5s\", zoom: 2.0"));
    assert!(e.starts_with("k.ron:7:") && e.contains("zoom"), "{e}");
    let e = err(&GOOD.replace("position: (5.0, 2.0, 0.0)", "position: (5.0, 2.x, 0.0)"));
    assert!(e.starts_with("k.ron:7:"), "{e}");
    let e = err(&GOOD.replace("fov_y_deg: 60.0", "fov_y_deg: 180.0"));
    assert!(e.starts_with("k.ron:3:5: fov_y_deg:") && e.contains("0 < fov_y_deg < 180"), "{e}");
    let e = err(&GOOD.replace("Some(40.0)", "Some(-1.0)"));
    assert!(e.starts_with("k.ron:8:") && e.contains("fov_y_deg"), "{e}");
    let e = err("CameraKeyframes(\n  keys: [],\n)");
    assert!(e.starts_with("k.ron:2:3: keys:") && e.contains("at least one"), "{e}");
    let e = err("CameraKeyframes(keys: [(t: \"0s\", position: (inf, 0.0, 0.0), look_at: (0.0, 0.0, 0.0))])");
    assert!(e.contains("not finite"), "{e}");
}

#[test]
fn code_built_keyframes_name_the_field() {
    let mut spec: CameraKeyframes = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(GOOD)
        .unwrap();
    assert!(KeyframePath::new(&spec).is_ok());
    spec.keys[3].orientation = Some(DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0));
    let e = KeyframePath::new(&spec).unwrap_err().to_string();
    assert!(e.starts_with("keys[3].orientation: "), "{e}");
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        let _ = load(&text);
    }

    #[test]
    fn mutated_files_never_panic(at in 0usize..600, junk in "[()\\[\\],:\"a-z0-9.]{0,4}") {
        let mut text = GOOD.to_string();
        let at = at.min(text.len());
        if text.is_char_boundary(at) {
            text.insert_str(at, &junk);
        }
        let _ = load(&text);
    }
}
