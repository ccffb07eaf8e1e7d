//! Layout swizzle inside one 64 KiB tile: row-major blocks ↔ Morton (Z-order) blocks.
//!
//! A tile is 128×64 blocks of 8 B or 64×64 blocks of 16 B. Block (x, y) goes to Morton
//! index `(x >> 6) << 12 | interleave(x & 63, y)`, where `interleave` puts x's bits on the
//! even bit positions and y's on the odd ones (x bit 0 lowest). The 64×64 grid is one
//! Z-order square; the 128×64 grid is two such squares side by side, the left one first.

use super::UNIT_BYTES;

/// Spreads the low 6 bits of `v` onto the even bit positions.
#[inline]
fn spread6(v: usize) -> usize {
    let mut v = v & 0x3f;
    v = (v | v << 4) & 0x30f;
    v = (v | v << 2) & 0x333;
    (v | v << 1) & 0x555
}

/// Morton index of block (x, y) in a tile `width` blocks wide (64 or 128) and 64 high.
#[inline]
pub(crate) fn morton_index(x: usize, y: usize) -> usize {
    (x >> 6) << 12 | spread6(x) | spread6(y) << 1
}

/// Row-major → Morton, tile by tile. `src.len()` is a whole number of tiles.
/// Works on 2×2 block quads, which are contiguous in Morton order: one index computation
/// and two copies of two adjacent blocks per quad.
pub(crate) fn to_morton<const B: usize>(src: &[u8], dst: &mut [u8]) {
    let row = UNIT_BYTES / 64;
    for (tile, out) in src.chunks_exact(UNIT_BYTES).zip(dst.chunks_exact_mut(UNIT_BYTES)) {
        for (y2, rows) in tile.chunks_exact(2 * row).enumerate() {
            let (r0, r1) = rows.split_at(row);
            for (x2, (a, b)) in r0.chunks_exact(2 * B).zip(r1.chunks_exact(2 * B)).enumerate() {
                let m = morton_index(2 * x2, 2 * y2) * B;
                let quad = &mut out[m..m + 4 * B];
                quad[..2 * B].copy_from_slice(a);
                quad[2 * B..].copy_from_slice(b);
            }
        }
    }
}

/// Morton → row-major: the exact inverse of [`to_morton`].
pub(crate) fn to_linear<const B: usize>(src: &[u8], dst: &mut [u8]) {
    let row = UNIT_BYTES / 64;
    for (tile, out) in src.chunks_exact(UNIT_BYTES).zip(dst.chunks_exact_mut(UNIT_BYTES)) {
        for (y2, rows) in out.chunks_exact_mut(2 * row).enumerate() {
            let (r0, r1) = rows.split_at_mut(row);
            for (x2, (a, b)) in r0.chunks_exact_mut(2 * B).zip(r1.chunks_exact_mut(2 * B)).enumerate() {
                let m = morton_index(2 * x2, 2 * y2) * B;
                let quad = &tile[m..m + 4 * B];
                a.copy_from_slice(&quad[..2 * B]);
                b.copy_from_slice(&quad[2 * B..]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_z_orders_by_hand() {
        // (0,0) (1,0) (0,1) (1,1) (2,0) (3,0) (2,1) (3,1) (0,2) ...
        let order = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (3, 0), (2, 1), (3, 1), (0, 2)];
        for (m, &(x, y)) in order.iter().enumerate() {
            assert_eq!(morton_index(x, y), m, "({x},{y})");
        }
        assert_eq!(morton_index(63, 63), 4095);
        assert_eq!(morton_index(64, 0), 4096);
        assert_eq!(morton_index(127, 63), 8191);
    }

    #[test]
    fn morton_index_is_a_bijection_on_both_grids() {
        for width in [64usize, 128] {
            let mut seen = vec![false; width * 64];
            for y in 0..64 {
                for x in 0..width {
                    let m = morton_index(x, y);
                    assert!(!seen[m], "width {width}: ({x},{y}) collides at {m}");
                    seen[m] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    /// Every 2×2 block quad is contiguous in Morton order.
    #[test]
    fn quads_are_contiguous() {
        for y in (0..64).step_by(2) {
            for x in (0..128).step_by(2) {
                let m = morton_index(x, y);
                assert_eq!(m % 4, 0);
                assert_eq!(
                    [morton_index(x + 1, y), morton_index(x, y + 1), morton_index(x + 1, y + 1)],
                    [m + 1, m + 2, m + 3]
                );
            }
        }
    }
}
