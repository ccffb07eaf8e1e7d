//! The BC1 fast decoder as one pass per stream: kinds and endpoints for the whole unit
//! (stream 0), then selectors (stream 1).
//!
//! Each stream's symbols are read in the same order as the block-by-block loop, so the
//! bitstream is the one [`super::run`] writes; but a pass carries only its own stream's
//! dependency chains, so consecutive blocks' chains overlap in the CPU instead of waiting
//! behind the other stream's (the selector rows of a block depend on each other, the
//! endpoints on the neighbours'). Selectors need only the block's own endpoints.

use super::super::driver::neighbours;
use super::super::header::MAX_STREAMS;
use super::super::rans::{RansDecoder, SymCoder};
use super::bc1::{code_endpoints, code_selectors};
use super::KIND_TABLES;

const MISSING: &str = "a copy of a neighbour the block does not have";

/// Decodes `out` (whole 8-byte blocks) from the two BC1 streams.
pub(super) fn decode(c: &mut [RansDecoder; MAX_STREAMS], out: &mut [u8], row: usize) {
    let blocks = out.len() / 8;
    // One kind per block, for the selector pass: bounded by the declared output.
    let mut kinds = vec![0u8; blocks];
    let [ce, cs, ..] = c;
    for index in 0..blocks {
        let (prev, rest) = out.split_at_mut(index * 8);
        let cur = &mut rest[..8];
        let nb = neighbours(prev, index, row, 8);
        let x = index % row;
        let left_kind = if x > 0 { kinds[index - 1] } else { 0 };
        let up_kind = if index >= row { kinds[index - row] } else { 0 };
        let kind = ce.sym(3 * usize::from(left_kind) + usize::from(up_kind), 0);
        match kind {
            0 => code_endpoints(ce, KIND_TABLES, cur, &nb),
            1 => copy_half(cur, nb.left, 0, ce),
            _ => copy_half(cur, nb.up, 0, ce),
        }
        kinds[index] = kind as u8;
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

/// Copies bytes `at..at + 4` of the neighbour `from` into `cur`, or records that it is missing.
fn copy_half(cur: &mut [u8], from: Option<&[u8]>, at: usize, c: &mut RansDecoder) {
    match from {
        Some(n) => cur[at..at + 4].copy_from_slice(&n[at..at + 4]),
        None => c.check(true, MISSING),
    }
}
