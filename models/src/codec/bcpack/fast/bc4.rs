//! Fast BC4 channel unit (BC4; alpha half of BC3; both halves of BC5): endpoint residual
//! symbols and one 6-bit symbol per pair of texels.
//!
//! Indices are re-numbered in palette order, so that a smooth ramp is a smooth sequence of
//! positions, and each is coded as its difference (mod 8) from a planar prediction from its
//! left, upper and upper-left texels inside the block (the upper block's positions are in
//! another palette: using them for row 0 measured worse).

use super::super::bc1::bucket;
use super::super::bc4::{block_type, indices, IDX, ORD};
use super::super::driver::Nb;
use super::super::header::MAX_STREAMS;
use super::super::range::{fold, unfold};
use super::super::rans::SymCoder;
use super::bc1::{code_colour, EP_LIMITS as COLOUR_EP_LIMITS, SEL_TABLES};
use super::{predict3, FastModel, Pos, KIND_TABLES};

/// Endpoint tables: a0 (1), a1 by a0's residual bucket (4).
const EP_TABLES: usize = 5;
/// Index-pair tables: block type (3) × (row 0, rows 1–3) × whether the previous pair's
/// symbol was 0.
const IDX_TABLES: usize = 12;

/// Codes the 8-byte channel block `cur`: endpoints into `ce` (tables from `te`), indices
/// into `ci` (tables from `ti`).
fn code_channel<C: SymCoder>(ce: &mut C, te: usize, ci: &mut C, ti: usize, cur: &mut [u8], nb: &Nb) {
    let mut prev_sym = 0;
    for e in 0..2 {
        let at = |b: Option<&[u8]>| b.map(|b| u32::from(b[e]));
        let pred = predict3(at(nb.left), at(nb.up), at(nb.up_left), 128);
        let table = if e == 0 { 0 } else { 1 + bucket(prev_sym) };
        let sym = ce.sym(te + table, fold(u32::from(cur[e]), pred, 8));
        cur[e] = unfold(sym, pred, 8) as u8;
        prev_sym = sym;
    }
    let ty = block_type(cur);
    let old = if C::DECODING { 0 } else { indices(cur) };
    let mut above: [Option<u32>; 4] = [None; 4];
    let mut out = 0u64;
    let mut prev = 0;
    for r in 0..4 {
        let mut row = [0u32; 4];
        // Planar prediction of a palette position from its left, upper and upper-left
        // texels inside the block.
        let pred = |col: usize, row: &[u32; 4], above: &[Option<u32>; 4]| -> Option<u32> {
            match (col.checked_sub(1).map(|l| row[l]), above[col]) {
                (Some(l), Some(u)) => {
                    let ul = above[col - 1].unwrap_or(u);
                    Some((l + u).saturating_sub(ul).min(7))
                }
                (Some(l), None) => Some(l),
                (None, u) => u,
            }
        };
        for half in 0..2 {
            let has_above = above[0].is_some();
            let mut value = 0;
            if !C::DECODING {
                let mut tmp = row;
                for k in 0..2 {
                    let col = 2 * half + k;
                    let pos = u32::from(ORD[ty][((old >> (3 * (4 * r + col))) & 7) as usize]);
                    let d = pred(col, &tmp, &above).map_or(pos, |p| pos.wrapping_sub(p) & 7);
                    tmp[col] = pos;
                    value |= d << (3 * k);
                }
            }
            let table = (ty * 2 + usize::from(has_above)) * 2 + usize::from(prev == 0);
            // The tables' alphabet is 64: two 3-bit differences.
            let sym = ci.sym(ti + table, value);
            prev = sym;
            for k in 0..2 {
                let col = 2 * half + k;
                let d = (sym >> (3 * k)) & 7;
                let pos = pred(col, &row, &above).map_or(d, |p| (d + p) & 7);
                row[col] = pos;
                out |= u64::from(IDX[ty][pos as usize]) << (3 * (4 * r + col));
            }
        }
        above = row.map(Some);
    }
    cur[2..8].copy_from_slice(&out.to_le_bytes()[..6]);
}

fn ep_limits() -> Vec<usize> {
    vec![256; EP_TABLES]
}

fn idx_limits() -> Vec<usize> {
    vec![64; IDX_TABLES]
}

#[derive(Default)]
pub(super) struct Bc4;

impl FastModel for Bc4 {
    const BLOCK_BYTES: usize = 8;
    /// 0: kinds + endpoints, 1: index pairs.
    const STREAMS: usize = 2;

    fn limits(stream: usize) -> Vec<usize> {
        [ep_limits, idx_limits][stream]()
    }

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, _: Pos) {
        let [ce, ci, ..] = c;
        code_channel(ce, KIND_TABLES, ci, 0, cur, nb)
    }
}

/// BC3: alpha channel unit on bytes 0–7, 4-colour colour unit on bytes 8–15.
#[derive(Default)]
pub(super) struct Bc3;

impl FastModel for Bc3 {
    const BLOCK_BYTES: usize = 16;
    /// 0: kinds + alpha endpoints, 1: alpha indices, 2: colour endpoints, 3: selectors.
    const STREAMS: usize = 4;

    fn limits(stream: usize) -> Vec<usize> {
        match stream {
            0 => ep_limits(),
            1 => idx_limits(),
            2 => COLOUR_EP_LIMITS.to_vec(),
            _ => vec![256; SEL_TABLES],
        }
    }

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, _: Pos) {
        let [a, b, d, e] = c;
        let (alpha, colour) = cur.split_at_mut(8);
        code_channel(a, KIND_TABLES, b, 0, alpha, &nb.sub(0, 8));
        code_colour(d, 0, e, 0, true, colour, &nb.sub(8, 8))
    }
}

/// BC5: two channel units (red on bytes 0–7, green on 8–15), each with its own tables.
#[derive(Default)]
pub(super) struct Bc5;

impl FastModel for Bc5 {
    const BLOCK_BYTES: usize = 16;
    /// 0: kinds + red endpoints, 1: red indices, 2: green endpoints, 3: green indices.
    const STREAMS: usize = 4;

    fn limits(stream: usize) -> Vec<usize> {
        [ep_limits, idx_limits][stream % 2]()
    }

    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, _: Pos) {
        let [a, b, d, e] = c;
        let (red, green) = cur.split_at_mut(8);
        code_channel(a, KIND_TABLES, b, 0, red, &nb.sub(0, 8));
        code_channel(d, 0, e, 0, green, &nb.sub(8, 8))
    }
}
