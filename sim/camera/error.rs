//! The one error type of the camera module. Every variant that comes from a file names it,
//! with the line (and column where known) of the offending text, and says what was expected.

use std::path::PathBuf;

/// A camera path could not be read, parsed, validated or written.
#[derive(Debug, thiserror::Error)]
pub enum CameraError {
    /// The file could not be read at all.
    #[error("{file}: cannot read: {source}")]
    Read { file: PathBuf, source: std::io::Error },
    /// The output file could not be written.
    #[error("{file}: cannot write: {source}")]
    Write { file: PathBuf, source: std::io::Error },
    /// Bad content at a known place: `file:line[:col]: message`. Lines and columns are
    /// 1-based; columns count characters.
    #[error("{file}:{line}{}: {message}", col.map(|c| format!(":{c}")).unwrap_or_default())]
    At { file: PathBuf, line: usize, col: Option<usize>, message: String },
    /// Bad content whose place in the file could not be found (the message names the
    /// field).
    #[error("{file}: {message}")]
    Invalid { file: PathBuf, message: String },
    /// A generator (or other inline configuration) has a parameter out of range.
    #[error("{field}: {message}")]
    Config { field: String, message: String },
    /// The frame rate given to [`crate::camera::CameraSource::open`] or the CLI is unusable.
    #[error("fps {fps} is out of range; expected a finite number > 0")]
    Fps { fps: f64 },
    /// `sfsim camera` could not tell which format a file is in.
    #[error("{file}: neither a keyframe file nor a generator (pass --kind to choose)\n  as keyframes: {keyframes}\n  as a generator: {generator}")]
    Unrecognized { file: PathBuf, keyframes: Box<CameraError>, generator: Box<CameraError> },
}

impl CameraError {
    /// `file:line[:col]: message`.
    pub(crate) fn at(file: &std::path::Path, line: usize, col: Option<usize>, message: impl Into<String>) -> Self {
        CameraError::At { file: file.to_path_buf(), line, col, message: message.into() }
    }
}
