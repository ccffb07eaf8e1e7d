//! The fast method (2): the same field split and neighbour prediction as the modelled
//! method, but every field group is one multi-bit symbol coded with static rANS tables
//! ([`super::rans`]), and contexts are few (each costs a transmitted table).
//!
//! Per block, stream 0 first carries a *kind* symbol (0 = new, 1 = copy of the left block,
//! 2 = copy of the upper block; table = 3·left's kind + up's kind, absent = 0), then the
//! format's fields. Models are written once against [`SymCoder`], like the range-coded ones.

mod bc1;
mod bc4;
mod bc7;

use super::driver::{neighbours, Nb};
use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::rans::{RansDecoder, SymbolSink};
use super::BcpackMode;

/// One side of the static rANS coder, seen by a model: the encoder records `value` in
/// `table` and returns it; the decoder returns the decoded symbol.
pub(super) trait SymCoder {
    /// True for the decoder, which has no input fields to read (models skip that work).
    const DECODING: bool;
    fn sym(&mut self, table: usize, value: u32) -> Result<u32, BcpackError>;
}

impl SymCoder for SymbolSink {
    const DECODING: bool = false;
    #[inline]
    fn sym(&mut self, table: usize, value: u32) -> Result<u32, BcpackError> {
        self.push(table, value);
        Ok(value)
    }
}

impl SymCoder for RansDecoder<'_> {
    const DECODING: bool = true;
    #[inline(always)]
    fn sym(&mut self, table: usize, _value: u32) -> Result<u32, BcpackError> {
        RansDecoder::sym(self, table)
    }
}

/// A per-format fast model. Stream 0's tables `0..KIND_TABLES` are the block kinds; the
/// model's own tables in stream 0 start at [`KIND_TABLES`].
pub(super) trait FastModel: Default {
    const BLOCK_BYTES: usize;
    /// Tables per stream; the stream count is the number of entries.
    const TABLES: &'static [usize];
    fn code<C: SymCoder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        at: Pos,
    ) -> Result<(), BcpackError>;
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

fn run<M: FastModel, C: SymCoder>(
    model: &mut M,
    c: &mut [C; MAX_STREAMS],
    buf: &mut [u8],
    row: usize,
    decoding: bool,
) -> Result<(), BcpackError> {
    let bb = M::BLOCK_BYTES;
    let blocks = buf.len() / bb;
    let mut kinds = vec![0u8; row];
    for index in 0..blocks {
        let (prev, rest) = buf.split_at_mut(index * bb);
        let cur = &mut rest[..bb];
        let nb = neighbours(prev, index, row, bb);
        let x = index % row;
        let ctx = 3 * usize::from(if x > 0 { kinds[x - 1] } else { 0 }) + usize::from(kinds[x]);
        let want = if decoding {
            0
        } else {
            match (nb.left, nb.up) {
                (Some(l), _) if l == &cur[..] => 1,
                (_, Some(u)) if u == &cur[..] => 2,
                _ => 0,
            }
        };
        let kind = c[0].sym(ctx, want)?;
        let at = Pos { index, row };
        match kind {
            0 => model.code(c, cur, &nb, at)?,
            1 => {
                cur.copy_from_slice(nb.left.ok_or(BcpackError::MissingNeighbour { block: index, which: "left" })?);
                model.copied(at, index - 1);
            }
            2 => {
                cur.copy_from_slice(nb.up.ok_or(BcpackError::MissingNeighbour { block: index, which: "upper" })?);
                model.copied(at, index - row);
            }
            k => return Err(BcpackError::InvalidSymbol { block: index, what: "block kind", value: k, max: 2 }),
        }
        kinds[x] = kind as u8;
    }
    Ok(())
}

fn encode_model<M: FastModel>(blocks: &[u8], row: usize) -> Vec<Vec<u8>> {
    let mut model = M::default();
    let mut sinks: [SymbolSink; MAX_STREAMS] = Default::default();
    let mut buf = blocks.to_vec();
    // Encoding cannot fail: every model accepts any block bytes.
    let encoded = run(&mut model, &mut sinks, &mut buf, row, false);
    debug_assert!(encoded.is_ok());
    sinks.into_iter().zip(M::TABLES).map(|(s, &t)| s.finish(t)).collect()
}

fn decode_model<M: FastModel>(streams: &[&[u8]], out: &mut [u8], row: usize) -> Result<(), BcpackError> {
    let mut model = M::default();
    let n = M::TABLES.len();
    let mut decs = Vec::with_capacity(n);
    for (i, (s, &t)) in streams.iter().zip(M::TABLES).enumerate() {
        decs.push(RansDecoder::new(s, t, i)?);
    }
    // Unused stream slots hold an empty decoder that no model reads.
    while decs.len() < MAX_STREAMS {
        decs.push(RansDecoder::empty());
    }
    let mut arr: [RansDecoder; MAX_STREAMS] = match decs.try_into() {
        Ok(a) => a,
        Err(_) => return Err(BcpackError::StreamCount { mode: 0, method: 2, expected: n, found: streams.len() }),
    };
    run(&mut model, &mut arr, out, row, true)?;
    arr.iter().take(n).try_for_each(RansDecoder::finish)
}

/// Streams of the fast method for `mode`, or `None` when the mode has no fast model.
pub(super) fn stream_count(mode: BcpackMode) -> Option<usize> {
    Some(match mode {
        BcpackMode::Bc1 => bc1::Bc1::TABLES.len(),
        BcpackMode::Bc3 => bc4::Bc3::TABLES.len(),
        BcpackMode::Bc4 => bc4::Bc4::TABLES.len(),
        BcpackMode::Bc5 => bc4::Bc5::TABLES.len(),
        BcpackMode::Bc7 => bc7::Bc7::TABLES.len(),
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
        BcpackMode::Bc2 | BcpackMode::Bc6h => Err(BcpackError::BadMethod { method: 2 }),
    }
}
