//! Fast BC1 colour unit (BC1; colour half of BC3): endpoints as a green residual and a joint
//! red-blue residual symbol each, selectors as one 8-bit symbol per texel row.
//!
//! A selector row is re-numbered in palette order; rows 1–3 are coded as their per-texel
//! difference from the row above mod 4 (smooth gradients repeat the same difference row, so
//! a static table captures much of what per-texel contexts did), row 0 as it is.

use super::super::bc1::{block_type, bucket, endpoints, join565, selectors, split565, BITS, ORD, SEL};
use super::super::driver::Nb;
use super::super::header::MAX_STREAMS;
use super::super::range::{fold, unfold};
use super::super::rans::SymCoder;
use super::{predict3, FastModel, Pos, KIND_TABLES};

/// Endpoint tables: G per endpoint (2), joint R+B by G's residual bucket (4), escaped R (1)
/// and B (1).
pub(super) const EP_TABLES: usize = 8;
/// Alphabet of each endpoint table (the escape's R and B are 5-bit residuals).
pub(super) const EP_LIMITS: [usize; EP_TABLES] = [64, 64, 241, 241, 241, 241, 32, 32];
/// Joint red-blue symbol `b·15 + r` for folded residuals r < 15, b < 16; 240 = escape
/// (r and b follow in their own tables).
const RB_R: u32 = 15;
const RB_B: u32 = 16;
const RB_ESCAPE: u32 = RB_R * RB_B;
/// Selector-row tables: block type (3) × (rows 1–3 by whether the row above is uniform, row
/// 0). A uniform row above (flat area or vertical gradient) makes a uniform row likely.
pub(super) const SEL_TABLES: usize = 9;

/// Every selector row mapped lane by lane through each palette order: `[type][row]`.
const fn row_maps(maps: &[[u8; 4]; 3]) -> [[u8; 256]; 3] {
    let mut out = [[0u8; 256]; 3];
    let mut ty = 0;
    while ty < 3 {
        let mut row = 0;
        while row < 256 {
            let mut v = 0;
            let mut t = 0;
            while t < 4 {
                v |= maps[ty][(row >> (2 * t)) & 3] << (2 * t);
                t += 1;
            }
            out[ty][row] = v;
            row += 1;
        }
        ty += 1;
    }
    out
}

/// Selector row → palette-position row, per block type.
static ORD_ROW: [[u8; 256]; 3] = row_maps(&ORD);
/// Palette-position row → selector row, per block type.
static SEL_ROW: [[u8; 256]; 3] = row_maps(&SEL);

/// Whether a row's four lanes are equal.
static UNIFORM: [bool; 256] = {
    let mut out = [false; 256];
    let mut v = 0;
    while v < 4 {
        out[v * 0x55] = true;
        v += 1;
    }
    out
};

/// Lane-wise (a + b) mod 4 over four 2-bit lanes.
#[inline]
fn add4(a: u32, b: u32) -> u32 {
    (((a & 0x33) + (b & 0x33)) & 0x33) | (((a & 0xCC) + (b & 0xCC)) & 0xCC)
}

/// Lane-wise (a − b) mod 4.
#[inline]
fn sub4(a: u32, b: u32) -> u32 {
    (((a | 0xCC) - (b & 0x33)) & 0x33) | (((a | 0x133) - (b & 0xCC)) & 0xCC)
}

/// Codes the 8-byte colour block `cur`: endpoints into `ce` (tables from `te`), selectors
/// into `cs` (tables from `ts`).
pub(super) fn code_colour<C: SymCoder>(
    ce: &mut C,
    te: usize,
    cs: &mut C,
    ts: usize,
    four_only: bool,
    cur: &mut [u8],
    nb: &Nb,
) {
    code_endpoints(ce, te, cur, nb);
    code_selectors(cs, ts, four_only, cur);
}

/// Codes the endpoints (bytes 0–3) of `cur` from the neighbours' endpoints only.
#[inline(always)]
pub(super) fn code_endpoints<C: SymCoder>(ce: &mut C, te: usize, cur: &mut [u8], nb: &Nb) {
    // Neighbours' endpoint channels, [endpoint][G, R, B], and this block's predictions.
    let chans = |b: Option<&[u8]>| b.map(|b| endpoints(b).map(split565));
    let (l, u, ul) = (chans(nb.left), chans(nb.up), chans(nb.up_left));
    let mut preds = [[0u32; 3]; 2];
    for (e, p) in preds.iter_mut().enumerate() {
        for (ch, p) in p.iter_mut().enumerate() {
            let at = |n: Option<[[u32; 3]; 2]>| n.map(|n| n[e][ch]);
            *p = predict3(at(l), at(u), at(ul), 1 << (BITS[ch] - 1));
        }
    }
    let ends = if C::DECODING { [[0; 3]; 2] } else { endpoints(cur).map(split565) };
    let ends = code_channels(ce, te, &preds, ends);
    let e = [join565(ends[0]), join565(ends[1])];
    cur[0..2].copy_from_slice(&e[0].to_le_bytes());
    cur[2..4].copy_from_slice(&e[1].to_le_bytes());
}

