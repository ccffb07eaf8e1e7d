//! Keyframed camera paths, written by hand in RON:
//!
//! ```ron
//! CameraKeyframes(
//!     fov_y_deg: 60.0,             // default for keys that give none (default 60)
//!     interpolation: CatmullRom,   // or Linear (default CatmullRom)
//!     keys: [
//!         (t: "0s", position: (0.0, 1.0, -5.0), look_at: Some((0.0, 0.0, 0.0))),
//!         (t: "2.5s", position: (4.0, 2.0, 0.0), orientation: Some((0.0, 0.7071, 0.0, 0.7071)),
//!          fov_y_deg: Some(45.0)),
//!     ],
//! )
//! ```
//!
//! - `t` is a duration string with a unit (`"1.5s"`, `"250ms"`); key times must strictly
//!   increase.
//! - Each key gives exactly one of `look_at` (a world-space target; the camera is rolled so
//!   world +Y is up) or `orientation` (a quaternion `(x, y, z, w)`, normalized on load;
//!   zero length is an error). `Some(..)` may be left out (`look_at: (0.0, 0.0, 0.0)`).
//! - Between keys the position follows a **centripetal** Catmull–Rom spline through the
//!   key positions (Yuksel et al. 2011, see `spline.rs`; phantom end points are the mirror images of
//!   the second and second-to-last keys) or straight lines with `Linear`; the local
//!   parameter is linear in time within each segment. Orientation is slerped along the
//!   shorter arc and the field of view interpolated linearly, whatever `interpolation`
//!   says. Before the first key and after the last, the pose holds.

use super::pose::{check_fov, slerp_shortest};
use super::ron_text::{parse, RonText};
use super::spline::centripetal;
use super::{CameraError, CameraPath, CameraPose};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};
use sfsim_models::units::Time;
use std::path::Path;

/// The RON file as written (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraKeyframes {
    /// Vertical field of view (degrees) of keys that give none. Default 60.
    #[serde(default = "default_fov")]
    pub fov_y_deg: f64,
    /// How positions are interpolated between keys. Default `CatmullRom`.
    #[serde(default)]
    pub interpolation: Interpolation,
    /// At least one key, in strictly increasing time.
    pub keys: Vec<Keyframe>,
}

fn default_fov() -> f64 {
    60.0
}

/// Position interpolation between keys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Interpolation {
    /// Centripetal (α = 0.5) Catmull–Rom spline through the key positions.
    #[default]
    CatmullRom,
    /// Straight lines between key positions.
    Linear,
}

/// One key as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyframe {
    /// Time of the key from the start of the path (a duration string, e.g. `"1.5s"`).
    pub t: Time,
    /// Camera position, world space (scene units).
    pub position: DVec3,
    /// World-space point the camera looks at (world +Y up). Exclusive with `orientation`.
    #[serde(default)]
    pub look_at: Option<DVec3>,
    /// Camera-to-world rotation `(x, y, z, w)`; normalized on load. Exclusive with
    /// `look_at`.
    #[serde(default)]
    pub orientation: Option<DQuat>,
    /// Vertical field of view (degrees); the file's `fov_y_deg` when `None`.
    #[serde(default)]
    pub fov_y_deg: Option<f64>,
}

/// A validated keyframe path, ready to evaluate.
#[derive(Debug, Clone)]
pub struct KeyframePath {
    /// (time in seconds, pose) of every key, times strictly increasing.
    keys: Vec<(f64, CameraPose)>,
    interpolation: Interpolation,
}

/// A problem with one field of the parsed keyframes, before it is placed in the text.
struct Issue {
    /// `None` for the top level, else the key's index.
    key: Option<usize>,
    field: &'static str,
    message: String,
}

