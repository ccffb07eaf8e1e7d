//! Writes a run's outputs into its folder: resolved.ron, stats.json, windows.csv,
//! throughput.csv, plots (PNG + SVG) and index.html; and the writers of the other output
//! formats: [`trace`] (Perfetto trace-event JSON), [`vcd`] (waveforms) and [`picture`]
//! (PNG debug views of one frame).

use crate::report::{CdfPlot, DriveGuarantee, HLine, LinePlot, Plot, Report, Series, StatRow};
use crate::run::Outcome;
use crate::scenario::Scenario;
use crate::stats::{percentile, StatSet};
use crate::workload::io::IoOutcome;
use crate::workload::render::{FrameRow, RenderOutcome};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    #[error(transparent)]
    Spill(#[from] crate::spill::SpillError),
}

pub(crate) fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, OutputError> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|source| OutputError::Write { path: path.clone(), source })?;
    Ok(path)
}

/// Creates `dir` (and its parents) and proves it writable by writing and removing a probe
/// file, so that a run whose outputs cannot be written fails before it starts, not after.
/// Errors say what is in the way: a file where a folder should be, or no permission.
pub fn prepare_dir(dir: &Path) -> Result<(), OutputError> {
    let fail = |source| OutputError::Write { path: dir.to_path_buf(), source };
    if let Some(blocker) = dir.ancestors().find(|a| a.is_file()) {
        let what = if blocker == dir {
            "it is a file, not a folder".to_string()
        } else {
            format!("{} is a file, not a folder", blocker.display())
        };
        return Err(fail(std::io::Error::new(std::io::ErrorKind::AlreadyExists, what)));
    }
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(".sfsim-write-check");
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

/// Checks, before any work, that `file` can be written: it is not a folder, and its folder
/// exists (it is not created: a typo in an output file's path must not make folders) and
/// takes a probe file.
pub fn prepare_file(file: &Path) -> Result<(), OutputError> {
    let fail = |what: String| OutputError::Write {
        path: file.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidInput, what),
    };
    if file.is_dir() {
        return Err(fail("it is a folder; name a file".to_string()));
    }
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(fail(format!("its folder {} does not exist", dir.display())));
    }
    let probe = dir.join(".sfsim-write-check");
    std::fs::write(&probe, b"").and_then(|()| std::fs::remove_file(&probe)).map_err(|e| fail(e.to_string()))
}

/// Writes every output of a run; `stats` already holds the host figures if wanted.
pub fn write_run(
    dir: &Path,
    scenario: &Scenario,
    outcome: &Outcome,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    prepare_dir(dir)?;
    match outcome {
        Outcome::Io(o) => write_io_run(dir, scenario, o, stats),
        Outcome::Render(o) => write_render_run(dir, scenario, o, stats),
        Outcome::Stream(o) => stream::write_stream_run(dir, scenario, o, stats),
    }
}

mod decimal;
pub mod picture;
mod series;
mod stream;
mod stream_plots;
pub mod trace;
mod trace_files;
pub mod vcd;

pub use stream::frame_columns;

/// Report title and subtitle: the scenario's name and description (or what kind of run).
pub(crate) fn header(scenario: &Scenario, kind: &str) -> (String, String) {
    let subtitle = if scenario.description.is_empty() {
        format!("{kind}, {} simulated, seed {}", scenario.duration, scenario.seed)
    } else {
        scenario.description.clone()
    };
    (format!("sfsim run: {}", scenario.name), subtitle)
}

/// p50/p95/p99 marker lines for a CDF plot of sorted latencies, in ms.
pub(crate) fn percentile_markers(sorted: &[sfsim_models::units::Time]) -> Vec<(String, f64)> {
    [(50, "p50"), (95, "p95"), (99, "p99")]
        .iter()
        .filter_map(|&(p, name)| percentile(sorted, p).map(|t| (name.to_string(), t.as_ms_f64())))
        .collect()
}

/// The two files every run writes first, and their entries in the report's file list.
pub(crate) fn write_scenario_and_stats(
    dir: &Path,
    scenario: &Scenario,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    Ok(vec![write(dir, "resolved.ron", &scenario.to_resolved_ron(dir))?, write(dir, "stats.json", &stats.to_json())?])
}

pub(crate) fn scenario_and_stats_files() -> Vec<(String, String)> {
    vec![
        ("resolved.ron".into(), "the scenario with every default filled in".into()),
        ("stats.json".into(), "every stat with unit and description".into()),
    ]
}

