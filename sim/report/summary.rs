//! The report's ten-second summary, computed from its stat rows alone (looked up by
//! name; a missing or null stat is left out): drive use against the guarantee, latency
//! by stage, the bottleneck, visual quality and anything abnormal. Rendered by
//! `summary_html.rs`; no simulation needed to test it.

use super::{DriveGuarantee, StatRow};

/// Everything the summary block shows; each part is `None`/empty when the run produced
/// none of its stats.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Summary {
    pub drive: Option<DriveUse>,
    pub latency: Option<Latency>,
    pub bottleneck: Option<Bottleneck>,
    /// Visual-quality figures, in display order.
    pub quality: Vec<Figure>,
    /// Fault-injection figures (`hardware.faults`), in display order; empty without faults.
    pub faults: Vec<Figure>,
    /// Abnormal findings; empty means "nothing abnormal".
    pub warnings: Vec<String>,
}

/// One stat shown by name: its row's value and unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

/// How `nvme.window_min` compares with the guaranteed bytes per window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The worst full window delivered at least the guaranteed bytes.
    Met,
    /// The worst full window delivered less than the guaranteed bytes.
    Below,
    /// `nvme.window_min` is null: no full window with IO queued was measured.
    NotExercised,
    /// The report carries no guarantee to compare with.
    NoGuarantee,
}

/// Drive use: mean throughput and the worst window against the guarantee.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct DriveUse {
    /// `nvme.throughput`, MB/s.
    pub throughput: Option<f64>,
    /// `nvme.window_min`, MB.
    pub window_min: Option<f64>,
    pub guarantee: Option<DriveGuarantee>,
    pub verdict: Verdict,
}

/// Latency percentiles and the mean time spent in each stage.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Latency {
    /// `"tile"` (stream workload) or `"request"` (io workload).
    pub kind: &'static str,
    /// `("p50", ms)`, `("p95", ms)`, `("p99", ms)`: those present.
    pub percentiles: Vec<(&'static str, f64)>,
    /// `(stage, mean ms)` from `tile.stage.<stage>.mean`, in stat order.
    pub stages: Vec<(String, f64)>,
}

/// The largest share of frames among `engine.bottleneck.<name>`, and the runner-up.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Bottleneck {
    /// `(name, fraction of frames)`.
    pub top: (String, f64),
    pub runner_up: Option<(String, f64)>,
}

const BOTTLENECK_PREFIX: &str = "engine.bottleneck.";
const STAGE_PREFIX: &str = "tile.stage.";
const STAGE_SUFFIX: &str = ".mean";
/// Quality figures, in display order; those the run produced are shown.
const QUALITY: [&str; 5] = [
    "quality.lod_deficit.mean",
    "quality.blurry_share",
    "quality.nonresident_share",
    "quality.time_to_sharp.mean",
    "quality.cuts_never_sharp",
];

/// The fault stats shown, in display order (present only in runs that inject faults).
const FAULTS: [&str; 14] = [
    "faults.injected.io_error",
    "faults.injected.timeout",
    "faults.injected.latency_spike",
    "faults.injected.corrupt",
    "request.failed.io_error",
    "request.failed.timeout",
    "request.failed.corrupt",
    "engine.load_failures",
    "engine.retries",
    "engine.retry_give_ups",
    "engine.retries_pending",
    "nvme.throttle_time",
    "nvme.min_window_rate",
    "mdu.units_lost",
];

/// A finite value of the stat called `name`, if the run produced one.
fn value(stats: &[StatRow], name: &str) -> Option<f64> {
    stats.iter().find(|s| s.name == name).and_then(|s| s.value).filter(|v| v.is_finite())
}

fn figure(stats: &[StatRow], name: &str) -> Option<Figure> {
    let row = stats.iter().find(|s| s.name == name)?;
    let value = row.value.filter(|v| v.is_finite())?;
    Some(Figure { name: row.name.clone(), value, unit: row.unit.clone() })
}

/// Builds the summary of `stats`; `guarantee` is the drive's, if the report has it.
pub(super) fn summarize(stats: &[StatRow], guarantee: Option<&DriveGuarantee>) -> Summary {
    let drive = drive_use(stats, guarantee);
    let mut summary = Summary {
        latency: latency(stats),
        bottleneck: bottleneck(stats),
        quality: QUALITY.iter().filter_map(|name| figure(stats, name)).collect(),
        faults: FAULTS.iter().filter_map(|name| figure(stats, name)).collect(),
        warnings: Vec::new(),
        drive: None,
    };
    summary.warnings = warnings(stats, drive.as_ref());
    summary.drive = drive;
    summary
}

