//! BC field shuffles: inside each 64 KiB unit of N blocks, byte field k (offset o, width w
//! in every block) is gathered into one plane of N·w bytes. Fields are listed in block
//! order, so plane k starts at N·o: the shuffle is a transpose of the unit's
//! (block × field) matrix, and the last, partial unit is shuffled the same way with its
//! own N.
//!
//! Every mode is built from 8-byte halves of two shapes: a BC1 colour half (2+2+4) and a
//! BC4 channel half (1+1+6). BC1 = colour; BC4 = channel; BC3 = channel (alpha) then colour;
//! BC5 = channel then channel. Each half is moved in one pass with fixed-size copies.

use super::UNIT_BYTES;

/// The two 8-byte field shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Half {
    /// colour0 (2 B), colour1 (2 B), 32 index bits (4 B): BC1, and BC3's second half.
    Colour,
    /// endpoint0 (1 B), endpoint1 (1 B), 48 index bits (6 B): BC4, BC3's alpha, BC5's halves.
    Channel,
}

#[cfg(test)]
impl Half {
    /// Field widths in block order (the fast passes hard-code them as const generics).
    pub(crate) fn widths(self) -> [usize; 3] {
        match self {
            Half::Colour => [2, 2, 4],
            Half::Channel => [1, 1, 6],
        }
    }
}

pub(crate) const BC1: &[Half] = &[Half::Colour];
pub(crate) const BC3: &[Half] = &[Half::Channel, Half::Colour];
pub(crate) const BC4: &[Half] = &[Half::Channel];
pub(crate) const BC5: &[Half] = &[Half::Channel, Half::Channel];

/// Blocks → field planes (the packer's direction). `src.len()` is a whole number of
/// `B`-byte blocks, `B == 8 * halves.len()`, and `dst` is as long as `src`.
pub(crate) fn split<const B: usize>(halves: &[Half], src: &[u8], dst: &mut [u8]) {
    for (unit, out) in src.chunks(UNIT_BYTES).zip(dst.chunks_mut(UNIT_BYTES)) {
        let n = unit.len() / B;
        for (h, half) in halves.iter().enumerate() {
            let planes = &mut out[n * 8 * h..n * 8 * (h + 1)];
            match half {
                Half::Colour => split3::<B, 2, 2, 4>(unit, 8 * h, planes),
                Half::Channel => split3::<B, 1, 1, 6>(unit, 8 * h, planes),
            }
        }
    }
}

/// Field planes → blocks (the MDU's direction); the exact inverse of [`split`].
pub(crate) fn join<const B: usize>(halves: &[Half], src: &[u8], dst: &mut [u8]) {
    for (unit, out) in src.chunks(UNIT_BYTES).zip(dst.chunks_mut(UNIT_BYTES)) {
        let n = unit.len() / B;
        for (h, half) in halves.iter().enumerate() {
            let planes = &unit[n * 8 * h..n * 8 * (h + 1)];
            match half {
                Half::Colour => join3::<B, 2, 2, 4>(planes, 8 * h, out),
                Half::Channel => join3::<B, 1, 1, 6>(planes, 8 * h, out),
            }
        }
    }
}

// Block and field sizes are constants so each copy compiles to a fixed-size move.
fn split3<const B: usize, const W0: usize, const W1: usize, const W2: usize>(
    blocks: &[u8],
    base: usize,
    planes: &mut [u8],
) {
    let n = blocks.len() / B;
    let (p0, rest) = planes.split_at_mut(n * W0);
    let (p1, p2) = rest.split_at_mut(n * W1);
    let dsts = p0.chunks_exact_mut(W0).zip(p1.chunks_exact_mut(W1)).zip(p2.chunks_exact_mut(W2));
    for (blk, ((a, b), c)) in blocks.chunks_exact(B).zip(dsts) {
        let half = &blk[base..base + W0 + W1 + W2];
        a.copy_from_slice(&half[..W0]);
        b.copy_from_slice(&half[W0..W0 + W1]);
        c.copy_from_slice(&half[W0 + W1..]);
    }
}

