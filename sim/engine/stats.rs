//! The engine's counters and per-frame samples, and the stats it reports from them (the
//! sample's statistics: tiles in flight, virtual size, pool capacity and occupancy,
//! latency, bottlenecks, per-mip residency and access, CPU time per subsystem).

use super::lifecycle::LATENCY_STAGES;
use super::loads::TailLoads;
use super::report::{Bottleneck, FrameReport};
use super::tiles::TileId;
use super::Engine;
use crate::stats::{percentile, StatSet, LATENCY_POINTS};
use sfsim_models::units::Time;

/// Summaries of every frame's [`FrameReport`] and engine state at the frame's end.
#[derive(Debug, Default)]
struct FrameSamples {
    frames: u64,
    tiles_in_flight_sum: u64,
    tiles_in_flight_max: u64,
    pool_used_max: u32,
    /// Frames stopped by each bottleneck, in [`Bottleneck::ALL`] order.
    bottlenecks: [u64; 4],
    /// Sums of per-frame modeled CPU milliseconds: analysis, sort, submit, MinMip.
    cpu_ms: [f64; 4],
}

#[derive(Debug, Default)]
pub(super) struct EngineCounters {
    pub loads: u64,
    pub evictions: u64,
    /// Tiles requested per mip (feedback accesses, parents included).
    pub access_per_mip: [u64; 16],
    pub tails: TailLoads,
    /// The analysis pass's list of touched tiles, kept for its capacity.
    pub touched: Vec<TileId>,
    frames: FrameSamples,
}

impl EngineCounters {
    pub fn end_frame(&mut self, report: &FrameReport, tiles_in_flight: u64, pool_used: u32) {
        let f = &mut self.frames;
        f.frames += 1;
        f.tiles_in_flight_sum += tiles_in_flight;
        f.tiles_in_flight_max = f.tiles_in_flight_max.max(tiles_in_flight);
        f.pool_used_max = f.pool_used_max.max(pool_used);
        if let Some(b) = report.bottleneck {
            let i = Bottleneck::ALL.iter().position(|x| *x == b).unwrap_or(0);
            f.bottlenecks[i] += 1;
        }
        let cpu = [report.cpu_analysis, report.cpu_sort, report.cpu_submit, report.cpu_minmip];
        for (sum, t) in f.cpu_ms.iter_mut().zip(cpu) {
            *sum += t.as_ms_f64();
        }
    }
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

    /// Tile latencies (first requested → visible), sorted.
    pub fn tile_latencies(&self) -> Vec<Time> {
        let mut l: Vec<Time> =
            self.records().iter().filter_map(|r| r.visible.map(|v| v.saturating_sub(r.requested))).collect();
        l.sort_unstable();
        l
    }

    /// Latency, load, pool, virtual-size, bottleneck and CPU stats; `frame_period` turns
    /// latency into frames.
    pub fn push_stats(&self, s: &mut StatSet, frame_period: Time) {
        let latencies = self.tile_latencies();
        s.push_percentiles_ms("tile.latency", &latencies, &LATENCY_POINTS[..3], |n| {
            format!("tile latency {n}: frame whose feedback first asked for it → visible")
        });
        s.push(
            "tile.latency_frames.p95",
            percentile(&latencies, 95).map(|t| t.0 as f64 / frame_period.0 as f64),
            "frames",
            "tile latency p95 in frames",
        );
        self.push_stage_stats(s);
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
            Some(self.records().iter().filter(|r| r.visible.is_some()).count() as f64),
            "count",
            "tile loads that became visible",
        );
        let f = &c.frames;
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
        for (b, count) in Bottleneck::ALL.iter().zip(f.bottlenecks) {
            s.push(
                &format!("engine.bottleneck.{}", b.name()),
                Some(count as f64 / n),
                "fraction",
                format!("share of frames whose next load was stopped by: {}", b.name()),
            );
        }
        let [analysis, sort, submit, minmip] = f.cpu_ms.map(|ms| ms / n);
        s.push("cpu.analysis", Some(analysis), "ms/frame", "modeled CPU time of feedback analysis per frame");
        s.push("cpu.sort", Some(sort), "ms/frame", "modeled CPU time of sorting Seen Tiles per frame");
        s.push("cpu.submit", Some(submit), "ms/frame", "modeled CPU time of building DirectStorage requests per frame");
        s.push("cpu.minmip", Some(minmip), "ms/frame", "modeled CPU time of MinMip updates per frame");
    }

    /// Mean and p95 of each stage of the visible tiles' latency (the means add up to the
    /// mean tile latency).
    fn push_stage_stats(&self, s: &mut StatSet) {
        let visible: Vec<_> = self.records().iter().filter(|r| r.visible.is_some()).collect();
        for stage in &LATENCY_STAGES {
            let mut lengths: Vec<Time> = visible.iter().filter_map(|r| (stage.length)(r)).collect();
            lengths.sort_unstable();
            let total: u128 = lengths.iter().map(|t| u128::from(t.0)).sum();
            let mean = (!lengths.is_empty()).then(|| total as f64 / lengths.len() as f64 / 1e9);
            s.push(
                &format!("tile.stage.{}.mean", stage.name),
                mean,
                "ms",
                format!("tile latency stage, mean over visible tiles: {}", stage.spans),
            );
            s.push(
                &format!("tile.stage.{}.p95", stage.name),
                percentile(&lengths, 95).map(|t| t.as_ms_f64()),
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
