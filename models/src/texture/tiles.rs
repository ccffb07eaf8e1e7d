//! Addressing the standard (non-packed) tiles: coordinates, a dense index for per-tile arrays,
//! and the tile under a texture coordinate.

use super::desc::TextureDesc;
use super::error::TextureError;
use serde::{Deserialize, Serialize};

/// One standard 64 KiB tile: its mip and its column/row among that mip's tiles.
///
/// Ordering is (mip, x, y); [`TextureDesc::tiles`] uses (mip, y, x), i.e. row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TileCoord {
    /// Mip level, `< first_packed_mip()`.
    pub mip: u32,
    /// Tile column in that mip, `< tiles_x`.
    pub x: u32,
    /// Tile row in that mip, `< tiles_y`.
    pub y: u32,
}

/// A texture's standard-tile grid per mip, precomputed: O(1) [`tile_index`] and tile
/// counts for hot loops (the engine's feedback analysis), where
/// [`TextureDesc::tile_index`] recomputes the mip chain on every call.
///
/// [`tile_index`]: TileGrid::tile_index
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileGrid {
    first_packed_mip: u32,
    /// Per standard mip: (index of its first tile, tiles across, tiles down).
    mips: [(u32, u32, u32); 16],
}

impl TileGrid {
    /// The grid of `desc`'s standard tiles (every mip before the packed tail).
    pub fn new(desc: &TextureDesc) -> TileGrid {
        let first_packed_mip = desc.first_packed_mip();
        let mut mips = [(0, 0, 0); 16];
        let mut offset = 0u32;
        // A 16384² texture has 15 mips, so the array holds every standard mip.
        for (level, slot) in mips.iter_mut().enumerate().take(first_packed_mip as usize) {
            let m = desc.mip(level as u32);
            *slot = (offset, m.tiles_x, m.tiles_y);
            offset = offset.saturating_add(m.tile_count());
        }
        TileGrid { first_packed_mip, mips }
    }

    /// First packed mip (as [`TextureDesc::first_packed_mip`]).
    #[inline]
    pub fn first_packed_mip(&self) -> u32 {
        self.first_packed_mip
    }

    /// (tiles across, tiles down) of `mip`; (0, 0) for a packed mip.
    #[inline]
    pub fn tiles(&self, mip: u32) -> (u32, u32) {
        match self.mips.get(mip as usize) {
            Some(&(_, x, y)) if mip < self.first_packed_mip => (x, y),
            _ => (0, 0),
        }
    }

    /// As [`TextureDesc::tile_index`] (`t` must be a standard tile, debug-asserted).
    pub fn tile_index(&self, t: TileCoord) -> u32 {
        debug_assert!(t.mip < self.first_packed_mip, "{t:?} is not a standard tile");
        let (offset, tiles_x, _) = self.mips[(t.mip as usize).min(15)];
        offset.saturating_add(t.y.saturating_mul(tiles_x)).saturating_add(t.x)
    }

    /// As [`TextureDesc::tile_from_index`], from the precomputed offsets (one division).
    pub fn tile_from_index(&self, index: u32) -> TileCoord {
        debug_assert!(
            self.mips[..self.first_packed_mip.min(16) as usize]
                .last()
                .is_some_and(|&(offset, x, y)| index < offset.saturating_add(x * y)),
            "tile index {index} is past the standard tiles"
        );
        let standard = &self.mips[..self.first_packed_mip.min(16) as usize];
        match standard.iter().rposition(|&(offset, _, _)| offset <= index) {
            Some(mip) => {
                let (offset, tiles_x, tiles_y) = standard[mip];
                let rest = index - offset;
                if rest < tiles_x * tiles_y {
                    return TileCoord { mip: mip as u32, x: rest % tiles_x, y: rest / tiles_x };
                }
                TileCoord { mip: self.first_packed_mip, x: 0, y: 0 }
            }
            None => TileCoord { mip: self.first_packed_mip, x: 0, y: 0 },
        }
    }
}

impl TextureDesc {
    /// Dense index of the first tile of `mip` in [`TextureDesc::tiles`] order: the tile count
    /// of all standard mips above it. `standard_tile_count()` for `mip >= first_packed_mip()`.
    pub fn mip_tile_offset(&self, mip: u32) -> u32 {
        (0..mip.min(self.first_packed_mip())).map(|level| self.mip(level).tile_count()).fold(0, u32::saturating_add)
    }

    /// True when `t` is one of the standard tiles.
    pub fn contains_tile(&self, t: TileCoord) -> bool {
        self.tile_check(t).is_ok()
    }

