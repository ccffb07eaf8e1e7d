//! The BC1 fast decoder as one pass per stream: kinds and endpoints for the whole unit
//! (stream 0), then selectors (stream 1).
//!
//! Each stream's symbols are read in the same order as the block-by-block loop, so the
//! bitstream is the one [`super::run`] writes; but a pass carries only its own stream's
//! dependency chains, so consecutive blocks' chains overlap in the CPU instead of waiting
//! behind the other stream's (the selector rows of a block depend on each other, the
//! endpoints on the neighbours'). Selectors need only the block's own endpoints.

use super::super::bc1::{join565, BITS};
use super::super::header::MAX_STREAMS;
use super::super::rans::{RansDecoder, SymCoder};
use super::bc1::{code_channels, code_selectors};
use super::{predict3, KIND_TABLES};

const MISSING: &str = "a copy of a neighbour the block does not have";

/// A block's endpoint channels, `[endpoint][G, R, B]`.
type Chans = [[u32; 3]; 2];

/// Decodes `out` (whole 8-byte blocks) from the two BC1 streams.
pub(super) fn decode(c: &mut [RansDecoder; MAX_STREAMS], out: &mut [u8], row: usize) {
    let blocks = out.len() / 8;
    // One kind per block, for the selector pass: bounded by the declared output.
    let mut kinds = vec![0u8; blocks];
    // The endpoint channels of the last `row` blocks (slot x: the block above until block
    // x of this row replaces it), so predictions read split channels, never the output
    // bytes; the left block's channels and kind stay in registers.
    let mut above: Vec<Chans> = vec![[[0; 3]; 2]; row];
    let (mut left, mut up_left, mut left_kind) = ([[0u32; 3]; 2], [[0u32; 3]; 2], 0u8);
    let [ce, cs, ..] = c;
    let mut x = 0;
    for index in 0..blocks {
        let (has_left, has_up) = (x > 0, index >= row);
        let up = above[x];
        let up_kind = if has_up { kinds[index - row] } else { 0 };
        let kind = ce.sym(3 * usize::from(if has_left { left_kind } else { 0 }) + usize::from(up_kind), 0);
        let chans = match kind {
            0 => {
                let mut preds = [[0u32; 3]; 2];
                for (e, p) in preds.iter_mut().enumerate() {
                    for (ch, p) in p.iter_mut().enumerate() {
                        let at = |n: &Chans, present: bool| present.then_some(n[e][ch]);
                        let none = 1 << (BITS[ch] - 1);
                        *p = predict3(at(&left, has_left), at(&up, has_up), at(&up_left, has_left && has_up), none);
                    }
                }
                code_channels(ce, KIND_TABLES, &preds, [[0; 3]; 2])
            }
            1 if has_left => left,
            2 if has_up => up,
            _ => {
                ce.check(true, MISSING);
                [[0; 3]; 2]
            }
        };
        let e = [join565(chans[0]), join565(chans[1])];
        let cur = &mut out[index * 8..index * 8 + 4];
        cur[0..2].copy_from_slice(&e[0].to_le_bytes());
        cur[2..4].copy_from_slice(&e[1].to_le_bytes());
        kinds[index] = kind as u8;
        above[x] = chans;
        (left, up_left, left_kind) = (chans, up, kind as u8);
        x += 1;
        if x == row {
            x = 0;
        }
    }
    for (index, &kind) in kinds.iter().enumerate() {
        let (prev, rest) = out.split_at_mut(index * 8);
        let cur = &mut rest[..8];
        match kind {
            0 => code_selectors(cs, 0, false, cur),
            // The pass-1 check already recorded a missing neighbour.
            1 if index % row > 0 => cur[4..].copy_from_slice(&prev[(index - 1) * 8 + 4..index * 8]),
            2 if index >= row => cur[4..].copy_from_slice(&prev[(index - row) * 8 + 4..(index - row + 1) * 8]),
            _ => {}
        }
    }
}
