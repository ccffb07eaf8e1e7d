//! Recorded per-frame camera paths: one CSV row per rendered frame.
//!
//! ```text
//! frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg
//! 0,0,30,8,0,-0.0935...,0.6969...,0.0935...,0.6969...,60
//! ```
//! `frame` is the frame index, `time_s` its time in seconds, `p*` the position (scene
//! units), `q*` the camera-to-world quaternion ([`super::pose`] convention), `fov_y_deg` the
//! vertical field of view in degrees. Frames and times strictly increase. Numbers are
//! written as the shortest decimal that reads back to the same `f64`
//! ([`super::text::format_f64`]), so record → load → record is byte-identical.
//!
//! Replay: by frame index ([`RecordedPath::pose_for_frame`]), or for a time the latest
//! row at or before it ([`RecordedPath::pose_at_time`]), holding the first row before the
//! recording starts and the last one after it ends.

use super::pose::check_fov;
use super::text::{format_f64, missing_columns, parse_f64, parse_u64, split_fields, unit_quat};
use super::{CameraError, CameraPath, CameraPose};
use glam::DVec3;
use std::io::Write;
use std::path::Path;

/// The header line every recorded CSV starts with.
pub const CSV_HEADER: &str = "frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg";
const COLUMNS: [&str; 10] = ["frame", "time_s", "px", "py", "pz", "qx", "qy", "qz", "qw", "fov_y_deg"];

/// The pose of one recorded frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FramePose {
    /// Frame index.
    pub frame: u64,
    /// Time of the frame, seconds from the start of the path.
    pub time_s: f64,
    pub pose: CameraPose,
}

/// Writes the header line.
pub fn write_csv_header(w: &mut impl Write) -> std::io::Result<()> {
    writeln!(w, "{CSV_HEADER}")
}

/// Writes one row (with its newline).
pub fn write_csv_row(w: &mut impl Write, row: &FramePose) -> std::io::Result<()> {
    let p = row.pose.position;
    let q = row.pose.orientation;
    let numbers = [row.time_s, p.x, p.y, p.z, q.x, q.y, q.z, q.w, row.pose.fov_y_deg];
    write!(w, "{}", row.frame)?;
    for x in numbers {
        write!(w, ",{}", format_f64(x))?;
    }
    writeln!(w)
}

