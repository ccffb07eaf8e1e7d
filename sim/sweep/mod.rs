//! Sweeps: many runs of one base scenario over axes of scenario fields and packing options,
//! on every core, with content packed once per packing point and cached.
//!
//! A sweep file (RON, `scenarios/sweeps/*.ron`, schema [`spec::SweepSpec`]):
//! ```text
//! Sweep(
//!     name: "rdo-throughput",
//!     base: "../io/content-pool.ron",
//!     set: ["duration=4s"],
//!     pack: Some((inputs: [(path: "../content/textures/ldr-rgba-diffuse.png", format: Some("bc1"))])),
//!     axes: [
//!         (path: "pack.rdo_lambda", values: ["None", 20, 40]),
//!         (path: "workload.in_flight", range: (from: "4MiB", to: "64MiB", steps: 3, scale: Log)),
//!     ],
//!     metrics: ["pack.size_percent", "pool.to_memory_throughput"],
//! )
//! ```
//! [`Plan::load`] reads it, expands the axes into points ([`points`]) and loads every
//! point's scenario, so a bad path or value fails before anything runs. [`execute`] packs
//! what the points need ([`pack`]; cached under `<out>/pack-cache`), runs the points —
//! or a shard's share of them — in parallel and writes each point's `stats.json`;
//! [`output::finalize`] then writes `results.csv` (tidy: one row per point and stat),
//! `sweep.csv` (one row per point, the metrics), `sweep.json` and `index.html` with the
//! plots. [`output::merge`] turns shard folders into exactly what an unsharded run writes.

pub mod output;
pub mod pack;
mod pack_cache;
mod pack_figures;
pub mod points;
pub mod spec;

