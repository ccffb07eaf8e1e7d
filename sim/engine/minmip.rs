//! The engine's CPU copy of every texture's MinMip map (SPEC §5 step 6): rebuilt from
//! residency, then copied to the GPU maps the sampler clamps with.

use super::tiles::{Status, TileDb};
use crate::scene::FeedbackRenderer;
use sfsim_models::gpu::Lod53;
use sfsim_models::texture::TileCoord;

/// One texture's MinMip map as the CPU holds it: one 5.3 value per mip-0 tile.
struct MinMipCopy {
    values: Vec<Lod53>,
    width: u32,
    height: u32,
}

/// The CPU copies of all MinMip maps.
pub(super) struct MinMipMaps {
    maps: Vec<MinMipCopy>,
}

/// The finest mip at MinMip texel (x, y) whose tile — and every coarser tile above it —
/// is Resident; the packed tail's first mip when none is.
pub(super) fn resident_mip(db: &TileDb, texture: u32, x: u32, y: u32) -> u32 {
    let grid = db.grid(texture);
    let mut mip = grid.first_packed_mip();
    while mip > 0 {
        let above = TileCoord { mip: mip - 1, x: x >> (mip - 1), y: y >> (mip - 1) };
        if db.state(db.id(texture, above)).status != Status::Resident {
            break;
        }
        mip -= 1;
    }
    mip
}

fn lod_of_mip(mip: u32) -> Lod53 {
    Lod53((mip * 8).min(255) as u8)
}

impl MinMipMaps {
    /// SPEC §5 step 1: every map starts at its texture's first packed mip.
    pub fn new(db: &TileDb) -> MinMipMaps {
        let maps = (0..db.texture_count())
            .map(|t| {
                let desc = db.desc(t);
                let (width, height) = desc.min_mip_map_dims();
                let tail = lod_of_mip(desc.first_packed_mip());
                MinMipCopy { values: vec![tail; (width * height) as usize], width, height }
            })
            .collect();
        MinMipMaps { maps }
    }

    /// Texels in one texture's map (what one update of it rewrites).
    pub fn texels(&self, texture: u32) -> u64 {
        self.maps[texture as usize].values.len() as u64
    }

    pub fn dims(&self, texture: u32) -> (u32, u32) {
        let m = &self.maps[texture as usize];
        (m.width, m.height)
    }

    pub fn value(&self, texture: u32, x: u32, y: u32) -> Lod53 {
        let m = &self.maps[texture as usize];
        m.values[(y * m.width + x) as usize]
    }

    /// Rebuilds one texture's map from residency; returns the texels rewritten (the whole
    /// map: it has one texel per mip-0 tile, at most 64×32).
    pub fn refresh(&mut self, db: &TileDb, texture: u32) -> u64 {
        let m = &mut self.maps[texture as usize];
        for y in 0..m.height {
            for x in 0..m.width {
                m.values[(y * m.width + x) as usize] = lod_of_mip(resident_mip(db, texture, x, y));
            }
        }
        m.values.len() as u64
    }

    /// The CPU copy of one texture's map into the renderer's GPU map.
    pub fn copy_to_gpu(&self, texture: u32, renderer: &mut FeedbackRenderer) {
        let m = &self.maps[texture as usize];
        let gpu = renderer.minmip_mut(texture);
        for (i, v) in m.values.iter().enumerate() {
            gpu.set(i as u32 % m.width, i as u32 / m.width, *v);
        }
    }

    /// Every map into the renderer (at creation).
    pub fn copy_all_to_gpu(&self, renderer: &mut FeedbackRenderer) {
        for t in 0..self.maps.len() as u32 {
            self.copy_to_gpu(t, renderer);
        }
    }
}
