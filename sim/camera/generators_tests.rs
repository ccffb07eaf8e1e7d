//! Tests of `generators.rs`.

use super::*;
use proptest::prelude::*;

const ORBIT: &str = "Orbit(center: (1.0, 2.0, 3.0), radius: 30.0, height: 8.0, period_s: 20.0)";
const COASTER: &str = "RollerCoaster(center: (0.0, 0.0, 0.0), radius: 22.0, amplitude: 12.0, period_s: 40.0, seed: 7)";
const MIXER: &str = "PaintMixer(\n  orbit: (center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0),\n  coaster: (center: (0.0, 0.0, 0.0), radius: 22.0, amplitude: 12.0, period_s: 40.0, seed: 7),\n  switch_every_frames: 4,\n)";

fn build(text: &str) -> GeneratorPath {
    Generator::from_text(text, Path::new("g.ron")).unwrap().build().unwrap()
}

fn err(text: &str) -> String {
    Generator::from_text(text, Path::new("g.ron")).expect_err("must fail").to_string()
}

#[test]
fn orbit_circles_the_centre_looking_at_it() {
    let path = build(ORBIT);
    let c = DVec3::new(1.0, 2.0, 3.0);
    assert_eq!(path.duration(), None);
    for i in 0..40 {
        let t = f64::from(i) * 0.7;
        let p = path.pose_at(t, i as u64);
        let off = p.position - c;
        assert!((off.y - 8.0).abs() < 1e-12);
        assert!((DVec3::new(off.x, 0.0, off.z).length() - 30.0).abs() < 1e-9);
        assert!(p.forward().distance((c - p.position).normalize()) < 1e-12);
    }
    let p0 = path.pose_at(0.0, 0).position;
    assert!(p0.distance(c + DVec3::new(30.0, 8.0, 0.0)) < 1e-12);
    assert!(path.pose_at(20.0, 0).position.distance(p0) < 1e-9);
    // Counter-clockwise from above: a quarter period later it is at −Z.
    assert!(path.pose_at(5.0, 0).position.distance(c + DVec3::new(0.0, 8.0, -30.0)) < 1e-9);
}

#[test]
fn coaster_is_a_smooth_closed_loop_at_constant_speed_looking_ahead() {
    let path = build(COASTER);
    let dt = 0.01;
    let mut speeds = Vec::new();
    for i in 0..4000 {
        let t = f64::from(i) * dt;
        let a = path.pose_at(t, 0);
        let b = path.pose_at(t + dt, 0);
        assert!(a.position.length() <= 22.0 * 1.3 + 12.0);
        let step = b.position - a.position;
        speeds.push(step.length() / dt);
        // Looks along the direction of travel.
        assert!(a.forward().dot(step.normalize()) > 0.99, "t={t}");
        assert!(a.up().y > 0.0);
    }
    let mean = speeds.iter().sum::<f64>() / speeds.len() as f64;
    let worst = speeds.iter().map(|s| (s - mean).abs()).fold(0.0, f64::max);
    assert!(worst < 0.01 * mean, "{mean} {worst} {:?}", speeds.iter().position(|s| (s - mean).abs() == worst));
    // Closed: one lap later it is back.
    assert!(path.pose_at(40.0, 0).position.distance(path.pose_at(0.0, 0).position) < 1e-9);
    // It goes through the scene volume: near the centre and far from it, high and low.
    let pts: Vec<DVec3> = (0..400).map(|i| path.pose_at(f64::from(i) * 0.1, 0).position).collect();
    let reach: Vec<f64> = pts.iter().map(|p| DVec3::new(p.x, 0.0, p.z).length()).collect();
    assert!(reach.iter().cloned().fold(f64::MAX, f64::min) < 11.0);
    assert!(reach.iter().cloned().fold(0.0, f64::max) > 13.0);
}

#[test]
fn generators_are_deterministic() {
    let a = build(COASTER);
    let b = build(COASTER);
    for i in 0..100u64 {
        let t = i as f64 / 60.0 * 17.0;
        assert_eq!(a.pose_at(t, i), b.pose_at(t, i));
    }
    let other = build(&COASTER.replace("seed: 7", "seed: 8"));
    assert_ne!(a.pose_at(1.0, 0), other.pose_at(1.0, 0));
}

#[test]
fn paint_mixer_switches_every_four_frames() {
    let mixer = build(MIXER);
    let orbit = build("Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)");
    let coaster = build(COASTER);
    for frame in 0..64u64 {
        let t = frame as f64 / 60.0;
        let want = if (frame / 4) % 2 == 0 { orbit.pose_at(t, frame) } else { coaster.pose_at(t, frame) };
        assert_eq!(mixer.pose_at(t, frame), want, "frame {frame}");
        assert_eq!(mixer.shows_orbit(frame), [0, 1, 2, 3].contains(&(frame % 8)));
    }
}

#[test]
fn bad_generators_point_at_the_field() {
    let e = err(&ORBIT.replace("radius: 30.0", "radius: -1.0"));
    assert!(e.starts_with("g.ron:1:32: radius: -1 is out of range"), "{e}");
    let e = err(&MIXER.replace("amplitude: 12.0", "amplitude: -2.0"));
    assert!(e.starts_with("g.ron:3:52: coaster.amplitude:"), "{e}");
    let e = err(&MIXER.replace("switch_every_frames: 4", "switch_every_frames: 0"));
    assert!(e.starts_with("g.ron:4:3: switch_every_frames:"), "{e}");
    let e = err(&ORBIT.replace("height", "heigth"));
    assert!(e.starts_with("g.ron:1:") && e.contains("heigth"), "{e}");
    let e = err("Spiral(radius: 1.0)");
    assert!(e.starts_with("g.ron:1:") && e.contains("Spiral"), "{e}");
    let e = err(&ORBIT.replace("period_s: 20.0", "period_s: 0.0"));
    assert!(e.contains("period_s: 0 is out of range"), "{e}");
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = Generator::from_text(&text, Path::new("g.ron"));
    }

    #[test]
    fn any_valid_coaster_gives_finite_poses(seed in any::<u64>(), radius in 0.01f64..1e4, amplitude in 0.0f64..1e4, t in -1e6f64..1e6) {
        let g = Generator::RollerCoaster { center: DVec3::ZERO, radius, amplitude, period_s: 3.0, seed, fov_y_deg: 60.0 };
        let p = g.build().unwrap().pose_at(t, 0);
        prop_assert!(p.position.is_finite() && p.orientation.is_finite());
        prop_assert!((p.orientation.length() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn extreme_times_give_finite_poses(t in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(-1e308), any::<f64>()], frame in any::<u64>()) {
        for text in [ORBIT, COASTER, MIXER] {
            let mut g = Generator::from_text(text, Path::new("g.ron")).unwrap();
            if let Generator::Orbit { period_s, .. } | Generator::RollerCoaster { period_s, .. } = &mut g {
                *period_s = 1e-300;
            }
            let p = g.build().unwrap().pose_at(t, frame);
            prop_assert!(p.position.is_finite() && p.orientation.is_finite(), "{text} {t} {p:?}");
        }
    }
}