fn drive_use(stats: &[StatRow], guarantee: Option<&DriveGuarantee>) -> Option<DriveUse> {
    let throughput = value(stats, "nvme.throughput");
    let has_window = stats.iter().any(|s| s.name == "nvme.window_min");
    if throughput.is_none() && !has_window {
        return None;
    }
    let window_min = value(stats, "nvme.window_min");
    let verdict = match (guarantee, window_min) {
        (None, _) => Verdict::NoGuarantee,
        (Some(_), None) => Verdict::NotExercised,
        // A hair of tolerance: both sides went through MB conversions of whole bytes.
        (Some(g), Some(w)) if w >= g.mb_per_window() * (1.0 - 1e-9) => Verdict::Met,
        (Some(_), Some(_)) => Verdict::Below,
    };
    Some(DriveUse { throughput, window_min, guarantee: guarantee.copied(), verdict })
}

fn latency(stats: &[StatRow]) -> Option<Latency> {
    let stages: Vec<(String, f64)> = stats
        .iter()
        .filter_map(|s| {
            let stage = s.name.strip_prefix(STAGE_PREFIX)?.strip_suffix(STAGE_SUFFIX)?;
            let v = s.value.filter(|v| v.is_finite() && *v >= 0.0)?;
            (!stage.is_empty()).then(|| (stage.to_string(), v))
        })
        .collect();
    let percentiles_of = |kind: &str| -> Vec<(&'static str, f64)> {
        ["p50", "p95", "p99"]
            .into_iter()
            .filter_map(|p| value(stats, &format!("{kind}.latency.{p}")).map(|v| (p, v)))
            .collect()
    };
    let tile = percentiles_of("tile");
    let (kind, percentiles) =
        if !tile.is_empty() || !stages.is_empty() { ("tile", tile) } else { ("request", percentiles_of("request")) };
    if percentiles.is_empty() && stages.is_empty() {
        return None;
    }
    Some(Latency { kind, percentiles, stages })
}

fn bottleneck(stats: &[StatRow]) -> Option<Bottleneck> {
    let mut shares: Vec<(String, f64)> = stats
        .iter()
        .filter_map(|s| {
            let name = s.name.strip_prefix(BOTTLENECK_PREFIX)?;
            let v = s.value.filter(|v| v.is_finite())?;
            (!name.is_empty()).then(|| (name.to_string(), v))
        })
        .collect();
    // Stable: of equal shares, the one listed first wins.
    shares.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut it = shares.into_iter();
    let top = it.next()?;
    let runner_up = it.next().filter(|r| r.1 > 0.0);
    Some(Bottleneck { top, runner_up })
}

fn count(v: f64) -> String {
    super::format_value(v)
}

