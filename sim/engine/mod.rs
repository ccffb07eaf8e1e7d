//! The Sampler Feedback Streaming engine (SPEC §5), co-simulated with the IO path and the
//! sampler. Per frame: MinMip updates for tiles that completed → evictions → (the caller
//! renders, writing feedback) → feedback read back `readback_frames` later is analysed
//! against the tile database → Seen Tiles sorted → loads submitted while staging memory
//! and a pool slot are both available → DirectStorage requests and, in parallel,
//! UpdateTileMappings → Complete Tiles → visible at the next frame.

mod config;
mod content;
mod invariants;
mod lifecycle;
mod packed;
mod tiles;

pub use config::{CpuCosts, EngineConfig, Eviction, FeedbackPolicy, LoadOrder};
pub use content::{ContentConfig, ContentModel, SyntheticContent, TileStream};
pub use lifecycle::TileRecord;
pub use packed::{PackedConfig, PackedContent, Verifier, Verify};
pub use tiles::{Status, TileId};

use crate::iopath::{Completed, IoPath};
use crate::scene::{FeedbackRenderer, Scene};
use sfsim_models::mdu::Stages;
use sfsim_models::nvme::{Request, Source};
use sfsim_models::texture::{TileCoord, TILE_BYTES};
use sfsim_models::units::{Bytes, Time};
use std::collections::{HashMap, VecDeque};
use tiles::TextureTiles;

/// What stopped the next load in a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bottleneck {
    /// Every seen tile was submitted.
    Nothing,
    /// No staging memory for the next tile's compressed bytes.
    Staging,
    /// No free pool slot.
    Pool,
    /// The per-frame upload cap.
    UploadCap,
}

impl Bottleneck {
    pub fn name(self) -> &'static str {
        match self {
            Bottleneck::Nothing => "none",
            Bottleneck::Staging => "staging",
            Bottleneck::Pool => "pool",
            Bottleneck::UploadCap => "upload_cap",
        }
    }
}

/// The engine's side of one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameReport {
    pub loads: u32,
    pub evictions: u32,
    pub became_visible: u32,
    pub seen_list: u32,
    pub bottleneck: Option<Bottleneck>,
    /// Feedback texels analysed this frame.
    pub texels_analysed: u64,
    /// Modeled CPU time per subsystem.
    pub cpu_analysis: Time,
    pub cpu_sort: Time,
    pub cpu_submit: Time,
    pub cpu_minmip: Time,
}

/// One DirectStorage request of one or more tiles (a set's tiles load together).
struct Load {
    tiles: Vec<TileId>,
    compressed: u64,
}

pub struct Engine {
    cfg: EngineConfig,
    textures: Vec<TextureTiles>,
    /// Texture set and kind (0 diffuse, 1 normal, 2 specular) of each texture.
    set_kind: Vec<(u32, u32)>,
    seen: Vec<TileId>,
    complete: Vec<TileId>,
    resident: Vec<TileId>,
    free_slots: Vec<u32>,
    slot_owner: Vec<Option<TileId>>,
    staging_capacity: u64,
    staging_used: u64,
    loads: HashMap<u64, Load>,
    next_load: u64,
    mapping_free_at: Time,
    mappings: VecDeque<(Time, Vec<TileId>)>,
    /// Tiles whose `referenced` flag this analysis pass set (so it resets only those).
    referenced: Vec<TileId>,
    /// Feedback waiting for readback: (frame time it was written, requested tiles).
    readback: VecDeque<(Time, Vec<(u32, TileCoord)>)>,
    content: Box<dyn ContentModel>,
    pub records: Vec<TileRecord>,
    /// Tiles requested per mip (feedback accesses, parents included).
    pub access_per_mip: Vec<u64>,
    pub total_loads: u64,
    pub total_evictions: u64,
    /// Packed-tail loads not yet in memory, and when the last one arrived.
    tails_pending: u32,
    pub tails_loaded_at: Option<Time>,
    pub tail_bytes: u64,
    /// Packed-tail requests made at creation (one per texture with a tail).
    pub tail_requests: u32,
}

