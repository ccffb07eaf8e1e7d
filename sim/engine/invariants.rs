//! Consistency checks the tests run after every frame: pool slots are held once, the
//! MinMip maps show only visible tiles and have no holes, and every load's lifecycle times
//! are in order.

use super::minmip::resident_mip;
use super::records::lifecycle_violation;
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
                        let visible = s.record.and_then(|r| self.db.records().get(r)).and_then(|r| r.visible);
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
        // A load that failed is never visible, and no resident tile rests on one (finished
        // records were checked as they finished).
        let records = self.db.records();
        for rec in records.unfinished_failed() {
            if rec.visible.is_some() || rec.mapped.is_some() && rec.decompressed.is_some() {
                return Err(format!("{rec:?}: a failed load was made visible"));
            }
        }
        for id in self.lists.resident.ids() {
            let s = self.db.state(*id);
            if s.failed || s.record.is_some_and(|r| records.is_failed(r)) {
                return Err(format!("{id:?} is resident but its load failed"));
            }
        }
        // Lifecycle order of every load: finished ones were checked as they finished.
        if let Some(v) = records.violation() {
            return Err(v.to_string());
        }
        if let Some(v) = records.unfinished().find_map(|r| lifecycle_violation(r, false)) {
            return Err(v);
        }
        Ok(())
    }
}
