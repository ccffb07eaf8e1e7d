//! From a texture's feedback to the standard tiles it requests, in (mip, x, y) order
//! without duplicates. Neighbouring feedback texels mostly name the same coarse tiles, so
//! the tiles are collected in a bitmap (one bit per standard tile, column-major within a
//! mip so that reading the bits in order yields (mip, x, y) order) instead of a list that
//! must be sorted and deduplicated.

use sfsim_models::texture::{TileCoord, TileGrid};

/// The standard tiles of one texture, as a set.
#[derive(Debug, Clone)]
pub struct TileSet {
    grid: TileGrid,
    /// Per standard mip: first bit, tiles across, tiles down.
    mips: Vec<(usize, u32, u32)>,
    words: Vec<u64>,
    /// Some bit is set.
    any: bool,
}

impl TileSet {
    pub fn new(grid: TileGrid) -> TileSet {
        let mut mips = Vec::with_capacity(grid.first_packed_mip() as usize);
        let mut bits = 0usize;
        for mip in 0..grid.first_packed_mip() {
            let (tx, ty) = grid.tiles(mip);
            mips.push((bits, tx, ty));
            bits += tx as usize * ty as usize;
        }
        TileSet { grid, mips, words: vec![0; bits.div_ceil(64)], any: false }
    }

    pub fn grid(&self) -> &TileGrid {
        &self.grid
    }

    /// Adds the tiles of `mip` in columns `x0..=x1`, rows `y0..=y1`, cut to the mip's
    /// grid. A packed mip has no standard tiles: nothing is added.
    pub fn insert_rect(&mut self, mip: u32, x0: u32, x1: u32, y0: u32, y1: u32) {
        let Some(&(first, tiles_x, tiles_y)) = self.mips.get(mip as usize) else { return };
        for x in x0..=x1.min(tiles_x.saturating_sub(1)) {
            let column = first + (x * tiles_y) as usize;
            for y in y0..=y1.min(tiles_y.saturating_sub(1)) {
                let bit = column + y as usize;
                self.words[bit / 64] |= 1 << (bit % 64);
                self.any = true;
            }
        }
    }

    /// Adds one tile; nothing when it is outside the mip's grid or the mip is packed.
    #[inline]
    pub fn insert(&mut self, mip: u32, x: u32, y: u32) {
        let Some(&(first, tiles_x, tiles_y)) = self.mips.get(mip as usize) else { return };
        if x < tiles_x && y < tiles_y {
            let bit = first + (x * tiles_y + y) as usize;
            self.words[bit / 64] |= 1 << (bit % 64);
            self.any = true;
        }
    }

    /// Appends the set's tiles as (`texture`, tile) in (mip, x, y) order and empties it.
    pub fn drain_into(&mut self, texture: u32, out: &mut Vec<(u32, TileCoord)>) {
        if !std::mem::take(&mut self.any) {
            return;
        }
        let mut mip = 0usize;
        for (w, word) in self.words.iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                let bit = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                while mip + 1 < self.mips.len() && bit >= self.mips[mip + 1].0 {
                    mip += 1;
                }
                let (first, _, tiles_y) = self.mips[mip];
                let within = (bit - first) as u32;
                out.push((texture, TileCoord { mip: mip as u32, x: within / tiles_y, y: within % tiles_y }));
            }
        }
    }
}

/// The texels of one feedback map first written since its clear, as x | y << 16, recorded
/// without a branch on whether the write was the first: a texel is first written at most
/// once per clear, so one slot per texel (plus the one the next record writes) suffices.
#[derive(Debug, Clone)]
pub struct FirstWrites {
    slots: Vec<u32>,
    len: usize,
}

impl FirstWrites {
    /// For a map of `texels` texels.
    pub fn new(texels: usize) -> FirstWrites {
        FirstWrites { slots: vec![0; texels + 1], len: 0 }
    }

    /// Records texel `xy`, kept only when `first`. At most one `first` per texel per clear.
    #[inline]
    pub fn record(&mut self, xy: u32, first: bool) {
        self.slots[self.len] = xy;
        self.len += usize::from(first);
    }