/// Tags of packed-tail requests (tile loads count up from 0).
const TAIL_TAG: u64 = 1 << 62;

impl Engine {
    pub fn new(cfg: &EngineConfig, scene: &Scene, staging: Bytes, content: Box<dyn ContentModel>) -> Engine {
        let slots = cfg.pool_slots();
        Engine {
            cfg: *cfg,
            textures: scene.textures.iter().map(|d| TextureTiles::new(*d)).collect(),
            set_kind: (0..scene.textures.len() as u32).map(|t| (t / 3, t % 3)).collect(),
            seen: Vec::new(),
            complete: Vec::new(),
            resident: Vec::new(),
            free_slots: (0..slots).rev().collect(),
            slot_owner: vec![None; slots as usize],
            staging_capacity: staging.0,
            staging_used: 0,
            loads: HashMap::new(),
            next_load: 0,
            mapping_free_at: Time::ZERO,
            mappings: VecDeque::new(),
            readback: VecDeque::new(),
            referenced: Vec::new(),
            content,
            records: Vec::new(),
            access_per_mip: vec![0; 16],
            total_loads: 0,
            total_evictions: 0,
            tails_pending: 0,
            tails_loaded_at: None,
            tail_bytes: 0,
            tail_requests: 0,
        }
    }

    /// SPEC §5 step 1: every texture's packed mip tail is read through the IO path at
    /// creation (it lives outside the tile pool and stays resident).
    pub fn load_tails(&mut self, now: Time, io: &mut IoPath) {
        for (t, tex) in self.textures.iter().enumerate() {
            let tiles = tex.desc.packed_tail_tiles();
            if tiles == 0 {
                continue;
            }
            let first = TileCoord { mip: tex.desc.first_packed_mip(), x: 0, y: 0 };
            let one = self.content.stream(t as u32, tex.desc.format, first);
            let n = u64::from(tiles);
            let request = Request {
                source: Source::File { offset: one.offset },
                source_size: Bytes(one.compressed.0 * n),
                intermediate_size: Bytes(one.intermediate.0 * n),
                destination_size: Bytes(TILE_BYTES * n),
                options: one.options,
                fill: false,
            };
            self.tail_bytes += request.source_size.0;
            self.tails_pending += 1;
            self.tail_requests += 1;
            io.enqueue(now, request, TAIL_TAG + t as u64).expect("content model makes valid DirectStorage requests");
        }
    }

    pub fn config(&self) -> &EngineConfig {
        &self.cfg
    }

    /// Initial MinMip maps (the packed tail) into the renderer: SPEC §5 step 1.
    pub fn init_minmip(&self, renderer: &mut FeedbackRenderer) {
        for (t, tex) in self.textures.iter().enumerate() {
            let map = renderer.minmip_mut(t as u32);
            for (i, v) in tex.minmip.iter().enumerate() {
                let (w, _) = tex.minmip_dims;
                map.set(i as u32 % w, i as u32 / w, sfsim_models::gpu::Lod53(*v));
            }
        }
    }

    pub fn pool_capacity(&self) -> u32 {
        self.slot_owner.len() as u32
    }
    pub fn pool_used(&self) -> u32 {
        self.pool_capacity() - self.free_slots.len() as u32
    }
    pub fn staging_used(&self) -> u64 {
        self.staging_used
    }
    /// Loads submitted and not yet complete.
    pub fn tiles_in_flight(&self) -> usize {
        self.loads.values().map(|l| l.tiles.len()).sum()
    }
    pub fn state(&self, id: TileId) -> &tiles::TileState {
        &self.textures[id.texture as usize].states[id.index as usize]
    }
    fn state_mut(&mut self, id: TileId) -> &mut tiles::TileState {
        &mut self.textures[id.texture as usize].states[id.index as usize]
    }
    /// Tile coordinates of a database id.
    pub fn tile_coord(&self, id: TileId) -> TileCoord {
        self.coord(id)
    }

    fn coord(&self, id: TileId) -> TileCoord {
        self.textures[id.texture as usize].desc.tile_from_index(id.index)
    }

