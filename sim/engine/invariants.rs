//! Consistency checks the tests run after every frame: pool slots are held once, the
//! MinMip maps show only visible tiles and have no holes, and every load's lifecycle times
//! are in order.

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
        for (t, tex) in self.textures.iter().enumerate() {
            for (i, s) in tex.states.iter().enumerate() {
                let id = TileId { texture: t as u32, index: i as u32 };
                let holds = matches!(s.status, Status::Loading | Status::Complete | Status::Resident);
                if holds {
                    holders += 1;
                    if self.slot_owner.get(s.slot as usize).copied().flatten() != Some(id) {
                        return Err(format!(
                            "{id:?} ({:?}) claims slot {} owned by {:?}",
                            s.status,
                            s.slot,
                            self.slot_owner.get(s.slot as usize)
                        ));
                    }
                }
            }
        }
        if holders != self.pool_used() {
            return Err(format!("{holders} tiles hold slots but {} slots are in use", self.pool_used()));
        }
        // MinMip: the CPU copy is exactly "finest mip with it and every coarser tile
        // Resident", and the GPU copy equals it.
        for (t, tex) in self.textures.iter().enumerate() {
            let (w, h) = tex.minmip_dims;
            let first_packed = tex.desc.first_packed_mip();
            let gpu = renderer.minmip(t as u32);
            for y in 0..h {
                for x in 0..w {
                    let mut expected = first_packed;
                    while expected > 0
                        && tex.states[tex.tile_over(expected - 1, x, y) as usize].status == Status::Resident
                    {
                        expected -= 1;
                    }
                    let value = tex.minmip[(y * w + x) as usize];
                    if u32::from(value) != expected * 8 {
                        return Err(format!("texture {t} MinMip ({x},{y}) = {value}, residency says {}", expected * 8));
                    }
                    if gpu.get(x, y).map(|v| v.0) != Some(value) {
                        return Err(format!(
                            "texture {t} MinMip ({x},{y}): GPU copy {:?} ≠ CPU copy {value}",
                            gpu.get(x, y)
                        ));
                    }
                    for mip in expected..first_packed {
                        let c = TileCoord { mip, x: x >> mip, y: y >> mip };
                        let s = tex.states[tex.desc.tile_index(c) as usize];
                        if s.status != Status::Resident
                            || self.records.get(s.record as usize).and_then(|r| r.visible).is_none()
                        {
                            return Err(format!(
                                "texture {t} MinMip ({x},{y}) shows mip {expected} but {c:?} is {:?}",
                                s.status
                            ));
                        }
                    }
                }
            }
        }
        // Lifecycle order of every load.
        for r in &self.records {
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
