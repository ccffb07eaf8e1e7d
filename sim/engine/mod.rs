//! The Sampler Feedback Streaming engine (SPEC §5), co-simulated with the IO path and the
//! sampler. Per frame: MinMip updates for tiles that completed → evictions → (the caller
//! renders, writing feedback) → feedback read back `readback_frames` later is analysed
//! against the tile database → Seen Tiles sorted → loads submitted while staging memory
//! and a pool slot are both available → DirectStorage requests and, in parallel,
//! UpdateTileMappings → Complete Tiles → visible at the next frame.
//!
//! The engine is split by concern: the tile database ([`TileDb`]), the pool, the mapping
//! queue, the requests in flight, the CPU MinMip copy, and the counters behind its stats.
//! What may be swapped is a policy behind a trait, one folder per kind: [`eviction`],
//! [`load_order`], [`feedback`] — chosen by the scenario's selector enums, or passed in
//! as [`Policies`] from outside the crate.

mod analysis;
mod config;
mod content;
mod corrupt;
mod error;
pub mod eviction;
pub mod feedback;
mod frame;
mod frame_reports;
mod invariants;
mod lifecycle;
pub mod load_order;
mod loads;
mod mapping;
mod minmip;
mod packed;
mod pass;
mod pool;
mod queries;
mod records;
mod report;
mod resident;
mod retry;
mod stats;
mod submit;
mod tiles;
mod timeline;
mod verifier;

pub use config::{CpuCosts, EngineConfig};
pub use content::{ContentConfig, ContentModel, FileLayout, SyntheticContent, SyntheticFiles, TileStream};
pub use corrupt::CorruptCheck;
pub use error::EngineError;
pub use eviction::{EvictionKind, EvictionPolicy};
pub use feedback::{FeedbackPolicy, FeedbackPolicyKind, TextureGroup};
pub use frame_reports::{decode as decode_report, encode as encode_report, ReportTotals, REPORT_BYTES};
pub use lifecycle::{LatencyStage, TileRecord, LATENCY_STAGES};
pub use load_order::{LoadOrder, LoadOrderKind, SeenTile};
pub use packed::{PackedConfig, PackedContent, Verify};
pub use records::{
    decode as decode_record, encode as encode_record, RecordReader, RecordStore, RecordSummary, RECORD_BYTES,
};
pub use report::{Bottleneck, FrameReport};
pub use retry::RetryConfig;
pub use tiles::{Status, TileDb, TileId, TileState};
pub use timeline::{Completions, FrameGpu, FrameWork, GpuCosts, QueueSpans};
pub use verifier::Verifier;

use crate::iopath::{Completed, IoPath};
use frame_reports::FrameReports;
use loads::{request_for, InFlight, InFlightRequests};
use mapping::MappingQueue;
use minmip::MinMipMaps;
use pass::FeedbackThread;
use pool::TilePool;
use resident::ResidentList;
use sfsim_models::nvme::IoStatus;
use sfsim_models::texture::{TextureDesc, TileCoord};
use sfsim_models::units::{Bytes, Time};
use stats::EngineCounters;
use std::collections::VecDeque;
use timeline::Timeline;

/// The engine's three policies, built from the scenario's selectors or supplied by the
/// caller (a policy written outside the crate).
pub struct Policies {
    /// When resident tiles leave the pool.
    pub eviction: Box<dyn EvictionPolicy>,
    /// Which Seen Tiles load first.
    pub load_order: Box<dyn LoadOrder>,
    /// Which textures have feedback maps and what one request covers.
    pub feedback: Box<dyn FeedbackPolicy>,
}

impl Policies {
    /// The policies the config's selectors name (errors name the field relative to
    /// `engine`).
    pub fn from_config(cfg: &EngineConfig) -> Result<Policies, sfsim_models::ConfigError> {
        Ok(Policies {
            eviction: cfg.eviction.build().map_err(|e| e.within("eviction"))?,
            load_order: cfg.load_order.build(),
            feedback: cfg.feedback.build(),
        })
    }
}