fn join3<const B: usize, const W0: usize, const W1: usize, const W2: usize>(
    planes: &[u8],
    base: usize,
    blocks: &mut [u8],
) {
    let n = blocks.len() / B;
    let (p0, rest) = planes.split_at(n * W0);
    let (p1, p2) = rest.split_at(n * W1);
    let srcs = p0.chunks_exact(W0).zip(p1.chunks_exact(W1)).zip(p2.chunks_exact(W2));
    for (blk, ((a, b), c)) in blocks.chunks_exact_mut(B).zip(srcs) {
        let half = &mut blk[base..base + W0 + W1 + W2];
        half[..W0].copy_from_slice(a);
        half[W0..W0 + W1].copy_from_slice(b);
        half[W0 + W1..].copy_from_slice(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// (offset, width) of every field of a block, in block order.
    fn fields(halves: &[Half]) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (h, half) in halves.iter().enumerate() {
            let mut o = 8 * h;
            for w in half.widths() {
                v.push((o, w));
                o += w;
            }
        }
        v
    }

    /// The definition, byte by byte: plane k of a unit of n blocks holds field k of
    /// block 0, then of block 1, ...
    fn reference_split(halves: &[Half], src: &[u8]) -> Vec<u8> {
        let b = 8 * halves.len();
        let mut out = Vec::with_capacity(src.len());
        for unit in src.chunks(UNIT_BYTES) {
            for (o, w) in fields(halves) {
                for blk in unit.chunks_exact(b) {
                    out.extend_from_slice(&blk[o..o + w]);
                }
            }
        }
        out
    }

    #[test]
    fn the_public_field_layouts() {
        assert_eq!(fields(BC1), [(0, 2), (2, 2), (4, 4)]);
        assert_eq!(fields(BC3), [(0, 1), (1, 1), (2, 6), (8, 2), (10, 2), (12, 4)]);
        assert_eq!(fields(BC4), [(0, 1), (1, 1), (2, 6)]);
        assert_eq!(fields(BC5), [(0, 1), (1, 1), (2, 6), (8, 1), (9, 1), (10, 6)]);
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

    /// Each 64 KiB unit is shuffled on its own; a trailing partial unit with its own N.
    #[test]
    fn units_are_independent_and_the_last_may_be_partial() {
        let len = UNIT_BYTES + 3 * 8;
        let src: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = vec![0; len];
        split::<8>(BC4, &src, &mut whole);
        let mut first = vec![0; UNIT_BYTES];
        split::<8>(BC4, &src[..UNIT_BYTES], &mut first);
        assert_eq!(&whole[..UNIT_BYTES], &first[..]);
        // The partial unit's planes: 3 red0, 3 red1, 3×6 indices.
        let tail = &src[UNIT_BYTES..];
        assert_eq!(whole[UNIT_BYTES..UNIT_BYTES + 6], [tail[0], tail[8], tail[16], tail[1], tail[9], tail[17]]);
        assert_eq!(whole[UNIT_BYTES + 6..UNIT_BYTES + 12], tail[2..8]);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// The fast passes equal the byte-by-byte definition, in both directions.
        #[test]
        fn fast_shuffles_match_the_definition(mode in 0usize..4, blocks in 0usize..20_000, seed in any::<u8>()) {
            let (halves, b) = [(BC1, 8), (BC3, 16), (BC4, 8), (BC5, 16)][mode];
            let src: Vec<u8> = (0..blocks * b).map(|i| (i as u8).wrapping_mul(seed | 1) ^ (i >> 9) as u8).collect();
            let mut fast = vec![0; src.len()];
            if b == 8 { split::<8>(halves, &src, &mut fast) } else { split::<16>(halves, &src, &mut fast) }
            prop_assert!(fast == reference_split(halves, &src));
            let mut back = vec![0; src.len()];
            if b == 8 { join::<8>(halves, &fast, &mut back) } else { join::<16>(halves, &fast, &mut back) }
            prop_assert!(back == src);
        }
    }
}
