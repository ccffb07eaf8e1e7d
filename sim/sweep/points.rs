//! Axes to points: list and range values, cartesian or zipped, and the stable assignment
//! of points to shards.

use super::pack::{check_option, PackPoint};
use super::spec::{Combine, RangeSpec, Scale, SpecError, SweepFile};
use sfsim_models::units::{Bytes, Rate, Time};

/// Sweeps above this many points are refused.
pub const MAX_POINTS: usize = 10_000;

/// What an axis changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A scenario field, applied like `--set path=value`.
    Scenario(String),
    /// A packing option (`pack.<name>`).
    Pack(String),
    /// Only a label: its `with` fields change.
    Label,
}

/// An axis with its values expanded.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The results.csv column.
    pub name: String,
    pub target: Target,
    pub values: Vec<String>,
}

/// One point: its number (in expansion order) and one value per axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    pub id: usize,
    pub values: Vec<String>,
    /// Which of each axis's values (for its `with` fields).
    pub indices: Vec<usize>,
}

impl Point {
    /// The point's folder under `points/`: its number, zero-padded so folders sort in order.
    pub fn dir_name(&self) -> String {
        format!("{:04}", self.id)
    }
}

/// The sweep's axes, values expanded; a bad path or range is an error at the axis.
pub fn axes(sweep: &SweepFile) -> Result<Vec<Axis>, SpecError> {
    let names = sweep.axis_names();
    sweep
        .spec
        .axes
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (spec, name))| {
            for (j, linked) in spec.with.iter().enumerate() {
                if let Some(option) = linked.path.strip_prefix("pack.") {
                    check_option(option)
                        .map_err(|e| sweep.invalid(&format!("axes[{i}].with[{j}]"), Some(&linked.path), e))?;
                }
            }
            let packs = spec.path.starts_with("pack.") || spec.with.iter().any(|w| w.path.starts_with("pack."));
            if packs && sweep.spec.pack.is_none() {
                return Err(sweep.invalid(
                    &format!("axes[{i}].path"),
                    Some(&spec.path),
                    format!("axis {name:?} sets a packing option, but the sweep has no `pack` section to pack"),
                ));
            }
            let target = match spec.path.strip_prefix("pack.") {
                _ if spec.path.is_empty() => Target::Label,
                Some(option) => {
                    check_option(option).map_err(|e| sweep.invalid(&format!("axes[{i}].path"), Some(&spec.path), e))?;
                    Target::Pack(option.to_string())
                }
                None => Target::Scenario(spec.path.clone()),
            };
            let values = match (&spec.values, &spec.range) {
                (Some(list), _) => list.iter().map(|v| v.0.clone()).collect(),
                (None, Some(range)) => range_values(range).map_err(|e| {
                    sweep.invalid(&format!("axes[{i}].range"), Some(&spec.path), format!("axis {:?}: {e}", spec.path))
                })?,
                (None, None) => unreachable!("SweepFile::validate requires values or a range"),
            };
            Ok(Axis { name, target, values })
        })
        .collect()
}

/// Every point, in order: cartesian (the last axis fastest) or zipped.
pub fn expand(sweep: &SweepFile, axes: &[Axis]) -> Result<Vec<Point>, SpecError> {
    let count = match sweep.spec.combine {
        Combine::Zip => {
            let n = axes[0].values.len();
            if let Some(axis) = axes.iter().find(|a| a.values.len() != n) {
                return Err(sweep.invalid(
                    "combine",
                    None,
                    format!(
                        "Zip needs axes of one length; {:?} has {} values, {:?} has {n}",
                        axis.name,
                        axis.values.len(),
                        axes[0].name
                    ),
                ));
            }
            n
        }
        Combine::Cartesian => axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.values.len()).filter(|&n| n <= MAX_POINTS))
            .unwrap_or(usize::MAX),
    };
    if count > MAX_POINTS {
        return Err(sweep.invalid(
            "axes",
            None,
            format!("the axes make more than {MAX_POINTS} points; expected at most {MAX_POINTS}"),
        ));
    }
    Ok((0..count)
        .map(|id| {
            let indices: Vec<usize> = match sweep.spec.combine {
                Combine::Zip => vec![id; axes.len()],
                Combine::Cartesian => {
                    let mut rest = id;
                    let mut indices = vec![0; axes.len()];
                    for (k, axis) in axes.iter().enumerate().rev() {
                        indices[k] = rest % axis.values.len();
                        rest /= axis.values.len();
                    }
                    indices
                }
            };
            let values = axes.iter().zip(&indices).map(|(a, &i)| a.values[i].clone()).collect();
            Point { id, values, indices }
        })
        .collect())
}

