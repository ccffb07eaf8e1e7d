//! Fast BC1 colour unit (BC1; colour half of BC3): endpoints as per-channel residual
//! symbols, selectors as one 8-bit symbol per texel row.
//!
//! A selector row is re-numbered in palette order and, when a row above exists (the
//! previous row, or the upper block's last row), coded as its per-texel difference from
//! that row mod 4: smooth gradients repeat the same difference row, so a static table
//! captures most of what per-texel contexts did.

use super::super::bc1::{block_type, bucket, endpoints, join565, predict, selectors, split565, BITS, ORD, SEL};
use super::super::driver::Nb;
use super::super::error::BcpackError;
use super::super::header::MAX_STREAMS;
use super::super::range::{fold, unfold};
use super::{FastModel, SymCoder, KIND_TABLES};

/// Endpoint tables: G per endpoint (2), R by G's residual bucket (4), B likewise (4).
pub(super) const EP_TABLES: usize = 10;
/// Selector-row tables: block type (3) × (inner row, first row under the upper block, no
/// row above).
pub(super) const SEL_TABLES: usize = 9;

/// Maps each 2-bit lane of `row` through `map`.
#[inline]
fn map_row(row: u32, map: &[u8; 4]) -> u32 {
    let mut out = 0;
    for t in 0..4 {
        out |= u32::from(map[((row >> (2 * t)) & 3) as usize]) << (2 * t);
    }
    out
}

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
) -> Result<(), BcpackError> {
    let nb_ends = [nb.left, nb.up, nb.up_left].map(|b| b.map(endpoints));
    let mut ends = endpoints(cur).map(split565);
    for (e, end) in ends.iter_mut().enumerate() {
        let mut g_sym = 0;
        for ch in 0..3 {
            let bits = BITS[ch];
            let pred = predict(nb_ends.map(|n| n.map(|n| split565(n[e])[ch])), 1 << (bits - 1));
            let table = match ch {
                0 => e,
                1 => 2 + bucket(g_sym),
                _ => 6 + bucket(g_sym),
            };
            let sym = ce.sym(te + table, fold(end[ch], pred, bits))?;
            if sym >= 1 << bits {
                let max = (1 << bits) - 1;
                return Err(BcpackError::SymbolRange { what: "BC1 endpoint residual", value: sym, max });
            }
            end[ch] = unfold(sym, pred, bits);
            if ch == 0 {
                g_sym = sym;
            }
        }
    }
    let e = [join565(ends[0]), join565(ends[1])];
    cur[0..2].copy_from_slice(&e[0].to_le_bytes());
    cur[2..4].copy_from_slice(&e[1].to_le_bytes());

    let ty = block_type(e, four_only);
    let old = selectors(cur);
    let mut above = nb.up.map(|u| map_row(selectors(u) >> 24, &ORD[block_type(endpoints(u), four_only)]));
    let mut sels = 0u32;
    for r in 0..4 {
        let pos = map_row((old >> (8 * r)) & 0xFF, &ORD[ty]);
        let (table, value) = match above {
            Some(a) => (ty * 3 + usize::from(r == 0), sub4(pos, a)),
            None => (ty * 3 + 2, pos),
        };
        let sym = cs.sym(ts + table, value)?;
        let pos = match above {
            Some(a) => add4(sym, a),
            None => sym,
        };
        above = Some(pos);
        sels |= map_row(pos, &SEL[ty]) << (8 * r);
    }
    cur[4..8].copy_from_slice(&sels.to_le_bytes());
    Ok(())
}

#[derive(Default)]
pub(super) struct Bc1;

impl FastModel for Bc1 {
    const BLOCK_BYTES: usize = 8;
    /// 0: kinds + endpoints, 1: selector rows.
    const TABLES: &'static [usize] = &[KIND_TABLES + EP_TABLES, SEL_TABLES];

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb) -> Result<(), BcpackError> {
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
