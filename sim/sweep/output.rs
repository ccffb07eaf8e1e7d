//! A sweep's output folder: `points/<id>/stats.json` per point, then, from those files
//! alone, `results.csv` (tidy), `sweep.csv` (wide, the metrics), `sweep.json` (the
//! manifest) and `index.html` with its plots. A shard writes its points and `shard.json`;
//! [`merge`] copies shards' points into one folder and finalizes it, so sharded + merged
//! is byte for byte what one unsharded run writes.

use crate::report::table::{parse_csv, Selection};
use crate::report::{sanitize_stem, write_report, DataTable, Plot, Report};
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sfsim_models::units::Bytes;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Subfolder of the point folders.
pub const POINTS: &str = "points";
/// Subfolder of the packed-content cache.
pub const PACK_CACHE: &str = "pack-cache";

/// Everything the tables and the report need, independent of which shard ran what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub sfsim: String,
    pub name: String,
    pub description: String,
    pub axes: Vec<ManifestAxis>,
    /// Each point's values, in axis order; the index is the point's id.
    pub points: Vec<Vec<String>>,
    /// The sweep file's metrics (empty: the defaults present in the runs).
    pub metrics: Vec<String>,
    pub plots: Vec<ManifestPlot>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestAxis {
    pub name: String,
    pub path: String,
    pub values: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestPlot {
    pub x: String,
    pub y: Vec<String>,
    pub series: Option<String>,
    pub log_x: bool,
    pub title: Option<String>,
}

impl Manifest {
    pub(super) fn of(plan: &super::Plan) -> Manifest {
        let spec = &plan.sweep.spec;
        Manifest {
            sfsim: env!("CARGO_PKG_VERSION").into(),
            name: spec.name.clone(),
            description: spec.description.clone(),
            axes: plan
                .axes
                .iter()
                .zip(&spec.axes)
                .map(|(a, s)| ManifestAxis { name: a.name.clone(), path: s.path.clone(), values: a.values.clone() })
                .collect(),
            points: plan.points.iter().map(|p| p.point.values.clone()).collect(),
            metrics: spec.metrics.clone(),
            plots: spec
                .plots
                .iter()
                .map(|p| ManifestPlot {
                    x: p.x.clone(),
                    y: p.y.clone(),
                    series: p.series.clone(),
                    log_x: p.log_x,
                    title: p.title.clone(),
                })
                .collect(),
        }
    }

    fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a manifest serializes") + "\n"
    }
}

/// Stats looked at when a sweep names no metrics, in this order; those present are used.
const DEFAULT_METRICS: &[&str] = &[
    "pack.size_percent",
    "pool.read_throughput",
    "pool.to_memory_throughput",
    "nvme.throughput",
    "nvme.window_min",
    "mdu.output_throughput",
    "request.throughput",
    "request.latency.p50",
    "request.latency.p99",
    "tile.latency.p50",
    "tile.latency.p95",
    "quality.lod_deficit.mean",
];

/// One point's stats as `stats.json` holds them: (name, value text, unit).
type PointStats = Vec<(String, String, String)>;

