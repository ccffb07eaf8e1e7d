//! SPEC §5 steps 4–5: Seen Tiles in the load order's sequence are submitted while staging
//! memory (for the compressed bytes and any zlib → BCPack intermediate) and pool slots
//! (the destination) can both be had; each tile is one DirectStorage request (a texture
//! set's tiles at one position are submitted together, so the drive can merge their
//! adjacent reads into one IO), and one UpdateTileMappings call maps the pass's loads.

use super::analysis::companion_tiles;
use super::load_order::SeenTile;
use super::loads::{request_for, InFlight};
use super::tiles::{Status, TileId};
use super::{Bottleneck, Engine, EngineError, FrameReport, TileStream};
use crate::iopath::IoPath;
use sfsim_models::units::Time;

/// A submission pass's progress: Seen Tiles in load order, the next to try, and the tiles
/// submitted so far (for the pass's mapping call).
pub(super) struct Submission {
    pub order: Vec<SeenTile>,
    pub next: usize,
    pub submitted: Vec<TileId>,
}

/// What one submission step did.
pub(super) enum Step {
    /// One load (a tile, or a set's tiles at one position) was submitted; the thread moves
    /// on after its submission cost.
    Submitted,
    /// The pass is over: every Seen tile was submitted, or `Bottleneck` stopped the next.
    Stopped(Bottleneck),
}

impl Engine {
    /// Seen Tiles in the load order's sequence, for a submission pass; the sort's CPU cost
    /// goes to `report`.
    pub(super) fn submission_order(&mut self, now: Time, report: &mut FrameReport) -> Vec<SeenTile> {
        if !self.lists.backing_off.is_empty() {
            // Failed tiles whose back-off is over rejoin Seen Tiles; the rest sit this one out.
            let waiting = std::mem::take(&mut self.lists.backing_off);
            let (ready, still): (Vec<TileId>, Vec<TileId>) = waiting
                .into_iter()
                .filter(|id| self.db.state(*id).status == Status::Seen)
                .partition(|id| self.db.state(*id).retry_after <= now);
            self.lists.seen.extend(ready);
            self.lists.backing_off = still;
        }
        let n = self.lists.seen.len() as u64;
        if n > 1 {
            report.cpu_sort += self.cfg.cpu.cost(self.cfg.cpu.sort_per_tile, n * u64::from(64 - n.leading_zeros()));
        }
        let mut order: Vec<SeenTile> = self.lists.seen.iter().map(|&id| self.seen_tile(id)).collect();
        self.policies.load_order.sort(&mut order);
        order
    }

    /// Submits the pass's next load, if staging memory, pool slots and the upload cap allow.
    pub(super) fn submit_step(
        &mut self,
        now: Time,
        pass: &mut Submission,
        io: &mut IoPath,
        report: &mut FrameReport,
        renderer: &mut crate::scene::FeedbackRenderer,
    ) -> Result<Step, EngineError> {
        // Tiles loaded with an earlier tile of their set are skipped.
        while pass.order.get(pass.next).is_some_and(|s| self.db.state(s.id).status != Status::Seen) {
            pass.next += 1;
        }
        let Some(seen) = pass.order.get(pass.next) else {
            return Ok(Step::Stopped(Bottleneck::Nothing));
        };
        if self.cfg.upload_cap.is_some_and(|cap| report.loads >= cap) {
            return Ok(Step::Stopped(Bottleneck::UploadCap));
        }
        let (group, streams) = self.load_group(seen.id)?;
        let staging: u64 = streams.iter().map(staging_need).sum();
        if !self.requests.staging_fits(staging) {
            return Ok(Step::Stopped(Bottleneck::Staging));
        }
        let mut reclaimed = Vec::new();
        if !self.reserve_slots(group.len(), now, report, &mut reclaimed)? {
            return Ok(Step::Stopped(Bottleneck::Pool));
        }
        // Standby tiles reclaimed for this load leave the MinMip map before their slots are
        // remapped (the copy precedes UpdateTileMappings on the queue).
        reclaimed.sort_unstable();
        reclaimed.dedup();
        for t in reclaimed {
            report.cpu_minmip += self.cfg.cpu.cost(self.cfg.cpu.minmip_per_texel, self.minmip.texels(t));
            self.minmip.copy_to_gpu(t, renderer);
        }
        self.start_load(now, &group, &streams, io)?;
        report.loads += group.len() as u32;
        report.cpu_submit += self.cfg.cpu.cost(self.cfg.cpu.submit_per_request, group.len() as u64);
        pass.submitted.extend(group);
        pass.next += 1;
        Ok(Step::Submitted)
    }