use crate::run::{run_in, RunOptions};
use crate::scenario::{Override, Scenario, ScenarioError, Workload};
use crate::stats::StatSet;
use pack::{Inputs, PackFigures, PackJob};
use points::{Axis, Point, Target};
use rayon::prelude::*;
use spec::{SpecError, SweepFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A sweep ready to run: its points, each with a validated scenario and the containers it
/// needs.
pub struct Plan {
    pub sweep: SweepFile,
    pub axes: Vec<Axis>,
    pub points: Vec<PlannedPoint>,
    inputs: Option<Inputs>,
}

pub struct PlannedPoint {
    pub point: Point,
    pub scenario: Scenario,
    /// The containers to give the scenario, in order (none without a `pack` section).
    pub pack_jobs: Vec<PackJob>,
}

impl Plan {
    /// Reads a sweep file and checks every point.
    pub fn load(file: &Path) -> Result<Plan, SpecError> {
        Self::new(SweepFile::load(file)?)
    }

    pub fn new(sweep: SweepFile) -> Result<Plan, SpecError> {
        let axes = points::axes(&sweep)?;
        let expanded = points::expand(&sweep, &axes)?;
        let base_file = sweep.dir().join(&sweep.spec.base);
        let base_text = crate::limits::read_to_string(&base_file, crate::limits::InputKind::Scenario).map_err(|e| {
            sweep.invalid(
                "base",
                Some(&sweep.spec.base.display().to_string()),
                format!("cannot read {}: {e}", base_file.display()),
            )
        })?;
        let fixed: Vec<Override> = sweep
            .spec
            .set
            .iter()
            .enumerate()
            .map(|(i, s)| s.parse().map_err(|e: String| sweep.invalid(&format!("set[{i}]"), Some(s), e)))
            .collect::<Result<_, _>>()?;
        let inputs = sweep.spec.pack.as_ref().map(|p| Inputs::read(&sweep, p)).transpose()?;
        let mut planned = Vec::with_capacity(expanded.len());
        for point in expanded {
            let mut sets = fixed.clone();
            for ((axis, spec), (value, &index)) in
                axes.iter().zip(&sweep.spec.axes).zip(point.values.iter().zip(&point.indices))
            {
                if let Target::Scenario(path) = &axis.target {
                    for path in std::iter::once(path).chain(&spec.also) {
                        sets.push(Override { path: path.clone(), value: value.clone() });
                    }
                }
                for linked in spec.with.iter().filter(|w| !w.path.starts_with("pack.")) {
                    sets.push(Override { path: linked.path.clone(), value: linked.values[index].0.clone() });
                }
            }
            let scenario = Scenario::from_text(&base_text, &base_file, &sets)
                .map_err(|e| locate_override(&sweep, &axes, &point, e))?;
            let pack_jobs = match &inputs {
                Some(inputs) => {
                    let pack_point = points::pack_point(&sweep, &axes, &point);
                    let jobs = inputs.jobs(&pack_point).map_err(|e| point_error(&sweep, &axes, &point, e))?;
                    if !takes_containers(&scenario) {
                        return Err(sweep.invalid(
                            "pack",
                            None,
                            format!(
                                "the sweep packs content, but {}'s workload takes no containers; \
                                 expected a Stream or Pool workload",
                                base_file.display()
                            ),
                        ));
                    }
                    jobs
                }
                None => Vec::new(),
            };
            planned.push(PlannedPoint { point, scenario, pack_jobs });
        }
        Ok(Plan { sweep, axes, points: planned, inputs })
    }

    /// The manifest every output folder of this sweep carries.
    pub fn manifest(&self) -> output::Manifest {
        output::Manifest::of(self)
    }
}

/// A scenario error from applying a point's overrides, told at the axis (or `set` entry)
/// that caused it.
fn locate_override(sweep: &SweepFile, axes: &[Axis], point: &Point, e: ScenarioError) -> SpecError {
    let ScenarioError::Override { arg, message } = &e else {
        return SpecError::Invalid {
            file: sweep.file.clone(),
            location: None,
            field: "base".into(),
            message: format!("point {}: {e}", describe(axes, point)),
        };
    };
    let path = arg.split_once('=').map_or(arg.as_str(), |(p, _)| p);
    let moves = |a: &spec::AxisSpec| {
        a.path == path || a.also.iter().any(|p| p == path) || a.with.iter().any(|w| w.path == path)
    };
    match sweep.spec.axes.iter().position(moves) {
        Some(i) => sweep.invalid(&format!("axes[{i}]"), Some(path), format!("{arg}: {message}")),
        None => {
            let i = sweep.spec.set.iter().position(|s| s.starts_with(path)).unwrap_or(0);
            sweep.invalid(&format!("set[{i}]"), Some(path), format!("{arg}: {message}"))
        }
    }
}

fn point_error(sweep: &SweepFile, axes: &[Axis], point: &Point, message: String) -> SpecError {
    let option = message.strip_prefix("pack.").and_then(|m| m.split('=').next()).map(|o| format!("pack.{o}"));
    let at = option
        .as_deref()
        .and_then(|o| sweep.spec.axes.iter().position(|a| a.path == o || a.with.iter().any(|w| w.path == o)));
    let field = at.map_or("pack.options".to_string(), |i| format!("axes[{i}]"));
    sweep.invalid(&field, option.as_deref(), format!("point {}: {message}", describe(axes, point)))
}

/// `a=1, b=x` for error messages.
pub fn describe(axes: &[Axis], point: &Point) -> String {
    axes.iter().zip(&point.values).map(|(a, v)| format!("{}={v}", a.name)).collect::<Vec<_>>().join(", ")
}

/// Whether a workload takes container files.
fn takes_containers(scenario: &Scenario) -> bool {
    matches!(scenario.workload, Workload::Stream(_) | Workload::Pool(_))
}

/// Gives `scenario` the containers (paths relative to the current folder).
fn set_containers(scenario: &mut Scenario, files: Vec<PathBuf>) {
    let relative: Vec<PathBuf> =
        files.iter().map(|f| crate::scenario::rebase(f, Path::new(""), &scenario.base_dir)).collect();
    match &mut scenario.workload {
        Workload::Stream(stream) => {
            use crate::engine::{ContentConfig, PackedConfig};
            match &mut stream.content {
                ContentConfig::Packed(packed) => packed.containers = relative,
                content => {
                    *content = ContentConfig::Packed(PackedConfig { containers: relative, ..Default::default() })
                }
            }
        }
        Workload::Pool(pool) => pool.containers = relative.iter().map(|p| p.display().to_string()).collect(),
        Workload::Io(_) | Workload::Render(_) => {}
    }
}

/// How to run a plan.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The output folder.
    pub out: PathBuf,
    /// Points (and packing jobs) run at once.
    pub jobs: usize,
    /// Run only shard `k` of `n` (1-based).
    pub shard: Option<(usize, usize)>,
}

