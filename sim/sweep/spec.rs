//! The sweep file's schema (RON, under `scenarios/sweeps/`) and its parsing with located
//! errors. A sweep file names a base scenario, axes over scenario fields (dotted paths, as
//! `--set` takes them) and over packing options (`pack.*`), how axes combine, the metrics
//! to tabulate and the plots to draw.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// A sweep file: `Sweep(name: ..., base: ..., axes: [...])`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename = "Sweep", deny_unknown_fields)]
pub struct SweepSpec {
    /// Names the output folder (`reports/out/<name>/`).
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The base scenario, relative to the sweep file's folder.
    pub base: PathBuf,
    /// Overrides applied to every point before the axes (`"duration=2s"`).
    #[serde(default)]
    pub set: Vec<String>,
    /// Content packed per packing point and given to the base scenario (see [`PackSpec`]).
    #[serde(default)]
    pub pack: Option<PackSpec>,
    /// The swept parameters, 1..=8.
    pub axes: Vec<AxisSpec>,
    /// How the axes combine (Cartesian).
    #[serde(default)]
    pub combine: Combine,
    /// Stats tabulated in the report and plotted by default (default: a set of NVMe, MDU,
    /// latency and packing figures present in the runs).
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Plots of the report (default: every metric against the first axis, one series per
    /// value of the second).
    #[serde(default)]
    pub plots: Vec<PlotSpec>,
}

/// One axis: a dotted path and its values, as a list or a range.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisSpec {
    /// A scenario field (`workload.in_flight`) or a packing option (`pack.rdo_lambda`);
    /// omitted for a labelled axis, whose values are names and whose `with` fields carry
    /// what changes (`name` is then required).
    #[serde(default)]
    pub path: String,
    /// The column name in results.csv (default: the path).
    #[serde(default)]
    pub name: Option<String>,
    /// More scenario fields set to the same value (`slope_v` beside `slope_u`).
    #[serde(default)]
    pub also: Vec<String>,
    /// Scenario fields or packing options that move with this axis: the i-th of their
    /// values goes with the axis's i-th (a drive's `peak` beside its `guaranteed`). Same
    /// length as `values`.
    #[serde(default)]
    pub with: Vec<LinkedField>,
    /// The values, written as `--set` takes them (`"4MiB"`, `"Lru"`, `40`, `None`).
    #[serde(default)]
    pub values: Option<Vec<AxisValue>>,
    /// Or a range of quantities or numbers.
    #[serde(default)]
    pub range: Option<RangeSpec>,
}

/// A field that moves with an axis.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkedField {
    pub path: String,
    pub values: Vec<AxisValue>,
}

/// `range: (from: "4MiB", to: "64MiB", steps: 5, scale: Log)`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeSpec {
    pub from: AxisValue,
    pub to: AxisValue,
    /// Values including both ends, 2..=1000.
    pub steps: u32,
    #[serde(default)]
    pub scale: Scale,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
pub enum Scale {
    /// Equal differences.
    #[default]
    Linear,
    /// Equal ratios (both ends > 0).
    Log,
}

/// How axes make points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
pub enum Combine {
    /// Every combination; the last axis varies fastest.
    #[default]
    Cartesian,
    /// The i-th value of every axis together; all axes have the same length.
    Zip,
}

/// One plot of the report.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlotSpec {
    /// An axis name (x).
    pub x: String,
    /// Stats (y), one curve each.
    pub y: Vec<String>,
    /// An axis name: one curve per value.
    #[serde(default)]
    pub series: Option<String>,
    #[serde(default)]
    pub log_x: bool,
    #[serde(default)]
    pub title: Option<String>,
}

/// What a sweep packs: inputs (images or BC DDS files) and the packing options every
/// packing point starts from; `pack.*` axes change the options.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackSpec {
    /// The inputs, relative to the sweep file's folder, 1..=64.
    pub inputs: Vec<PackInput>,
    /// Pack the inputs in threes (diffuse, normal, specular) as set containers.
    #[serde(default)]
    pub set: bool,
    /// Option values, by option name without `pack.` (`tilemode: "mip"`); see
    /// [`super::pack::OPTIONS`].
    #[serde(default)]
    pub options: Vec<(String, AxisValue)>,
}

