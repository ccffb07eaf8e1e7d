//! Scenario files: the RON schema, loading with file:line:col errors, range validation and
//! `--set path=value` overrides.
//!
//! Every field has a default (the SPEC value), so a scenario names only what it changes;
//! `resolved.ron` in a run's output shows everything.

mod budget;
mod locate;
mod overrides;
mod paths;
mod ron_value;

use crate::workload::io::IoWorkload;
use crate::workload::pool::PoolWorkload;
use crate::workload::render::RenderWorkload;
use crate::workload::stream::StreamWorkload;
use serde::{Deserialize, Serialize};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;
use std::path::{Path, PathBuf};

pub use budget::check as check_budget;
pub(crate) use locate::field_position;
pub use overrides::Override;
pub(crate) use paths::rebase;
/// The `hardware` section lives with the models it configures; re-exported so that
/// `scenario::Hardware` keeps naming it.
pub use sfsim_models::Hardware;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Names the output folder (`reports/out/<name>/`).
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Seeds every random choice of the run (stall times, stream sizes).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time to run (10 s).
    #[serde(default = "default_duration")]
    pub duration: Time,
    #[serde(default)]
    pub hardware: Hardware,
    pub workload: Workload,
    /// Folder of the scenario file: relative paths inside it (camera files) start here.
    #[serde(skip)]
    pub base_dir: PathBuf,
}

/// The longest scenario name: it becomes a folder name, and file systems cap those at 255.
pub const MAX_NAME_LEN: usize = 100;

/// A scenario's name names its output folder (`reports/out/<name>/`), so it must be one
/// plain path component: no separators, not `.` or `..`, not hidden, not too long.
pub fn check_name(name: &str) -> Result<(), ConfigError> {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if name.is_empty() || !plain || name.starts_with('.') || name.len() > MAX_NAME_LEN {
        return Err(ConfigError::new(
            "name",
            format!(
                "{name:?} is not a valid name: it names the output folder, so it must be 1..={MAX_NAME_LEN} \
                 letters, digits, '-', '_' or '.', not starting with '.'"
            ),
        ));
    }
    Ok(())
}

fn default_seed() -> u64 {
    1
}
fn default_duration() -> Time {
    Time::from_secs(10)
}

/// What drives the hardware.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Workload {
    /// Streams of DirectStorage requests enqueued at a cadence to keep bytes in flight.
    Io(IoWorkload),
    /// A camera path over a scene, sampled by the ray-cast sampler writing feedback.
    Render(RenderWorkload),
    /// The Sampler Feedback Streaming engine over a scene and camera path, co-simulated
    /// with the NVMe, DirectStorage and MDU models.
    Stream(Box<StreamWorkload>),
    /// Every stream of a set of packed-texture containers read through DirectStorage, NVMe
    /// and the MDU at full rate: read and to-memory throughput of real content.
    Pool(PoolWorkload),
}

/// A scenario could not be used. Every variant names the file (or `--set` argument).
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{file}: cannot read: {source}")]
    Read { file: PathBuf, source: std::io::Error },
    #[error("{file}:{line}:{col}: {message}")]
    Parse { file: PathBuf, line: usize, col: usize, message: String },
    #[error("{file}{}: {field}: {message}", location.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
    Invalid { file: PathBuf, location: Option<(usize, usize)>, field: String, message: String },
    #[error("--set {arg}: {message}")]
    Override { arg: String, message: String },
}