/// What [`execute`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Done {
    pub points_run: usize,
    pub containers_packed: usize,
    pub containers_reused: usize,
}

/// Progress for a caller's bar: `(phase, done, total)`, phase `"pack"` or `"run"`.
pub type Progress<'a> = &'a (dyn Fn(&str, usize, usize) + Sync);

/// Packs and runs the plan's points (a shard's share with `settings.shard`), writing
/// `points/<id>/stats.json` for each, then the sweep's tables and report — or, for a
/// shard, `shard.json` for [`output::merge`].
pub fn execute(plan: &Plan, settings: &Settings, progress: Progress) -> anyhow::Result<Done> {
    let selected: Vec<&PlannedPoint> =
        plan.points.iter().filter(|p| settings.shard.is_none_or(|s| points::in_shard(p.point.id, s))).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(settings.jobs.max(1)).build()?;
    let cache = settings.out.join(output::PACK_CACHE);

    let mut jobs: BTreeMap<&str, &PackJob> = BTreeMap::new();
    for p in &selected {
        for job in &p.pack_jobs {
            jobs.insert(&job.file_name, job);
        }
    }
    let jobs: Vec<&PackJob> = jobs.into_values().collect();
    let packed_count = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let figures: BTreeMap<String, PackFigures> = match &plan.inputs {
        Some(inputs) => pool.install(|| {
            jobs.par_iter()
                .map(|job| {
                    let (f, packed) = inputs.ensure(job, &cache)?;
                    packed_count.fetch_add(usize::from(packed), Ordering::Relaxed);
                    progress("pack", done.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
                    Ok((job.file_name.clone(), f))
                })
                .collect::<anyhow::Result<_>>()
        })?,
        None => BTreeMap::new(),
    };

    let done = AtomicUsize::new(0);
    let points_dir = settings.out.join(output::POINTS);
    pool.install(|| {
        selected.par_iter().try_for_each(|p| -> anyhow::Result<()> {
            let mut scenario = p.scenario.clone();
            let mut stats = StatSet::default();
            if !p.pack_jobs.is_empty() {
                set_containers(&mut scenario, p.pack_jobs.iter().map(|j| cache.join(&j.file_name)).collect());
                let parts: Vec<PackFigures> = p.pack_jobs.iter().map(|j| figures[&j.file_name].clone()).collect();
                pack::total(&parts).push_stats(&mut stats);
            }
            // A long point's spill files stay inside the sweep's folder.
            let result = run_in(&scenario, RunOptions { host_stats: false }, Some(&settings.out), &mut |_, _| {})
                .map_err(|e| anyhow::anyhow!("point {} ({}): {e}", p.point.id, describe(&plan.axes, &p.point)))?;
            for s in result.stats.iter() {
                stats.push(&s.name, s.value, s.unit, s.description.clone());
            }
            let dir = points_dir.join(p.point.dir_name());
            std::fs::create_dir_all(&dir)?;
            std::fs::write(dir.join("stats.json"), stats.to_json())?;
            std::fs::write(dir.join("scenario.ron"), scenario.to_resolved_ron(&dir))?;
            progress("run", done.fetch_add(1, Ordering::Relaxed) + 1, selected.len());
            Ok(())
        })
    })?;

    let manifest = plan.manifest();
    match settings.shard {
        Some(shard) => output::write_shard(&settings.out, &manifest, shard, selected.iter().map(|p| p.point.id))?,
        None => output::finalize(&manifest, &settings.out)?,
    }
    let packed = packed_count.into_inner();
    Ok(Done { points_run: selected.len(), containers_packed: packed, containers_reused: jobs.len() - packed })
}
