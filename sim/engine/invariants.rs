//! Consistency checks the tests run after every frame: pool slots are held once, the
//! MinMip maps show only visible tiles and have no holes, and every load's lifecycle times
//! are in order.

use super::minmip::resident_mip;
use super::tiles::Status;
use super::{Engine, TileId};
use crate::scene::FeedbackRenderer;
use sfsim_models::texture::TileCoord;

impl Engine {
    /// Returns the first violated invariant, if any.
    pub fn check_invariants(&self, renderer: &FeedbackRenderer) -> Result<(), String> {
        // Every slot is held by exactly the tile that records it, and only tiles that
        // need one hold one.
        let mut holders = 0u32;
        let mut resident = 0usize;
        for t in 0..self.db.texture_count() {
            for index in 0..self.db.desc(t).standard_tile_count() {
                let id = TileId { texture: t, index };
                let s = self.db.state(id);
                resident += usize::from(s.status == Status::Resident);
                if s.status.holds_slot() {
                    holders += 1;
                    let owner = s.slot.and_then(|slot| self.pool.owner(slot));
                    if owner != Some(id) {
                        return Err(format!("{id:?} ({:?}) claims slot {:?} owned by {owner:?}", s.status, s.slot));
                    }
                }
            }
        }
        if holders != self.pool_used() {
            return Err(format!("{holders} tiles hold slots but {} slots are in use", self.pool_used()));
        }
        // The Resident Tiles list holds exactly the Resident tiles, and its per-mip counts
        // are theirs.
        let listed = self.lists.resident.ids();
        if let Some(id) = listed.iter().find(|id| self.db.state(**id).status != Status::Resident) {
            return Err(format!("{id:?} is listed resident but is {:?}", self.db.state(*id).status));
        }
        if listed.len() != resident {
            return Err(format!("{resident} tiles are Resident but {} are listed", listed.len()));
        }
        if self.lists.resident.per_mip() != self.db.residency_per_mip(listed) {
            return Err("the resident list's per-mip counts differ from its tiles'".into());
        }
        // MinMip: the CPU copy is exactly "finest mip with it and every coarser tile
        // Resident", and the GPU copy equals it.
        for t in 0..self.db.texture_count() {
            let (w, h) = self.minmip.dims(t);
            let first_packed = self.db.desc(t).first_packed_mip();
            let gpu = renderer.minmip(t);
            for y in 0..h {
                for x in 0..w {
                    let expected = resident_mip(&self.db, t, x, y);
                    let value = self.minmip.value(t, x, y);
                    if u32::from(value.0) != expected * 8 {
                        return Err(format!(
                            "texture {t} MinMip ({x},{y}) = {value:?}, residency says {}",
                            expected * 8
                        ));
                    }
                    if gpu.get(x, y) != Some(value) {
                        return Err(format!(
                            "texture {t} MinMip ({x},{y}): GPU copy {:?} ≠ CPU copy {value:?}",
                            gpu.get(x, y)
                        ));
                    }
                    for mip in expected..first_packed {
                        let c = TileCoord { mip, x: x >> mip, y: y >> mip };
                        let s = self.db.state(self.db.id(t, c));
                        let visible = s.record.and_then(|r| self.records().get(r as usize)).and_then(|r| r.visible);
                        if s.status != Status::Resident || visible.is_none() {
                            return Err(format!(
                                "texture {t} MinMip ({x},{y}) shows mip {expected} but {c:?} is {:?}",
                                s.status
                            ));
                        }
                    }
                }
            }
        }
        // A load that failed is never visible, and no resident tile rests on one.
        for &r in &self.retry.failed_records {
            if let Some(rec) = self
                .records()
                .get(r as usize)
                .filter(|rec| rec.visible.is_some() || rec.mapped.is_some() && rec.decompressed.is_some())
            {
                return Err(format!("{rec:?}: a failed load was made visible"));
            }
        }
        for id in self.lists.resident.ids() {
            let s = self.db.state(*id);
            if s.failed || s.record.is_some_and(|r| self.retry.failed_records.contains(&r)) {
                return Err(format!("{id:?} is resident but its load failed"));
            }
        }
        // Lifecycle order of every load.
        for r in self.records() {
            let order = [r.submitted, r.read, r.decompressed];
            let mut last = Some(r.requested);
            for t in order.into_iter().flatten() {
                if last.is_some_and(|l| t < l) {
                    return Err(format!("{r:?}: lifecycle times out of order"));
                }
                last = Some(t);
            }
            if let Some(v) = r.visible {
                let (Some(d), Some(m)) = (r.decompressed, r.mapped) else {
                    return Err(format!("{r:?}: visible before it was decompressed and mapped"));
                };
                if v < d || v < m {
                    return Err(format!("{r:?}: visible before its data and mapping were ready"));
                }
            }
            if let (Some(e), Some(v)) = (r.evicted, r.visible) {
                if e < v {
                    return Err(format!("{r:?}: evicted before visible"));
                }
            }
        }
        Ok(())
    }
}
