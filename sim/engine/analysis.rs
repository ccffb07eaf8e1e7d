//! SPEC §5 step 3: feedback read back is compared with the tile database. A requested tile
//! and its coarser parents (each texture's own, up to its packed tail) are refreshed or,
//! when absent, enter Seen Tiles; Seen Tiles nobody asked for within the eviction policy's
//! horizon are dropped.

use super::feedback::TextureGroup;
use super::tiles::{Status, TileId};
use super::{Engine, EngineError};
use sfsim_models::texture::TileCoord;
use sfsim_models::units::Time;

impl Engine {
    pub(super) fn analyse(
        &mut self,
        now: Time,
        written: Time,
        requested: &[(u32, TileCoord)],
    ) -> Result<(), EngineError> {
        let mut touched = std::mem::take(&mut self.counters.touched);
        for &(texture, tile) in requested {
            let from = *self.db.desc(texture);
            let group = self.group_of(texture, tile)?;
            for &t in group.as_slice() {
                if t == texture {
                    self.touch_with_parents(t, tile, (written, now), true, &mut touched);
                } else {
                    // A set's textures can have different tile shapes and tails.
                    for c in companion_tiles(&from, tile, self.db.desc(t)) {
                        self.touch_with_parents(t, c, (written, now), false, &mut touched);
                    }
                }
            }
        }
        self.policies.eviction.after_analysis(&self.db, self.lists.resident.ids());
        for id in touched.drain(..) {
            self.db.state_mut(id).touched = false;
        }
        self.counters.touched = touched;
        let horizon = self.policies.eviction.seen_horizon();
        let mut dropped = Vec::new();
        let db = &self.db;
        self.lists.seen.retain(|id| {
            let keep = now.saturating_sub(db.state(*id).last_seen) <= horizon;
            if !keep {
                dropped.push(*id);
            }
            keep
        });
        self.lists.backing_off.retain(|id| {
            let keep = now.saturating_sub(db.state(*id).last_seen) <= horizon;
            if !keep {
                dropped.push(*id);
            }
            keep
        });
        for id in dropped {
            self.abandoned(id);
            self.db.forget(id);
        }
        Ok(())
    }

    /// The feedback policy's group for a request of `tile` of `texture`, checked: every
    /// member is a texture of the scene.
    pub(super) fn group_of(&self, texture: u32, tile: TileCoord) -> Result<TextureGroup, EngineError> {
        let textures = self.db.texture_count();
        let group = self.policies.feedback.group(texture, textures);
        match group.as_slice().iter().find(|t| **t >= textures) {
            Some(bad) => Err(EngineError::Policy {
                policy: self.policies.feedback.name(),
                tile: self.db.id(texture, tile),
                mip: tile.mip,
                rule: format!("its group names texture {bad}; the scene has {textures} (0..={})", textures - 1),
            }),
            None => Ok(group),
        }
    }

    /// Texels of every feedback map the sampler wrote this frame (what one readback scans).
    pub(super) fn feedback_texels(&self, renderer: &crate::scene::FeedbackRenderer) -> u64 {
        (0..self.db.texture_count())
            .filter(|&t| renderer.writes_feedback(t))
            .map(|t| {
                let (w, h) = renderer.feedback_dims(t);
                u64::from(w) * u64::from(h)
            })
            .sum()
    }

    /// Feedback written at `when.0` and analysed at `when.1` asked for `tile` of texture
    /// `t`: it and every coarser tile above it are wanted. `counted` adds them to the
    /// per-mip access counts.
    fn touch_with_parents(
        &mut self,
        t: u32,
        tile: TileCoord,
        when: (Time, Time),
        counted: bool,
        touched: &mut Vec<TileId>,
    ) {
        let grid = *self.db.grid(t);
        for mip in tile.mip..grid.first_packed_mip() {
            let shift = mip - tile.mip;
            let coord = TileCoord { mip, x: tile.x >> shift, y: tile.y >> shift };
            if counted {
                self.counters.access_per_mip[(mip as usize).min(15)] += 1;
            }
            self.touch(TileId { texture: t, index: grid.tile_index(coord) }, when, touched);
        }
    }

    fn touch(&mut self, id: TileId, (written, analysed): (Time, Time), touched: &mut Vec<TileId>) {
        let s = self.db.state_mut(id);
        // The sample refreshes a tile's expiry timestamp when it analyses the feedback.
        s.last_seen = s.last_seen.max(analysed);
        if !s.touched {
            s.touched = true;
            touched.push(id);
        }
        if s.status == Status::Absent {
            s.status = Status::Seen;
            self.lists.seen.push(id);
            self.db.open_record(id, written);
            if let Some(r) = self.db.record_mut(id) {
                r.analysed = Some(analysed);
            }
        }
    }
}

/// The standard tiles of `to` that cover `tile` of `from` (the set container's placement
/// rule is the same, so one function serves both).
pub(super) use crate::content::pack::companion_tiles;