/// The packing point of `point`: the `pack.options` defaults, then the pack axes.
pub fn pack_point(sweep: &SweepFile, axes: &[Axis], point: &Point) -> PackPoint {
    let mut options = PackPoint::default();
    if let Some(pack) = &sweep.spec.pack {
        for (name, value) in &pack.options {
            options.0.insert(name.clone(), value.0.clone());
        }
    }
    for ((axis, spec), (value, &index)) in
        axes.iter().zip(&sweep.spec.axes).zip(point.values.iter().zip(&point.indices))
    {
        if let Target::Pack(option) = &axis.target {
            options.0.insert(option.clone(), value.clone());
        }
        for linked in &spec.with {
            if let Some(option) = linked.path.strip_prefix("pack.") {
                options.0.insert(option.to_string(), linked.values[index].0.clone());
            }
        }
    }
    options
}

/// Whether point `id` is shard `k`'s (1-based) of `n`: points are dealt round-robin, so the
/// assignment depends only on the point's number and every shard gets its share of each
/// axis's slow and fast values.
pub fn in_shard(id: usize, shard: (usize, usize)) -> bool {
    id % shard.1 == shard.0 - 1
}

/// A range's values, in the unit its ends are written in.
fn range_values(r: &RangeSpec) -> Result<Vec<String>, String> {
    let (from, to) = (r.from.0.as_str(), r.to.0.as_str());
    type Format = fn(f64) -> String;
    let (a, b, format): (f64, f64, Format) = if let (Ok(a), Ok(b)) = (Bytes::parse(from), Bytes::parse(to)) {
        (a.0 as f64, b.0 as f64, |v| Bytes(v.round() as u64).to_string())
    } else if let (Ok(a), Ok(b)) = (Time::parse(from), Time::parse(to)) {
        (a.0 as f64, b.0 as f64, |v| Time(v.round() as u64).to_string())
    } else if let (Ok(a), Ok(b)) = (Rate::parse(from), Rate::parse(to)) {
        (a.get() as f64, b.get() as f64, |v| {
            Rate::parse(&format!("{}B/s", v.round() as u64)).map(|r| r.to_string()).unwrap_or_default()
        })
    } else if let (Ok(a), Ok(b)) = (from.parse::<f64>(), to.parse::<f64>()) {
        (a, b, |v| {
            let rounded = (v * 1e6).round() / 1e6;
            if rounded == rounded.trunc() && rounded.abs() < 1e15 {
                format!("{}", rounded as i64)
            } else {
                format!("{rounded}")
            }
        })
    } else {
        return Err(format!(
            "from {from:?} and to {to:?} must be two numbers or two quantities of one kind (sizes, durations or rates)"
        ));
    };
    if !(a.is_finite() && b.is_finite()) {
        return Err("the ends must be finite".into());
    }
    if r.scale == Scale::Log && !(a > 0.0 && b > 0.0) {
        return Err(format!("a Log range needs both ends > 0; from is {from}, to is {to}"));
    }
    let n = r.steps as usize;
    let mut values: Vec<String> = (0..n)
        .map(|i| {
            let t = i as f64 / (n - 1) as f64;
            format(match r.scale {
                Scale::Linear => a + (b - a) * t,
                Scale::Log => a * (b / a).powf(t),
            })
        })
        .collect();
    values.dedup();
    if values.len() < n {
        return Err(format!("{n} steps from {from} to {to} repeat values once rounded; use fewer steps"));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::spec::AxisValue;

    fn range(from: &str, to: &str, steps: u32, scale: Scale) -> Result<Vec<String>, String> {
        range_values(&RangeSpec { from: AxisValue(from.into()), to: AxisValue(to.into()), steps, scale })
    }

    #[test]
    fn ranges_keep_the_unit_of_their_ends() {
        assert_eq!(range("4MiB", "64MiB", 5, Scale::Log).unwrap(), ["4MiB", "8MiB", "16MiB", "32MiB", "64MiB"]);
        assert_eq!(range("0", "40", 5, Scale::Linear).unwrap(), ["0", "10", "20", "30", "40"]);
        assert_eq!(range("1ms", "3ms", 3, Scale::Linear).unwrap(), ["1ms", "2ms", "3ms"]);
        assert_eq!(range("0.5", "1", 3, Scale::Linear).unwrap(), ["0.5", "0.75", "1"]);
        assert!(range("0", "8", 3, Scale::Log).unwrap_err().contains("both ends > 0"));
        assert!(range("4MiB", "3ms", 3, Scale::Linear).unwrap_err().contains("one kind"));
        assert!(range("1", "2", 1000, Scale::Linear).is_ok());
        assert!(range("1B", "2B", 5, Scale::Linear).unwrap_err().contains("repeat"));
    }

    #[test]
    fn shards_deal_every_point_exactly_once() {
        for n in 1..6 {
            for id in 0..23 {
                assert_eq!((1..=n).filter(|&k| in_shard(id, (k, n))).count(), 1);
            }
        }
    }
}
