//! What a streaming run gives back: its outcome (stats, frames.csv rows, the engine with
//! its tile records, latencies, trace spans), a frames.csv row, and why a run stopped.

use super::stream::MIP_COLUMNS;
use crate::engine::{Engine, EngineError, FrameReport, Verifier};
use crate::scene::FrameStats;
use crate::stats::StatSet;
use crate::workload::attribution::Resource;
use crate::workload::frame_rows::{FrameReader, FrameRows};
use crate::workload::io_records::TraceSpans;
use crate::workload::render::RenderError;
use sfsim_models::texture::TileCoord;
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// A streaming run that could not complete.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The scene, camera, renderer or hardware could not be set up.
    #[error(transparent)]
    Setup(#[from] RenderError),
    /// The engine stopped: a content model or policy returned something invalid.
    #[error("{0}")]
    Engine(#[from] EngineError),
    /// A background title's request was refused at enqueue.
    #[error("background: {0}")]
    Background(#[from] crate::workload::io::RunError),
    /// Finished rows could not be written to (or read back from) their spill file.
    #[error(transparent)]
    Spill(#[from] crate::spill::SpillError),
}

impl From<ConfigError> for StreamError {
    fn from(e: ConfigError) -> Self {
        StreamError::Setup(RenderError::Config(e))
    }
}

/// One row of frames.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamFrame {
    pub frame: u64,
    pub time: Time,
    pub sampler: FrameStats,
    pub engine: FrameReport,
    pub tiles_in_flight: u64,
    pub pool_used: u32,
    pub staging_used: u64,
    pub io_waiting: u64,
    pub nvme_bytes: u64,
    pub mdu_in: u64,
    pub mdu_out: u64,
    /// Tiles resident per mip at the frame's start (mips ≥ 7 counted in the last).
    pub resident_by_mip: [u64; MIP_COLUMNS],
    /// Tile requests per mip found by analysis while this frame was the latest.
    pub requested_by_mip: [u64; MIP_COLUMNS],
    /// What held tiles back this frame (see `attribution`).
    pub bottleneck: Resource,
}

impl StreamOutcome {
    /// Tile coordinates of a database id.
    pub fn engine_tile_coord(&self, id: crate::engine::TileId) -> TileCoord {
        self.engine.tile_coord(id)
    }

    /// frames.csv's rows in order, read back one at a time.
    pub fn frame_rows(&self) -> FrameReader<'_> {
        self.frames.read()
    }

    /// Every frames.csv row at once (tests and short runs: an hour holds ~100 k).
    pub fn frames(&self) -> Result<Vec<StreamFrame>, crate::spill::SpillError> {
        self.frame_rows().collect()
    }
}

pub struct StreamOutcome {
    pub stats: StatSet,
    /// frames.csv's rows, spilled as frames finished: read them with
    /// [`frame_rows`](Self::frame_rows) or [`frames`](Self::frames).
    pub frames: FrameRows,
    pub engine: Engine,
    pub pool_capacity: u32,
    pub frame_period: Time,
    pub tile_latencies: Vec<Time>,
    /// Engine requests' latency, enqueue → data in the pool (exact up to a cap).
    pub request_latencies: crate::stats::Latencies,
    /// The drive transfers and MDU jobs trace.json draws (the first
    /// [`io_records::TRACE_SPANS`](crate::workload::io_records::TRACE_SPANS) of each).
    pub trace_spans: TraceSpans,
    pub events: u64,
    /// Packed content's verification counts (None for synthetic content).
    pub verifier: Option<Verifier>,
}