    /// Resident tiles per mip.
    pub fn residency_per_mip(&self) -> Vec<u64> {
        let mut per = vec![0u64; 16];
        for id in &self.resident {
            per[(self.coord(*id).mip as usize).min(15)] += 1;
        }
        per
    }

    /// MinMip value (5.3) the CPU copy holds at a texel, for invariant checks.
    pub fn minmip_value(&self, texture: u32, x: u32, y: u32) -> u8 {
        let t = &self.textures[texture as usize];
        t.minmip[(y * t.minmip_dims.0 + x) as usize]
    }

    pub fn minmip_dims(&self, texture: u32) -> (u32, u32) {
        self.textures[texture as usize].minmip_dims
    }

    pub fn texture_count(&self) -> u32 {
        self.textures.len() as u32
    }

    /// Start of frame: tiles completed since the last frame become visible (MinMip update
    /// on the CPU copy, copied to the GPU maps), then evictions.
    pub fn begin_frame(
        &mut self,
        now: Time,
        renderer: &mut FeedbackRenderer,
        io: &mut IoPath,
        report: &mut FrameReport,
    ) {
        let mut texels = 0u64;
        let mut touched: Vec<u32> = Vec::new();
        for id in std::mem::take(&mut self.complete) {
            self.state_mut(id).status = Status::Resident;
            let record = self.state(id).record;
            self.records[record as usize].visible = Some(now);
            self.resident.push(id);
            report.became_visible += 1;
            touched.push(id.texture);
        }
        // Update after every status change so each texel sees the final residency.
        for &t in &touched {
            texels += self.refresh_texture_minmip(t);
        }
        self.evict(now, io, report, &mut touched, &mut texels);
        touched.sort_unstable();
        touched.dedup();
        for t in touched {
            self.copy_minmip_to_gpu(t, renderer);
        }
        report.cpu_minmip += Time(self.cfg.cpu.minmip_per_texel.0 * texels);
        let _ = io;
    }

    fn refresh_texture_minmip(&mut self, texture: u32) -> u64 {
        let tex = &mut self.textures[texture as usize];
        let (w, h) = tex.minmip_dims;
        let mut n = 0;
        // One pass over the whole map: the map has one texel per mip-0 tile (≤ 64×32).
        for y in 0..h {
            for x in 0..w {
                n += u64::from(tex.update_minmip(TileCoord { mip: 0, x, y }));
            }
        }
        n
    }

    fn copy_minmip_to_gpu(&self, texture: u32, renderer: &mut FeedbackRenderer) {
        let tex = &self.textures[texture as usize];
        let (w, _) = tex.minmip_dims;
        let map = renderer.minmip_mut(texture);
        for (i, v) in tex.minmip.iter().enumerate() {
            map.set(i as u32 % w, i as u32 / w, sfsim_models::gpu::Lod53(*v));
        }
    }

    fn evict(
        &mut self,
        now: Time,
        io: &mut IoPath,
        report: &mut FrameReport,
        touched: &mut Vec<u32>,
        texels: &mut u64,
    ) {
        let victims: Vec<TileId> = match self.cfg.eviction {
            Eviction::Timeout { after } => {
                self.sort_resident();
                self.resident
                    .iter()
                    .copied()
                    .take_while(|id| now.saturating_sub(self.state(*id).last_seen) > after)
                    .collect()
            }
            Eviction::RefCount { frames } => {
                let mut v: Vec<TileId> =
                    self.resident.iter().copied().filter(|id| self.state(*id).unreferenced_frames > frames).collect();
                v.sort_by_key(|id| (self.coord(*id).mip, *id));
                v
            }
            // Standby tiles stay mapped until a load needs their slot.
            Eviction::Standby { .. } => Vec::new(),
        };
        if victims.is_empty() {
            return;
        }
        for id in &victims {
            self.evict_one(*id, now);
            touched.push(id.texture);
        }
        let victims_set: std::collections::HashSet<TileId> = victims.iter().copied().collect();
        self.resident.retain(|id| !victims_set.contains(id));
        report.evictions += victims.len() as u32;
        self.queue_mapping(now, victims.len() as u64, Vec::new());
        let mut done: Vec<u32> = victims.iter().map(|id| id.texture).collect();
        done.sort_unstable();
        done.dedup();
        for t in done {
            *texels += self.refresh_texture_minmip(t);
        }
        let _ = io;
    }

