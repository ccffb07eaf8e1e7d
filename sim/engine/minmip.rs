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
    /// [`refresh`](MinMipMaps::refresh)'s two pyramid levels, reused.
    coarser: Vec<u32>,
    finer: Vec<u32>,
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
        MinMipMaps { maps, coarser: Vec::new(), finer: Vec::new() }
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
    ///
    /// Equal to [`resident_mip`] at every texel, but built coarse to fine so that each
    /// tile's state is read once rather than once per texel under it: a tile at `mip`
    /// takes its own mip when it is Resident and its parent's value is `mip + 1`, and its
    /// parent's value otherwise.
    pub fn refresh(&mut self, db: &TileDb, texture: u32) -> u64 {
        let MinMipMaps { maps, coarser, finer } = self;
        let m = &mut maps[texture as usize];
        let (width, height) = (m.width, m.height);
        if m.values.is_empty() {
            return 0;
        }
        let grid = db.grid(texture);
        let tail = grid.first_packed_mip();
        // Tiles of `mip` over the map: tile (x, y) of mip 0's texel (x << mip, y << mip).
        let across = |mip: u32| ((width - 1) >> mip) + 1;
        let down = |mip: u32| ((height - 1) >> mip) + 1;
        coarser.clear();
        coarser.resize((across(tail) * down(tail)) as usize, tail);
        for mip in (0..tail).rev() {
            let (w, h, parent_w) = (across(mip), down(mip), across(mip + 1));
            finer.clear();
            for y in 0..h {
                for x in 0..w {
                    let parent = coarser[((y >> 1) * parent_w + (x >> 1)) as usize];
                    let own = parent == mip + 1
                        && db.state(db.id(texture, TileCoord { mip, x, y })).status == Status::Resident;
                    finer.push(if own { mip } else { parent });
                }
            }
            std::mem::swap(coarser, finer);
        }
        // `coarser` now holds mip 0's level, one value per texel (tail, if tail is 0).
        for (value, &mip) in m.values.iter_mut().zip(coarser.iter()) {
            *value = lod_of_mip(mip);
        }
        m.values.len() as u64
    }

    /// A Resident tile at `coord` left the pool: the texels under it that read it (or a
    /// finer tile) now stop at the mip above. Equal to a [`refresh`](Self::refresh) after
    /// the change — the chain to every coarser tile was intact for them — at the cost of
    /// the tile's own texels, which matters because a full pool reclaims for every load.
    pub fn unmap(&mut self, texture: u32, coord: TileCoord) {
        let m = &mut self.maps[texture as usize];
        let above = lod_of_mip(coord.mip + 1);
        let span = |start: u32, dim: u32| (start << coord.mip).min(dim)..((start + 1) << coord.mip).min(dim);
        for y in span(coord.y, m.height) {
            let row = (y * m.width) as usize;
            for x in span(coord.x, m.width) {
                let v = &mut m.values[row + x as usize];
                *v = (*v).max(above);
            }
        }
    }

    /// The CPU copy of one texture's map into the renderer's GPU map.
    pub fn copy_to_gpu(&self, texture: u32, renderer: &mut FeedbackRenderer) {
        let m = &self.maps[texture as usize];
        let copied = renderer.minmip_mut(texture).set_all(&m.values);
        debug_assert!(copied, "texture {texture}: the GPU map's size differs from the CPU copy's");
    }

    /// Every map into the renderer (at creation).
    pub fn copy_all_to_gpu(&self, renderer: &mut FeedbackRenderer) {
        for t in 0..self.maps.len() as u32 {
            self.copy_to_gpu(t, renderer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tiles::TileId;
    use sfsim_models::texture::{BcFormat, TextureDesc};

    #[test]
    fn refresh_and_unmap_equal_the_per_texel_walk_for_any_residency() {
        let textures = [
            TextureDesc::new(8192, 8192, BcFormat::Bc1, None).unwrap(),
            TextureDesc::new(3000, 1000, BcFormat::Bc7, None).unwrap(),
            TextureDesc::new(256, 256, BcFormat::Bc5, None).unwrap(),
        ];
        let mut db = TileDb::new(&textures);
        let mut maps = MinMipMaps::new(&db);
        // A fixed pseudo-random residency, denser in coarse mips as streaming makes it.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..4 {
            for (t, desc) in textures.iter().enumerate() {
                for index in 0..desc.standard_tile_count() {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let id = TileId { texture: t as u32, index };
                    let keep = (state >> 33) % 8 < 2 + db.coord(id).mip as u64 + round;
                    db.state_mut(id).status = if keep { Status::Resident } else { Status::Absent };
                }
                let texels = maps.refresh(&db, t as u32);
                let (w, h) = maps.dims(t as u32);
                assert_eq!(texels, u64::from(w * h));
                for y in 0..h {
                    for x in 0..w {
                        let expected = lod_of_mip(resident_mip(&db, t as u32, x, y));
                        assert_eq!(maps.value(t as u32, x, y), expected, "texture {t} texel ({x}, {y}) round {round}");
                    }
                }
                // Then a third of the resident tiles leave, one by one, through `unmap`.
                for index in (0..desc.standard_tile_count()).filter(|i| i % 3 == round as u32 % 3) {
                    let id = TileId { texture: t as u32, index };
                    if db.state(id).status == Status::Resident {
                        maps.unmap(t as u32, db.coord(id));
                        db.state_mut(id).status = Status::Absent;
                    }
                }
                for y in 0..h {
                    for x in 0..w {
                        let expected = lod_of_mip(resident_mip(&db, t as u32, x, y));
                        assert_eq!(
                            maps.value(t as u32, x, y),
                            expected,
                            "unmapped: texture {t} ({x}, {y}) round {round}"
                        );
                    }
                }
            }
        }
    }
}
