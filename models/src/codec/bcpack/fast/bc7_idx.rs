//! Fast BC7 indices (stream 2): one symbol per group of 4 (2-bit indices) or 2 (3- and
//! 4-bit) texels, each index the difference from a prediction by same-subset neighbours.
//!
//! Everything that depends only on the block's shape (which neighbours a texel has, the
//! table of each group) is precomputed once per shape in a [`Shape`], so the per-block
//! loop is a table lookup, a symbol and a branch-free select per texel.

use super::super::bc1::med;
use super::super::bc7::layout::{anchor_mask, subset_map, Fields, MODES};
use super::super::rans::SymCoder;

/// How texel *t* is predicted: nothing, the left, the upper, the mean of left and upper, or
/// MED of left, upper, upper-left — all within its subset.
const NONE: u8 = 0;
const LEFT: u8 = 1;
const UP: u8 = 2;
const MEAN: u8 = 3;
const MED: u8 = 4;

/// Per shape, `(subsets − 1) · 64 + partition`: each texel's predictor for whole-row groups
/// (2-bit indices: only the row above) and for pairs, and each group's table class (0: no
/// texel of the group has a prediction, 1: all have, 2: some have).
#[derive(Debug, Clone, Copy)]
pub(super) struct Shape {
    rows: [u8; 16],
    pairs: [u8; 16],
    rows_class: [u8; 4],
    pairs_class: [u8; 8],
}

impl Shape {
    fn new(map: u32) -> Self {
        let subset = |t: usize| (map >> (2 * t)) & 3;
        let mut s = Shape { rows: [NONE; 16], pairs: [NONE; 16], rows_class: [0; 4], pairs_class: [0; 8] };
        for t in 0..16 {
            let left = t % 4 > 0 && subset(t - 1) == subset(t);
            let up = t >= 4 && subset(t - 4) == subset(t);
            let up_left = t % 4 > 0 && t >= 4 && subset(t - 5) == subset(t);
            s.rows[t] = if up { UP } else { NONE };
            s.pairs[t] = match (left, up, up_left) {
                (true, true, true) => MED,
                (true, true, false) => MEAN,
                (true, false, _) => LEFT,
                (false, true, _) => UP,
                (false, false, _) => NONE,
            };
        }
        let class = |kinds: &[u8]| {
            let with = kinds.iter().filter(|&&k| k != NONE).count();
            if with == 0 {
                0
            } else if with == kinds.len() {
                1
            } else {
                2
            }
        };
        for (g, c) in s.rows_class.iter_mut().enumerate() {
            *c = class(&s.rows[4 * g..4 * g + 4]);
        }
        for (g, c) in s.pairs_class.iter_mut().enumerate() {
            *c = class(&s.pairs[2 * g..2 * g + 2]);
        }
        s
    }
}

/// The shapes of every mode and partition, built once per model rather than once per block.
pub(super) fn all_shapes() -> Vec<Shape> {
    (0..3 * 64)
        .map(|i| {
            let info = MODES.iter().find(|m| m.subsets == i / 64 + 1).unwrap_or(&MODES[6]);
            Shape::new(subset_map(info, i % 64))
        })
        .collect()
}

/// The prediction of texel `t` by predictor `kind` from the known indices `v` (texels the
/// predictor does not use may be anything: every candidate is computed, one is selected).
#[inline(always)]
fn predict(kind: u8, t: usize, v: &[u32; 16]) -> u32 {
    let (l, u, ul) = (v[(t + 15) & 15], v[(t + 12) & 15], v[(t + 11) & 15]);
    let cands = [0, l, u, (l + u) / 2, med(l, u, ul)];
    cands[usize::from(kind).min(4)]
}

/// Codes the primary, then the secondary index set of a non-reserved block.
pub(super) fn code_indices<C: SymCoder>(c: &mut C, old: &Fields, f: &mut Fields, shapes: &[Shape]) {
    let info = &MODES[f.mode];
    let anchors = anchor_mask(info, f.partition as usize);
    let index = (info.subsets - 1) * 64 + (f.partition as usize & 63);
    let Some(shape) = shapes.get(index) else { return };
    let mut high = 0u32;
    for set in 0..2 {
        let bits = if set == 0 { info.index_bits } else { info.index2_bits };
        if bits == 0 {
            continue;
        }
        let (src, dst) = if set == 0 { (&old.idx, &mut f.idx) } else { (&old.idx2, &mut f.idx2) };
        let base = (bits as usize - 2) * 3;
        let top = if bits == 2 {
            code_set::<C, 4>(c, src, dst, &shape.rows, &shape.rows_class, base, bits)
        } else {
            code_set::<C, 2>(c, src, dst, &shape.pairs, &shape.pairs_class, base, bits)
        };
        // Anchor texels (primary: texel 0 and the partition's anchors; secondary: texel 0)
        // have an implied-zero most significant bit.
        high |= top & if set == 0 { u32::from(anchors) } else { 1 };
    }
    c.check(high != 0, "a BC7 anchor index with its implied-zero bit set");
}

/// Codes one index set in groups of `G` texels; returns the mask of texels whose index has
/// its most significant bit set.
#[inline(always)]
fn code_set<C: SymCoder, const G: usize>(
    c: &mut C,
    src: &[u32; 16],
    dst: &mut [u32; 16],
    kinds: &[u8; 16],
    classes: &[u8],
    base: usize,
    bits: u32,
) -> u32 {
    let mask = (1u32 << bits) - 1;
    let mut high = 0u32;
    for (g, &class) in classes.iter().enumerate() {
        let t0 = g * G;
        let mut want = 0;
        if !C::DECODING {
            let mut known = *dst;
            for k in 0..G {
                let t = t0 + k;
                let d = src[t].wrapping_sub(predict(kinds[t], t, &known)) & mask;
                known[t] = src[t];
                want |= d << (bits as usize * k);
            }
        }
        // The tables' alphabets are exactly `G` indices of `bits` bits.
        let sym = c.sym(base + usize::from(class), want);
        for k in 0..G {
            let t = t0 + k;
            let d = (sym >> (bits as usize * k)) & mask;
            let v = (d + predict(kinds[t], t, dst)) & mask;
            high |= (v >> (bits - 1)) << t;
            dst[t] = v;
        }
    }
    high
}