/// The sample's tile lists.
struct TileLists {
    /// "Seen Tiles": requested, waiting for staging memory and a pool slot.
    seen: Vec<TileId>,
    /// Seen tiles whose last load failed, waiting out their back-off before they rejoin
    /// `seen` (kept apart: a submission pass rewrites `seen` when it ends).
    backing_off: Vec<TileId>,
    /// "Complete Tiles": loaded and mapped, visible from the next frame.
    complete: Vec<TileId>,
    /// Visible through the MinMip map (unordered: policies sort what they need).
    resident: ResidentList,
    /// `PerFrame`: tiles whose MinMip update rides in the frame being recorded.
    showing: Vec<TileId>,
    /// `StreamingThread`: MinMip uploads on the copy queue, when each lands and its tiles.
    uploading: VecDeque<(Time, Vec<TileId>)>,
}

impl TileLists {
    fn new(db: &TileDb) -> TileLists {
        TileLists {
            seen: Vec::new(),
            backing_off: Vec::new(),
            complete: Vec::new(),
            resident: ResidentList::new(db),
            showing: Vec::new(),
            uploading: VecDeque::new(),
        }
    }
}

/// The streaming engine, a self-timed component of its owner's event loop. Drive it with
/// [`begin_frame`](Engine::begin_frame) and [`end_frame`](Engine::end_frame) around each
/// frame's render, hand it the IO path's completions
/// ([`io_completed`](Engine::io_completed)) as they happen, and call
/// [`advance`](Engine::advance) at every time [`next_event`](Engine::next_event) names:
/// its threads' work (analysis, submissions, MinMip uploads) and mapping completions
/// happen there.
pub struct Engine {
    cfg: EngineConfig,
    db: TileDb,
    minmip: MinMipMaps,
    lists: TileLists,
    pool: TilePool,
    requests: InFlightRequests,
    mapping: MappingQueue,
    feedback: FeedbackThread,
    timeline: Timeline,
    frame_period: Time,
    /// One report per frame begun (a frame's pass may finish after the next frame began).
    reports: FrameReports,
    policies: Policies,
    content: Box<dyn ContentModel>,
    counters: EngineCounters,
    retry: retry::Retries,
}

impl Engine {
    /// An engine over `textures` (scene order: texture `t` is kind `t % 3` of set `t / 3`)
    /// with a staging buffer of `staging`, tile sizes from `content`, and `policies`, for
    /// frames `frame_period` apart (the feedback thread's default budget).
    pub fn new(
        cfg: &EngineConfig,
        textures: &[TextureDesc],
        staging: Bytes,
        content: Box<dyn ContentModel>,
        policies: Policies,
        frame_period: Time,
    ) -> Engine {
        let db = TileDb::new(textures);
        Engine {
            cfg: *cfg,
            minmip: MinMipMaps::new(&db),
            lists: TileLists::new(&db),
            db,
            pool: TilePool::new(cfg.pool_slots()),
            requests: InFlightRequests::new(staging),
            mapping: MappingQueue::new(cfg.mapping_call, cfg.mapping_per_tile),
            feedback: FeedbackThread::default(),
            timeline: Timeline::default(),
            frame_period,
            reports: FrameReports::default(),
            policies,
            content,
            counters: EngineCounters::default(),
            retry: retry::Retries::default(),
        }
    }

    /// SPEC §5 step 1: every texture's packed mip tail is read through the IO path at
    /// creation (it lives outside the tile pool and stays resident).
    pub fn load_tails(&mut self, now: Time, io: &mut IoPath) -> Result<(), EngineError> {
        for t in 0..self.db.texture_count() {
            if self.db.desc(t).packed_tail_tiles() > 0 {
                self.counters.tails.requests += 1;
                self.enqueue_tail(now, t, 0, io)?;
            }
        }
        Ok(())
    }

