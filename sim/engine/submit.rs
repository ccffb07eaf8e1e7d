//! SPEC §5 steps 4–5: Seen Tiles in the load order's sequence are submitted while staging
//! memory (for the compressed bytes) and pool slots (the destination) can both be had;
//! each load is one DirectStorage request, and one UpdateTileMappings call maps the
//! frame's loads in parallel.

use super::analysis::companion_tiles;
use super::load_order::SeenTile;
use super::loads::{request_for, InFlight};
use super::tiles::{Status, TileId};
use super::{Bottleneck, Engine, EngineError, FrameReport, TileStream};
use crate::iopath::IoPath;
use sfsim_models::mdu::Stages;
use sfsim_models::units::Time;

impl Engine {
    /// Submits loads; returns the textures whose standby tiles were reclaimed.
    pub(super) fn submit(
        &mut self,
        now: Time,
        io: &mut IoPath,
        report: &mut FrameReport,
    ) -> Result<Vec<u32>, EngineError> {
        let mut reclaimed_textures = Vec::new();
        let n = self.lists.seen.len() as u64;
        if n > 1 {
            report.cpu_sort += Time(self.cfg.cpu.sort_per_tile.0 * n * u64::from(64 - n.leading_zeros()));
        }
        let mut order: Vec<SeenTile> = self.lists.seen.iter().map(|&id| self.seen_tile(id)).collect();
        self.policies.load_order.sort(&mut order);
        let mut submitted = Vec::new();
        let mut stop = Bottleneck::Nothing;
        let mut waiting = Vec::new();
        for (i, seen) in order.iter().enumerate() {
            let id = seen.id;
            if self.db.state(id).status != Status::Seen {
                // Loaded with an earlier tile of its set.
                continue;
            }
            if self.cfg.upload_cap.is_some_and(|cap| report.loads >= cap) {
                stop = Bottleneck::UploadCap;
            } else {
                let (group, streams) = self.load_group(id)?;
                let compressed: u64 = streams.iter().map(|s| s.compressed.0).sum();
                if !self.requests.staging_fits(compressed) {
                    stop = Bottleneck::Staging;
                } else if !self.reserve_slots(group.len(), now, report, &mut reclaimed_textures)? {
                    stop = Bottleneck::Pool;
                } else {
                    self.start_load(now, &group, &streams, compressed, io)?;
                    submitted.extend(group);
                    report.loads += 1;
                    continue;
                }
            }
            waiting.extend(order[i..].iter().map(|s| s.id));
            break;
        }
        // Tiles loaded as companions after their turn came leave the list too.
        waiting.retain(|id| self.db.state(*id).status == Status::Seen);
        self.lists.seen = waiting;
        report.bottleneck = Some(stop);
        report.cpu_submit += Time(self.cfg.cpu.submit_per_request.0 * u64::from(report.loads));
        if !submitted.is_empty() {
            self.mapping.queue(now, submitted, 0);
        }
        reclaimed_textures.sort_unstable();
        reclaimed_textures.dedup();
        Ok(reclaimed_textures)
    }

    fn seen_tile(&self, id: TileId) -> SeenTile {
        let state = self.db.state(id);
        let requested = state.record.map_or(state.last_seen, |r| self.db.records()[r as usize].requested);
        SeenTile { id, mip: self.db.coord(id).mip, last_seen: state.last_seen, requested }
    }

    /// The tile and, when the feedback policy loads a group together, its group's Seen
    /// tiles at the same position, with their streams. One DirectStorage request runs one
    /// set of MDU stages: a companion stored another way (e.g. raw where the rest is
    /// compressed) stays Seen and loads on its own. (A set's formats may differ in
    /// BcpackMode; the request carries the first tile's, which the timing model does not
    /// distinguish.)
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
        let mut streams: Vec<TileStream> = group.iter().map(|g| self.stream_of(*g)).collect();
        let stages = Stages::from(streams[0].options);
        if streams.iter().any(|s| Stages::from(s.options) != stages) {
            let keep: Vec<bool> = streams.iter().map(|s| Stages::from(s.options) == stages).collect();
            let mut k = keep.iter();
            group.retain(|_| k.next().copied().unwrap_or(false));
            streams.retain(|s| Stages::from(s.options) == stages);
        }
        Ok((group, streams))
    }

    fn stream_of(&self, id: TileId) -> TileStream {
        let desc = self.db.desc(id.texture);
        self.content.stream(id.texture, desc.format, desc.tile_from_index(id.index))
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
        let reclaimed = self.policies.eviction.reclaim(now, &self.db, &self.lists.resident, n - free);
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

    fn start_load(
        &mut self,
        now: Time,
        group: &[TileId],
        streams: &[TileStream],
        compressed: u64,
        io: &mut IoPath,
    ) -> Result<(), EngineError> {
        let request = request_for(streams);
        let tile = self.db.coord(group[0]);
        let invalid =
            |source| EngineError::InvalidRequest { texture: group[0].texture, tile, what: "tile load", source };
        request.validate().map_err(invalid)?;
        for &id in group {
            let slot = self.pool.take(id)?;
            if self.db.state(id).record.is_none() {
                self.db.open_record(id, now);
            }
            if let Some(r) = self.db.record_mut(id) {
                r.submitted = Some(now);
            }
            let s = self.db.state_mut(id);
            s.status = Status::Loading;
            s.slot = Some(slot);
            s.io_done = false;
            s.mapped = false;
        }
        let tag = self.requests.add(InFlight::Tiles { tiles: group.to_vec(), compressed });
        self.counters.loads += 1;
        io.enqueue(now, request, tag).map_err(invalid)
    }
}
