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
#[path = "generators_tests.rs"]
mod tests;
