//! Comparing a run's stats with a baseline's: per-stat tolerances with a direction, and a
//! verdict per stat that says what the caller should do.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which way a stat is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    /// Any change beyond the tolerance is a regression (counts, simulated figures).
    #[default]
    Exact,
    /// Lower is better (latencies, bytes): a rise beyond the tolerance regresses.
    Lower,
    /// Higher is better (throughputs): a fall beyond the tolerance regresses.
    Higher,
}

/// How far a stat may move before it regresses: `relative` (a fraction of the baseline,
/// 0.05 = 5 %) plus `absolute` (in the stat's unit).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    #[serde(default)]
    pub better: Better,
    #[serde(default)]
    pub relative: f64,
    #[serde(default)]
    pub absolute: f64,
}

impl Tolerance {
    /// Range check: both non-negative and finite.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in [("relative", self.relative), ("absolute", self.absolute)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{name} {v} is out of range; expected a finite value ≥ 0"));
            }
        }
        Ok(())
    }
}

/// The tolerance of `stat`: an entry of its exact name, else the longest `prefix*` entry
/// that matches, else exact.
pub fn tolerance_of(tolerances: &BTreeMap<String, Tolerance>, stat: &str) -> Tolerance {
    if let Some(t) = tolerances.get(stat) {
        return *t;
    }
    tolerances
        .iter()
        .filter_map(|(k, t)| k.strip_suffix('*').filter(|p| stat.starts_with(p)).map(|p| (p.len(), *t)))
        .max_by_key(|(len, _)| *len)
        .map(|(_, t)| t)
        .unwrap_or_default()
}

/// One stat's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Unchanged.
    Same,
    /// Changed within its tolerance.
    Within,
    /// Changed in its better direction: fine; `--update` records it.
    Improved,
    /// Worse beyond its tolerance (or, for an exact stat, changed): fails the run.
    Regressed,
    /// In the baseline but no longer produced: fails (a renamed or removed stat).
    Missing,
    /// Produced now but not in the baseline: fine; `--update` records it.
    New,
}

impl Verdict {
    /// Whether this verdict fails `regress`.
    pub fn fails(self) -> bool {
        matches!(self, Verdict::Regressed | Verdict::Missing)
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Within => "within tolerance",
            Verdict::Improved => "improved",
            Verdict::Regressed => "REGRESSED",
            Verdict::Missing => "MISSING",
            Verdict::New => "new",
        }
    }
}

/// The verdict on a stat that was `base` and is `now` (`None`: produced without a value).
pub fn judge(base: Option<Option<f64>>, now: Option<Option<f64>>, tol: Tolerance) -> Verdict {
    let (base, now) = match (base, now) {
        (None, None) | (Some(_), None) => return Verdict::Missing,
        (None, Some(_)) => return Verdict::New,
        (Some(b), Some(n)) => (b, n),
    };
    let (b, n) = match (base, now) {
        (None, None) => return Verdict::Same,
        (Some(b), Some(n)) => (b, n),
        // A value that appeared or vanished is a change of kind, whatever the direction.
        _ => return Verdict::Regressed,
    };
    if b == n {
        return Verdict::Same;
    }
    let allowed = tol.relative * b.abs() + tol.absolute;
    let worse = match tol.better {
        Better::Exact => (n - b).abs(),
        Better::Lower => n - b,
        Better::Higher => b - n,
    };
    if worse <= 0.0 {
        Verdict::Improved
    } else if worse <= allowed {
        Verdict::Within
    } else {
        Verdict::Regressed
    }
}

/// `now` against `base` as a signed percentage of `base` (`None` when either is missing
/// or the base is 0).
pub fn change_percent(base: Option<f64>, now: Option<f64>) -> Option<f64> {
    match (base, now) {
        (Some(b), Some(n)) if b != 0.0 => Some(100.0 * (n - b) / b.abs()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_direction_and_tolerance() {
        let exact = Tolerance::default();
        let lower5 = Tolerance { better: Better::Lower, relative: 0.05, absolute: 0.0 };
        let higher = Tolerance { better: Better::Higher, relative: 0.0, absolute: 10.0 };
        let v = |b: f64, n: f64, t| judge(Some(Some(b)), Some(Some(n)), t);
        assert_eq!(v(100.0, 100.0, exact), Verdict::Same);
        assert_eq!(v(100.0, 100.000001, exact), Verdict::Regressed, "exact: any change is reported");
        assert_eq!(v(100.0, 104.0, lower5), Verdict::Within);
        assert_eq!(v(100.0, 106.0, lower5), Verdict::Regressed);
        assert_eq!(v(100.0, 50.0, lower5), Verdict::Improved);
        assert_eq!(v(2000.0, 1991.0, higher), Verdict::Within);
        assert_eq!(v(2000.0, 1989.0, higher), Verdict::Regressed);
        assert_eq!(judge(Some(Some(1.0)), None, exact), Verdict::Missing);
        assert_eq!(judge(None, Some(Some(1.0)), exact), Verdict::New);
        assert_eq!(judge(Some(None), Some(Some(1.0)), lower5), Verdict::Regressed);
        assert_eq!(judge(Some(None), Some(None), exact), Verdict::Same);
        assert!(Verdict::Regressed.fails() && Verdict::Missing.fails() && !Verdict::Improved.fails());
    }

    #[test]
    fn the_longest_prefix_names_a_stats_tolerance() {
        let t = |better| Tolerance { better, relative: 0.1, absolute: 0.0 };
        let map: BTreeMap<String, Tolerance> = [
            ("tile.*".to_string(), t(Better::Lower)),
            ("tile.latency.p95".to_string(), t(Better::Higher)),
            ("tile.latency.*".to_string(), t(Better::Exact)),
        ]
        .into();
        assert_eq!(tolerance_of(&map, "tile.latency.p95").better, Better::Higher);
        assert_eq!(tolerance_of(&map, "tile.latency.p50").better, Better::Exact);
        assert_eq!(tolerance_of(&map, "tile.stage.mdu.mean").better, Better::Lower);
        assert_eq!(tolerance_of(&map, "nvme.throughput"), Tolerance::default());
        assert!(Tolerance { relative: -1.0, ..Tolerance::default() }.validate().is_err());
    }
}