    /// Oldest first; among equals the finest first, so a tile never outlives its parent.
    fn sort_resident(&mut self) {
        let mut keyed: Vec<((Time, u32), TileId)> =
            self.resident.iter().map(|&id| ((self.state(id).last_seen, self.coord(id).mip), id)).collect();
        // Keys end with the unique tile id: an unstable sort gives the one order.
        keyed.sort_unstable();
        self.resident.clear();
        self.resident.extend(keyed.into_iter().map(|(_, id)| id));
    }

    fn evict_one(&mut self, id: TileId, now: Time) {
        let slot = self.state(id).slot;
        assert_eq!(self.slot_owner[slot as usize], Some(id), "pool slot {slot} not held by {id:?}");
        self.slot_owner[slot as usize] = None;
        self.free_slots.push(slot);
        let record = self.state(id).record;
        self.records[record as usize].evicted = Some(now);
        *self.state_mut(id) = tiles::TileState { last_seen: self.state(id).last_seen, ..Default::default() };
        self.total_evictions += 1;
    }

    /// UpdateTileMappings on the serial GPU copy queue; returns when the call finishes.
    fn queue_mapping(&mut self, now: Time, tiles: u64, completes: Vec<TileId>) -> Time {
        let start = now.max(self.mapping_free_at);
        let end = start + self.cfg.mapping_call + Time(self.cfg.mapping_per_tile.0 * tiles);
        self.mapping_free_at = end;
        if !completes.is_empty() {
            self.mappings.push_back((end, completes));
        }
        end
    }

    /// When the next UpdateTileMappings call with tiles to complete finishes.
    pub fn next_mapping_event(&self) -> Option<Time> {
        self.mappings.front().map(|m| m.0)
    }

    /// Marks mappings finished by `now`.
    pub fn mappings_done(&mut self, now: Time) {
        while self.mappings.front().is_some_and(|m| m.0 <= now) {
            let (end, ids) = self.mappings.pop_front().expect("checked");
            for id in ids {
                let record = self.state(id).record;
                self.records[record as usize].mapped = Some(end);
                self.state_mut(id).mapped = true;
                self.maybe_complete(id);
            }
        }
    }

    fn maybe_complete(&mut self, id: TileId) {
        let s = self.state(id);
        if s.status == Status::Loading && s.io_done && s.mapped {
            self.state_mut(id).status = Status::Complete;
            self.complete.push(id);
        }
    }

    /// A load's data reached the pool; returns the tiles it carried (none for a tail).
    pub fn io_completed(&mut self, c: &Completed) -> Vec<TileId> {
        if c.tag >= TAIL_TAG {
            self.tails_pending -= 1;
            if self.tails_pending == 0 {
                self.tails_loaded_at = Some(c.done);
            }
            return Vec::new();
        }
        let Some(load) = self.loads.remove(&c.tag) else { return Vec::new() };
        self.staging_used -= load.compressed;
        for &id in &load.tiles {
            let record = self.state(id).record as usize;
            self.records[record].read = Some(c.read);
            self.records[record].decompressed = Some(c.done);
            self.state_mut(id).io_done = true;
            self.maybe_complete(id);
        }
        load.tiles
    }

    /// End of frame: queue this frame's feedback for readback, analyse the feedback that is
    /// back, then submit loads.
    pub fn end_frame(
        &mut self,
        now: Time,
        requested: Vec<(u32, TileCoord)>,
        io: &mut IoPath,
        renderer: &mut FeedbackRenderer,
        report: &mut FrameReport,
    ) {
        self.readback.push_back((now, requested));
        if self.readback.len() > self.cfg.readback_frames as usize {
            let (written, back) = self.readback.pop_front().expect("non-empty");
            self.analyse(now, written, &back, report);
        }
        let reclaimed = self.submit(now, io, report);
        // Standby tiles reclaimed for this frame's loads leave the MinMip map before their
        // slots are remapped (the GPU copy precedes UpdateTileMappings on the queue).
        for t in reclaimed {
            report.cpu_minmip += Time(self.cfg.cpu.minmip_per_texel.0 * self.refresh_texture_minmip(t));
            self.copy_minmip_to_gpu(t, renderer);
        }
        report.seen_list = self.seen.len() as u32;
    }

