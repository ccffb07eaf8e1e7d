//! The fast method (3): the same field split and neighbour prediction as the modelled
//! method, but every field group is one multi-bit symbol coded with static rANS tables
//! ([`super::rans`]), and contexts are few (each costs a transmitted table).
//!
//! Per block, stream 0 first carries a *kind* symbol (0 = new, 1 = copy of the left block,
//! 2 = copy of the upper block; table = 3·left's kind + up's kind, absent = 0), then the
//! format's fields. Models are written once against [`SymCoder`], like the range-coded ones;
//! BC1 is decoded one pass per stream ([`bc1_decode`]), the others block by block.

mod bc1;
mod bc1_decode;
mod bc4;
mod bc7;
mod bc7_idx;

use super::driver::{neighbours, Nb};
use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::rans::{RansDecoder, SymCoder, SymbolSink};
use super::BcpackMode;

/// A per-format fast model. Stream 0's tables `0..KIND_TABLES` are the block kinds; the
/// model's own tables in stream 0 start at [`KIND_TABLES`].
pub(super) trait FastModel: Default {
    const BLOCK_BYTES: usize;
    /// Streams the model codes.
    const STREAMS: usize;
    /// Decoded with [`bc1_decode`], one pass per stream (BC1 only).
    const SPLIT_PASSES: bool = false;
    /// The alphabet bound of every table of `stream` (the field's valid symbols), in table
    /// order; the decoder refuses a table with a longer alphabet, so no decoded symbol is
    /// ever out of its field's range.
    fn limits(stream: usize) -> Vec<usize>;
    fn code<C: SymCoder>(&mut self, c: &mut [C; MAX_STREAMS], cur: &mut [u8], nb: &Nb, at: Pos);
    /// Block `at` is a copy of block `from` (a model that caches parsed neighbours
    /// updates its cache).
    fn copied(&mut self, _at: Pos, _from: usize) {}
}

/// Where the current block is: its index and the row width.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pos {
    pub index: usize,
    pub row: usize,
}

pub(super) const KIND_TABLES: usize = 9;

/// [`super::bc1::predict`] with the neighbours passed one by one (array `map` does not
/// inline in the hot loop).
#[inline(always)]
pub(super) fn predict3(left: Option<u32>, up: Option<u32>, up_left: Option<u32>, none: u32) -> u32 {
    match (left, up, up_left) {
        (Some(l), Some(u), Some(ul)) => super::bc1::med(l, u, ul),
        (Some(l), _, _) => l,
        (None, Some(u), _) => u,
        _ => none,
    }
}

/// Kind tables: the block kind's alphabet (new, copy of left, copy of upper).
fn kind_limits(model: Vec<usize>) -> Vec<usize> {
    let mut out = vec![3; KIND_TABLES];
    out.extend(model);
    out
}

fn run<M: FastModel, C: SymCoder>(model: &mut M, c: &mut [C; MAX_STREAMS], buf: &mut [u8], row: usize) {
    let bb = M::BLOCK_BYTES;
    let blocks = buf.len() / bb;
    let mut kinds = vec![0u8; row];
    for index in 0..blocks {
        let (prev, rest) = buf.split_at_mut(index * bb);
        let cur = &mut rest[..bb];
        let nb = neighbours(prev, index, row, bb);
        let x = index % row;
        let ctx = 3 * usize::from(if x > 0 { kinds[x - 1] } else { 0 }) + usize::from(kinds[x]);
        let want = if C::DECODING {
            0
        } else {
            match (nb.left, nb.up) {
                (Some(l), _) if l == &cur[..] => 1,
                (_, Some(u)) if u == &cur[..] => 2,
                _ => 0,
            }
        };
        let kind = c[0].sym(ctx, want);
        let at = Pos { index, row };
        // The kind tables' alphabet is 3, so `kind` is 0, 1 or 2.
        let src = match kind {
            0 => None,
            1 => Some((nb.left, index.wrapping_sub(1))),
            _ => Some((nb.up, index.wrapping_sub(row))),
        };
        match src {
            None => model.code(c, cur, &nb, at),
            Some((Some(n), from)) => {
                cur.copy_from_slice(n);
                model.copied(at, from);
            }
            Some((None, _)) => c[0].check(true, "a copy of a neighbour the block does not have"),
        }
        kinds[x] = kind as u8;
    }
}

