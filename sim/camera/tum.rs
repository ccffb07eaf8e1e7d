//! TUM trajectory files, the plain-text format of recorded camera datasets (TUM RGB-D
//! benchmark, and many SLAM tools after it):
//!
//! ```text
//! # timestamp tx ty tz qx qy qz qw
//! 1305031102.1758 1.3405 0.6266 1.6575 0.6574 0.6126 -0.2949 -0.3248
//! ```
//! One pose per line, fields separated by whitespace; `#` starts a comment (whole-line
//! or trailing); blank lines are ignored. `timestamp` is in seconds (any origin: replay
//! time is relative to the first timestamp); `t*` is the position; `q*` the orientation.
//! Timestamps must strictly increase. The format has no field of view: it is a parameter.
//!
//! **Camera frame.** TUM stores the pose of the *optical* frame (x right, y down, z
//! forward, the computer-vision convention). sfsim's cameras look along −Z with +Y up
//! ([`super::pose`]), so on load the orientation is turned 180° about the camera's own x
//! axis (`q_sfsim = q_tum · (1, 0, 0, 0)` in (x, y, z, w)), and back on write. Positions
//! and the world frame are used as they are.
//!
//! Replay interpolates between the two samples around the time: position linearly,
//! orientation by shortest-arc slerp; it holds the first / last pose outside the
//! recording. The frame index is not used.

use super::pose::check_fov;
use super::text::{format_f64, missing_columns, parse_f64, split_whitespace, unit_quat};
use super::{CameraError, CameraPath, CameraPose};
use glam::{DQuat, DVec3};
use std::path::Path;

const COLUMNS: [&str; 8] = ["timestamp", "tx", "ty", "tz", "qx", "qy", "qz", "qw"];

/// Optical frame (z forward, y down) → sfsim camera frame (−z forward, y up).
const OPTICAL_TO_SFSIM: DQuat = DQuat::from_xyzw(1.0, 0.0, 0.0, 0.0);
/// The inverse of [`OPTICAL_TO_SFSIM`].
const SFSIM_TO_OPTICAL: DQuat = DQuat::from_xyzw(-1.0, 0.0, 0.0, 0.0);

/// One pose of a TUM trajectory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TumSample {
    /// The file's timestamp, seconds (absolute, as written).
    pub timestamp: f64,
    /// The pose in sfsim's camera convention (already converted from the optical frame).
    pub pose: CameraPose,
}

/// A TUM trajectory replayed by time.
#[derive(Debug, Clone)]
pub struct TumPath {
    samples: Vec<TumSample>,
}

impl TumPath {
    /// Reads a TUM file; every pose gets `fov_y_deg` (degrees).
    pub fn load(file: &Path, fov_y_deg: f64) -> Result<TumPath, CameraError> {
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::CameraPath)
            .map_err(|source| CameraError::Read { file: file.to_path_buf(), source })?;
        Self::from_text(&text, file, fov_y_deg)
    }

    /// Parses TUM text; `file` names it in errors.
    pub fn from_text(text: &str, file: &Path, fov_y_deg: f64) -> Result<TumPath, CameraError> {
        check_fov(fov_y_deg).map_err(|m| CameraError::Config { field: "fov_y_deg".into(), message: m })?;
        let mut samples: Vec<TumSample> = Vec::new();
        let mut last_line = 1;
        for (i, raw) in text.split('\n').enumerate() {
            let n = i + 1;
            last_line = n;
            let line = raw.split('#').next().unwrap_or("");
            let f = split_whitespace(line);
            if f.is_empty() {
                continue;
            }
            if f.len() != COLUMNS.len() {
                return Err(CameraError::at(
                    file,
                    n,
                    f.get(COLUMNS.len()).map(|x| x.col),
                    format!(
                        "expected {} whitespace-separated fields (timestamp tx ty tz qx qy qz qw), found {}{}",
                        COLUMNS.len(),
                        f.len(),
                        missing_columns(&COLUMNS, f.len())
                    ),
                ));
            }
            let mut x = [0.0; 8];
            for (k, v) in x.iter_mut().enumerate() {
                *v = parse_f64(f[k], COLUMNS[k], file, n)?;
            }
            if let Some(prev) = samples.last() {
                if x[0] <= prev.timestamp {
                    return Err(CameraError::at(
                        file,
                        n,
                        Some(f[0].col),
                        format!(
                            "timestamp {} is not after the previous line's {}; timestamps must strictly increase",
                            f[0].text,
                            format_f64(prev.timestamp)
                        ),
                    ));
                }
            }
            let q_tum = unit_quat([x[4], x[5], x[6], x[7]], file, n, f[4].col)?;
            samples.push(TumSample {
                timestamp: x[0],
                pose: CameraPose {
                    position: DVec3::new(x[1], x[2], x[3]),
                    orientation: q_tum * OPTICAL_TO_SFSIM,
                    fov_y_deg,
                },
            });
        }
        if samples.is_empty() {
            return Err(CameraError::at(
                file,
                last_line,
                None,
                "no poses; expected lines of `timestamp tx ty tz qx qy qz qw`",
            ));
        }
        Ok(TumPath { samples })
    }

    /// The samples as read, timestamps absolute.
    pub fn samples(&self) -> &[TumSample] {
        &self.samples
    }
}