/// The whole CSV text of `rows`.
pub fn to_csv(rows: &[FramePose]) -> String {
    let mut out = Vec::with_capacity(64 + rows.len() * 160);
    // Writing to a Vec cannot fail.
    let _ = write_csv_header(&mut out);
    for row in rows {
        let _ = write_csv_row(&mut out, row);
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A recorded path replayed from its rows.
#[derive(Debug, Clone)]
pub struct RecordedPath {
    rows: Vec<FramePose>,
    by_frame: bool,
}

impl RecordedPath {
    /// Reads a recorded CSV file.
    pub fn load(file: &Path) -> Result<RecordedPath, CameraError> {
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::CameraPath)
            .map_err(|source| CameraError::Read { file: file.to_path_buf(), source })?;
        Self::from_text(&text, file)
    }

    /// Parses recorded CSV text; `file` names it in errors. Replays by frame index until
    /// [`RecordedPath::with_fps`] says otherwise.
    pub fn from_text(text: &str, file: &Path) -> Result<RecordedPath, CameraError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
        let header = lines.next().map_or("", |(_, l)| l);
        check_header(header, file)?;
        let mut rows: Vec<FramePose> = Vec::new();
        let mut last_line = 1;
        for (n, line) in lines {
            last_line = n;
            if line.trim().is_empty() {
                continue;
            }
            let row = parse_row(line, file, n)?;
            if let Some(prev) = rows.last() {
                let fields = split_fields(line, ',');
                if row.frame <= prev.frame {
                    return Err(CameraError::at(
                        file,
                        n,
                        Some(fields[0].col),
                        format!(
                            "frame {} is not after the previous row's frame {}; frames must strictly increase",
                            row.frame, prev.frame
                        ),
                    ));
                }
                if row.time_s <= prev.time_s {
                    return Err(CameraError::at(
                        file,
                        n,
                        Some(fields[1].col),
                        format!(
                            "time_s {} is not after the previous row's {}; times must strictly increase",
                            row.time_s, prev.time_s
                        ),
                    ));
                }
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(CameraError::at(
                file,
                last_line,
                None,
                "no rows after the header; expected at least one frame",
            ));
        }
        Ok(RecordedPath { rows, by_frame: true })
    }

    /// Builds a path from rows in memory, sorted by frame (later duplicates of a frame are
    /// dropped); times should increase with frames for [`RecordedPath::pose_at_time`].
    /// `None` if `rows` is empty.
    pub fn from_rows(mut rows: Vec<FramePose>) -> Option<RecordedPath> {
        rows.sort_by_key(|r| r.frame);
        rows.dedup_by_key(|r| r.frame);
        (!rows.is_empty()).then_some(RecordedPath { rows, by_frame: true })
    }

    /// Chooses how [`CameraPath::pose_at`] replays at a run's frame rate: by frame index
    /// when every row's `time_s` is `frame / fps` (within 1 µs) — the recording was made
    /// at this rate — otherwise by time (the latest row at or before it).
    pub fn with_fps(mut self, fps: f64) -> RecordedPath {
        self.by_frame =
            fps.is_finite() && fps > 0.0 && self.rows.iter().all(|r| (r.time_s - r.frame as f64 / fps).abs() <= 1e-6);
        self
    }

    /// Whether [`CameraPath::pose_at`] looks rows up by frame index (else by time).
    pub fn replays_by_frame(&self) -> bool {
        self.by_frame
    }

    /// The rows, frames strictly increasing.
    pub fn rows(&self) -> &[FramePose] {
        &self.rows
    }

    /// The recorded pose of `frame`, if that frame was recorded.
    pub fn pose_for_frame(&self, frame: u64) -> Option<CameraPose> {
        self.rows.binary_search_by_key(&frame, |r| r.frame).ok().map(|i| self.rows[i].pose)
    }

    /// The pose of the latest row at or before `t_seconds` (the first row before the
    /// recording starts).
    pub fn pose_at_time(&self, t_seconds: f64) -> CameraPose {
        let i = self.rows.partition_point(|r| r.time_s <= t_seconds);
        self.rows[i.saturating_sub(1)].pose
    }
}

fn check_header(header: &str, file: &Path) -> Result<(), CameraError> {
    let fields = split_fields(header, ',');
    for (i, want) in COLUMNS.iter().enumerate() {
        let found = fields.get(i);
        if found.map(|f| f.text) != Some(*want) {
            return Err(CameraError::at(
                file,
                1,
                found.map(|f| f.col),
                format!(
                    "expected the header {CSV_HEADER:?}; column {} is {:?}, expected {want:?}",
                    i + 1,
                    found.map_or("(missing)", |f| f.text)
                ),
            ));
        }
    }
    if let Some(extra) = fields.get(COLUMNS.len()) {
        return Err(CameraError::at(
            file,
            1,
            Some(extra.col),
            format!("expected the header {CSV_HEADER:?}; found an extra column {:?}", extra.text),
        ));
    }
    Ok(())
}

fn parse_row(line: &str, file: &Path, n: usize) -> Result<FramePose, CameraError> {
    let f = split_fields(line, ',');
    if f.len() != COLUMNS.len() {
        return Err(CameraError::at(
            file,
            n,
            f.get(COLUMNS.len()).map(|x| x.col),
            format!(
                "expected {} comma-separated columns ({CSV_HEADER}), found {}{}",
                COLUMNS.len(),
                f.len(),
                missing_columns(&COLUMNS, f.len())
            ),
        ));
    }
    let frame = parse_u64(f[0], "frame", file, n)?;
    let mut x = [0.0; 9];
    for (i, v) in x.iter_mut().enumerate() {
        *v = parse_f64(f[i + 1], COLUMNS[i + 1], file, n)?;
    }
    let orientation = unit_quat([x[4], x[5], x[6], x[7]], file, n, f[5].col)?;
    check_fov(x[8]).map_err(|m| CameraError::at(file, n, Some(f[9].col), format!("fov_y_deg: {m}")))?;
    Ok(FramePose {
        frame,
        time_s: x[0],
        pose: CameraPose { position: DVec3::new(x[1], x[2], x[3]), orientation, fov_y_deg: x[8] },
    })
}

impl CameraPath for RecordedPath {
    /// The row of `frame` when replaying by frame and it was recorded, else the latest
    /// row at or before `t_seconds`.
    fn pose_at(&self, t_seconds: f64, frame: u64) -> CameraPose {
        if self.by_frame {
            if let Some(pose) = self.pose_for_frame(frame) {
                return pose;
            }
        }
        self.pose_at_time(t_seconds)
    }

    /// The last row's time, seconds.
    fn duration(&self) -> Option<f64> {
        self.rows.last().map(|r| r.time_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DQuat;
    use proptest::prelude::*;

    fn rows() -> Vec<FramePose> {
        (0..5u64)
            .map(|i| {
                let t = i as f64 / 60.0;
                FramePose {
                    frame: i,
                    time_s: t,
                    pose: CameraPose::look_at(
                        DVec3::new(30.0 * t.cos(), 1.0 / 3.0, 30.0 * t.sin()),
                        DVec3::ZERO,
                        DVec3::Y,
                        60.0 + t,
                    ),
                }
            })
            .collect()
    }

    fn load(text: &str) -> Result<RecordedPath, CameraError> {
        RecordedPath::from_text(text, Path::new("r.csv"))
    }

    fn err(text: &str) -> String {
        load(text).expect_err("must fail").to_string()
    }

    #[test]
    fn write_read_write_is_byte_identical() {
        let text = to_csv(&rows());
        let path = load(&text).unwrap();
        assert_eq!(path.rows(), &rows()[..]);
        assert_eq!(to_csv(path.rows()), text);
        assert!(text.starts_with(&format!("{CSV_HEADER}\n")));
    }

    #[test]
    fn replays_by_frame_or_by_time() {
        let path = load(&to_csv(&rows())).unwrap().with_fps(60.0);
        assert!(path.replays_by_frame());
        let r = rows();
        assert_eq!(path.pose_at(123.0, 3), r[3].pose, "frame wins");
        assert_eq!(path.pose_at(2.5 / 60.0, 99), r[2].pose, "unknown frame: by time");
        assert_eq!(path.pose_at(-1.0, 99), r[0].pose);
        assert_eq!(path.pose_at(10.0, 99), r[4].pose);
        assert_eq!(path.duration(), Some(4.0 / 60.0));
        let slow = path.clone().with_fps(30.0);
        assert!(!slow.replays_by_frame());
        assert_eq!(slow.pose_at(2.0 / 60.0, 1), r[2].pose);
        assert_eq!(slow.pose_at(2.0 / 60.0 - 1e-9, 1), r[1].pose);
    }

    #[test]
    fn accepts_crlf_blank_lines_and_unnormalized_quaternions() {
        let text = "frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg\r\n0,0,1,2,3,0,0,0,2,60\r\n\r\n";
        let path = load(text).unwrap();
        assert_eq!(path.rows()[0].pose.orientation, DQuat::IDENTITY);
    }

    #[test]
    fn malformed_files_point_at_the_problem() {
        let good = to_csv(&rows());
        let line3: Vec<&str> = good.lines().collect();
        let e = err("");
        assert!(e.starts_with("r.csv:1:1: expected the header"), "{e}");
        let e = err(&good.replace("qx", "qq"));
        assert!(e.starts_with("r.csv:1:23: ") && e.contains("column 6 is \"qq\""), "{e}");
        let e = err(CSV_HEADER);
        assert!(e.starts_with("r.csv:1: no rows"), "{e}");
        let bad_number = good.replacen(line3[2], &line3[2].replacen(",", ",x", 2), 1);
        let e = err(&bad_number);
        assert!(e.starts_with("r.csv:3:") && e.contains("expected a finite number"), "{e}");
        let missing = good.replacen(line3[3], &line3[3][..line3[3].rfind(',').unwrap()], 1);
        let e = err(&missing);
        assert!(e.starts_with("r.csv:4: ") && e.contains("found 9; missing fov_y_deg"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,0,0,0,0,0,0,0,1,60,7\n"));
        assert!(e.starts_with("r.csv:2:22: ") && e.contains("found 11"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n-1,0,0,0,0,0,0,0,1,60\n"));
        assert!(e.starts_with("r.csv:2:1: frame: expected a non-negative integer"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,0,0,0,0,0,0,0,0,60\n"));
        assert!(e.starts_with("r.csv:2:11: ") && e.contains("zero length"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,0,0,0,0,0,0,0,1,60\n0,1,0,0,0,0,0,0,1,60\n"));
        assert!(e.starts_with("r.csv:3:1: frame 0 is not after"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,1,0,0,0,0,0,0,1,60\n1,1,0,0,0,0,0,0,1,60\n"));
        assert!(e.starts_with("r.csv:3:3: time_s 1 is not after"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,0,0,0,0,0,0,0,1,0\n"));
        assert!(e.starts_with("r.csv:2:19: fov_y_deg"), "{e}");
        let e = err(&format!("{CSV_HEADER}\n0,NaN,0,0,0,0,0,0,1,60\n"));
        assert!(e.starts_with("r.csv:2:3: time_s"), "{e}");
    }

    proptest! {
        #[test]
        fn random_text_never_panics(text in "\\PC{0,300}") {
            let _ = load(&text);
            let _ = load(&format!("{CSV_HEADER}\n{text}"));
        }

        #[test]
        fn random_rows_never_panic(text in "([0-9.,e-]{0,40}\n){0,5}") {
            if let Ok(p) = load(&format!("{CSV_HEADER}\n{text}")) {
                let _ = p.pose_at(0.5, 3);
            }
        }

        #[test]
        fn any_finite_rows_round_trip(xs in proptest::collection::vec(-1e6f64..1e6, 7), fov in 1.0f64..179.0) {
            let q = DQuat::from_xyzw(xs[3], xs[4], xs[5], xs[6] + 1e6 + 1.0).normalize();
            let row = FramePose { frame: 7, time_s: xs[0].abs(), pose: CameraPose {
                position: DVec3::new(xs[0], xs[1], xs[2]), orientation: q, fov_y_deg: fov } };
            let text = to_csv(&[row]);
            let back = load(&text).unwrap();
            prop_assert_eq!(to_csv(back.rows()), text);
        }
    }
}
