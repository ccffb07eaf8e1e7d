//! File paths inside scenarios are relative to the scenario's folder; an output folder's
//! resolved.ron must name the same files relative to itself.

use crate::camera::CameraSource;
use std::path::{Component, Path, PathBuf};

fn absolute(path: &Path) -> PathBuf {
    let joined =
        if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(path) };
    // Lexical clean-up: drop "." and fold "..".
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` (relative to `from_dir`, or absolute) expressed relative to `to_dir`.
pub(crate) fn rebase(path: &Path, from_dir: &Path, to_dir: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let target = absolute(&from_dir.join(path));
    let base = absolute(to_dir);
    let (t, b): (Vec<_>, Vec<_>) = (target.components().collect(), base.components().collect());
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    rel
}

/// Rewrites a camera source's file path from `from_dir`-relative to `to_dir`-relative.
pub(super) fn rebase_camera(source: &mut CameraSource, from_dir: &Path, to_dir: &Path) {
    match source {
        CameraSource::Keyframes(p) | CameraSource::Recorded(p) | CameraSource::Tum { file: p, .. } => {
            *p = rebase(p, from_dir, to_dir)
        }
        CameraSource::Generator(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebases_between_folders() {
        assert_eq!(
            rebase(Path::new("cameras/orbit.csv"), Path::new("/r/scenarios"), Path::new("/r/reports/out/x")),
            PathBuf::from("../../../scenarios/cameras/orbit.csv")
        );
        assert_eq!(rebase(Path::new("a.csv"), Path::new("/r/s"), Path::new("/r/s")), PathBuf::from("a.csv"));
        assert_eq!(rebase(Path::new("/abs/a.csv"), Path::new("/r"), Path::new("/x")), PathBuf::from("/abs/a.csv"));
    }
}
