//! Statistics: named values with units and descriptions (`stats.json`), latency
//! percentiles, and time-binned series (per-window CSV and plots).

mod bins;
mod exact;
mod latency;
mod select;

pub use bins::Bins;
pub use latency::{Latencies, EXACT_SAMPLES};

use serde_json::{Map, Value};
use sfsim_models::units::Time;

/// One entry of `stats.json`. Names are stable API: scripts and baselines read them.
#[derive(Debug, Clone, PartialEq)]
pub struct Stat {
    pub name: String,
    /// `None` when the run gave no value (e.g. no full window); written as JSON `null`.
    pub value: Option<f64>,
    pub unit: &'static str,
    pub description: String,
}

/// An ordered set of stats.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StatSet {
    stats: Vec<Stat>,
}

impl StatSet {
    pub fn push(&mut self, name: &str, value: Option<f64>, unit: &'static str, description: impl Into<String>) {
        let value = value.filter(|v| v.is_finite());
        self.stats.push(Stat { name: name.to_string(), value, unit, description: description.into() });
    }

    /// `prefix.p50` … for each (percentile, suffix), in milliseconds, from sorted samples.
    pub fn push_percentiles_ms(
        &mut self,
        prefix: &str,
        sorted: &[Time],
        points: &[(u32, &str)],
        describe: impl Fn(&str) -> String,
    ) {
        for &(p, suffix) in points {
            self.push(
                &format!("{prefix}.{suffix}"),
                percentile(sorted, p).map(|t| t.as_ms_f64()),
                "ms",
                describe(suffix),
            );
        }
    }

    /// [`Self::push_percentiles_ms`] from [`Latencies`]; past its exact cap the
    /// description says the values are binned (within 0.1 %).
    pub fn push_latency_percentiles_ms(
        &mut self,
        prefix: &str,
        latencies: &mut Latencies,
        points: &[(u32, &str)],
        describe: impl Fn(&str) -> String,
    ) {
        let ps: Vec<u32> = points.iter().map(|&(p, _)| p).collect();
        let values = latencies.percentiles(&ps);
        for (&(_, suffix), value) in points.iter().zip(values) {
            let value = value.map(|t| t.as_ms_f64());
            let mut description = describe(suffix);
            if !latencies.exact() {
                description.push_str(&format!(" (more than {EXACT_SAMPLES} samples: from a histogram, within 0.1 %)"));
            }
            self.push(&format!("{prefix}.{suffix}"), value, "ms", description);
        }
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.stats.iter().find(|s| s.name == name).and_then(|s| s.value)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Stat> {
        self.stats.iter()
    }

    /// Drops every stat whose name starts with `prefix` (e.g. the wall-clock `host.` ones).
    pub fn without_prefix(&self, prefix: &str) -> StatSet {
        StatSet { stats: self.stats.iter().filter(|s| !s.name.starts_with(prefix)).cloned().collect() }
    }

    /// `{"name": {"value": v, "unit": "...", "description": "..."}, ...}` in push order.
    pub fn to_json(&self) -> String {
        let mut map = Map::new();
        for s in &self.stats {
            let mut entry = Map::new();
            entry.insert("value".into(), s.value.map_or(Value::Null, |v| Value::from(round_sig(v))));
            entry.insert("unit".into(), Value::from(s.unit));
            entry.insert("description".into(), Value::from(s.description.clone()));
            map.insert(s.name.clone(), Value::Object(entry));
        }
        let mut text = serde_json::to_string_pretty(&Value::Object(map)).expect("stats serialize");
        text.push('\n');
        text
    }
}

/// Keeps 9 significant digits so that values print compactly (and identically) everywhere.
fn round_sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let text = format!("{v:.8e}");
    text.parse().unwrap_or(v)
}

/// p50, p95, p99 and the maximum.
pub const LATENCY_POINTS: [(u32, &str); 4] = [(50, "p50"), (95, "p95"), (99, "p99"), (100, "max")];

/// Nearest-rank percentile of sorted samples (p in 0..=100).
pub fn percentile(sorted: &[Time], p: u32) -> Option<Time> {
    if sorted.is_empty() {
        return None;
    }
    Some(sorted[percentile_index(sorted.len(), p)])
}

/// Index in `len` (> 0) sorted samples of the nearest-rank percentile `p` (0..=100).
pub(crate) fn percentile_index(len: usize, p: u32) -> usize {
    let rank = (u64::from(p) * len as u64).div_ceil(100).max(1) as usize;
    rank.min(len) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<Time> = (1..=100).map(Time).collect();
        assert_eq!(percentile(&v, 50), Some(Time(50)));
        assert_eq!(percentile(&v, 99), Some(Time(99)));
        assert_eq!(percentile(&v, 100), Some(Time(100)));
        assert_eq!(percentile(&[], 50), None);
    }

    #[test]
    fn json_has_value_unit_description_and_null() {
        let mut s = StatSet::default();
        s.push("a.b", Some(1.5), "MB/s", "x");
        s.push("c", None, "MB", "y");
        let json: Value = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(json["a.b"]["value"], 1.5);
        assert_eq!(json["a.b"]["unit"], "MB/s");
        assert!(json["c"]["value"].is_null());
    }
}
