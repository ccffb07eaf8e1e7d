//! Sampling any camera path at frame times, to save it as a recorded per-frame CSV.

use super::csv::FramePose;
use super::CameraPath;

/// The time of `frame` at `fps` frames per second: `frame / fps` seconds. Recording and
/// replay both use this, so a recorded file replays frame for frame.
pub fn frame_time(frame: u64, fps: f64) -> f64 {
    frame as f64 / fps
}

/// The poses of frames `0..frames` at `fps`, each sampled at [`frame_time`].
pub fn record(path: &dyn CameraPath, frames: u64, fps: f64) -> impl Iterator<Item = FramePose> + '_ {
    (0..frames).map(move |frame| {
        let time_s = frame_time(frame, fps);
        FramePose { frame, time_s, pose: path.pose_at(time_s, frame) }
    })
}

/// Frames needed to cover a path with a duration at `fps`: every frame whose time is
/// ≤ the duration (`floor(duration · fps) + 1`); `None` for endless paths.
pub fn frames_to_cover(path: &dyn CameraPath, fps: f64) -> Option<u64> {
    let d = path.duration()?;
    let estimate = (d * fps).floor();
    if !(estimate.is_finite() && (0.0..1e15).contains(&estimate)) {
        return None;
    }
    // The estimate can be one off when d · fps rounds; settle it with frame_time itself.
    let mut last = estimate as u64;
    if frame_time(last + 1, fps) <= d {
        last += 1;
    }
    while last > 0 && frame_time(last, fps) > d {
        last -= 1;
    }
    Some(last + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camera::CameraPose;

    struct Fixed(f64);
    impl CameraPath for Fixed {
        fn pose_at(&self, _: f64, _: u64) -> CameraPose {
            CameraPose::look_at(glam::DVec3::ZERO, glam::DVec3::NEG_Z, glam::DVec3::Y, 60.0)
        }
        fn duration(&self) -> Option<f64> {
            Some(self.0)
        }
    }

    #[test]
    fn covers_every_frame_up_to_the_end() {
        for (frames, fps) in [(3600u64, 60.0), (1, 60.0), (301, 29.97), (7, 3.0), (1000, 0.1)] {
            let d = frame_time(frames - 1, fps);
            assert_eq!(frames_to_cover(&Fixed(d), fps), Some(frames), "{frames} {fps}");
        }
        assert_eq!(frames_to_cover(&Fixed(f64::INFINITY), 60.0), None);
        let rows: Vec<_> = record(&Fixed(1.0), 3, 30.0).collect();
        assert_eq!(rows[2].frame, 2);
        assert_eq!(rows[2].time_s, 2.0 / 30.0);
    }
}
