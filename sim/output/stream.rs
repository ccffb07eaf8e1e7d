//! Outputs of a streaming run: frames.csv, tiles.csv, plots and the report (trace.json and
//! signals.vcd are written by `trace_files`).

use super::{
    decimal, header, percentile_markers, scenario_and_stats_files, stat_rows, write, write_scenario_and_stats,
    OutputError,
};
use crate::engine::TileDb;
use crate::report::{CdfPlot, HLine, LinePlot, Plot, Report, Series};
use crate::scenario::Scenario;
use crate::stats::StatSet;
use crate::workload::stream::{StreamFrame, StreamOutcome, MIP_COLUMNS};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a frames.csv cell holds, and so how it prints.
enum Cell {
    Int(u64),
    /// Shortest round-trip decimal.
    Real(f64),
    /// Fixed number of decimals.
    Fixed(f64, usize),
    Text(&'static str),
    /// Not measured in this run (an empty cell).
    Missing,
}

/// Per-run constants a column may need.
struct RunContext {
    pool_capacity: u32,
    frame_seconds: f64,
}

/// One frames.csv column: header name, unit, and the value of a frame.
struct Column {
    name: &'static str,
    unit: &'static str,
    value: fn(&StreamFrame, &RunContext) -> Cell,
}

/// Tiles of one mip resident at the frame's start (`MIP_COLUMNS` − 1: that mip and coarser).
macro_rules! resident_mip {
    ($mip:literal, $name:literal) => {
        Column { name: $name, unit: "tiles", value: |r, _| Cell::Int(r.resident_by_mip[$mip]) }
    };
}

/// Tile requests of one mip that the frame's analysis found.
macro_rules! requested_mip {
    ($mip:literal, $name:literal) => {
        Column { name: $name, unit: "tiles", value: |r, _| Cell::Int(r.requested_by_mip[$mip]) }
    };
}

/// Measured texture reads whose effective LOD's mip is `$mip` (empty without quality).
macro_rules! reads_mip {
    ($mip:literal, $name:literal) => {
        Column { name: $name, unit: "reads", value: |r, _| quality_count(r, r.sampler.reads_by_mip[$mip]) }
    };
}

/// Measured texture reads at mip `$mip` and coarser.
macro_rules! reads_mip_up {
    ($mip:literal, $name:literal) => {
        Column {
            name: $name,
            unit: "reads",
            value: |r, _| quality_count(r, r.sampler.reads_by_mip[$mip..].iter().sum()),
        }
    };
}

/// The columns of frames.csv, in order: the file's only definition of its layout.
const FRAME_COLUMNS: &[Column] = &[
    Column { name: "frame", unit: "index", value: |r, _| Cell::Int(r.frame) },
    Column { name: "time_s", unit: "s", value: |r, _| Cell::Real(r.time.as_secs_f64()) },
    Column { name: "tiles_in_flight", unit: "tiles", value: |r, _| Cell::Int(r.tiles_in_flight) },
    Column { name: "pool_used", unit: "tiles", value: |r, _| Cell::Int(u64::from(r.pool_used)) },
    Column { name: "pool_capacity", unit: "tiles", value: |_, c| Cell::Int(u64::from(c.pool_capacity)) },
    Column {
        name: "staging_used_mib",
        unit: "MiB",
        value: |r, _| Cell::Fixed(r.staging_used as f64 / (1u64 << 20) as f64, 3),
    },
    Column { name: "io_waiting", unit: "IOs", value: |r, _| Cell::Int(r.io_waiting) },
    Column {
        name: "nvme_mb_per_s",
        unit: "MB/s",
        value: |r, c| Cell::Fixed(r.nvme_bytes as f64 / 1e6 / c.frame_seconds, 3),
    },
    Column {
        name: "mdu_in_gb_per_s",
        unit: "GB/s",
        value: |r, c| Cell::Fixed(r.mdu_in as f64 / 1e9 / c.frame_seconds, 4),
    },
    Column {
        name: "mdu_out_gb_per_s",
        unit: "GB/s",
        value: |r, c| Cell::Fixed(r.mdu_out as f64 / 1e9 / c.frame_seconds, 4),
    },
    Column { name: "loads", unit: "count", value: |r, _| Cell::Int(u64::from(r.engine.loads)) },
    Column { name: "evictions", unit: "count", value: |r, _| Cell::Int(u64::from(r.engine.evictions)) },
    Column { name: "became_visible", unit: "tiles", value: |r, _| Cell::Int(u64::from(r.engine.became_visible)) },
    Column { name: "seen_list", unit: "tiles", value: |r, _| Cell::Int(u64::from(r.engine.seen_list)) },
    Column { name: "bottleneck", unit: "name", value: |r, _| Cell::Text(r.bottleneck.name()) },
    Column {
        name: "submission_stop",
        unit: "name",
        value: |r, _| Cell::Text(r.engine.bottleneck.map_or("none", |b| b.name())),
    },
    Column { name: "texels_analysed", unit: "texels", value: |r, _| Cell::Int(r.engine.texels_analysed) },
    Column { name: "cpu_analysis_ms", unit: "ms", value: |r, _| Cell::Fixed(r.engine.cpu_analysis.as_ms_f64(), 4) },
    Column { name: "cpu_sort_ms", unit: "ms", value: |r, _| Cell::Fixed(r.engine.cpu_sort.as_ms_f64(), 4) },
    Column { name: "cpu_submit_ms", unit: "ms", value: |r, _| Cell::Fixed(r.engine.cpu_submit.as_ms_f64(), 4) },
    Column { name: "cpu_minmip_ms", unit: "ms", value: |r, _| Cell::Fixed(r.engine.cpu_minmip.as_ms_f64(), 4) },
    Column {
        name: "render_start_ms",
        unit: "ms",
        value: |r, _| Cell::Fixed(r.engine.gpu.render_start.saturating_sub(r.time).as_ms_f64(), 4),
    },
    Column { name: "gpu_render_ms", unit: "ms", value: |r, _| Cell::Fixed(r.engine.gpu_render.as_ms_f64(), 4) },
    Column {
        name: "pass_ms",
        unit: "ms",
        value: |r, _| match (r.engine.pass_start, r.engine.pass_end) {
            (Some(s), Some(e)) => Cell::Fixed((e - s).as_ms_f64(), 4),
            _ => Cell::Missing,
        },
    },
    Column { name: "pass_late", unit: "flag", value: |r, _| Cell::Int(u64::from(r.engine.pass_late)) },
    Column { name: "samples", unit: "rays", value: |r, _| Cell::Int(r.sampler.samples) },
    Column { name: "texture_samples", unit: "reads", value: |r, _| Cell::Int(r.sampler.texture_samples) },
    // Empty in a timing-only run, which does not measure quality.
    Column { name: "lod_deficit_mean", unit: "mips", value: |r, _| quality(r.sampler.mean_lod_deficit()) },
    Column { name: "blurry_share", unit: "fraction", value: |r, _| quality(r.sampler.blurry_share()) },
    Column { name: "nonresident_reads", unit: "reads", value: |r, _| quality_count(r, r.sampler.nonresident_reads) },
    Column {
        name: "nonresident_reads_point",
        unit: "reads",
        value: |r, _| quality_count(r, r.sampler.nonresident_reads_point),
    },
    resident_mip!(0, "resident_mip0"),
    resident_mip!(1, "resident_mip1"),
    resident_mip!(2, "resident_mip2"),
    resident_mip!(3, "resident_mip3"),
    resident_mip!(4, "resident_mip4"),
    resident_mip!(5, "resident_mip5"),
    resident_mip!(6, "resident_mip6"),
    resident_mip!(7, "resident_mip7_up"),
    requested_mip!(0, "requested_mip0"),
    requested_mip!(1, "requested_mip1"),
    requested_mip!(2, "requested_mip2"),
    requested_mip!(3, "requested_mip3"),
    requested_mip!(4, "requested_mip4"),
    requested_mip!(5, "requested_mip5"),
    requested_mip!(6, "requested_mip6"),
    requested_mip!(7, "requested_mip7_up"),
    reads_mip!(0, "reads_mip0"),
    reads_mip!(1, "reads_mip1"),
    reads_mip!(2, "reads_mip2"),
    reads_mip!(3, "reads_mip3"),
    reads_mip!(4, "reads_mip4"),
    reads_mip!(5, "reads_mip5"),
    reads_mip!(6, "reads_mip6"),
    reads_mip_up!(7, "reads_mip7_up"),
];

fn quality(v: Option<f64>) -> Cell {
    v.map_or(Cell::Missing, |v| Cell::Fixed(v, 4))
}

/// A count of measured texture reads: empty when the frame measured none.
fn quality_count(r: &StreamFrame, count: u64) -> Cell {
    if r.sampler.quality_samples > 0 {
        Cell::Int(count)
    } else {
        Cell::Missing
    }
}

/// (name, unit) of every frames.csv column, in order.
pub fn frame_columns() -> impl Iterator<Item = (&'static str, &'static str)> {
    FRAME_COLUMNS.iter().map(|c| (c.name, c.unit))
}

fn frames_csv(o: &StreamOutcome) -> String {
    let names: Vec<&str> = FRAME_COLUMNS.iter().map(|c| c.name).collect();
    let mut csv = names.join(",");
    csv.push('\n');
    let context = RunContext { pool_capacity: o.pool_capacity, frame_seconds: o.frame_period.as_secs_f64() };
    for r in &o.frames {
        for (i, column) in FRAME_COLUMNS.iter().enumerate() {
            if i > 0 {
                csv.push(',');
            }
            let _ = match (column.value)(r, &context) {
                Cell::Int(v) => write!(csv, "{v}"),
                Cell::Real(v) => write!(csv, "{v}"),
                Cell::Fixed(v, decimals) => write!(csv, "{v:.decimals$}"),
                Cell::Text(v) => write!(csv, "{v}"),
                Cell::Missing => Ok(()),
            };
        }
        csv.push('\n');
    }
    csv
}

fn tiles_csv(db: &TileDb) -> String {
    let mut csv =
        String::from("texture,mip,x,y,requested_s,analysed_s,submitted_s,issued_s,read_s,decompressed_s,mapped_s,visible_s,evicted_s\n");
    for r in db.records() {
        let c = db.coord(r.tile);
        for (i, v) in [r.tile.texture, c.mip, c.x, c.y].into_iter().enumerate() {
            if i > 0 {
                csv.push(',');
            }
            decimal::push_u64(&mut csv, u64::from(v));
        }
        let times = [r.analysed, r.submitted, r.issued, r.read, r.decompressed, r.mapped, r.visible, r.evicted];
        for t in std::iter::once(Some(r.requested)).chain(times) {
            csv.push(',');
            if let Some(t) = t {
                decimal::push_secs(&mut csv, t);
            }
        }
        csv.push('\n');
    }
    csv
}

/// A writer thread's result (its panic, if any, goes on in the caller).
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Resident tiles per mip, stacked: each line is the total of its mip and every coarser
/// one, so the gaps between lines are the mips' shares and the top line is the pool in use.
fn residency_plot(o: &StreamOutcome) -> Plot {
    let used: Vec<usize> = (0..MIP_COLUMNS).filter(|&m| o.frames.iter().any(|r| r.resident_by_mip[m] > 0)).collect();
    let series = used
        .iter()
        .rev()
        .map(|&m| {
            let label = if m + 1 == MIP_COLUMNS { format!("mips ≥ {m}") } else { format!("mip {m} and coarser") };
            let points = o
                .frames
                .iter()
                .map(|r| (r.time.as_secs_f64(), r.resident_by_mip[m..].iter().sum::<u64>() as f64))
                .collect();
            Series { label, points }
        })
        .collect();
    Plot::Line(LinePlot {
        file_stem: "residency_by_mip".into(),
        title: "Resident tiles by mip (stacked: coarse at the bottom)".into(),
        x_label: "simulated time (s)".into(),
        y_label: "tiles".into(),
        series,
        hlines: vec![HLine { label: "pool capacity".into(), y: f64::from(o.pool_capacity) }],
        log_x: false,
    })
}

pub(super) fn write_stream_run(
    dir: &Path,
    scenario: &Scenario,
    o: &StreamOutcome,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    let secs = o.frame_period.as_secs_f64();
    let t = |f: &dyn Fn(&StreamFrame) -> f64| -> Vec<(f64, f64)> {
        o.frames.iter().map(|r| (r.time.as_secs_f64(), f(r))).collect()
    };
    // Throughput per frame is noisy; a 15-frame moving sum reads better.
    let smooth = |f: &dyn Fn(&StreamFrame) -> f64| -> Vec<(f64, f64)> {
        let raw = t(f);
        raw.iter()
            .enumerate()
            .map(|(i, &(x, _))| {
                let lo = i.saturating_sub(14);
                (x, raw[lo..=i].iter().map(|p| p.1).sum::<f64>() / (i - lo + 1) as f64)
            })
            .collect()
    };
    let ms: Vec<f64> = o.tile_latencies.iter().map(|t| t.as_ms_f64()).collect();
    let markers = percentile_markers(&o.tile_latencies);
    let nvme = &scenario.hardware.nvme;
    let (title, mut subtitle) = header(scenario, "streaming");
    if let crate::scenario::Workload::Stream(w) = &scenario.workload {
        if w.mode == crate::workload::stream::StreamMode::TimingOnly {
            subtitle.push_str(" — timing only: visual quality not measured");
        }
    }
    let mut report = Report {
        tables: vec![],
        title,
        subtitle,
        plots: vec![
            Plot::Line(LinePlot {
                file_stem: "throughput".into(),
                title: "Throughput (15-frame moving mean)".into(),
                x_label: "simulated time (s)".into(),
                y_label: "MB/s".into(),
                series: vec![
                    Series { label: "NVMe read".into(), points: smooth(&|r| r.nvme_bytes as f64 / 1e6 / secs) },
                    Series { label: "MDU out".into(), points: smooth(&|r| r.mdu_out as f64 / 1e6 / secs) },
                ],
                hlines: vec![HLine { label: format!("guaranteed {}", nvme.guaranteed), y: nvme.guaranteed.as_mb_per_sec_f64() }],
                log_x: false,
            }),
            Plot::Cdf(CdfPlot {
                file_stem: "tile_latency".into(),
                title: "Tile latency (render that first asked for it → visible)".into(),
                x_label: "latency (ms)".into(),
                samples: ms,
                markers,
                quantiles_of: None,
            }),
            Plot::Line(LinePlot {
                file_stem: "occupancy".into(),
                title: "Tile pool, tiles in flight, Seen Tiles".into(),
                x_label: "simulated time (s)".into(),
                y_label: "tiles".into(),
                series: vec![
                    Series { label: "pool slots used".into(), points: t(&|r| f64::from(r.pool_used)) },
                    Series { label: "tiles in flight".into(), points: t(&|r| r.tiles_in_flight as f64) },
                    Series { label: "seen list".into(), points: t(&|r| f64::from(r.engine.seen_list)) },
                ],
                hlines: vec![HLine { label: "pool capacity".into(), y: f64::from(o.pool_capacity) }],
                log_x: false,
            }),
            Plot::Line(LinePlot {
                file_stem: "lod_deficit".into(),
                title: "Visual quality: effective − desired LOD".into(),
                x_label: "simulated time (s)".into(),
                y_label: "mips / fraction".into(),
                series: vec![
                    Series { label: "mean deficit (mips)".into(), points: t(&|r| r.sampler.mean_lod_deficit().unwrap_or(0.0)) },
                    Series {
                        label: "share ≥ 1 mip blurry".into(),
                        points: t(&|r| r.sampler.blurry_share().unwrap_or(0.0)),
                    },
                ],
                hlines: vec![],
                log_x: false,
            }),
            Plot::Line(LinePlot {
                file_stem: "loads".into(),
                title: "Loads and evictions per frame".into(),
                x_label: "simulated time (s)".into(),
                y_label: "tiles per frame".into(),
                series: vec![
                    Series { label: "loads".into(), points: t(&|r| f64::from(r.engine.loads)) },
                    Series { label: "evictions".into(), points: t(&|r| f64::from(r.engine.evictions)) },
                ],
                hlines: vec![],
                log_x: false,
            }),
            residency_plot(o),
        ],
        stats: stat_rows(stats),
        guarantee: Some(super::drive_guarantee(scenario)),
        files: [
            scenario_and_stats_files(),
            vec![
            ("frames.csv".into(), "per frame: in flight, pool, staging, throughput, loads, evictions, bottleneck, CPU ms, quality, residency and requests per mip".into()),
            ("tiles.csv".into(), "per tile load: requested, analysed, submitted, issued, read, decompressed, mapped, visible, evicted".into()),
            ("trace.json".into(), "Chrome/Perfetto trace in simulated time: NVMe IOs, MDU jobs per unit, frames (open in ui.perfetto.dev)".into()),
            ("signals.vcd".into(), "queue depths and occupancies per frame (open in GTKWave or Surfer)".into()),
        ],
        ]
        .concat(),
    };
    if o.frames.iter().all(|r| r.sampler.quality_samples == 0) {
        // A timing-only run measured no quality: no LOD-deficit plot of zeros.
        report.plots.retain(|p| !matches!(p, Plot::Line(l) if l.file_stem == "lod_deficit"));
    }
    // The plots and tiles.csv are written on their own threads while this one writes the
    // rest (each file is written whole by one thread, so the bytes do not depend on the split).
    std::thread::scope(|scope| {
        let db = o.engine.tile_db();
        let plots = scope.spawn(|| crate::report::write_report(&report, dir));
        let tiles = scope.spawn(|| write(dir, "tiles.csv", &tiles_csv(db)));
        let mut written = write_scenario_and_stats(dir, scenario, stats)?;
        written.push(write(dir, "frames.csv", &frames_csv(o))?);
        let trace = super::trace_files::write_trace_files(dir, o);
        written.push(join(tiles)?);
        written.extend(trace?);
        written.extend(join(plots)?);
        Ok(written)
    })
}