    /// Feedback written at `written` asked for `id`.
    fn touch(&mut self, id: TileId, written: Time) {
        let s = self.state_mut(id);
        s.last_seen = s.last_seen.max(written);
        if !s.referenced {
            s.referenced = true;
            self.referenced.push(id);
        }
        let s = self.state(id);
        if s.status == Status::Absent {
            self.state_mut(id).status = Status::Seen;
            self.seen.push(id);
            self.records.push(TileRecord::new(id, written));
            let n = self.records.len() as u32 - 1;
            self.state_mut(id).record = n;
        }
    }

    fn analyse(&mut self, now: Time, written: Time, requested: &[(u32, TileCoord)], report: &mut FrameReport) {
        report.texels_analysed += requested.len() as u64;
        report.cpu_analysis += Time(self.cfg.cpu.analysis_per_texel.0 * requested.len() as u64);
        for &(texture, tile) in requested {
            let from = self.textures[texture as usize].desc;
            let (group, members) = self.group_of(texture);
            for &t in &group[..members] {
                // Each texture's own coarser parents, up to its own packed tail: a set's
                // textures can have different tile shapes and tails.
                let to = self.textures[t as usize].desc;
                let grid = self.textures[t as usize].grid;
                let walk = |this: &mut Self, c: TileCoord| {
                    for mip in c.mip..grid.first_packed_mip() {
                        let shift = mip - c.mip;
                        let coord = TileCoord { mip, x: c.x >> shift, y: c.y >> shift };
                        if t == texture {
                            this.access_per_mip[(mip as usize).min(15)] += 1;
                        }
                        this.touch(TileId { texture: t, index: grid.tile_index(coord) }, written);
                    }
                };
                if t == texture {
                    walk(self, tile);
                } else {
                    for c in companion_tiles(&from, tile, &to) {
                        walk(self, c);
                    }
                }
            }
        }
        // RefCount bookkeeping over everything that holds a slot.
        for id in self.resident.clone() {
            let s = self.state_mut(id);
            s.unreferenced_frames = if s.referenced { 0 } else { s.unreferenced_frames + 1 };
        }
        for id in std::mem::take(&mut self.referenced) {
            self.state_mut(id).referenced = false;
        }
        // Seen tiles nobody asked for within the eviction horizon are dropped.
        let horizon = match self.cfg.eviction {
            Eviction::Timeout { after } | Eviction::Standby { after } => after,
            Eviction::RefCount { .. } => Time::from_secs(1),
        };
        let mut dropped = Vec::new();
        self.seen.retain(|id| {
            let s = &self.textures[id.texture as usize].states[id.index as usize];
            let keep = now.saturating_sub(s.last_seen) <= horizon;
            if !keep {
                dropped.push(*id);
            }
            keep
        });
        for id in dropped {
            *self.state_mut(id) = tiles::TileState { last_seen: self.state(id).last_seen, ..Default::default() };
        }
    }

    /// Textures a request for `texture` applies to: itself, or its whole set when one
    /// feedback map is shared by the set.
    fn group_of(&self, texture: u32) -> ([u32; 3], usize) {
        match self.cfg.feedback {
            FeedbackPolicy::SharedPerSet => {
                let set = self.set_kind[texture as usize].0;
                let members = (self.textures.len() as u32).saturating_sub(set * 3).min(3);
                ([set * 3, set * 3 + 1, set * 3 + 2], members as usize)
            }
            _ => ([texture, 0, 0], 1),
        }
    }

