//! BC4 (and the alpha half of BC3, both halves of BC5): two 8-bit endpoints and 16 3-bit
//! indices.
//!
//! Endpoints are residuals against the median prediction from the neighbour blocks' same
//! endpoint; indices are re-numbered in palette order (ep0 … ep1, then the 6-value mode's
//! constant 0 and 255) and coded with the left and upper texels' re-numbered indices as
//! context, like BC1 selectors.

use super::bc1::{bucket, predict, ColourUnit};
use super::driver::{Coder, Model, Nb};
use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::range::{fold, unfold, Prob};

const TYPES: usize = 3;
/// Palette positions 0..7, or 8 = no neighbour.
const NB_VALUES: usize = 9;
const NONE: usize = 8;
const EP_CTX: usize = 5;

/// Palette position of each index: 8-value mode (a0 > a1), 6-value mode, flat (a0 == a1).
pub(super) const ORD: [[u8; 8]; TYPES] = [[0, 7, 1, 2, 3, 4, 5, 6], [0, 5, 1, 2, 3, 4, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]];
pub(super) const IDX: [[u8; 8]; TYPES] = [[0, 2, 3, 4, 5, 6, 7, 1], [0, 2, 3, 4, 5, 1, 6, 7], [0, 1, 2, 3, 4, 5, 6, 7]];

pub(super) fn indices(b: &[u8]) -> u64 {
    let mut v = [0u8; 8];
    v[..6].copy_from_slice(&b[2..8]);
    u64::from_le_bytes(v)
}

pub(super) fn block_type(b: &[u8]) -> usize {
    if b[0] == b[1] {
        2
    } else if b[0] > b[1] {
        0
    } else {
        1
    }
}

/// The BC4 model over one 8-byte single-channel block.
pub(super) struct ChannelUnit {
    ep: Vec<[Prob; 256]>,
    idx: Vec<[Prob; 8]>,
}

impl Default for ChannelUnit {
    fn default() -> Self {
        ChannelUnit {
            ep: vec![[Prob::default(); 256]; 2 * EP_CTX],
            idx: vec![[Prob::default(); 8]; TYPES * NB_VALUES * NB_VALUES],
        }
    }
}

impl ChannelUnit {
    pub(super) fn code<C: Coder>(&mut self, ce: &mut C, ci: &mut C, cur: &mut [u8], nb: &Nb) {
        let mut prev_sym = 0;
        for e in 0..2 {
            let pred = predict([nb.left, nb.up, nb.up_left].map(|b| b.map(|b| u32::from(b[e]))), 128);
            let ctx = if e == 0 { 0 } else { 1 + bucket(prev_sym) };
            let sym = ce.tree(&mut self.ep[e * EP_CTX + ctx], 8, fold(u32::from(cur[e]), pred, 8), false);
            cur[e] = unfold(sym, pred, 8) as u8;
            prev_sym = sym;
        }
        let ty = block_type(cur);
        let edge = |b: Option<&[u8]>, texel: u32| -> usize {
            b.map_or(NONE, |b| usize::from(ORD[block_type(b)][((indices(b) >> (3 * texel)) & 7) as usize]))
        };
        let old = indices(cur);
        let mut ords = [0u8; 16];
        let mut out = 0u64;
        for t in 0..16u32 {
            let (tx, ty_) = (t % 4, t / 4);
            let left = if tx > 0 { usize::from(ords[(t - 1) as usize]) } else { edge(nb.left, t + 3) };
            let up = if ty_ > 0 { usize::from(ords[(t - 4) as usize]) } else { edge(nb.up, t + 12) };
            let probs = &mut self.idx[(ty * NB_VALUES + left) * NB_VALUES + up];
            let ord = ci.tree(probs, 3, u32::from(ORD[ty][((old >> (3 * t)) & 7) as usize]), false);
            ords[t as usize] = ord as u8;
            out |= u64::from(IDX[ty][ord as usize]) << (3 * t);
        }
        cur[2..8].copy_from_slice(&out.to_le_bytes()[..6]);
    }
}

#[derive(Default)]
pub(super) struct Bc4 {
    unit: ChannelUnit,
}

impl Model for Bc4 {
    const BLOCK_BYTES: usize = 8;
    /// 0: copy flags + endpoints, 1: indices.
    const STREAMS: usize = 2;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        _: usize,
    ) -> Result<(), BcpackError> {
        let [ce, ci, ..] = c;
        self.unit.code(ce, ci, cur, nb);
        Ok(())
    }
}

/// BC3: a BC4 alpha block followed by a (always 4-colour) BC1 colour block.
pub(super) struct Bc3 {
    alpha: ChannelUnit,
    colour: ColourUnit,
}

impl Default for Bc3 {
    fn default() -> Self {
        Bc3 { alpha: ChannelUnit::default(), colour: ColourUnit::new(true) }
    }
}

impl Model for Bc3 {
    const BLOCK_BYTES: usize = 16;
    /// 0: copy flags + alpha endpoints, 1: alpha indices, 2: colour endpoints, 3: selectors.
    const STREAMS: usize = 4;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        _: usize,
    ) -> Result<(), BcpackError> {
        let [a, b, d, e] = c;
        let (alpha, colour) = cur.split_at_mut(8);
        self.alpha.code(a, b, alpha, &nb.sub(0, 8));
        self.colour.code(d, e, colour, &nb.sub(8, 8));
        Ok(())
    }
}

/// BC5: two independent BC4 blocks (red, then green).
#[derive(Default)]
pub(super) struct Bc5 {
    red: ChannelUnit,
    green: ChannelUnit,
}

impl Model for Bc5 {
    const BLOCK_BYTES: usize = 16;
    /// 0: copy flags + red endpoints, 1: red indices, 2: green endpoints, 3: green indices.
    const STREAMS: usize = 4;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        _: usize,
    ) -> Result<(), BcpackError> {
        let [a, b, d, e] = c;
        let (red, green) = cur.split_at_mut(8);
        self.red.code(a, b, red, &nb.sub(0, 8));
        self.green.code(d, e, green, &nb.sub(8, 8));
        Ok(())
    }
}
