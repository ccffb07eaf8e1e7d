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
        for (e, value) in cur[..2].iter_mut().enumerate() {
            let pred = endpoint_prediction(nb, e);
            let sym = ce.tree(self.endpoint_tree(e, prev_sym), 8, fold(u32::from(*value), pred, 8), false);
            *value = unfold(sym, pred, 8) as u8;
            prev_sym = sym;
        }
        let mut run = IndexRun::new(cur, nb);
        for t in 0..16 {
            let ord = ci.tree(run.tree(self, t), 3, run.value(t), false);
            run.set(t, ord);
        }
        run.finish(cur);
    }

    /// The tree of endpoint `e`, in the context of endpoint 0's symbol for endpoint 1.
    #[inline]
    fn endpoint_tree(&mut self, e: usize, prev_sym: u32) -> &mut [Prob; 256] {
        let ctx = if e == 0 { 0 } else { 1 + bucket(prev_sym) };
        &mut self.ep[e * EP_CTX + ctx]
    }
}

/// Endpoint `e`'s prediction from the neighbours' same endpoint.
#[inline]
fn endpoint_prediction(nb: &Nb, e: usize) -> u32 {
    predict([nb.left, nb.up, nb.up_left].map(|b| b.map(|b| u32::from(b[e]))), 128)
}

/// A block's 16 indices, coded texel by texel as palette positions in the context of the
/// left and upper positions (crossing into the neighbour blocks at the block's edge).
struct IndexRun {
    ty: usize,
    /// The block's indices as given (the encoder's values; zeros when decoding).
    old: u64,
    /// Palette positions so far; the neighbour blocks' edge texels, worked out up front.
    ords: [u8; 16],
    left_edge: [u8; 4],
    up_edge: [u8; 4],
    out: u64,
}

impl IndexRun {
    /// Starts on block `cur`, whose endpoints are already coded.
    #[inline]
    fn new(cur: &[u8], nb: &Nb) -> Self {
        let edge = |b: Option<&[u8]>, texel: u32| -> u8 {
            b.map_or(NONE as u8, |b| ORD[block_type(b)][((indices(b) >> (3 * texel)) & 7) as usize])
        };
        IndexRun {
            ty: block_type(cur),
            old: indices(cur),
            ords: [0; 16],
            left_edge: [0, 4, 8, 12].map(|t| edge(nb.left, t + 3)),
            up_edge: [0, 1, 2, 3].map(|t| edge(nb.up, t + 12)),
            out: 0,
        }
    }

    /// The context tree of texel `t` (every texel before it set).
    #[inline]
    fn tree<'u>(&self, unit: &'u mut ChannelUnit, t: usize) -> &'u mut [Prob; 8] {
        let left = if !t.is_multiple_of(4) { self.ords[t - 1] } else { self.left_edge[t / 4] };
        let up = if t >= 4 { self.ords[t - 4] } else { self.up_edge[t] };
        &mut unit.idx[(self.ty * NB_VALUES + usize::from(left)) * NB_VALUES + usize::from(up)]
    }

    /// Texel `t`'s palette position as given (what the encoder codes).
    #[inline]
    fn value(&self, t: usize) -> u32 {
        u32::from(ORD[self.ty][((self.old >> (3 * t)) & 7) as usize])
    }

    #[inline]
    fn set(&mut self, t: usize, ord: u32) {
        self.ords[t] = ord as u8;
        self.out |= u64::from(IDX[self.ty][ord as usize]) << (3 * t);
    }

    fn finish(self, cur: &mut [u8]) {
        cur[2..8].copy_from_slice(&self.out.to_le_bytes()[..6]);
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
        let [red_ends, red_indices, green_ends, green_indices] = c;
        let (red, green) = cur.split_at_mut(8);
        let (nb_red, nb_green) = (nb.sub(0, 8), nb.sub(8, 8));
        // The halves share nothing but the copy flag: their trees go in lockstep, so a
        // decoder works on both streams' dependency chains at once.
        let mut prev = [0, 0];
        for e in 0..2 {
            let pred = [endpoint_prediction(&nb_red, e), endpoint_prediction(&nb_green, e)];
            let given = [fold(u32::from(red[e]), pred[0], 8), fold(u32::from(green[e]), pred[1], 8)];
            let trees = (self.red.endpoint_tree(e, prev[0]), self.green.endpoint_tree(e, prev[1]));
            let (r, g) = C::tree_pair(
                (red_ends, trees.0.as_mut_slice(), given[0]),
                (green_ends, trees.1.as_mut_slice(), given[1]),
                8,
            );
            red[e] = unfold(r, pred[0], 8) as u8;
            green[e] = unfold(g, pred[1], 8) as u8;
            prev = [r, g];
        }
        let (mut run_red, mut run_green) = (IndexRun::new(red, &nb_red), IndexRun::new(green, &nb_green));
        for t in 0..16 {
            let r = (&mut *red_indices, run_red.tree(&mut self.red, t).as_mut_slice(), run_red.value(t));
            let g = (&mut *green_indices, run_green.tree(&mut self.green, t).as_mut_slice(), run_green.value(t));
            let (r, g) = C::tree_pair(r, g, 3);
            run_red.set(t, r);
            run_green.set(t, g);
        }
        run_red.finish(red);
        run_green.finish(green);
        Ok(())
    }
}