    /// Submits loads; returns the textures whose standby tiles were reclaimed.
    fn submit(&mut self, now: Time, io: &mut IoPath, report: &mut FrameReport) -> Vec<u32> {
        let mut reclaimed_textures = Vec::new();
        let n = self.seen.len() as u64;
        if n > 1 {
            report.cpu_sort += Time(self.cfg.cpu.sort_per_tile.0 * n * u64::from(64 - n.leading_zeros()));
        }
        let keys: Vec<(TileId, u32, Time, Time)> = self
            .seen
            .iter()
            .map(|id| {
                let r = self.state(*id).record;
                (*id, self.coord(*id).mip, self.state(*id).last_seen, self.records[r as usize].requested)
            })
            .collect();
        let mut order: Vec<usize> = (0..keys.len()).collect();
        match self.cfg.load_order {
            LoadOrder::CoarsestFirst => order.sort_by_key(|&i| (std::cmp::Reverse(keys[i].1), keys[i].3, keys[i].0)),
            LoadOrder::RecencyFirst => {
                order.sort_by_key(|&i| (std::cmp::Reverse(keys[i].2), std::cmp::Reverse(keys[i].1), keys[i].0))
            }
        }
        let sorted: Vec<TileId> = order.into_iter().map(|i| keys[i].0).collect();
        let mut submitted = Vec::new();
        let mut stop = Bottleneck::Nothing;
        let mut loaded = vec![false; sorted.len()];
        for (i, id) in sorted.iter().enumerate() {
            if self.state(*id).status != Status::Seen {
                loaded[i] = true;
                continue;
            }
            if self.cfg.upload_cap.is_some_and(|cap| report.loads >= cap) {
                stop = Bottleneck::UploadCap;
                break;
            }
            let mut group = self.load_group(*id);
            let mut streams: Vec<TileStream> = group.iter().map(|g| self.stream_of(*g)).collect();
            // One DirectStorage request runs one set of MDU stages: a companion stored
            // another way (e.g. raw where the rest is compressed) stays Seen and loads on
            // its own. (A set's formats may differ in BcpackMode; the request carries the
            // first tile's, which the timing model does not distinguish.)
            let stages = Stages::from(streams[0].options);
            let keep: Vec<bool> = streams.iter().map(|s| Stages::from(s.options) == stages).collect();
            if keep.contains(&false) {
                let mut k = keep.iter();
                group.retain(|_| *k.next().expect("one flag per tile"));
                streams.retain(|s| Stages::from(s.options) == stages);
            }
            let compressed: u64 = streams.iter().map(|s| s.compressed.0).sum();
            if self.staging_used + compressed > self.staging_capacity {
                stop = Bottleneck::Staging;
                break;
            }
            if !self.reserve_slots(group.len(), now, report, &mut reclaimed_textures) {
                stop = Bottleneck::Pool;
                break;
            }
            self.start_load(now, &group, &streams, io);
            submitted.extend(group.iter().copied());
            report.loads += 1;
            loaded[i] = true;
        }
        self.seen = sorted
            .into_iter()
            .zip(loaded)
            .filter(|(id, l)| !l && self.state(*id).status == Status::Seen)
            .map(|(id, _)| id)
            .collect();
        report.bottleneck = Some(stop);
        report.cpu_submit += Time(self.cfg.cpu.submit_per_request.0 * u64::from(report.loads));
        if !submitted.is_empty() {
            let n = submitted.len() as u64;
            self.queue_mapping(now, n, submitted);
        }
        reclaimed_textures.sort_unstable();
        reclaimed_textures.dedup();
        reclaimed_textures
    }

    /// The tile and, when a set shares feedback, its set companions that still need loading.
    fn load_group(&self, id: TileId) -> Vec<TileId> {
        let mut group = vec![id];
        if self.cfg.feedback == FeedbackPolicy::SharedPerSet {
            let coord = self.coord(id);
            let desc = self.textures[id.texture as usize].desc;
            let (set, members) = self.group_of(id.texture);
            for &t in set[..members].iter().filter(|t| **t != id.texture) {
                let other = &self.textures[t as usize];
                for c in companion_tiles(&desc, coord, &other.desc) {
                    let cid = TileId { texture: t, index: other.grid.tile_index(c) };
                    if matches!(self.state(cid).status, Status::Seen) {
                        group.push(cid);
                    }
                }
            }
        }
        group
    }