fn read_point(out: &Path, id: usize) -> anyhow::Result<PointStats> {
    let path = out.join(POINTS).join(format!("{id:04}")).join("stats.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let Value::Object(map) = serde_json::from_str(&text).with_context(|| path.display().to_string())? else {
        bail!("{}: expected an object of stats", path.display());
    };
    Ok(map
        .into_iter()
        .map(|(name, entry)| {
            let value = match entry.get("value") {
                Some(Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            let unit = entry.get("unit").and_then(Value::as_str).unwrap_or_default().to_string();
            (name, value, unit)
        })
        .collect())
}

fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes the tables, the manifest and the report from the point folders under `out`.
pub fn finalize(manifest: &Manifest, out: &Path) -> anyhow::Result<()> {
    let stats: Vec<PointStats> =
        (0..manifest.points.len()).map(|id| read_point(out, id)).collect::<anyhow::Result<_>>()?;
    let axis_names: Vec<&str> = manifest.axes.iter().map(|a| a.name.as_str()).collect();
    let has = |m: &str| stats.iter().any(|p| p.iter().any(|(n, _, _)| n == m));
    let metrics: Vec<String> = if manifest.metrics.is_empty() {
        DEFAULT_METRICS.iter().filter(|m| has(m)).map(|m| m.to_string()).collect()
    } else {
        for (i, m) in manifest.metrics.iter().enumerate() {
            if !has(m) {
                bail!("metrics[{i}]: {m:?} is not a stat of these runs; see a point's stats.json for the names");
            }
        }
        manifest.metrics.clone()
    };

    let mut tidy = String::from("point,");
    for name in &axis_names {
        let _ = write!(tidy, "{},", csv_cell(name));
    }
    tidy.push_str("stat,value,unit\n");
    let mut wide =
        axis_names.iter().map(|n| csv_cell(n)).chain(metrics.iter().map(|m| csv_cell(m))).collect::<Vec<_>>();
    let mut wide_text = wide.join(",") + "\n";
    let mut rows = Vec::new();
    for (id, (values, point)) in manifest.points.iter().zip(&stats).enumerate() {
        let axis_cells: String = values.iter().map(|v| csv_cell(v) + ",").collect();
        for (name, value, unit) in point {
            let _ = writeln!(tidy, "{id},{axis_cells}{},{value},{}", csv_cell(name), csv_cell(unit));
        }
        let cells: Vec<String> = metrics
            .iter()
            .map(|m| point.iter().find(|(n, _, _)| n == m).map(|(_, v, _)| v.clone()).unwrap_or_default())
            .collect();
        wide = values.iter().map(|v| csv_cell(v)).chain(cells.iter().cloned()).collect();
        wide_text.push_str(&(wide.join(",") + "\n"));
        rows.push(std::iter::once(id.to_string()).chain(values.iter().cloned()).chain(cells).collect());
    }
    std::fs::write(out.join("results.csv"), &tidy).context("cannot write results.csv")?;
    std::fs::write(out.join("sweep.csv"), &wide_text).context("cannot write sweep.csv")?;
    std::fs::write(out.join("sweep.json"), manifest.to_json()).context("cannot write sweep.json")?;

    let table = parse_csv(&tidy)?;
    let plots = plots(manifest, &metrics)
        .into_iter()
        .map(|p| {
            let selection = Selection { x: p.x.clone(), ys: p.y.clone(), series: p.series.clone() };
            let title = p.title.clone().unwrap_or_else(|| format!("{} vs {}", p.y.join(", "), p.x));
            let stem = sanitize_stem(&format!("{}_vs_{}", p.y.join("_"), p.x).replace('.', "_"));
            crate::report::table::curves(&table, &selection)
                .and_then(|c| c.into_plot(stem, title, p.log_x))
                .with_context(|| format!("plot of {} vs {}", p.y.join(", "), p.x))
        })
        .collect::<anyhow::Result<Vec<Plot>>>()?;
    let header = std::iter::once("point".to_string())
        .chain(axis_names.iter().map(|s| s.to_string()))
        .chain(metrics.iter().cloned())
        .collect();
    let axes_text: Vec<String> =
        manifest.axes.iter().map(|a| format!("{} ({} values)", a.name, a.values.len())).collect();
    let report = Report {
        title: format!("sweep {}", manifest.name),
        subtitle: format!("{} — {} points over {}", manifest.description, manifest.points.len(), axes_text.join(" × ")),
        plots,
        tables: vec![DataTable { title: "Points".into(), header, rows }],
        files: vec![
            ("results.csv".into(), "every stat of every point (tidy: point, axes, stat, value, unit)".into()),
            ("sweep.csv".into(), "the metrics, one row per point".into()),
            ("sweep.json".into(), "the sweep's axes and points".into()),
            (format!("{POINTS}/"), "each point's stats.json and resolved scenario".into()),
        ],
        ..Default::default()
    };
    write_report(&report, out)?;
    Ok(())
}

/// The sweep's plots, or by default each metric against the first axis (log x over sizes
/// spanning 8× or more), one series per value of the second axis.
fn plots(manifest: &Manifest, metrics: &[String]) -> Vec<ManifestPlot> {
    if !manifest.plots.is_empty() {
        return manifest.plots.clone();
    }
    let x = &manifest.axes[0];
    let sizes: Vec<u64> = x.values.iter().filter_map(|v| Bytes::parse(v).ok()).map(|b| b.0).collect();
    let log_x = sizes.len() == x.values.len()
        && sizes.iter().min().is_some_and(|&lo| lo > 0 && sizes.iter().max().is_some_and(|&hi| hi >= 8 * lo));
    metrics
        .iter()
        .map(|m| ManifestPlot {
            x: x.name.clone(),
            y: vec![m.clone()],
            series: manifest.axes.get(1).map(|a| a.name.clone()),
            log_x,
            title: None,
        })
        .collect()
}

/// What a shard ran, beside its points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ShardRecord {
    shard: usize,
    of: usize,
    points: Vec<usize>,
    manifest: Manifest,
}

pub(super) fn write_shard(
    out: &Path,
    manifest: &Manifest,
    (shard, of): (usize, usize),
    points: impl Iterator<Item = usize>,
) -> anyhow::Result<()> {
    let record = ShardRecord { shard, of, points: points.collect(), manifest: manifest.clone() };
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("shard.json"), serde_json::to_string_pretty(&record)? + "\n")
        .with_context(|| format!("cannot write {}", out.join("shard.json").display()))
}