    fn tile_check(&self, t: TileCoord) -> Result<(), TextureError> {
        let first_packed_mip = self.first_packed_mip();
        let (tiles_x, tiles_y) = if t.mip < first_packed_mip {
            let m = self.mip(t.mip);
            (m.tiles_x, m.tiles_y)
        } else {
            (0, 0)
        };
        if t.x < tiles_x && t.y < tiles_y {
            Ok(())
        } else {
            Err(TextureError::TileOutOfRange { mip: t.mip, x: t.x, y: t.y, first_packed_mip, tiles_x, tiles_y })
        }
    }

    /// The standard tile containing normalized coordinate (`u`, `v`) at `mip`.
    ///
    /// `u`, `v` are clamped to [0, 1] (NaN counts as 0); texel `floor(u * width)` of the mip,
    /// with u = 1 falling in the last texel, as clamp addressing would. `mip` must be
    /// `< first_packed_mip()` (debug-asserted); for a packed mip, release builds return
    /// tile (mip, 0, 0). See [`TextureDesc::try_tile_at`].
    pub fn tile_at(&self, mip: u32, u: f64, v: f64) -> TileCoord {
        debug_assert!(
            mip < self.first_packed_mip(),
            "mip {mip} is packed or out of range (first packed mip {})",
            self.first_packed_mip()
        );
        let (w, h) = self.mip_dims(mip);
        let (tw, th) = self.format.tile_texels();
        TileCoord { mip, x: texel(u, w) / tw, y: texel(v, h) / th }
    }

    /// Like [`TextureDesc::tile_at`] but returns an error when `mip` has no standard tiles.
    pub fn try_tile_at(&self, mip: u32, u: f64, v: f64) -> Result<TileCoord, TextureError> {
        self.tile_check(TileCoord { mip, x: 0, y: 0 })?;
        Ok(self.tile_at(mip, u, v))
    }

    /// All standard tiles: mip 0 first, each mip row-major (y outer, x inner). Position in
    /// this sequence is [`TextureDesc::tile_index`].
    #[inline]
    pub fn tiles(&self) -> impl Iterator<Item = TileCoord> + '_ {
        (0..self.first_packed_mip()).flat_map(move |mip| {
            let m = self.mip(mip);
            (0..m.tiles_y).flat_map(move |y| (0..m.tiles_x).map(move |x| TileCoord { mip, x, y }))
        })
    }

    /// Dense index of standard tile `t` in [`TextureDesc::tiles`] order, for per-tile arrays
    /// of length `standard_tile_count()`. `t` must be a standard tile (debug-asserted;
    /// release builds return an unspecified index). See [`TextureDesc::try_tile_index`].
    pub fn tile_index(&self, t: TileCoord) -> u32 {
        debug_assert!(self.contains_tile(t), "{t:?} is not a standard tile");
        let tiles_x = self.mip(t.mip.min(self.levels().saturating_sub(1))).tiles_x;
        self.mip_tile_offset(t.mip).saturating_add(t.y.saturating_mul(tiles_x)).saturating_add(t.x)
    }

    /// Like [`TextureDesc::tile_index`] but returns an error for a non-standard tile.
    pub fn try_tile_index(&self, t: TileCoord) -> Result<u32, TextureError> {
        self.tile_check(t)?;
        Ok(self.tile_index(t))
    }

    /// Inverse of [`TextureDesc::tile_index`]. `index < standard_tile_count()`
    /// (debug-asserted; release builds return tile (first_packed_mip, 0, 0) past the end).
    /// See [`TextureDesc::try_tile_from_index`].
    pub fn tile_from_index(&self, index: u32) -> TileCoord {
        debug_assert!(
            index < self.standard_tile_count(),
            "tile index {index} out of 0..{}",
            self.standard_tile_count()
        );
        let mut rest = index;
        for mip in 0..self.first_packed_mip() {
            let m = self.mip(mip);
            let count = m.tile_count();
            if rest < count {
                return TileCoord { mip, x: rest % m.tiles_x, y: rest / m.tiles_x };
            }
            rest -= count;
        }
        TileCoord { mip: self.first_packed_mip(), x: 0, y: 0 }
    }

    /// Like [`TextureDesc::tile_from_index`] but returns an error past the last tile.
    pub fn try_tile_from_index(&self, index: u32) -> Result<TileCoord, TextureError> {
        let count = self.standard_tile_count();
        if index >= count {
            return Err(TextureError::TileIndexOutOfRange { index, count });
        }
        Ok(self.tile_from_index(index))
    }
}

/// Texel index along an axis of `size` texels for normalized coordinate `t`, clamped to
/// `0..size` (NaN → 0).
fn texel(t: f64, size: u32) -> u32 {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    // `as` saturates; the product is at most `size`, pulled back into the last texel.
    ((t * f64::from(size)) as u32).min(size.saturating_sub(1))
}