/// TUM text for `samples` (poses in sfsim's convention; converted to the optical frame),
/// with a comment header. The field of view is not stored. Numbers are written as the
/// shortest decimal that reads back exactly.
pub fn to_tum(samples: &[TumSample]) -> String {
    let mut out = String::from("# timestamp tx ty tz qx qy qz qw\n");
    out.push_str("# camera pose of the optical frame (x right, y down, z forward)\n");
    for s in samples {
        let p = s.pose.position;
        let q = s.pose.orientation * SFSIM_TO_OPTICAL;
        let numbers = [s.timestamp, p.x, p.y, p.z, q.x, q.y, q.z, q.w];
        let line: Vec<String> = numbers.iter().map(|&x| format_f64(x)).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

impl CameraPath for TumPath {
    fn pose_at(&self, t_seconds: f64, _frame: u64) -> CameraPose {
        let s = &self.samples;
        let t0 = s[0].timestamp;
        // Compare in relative time, as the path is played.
        let i = s.partition_point(|x| x.timestamp - t0 <= t_seconds);
        if i == 0 {
            return s[0].pose;
        }
        if i == s.len() {
            return s[i - 1].pose;
        }
        let (a, b) = (&s[i - 1], &s[i]);
        let (ta, tb) = (a.timestamp - t0, b.timestamp - t0);
        if tb <= ta {
            return a.pose;
        }
        CameraPose::interpolate(&a.pose, &b.pose, (t_seconds - ta) / (tb - ta))
    }

    /// Last timestamp minus the first, seconds.
    fn duration(&self) -> Option<f64> {
        let s = &self.samples;
        Some(s[s.len() - 1].timestamp - s[0].timestamp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::pose::rotation_angle;
    use proptest::prelude::*;

    fn load(text: &str) -> Result<TumPath, CameraError> {
        TumPath::from_text(text, Path::new("h.tum"), 60.0)
    }

    fn err(text: &str) -> String {
        load(text).expect_err("must fail").to_string()
    }

    fn samples() -> Vec<TumSample> {
        (0..20)
            .map(|i| {
                let t = f64::from(i) * 0.033;
                TumSample {
                    timestamp: 1305031102.1758 + t,
                    pose: CameraPose::look_at(
                        DVec3::new(t, 1.6 + 0.01 * (9.0 * t).sin(), 3.0 - t),
                        DVec3::new(0.0, 1.0, -10.0),
                        DVec3::Y,
                        60.0,
                    ),
                }
            })
            .collect()
    }

    #[test]
    fn write_read_round_trips() {
        let s = samples();
        let path = load(&to_tum(&s)).unwrap();
        for (a, b) in s.iter().zip(path.samples()) {
            assert_eq!(a.timestamp, b.timestamp);
            assert_eq!(a.pose.position, b.pose.position);
            assert!((a.pose.orientation - b.pose.orientation).length() < 1e-12);
            assert!(rotation_angle(a.pose.orientation, b.pose.orientation) < 1e-12);
        }
        // Write → read → write is stable too.
        assert_eq!(to_tum(path.samples()), to_tum(&s));
    }

    #[test]
    fn the_optical_frame_looks_along_plus_z() {
        // Identity in TUM = looking along world +Z with world −Y as up.
        let path = load("0 1 2 3 0 0 0 1\n").unwrap();
        let p = path.pose_at(0.0, 0);
        assert!(p.forward().distance(DVec3::Z) < 1e-15);
        assert!(p.up().distance(DVec3::NEG_Y) < 1e-15);
        assert!(p.right().distance(DVec3::X) < 1e-15);
    }

    #[test]
    fn replays_relative_to_the_first_timestamp() {
        let text = "# comment\n\n100.0 0 0 0 0 0 0 1  # trailing\n102.0 2 4 0 0 0 0 1\n104.0 2 4 0 0 1 0 0\n";
        let path = load(text).unwrap();
        assert_eq!(path.duration(), Some(4.0));
        assert_eq!(path.pose_at(-3.0, 0).position, DVec3::ZERO);
        assert_eq!(path.pose_at(1.0, 0).position, DVec3::new(1.0, 2.0, 0.0));
        assert_eq!(path.pose_at(2.0, 0), path.samples()[1].pose);
        assert_eq!(path.pose_at(9.0, 0), path.samples()[2].pose);
        let q = path.pose_at(3.0, 0).orientation;
        let (a, b) = (path.samples()[1].pose.orientation, path.samples()[2].pose.orientation);
        assert!((rotation_angle(a, q) - rotation_angle(a, b) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn malformed_files_point_at_the_problem() {
        let e = err("# only comments\n");
        assert!(e.starts_with("h.tum:2: no poses"), "{e}");
        let e = err("0 0 0 0 0 0 0 1\n1 0 0 0 0 0 1\n");
        assert!(e.starts_with("h.tum:2: ") && e.contains("found 7; missing qw"), "{e}");
        let e = err("0 0 0 0 0 0 0 1 9\n");
        assert!(e.starts_with("h.tum:1:17: ") && e.contains("found 9"), "{e}");
        let e = err("0 0 0 0 0 0 0 1\n1 0 0 zero 0 0 0 1\n");
        assert!(e.starts_with("h.tum:2:7: tz: expected a finite number, found \"zero\""), "{e}");
        let e = err("0 0 0 0 0 0 0 1\n0 0 0 0 0 0 0 1\n");
        assert!(e.starts_with("h.tum:2:1: timestamp 0 is not after"), "{e}");
        let e = err("0 0 0 0  0 0 0 0\n");
        assert!(e.starts_with("h.tum:1:10: ") && e.contains("zero length"), "{e}");
        let e = TumPath::from_text("0 0 0 0 0 0 0 1", Path::new("h.tum"), 0.0).unwrap_err();
        assert!(e.to_string().starts_with("fov_y_deg: "), "{e}");
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "\\PC{0,300}") {
            let _ = load(&text);
        }

        #[test]
        fn random_numbers_never_panic(text in "([0-9. e#-]{0,40}\n){0,6}", t in -10.0f64..10.0) {
            if let Ok(p) = load(&text) {
                let _ = p.pose_at(t, 0);
            }
        }
    }
}
