//! Camera paths for the GPU sampler: where the camera is on every frame.
//!
//! A [`CameraPath`] gives a [`CameraPose`] (position, orientation, vertical field of view)
//! for a time and frame index. Camera convention: right-handed, the camera looks along its
//! local −Z with +Y up and +X right; see [`pose`].
//!
//! Sources, all opened through [`CameraSource::open`] (scenarios) or [`open_file`] (CLI):
//! - [`keyframes`]: hand-written RON keys, centripetal Catmull–Rom positions, slerped
//!   orientations;
//! - [`csv`]: recorded per-frame poses (`sfsim camera record` writes them; they replay
//!   bit-exactly);
//! - [`tum`]: TUM trajectory text files from real camera datasets;
//! - [`generators`]: orbit, seeded roller-coaster and paint-mixer, as in Intel's SFS demo.
//!
//! Errors ([`CameraError`]) name the file and the line (and column where known) and say
//! what was expected. Nothing here panics on user input.

pub mod csv;
mod error;
pub mod generators;
pub mod keyframes;
pub mod pose;
pub mod record;
mod ron_text;
pub mod source;
mod spline;
pub mod text;
mod track;
pub mod tum;

pub use csv::{FramePose, RecordedPath};
pub use error::CameraError;
pub use generators::{CoasterParams, Generator, GeneratorPath, OrbitParams};
pub use keyframes::{CameraKeyframes, Interpolation, Keyframe, KeyframePath};
pub use pose::CameraPose;
pub use source::{open_file, CameraSource, SourceKind};
pub use tum::{TumPath, TumSample};

/// A camera path: the pose for each frame of a run.
///
/// Implementations are deterministic (the same arguments give the same pose, bit for
/// bit) and never panic, whatever the arguments (non-finite times give a valid pose).
pub trait CameraPath: Send + Sync {
    /// The pose at `t_seconds` (seconds from the start of the run) on frame `frame`
    /// (0-based). Most paths use only the time; frame-indexed ones (the paint mixer,
    /// recordings) use the frame.
    fn pose_at(&self, t_seconds: f64, frame: u64) -> CameraPose;

    /// Length of the path in seconds, after which it holds its last pose; `None` for
    /// endless (periodic) paths.
    fn duration(&self) -> Option<f64>;
}