/// Codes both endpoints' channels `[endpoint][G, R, B]` (`ends`: the values when encoding,
/// ignored when decoding) against their predictions; returns the coded values.
#[inline(always)]
pub(super) fn code_channels<C: SymCoder>(
    ce: &mut C,
    te: usize,
    preds: &[[u32; 3]; 2],
    mut ends: [[u32; 3]; 2],
) -> [[u32; 3]; 2] {
    for (e, end) in ends.iter_mut().enumerate() {
        let [pg, pr, pb] = preds[e];
        let g = ce.sym(te + e, fold(end[0], pg, 6));
        end[0] = unfold(g, pg, 6);
        let (r, b) = (fold(end[1], pr, 5), fold(end[2], pb, 5));
        let joint = if r < RB_R && b < RB_B { b * RB_R + r } else { RB_ESCAPE };
        // The tables' alphabets bound every symbol: rb ≤ 240, g < 64, escaped r, b < 32.
        let rb = ce.sym(te + 2 + bucket(g), joint);
        let (r, b) = if rb == RB_ESCAPE { (ce.sym(te + 6, r), ce.sym(te + 7, b)) } else { (rb % RB_R, rb / RB_R) };
        end[1] = unfold(r, pr, 5);
        end[2] = unfold(b, pb, 5);
    }
    ends
}

/// Codes the selectors (bytes 4–7) of `cur`, whose endpoints are already known: they use
/// nothing of the neighbours, so a decoder can run them as a pass of their own.
#[inline(always)]
pub(super) fn code_selectors<C: SymCoder>(cs: &mut C, ts: usize, four_only: bool, cur: &mut [u8]) {
    let ty = block_type(endpoints(cur), four_only);
    let old = if C::DECODING { 0 } else { selectors(cur) };
    // Row 0 is coded as is: the upper block's last row is in that block's own palette order,
    // which rarely matches this block's, so a difference from it is mostly noise (measured).
    let mut above: Option<u32> = None;
    let mut sels = 0u32;
    for r in 0..4 {
        let pos = u32::from(ORD_ROW[ty][((old >> (8 * r)) & 0xFF) as usize]);
        let (table, value) = match above {
            Some(a) => (ty * 3 + usize::from(UNIFORM[a as usize]), sub4(pos, a)),
            None => (ty * 3 + 2, pos),
        };
        let sym = cs.sym(ts + table, value);
        let pos = match above {
            Some(a) => add4(sym, a),
            None => sym,
        };
        above = Some(pos);
        sels |= u32::from(SEL_ROW[ty][pos as usize]) << (8 * r);
    }
    cur[4..8].copy_from_slice(&sels.to_le_bytes());
}

#[derive(Default)]
pub(super) struct Bc1;

impl FastModel for Bc1 {
    const BLOCK_BYTES: usize = 8;
    /// 0: kinds + endpoints, 1: selector rows.
    const STREAMS: usize = 2;
    const SPLIT_PASSES: bool = true;

    fn limits(stream: usize) -> Vec<usize> {
        if stream == 0 {
            EP_LIMITS.to_vec()
        } else {
            vec![256; SEL_TABLES]
        }
    }

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, _: Pos) {
        let [ce, cs, ..] = c;
        code_colour(ce, KIND_TABLES, cs, 0, false, cur, nb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_arithmetic_is_mod_4_per_lane() {
        for a in 0..256u32 {
            for b in 0..256u32 {
                let (s, d) = (add4(a, b), sub4(a, b));
                for t in 0..4 {
                    let (x, y) = ((a >> (2 * t)) & 3, (b >> (2 * t)) & 3);
                    assert_eq!((s >> (2 * t)) & 3, (x + y) % 4);
                    assert_eq!((d >> (2 * t)) & 3, (x + 4 - y) % 4);
                }
                assert!(s < 256 && d < 256);
            }
        }
    }
}