    fn stream_of(&self, id: TileId) -> TileStream {
        let desc = &self.textures[id.texture as usize].desc;
        self.content.stream(id.texture, desc.format, desc.tile_from_index(id.index))
    }

    /// Makes `n` slots free, reclaiming standby tiles if the policy allows.
    fn reserve_slots(&mut self, n: usize, now: Time, report: &mut FrameReport, textures: &mut Vec<u32>) -> bool {
        if self.free_slots.len() >= n {
            return true;
        }
        let Eviction::Standby { after } = self.cfg.eviction else { return false };
        self.sort_resident();
        let mut reclaimed = Vec::new();
        for id in self.resident.clone() {
            if self.free_slots.len() >= n {
                break;
            }
            if now.saturating_sub(self.state(id).last_seen) <= after {
                break;
            }
            self.evict_one(id, now);
            reclaimed.push(id);
        }
        if !reclaimed.is_empty() {
            let set: std::collections::HashSet<TileId> = reclaimed.iter().copied().collect();
            self.resident.retain(|id| !set.contains(id));
            report.evictions += reclaimed.len() as u32;
            self.queue_mapping(now, reclaimed.len() as u64, Vec::new());
            textures.extend(reclaimed.iter().map(|id| id.texture));
        }
        self.free_slots.len() >= n
    }

    fn start_load(&mut self, now: Time, group: &[TileId], streams: &[TileStream], io: &mut IoPath) {
        let tag = self.next_load;
        self.next_load += 1;
        for id in group {
            let slot = self.free_slots.pop().expect("reserved");
            assert!(self.slot_owner[slot as usize].is_none(), "pool slot {slot} handed out twice");
            self.slot_owner[slot as usize] = Some(*id);
            if self.state(*id).record == u32::MAX {
                self.records.push(TileRecord::new(*id, now));
                let n = self.records.len() as u32 - 1;
                self.state_mut(*id).record = n;
            }
            let record = self.state(*id).record as usize;
            self.records[record].submitted = Some(now);
            let s = self.state_mut(*id);
            s.status = Status::Loading;
            s.slot = slot;
            s.io_done = false;
            s.mapped = false;
        }
        let sum = |f: fn(&TileStream) -> u64| streams.iter().map(f).sum::<u64>();
        let compressed = sum(|s| s.compressed.0);
        let request = Request {
            source: Source::File { offset: streams[0].offset },
            source_size: Bytes(compressed),
            intermediate_size: Bytes(sum(|s| s.intermediate.0)),
            destination_size: Bytes(TILE_BYTES * streams.len() as u64),
            options: streams[0].options,
            fill: false,
        };
        self.staging_used += compressed;
        self.loads.insert(tag, Load { tiles: group.to_vec(), compressed });
        self.total_loads += 1;
        // The content model only makes valid requests; a rejection is a model bug.
        io.enqueue(now, request, tag).expect("content model makes valid DirectStorage requests");
    }
}

/// The standard tiles of `to` (same size, maybe another tile shape) that cover `tile` of
/// `from`; none when that mip is in `to`'s packed tail.
fn companion_tiles(
    from: &sfsim_models::texture::TextureDesc,
    tile: TileCoord,
    to: &sfsim_models::texture::TextureDesc,
) -> Vec<TileCoord> {
    // In `to`'s packed tail there is no standard tile to name (it is always resident).
    if tile.mip >= to.first_packed_mip() {
        return Vec::new();
    }
    if from.format.tile_texels() == to.format.tile_texels() {
        return vec![tile];
    }
    let (fw, fh) = from.format.tile_texels();
    let (tw, th) = to.format.tile_texels();
    let info = to.mip(tile.mip);
    let (x0, x1) = (tile.x * fw / tw, ((tile.x + 1) * fw - 1) / tw);
    let (y0, y1) = (tile.y * fh / th, ((tile.y + 1) * fh - 1) / th);
    let mut out = Vec::new();
    for y in y0..=y1.min(info.tiles_y.saturating_sub(1)) {
        for x in x0..=x1.min(info.tiles_x.saturating_sub(1)) {
            out.push(TileCoord { mip: tile.mip, x, y });
        }
    }
    out
}
