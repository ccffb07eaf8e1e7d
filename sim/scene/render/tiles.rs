//! The standard tiles a frame's feedback requests: for every feedback texel with a value,
//! the tiles of its requested mip that its region covers (MinMip: only the texels first
//! written since the clear; a feedback twin's tiles are its first texture's).

use super::{twins, FeedbackKind, FeedbackRenderer};
use crate::scene::requests::TileSet;
use sfsim_models::gpu::Lod53;
use sfsim_models::texture::TileCoord;

impl FeedbackRenderer<'_> {
    /// The standard tiles the feedback maps request, as (texture, tile), sorted and without
    /// duplicates: for every feedback texel with a value, the tiles of its requested mip
    /// that cover the texel's region. Requests into the packed tail need no tile (it is
    /// always resident).
    pub fn requested_tiles(&mut self) -> Vec<(u32, TileCoord)> {
        let mut out: Vec<(u32, TileCoord)> = Vec::new();
        // Where each texture's tiles went in `out`: a feedback twin's are its first's.
        let mut ranges = std::mem::take(&mut self.tile_ranges);
        ranges.clear();
        ranges.resize(self.scene.textures.len(), 0..0);
        for tex in 0..self.scene.textures.len() {
            let written = match &self.first_writes {
                Some(lists) => !lists[tex].texels().is_empty(),
                None => self.written[tex],
            };
            if !written {
                continue;
            }
            let start = out.len();
            match self.tiles_twin_of(tex) {
                Some(first) => twins::copy_tiles(&mut out, ranges[first].clone(), tex as u32),
                None => self.texture_tiles(tex, &mut out),
            }
            ranges[tex] = start..out.len();
        }
        self.tile_ranges = ranges;
        out
    }

    /// Appends texture `tex`'s requested tiles to `out` (see
    /// [`requested_tiles`](Self::requested_tiles)); its feedback was written.
    fn texture_tiles(&mut self, tex: usize, out: &mut Vec<(u32, TileCoord)>) {
        let layout = &self.layouts[tex];
        let (rw, rh) = (layout.region_width(), layout.region_height());
        let (tw, th) = self.scene.textures[tex].format.tile_texels();
        let (mw, mh) = (layout.map_width(), layout.map_height());
        let set = &mut self.tile_sets[tex];
        let first_packed = set.grid().first_packed_mip();
        // Tile sizes are powers of two: shifts, not divisions, in this per-texel loop.
        debug_assert!(tw.is_power_of_two() && th.is_power_of_two());
        let regions = RegionTiles {
            region: (rw, rh),
            tile_shift: (tw.trailing_zeros(), th.trailing_zeros()),
            region_is_tile: (rw, rh) == (tw, th),
        };
        let mut add = |fx: u32, fy: u32, mip: u32| regions.add(set, fx, fy, mip);
        match self.cfg.feedback.kind {
            FeedbackKind::MinMip => {
                let (a, s) = self.slots[tex];
                let slice = self.arrays[a].slice(s).expect("slot exists");
                let texels = slice.texels();
                if let Some(lists) = &self.first_writes {
                    // Only the texels written this frame can hold a request.
                    for &xy in lists[tex].texels() {
                        let (fx, fy) = (xy & 0xFFFF, xy >> 16);
                        let v = texels[(fy * mw + fx) as usize];
                        if v != Lod53::NONE.0 {
                            add(fx, fy, Lod53(v).mip());
                        }
                    }
                    self.tile_sets[tex].drain_into(tex as u32, out);
                    return;
                }
                for (fy, row) in texels.chunks_exact(mw as usize).enumerate() {
                    for (fx, &v) in row.iter().enumerate() {
                        if v != Lod53::NONE.0 {
                            add(fx as u32, fy as u32, Lod53(v).mip());
                        }
                    }
                }
            }
            FeedbackKind::MipRegionUsed => {
                let map = &self.region_used[tex];
                for fy in 0..mh {
                    for fx in 0..mw {
                        for mip in 0..first_packed {
                            if map.used(fx, fy, mip) == Some(true) {
                                add(fx, fy, mip);
                            }
                        }
                    }
                }
            }
        }
        self.tile_sets[tex].drain_into(tex as u32, out);
    }
}

/// Which standard tiles a feedback texel's request covers.
struct RegionTiles {
    /// The mip region, mip-0 texels.
    region: (u32, u32),
    /// log2 of the tile size, texels (tile sizes are powers of two).
    tile_shift: (u32, u32),
    region_is_tile: bool,
}

impl RegionTiles {
    /// Adds to `set` the tiles of `mip` that texel (`fx`, `fy`)'s region covers.
    #[inline(always)]
    fn add(&self, set: &mut TileSet, fx: u32, fy: u32, mip: u32) {
        if self.region_is_tile {
            // The usual layout: a texel's tile of mip m is its position >> m.
            set.insert(mip, fx >> mip, fy >> mip);
            return;
        }
        let ((rw, rh), (tw_shift, th_shift)) = (self.region, self.tile_shift);
        let x0 = (fx * rw) >> mip >> tw_shift;
        let x1 = (((fx + 1) * rw).saturating_sub(1)) >> mip >> tw_shift;
        let y0 = (fy * rh) >> mip >> th_shift;
        let y1 = (((fy + 1) * rh).saturating_sub(1)) >> mip >> th_shift;
        set.insert_rect(mip, x0, x1, y0, y1);
    }
}
