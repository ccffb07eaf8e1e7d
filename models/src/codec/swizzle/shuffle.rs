//! BC field shuffles: inside each 64 KiB unit of N blocks, byte field k (offset o, width w
//! in every block) is gathered into one plane of N·w bytes. Fields are listed in block
//! order, so plane k starts at N·o: the shuffle is a transpose of the unit's
//! (block × field) matrix, and the last, partial unit is shuffled the same way with its
//! own N.

use super::UNIT_BYTES;

/// One field of a BC block: `width` bytes at `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    pub offset: usize,
    pub width: usize,
}

const fn f(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

/// BC1: colour0 (2 B), colour1 (2 B), 32 index bits (4 B).
pub(crate) const BC1: &[Field] = &[f(0, 2), f(2, 2), f(4, 4)];
/// BC3: alpha0, alpha1, 48 alpha index bits, then BC1's colour fields.
pub(crate) const BC3: &[Field] = &[f(0, 1), f(1, 1), f(2, 6), f(8, 2), f(10, 2), f(12, 4)];
/// BC4: red0, red1, 48 index bits.
pub(crate) const BC4: &[Field] = &[f(0, 1), f(1, 1), f(2, 6)];
/// BC5: the red BC4 half, then the green one, each 1+1+6.
pub(crate) const BC5: &[Field] = &[f(0, 1), f(1, 1), f(2, 6), f(8, 1), f(9, 1), f(10, 6)];

/// Blocks → field planes (the packer's direction). `src.len()` is a whole number of
/// blocks and `dst` is as long as `src`.
pub(crate) fn split<const B: usize>(fields: &[Field], src: &[u8], dst: &mut [u8]) {
    for (unit, out) in src.chunks(UNIT_BYTES).zip(dst.chunks_mut(UNIT_BYTES)) {
        let n = unit.len() / B;
        for fl in fields {
            let plane = &mut out[n * fl.offset..n * (fl.offset + fl.width)];
            match fl.width {
                1 => split_field::<B, 1>(unit, fl.offset, plane),
                2 => split_field::<B, 2>(unit, fl.offset, plane),
                4 => split_field::<B, 4>(unit, fl.offset, plane),
                _ => split_field::<B, 6>(unit, fl.offset, plane),
            }
        }
    }
}

/// Field planes → blocks (the MDU's direction); the exact inverse of [`split`].
pub(crate) fn join<const B: usize>(fields: &[Field], src: &[u8], dst: &mut [u8]) {
    for (unit, out) in src.chunks(UNIT_BYTES).zip(dst.chunks_mut(UNIT_BYTES)) {
        let n = unit.len() / B;
        for fl in fields {
            let plane = &unit[n * fl.offset..n * (fl.offset + fl.width)];
            match fl.width {
                1 => join_field::<B, 1>(plane, fl.offset, out),
                2 => join_field::<B, 2>(plane, fl.offset, out),
                4 => join_field::<B, 4>(plane, fl.offset, out),
                _ => join_field::<B, 6>(plane, fl.offset, out),
            }
        }
    }
}

// Block and field sizes are constants so each copy compiles to a fixed-size move.
fn split_field<const B: usize, const W: usize>(blocks: &[u8], offset: usize, plane: &mut [u8]) {
    for (dst, blk) in plane.chunks_exact_mut(W).zip(blocks.chunks_exact(B)) {
        dst.copy_from_slice(&blk[offset..offset + W]);
    }
}

fn join_field<const B: usize, const W: usize>(plane: &[u8], offset: usize, blocks: &mut [u8]) {
    for (src, blk) in plane.chunks_exact(W).zip(blocks.chunks_exact_mut(B)) {
        blk[offset..offset + W].copy_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_tables_cover_each_block_exactly_once_in_order() {
        for (fields, b) in [(BC1, 8), (BC3, 16), (BC4, 8), (BC5, 16)] {
            let mut next = 0;
            for fl in fields {
                assert_eq!(fl.offset, next);
                assert!(matches!(fl.width, 1 | 2 | 4 | 6));
                next += fl.width;
            }
            assert_eq!(next, b);
        }
    }

    /// Two BC1 blocks written out by hand: the planes are c0 c0', c1 c1', idx idx'.
    #[test]
    fn bc1_two_blocks_by_hand() {
        let src = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18];
        let mut dst = [0; 16];
        split::<8>(BC1, &src, &mut dst);
        assert_eq!(dst, [1, 2, 11, 12, 3, 4, 13, 14, 5, 6, 7, 8, 15, 16, 17, 18]);
        let mut back = [0; 16];
        join::<8>(BC1, &dst, &mut back);
        assert_eq!(back, src);
    }

    /// BC5 by hand: every byte of block i is 16·i + its offset, so each plane's contents
    /// can be predicted.
    #[test]
    fn bc5_planes_by_hand() {
        let n = 3;
        let src: Vec<u8> = (0..n * 16).map(|i| i as u8).collect();
        let mut dst = vec![0; src.len()];
        split::<16>(BC5, &src, &mut dst);
        let mut expected = Vec::new();
        for fl in BC5 {
            for blk in 0..n {
                expected.extend((0..fl.width).map(|k| (blk * 16 + fl.offset + k) as u8));
            }
        }
        assert_eq!(dst, expected);
    }

    /// Each 64 KiB unit is shuffled on its own; a trailing partial unit with its own N.
    #[test]
    fn units_are_independent_and_the_last_may_be_partial() {
        let len = UNIT_BYTES + 3 * 8;
        let src: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = vec![0; len];
        split::<8>(BC4, &src, &mut whole);
        let mut first = vec![0; UNIT_BYTES];
        split::<8>(BC4, &src[..UNIT_BYTES], &mut first);
        let mut last = vec![0; 24];
        split::<8>(BC4, &src[UNIT_BYTES..], &mut last);
        assert_eq!(&whole[..UNIT_BYTES], &first[..]);
        assert_eq!(&whole[UNIT_BYTES..], &last[..]);
        // The partial unit's planes: 3 red0, 3 red1, 3×6 indices.
        assert_eq!(last[..3], [src[UNIT_BYTES], src[UNIT_BYTES + 8], src[UNIT_BYTES + 16]]);
    }
}