fn encode_model<M: FastModel>(blocks: &[u8], row: usize) -> Vec<Vec<u8>> {
    let mut model = M::default();
    let mut sinks: [SymbolSink; MAX_STREAMS] = Default::default();
    let mut buf = blocks.to_vec();
    run(&mut model, &mut sinks, &mut buf, row);
    sinks.into_iter().take(M::STREAMS).enumerate().map(|(i, s)| s.finish(&stream_limits::<M>(i))).collect()
}

fn stream_limits<M: FastModel>(stream: usize) -> Vec<usize> {
    if stream == 0 {
        kind_limits(M::limits(0))
    } else {
        M::limits(stream)
    }
}

fn decode_model<M: FastModel>(streams: &[&[u8]], out: &mut [u8], row: usize) -> Result<(), BcpackError> {
    let mut model = M::default();
    let mut decs = Vec::with_capacity(MAX_STREAMS);
    for (i, s) in streams.iter().take(M::STREAMS).enumerate() {
        decs.push(RansDecoder::new(s, &stream_limits::<M>(i), i)?);
    }
    // Unused stream slots hold a decoder without tables that no model reads.
    while decs.len() < MAX_STREAMS {
        decs.push(RansDecoder::empty());
    }
    let Ok(mut arr): Result<[RansDecoder; MAX_STREAMS], _> = decs.try_into() else {
        unreachable!("exactly MAX_STREAMS decoders")
    };
    if M::SPLIT_PASSES {
        bc1_decode::decode(&mut arr, out, row);
    } else {
        run(&mut model, &mut arr, out, row);
    }
    arr.iter().take(M::STREAMS).try_for_each(RansDecoder::finish)
}

/// Streams of the fast method for `mode`, or `None` when the mode has no fast model.
pub(super) fn stream_count(mode: BcpackMode) -> Option<usize> {
    Some(match mode {
        BcpackMode::Bc1 => bc1::Bc1::STREAMS,
        BcpackMode::Bc3 => bc4::Bc3::STREAMS,
        BcpackMode::Bc4 => bc4::Bc4::STREAMS,
        BcpackMode::Bc5 => bc4::Bc5::STREAMS,
        BcpackMode::Bc7 => bc7::Bc7::STREAMS,
        BcpackMode::Bc2 | BcpackMode::Bc6h => return None,
    })
}

pub(super) fn encode(mode: BcpackMode, blocks: &[u8], row: usize) -> Option<Vec<Vec<u8>>> {
    Some(match mode {
        BcpackMode::Bc1 => encode_model::<bc1::Bc1>(blocks, row),
        BcpackMode::Bc3 => encode_model::<bc4::Bc3>(blocks, row),
        BcpackMode::Bc4 => encode_model::<bc4::Bc4>(blocks, row),
        BcpackMode::Bc5 => encode_model::<bc4::Bc5>(blocks, row),
        BcpackMode::Bc7 => encode_model::<bc7::Bc7>(blocks, row),
        BcpackMode::Bc2 | BcpackMode::Bc6h => return None,
    })
}

pub(super) fn decode(mode: BcpackMode, streams: &[&[u8]], out: &mut [u8], row: usize) -> Result<(), BcpackError> {
    match mode {
        BcpackMode::Bc1 => decode_model::<bc1::Bc1>(streams, out, row),
        BcpackMode::Bc3 => decode_model::<bc4::Bc3>(streams, out, row),
        BcpackMode::Bc4 => decode_model::<bc4::Bc4>(streams, out, row),
        BcpackMode::Bc5 => decode_model::<bc4::Bc5>(streams, out, row),
        BcpackMode::Bc7 => decode_model::<bc7::Bc7>(streams, out, row),
        // The header check rejects these before decoding.
        BcpackMode::Bc2 | BcpackMode::Bc6h => Err(BcpackError::BadMethod { method: 3 }),
    }
}
