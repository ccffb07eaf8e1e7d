//! A baseline file (`reports/baselines/<name>.json`): what to run, the config it ran, and
//! every stat it measured, with the tolerances to judge a new run by.

use super::compare::Tolerance;
use crate::content::pack::fnv1a64;
use crate::run::{run, RunOptions};
use crate::scenario::{Override, Scenario};
use crate::sweep::{self, Plan, Settings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Baseline files above this size are refused.
pub const MAX_BASELINE_BYTES: u64 = 16 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// A scenario file to run, relative to the baseline file (or `sweep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<PathBuf>,
    /// A sweep file to run, relative to the baseline file; its stats are `<point>:<stat>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<PathBuf>,
    /// Overrides that are part of the baseline's config (`"duration=2s"`), scenarios only.
    #[serde(default)]
    pub set: Vec<String>,
    /// Per-stat tolerances by name, or by prefix ending in `*`; unlisted stats are exact.
    #[serde(default)]
    pub tolerances: BTreeMap<String, Tolerance>,
    /// A host-speed check: wall time against a reference run in the same invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<HostCheck>,
    /// Written by `--update`: the sfsim version that recorded it.
    #[serde(default)]
    pub sfsim: String,
    /// Written by `--update`: FNV-1a 64 of the resolved config (hex).
    #[serde(default)]
    pub config_hash: String,
    /// Written by `--update`: every simulated stat (host-speed stats excluded).
    #[serde(default)]
    pub stats: BTreeMap<String, Option<f64>>,
}

/// The run's wall time ÷ a reference scenario's wall time, both measured in the same
/// `regress` invocation (machines differ; their ratio is what a code change moves).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostCheck {
    /// The reference scenario, relative to the baseline file.
    pub reference: PathBuf,
    /// The ratio may grow by this fraction before it regresses (e.g. 0.5 = 50 % slower).
    pub max_slowdown: f64,
    /// Written by `--update`.
    #[serde(default)]
    pub ratio: Option<f64>,
}

/// A baseline file could not be used; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error("{}: cannot read: {source}", file.display())]
    Read { file: PathBuf, source: std::io::Error },
    #[error("{}: {message}", file.display())]
    Invalid { file: PathBuf, message: String },
}

impl Baseline {
    pub fn load(file: &Path) -> Result<Baseline, BaselineError> {
        let read = |source| BaselineError::Read { file: file.to_path_buf(), source };
        let invalid = |message: String| BaselineError::Invalid { file: file.to_path_buf(), message };
        let size = std::fs::metadata(file).map_err(read)?.len();
        if size > MAX_BASELINE_BYTES {
            return Err(invalid(format!("{size} bytes; baselines over {MAX_BASELINE_BYTES} bytes are refused")));
        }
        let text = crate::limits::read_to_string(file, crate::limits::InputKind::Stats).map_err(read)?;
        let b: Baseline = serde_json::from_str(&text)
            .map_err(|e| invalid(format!("line {} column {}: {e}", e.line(), e.column())))?;
        match (&b.scenario, &b.sweep) {
            (Some(_), None) | (None, Some(_)) => {}
            _ => return Err(invalid("give exactly one of \"scenario\" or \"sweep\"".into())),
        }
        if b.sweep.is_some() && !b.set.is_empty() {
            return Err(invalid("\"set\" applies to a scenario; a sweep file carries its own `set`".into()));
        }
        for (stat, t) in &b.tolerances {
            t.validate().map_err(|e| invalid(format!("tolerances.{stat}: {e}")))?;
        }
        if let Some(h) = &b.host {
            if !(h.max_slowdown.is_finite() && h.max_slowdown > 0.0) {
                return Err(invalid(format!("host.max_slowdown {} is out of range; expected > 0", h.max_slowdown)));
            }
        }
        Ok(b)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a baseline serializes") + "\n"
    }
}

/// What a baseline's target measured now.
pub struct Measured {
    pub config_hash: String,
    pub stats: BTreeMap<String, Option<f64>>,
    /// Wall seconds of the run (for the host check).
    pub wall: f64,
}

/// Parses `stats.json` text into name → value (values as rounded there).
pub(super) fn stats_of_json(text: &str) -> BTreeMap<String, Option<f64>> {
    let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    value
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !k.starts_with("host."))
                .map(|(k, v)| (k.clone(), v.get("value").and_then(serde_json::Value::as_f64)))
                .collect()
        })
        .unwrap_or_default()
}

fn hash_hex(text: &str) -> String {
    format!("{:016x}", fnv1a64(text.as_bytes()))
}

/// The config a scenario baseline runs (`extra`: what-if overrides from the command line,
/// applied after the baseline's own) and its hash (without `extra`).
pub fn scenario_config(file: &Path, b: &Baseline, extra: &[Override]) -> anyhow::Result<(Scenario, String)> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let path = dir.join(b.scenario.as_ref().expect("a scenario baseline"));
    let sets: Vec<Override> = b
        .set
        .iter()
        .map(|s| s.parse().map_err(|e: String| anyhow::anyhow!("{}: set: {e}", file.display())))
        .collect::<anyhow::Result<_>>()?;
    let written = Scenario::load(&path, &sets)?;
    let hash = hash_hex(&written.to_resolved_ron(dir));
    let mut all = sets;
    all.extend(extra.iter().cloned());
    Ok((Scenario::load(&path, &all)?, hash))
}

/// Runs a baseline's target and collects its stats.
pub fn measure(file: &Path, b: &Baseline, extra: &[Override], out: &Path) -> anyhow::Result<Measured> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let started = std::time::Instant::now();
    if b.scenario.is_some() {
        let (scenario, config_hash) = scenario_config(file, b, extra)?;
        let result = run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {})?;
        std::fs::create_dir_all(out)?;
        let json = result.stats.to_json();
        std::fs::write(out.join("stats.json"), &json)?;
        return Ok(Measured { config_hash, stats: stats_of_json(&json), wall: started.elapsed().as_secs_f64() });
    }
    if !extra.is_empty() {
        anyhow::bail!("{}: --set applies to scenario baselines; this one runs a sweep", file.display());
    }
    let plan = Plan::load(&dir.join(b.sweep.as_ref().expect("a sweep baseline")))?;
    let mut config = serde_json::to_string(&plan.manifest())?;
    for p in &plan.points {
        config.push_str(&p.scenario.to_resolved_ron(dir));
        for job in &p.pack_jobs {
            config.push_str(&job.key);
        }
    }
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    sweep::execute(&plan, &Settings { out: out.to_path_buf(), jobs, shard: None }, &|_, _, _| {})?;
    let mut stats = BTreeMap::new();
    for p in &plan.points {
        let dir = out.join(sweep::output::POINTS).join(p.point.dir_name());
        let text = crate::limits::read_to_string(&dir.join("stats.json"), crate::limits::InputKind::Stats)?;
        for (name, value) in stats_of_json(&text) {
            stats.insert(format!("{}:{name}", p.point.dir_name()), value);
        }
    }
    Ok(Measured { config_hash: hash_hex(&config), stats, wall: started.elapsed().as_secs_f64() })
}
