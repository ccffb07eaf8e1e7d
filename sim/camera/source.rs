//! One way to name a camera path in a scenario ([`CameraSource`]) or on the command line
//! ([`open_file`]), and to open it as a [`CameraPath`].

use super::csv::RecordedPath;
use super::generators::Generator;
use super::keyframes::KeyframePath;
use super::pose::check_fov;
use super::tum::TumPath;
use super::{CameraError, CameraPath};
use serde::{Deserialize, Serialize};
use sfsim_models::ConfigError;
use std::path::{Path, PathBuf};

fn default_fov() -> f64 {
    60.0
}

/// Where a scenario's camera path comes from. The variant chooses the format (never the
/// file extension); relative paths are resolved against the scenario file's folder.
///
/// ```ron
/// camera: Keyframes("cameras/flyby.keys.ron")
/// camera: Recorded("cameras/orbit.csv")
/// camera: Tum(file: "cameras/handheld.tum", fov_y_deg: 60.0)
/// camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0))
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum CameraSource {
    /// A keyframe RON file ([`super::keyframes`]).
    Keyframes(PathBuf),
    /// A recorded per-frame CSV ([`super::csv`]).
    Recorded(PathBuf),
    /// A TUM trajectory ([`super::tum`]); the format has no field of view, so it is given
    /// here (degrees, default 60).
    Tum {
        file: PathBuf,
        #[serde(default = "default_fov")]
        fov_y_deg: f64,
    },
    /// A procedural path ([`super::generators`]).
    Generator(Generator),
}

impl CameraSource {
    /// Range checks that need no file (generator parameters, the TUM field of view). The
    /// field path is relative (`radius`, `fov_y_deg`) so a scenario can prefix it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self {
            CameraSource::Generator(g) => g.validate(),
            CameraSource::Tum { fov_y_deg, .. } => check_fov(*fov_y_deg).map_err(|m| ConfigError::new("fov_y_deg", m)),
            CameraSource::Keyframes(_) | CameraSource::Recorded(_) => Ok(()),
        }
    }

    /// Loads the path for a run at `fps` frames per second; file paths are relative to
    /// `base_dir` (the scenario's folder). A recording made at `fps` replays frame by
    /// frame, one made at another rate by time ([`RecordedPath::with_fps`]).
    pub fn open(&self, base_dir: &Path, fps: f64) -> Result<Box<dyn CameraPath>, CameraError> {
        check_fps(fps)?;
        Ok(match self {
            CameraSource::Keyframes(file) => Box::new(KeyframePath::load(&base_dir.join(file))?),
            CameraSource::Recorded(file) => Box::new(RecordedPath::load(&base_dir.join(file))?.with_fps(fps)),
            CameraSource::Tum { file, fov_y_deg } => Box::new(TumPath::load(&base_dir.join(file), *fov_y_deg)?),
            CameraSource::Generator(g) => Box::new(g.build()?),
        })
    }
}

/// `fps` must be finite and > 0.
pub(crate) fn check_fps(fps: f64) -> Result<(), CameraError> {
    if fps.is_finite() && fps > 0.0 {
        Ok(())
    } else {
        Err(CameraError::Fps { fps })
    }
}

/// The format of a camera file named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A generator RON file (`*.gen.ron`).
    Generator,
    /// A keyframe RON file (`*.keys.ron`).
    Keyframes,
    /// A TUM trajectory.
    Tum,
    /// A recorded per-frame CSV.
    Recorded,
}

/// Opens a camera file for a run at `fps`. With `kind` `None` the format is guessed:
/// `.txt` / `.tum` → TUM, `.csv` → recorded, anything else is tried as keyframes and then
/// as a generator (the error reports both attempts). `tum_fov_y_deg` is the field of view
/// given to TUM poses. Returns the kind used.
pub fn open_file(
    file: &Path,
    kind: Option<SourceKind>,
    tum_fov_y_deg: f64,
    fps: f64,
) -> Result<(SourceKind, Box<dyn CameraPath>), CameraError> {
    check_fps(fps)?;
    let ext = file.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let kind = kind.or(match ext.as_deref() {
        Some("txt" | "tum") => Some(SourceKind::Tum),
        Some("csv") => Some(SourceKind::Recorded),
        _ => None,
    });
    let Some(kind) = kind else {
        return guess_ron(file);
    };
    let path: Box<dyn CameraPath> = match kind {
        SourceKind::Tum => Box::new(TumPath::load(file, tum_fov_y_deg)?),
        SourceKind::Recorded => Box::new(RecordedPath::load(file)?.with_fps(fps)),
        SourceKind::Keyframes => Box::new(KeyframePath::load(file)?),
        SourceKind::Generator => Box::new(Generator::load(file)?.build()?),
    };
    Ok((kind, path))
}

/// Tries a RON file as keyframes, then as a generator.
fn guess_ron(file: &Path) -> Result<(SourceKind, Box<dyn CameraPath>), CameraError> {
    let text = crate::limits::read_to_string(file, crate::limits::InputKind::CameraPath)
        .map_err(|source| CameraError::Read { file: file.to_path_buf(), source })?;
    let keyframes = match KeyframePath::from_text(&text, file) {
        Ok(k) => return Ok((SourceKind::Keyframes, Box::new(k))),
        Err(e) => e,
    };
    let generator = match Generator::from_text(&text, file) {
        Ok(g) => return Ok((SourceKind::Generator, Box::new(g.build()?))),
        Err(e) => e,
    };
    Err(CameraError::Unrecognized {
        file: file.to_path_buf(),
        keyframes: Box::new(keyframes),
        generator: Box::new(generator),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_written_as_the_docs_say() {
        let text = r#"[
            Keyframes("cameras/flyby.keys.ron"),
            Recorded("cameras/orbit.csv"),
            Tum(file: "cameras/handheld.tum", fov_y_deg: 50.0),
            Tum(file: "x.tum"),
            Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 30.0, height: 8.0, period_s: 20.0)),
        ]"#;
        let sources: Vec<CameraSource> = ron::from_str(text).unwrap();
        assert_eq!(sources[0], CameraSource::Keyframes("cameras/flyby.keys.ron".into()));
        assert_eq!(sources[3], CameraSource::Tum { file: "x.tum".into(), fov_y_deg: 60.0 });
        assert!(sources.iter().all(|s| s.validate().is_ok()));
        let back: Vec<CameraSource> = ron::from_str(&ron::to_string(&sources).unwrap()).unwrap();
        assert_eq!(back, sources);
        assert!(ron::from_str::<CameraSource>("Tum(file: \"a\", fov: 1.0)").is_err());
    }

    #[test]
    fn open_checks_fps_and_reports_missing_files_with_their_path() {
        let g = CameraSource::Generator(Generator::Orbit {
            center: glam::DVec3::ZERO,
            radius: 1.0,
            height: 0.0,
            period_s: 1.0,
            fov_y_deg: 60.0,
        });
        assert!(g.open(Path::new("."), 60.0).is_ok());
        let e = g.open(Path::new("."), 0.0).err().unwrap().to_string();
        assert!(e.contains("fps 0"), "{e}");
        let e = CameraSource::Recorded("nope.csv".into()).open(Path::new("/base"), 60.0).err().unwrap().to_string();
        assert!(e.starts_with("/base/nope.csv: cannot read"), "{e}");
    }
}