/// Merges shard folders (each with `shard.json`) into `out`: every point exactly once,
/// every shard of the same sweep; then finalizes `out`.
pub fn merge(shards: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    if shards.is_empty() {
        bail!("no shard folders given");
    }
    let mut records = Vec::new();
    for dir in shards {
        let path = dir.join("shard.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {} (is {} a shard's --out?)", path.display(), dir.display()))?;
        let record: ShardRecord = serde_json::from_str(&text).with_context(|| path.display().to_string())?;
        records.push((dir, record));
    }
    let (first_dir, first) = &records[0];
    let mut owner: Vec<Option<&Path>> = vec![None; first.manifest.points.len()];
    for (dir, r) in &records {
        if r.manifest != first.manifest || r.of != first.of {
            bail!("{} and {} are shards of different sweeps (or shard counts)", first_dir.display(), dir.display());
        }
        for &id in &r.points {
            match owner.get_mut(id) {
                Some(Some(other)) => bail!("point {id} is in both {} and {}", other.display(), dir.display()),
                Some(slot) => *slot = Some(dir.as_path()),
                None => bail!("{}: point {id} is not in the sweep", dir.display()),
            }
        }
    }
    let missing: Vec<usize> = (0..owner.len()).filter(|&i| owner[i].is_none()).collect();
    if !missing.is_empty() {
        let have: Vec<String> = records.iter().map(|(_, r)| format!("{}/{}", r.shard, r.of)).collect();
        bail!(
            "points {missing:?} are in no shard given (have shards {}); merge needs all {}",
            have.join(", "),
            first.of
        );
    }
    for (id, dir) in owner.iter().enumerate() {
        let dir = dir.expect("every point has a shard");
        let (from, to) = (dir.join(POINTS).join(format!("{id:04}")), out.join(POINTS).join(format!("{id:04}")));
        copy_dir(&from, &to)?;
        // The resolved scenario names its files relative to its own folder: rebase them to
        // the merged folder, wherever the shard ran.
        let scenario = crate::scenario::Scenario::load(&from.join("scenario.ron"), &[])?;
        std::fs::write(to.join("scenario.ron"), scenario.to_resolved_ron(&to))?;
    }
    for (dir, _) in &records {
        let cache = dir.join(PACK_CACHE);
        if cache.is_dir() {
            copy_dir(&cache, &out.join(PACK_CACHE))?;
        }
    }
    finalize(&first.manifest, out)
}

fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("cannot copy {} to {}", entry.path().display(), target.display()))?;
        }
    }
    Ok(())
}
