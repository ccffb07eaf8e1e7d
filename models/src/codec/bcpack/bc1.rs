//! BC1 (and the colour half of BC2/BC3): two RGB565 endpoints and 16 2-bit selectors.
//!
//! Endpoints go to the endpoint stream as per-channel residuals against a median
//! (LOCO-I) prediction from the left, upper and upper-left blocks' same endpoint, green
//! first so that red and blue are coded in the context of how much green moved. Selectors
//! go to the selector stream, re-numbered in palette order (ep0, 2/3·ep0+1/3·ep1, …, ep1)
//! so that "neighbouring texel has a nearby selector" is a small-number context, and coded
//! with the left and upper texels' re-numbered selectors (crossing into the neighbour
//! blocks at the block edge) as context.

use super::driver::{Coder, Model, Nb};
use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::range::{fold, unfold, Prob};

/// Channel widths in coding order: green, red, blue.
pub(super) const BITS: [u32; 3] = [6, 5, 5];
/// Contexts per (endpoint, channel) residual tree.
const EP_CTX: usize = 5;
/// Block palette types: 4-colour, 3-colour + transparent, flat (ep0 == ep1).
const TYPES: usize = 3;
/// Neighbour selector values: palette positions 0..3, or 4 = no neighbour.
const NB_VALUES: usize = 5;
const NONE: usize = 4;

/// Palette position of each selector, per block type.
pub(super) const ORD: [[u8; 4]; TYPES] = [[0, 3, 1, 2], [0, 2, 1, 3], [0, 1, 2, 3]];
/// Selector of each palette position (inverse of `ORD`).
pub(super) const SEL: [[u8; 4]; TYPES] = [[0, 2, 3, 1], [0, 2, 1, 3], [0, 1, 2, 3]];

/// Endpoint channels in coding order (G, R, B).
pub(super) fn split565(v: u16) -> [u32; 3] {
    let v = u32::from(v);
    [(v >> 5) & 63, v >> 11, v & 31]
}

pub(super) fn join565(c: [u32; 3]) -> u16 {
    ((c[1] << 11) | (c[0] << 5) | c[2]) as u16
}

pub(super) fn endpoints(b: &[u8]) -> [u16; 2] {
    [u16::from_le_bytes([b[0], b[1]]), u16::from_le_bytes([b[2], b[3]])]
}

pub(super) fn selectors(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[4], b[5], b[6], b[7]])
}

/// LOCO-I median edge detector: picks left or up across an edge, the planar estimate
/// in smooth areas. Written as the planar estimate clamped to [min, max] of left and up
/// (the same function), so it compiles without unpredictable branches.
#[inline(always)]
pub(super) fn med(left: u32, up: u32, up_left: u32) -> u32 {
    (left + up).saturating_sub(up_left).clamp(left.min(up), left.max(up))
}

/// Prediction of one value from the same value in the neighbours, `none` for the first block.
pub(super) fn predict(nb: [Option<u32>; 3], none: u32) -> u32 {
    match nb {
        [Some(l), Some(u), Some(ul)] => med(l, u, ul),
        [Some(l), _, _] => l,
        [None, Some(u), _] => u,
        _ => none,
    }
}

/// Residual-size class of a folded symbol, used as context for the next residual.
#[inline(always)]
pub(super) fn bucket(sym: u32) -> usize {
    // 0 → 0, 1..=2 → 1, 3..=6 → 2, ≥ 7 → 3, without branches.
    usize::from(sym > 0) + usize::from(sym > 2) + usize::from(sym > 6)
}

pub(super) fn block_type(e: [u16; 2], four_only: bool) -> usize {
    if e[0] == e[1] {
        2
    } else if four_only || e[0] > e[1] {
        0
    } else {
        1
    }
}