/// The scenario's NVMe guarantee (rate over every full window, and the peak), for the
/// report summary's verdict on `nvme.window_min`.
pub(crate) fn drive_guarantee(scenario: &Scenario) -> DriveGuarantee {
    let nvme = &scenario.hardware.nvme;
    DriveGuarantee {
        rate_mb_per_s: nvme.guaranteed.as_mb_per_sec_f64(),
        window_ms: nvme.window.as_ms_f64(),
        peak_mb_per_s: Some(nvme.peak.as_mb_per_sec_f64()),
    }
}

pub(crate) fn stat_rows(stats: &StatSet) -> Vec<StatRow> {
    stats
        .iter()
        .map(|s| StatRow {
            name: s.name.clone(),
            value: s.value,
            unit: s.unit.to_string(),
            description: s.description.clone(),
        })
        .collect()
}

fn write_render_run(
    dir: &Path,
    scenario: &Scenario,
    outcome: &RenderOutcome,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    let mut csv = String::from("frame,time_s,samples,hits,texture_samples,feedback_texels,tiles_requested,tiles_seen,lod_deficit_mean,blurry_share\n");
    for r in &outcome.frames {
        let s = &r.stats;
        let blurry = s.blurry_share().unwrap_or(0.0);
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{:.4},{:.4}",
            r.frame,
            r.time.as_secs_f64(),
            s.samples,
            s.hits,
            s.texture_samples,
            r.feedback_texels,
            r.tiles_requested,
            r.tiles_seen,
            s.mean_lod_deficit().unwrap_or(0.0),
            blurry
        );
    }
    let t = |f: &dyn Fn(&FrameRow) -> f64| -> Vec<(f64, f64)> {
        outcome.frames.iter().map(|r| (r.time.as_secs_f64(), f(r))).collect()
    };
    let blurry = |r: &FrameRow| r.stats.blurry_share().unwrap_or(0.0);
    let (title, subtitle) = header(scenario, "render workload");
    let report = Report {
        tables: vec![],
        title,
        subtitle,
        plots: vec![
            Plot::Line(LinePlot {
                file_stem: "tiles".into(),
                title: "Tiles requested by sampler feedback".into(),
                x_label: "simulated time (s)".into(),
                y_label: "tiles".into(),
                series: vec![
                    Series { label: "requested this frame".into(), points: t(&|r| r.tiles_requested as f64) },
                    Series { label: "distinct since start".into(), points: t(&|r| r.tiles_seen as f64) },
                ],
                hlines: vec![],
                log_x: false,
            }),
            Plot::Line(LinePlot {
                file_stem: "lod_deficit".into(),
                title: "Visual quality: effective − desired LOD".into(),
                x_label: "simulated time (s)".into(),
                y_label: "mips / fraction".into(),
                series: vec![
                    Series {
                        label: "mean deficit (mips)".into(),
                        points: t(&|r| r.stats.mean_lod_deficit().unwrap_or(0.0)),
                    },
                    Series { label: "share ≥ 1 mip blurry".into(), points: t(&blurry) },
                ],
                hlines: vec![],
                log_x: false,
            }),
        ],
        stats: stat_rows(stats),
        guarantee: Some(drive_guarantee(scenario)),
        files: [
            scenario_and_stats_files(),
            vec![("frames.csv".into(), "per-frame samples, feedback texels, tiles requested, LOD deficit".into())],
        ]
        .concat(),
    };
    let mut written = write_scenario_and_stats(dir, scenario, stats)?;
    written.push(write(dir, "frames.csv", &csv)?);
    written.extend(crate::report::write_report(&report, dir)?);
    Ok(written)
}

fn write_io_run(
    dir: &Path,
    scenario: &Scenario,
    outcome: &IoOutcome,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    let mut written = write_scenario_and_stats(dir, scenario, stats)?;
    written.push(write(dir, "windows.csv", &windows_csv(outcome))?);
    written.push(write(dir, "throughput.csv", &fine_csv(outcome))?);
    written.extend(crate::report::write_report(&io_report(scenario, outcome, stats), dir)?);
    Ok(written)
}

fn windows_csv(outcome: &IoOutcome) -> String {
    let mut csv = String::from("start_s,end_s,nvme_mb,nvme_mb_per_s,mdu_in_mb,mdu_out_mb,mdu_in_gb_per_s,mdu_out_gb_per_s,requests_completed\n");
    for w in &outcome.windows {
        let secs = (w.end - w.start).as_secs_f64();
        let _ = writeln!(
            csv,
            "{},{},{:.6},{:.3},{:.6},{:.6},{:.4},{:.4},{}",
            w.start.as_secs_f64(),
            w.end.as_secs_f64(),
            w.nvme_bytes as f64 / 1e6,
            w.nvme_bytes as f64 / 1e6 / secs,
            w.mdu_in_bytes as f64 / 1e6,
            w.mdu_out_bytes as f64 / 1e6,
            w.mdu_in_bytes as f64 / 1e9 / secs,
            w.mdu_out_bytes as f64 / 1e9 / secs,
            w.requests_done
        );
    }
    csv
}