/// One input to pack and its format (a `pack.format` axis overrides every input's).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackInput {
    pub path: PathBuf,
    /// bc1, bc2, bc3, bc4, bc5 or bc7 (for a DDS, omit to keep its own).
    #[serde(default)]
    pub format: Option<String>,
}

/// A value as a scenario override takes it: RON strings, numbers and booleans are all
/// kept as their text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct AxisValue(pub String);

impl<'de> Deserialize<'de> for AxisValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = AxisValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, number or boolean")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<AxisValue, E> {
                Ok(AxisValue(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<AxisValue, E> {
                Ok(AxisValue(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<AxisValue, E> {
                Ok(AxisValue(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<AxisValue, E> {
                Ok(AxisValue(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<AxisValue, E> {
                Ok(AxisValue(v.to_string()))
            }
        }
        d.deserialize_any(Text)
    }
}

/// A sweep file could not be used; every variant names the file, and where the text is
/// known, the line and column.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("{}: cannot read: {source}", file.display())]
    Read { file: PathBuf, source: std::io::Error },
    #[error("{}:{line}:{col}: {message}", file.display())]
    Parse { file: PathBuf, line: usize, col: usize, message: String },
    #[error("{}{}: {field}: {message}", file.display(), location.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default())]
    Invalid { file: PathBuf, location: Option<(usize, usize)>, field: String, message: String },
}

/// Sweep files above this size are refused.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// A parsed sweep file and its text (for locating later errors).
#[derive(Debug, Clone)]
pub struct SweepFile {
    pub spec: SweepSpec,
    pub file: PathBuf,
    pub text: String,
}

impl SweepFile {
    pub fn load(file: &Path) -> Result<SweepFile, SpecError> {
        let read = |source| SpecError::Read { file: file.to_path_buf(), source };
        let size = std::fs::metadata(file).map_err(read)?.len();
        if size > MAX_SPEC_BYTES {
            return Err(SpecError::Invalid {
                file: file.to_path_buf(),
                location: None,
                field: "(file)".into(),
                message: format!("{size} bytes; sweep files over {MAX_SPEC_BYTES} bytes (1 MiB) are refused"),
            });
        }
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::Sweep).map_err(read)?;
        Self::from_text(text, file)
    }

    pub fn from_text(text: String, file: &Path) -> Result<SweepFile, SpecError> {
        // Optional fields are written bare (`range: (...)`, `name: "x"`), or as Some(...).
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let spec: SweepSpec = options.from_str(&text).map_err(|e| SpecError::Parse {
            file: file.to_path_buf(),
            line: e.position.line,
            col: e.position.col,
            message: e.code.to_string(),
        })?;
        let sweep = SweepFile { spec, file: file.to_path_buf(), text };
        sweep.validate()?;
        Ok(sweep)
    }

    /// The folder relative paths in the file start from.
    pub fn dir(&self) -> PathBuf {
        self.file.parent().map(Path::to_path_buf).unwrap_or_default()
    }

    /// An error at `field`, located at the first place `needle` is written (an axis
    /// path, a value) or else at the field's key.
    pub fn invalid(&self, field: &str, needle: Option<&str>, message: impl Into<String>) -> SpecError {
        let location = needle
            .and_then(|n| locate_text(&self.text, &format!("{n:?}")).or_else(|| locate_text(&self.text, n)))
            .or_else(|| crate::scenario::field_position(&self.text, field.rsplit('.').next().unwrap_or(field)));
        SpecError::Invalid { file: self.file.clone(), location, field: field.to_string(), message: message.into() }
    }

    fn validate(&self) -> Result<(), SpecError> {
        let s = &self.spec;
        if let Err(e) = crate::scenario::check_name(&s.name) {
            return Err(self.invalid("name", None, e.message));
        }
        if s.axes.is_empty() || s.axes.len() > 8 {
            return Err(self.invalid("axes", None, format!("{} axes; expected 1..=8", s.axes.len())));
        }
        for (i, axis) in s.axes.iter().enumerate() {
            let field = format!("axes[{i}]");
            match (&axis.values, &axis.range) {
                (Some(_), Some(_)) | (None, None) => {
                    return Err(self.invalid(
                        &field,
                        Some(&axis.path),
                        format!("axis {:?}: give exactly one of `values: [...]` or `range: (...)`", axis.path),
                    ))
                }
                (Some(v), None) if v.is_empty() || v.len() > 1000 => {
                    return Err(self.invalid(
                        &format!("{field}.values"),
                        Some(&axis.path),
                        format!("axis {:?} lists {} values; expected 1..=1000", axis.path, v.len()),
                    ))
                }
                (None, Some(r)) if !(2..=1000).contains(&r.steps) => {
                    return Err(self.invalid(
                        &format!("{field}.range.steps"),
                        Some(&axis.path),
                        format!("axis {:?}: steps {} is out of range; expected 2..=1000", axis.path, r.steps),
                    ))
                }
                _ => {}
            }
        }
        for (i, axis) in s.axes.iter().enumerate() {
            if axis.path.starts_with("pack.") && !axis.also.is_empty() {
                return Err(self.invalid(
                    &format!("axes[{i}].also"),
                    Some(&axis.path),
                    "a packing axis sets one option; `also` is for scenario fields",
                ));
            }
            if axis.path.is_empty() && (axis.name.is_none() || axis.with.is_empty() || !axis.also.is_empty()) {
                return Err(self.invalid(
                    &format!("axes[{i}]"),
                    axis.name.as_deref(),
                    "an axis without a path is a labelled axis: it needs a `name`, values that are labels and \
                     `with` fields carrying what changes (and no `also`)",
                ));
            }
            for (j, linked) in axis.with.iter().enumerate() {
                let n = axis.values.as_ref().map(Vec::len);
                if n != Some(linked.values.len()) {
                    return Err(self.invalid(
                        &format!("axes[{i}].with[{j}]"),
                        Some(&linked.path),
                        format!(
                            "{:?} lists {} values; expected one per value of axis {:?} ({}, a list, not a range)",
                            linked.path,
                            linked.values.len(),
                            axis.path,
                            n.map_or("a range".to_string(), |n| n.to_string())
                        ),
                    ));
                }
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for (i, axis) in s.axes.iter().enumerate() {
            let name = axis.name.as_deref().unwrap_or(&axis.path);
            if names.contains(&name) || ["point", "stat", "value", "unit"].contains(&name) {
                return Err(self.invalid(
                    &format!("axes[{i}].name"),
                    Some(name),
                    format!("axis name {name:?} is used twice or is reserved (point, stat, value, unit)"),
                ));
            }
            names.push(name);
        }
        for (i, plot) in s.plots.iter().enumerate() {
            for (what, axis) in [("x", Some(&plot.x)), ("series", plot.series.as_ref())] {
                if let Some(axis) = axis.filter(|a| !names.contains(&a.as_str())) {
                    return Err(self.invalid(
                        &format!("plots[{i}].{what}"),
                        Some(axis),
                        format!("{axis:?} is not an axis; the axes are {}", names.join(", ")),
                    ));
                }
            }
            if plot.y.is_empty() {
                return Err(self.invalid(&format!("plots[{i}].y"), None, "lists no stats; expected 1 or more"));
            }
        }
        if let Some(pack) = &s.pack {
            let n = pack.inputs.len();
            if n == 0 || n > 64 || (pack.set && n % 3 != 0) {
                return Err(self.invalid(
                    "pack.inputs",
                    None,
                    format!("{n} inputs; expected 1..=64 (a multiple of 3 with set: true: diffuse, normal, specular)"),
                ));
            }
        }
        Ok(())
    }

    /// The axis columns' names, in axis order.
    pub fn axis_names(&self) -> Vec<String> {
        self.spec.axes.iter().map(|a| a.name.clone().unwrap_or_else(|| a.path.clone())).collect()
    }
}

/// 1-based (line, column) of the first occurrence of `needle` outside `//` comments.
fn locate_text(text: &str, needle: &str) -> Option<(usize, usize)> {
    text.split('\n').enumerate().find_map(|(n, line)| {
        let code = line.split("//").next().unwrap_or("");
        code.find(needle).map(|col| (n + 1, line[..col].chars().count() + 1))
    })
}