/// The BC1 colour model over one 8-byte colour block.
pub(super) struct ColourUnit {
    /// BC2/BC3 colour blocks always use the 4-colour palette, whatever the endpoint order.
    four_only: bool,
    ep: Vec<[Prob; 64]>,
    sel: Vec<[Prob; 4]>,
}

impl ColourUnit {
    pub(super) fn new(four_only: bool) -> Self {
        ColourUnit {
            four_only,
            ep: vec![[Prob::default(); 64]; 2 * 3 * EP_CTX],
            sel: vec![[Prob::default(); 4]; TYPES * NB_VALUES * NB_VALUES * NB_VALUES],
        }
    }

    /// Codes the 8-byte colour block `cur` (endpoints into `ce`, selectors into `cs`).
    pub(super) fn code<C: Coder>(&mut self, ce: &mut C, cs: &mut C, cur: &mut [u8], nb: &Nb) {
        let nb_ends = [nb.left, nb.up, nb.up_left].map(|b| b.map(endpoints));
        let mut ends = endpoints(cur).map(split565);
        for e in 0..2 {
            let mut g_sym = 0;
            for ch in 0..3 {
                let bits = BITS[ch];
                let pred = predict(nb_ends.map(|n| n.map(|n| split565(n[e])[ch])), 1 << (bits - 1));
                // Green: one context per endpoint. Red, blue: by how far green moved.
                let ctx = if ch == 0 { e } else { 1 + bucket(g_sym) };
                let tree = &mut self.ep[(e * 3 + ch) * EP_CTX + ctx];
                let sym = ce.tree(tree, bits, fold(ends[e][ch], pred, bits), false);
                ends[e][ch] = unfold(sym, pred, bits);
                if ch == 0 {
                    g_sym = sym;
                }
            }
        }
        let e = [join565(ends[0]), join565(ends[1])];
        cur[0..2].copy_from_slice(&e[0].to_le_bytes());
        cur[2..4].copy_from_slice(&e[1].to_le_bytes());

        let ty = block_type(e, self.four_only);
        let edge = |b: Option<&[u8]>, texel: u32| -> usize {
            b.map_or(NONE, |b| {
                let t = block_type(endpoints(b), self.four_only);
                usize::from(ORD[t][((selectors(b) >> (2 * texel)) & 3) as usize])
            })
        };
        let old = selectors(cur);
        let mut ords = [0u8; 16];
        let mut sels = 0u32;
        for t in 0..16u32 {
            let (tx, ty_) = (t % 4, t / 4);
            let left = if tx > 0 { usize::from(ords[(t - 1) as usize]) } else { edge(nb.left, t + 3) };
            let up = if ty_ > 0 { usize::from(ords[(t - 4) as usize]) } else { edge(nb.up, t + 12) };
            let up_left = match (tx, ty_) {
                (0, _) => NONE,
                (_, 0) => edge(nb.up, t + 11),
                _ => usize::from(ords[(t - 5) as usize]),
            };
            let probs = &mut self.sel[((ty * NB_VALUES + left) * NB_VALUES + up) * NB_VALUES + up_left];
            let ord = cs.tree(probs, 2, u32::from(ORD[ty][((old >> (2 * t)) & 3) as usize]), false);
            ords[t as usize] = ord as u8;
            sels |= u32::from(SEL[ty][ord as usize]) << (2 * t);
        }
        cur[4..8].copy_from_slice(&sels.to_le_bytes());
    }
}

pub(super) struct Bc1 {
    colour: ColourUnit,
}

impl Default for Bc1 {
    fn default() -> Self {
        Bc1 { colour: ColourUnit::new(false) }
    }
}

impl Model for Bc1 {
    const BLOCK_BYTES: usize = 8;
    /// 0: copy flags + endpoints, 1: selectors.
    const STREAMS: usize = 2;

    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        _: usize,
    ) -> Result<(), BcpackError> {
        let [ce, cs, ..] = c;
        self.colour.code(ce, cs, cur, nb);
        Ok(())
    }
}
