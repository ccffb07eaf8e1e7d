//! Procedural camera paths in the manner of Intel's Sampler Feedback Streaming demo:
//! an orbit, a seeded roller-coaster, and the "paint mixer" that alternates between the two
//! every few frames to stress streaming.
//!
//! Written in RON (`*.gen.ron`, or inline in a scenario as `Generator(...)`):
//! ```ron
//! Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)
//! RollerCoaster(center: (0.0, 0.0, 0.0), radius: 22.0, amplitude: 12.0, period_s: 40.0, seed: 7)
//! PaintMixer(
//!     orbit: (center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0),
//!     coaster: (center: (0.0, 0.0, 0.0), radius: 22.0, amplitude: 12.0, period_s: 40.0, seed: 7),
//!     switch_every_frames: 4,
//! )
//! ```
//! Distances are scene units, periods seconds, the field of view (`fov_y_deg`, optional,
//! default 60) degrees. Generators have no end ([`CameraPath::duration`] is `None`): they
//! repeat with their period.

use super::pose::check_fov;
use super::ron_text::{parse, RonText};
use super::track::{phase, Track};
use super::{CameraError, CameraPath, CameraPose};
use glam::DVec3;
use serde::{Deserialize, Serialize};
use sfsim_models::ConfigError;
use std::f64::consts::TAU;
use std::path::Path;

fn default_fov() -> f64 {
    60.0
}
fn default_switch() -> u64 {
    4
}

/// A procedural camera path (see the module documentation for the RON form).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Generator {
    /// Circles `center` at `radius`, `height` above it, counter-clockwise seen from
    /// above (+Y), always looking at `center`. Starts at `center + (radius, height, 0)`.
    Orbit {
        /// Centre of the scene, world space.
        center: DVec3,
        /// Horizontal distance from the centre (> 0).
        radius: f64,
        /// Height above the centre (any sign).
        height: f64,
        /// Seconds per revolution (> 0).
        period_s: f64,
        /// Vertical field of view, degrees (default 60).
        #[serde(default = "default_fov")]
        fov_y_deg: f64,
    },
    /// Rides a smooth closed loop through the scene at constant speed, looking along the
    /// track. The loop is a periodic centripetal Catmull–Rom spline through 8 control
    /// points drawn from `seed`: one per 45° sector around `center` (angle jittered by
    /// ±13.5°), alternately far (0.6–1.0 × `radius`) and near (0.15–0.5 × `radius`) the
    /// centre, at heights uniform in ±`amplitude`.
    RollerCoaster {
        center: DVec3,
        /// Outer reach of the track from the centre (> 0).
        radius: f64,
        /// Maximum height above / below the centre (≥ 0).
        amplitude: f64,
        /// Seconds per lap (> 0).
        period_s: f64,
        /// Seeds the control points; the same seed gives the same track everywhere.
        seed: u64,
        #[serde(default = "default_fov")]
        fov_y_deg: f64,
    },
    /// The orbit's pose on frames `[0, n)`, the coaster's on `[n, 2n)`, and so on, with
    /// `n = switch_every_frames` (default 4): the view jumps between two distant cameras
    /// and streaming must serve both.
    PaintMixer {
        orbit: OrbitParams,
        coaster: CoasterParams,
        #[serde(default = "default_switch")]
        switch_every_frames: u64,
    },
}

/// The parameters of [`Generator::Orbit`], as a struct (used inside `PaintMixer`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrbitParams {
    pub center: DVec3,
    pub radius: f64,
    pub height: f64,
    pub period_s: f64,
    #[serde(default = "default_fov")]
    pub fov_y_deg: f64,
}

/// The parameters of [`Generator::RollerCoaster`], as a struct (used inside `PaintMixer`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoasterParams {
    pub center: DVec3,
    pub radius: f64,
    pub amplitude: f64,
    pub period_s: f64,
    pub seed: u64,
    #[serde(default = "default_fov")]
    pub fov_y_deg: f64,
}

fn check(ok: bool, field: &str, message: impl FnOnce() -> String) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(ConfigError::new(field, message()))
    }
}

fn positive(field: &str, v: f64) -> Result<(), ConfigError> {
    check(v.is_finite() && v > 0.0, field, || format!("{v} is out of range; expected a finite number > 0"))
}

impl OrbitParams {
    /// Range checks; the error's field is relative (`radius`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(self.center.is_finite(), "center", || format!("{} is not finite", self.center))?;
        positive("radius", self.radius)?;
        check(self.height.is_finite(), "height", || format!("{} is not finite", self.height))?;
        positive("period_s", self.period_s)?;
        check_fov(self.fov_y_deg).map_err(|m| ConfigError::new("fov_y_deg", m))
    }

    /// The orbit pose at `t_seconds`.
    pub fn pose_at(&self, t_seconds: f64) -> CameraPose {
        let angle = TAU * phase(t_seconds, self.period_s);
        // Counter-clockwise seen from +Y: x = cos, z = −sin.
        let offset = DVec3::new(self.radius * angle.cos(), self.height, -self.radius * angle.sin());
        CameraPose::look_at(self.center + offset, self.center, DVec3::Y, self.fov_y_deg)
    }
}

