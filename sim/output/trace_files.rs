//! trace.json (Chrome/Perfetto trace events) and signals.vcd of a streaming run, both in
//! SIMULATED time: open trace.json in ui.perfetto.dev, signals.vcd in GTKWave or Surfer.

use super::OutputError;
use crate::output::trace::Trace;
use crate::output::vcd::Vcd;
use crate::spill::SpillError;
use crate::workload::stream::StreamOutcome;
use serde_json::json;
use std::path::{Path, PathBuf};

const NVME: u32 = 1;
const MDU: u32 = 2;
const FRAMES: u32 = 3;
const GPU: u32 = 4;
const ENGINE_CPU: u32 = 5;

pub(super) fn stream_trace(o: &StreamOutcome) -> Result<Trace, SpillError> {
    let mut t = Trace::new();
    t.name_process(NVME, "NVMe");
    t.name_thread(NVME, 0, "channel");
    t.name_process(MDU, "MDU");
    let spans_kept = &o.trace_spans;
    for u in 0..spans_kept.mdu_units {
        t.name_thread(MDU, u, &format!("unit {u}"));
    }
    t.name_process(FRAMES, "Frames");
    t.name_thread(FRAMES, 0, "frame");
    t.name_process(GPU, "GPU");
    t.name_thread(GPU, 0, "direct queue: render");
    t.name_thread(GPU, 1, "direct queue: feedback resolve");
    t.name_thread(GPU, 2, "direct queue: UpdateTileMappings");
    t.name_thread(GPU, 3, "copy queue: MinMip uploads");
    t.name_process(ENGINE_CPU, "Engine CPU");
    t.name_thread(ENGINE_CPU, 0, "feedback thread");
    t.name_thread(ENGINE_CPU, 1, "streaming thread");
    let spans = o.engine.queue_spans();
    let tracks = [
        (GPU, 2, "UpdateTileMappings", "gpu", &spans.mapping_calls),
        (GPU, 3, "MinMip upload", "gpu", &spans.uploads),
        (ENGINE_CPU, 1, "MinMip update", "cpu", &spans.streaming_thread),
    ];
    for (process, thread, name, category, list) in tracks {
        for &(start, end) in list.iter() {
            t.complete(process, thread, name, category, start, end - start, &[]);
        }
    }
    for x in &spans_kept.transfers {
        t.complete(NVME, 0, "IO", "nvme", x.start, x.end - x.start, &[("bytes", json!(x.bytes)), ("io", json!(x.id))]);
    }
    // Spans left out could never have been kept: the trace's limit was reached first.
    t.count_dropped(spans_kept.transfers_left_out);
    for j in &spans_kept.jobs {
        t.complete(
            MDU,
            j.unit,
            "job",
            "mdu",
            j.start,
            j.end - j.start,
            &[("in", json!(j.input.0)), ("out", json!(j.output.0))],
        );
    }
    t.count_dropped(spans_kept.jobs_left_out);
    let mut rows = o.frame_rows().peekable();
    while let Some(f) = rows.next() {
        let f = f?;
        // A row that fails to read back ends the loop with its error just after.
        let end = match rows.peek() {
            Some(Ok(n)) => n.time,
            _ => f.time + o.frame_period,
        };
        let e = &f.engine;
        t.complete(
            FRAMES,
            0,
            &format!("frame {}", f.frame),
            "frame",
            f.time,
            end - f.time,
            &[
                ("loads", json!(e.loads)),
                ("evictions", json!(e.evictions)),
                ("bottleneck", json!(f.bottleneck.name())),
                ("submission_stop", json!(e.bottleneck.map_or("none", |b| b.name()))),
            ],
        );
        let g = &e.gpu;
        t.complete(GPU, 0, &format!("render {}", f.frame), "gpu", g.render_start, e.gpu_render, &[]);
        let resolve_start = g.feedback_ready.saturating_sub(e.gpu_feedback);
        t.complete(GPU, 1, &format!("feedback {}", f.frame), "gpu", resolve_start, e.gpu_feedback, &[]);
        if let (Some(start), Some(end)) = (e.pass_start, e.pass_end) {
            t.complete(
                ENGINE_CPU,
                0,
                &format!("pass {}", f.frame),
                "cpu",
                start,
                end - start,
                &[("loads", json!(e.loads)), ("late", json!(e.pass_late))],
            );
        }
        t.counter(
            FRAMES,
            "engine",
            f.time,
            &[
                ("tiles in flight", f.tiles_in_flight as f64),
                ("pool used", f64::from(f.pool_used)),
                ("seen list", f64::from(e.seen_list)),
            ],
        );
    }
    Ok(t)
}

/// signals.vcd's changes can fail to read back (the spill) or to record (the VCD's rules).
pub(super) enum VcdFailure {
    Spill(SpillError),
    Vcd(crate::output::vcd::VcdError),
}

impl From<crate::output::vcd::VcdError> for VcdFailure {
    fn from(e: crate::output::vcd::VcdError) -> Self {
        VcdFailure::Vcd(e)
    }
}

pub(super) fn stream_vcd(o: &StreamOutcome) -> Result<Vcd, VcdFailure> {
    let mut v = Vcd::new(1_000); // 1 ns ticks keep the file small
    let in_flight = v.signal("engine", "tiles_in_flight", 32)?;
    let pool = v.signal("engine", "pool_used", 32)?;
    let seen = v.signal("engine", "seen_list", 32)?;
    let staging = v.signal("engine", "staging_used_bytes", 40)?;
    let waiting = v.signal("iopath", "ios_waiting", 32)?;
    let loads = v.signal("engine", "loads_per_frame", 32)?;
    for f in o.frame_rows() {
        let f = f.map_err(VcdFailure::Spill)?;
        v.change(f.time, in_flight, f.tiles_in_flight)?;
        v.change(f.time, pool, u64::from(f.pool_used))?;
        v.change(f.time, seen, u64::from(f.engine.seen_list))?;
        v.change(f.time, staging, f.staging_used)?;
        v.change(f.time, waiting, f.io_waiting)?;
        v.change(f.time, loads, u64::from(f.engine.loads))?;
    }
    Ok(v)
}

fn create(path: PathBuf) -> Result<(std::io::BufWriter<std::fs::File>, PathBuf), OutputError> {
    let file = std::fs::File::create(&path).map_err(|source| OutputError::Write { path: path.clone(), source })?;
    Ok((std::io::BufWriter::new(file), path))
}

pub(super) fn write_trace_files(dir: &Path, o: &StreamOutcome) -> Result<Vec<PathBuf>, OutputError> {
    let (w, trace_path) = create(dir.join("trace.json"))?;
    stream_trace(o)?.write_json(w).map_err(|source| OutputError::Write { path: trace_path.clone(), source })?;
    let vcd = stream_vcd(o).map_err(|e| match e {
        VcdFailure::Spill(e) => OutputError::Spill(e),
        VcdFailure::Vcd(e) => {
            OutputError::Write { path: dir.join("signals.vcd"), source: std::io::Error::other(e.to_string()) }
        }
    })?;
    let (w, vcd_path) = create(dir.join("signals.vcd"))?;
    vcd.write(w).map_err(|source| OutputError::Write { path: vcd_path.clone(), source })?;
    Ok(vec![trace_path, vcd_path])
}