    /// Reads texture `t`'s packed tail (after `failures` failed reads of it).
    fn enqueue_tail(&mut self, now: Time, t: u32, failures: u32, io: &mut IoPath) -> Result<(), EngineError> {
        let desc = *self.db.desc(t);
        let first = TileCoord { mip: desc.first_packed_mip(), x: 0, y: 0 };
        let one = self.content.stream(t, desc.format, first);
        // The tail's tiles are one stream each, stored back to back.
        let request = request_for(&vec![one; desc.packed_tail_tiles() as usize]);
        let invalid = |source| EngineError::InvalidRequest { texture: t, tile: first, what: "packed tail", source };
        request.validate().map_err(invalid)?;
        self.counters.tails.bytes += request.source_size.0;
        let tag = self.requests.add(InFlight::Tail { texture: t, failures });
        io.enqueue(now, request, tag).map_err(invalid)
    }

    /// Evicts `victims` (the next UpdateTileMappings call unmaps them) and takes them out of
    /// the CPU MinMip copies; returns their textures, sorted and deduplicated, whose maps
    /// the caller copies to the GPU.
    fn evict(&mut self, now: Time, victims: &[TileId]) -> Result<Vec<u32>, EngineError> {
        if victims.is_empty() {
            return Ok(Vec::new());
        }
        for &id in victims {
            self.minmip.unmap(id.texture, self.db.coord(id));
            self.evict_one(id, now)?;
            self.lists.resident.remove(&self.db, id);
        }
        self.mapping.unmap(victims.len());
        let mut textures: Vec<u32> = victims.iter().map(|id| id.texture).collect();
        textures.sort_unstable();
        textures.dedup();
        Ok(textures)
    }

    fn evict_one(&mut self, id: TileId, now: Time) -> Result<(), EngineError> {
        let state = *self.db.state(id);
        let Some(slot) = state.slot.filter(|_| state.status == Status::Resident) else {
            return Err(EngineError::Policy {
                policy: self.policies.eviction.name(),
                tile: id,
                mip: self.db.coord(id).mip,
                rule: format!("named for eviction but it is {:?}, not Resident (or named twice)", state.status),
            });
        };
        self.pool.give_back(slot, id)?;
        if let Some(r) = self.db.record_mut(id) {
            r.evicted = Some(now);
        }
        self.db.forget(id);
        self.policies.eviction.evicted(id);
        self.counters.evictions += 1;
        Ok(())
    }

    /// Marks mappings finished by `now`.
    fn mappings_done(&mut self, now: Time) {
        while let Some((end, ids)) = self.mapping.pop_done(now) {
            for id in ids {
                if self.db.state(id).failed {
                    self.release_failed(id, end);
                    continue;
                }
                if let Some(r) = self.db.record_mut(id) {
                    r.mapped = Some(end);
                }
                self.db.state_mut(id).mapped = true;
                self.maybe_complete(id);
            }
        }
    }

    fn maybe_complete(&mut self, id: TileId) {
        let s = self.db.state(id);
        if s.status == Status::Loading && s.io_done && s.mapped {
            self.db.state_mut(id).status = Status::Complete;
            self.lists.complete.push(id);
        }
    }

    /// The tile a request in flight loads (`None` for a packed tail or an unknown tag).
    pub fn tile_of_request(&self, tag: u64) -> Option<TileId> {
        self.requests.tile_of(tag)
    }

    /// A request's data reached memory; returns the tiles it carried (none for a tail, a
    /// failed request or a request the engine did not make).
    pub fn io_completed(&mut self, c: &Completed) -> Vec<TileId> {
        if c.status != IoStatus::Ok {
            if let Some(what) = self.requests.complete(c.tag) {
                self.load_failed(c, what);
            }
            return Vec::new();
        }
        match self.requests.complete(c.tag) {
            Some(InFlight::Tail { .. }) => {
                if self.requests.tails_pending() == 0 && self.retry.tails.is_empty() {
                    self.counters.tails.loaded_at = Some(c.done);
                }
                Vec::new()
            }
            Some(InFlight::Tile { tile, .. }) => {
                if let Some(r) = self.db.record_mut(tile) {
                    r.issued = Some(c.issued);
                    r.read = Some(c.read);
                    r.decompressed = Some(c.done);
                }
                let s = self.db.state_mut(tile);
                s.io_done = true;
                s.failures = 0;
                self.maybe_complete(tile);
                vec![tile]
            }
            None => Vec::new(),
        }
    }
}