impl CoasterParams {
    /// Range checks; the error's field is relative (`amplitude`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(self.center.is_finite(), "center", || format!("{} is not finite", self.center))?;
        positive("radius", self.radius)?;
        check(self.amplitude.is_finite() && self.amplitude >= 0.0, "amplitude", || {
            format!("{} is out of range; expected a finite number ≥ 0", self.amplitude)
        })?;
        positive("period_s", self.period_s)?;
        check_fov(self.fov_y_deg).map_err(|m| ConfigError::new("fov_y_deg", m))
    }
}

/// A [`Generator`] ready to evaluate.
#[derive(Debug, Clone)]
pub struct GeneratorPath {
    kind: Built,
}

#[derive(Debug, Clone)]
enum Built {
    Orbit(OrbitParams),
    Coaster(Box<Track>),
    Mixer { orbit: OrbitParams, coaster: Box<Track>, every: u64 },
}

impl Generator {
    /// Reads a generator RON file (`*.gen.ron`), with `file:line:col` errors.
    pub fn load(file: &Path) -> Result<Generator, CameraError> {
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::CameraPath)
            .map_err(|source| CameraError::Read { file: file.to_path_buf(), source })?;
        Self::from_text(&text, file)
    }

    /// Parses and validates a generator from RON text; `file` names it in errors.
    pub fn from_text(text: &str, file: &Path) -> Result<Generator, CameraError> {
        let generator: Generator = parse(text, file, &ron::Options::default())?;
        generator.validate().map_err(|e| {
            let ron = RonText::new(text);
            let message = format!("{}: {}", e.field, e.message);
            match ron.field(&e.field, 0, text.len()) {
                Some(at) => {
                    let (line, col) = ron.line_col(at);
                    CameraError::at(file, line, Some(col), message)
                }
                None => CameraError::Invalid { file: file.to_path_buf(), message },
            }
        })?;
        Ok(generator)
    }

    /// Range checks. The field path leaves out the variant (`radius`,
    /// `coaster.amplitude`), so a scenario can prefix it with its own path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self.parts() {
            Parts::Orbit(o) => o.validate(),
            Parts::Coaster(c) => c.validate(),
            Parts::Mixer(o, c, every) => {
                o.validate().map_err(|e| e.within("orbit"))?;
                c.validate().map_err(|e| e.within("coaster"))?;
                check(every > 0, "switch_every_frames", || "0 is out of range; expected ≥ 1".into())
            }
        }
    }

    /// Validates and builds the path (the roller-coaster's track is computed here).
    pub fn build(&self) -> Result<GeneratorPath, CameraError> {
        self.validate().map_err(|e| CameraError::Config { field: e.field, message: e.message })?;
        let kind = match self.parts() {
            Parts::Orbit(o) => Built::Orbit(o),
            Parts::Coaster(c) => Built::Coaster(Box::new(Track::new(&c))),
            Parts::Mixer(orbit, c, every) => Built::Mixer { orbit, coaster: Box::new(Track::new(&c)), every },
        };
        Ok(GeneratorPath { kind })
    }

    fn parts(&self) -> Parts {
        match self {
            Generator::Orbit { center, radius, height, period_s, fov_y_deg } => Parts::Orbit(OrbitParams {
                center: *center,
                radius: *radius,
                height: *height,
                period_s: *period_s,
                fov_y_deg: *fov_y_deg,
            }),
            Generator::RollerCoaster { center, radius, amplitude, period_s, seed, fov_y_deg } => {
                Parts::Coaster(CoasterParams {
                    center: *center,
                    radius: *radius,
                    amplitude: *amplitude,
                    period_s: *period_s,
                    seed: *seed,
                    fov_y_deg: *fov_y_deg,
                })
            }
            Generator::PaintMixer { orbit, coaster, switch_every_frames } => {
                Parts::Mixer(orbit.clone(), coaster.clone(), *switch_every_frames)
            }
        }
    }
}

/// A generator's parameters as structs.
enum Parts {
    Orbit(OrbitParams),
    Coaster(CoasterParams),
    Mixer(OrbitParams, CoasterParams, u64),
}

impl GeneratorPath {
    /// For the paint mixer: whether `frame` shows the orbit (else the coaster). Always
    /// true for an orbit, false for a roller-coaster.
    pub fn shows_orbit(&self, frame: u64) -> bool {
        match &self.kind {
            Built::Orbit(_) => true,
            Built::Coaster(_) => false,
            Built::Mixer { every, .. } => (frame / (*every).max(1)).is_multiple_of(2),
        }
    }
}

impl CameraPath for GeneratorPath {
    fn pose_at(&self, t_seconds: f64, frame: u64) -> CameraPose {
        match &self.kind {
            Built::Orbit(o) => o.pose_at(t_seconds),
            Built::Coaster(track) => track.pose_at(t_seconds),
            Built::Mixer { orbit, coaster, .. } => {
                if self.shows_orbit(frame) {
                    orbit.pose_at(t_seconds)
                } else {
                    coaster.pose_at(t_seconds)
                }
            }
        }
    }

    /// `None`: generators repeat forever.
    fn duration(&self) -> Option<f64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ORBIT: &str = "Orbit(center: (1.0, 2.0, 3.0), radius: 30.0, height: 8.0, period_s: 20.0)";
    const COASTER: &str =
        "RollerCoaster(center: (0.0, 0.0, 0.0), radius: 22.0, amplitude: 12.0, period_s: 40.0, seed: 7)";
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
}
