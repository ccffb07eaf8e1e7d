//! Outputs of a streaming run: frames.csv, tiles.csv, plots and the report (trace.json and
//! signals.vcd are written by `trace_files`).

use super::stream_plots::FrameSeries;
use super::{
    decimal, header, percentile_markers, scenario_and_stats_files, stat_rows, write_scenario_and_stats, OutputError,
};
use crate::engine::{TileDb, TileRecord};
use crate::report::{CdfPlot, HLine, Plot, Report};
use crate::scenario::Scenario;
use crate::stats::StatSet;
use crate::workload::stream::{StreamFrame, StreamOutcome};
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

/// A buffered output file; errors name it.
struct OutFile {
    path: PathBuf,
    w: std::io::BufWriter<std::fs::File>,
}

impl OutFile {
    fn create(dir: &Path, name: &str) -> Result<OutFile, OutputError> {
        let path = dir.join(name);
        let file = std::fs::File::create(&path).map_err(|source| OutputError::Write { path: path.clone(), source })?;
        Ok(OutFile { path, w: std::io::BufWriter::with_capacity(1 << 16, file) })
    }

    fn put(&mut self, text: &str) -> Result<(), OutputError> {
        use std::io::Write as _;
        self.w.write_all(text.as_bytes()).map_err(|source| OutputError::Write { path: self.path.clone(), source })
    }

    fn finish(self) -> Result<PathBuf, OutputError> {
        let OutFile { path, w } = self;
        w.into_inner().map_err(|e| OutputError::Write { path: path.clone(), source: e.into_error() })?;
        Ok(path)
    }
}

/// frames.csv, row by row as the rows are read back.
fn write_frames_csv(dir: &Path, o: &StreamOutcome) -> Result<PathBuf, OutputError> {
    let mut out = OutFile::create(dir, "frames.csv")?;
    let names: Vec<&str> = FRAME_COLUMNS.iter().map(|c| c.name).collect();
    let mut csv = names.join(",");
    csv.push('\n');
    let context = RunContext { pool_capacity: o.pool_capacity, frame_seconds: o.frame_period.as_secs_f64() };
    for r in o.frame_rows() {
        let r = r?;
        for (i, column) in FRAME_COLUMNS.iter().enumerate() {
            if i > 0 {
                csv.push(',');
            }
            let _ = match (column.value)(&r, &context) {
                Cell::Int(v) => write!(csv, "{v}"),
                Cell::Real(v) => write!(csv, "{v}"),
                Cell::Fixed(v, decimals) => write!(csv, "{v:.decimals$}"),
                Cell::Text(v) => write!(csv, "{v}"),
                Cell::Missing => Ok(()),
            };
        }
        csv.push('\n');
        if csv.len() >= 1 << 16 {
            out.put(&csv)?;
            csv.clear();
        }
    }
    out.put(&csv)?;
    out.finish()
}

/// One tiles.csv row.
fn push_tile_row(csv: &mut String, db: &TileDb, r: &TileRecord) {
    let c = db.coord(r.tile);
    for (i, v) in [r.tile.texture, c.mip, c.x, c.y].into_iter().enumerate() {
        if i > 0 {
            csv.push(',');
        }
        decimal::push_u64(csv, u64::from(v));
    }
    let times = [r.analysed, r.submitted, r.issued, r.read, r.decompressed, r.mapped, r.visible, r.evicted];
    for t in std::iter::once(Some(r.requested)).chain(times) {
        csv.push(',');
        if let Some(t) = t {
            decimal::push_secs(csv, t);
        }
    }
    csv.push('\n');
}

const TILES_HEADER: &str =
    "texture,mip,x,y,requested_s,analysed_s,submitted_s,issued_s,read_s,decompressed_s,mapped_s,visible_s,evicted_s\n";

/// tiles.csv, in load order, as the records are read back.
fn write_tiles_csv(dir: &Path, db: &TileDb) -> Result<PathBuf, OutputError> {
    let mut out = OutFile::create(dir, "tiles.csv")?;
    let mut csv = String::from(TILES_HEADER);
    for r in db.records().read() {
        push_tile_row(&mut csv, db, &r?);
        if csv.len() >= 1 << 16 {
            out.put(&csv)?;
            csv.clear();
        }
    }
    out.put(&csv)?;
    out.finish()
}

/// A writer thread's result (its panic, if any, goes on in the caller).
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

pub(super) fn write_stream_run(
    dir: &Path,
    scenario: &Scenario,
    o: &StreamOutcome,
    stats: &StatSet,
) -> Result<Vec<PathBuf>, OutputError> {
    let ms: Vec<f64> = o.tile_latencies.iter().map(|t| t.as_ms_f64()).collect();
    let markers = percentile_markers(&o.tile_latencies);
    let nvme = &scenario.hardware.nvme;
    let (title, mut subtitle) = header(scenario, "streaming");
    if let crate::scenario::Workload::Stream(w) = &scenario.workload {
        if w.mode == crate::workload::stream::StreamMode::TimingOnly {
            subtitle.push_str(" — timing only: visual quality not measured");
        }
    }
    let latency_cdf = Plot::Cdf(CdfPlot {
        file_stem: "tile_latency".into(),
        title: "Tile latency (render that first asked for it → visible)".into(),
        x_label: "latency (ms)".into(),
        samples: ms,
        markers,
        quantiles_of: None,
    });
    let guaranteed = HLine { label: format!("guaranteed {}", nvme.guaranteed), y: nvme.guaranteed.as_mb_per_sec_f64() };
    // A timing-only run measured no quality: no LOD-deficit plot of zeros.
    let plots = FrameSeries::gather(o)?.plots(guaranteed, o.pool_capacity, latency_cdf);
    let report = Report {
        tables: vec![],
        title,
        subtitle,
        plots,
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
    // The plots and tiles.csv are written on their own threads while this one writes the
    // rest (each file is written whole by one thread, so the bytes do not depend on the split).
    std::thread::scope(|scope| {
        let db = o.engine.tile_db();
        let plots = scope.spawn(|| crate::report::write_report(&report, dir));
        let tiles = scope.spawn(|| write_tiles_csv(dir, db));
        let mut written = write_scenario_and_stats(dir, scenario, stats)?;
        written.push(write_frames_csv(dir, o)?);
        let trace = super::trace_files::write_trace_files(dir, o);
        written.push(join(tiles)?);
        written.extend(trace?);
        written.extend(join(plots)?);
        Ok(written)
    })
}
