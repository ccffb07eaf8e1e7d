//! `sfsim regress`: re-run each baseline's scenario or sweep and compare every stat with
//! its tolerance, for a title's CI.
//!
//! A baseline ([`baseline::Baseline`], `reports/baselines/<name>.json`) names a scenario
//! (with overrides) or a sweep, the per-stat tolerances, and — written by `--update` —
//! the sfsim version, a hash of the resolved config and every simulated stat. [`check`]
//! runs each one: a baseline whose config no longer resolves the same is reported as such
//! and not compared; otherwise every stat gets a [`compare::Verdict`]. Runs are
//! deterministic, so the default tolerance is exact. An optional host-speed check compares
//! the run's wall time with a reference scenario's, both timed in the same invocation.
//! [`report`] writes the table, `regress.md` and a JUnit XML file.

pub mod baseline;
pub mod compare;
pub mod report;

use crate::run::{run, RunOptions};
use crate::scenario::{Override, Scenario};
use baseline::{measure, Baseline};
use compare::{judge, tolerance_of, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One stat of one baseline, judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub stat: String,
    pub base: Option<f64>,
    pub now: Option<f64>,
    pub tolerance: compare::Tolerance,
    pub verdict: Verdict,
}

/// What happened to one baseline.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Compared stat by stat.
    Compared(Vec<Row>),
    /// The config resolves differently now: not compared; `--update` re-records it.
    ConfigChanged { recorded: String, now: String },
    /// The file has no stats yet: `--update` records them.
    NotRecorded,
    /// `--update` wrote it; the list says which stats changed (name, old, new).
    Updated(Vec<(String, Option<f64>, Option<f64>)>),
    /// It could not run (the message says why).
    Error(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub name: String,
    pub file: PathBuf,
    pub status: Status,
    /// (baseline ratio, now ratio, max slowdown, passed) of the host check, if any.
    pub host: Option<(Option<f64>, f64, f64, bool)>,
}

impl Outcome {
    /// Whether this baseline fails the run.
    pub fn fails(&self) -> bool {
        let host_fails = self.host.is_some_and(|(_, _, _, ok)| !ok);
        host_fails
            || match &self.status {
                Status::Compared(rows) => rows.iter().any(|r| r.verdict.fails()),
                Status::ConfigChanged { .. } | Status::NotRecorded | Status::Error(_) => true,
                Status::Updated(_) => false,
            }
    }
}

/// How to run `regress`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only baselines with these names (file stems).
    pub only: Vec<String>,
    /// Rewrite the baselines from this run.
    pub update: bool,
    /// What-if overrides applied to every scenario baseline's run (not to its config hash).
    pub set: Vec<Override>,
    /// Where runs write their outputs.
    pub out: PathBuf,
}

/// The baseline files of `dir` (`*.json`), by name.
pub fn baseline_files(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let entries = std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", dir.display()))?;
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| Some((p.file_stem()?.to_string_lossy().into_owned(), p)))
        .collect();
    files.sort();
    Ok(files)
}

/// Runs every selected baseline in `dir`.
pub fn check(dir: &Path, options: &Options, progress: &mut dyn FnMut(&str)) -> anyhow::Result<Vec<Outcome>> {
    let mut files = baseline_files(dir)?;
    for name in &options.only {
        if !files.iter().any(|(n, _)| n == name) {
            let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
            anyhow::bail!(
                "--only {name}: no baseline {name}.json in {}; there are: {}",
                dir.display(),
                names.join(", ")
            );
        }
    }
    if !options.only.is_empty() {
        files.retain(|(n, _)| options.only.contains(n));
    }
    if files.is_empty() {
        anyhow::bail!("{}: no baseline files (*.json)", dir.display());
    }
    let mut references: BTreeMap<PathBuf, f64> = BTreeMap::new();
    let mut outcomes = Vec::new();
    for (name, file) in files {
        progress(&name);
        outcomes.push(one(&name, &file, options, &mut references));
    }
    Ok(outcomes)
}

fn one(name: &str, file: &Path, options: &Options, references: &mut BTreeMap<PathBuf, f64>) -> Outcome {
    let outcome = |status, host| Outcome { name: name.to_string(), file: file.to_path_buf(), status, host };
    let mut b = match Baseline::load(file) {
        Ok(b) => b,
        Err(e) => return outcome(Status::Error(e.to_string()), None),
    };
    let measured = match measure(file, &b, &options.set, &options.out.join(name)) {
        Ok(m) => m,
        Err(e) => return outcome(Status::Error(format!("{}: {e:#}", file.display())), None),
    };
    let host = match &b.host {
        Some(h) => match reference_wall(file, &h.reference, references) {
            Ok(reference) => {
                let ratio = measured.wall / reference.max(1e-9);
                let ok = h.ratio.is_none_or(|r| ratio <= r * (1.0 + h.max_slowdown));
                Some((h.ratio, ratio, h.max_slowdown, ok || options.update))
            }
            Err(e) => return outcome(Status::Error(format!("{}: host.reference: {e:#}", file.display())), None),
        },
        None => None,
    };
    if options.update {
        let changed: Vec<(String, Option<f64>, Option<f64>)> = b
            .stats
            .keys()
            .chain(measured.stats.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .filter_map(|k| {
                let (old, new) = (b.stats.get(k).copied().flatten(), measured.stats.get(k).copied().flatten());
                (b.stats.get(k) != measured.stats.get(k)).then(|| (k.clone(), old, new))
            })
            .collect();
        b.sfsim = env!("CARGO_PKG_VERSION").into();
        b.config_hash = measured.config_hash;
        b.stats = measured.stats;
        if let (Some(h), Some((_, ratio, _, _))) = (&mut b.host, host) {
            h.ratio = Some((ratio * 1e4).round() / 1e4);
        }
        if let Err(e) = std::fs::write(file, b.to_json()) {
            return outcome(Status::Error(format!("{}: cannot write: {e}", file.display())), host);
        }
        return outcome(Status::Updated(changed), host);
    }
    if b.stats.is_empty() {
        return outcome(Status::NotRecorded, host);
    }
    if b.config_hash != measured.config_hash {
        return outcome(Status::ConfigChanged { recorded: b.config_hash, now: measured.config_hash }, host);
    }
    let names: std::collections::BTreeSet<&String> = b.stats.keys().chain(measured.stats.keys()).collect();
    let rows = names
        .into_iter()
        .map(|stat| {
            let tolerance = tolerance_of(&b.tolerances, stat.split_once(':').map_or(stat.as_str(), |(_, s)| s));
            let (base, now) = (b.stats.get(stat).copied(), measured.stats.get(stat).copied());
            Row {
                stat: stat.clone(),
                base: base.flatten(),
                now: now.flatten(),
                tolerance,
                verdict: judge(base, now, tolerance),
            }
        })
        .collect();
    outcome(Status::Compared(rows), host)
}

/// Wall seconds of the reference scenario, run once per invocation.
fn reference_wall(file: &Path, reference: &Path, cache: &mut BTreeMap<PathBuf, f64>) -> anyhow::Result<f64> {
    let path = file.parent().unwrap_or(Path::new("")).join(reference);
    if let Some(&wall) = cache.get(&path) {
        return Ok(wall);
    }
    let scenario = Scenario::load(&path, &[])?;
    let started = std::time::Instant::now();
    run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {})?;
    let wall = started.elapsed().as_secs_f64();
    cache.insert(path, wall);
    Ok(wall)
}