fn warnings(stats: &[StatRow], drive: Option<&DriveUse>) -> Vec<String> {
    let mut w = Vec::new();
    let positive = |name: &str| value(stats, name).filter(|v| *v > 0.0);
    if let Some(n) = positive("cpu.passes_late") {
        w.push(format!("{} frames with CPU passes that ran late (cpu.passes_late)", count(n)));
    }
    if let Some(n) = positive("gpu.renders_late") {
        w.push(format!("{} frames whose GPU render ran late (gpu.renders_late)", count(n)));
    }
    if let Some(DriveUse { verdict: Verdict::Below, window_min: Some(min), guarantee: Some(g), .. }) = drive {
        w.push(format!(
            "the drive delivered {} MB in its worst {} ms window, below the guaranteed {} MB (nvme.window_min)",
            count(*min),
            count(g.window_ms),
            count(g.mb_per_window())
        ));
    }
    if let Some(n) = positive("nvme.guarantee_violations") {
        let least =
            value(stats, "nvme.min_window_rate").map_or(String::new(), |r| format!(", least {} MB/s", count(r)));
        w.push(format!(
            "guarantee violation: the drive fell below its guaranteed rate over a full window {} times{least} \
             (nvme.guarantee_violations, nvme.min_window_rate)",
            count(n)
        ));
    }
    if let Some(n) = positive("engine.retry_give_ups") {
        w.push(format!("{} failed tiles were given up after their retries (engine.retry_give_ups)", count(n)));
    }
    if let Some(n) = positive("mdu.units_lost") {
        w.push(format!("{} MDU unit(s) lost during the run (mdu.units_lost)", count(n)));
    }
    for s in stats {
        let lower = s.name.to_ascii_lowercase();
        let Some(n) = s.value.filter(|v| v.is_finite() && *v > 0.0) else { continue };
        if lower.contains("mismatch") {
            w.push(format!("{} content verification mismatches ({})", count(n), s.name));
        } else if lower.contains("nonresident") || lower.contains("non_resident") {
            w.push(format!("non-resident reads: {} {} ({})", count(n), s.unit, s.name));
        }
    }
    if let Some(n) = positive("quality.cuts_never_sharp") {
        w.push(format!("{} camera cuts never became sharp (quality.cuts_never_sharp)", count(n)));
    }
    if let (Some(occ), Some(ev)) = (value(stats, "pool.occupancy.max"), positive("engine.evictions")) {
        if occ >= 1.0 - 1e-9 {
            w.push(format!(
                "the tile pool filled up (pool.occupancy.max = {}) and {} tiles were evicted (engine.evictions)",
                count(occ),
                count(ev)
            ));
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn row(name: &str, value: Option<f64>, unit: &str) -> StatRow {
        StatRow { name: name.into(), value, unit: unit.into(), description: format!("{name} description") }
    }

    const G: DriveGuarantee = DriveGuarantee { rate_mb_per_s: 2000.0, window_ms: 250.0, peak_mb_per_s: Some(2400.0) };

    fn clean_stream() -> Vec<StatRow> {
        vec![
            row("nvme.throughput", Some(1500.0), "MB/s"),
            row("nvme.window_min", Some(512.0), "MB"),
            row("tile.latency.p50", Some(40.0), "ms"),
            row("tile.latency.p95", Some(60.0), "ms"),
            row("tile.latency.p99", Some(80.0), "ms"),
            row("tile.stage.readback.mean", Some(16.0), "ms"),
            row("tile.stage.readback.p95", Some(20.0), "ms"),
            row("tile.stage.drive.mean", Some(3.0), "ms"),
            row("tile.stage.visibility.mean", Some(10.0), "ms"),
            row("engine.evictions", Some(0.0), "count"),
            row("pool.occupancy.max", Some(0.5), "fraction"),
            row("engine.bottleneck.none", Some(0.25), "fraction"),
            row("engine.bottleneck.staging", Some(0.1), "fraction"),
            row("engine.bottleneck.drive", Some(0.6), "fraction"),
            row("engine.bottleneck.pool", Some(0.05), "fraction"),
            row("cpu.passes_late", Some(0.0), "frames"),
            row("gpu.renders_late", Some(0.0), "frames"),
            row("quality.lod_deficit.mean", Some(0.3), "mips"),
            row("quality.blurry_share", Some(0.1), "fraction"),
            row("quality.time_to_sharp.mean", None, "ms"),
            row("content.hash_mismatches", Some(0.0), "count"),
        ]
    }

    fn set(stats: &mut [StatRow], name: &str, v: Option<f64>) {
        stats.iter_mut().find(|s| s.name == name).unwrap().value = v;
    }

    #[test]
    fn names_the_largest_bottleneck_and_the_runner_up() {
        let s = summarize(&clean_stream(), Some(&G));
        let b = s.bottleneck.unwrap();
        assert_eq!(b.top, ("drive".to_string(), 0.6));
        assert_eq!(b.runner_up, Some(("none".to_string(), 0.25)));
        // Names are discovered by prefix, not from a list.
        let stats = vec![row("engine.bottleneck.some_new_limit", Some(0.9), "fraction")];
        let b = summarize(&stats, None).bottleneck.unwrap();
        assert_eq!(b.top.0, "some_new_limit");
        assert_eq!(b.runner_up, None);
        assert_eq!(summarize(&[], None).bottleneck, None);
    }

    #[test]
    fn guarantee_verdict_met_below_and_not_exercised() {
        assert_eq!(G.mb_per_window(), 500.0);
        let mut stats = clean_stream();
        assert_eq!(summarize(&stats, Some(&G)).drive.unwrap().verdict, Verdict::Met);
        set(&mut stats, "nvme.window_min", Some(500.0));
        assert_eq!(summarize(&stats, Some(&G)).drive.unwrap().verdict, Verdict::Met);
        set(&mut stats, "nvme.window_min", Some(499.0));
        let s = summarize(&stats, Some(&G));
        assert_eq!(s.drive.unwrap().verdict, Verdict::Below);
        assert!(s.warnings.iter().any(|w| w.contains("nvme.window_min") && w.contains("500")), "{:?}", s.warnings);
        set(&mut stats, "nvme.window_min", None);
        let s = summarize(&stats, Some(&G));
        let d = s.drive.unwrap();
        assert_eq!((d.verdict, d.window_min, d.throughput), (Verdict::NotExercised, None, Some(1500.0)));
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        assert_eq!(summarize(&stats, None).drive.unwrap().verdict, Verdict::NoGuarantee);
        // No drive stats at all (render workload): no drive part.
        assert_eq!(summarize(&[row("quality.blurry_share", Some(0.2), "fraction")], Some(&G)).drive, None);
    }

    #[test]
    fn latency_uses_tile_stages_or_request_percentiles() {
        let l = summarize(&clean_stream(), None).latency.unwrap();
        assert_eq!(l.kind, "tile");
        assert_eq!(l.percentiles, [("p50", 40.0), ("p95", 60.0), ("p99", 80.0)]);
        let stages: Vec<&str> = l.stages.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(stages, ["readback", "drive", "visibility"]);
        let io = vec![row("request.latency.p50", Some(1.0), "ms"), row("request.latency.p99", Some(2.0), "ms")];
        let l = summarize(&io, None).latency.unwrap();
        assert_eq!((l.kind, l.percentiles.len(), l.stages.len()), ("request", 2, 0));
    }

    #[test]
    fn quality_figures_skip_missing_and_null() {
        let q = summarize(&clean_stream(), None).quality;
        let names: Vec<&str> = q.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["quality.lod_deficit.mean", "quality.blurry_share"]);
    }

    #[test]
    fn clean_run_has_no_warnings_and_each_abnormality_warns() {
        assert_eq!(summarize(&clean_stream(), Some(&G)).warnings, Vec::<String>::new());
        let cases = [
            ("cpu.passes_late", 3.0, "cpu.passes_late"),
            ("gpu.renders_late", 1.0, "gpu.renders_late"),
            ("content.hash_mismatches", 2.0, "content.hash_mismatches"),
            ("quality.cuts_never_sharp", 1.0, "quality.cuts_never_sharp"),
        ];
        for (name, v, needle) in cases {
            let mut stats = clean_stream();
            stats.push(row("quality.cuts_never_sharp", Some(0.0), "count"));
            set(&mut stats, name, Some(v));
            let w = summarize(&stats, Some(&G)).warnings;
            assert_eq!(w.len(), 1, "{name}: {w:?}");
            assert!(w[0].contains(needle), "{name}: {w:?}");
        }
        let mut stats = clean_stream();
        stats.push(row("quality.nonresident_share", Some(0.01), "fraction"));
        let w = summarize(&stats, Some(&G)).warnings;
        assert!(w.len() == 1 && w[0].contains("non-resident"), "{w:?}");
        // A full pool warns only together with evictions.
        let mut stats = clean_stream();
        set(&mut stats, "pool.occupancy.max", Some(1.0));
        assert!(summarize(&stats, Some(&G)).warnings.is_empty());
        set(&mut stats, "engine.evictions", Some(40.0));
        let w = summarize(&stats, Some(&G)).warnings;
        assert!(w.len() == 1 && w[0].contains("pool.occupancy.max") && w[0].contains("40"), "{w:?}");
    }

    #[test]
    fn faults_show_only_when_injected_and_violations_warn() {
        assert!(summarize(&clean_stream(), Some(&G)).faults.is_empty());
        let mut stats = clean_stream();
        stats.push(row("faults.injected.io_error", Some(12.0), "count"));
        stats.push(row("engine.retries", Some(11.0), "count"));
        stats.push(row("engine.retry_give_ups", Some(1.0), "count"));
        stats.push(row("nvme.guarantee_violations", Some(2.0), "count"));
        stats.push(row("nvme.min_window_rate", Some(495.0), "MB/s"));
        let s = summarize(&stats, Some(&G));
        let names: Vec<&str> = s.faults.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["faults.injected.io_error", "engine.retries", "engine.retry_give_ups", "nvme.min_window_rate"]
        );
        assert!(s.warnings.iter().any(|w| w.contains("guarantee violation") && w.contains("495")), "{:?}", s.warnings);
        assert!(s.warnings.iter().any(|w| w.contains("engine.retry_give_ups")), "{:?}", s.warnings);
    }
}
