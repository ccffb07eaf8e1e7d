//! The engine's counters and per-frame samples, and the stats it reports from them (the
//! sample's statistics: tiles in flight, virtual size, pool capacity and occupancy,
//! latency, bottlenecks, per-mip residency and access, CPU time per subsystem).

use super::frame_reports::ReportTotals;
use super::lifecycle::LATENCY_STAGES;
use super::loads::TailLoads;
use super::report::Bottleneck;
use super::tiles::TileId;
use super::Engine;
use crate::stats::{StatSet, LATENCY_POINTS};
use sfsim_models::units::Time;

#[derive(Debug, Default)]
pub(super) struct EngineCounters {
    pub loads: u64,
    pub evictions: u64,
    /// Tiles requested per mip (feedback accesses, parents included).
    pub access_per_mip: [u64; 16],
    pub tails: TailLoads,
    /// The analysis pass's list of touched tiles, kept for its capacity.
    pub touched: Vec<TileId>,
}

impl Engine {
    /// Loads submitted (DirectStorage requests of one or more tiles).
    pub fn loads(&self) -> u64 {
        self.counters.loads
    }

    /// Tiles evicted (unmapped and freed).
    pub fn evictions(&self) -> u64 {
        self.counters.evictions
    }

    /// Packed-tail requests made at creation (one per texture with a tail).
    pub fn tail_requests(&self) -> u32 {
        self.counters.tails.requests
    }

    /// Compressed bytes of the packed tails read at creation.
    pub fn tail_bytes(&self) -> u64 {
        self.counters.tails.bytes
    }

    /// When the last packed tail reached memory.
    pub fn tails_loaded_at(&self) -> Option<Time> {
        self.counters.tails.loaded_at
    }

    /// Feedback requests per mip (parents included).
    pub fn access_per_mip(&self) -> &[u64; 16] {
        &self.counters.access_per_mip
    }

    /// Tile latencies (first requested → visible) of the loads finished so far (all of
    /// them once the run is over), sorted: every one up to
    /// [`EXACT_SAMPLES`](crate::stats::EXACT_SAMPLES), else that many quantiles.
    pub fn tile_latencies(&self) -> Vec<Time> {
        self.db.records().summary().latencies.cdf_samples(crate::stats::EXACT_SAMPLES)
    }

    /// Latency, load, pool, virtual-size, bottleneck and CPU stats; `frame_period` turns
    /// latency into frames.
    pub fn push_stats(&self, s: &mut StatSet, frame_period: Time) {
        let mut latencies = self.db.records().summary().latencies.clone();
        s.push_latency_percentiles_ms("tile.latency", &mut latencies, &LATENCY_POINTS[..3], |n| {
            format!("tile latency {n}: render start of the frame whose feedback first asked for it → visible")
        });
        s.push(
            "tile.latency_frames.p95",
            latencies.percentile(95).map(|t| t.0 as f64 / frame_period.0 as f64),
            "frames",
            "tile latency p95 in frames",
        );
        self.push_stage_stats(s);
        self.push_retry_stats(s);
        let c = &self.counters;
        s.push("engine.loads", Some(c.loads as f64), "count", "DirectStorage tile loads submitted");
        s.push(
            "engine.tail_bytes",
            Some(c.tails.bytes as f64 / 1e6),
            "MB",
            "compressed packed mip tails read at texture creation",
        );
        s.push(
            "engine.tails_loaded_at",
            c.tails.loaded_at.map(|t| t.as_ms_f64()),
            "ms",
            "when the last packed mip tail reached memory",
        );
        s.push("engine.evictions", Some(c.evictions as f64), "count", "tiles evicted (unmapped and freed)");
        s.push(
            "engine.tiles_loaded",
            Some(self.db.records().summary().visible() as f64),
            "count",
            "tile loads that became visible",
        );
        let f = self.reports.totals();
        let n = f.frames.max(1) as f64;
        s.push(
            "engine.tiles_in_flight.max",
            Some(f.tiles_in_flight_max as f64),
            "tiles",
            "most tiles between submission and completion at a frame start",
        );
        s.push(
            "engine.tiles_in_flight.mean",
            Some(f.tiles_in_flight_sum as f64 / n),
            "tiles",
            "tiles in flight, mean over frames",
        );
        let capacity = f64::from(self.pool_capacity());
        s.push("pool.capacity", Some(capacity), "tiles", "64 KiB slots in the tile pool");
        s.push(
            "pool.occupancy.max",
            Some(f64::from(f.pool_used_max) / capacity.max(1.0)),
            "fraction",
            "highest share of pool slots in use",
        );
        s.push(
            "pool.occupancy.final",
            Some(f64::from(self.pool_used()) / capacity.max(1.0)),
            "fraction",
            "share of pool slots in use at the end",
        );
        let virtual_bytes: u64 = (0..self.db.texture_count()).map(|t| self.db.desc(t).virtual_bytes()).sum();
        s.push(
            "scene.virtual_size",
            Some(virtual_bytes as f64 / 1e9),
            "GB",
            "total virtual size of all textures (tiles × 64 KiB)",
        );
        for (b, count) in Bottleneck::ALL.into_iter().zip(f.stops) {
            s.push(
                &format!("engine.submission_stop.{}", b.name()),
                Some(count as f64 / n),
                "fraction",
                format!("share of frames whose submission pass stopped on: {}", b.name()),
            );
        }
        let [analysis, sort, submit, minmip, render, feedback] = f.ms.map(|sum| sum / n);
        s.push("cpu.analysis", Some(analysis), "ms/frame", "modeled CPU time of feedback analysis per frame");
        s.push("cpu.sort", Some(sort), "ms/frame", "modeled CPU time of sorting Seen Tiles per frame");
        s.push("cpu.submit", Some(submit), "ms/frame", "modeled CPU time of building DirectStorage requests per frame");
        s.push("cpu.minmip", Some(minmip), "ms/frame", "modeled CPU time of MinMip updates per frame");
        self.push_timeline_stats(s, &f, [render, feedback]);
    }