impl KeyframePath {
    /// Reads and validates a keyframe RON file.
    pub fn load(file: &Path) -> Result<KeyframePath, CameraError> {
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::CameraPath)
            .map_err(|source| CameraError::Read { file: file.to_path_buf(), source })?;
        Self::from_text(&text, file)
    }

    /// Parses and validates keyframes from `text`; `file` names it in errors.
    pub fn from_text(text: &str, file: &Path) -> Result<KeyframePath, CameraError> {
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let spec: CameraKeyframes = parse(text, file, &options)?;
        Self::resolve(&spec).map_err(|issue| locate(issue, text, file))
    }

    /// Validates keyframes built in code. Errors name the field (`keys[2].orientation`).
    pub fn new(spec: &CameraKeyframes) -> Result<KeyframePath, CameraError> {
        Self::resolve(spec).map_err(|i| CameraError::Config {
            field: match i.key {
                Some(k) => format!("keys[{k}].{}", i.field),
                None => i.field.to_string(),
            },
            message: i.message,
        })
    }

    /// The keys as (time in seconds, pose), orientations normalized, `look_at` resolved.
    pub fn keys(&self) -> &[(f64, CameraPose)] {
        &self.keys
    }

    fn resolve(spec: &CameraKeyframes) -> Result<KeyframePath, Issue> {
        let top = |field, message| Issue { key: None, field, message };
        check_fov(spec.fov_y_deg).map_err(|m| top("fov_y_deg", m))?;
        if spec.keys.is_empty() {
            return Err(top("keys", "expected at least one key".into()));
        }
        let mut keys: Vec<(f64, CameraPose)> = Vec::with_capacity(spec.keys.len());
        for (i, k) in spec.keys.iter().enumerate() {
            let issue = |field, message: String| Issue { key: Some(i), field, message };
            if let Some(prev) = i.checked_sub(1).map(|p| &spec.keys[p]) {
                let t_prev = keys[i - 1].0;
                if k.t <= prev.t || k.t.as_secs_f64() <= t_prev {
                    return Err(issue(
                        "t",
                        format!(
                            "key at {} is not after the previous key at {}; key times must strictly increase",
                            k.t, prev.t
                        ),
                    ));
                }
            }
            if !k.position.is_finite() {
                return Err(issue("position", format!("{} is not finite", k.position)));
            }
            let fov = k.fov_y_deg.unwrap_or(spec.fov_y_deg);
            if k.fov_y_deg.is_some() {
                check_fov(fov).map_err(|m| issue("fov_y_deg", m))?;
            }
            let orientation = match (k.look_at, k.orientation) {
                (Some(_), Some(_)) => {
                    return Err(issue(
                        "orientation",
                        "give exactly one of look_at or orientation, not both".into(),
                    ))
                }
                (None, None) => {
                    return Err(issue(
                        "position",
                        "give exactly one of look_at or orientation; this key has neither".into(),
                    ))
                }
                (Some(target), None) => {
                    CameraPose::try_look_at(k.position, target, DVec3::Y, fov)
                        .ok_or_else(|| {
                            issue(
                                "look_at",
                                format!(
                                    "cannot look from {} at {}: the target must differ from the position and not be straight above or below it (give an orientation instead)",
                                    k.position, target
                                ),
                            )
                        })?
                        .orientation
                }
                (None, Some(q)) => {
                    let len = q.length();
                    if !(len.is_finite() && len > 1e-12) {
                        return Err(issue(
                            "orientation",
                            format!(
                                "quaternion ({}, {}, {}, {}) has zero length (or is not finite); expected a rotation (x, y, z, w)",
                                q.x, q.y, q.z, q.w
                            ),
                        ));
                    }
                    q / len
                }
            };
            keys.push((k.t.as_secs_f64(), CameraPose { position: k.position, orientation, fov_y_deg: fov }));
        }
        Ok(KeyframePath { keys, interpolation: spec.interpolation })
    }
}

/// Places an issue in the text: at the field inside its key when written there, else at
/// the key, else the `keys` list.
fn locate(issue: Issue, text: &str, file: &Path) -> CameraError {
    let ron = RonText::new(text);
    let elements = ron.list_elements("keys");
    let (prefix, at) = match issue.key {
        Some(k) => {
            let at = elements.get(k).and_then(|&(from, to)| ron.field(issue.field, from, to).or(Some(from)));
            (format!("keys[{k}]: {}: ", issue.field), at)
        }
        None => {
            // Top-level fields: search outside the keys list first.
            let (list_from, list_to) = match (elements.first(), elements.last()) {
                (Some(f), Some(l)) => (f.0, l.1),
                _ => (text.len(), text.len()),
            };
            let at = ron.field(issue.field, 0, list_from).or_else(|| ron.field(issue.field, list_to, text.len()));
            (format!("{}: ", issue.field), at)
        }
    };
    let message = format!("{prefix}{}", issue.message);
    match at {
        Some(offset) => {
            let (line, col) = ron.line_col(offset);
            CameraError::at(file, line, Some(col), message)
        }
        None => CameraError::Invalid { file: file.to_path_buf(), message },
    }
}

impl CameraPath for KeyframePath {
    fn pose_at(&self, t_seconds: f64, _frame: u64) -> CameraPose {
        let keys = &self.keys;
        let (first, last) = (keys[0], keys[keys.len() - 1]);
        if t_seconds.is_nan() || t_seconds <= first.0 {
            return first.1;
        }
        if t_seconds >= last.0 {
            return last.1;
        }
        // keys[i].0 <= t < keys[i + 1].0, with 0 <= i < len - 1.
        let i = keys.partition_point(|k| k.0 <= t_seconds) - 1;
        let (t1, a) = keys[i];
        let (t2, b) = keys[i + 1];
        if t_seconds == t1 {
            return a;
        }
        let u = (t_seconds - t1) / (t2 - t1);
        let position = match self.interpolation {
            Interpolation::Linear => a.position.lerp(b.position, u),
            Interpolation::CatmullRom => {
                let p1 = a.position;
                let p2 = b.position;
                let p0 = if i > 0 { keys[i - 1].1.position } else { 2.0 * p1 - p2 };
                let p3 = keys.get(i + 2).map_or(2.0 * p2 - p1, |k| k.1.position);
                centripetal([p0, p1, p2, p3], u).0
            }
        };
        CameraPose {
            position,
            orientation: slerp_shortest(a.orientation, b.orientation, u),
            fov_y_deg: a.fov_y_deg + (b.fov_y_deg - a.fov_y_deg) * u,
        }
    }

    /// The time of the last key, seconds.
    fn duration(&self) -> Option<f64> {
        self.keys.last().map(|k| k.0)
    }
}

#[cfg(test)]
#[path = "keyframes_tests.rs"]
mod tests;