    /// Makes this list a copy of `other`, a list of a map of the same size.
    pub fn copy_from(&mut self, other: &FirstWrites) {
        self.slots[..other.len].copy_from_slice(&other.slots[..other.len]);
        self.len = other.len;
    }

    /// A [`record`](Self::record)er for a run of writes whose count stays in a register:
    /// through `&mut self`, every store to a slot could alias the count, so it would be
    /// stored and re-loaded around each one. The count is written back when it drops.
    #[inline]
    pub fn recorder(&mut self) -> FirstWritesRecorder<'_> {
        FirstWritesRecorder { slots: &mut self.slots, len: self.len, count: &mut self.len }
    }

    pub fn texels(&self) -> &[u32] {
        &self.slots[..self.len]
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

/// [`FirstWrites::recorder`].
pub struct FirstWritesRecorder<'a> {
    slots: &'a mut [u32],
    len: usize,
    count: &'a mut usize,
}

impl FirstWritesRecorder<'_> {
    /// [`FirstWrites::record`].
    #[inline]
    pub fn record(&mut self, xy: u32, first: bool) {
        self.slots[self.len] = xy;
        self.len += usize::from(first);
    }
}

impl Drop for FirstWritesRecorder<'_> {
    #[inline]
    fn drop(&mut self) {
        *self.count = self.len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::texture::{BcFormat, TextureDesc};

    #[test]
    fn drains_in_tile_order_without_duplicates() {
        let desc = TextureDesc::new(4096, 4096, BcFormat::Bc1, None).unwrap();
        let mut set = TileSet::new(TileGrid::new(&desc));
        let mut single = set.clone();
        let mut expected = Vec::new();
        // Overlapping rectangles on several mips, some reaching past the grid's edge.
        for (mip, x0, x1, y0, y1) in
            [(2, 1, 3, 0, 2), (0, 7, 7, 15, 40), (2, 2, 5, 1, 1), (1, 0, 0, 0, 0), (12, 0, 0, 0, 0)]
        {
            let (tx, ty) = set.grid().tiles(mip);
            // A packed mip has no tiles (0 × 0).
            for x in (x0..tx).take_while(|&x| x <= x1) {
                for y in (y0..ty).take_while(|&y| y <= y1) {
                    expected.push((9, TileCoord { mip, x, y }));
                }
            }
            set.insert_rect(mip, x0, x1, y0, y1);
            if x0 == x1 && y0 == y1 {
                single.insert(mip, x0, y0);
            }
        }
        expected.sort_unstable();
        expected.dedup();
        let mut out = Vec::new();
        set.drain_into(9, &mut out);
        assert_eq!(out, expected);
        assert!(out.len() >= 5, "the case must cover several tiles");
        set.drain_into(9, &mut out);
        assert_eq!(out, expected, "draining empties the set");
        let mut singles = Vec::new();
        single.drain_into(9, &mut singles);
        // Only the one-tile rectangle inside a standard mip was inserted singly.
        assert_eq!(singles, vec![(9, TileCoord { mip: 1, x: 0, y: 0 })]);
    }

    #[test]
    fn first_writes_keep_only_first_records_and_hold_every_texel() {
        let mut writes = FirstWrites::new(3);
        for (xy, first) in [(5, true), (5, false), (7, true), (9, true), (7, false), (9, false)] {
            writes.record(xy, first);
        }
        assert_eq!(writes.texels(), &[5, 7, 9]);
        writes.clear();
        assert!(writes.texels().is_empty());
    }

    #[test]
    fn a_recorder_records_as_record_does_and_keeps_the_count() {
        let mut writes = FirstWrites::new(4);
        writes.record(1, true);
        {
            let mut recorder = writes.recorder();
            for (xy, first) in [(5, true), (5, false), (7, true)] {
                recorder.record(xy, first);
            }
        }
        writes.record(2, false);
        writes.recorder().record(9, true);
        assert_eq!(writes.texels(), &[1, 5, 7, 9]);
    }
}