    /// Ends a submission pass: Seen tiles not submitted stay in the list, and one
    /// UpdateTileMappings call on the GPU queue maps the pass's loads.
    pub(super) fn end_submission(&mut self, now: Time, pass: Submission, stop: Bottleneck, report: &mut FrameReport) {
        let Submission { order, next, submitted } = pass;
        let waiting: Vec<TileId> = order[next.min(order.len())..]
            .iter()
            .map(|s| s.id)
            .filter(|id| self.db.state(*id).status == Status::Seen)
            .collect();
        self.lists.seen = waiting;
        report.bottleneck = Some(stop);
        report.seen_list = self.lists.seen.len() as u32;
        // One call maps the pass's loads and unmaps the standby tiles it reclaimed.
        if let Some(span) = self.mapping.queue(&mut self.timeline.gpu, now, submitted) {
            self.timeline.spans.mapping_calls.push(span);
        }
    }

    fn seen_tile(&self, id: TileId) -> SeenTile {
        let state = self.db.state(id);
        let requested = state.record.and_then(|r| self.db.records().get(r)).map_or(state.last_seen, |r| r.requested);
        SeenTile { id, mip: self.db.coord(id).mip, last_seen: state.last_seen, requested }
    }

    /// The tile and, when the feedback policy loads a group together, its group's Seen
    /// tiles at the same position, with their streams: each its own request with its own
    /// MDU stages (a set's formats differ in BcpackMode).
    fn load_group(&self, id: TileId) -> Result<(Vec<TileId>, Vec<TileStream>), EngineError> {
        let mut group = vec![id];
        if self.policies.feedback.loads_group_together() {
            let coord = self.db.coord(id);
            let desc = self.db.desc(id.texture);
            let members = self.group_of(id.texture, coord)?;
            for &t in members.as_slice().iter().filter(|t| **t != id.texture) {
                for c in companion_tiles(desc, coord, self.db.desc(t)) {
                    let cid = self.db.id(t, c);
                    if self.db.state(cid).status == Status::Seen {
                        group.push(cid);
                    }
                }
            }
        }
        let streams = group.iter().map(|g| self.stream_of(*g)).collect();
        Ok((group, streams))
    }

    fn stream_of(&self, id: TileId) -> TileStream {
        self.content.stream(id.texture, self.db.desc(id.texture).format, self.db.coord(id))
    }

    /// Makes `n` slots free, asking the eviction policy to reclaim resident tiles if too few
    /// are; returns whether `n` are free.
    fn reserve_slots(
        &mut self,
        n: usize,
        now: Time,
        report: &mut FrameReport,
        textures: &mut Vec<u32>,
    ) -> Result<bool, EngineError> {
        let free = self.pool.free();
        if free >= n {
            return Ok(true);
        }
        let reclaimed = self.policies.eviction.reclaim(now, &self.db, self.lists.resident.ids(), n - free);
        if reclaimed.len() > n - free {
            return Err(EngineError::Policy {
                policy: self.policies.eviction.name(),
                tile: reclaimed[0],
                mip: self.db.coord(reclaimed[0]).mip,
                rule: format!("reclaimed {} tiles for a load that needed {}", reclaimed.len(), n - free),
            });
        }
        let evicted = self.evict(now, &reclaimed)?;
        report.evictions += reclaimed.len() as u32;
        textures.extend(evicted);
        Ok(self.pool.free() >= n)
    }

    /// Submits one request per tile of `group`, together (one `Submit`).
    fn start_load(
        &mut self,
        now: Time,
        group: &[TileId],
        streams: &[TileStream],
        io: &mut IoPath,
    ) -> Result<(), EngineError> {
        let requests: Vec<_> = streams.iter().map(|s| request_for(std::slice::from_ref(s))).collect();
        for (&id, request) in group.iter().zip(&requests) {
            request.validate().map_err(|e| self.invalid_load(id, e))?;
        }
        let mut batch = Vec::with_capacity(group.len());
        for ((&id, stream), request) in group.iter().zip(streams).zip(requests) {
            let slot = self.pool.take(id)?;
            if self.db.state(id).record.is_none() {
                self.db.open_record(id, now);
            }
            if let Some(r) = self.db.record_mut(id) {
                r.submitted = Some(now);
                r.analysed.get_or_insert(now);
            }
            let s = self.db.state_mut(id);
            s.status = Status::Loading;
            s.slot = Some(slot);
            s.io_done = false;
            s.mapped = false;
            if s.failures > 0 {
                self.retry.retries += 1;
            }
            batch.push((request, self.requests.add(InFlight::Tile { tile: id, staging: staging_need(stream) })));
            self.counters.loads += 1;
        }
        io.enqueue_all(now, &batch).map_err(|(i, e)| self.invalid_load(group[i], e))
    }

    fn invalid_load(&self, id: TileId, source: sfsim_models::nvme::RequestError) -> EngineError {
        EngineError::InvalidRequest { texture: id.texture, tile: self.db.coord(id), what: "tile load", source }
    }
}

/// Staging bytes a tile's request holds in the IO path: its compressed bytes and its
/// zlib → BCPack intermediate.
fn staging_need(stream: &TileStream) -> u64 {
    stream.compressed.0 + stream.intermediate.0
}