impl Scenario {
    /// Reads, parses, applies overrides and validates a scenario file.
    pub fn load(file: &Path, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::Scenario)
            .map_err(|source| ScenarioError::Read { file: file.to_path_buf(), source })?;
        Self::from_text(&text, file, overrides)
    }

    pub fn from_text(text: &str, file: &Path, overrides: &[Override]) -> Result<Scenario, ScenarioError> {
        let mut scenario: Scenario = ron::Options::default().from_str(text).map_err(|e| ScenarioError::Parse {
            file: file.to_path_buf(),
            line: e.position.line,
            col: e.position.col,
            message: e.code.to_string(),
        })?;
        scenario.base_dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for o in overrides {
            scenario = o.apply(&scenario)?;
        }
        scenario.validate().map_err(|e| {
            // Point at the field in the file when it is written there; a value that came from
            // a default or an override has no position.
            let overridden =
                overrides.iter().find(|o| e.field == o.path || e.field.starts_with(&format!("{}.", o.path)));
            match overridden {
                Some(o) => {
                    ScenarioError::Override { arg: o.to_string(), message: format!("{}: {}", e.field, e.message) }
                }
                None => ScenarioError::Invalid {
                    file: file.to_path_buf(),
                    location: locate::field_position(text, &e.field),
                    field: e.field,
                    message: e.message,
                },
            }
        })?;
        Ok(scenario)
    }

    /// Range checks of every section; the error's field is a dotted path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        if self.duration < Time::from_ms(1) || self.duration > Time::from_secs(3600) {
            return Err(ConfigError::new("duration", format!("{} is out of range; expected 1ms..=1h", self.duration)));
        }
        self.hardware.validate()?;
        match &self.workload {
            Workload::Io(io) => {
                io.validate().map_err(|e| e.within("workload"))?;
                for change in &io.set_staging {
                    if change.size < self.hardware.nvme.max_io || change.at > self.duration {
                        return Err(ConfigError::new(
                            "workload.set_staging",
                            format!(
                                "({}, {}): expected size ≥ hardware.nvme.max_io ({}) and at ≤ duration ({})",
                                change.at, change.size, self.hardware.nvme.max_io, self.duration
                            ),
                        ));
                    }
                }
                Ok(())
            }
            Workload::Render(render) => {
                // A Render workload always measures quality: nothing for `reuse` to apply to.
                let conflict = render.render.reuse_conflict().map(|c| ConfigError::new("render.reuse", c));
                conflict.map_or_else(|| render.validate(), Err).map_err(|e| e.within("workload"))
            }
            Workload::Stream(stream) => stream.validate().map_err(|e| e.within("workload")),
            Workload::Pool(pool) => pool.validate().map_err(|e| e.within("workload")),
        }?;
        budget::check(self)
    }

    /// The scenario with every default written out, as `resolved.ron` in `out_dir`: file
    /// paths inside it are rewritten relative to `out_dir` so that it runs from there.
    pub fn to_resolved_ron(&self, out_dir: &Path) -> String {
        let mut copy = self.clone();
        match &mut copy.workload {
            Workload::Render(render) => paths::rebase_camera(&mut render.camera, &self.base_dir, out_dir),
            Workload::Stream(stream) => {
                paths::rebase_camera(&mut stream.camera, &self.base_dir, out_dir);
                if let crate::engine::ContentConfig::Packed(packed) = &mut stream.content {
                    for c in &mut packed.containers {
                        *c = paths::rebase(c, &self.base_dir, out_dir);
                    }
                }
            }
            Workload::Pool(pool) => {
                for c in &mut pool.containers {
                    *c = paths::rebase(Path::new(c), &self.base_dir, out_dir).display().to_string();
                }
            }
            Workload::Io(_) => {}
        }
        let config = ron::ser::PrettyConfig::new().struct_names(true).depth_limit(8);
        ron::ser::to_string_pretty(&copy, config).expect("a scenario always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::units::Bytes;

    const MINIMAL: &str = r#"Scenario(name: "t", workload: Io(()))"#;

    #[test]
    fn defaults_fill_everything_and_resolved_round_trips() {
        let s = Scenario::from_text(MINIMAL, Path::new("t.ron"), &[]).unwrap();
        assert_eq!(s.hardware.staging, Bytes::mib(32));
        let resolved = s.to_resolved_ron(Path::new("."));
        let back = Scenario::from_text(&resolved, Path::new("resolved.ron"), &[]).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn unknown_field_has_file_line_col() {
        let text = "Scenario(\n  name: \"t\",\n  hardwre: (),\n  workload: Io(()),\n)";
        let err = Scenario::from_text(text, Path::new("x.ron"), &[]).unwrap_err().to_string();
        assert!(err.starts_with("x.ron:3:"), "{err}");
        assert!(err.contains("hardwre"), "{err}");
    }

    #[test]
    fn bad_unit_has_file_line_col() {
        let text = "Scenario(\n  name: \"t\",\n  duration: \"10\",\n  workload: Io(()),\n)";
        let err = Scenario::from_text(text, Path::new("x.ron"), &[]).unwrap_err().to_string();
        assert!(err.starts_with("x.ron:3:"), "{err}");
        assert!(err.contains("no unit"), "{err}");
    }

    #[test]
    fn out_of_range_value_points_at_the_field() {
        let text = "Scenario(\n  name: \"t\",\n  hardware: (\n    nvme: (\n      queue_depth: 0,\n    ),\n  ),\n  workload: Io(()),\n)";
        let err = Scenario::from_text(text, Path::new("x.ron"), &[]).unwrap_err().to_string();
        assert!(err.starts_with("x.ron:5:7: hardware.nvme.queue_depth"), "{err}");
        assert!(err.contains("1..=65536"), "{err}");
    }

    #[test]
    fn wrong_type_has_file_line_col() {
        let text = "Scenario(\n  name: \"t\",\n  seed: \"one\",\n  workload: Io(()),\n)";
        let err = Scenario::from_text(text, Path::new("x.ron"), &[]).unwrap_err().to_string();
        assert!(err.starts_with("x.ron:3:"), "{err}");
    }
}