    /// The frame timeline: GPU time per frame, how busy each queue and thread was, and how
    /// many frames overran.
    fn push_timeline_stats(&self, s: &mut StatSet, f: &ReportTotals, [render, feedback]: [f64; 2]) {
        let t = &self.timeline;
        let n_frames = f.frames.max(1) as f64;
        s.push("gpu.render", Some(render), "ms/frame", "modeled GPU time of the frame's render");
        s.push(
            "gpu.feedback",
            Some(feedback),
            "ms/frame",
            "modeled GPU time of the feedback resolve and copy (and GpuAnalysis's pass)",
        );
        let budgeted = self.cfg.gpu.feedback_budget.is_some();
        s.push(
            "gpu.feedback_maps",
            budgeted.then(|| f.feedback_maps / n_frames),
            "maps/frame",
            "feedback maps resolved per frame within engine.gpu.feedback_budget (null without a budget)",
        );
        let span = f.frames * self.frame_period.0;
        let share = |busy: Time| Some(if span == 0 { 0.0 } else { busy.0 as f64 / span as f64 });
        s.push("gpu.busy", share(t.gpu.busy()), "fraction", "share of the run the GPU direct queue was busy");
        s.push("gpu.copy_busy", share(t.copy.busy()), "fraction", "share of the run the GPU copy queue was busy");
        s.push(
            "cpu.feedback_thread_busy",
            share(t.feedback_thread.busy()),
            "fraction",
            "share of the run the engine's feedback thread was busy (analysis, sort, submission)",
        );
        s.push(
            "cpu.streaming_thread_busy",
            share(t.streaming_thread.busy()),
            "fraction",
            "share of the run the streaming thread was busy (StreamingThread only)",
        );
        s.push(
            "cpu.begin_frame",
            Some(t.begin_frame_cpu.as_ms_f64() / n_frames),
            "ms/frame",
            "modeled CPU time of BeginFrame on the render thread (MinMip updates, evictions)",
        );
        s.push(
            "cpu.passes_late",
            Some(t.passes_late as f64),
            "frames",
            "feedback passes that ended after their frame's budget (engine.cpu.frame_budget)",
        );
        s.push(
            "gpu.renders_late",
            Some(t.renders_late as f64),
            "frames",
            "frames whose render began more than a frame period after the frame started",
        );
    }

    /// Mean and p95 of each stage of the visible tiles' latency (the means add up to the
    /// mean tile latency).
    fn push_stage_stats(&self, s: &mut StatSet) {
        let stages = &self.db.records().summary().stages;
        for (i, stage) in LATENCY_STAGES.iter().enumerate() {
            let (mean, p95) = match stages.get(i) {
                Some((lengths, total)) if !lengths.is_empty() => {
                    (Some(*total as f64 / lengths.len() as f64 / 1e9), lengths.percentile_of(95))
                }
                _ => (None, None),
            };
            s.push(
                &format!("tile.stage.{}.mean", stage.name),
                mean,
                "ms",
                format!("tile latency stage, mean over visible tiles: {}", stage.spans),
            );
            s.push(
                &format!("tile.stage.{}.p95", stage.name),
                p95.map(|t| t.as_ms_f64()),
                "ms",
                format!("tile latency stage p95: {}", stage.spans),
            );
        }
    }

    /// Per-mip residency at the end and feedback accesses over the run, then the policies'
    /// own stats.
    pub fn push_mip_stats(&self, s: &mut StatSet) {
        for (mip, count) in self.residency_per_mip().iter().enumerate().filter(|(_, c)| **c > 0) {
            s.push(
                &format!("residency.mip{mip}"),
                Some(*count as f64),
                "tiles",
                format!("tiles of mip {mip} resident at the end"),
            );
        }
        for (mip, count) in self.counters.access_per_mip.iter().enumerate().filter(|(_, c)| **c > 0) {
            s.push(
                &format!("access.mip{mip}"),
                Some(*count as f64),
                "requests",
                format!("feedback requests for mip {mip} tiles (parents included)"),
            );
        }
        self.policies.eviction.push_stats(s);
    }
}