fn fine_csv(outcome: &IoOutcome) -> String {
    let secs = outcome.fine_bin.as_secs_f64();
    let mut csv = String::from("start_s,nvme_mb_per_s,mdu_in_mb_per_s,mdu_out_mb_per_s\n");
    for &(t, nvme, mdu_in, mdu_out) in &outcome.fine {
        let _ = writeln!(
            csv,
            "{},{:.3},{:.3},{:.3}",
            t.as_secs_f64(),
            nvme as f64 / 1e6 / secs,
            mdu_in as f64 / 1e6 / secs,
            mdu_out as f64 / 1e6 / secs
        );
    }
    csv
}

/// Points the IO report's latency CDF is drawn from (at most): a plot shows no more.
const CDF_POINTS: usize = 20_000;

fn io_report(scenario: &Scenario, outcome: &IoOutcome, stats: &StatSet) -> Report {
    let nvme = &scenario.hardware.nvme;
    // A content-pool run's last window may be shorter (it ends at the last completion).
    let per_window = |f: fn(&crate::workload::io::WindowRow) -> u64| -> Vec<(f64, f64)> {
        outcome
            .windows
            .iter()
            .map(|w| (w.end.as_secs_f64(), f(w) as f64 / 1e6 / (w.end - w.start).as_secs_f64()))
            .collect()
    };
    let fine_secs = outcome.fine_bin.as_secs_f64();
    let fine = |i: usize| -> Vec<(f64, f64)> {
        outcome
            .fine
            .iter()
            .map(|r| {
                let v = [r.1, r.2, r.3][i];
                (r.0.as_secs_f64() + fine_secs, v as f64 / 1e6 / fine_secs)
            })
            .collect()
    };
    let guaranteed = HLine { label: format!("guaranteed {}", nvme.guaranteed), y: nvme.guaranteed.as_mb_per_sec_f64() };
    let ms: Vec<f64> = outcome.latencies.cdf_samples(CDF_POINTS).iter().map(|t| t.as_ms_f64()).collect();
    // One pass over the samples for the three markers (they are not sorted).
    let markers = ["p50", "p95", "p99"]
        .into_iter()
        .zip(outcome.latencies.percentiles(&[50, 95, 99]))
        .filter_map(|(name, t)| t.map(|t| (name.to_string(), t.as_ms_f64())))
        .collect();
    let (title, subtitle) = header(scenario, "IO workload");
    Report {
        tables: vec![],
        title,
        subtitle,
        plots: vec![
            Plot::Line(LinePlot {
                file_stem: "throughput".into(),
                title: format!("Throughput per {} window", nvme.window),
                x_label: "simulated time (s)".into(),
                y_label: "MB/s".into(),
                series: vec![
                    Series { label: "NVMe read".into(), points: per_window(|w| w.nvme_bytes) },
                    Series { label: "MDU in".into(), points: per_window(|w| w.mdu_in_bytes) },
                    Series { label: "MDU out".into(), points: per_window(|w| w.mdu_out_bytes) },
                ],
                hlines: vec![guaranteed.clone()],
                log_x: false,
            }),
            Plot::Line(LinePlot {
                file_stem: "throughput_fine".into(),
                title: format!("Short-term throughput per {} bin", outcome.fine_bin),
                x_label: "simulated time (s)".into(),
                y_label: "MB/s".into(),
                series: vec![
                    Series { label: "NVMe read".into(), points: fine(0) },
                    Series { label: "MDU in".into(), points: fine(1) },
                ],
                hlines: vec![
                    guaranteed,
                    HLine { label: format!("peak {}", nvme.peak), y: nvme.peak.as_mb_per_sec_f64() },
                ],
                log_x: false,
            }),
            Plot::Cdf(CdfPlot {
                file_stem: "latency".into(),
                title: "Request latency (enqueue → data in title memory)".into(),
                x_label: "latency (ms)".into(),
                quantiles_of: (outcome.latencies.len() > ms.len() as u64).then(|| outcome.latencies.len()),
                samples: ms,
                markers,
            }),
        ],
        stats: stat_rows(stats),
        guarantee: Some(drive_guarantee(scenario)),
        files: [
            scenario_and_stats_files(),
            vec![
                ("windows.csv".into(), format!("throughput per {} window", nvme.window)),
                ("throughput.csv".into(), format!("throughput per {} bin", outcome.fine_bin)),
            ],
        ]
        .concat(),
    }
}
