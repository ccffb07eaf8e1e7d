//! The block loop shared by every mode: neighbour geometry, the copy-block flag, the
//! encoder/decoder symmetry, and the end-of-stream checks.
//!
//! Each format model is written once against [`Coder`]: with an encoder it codes the value
//! it is given and returns it; with a decoder it ignores that value and returns the decoded
//! one. A model reads each field of the current block, codes it, and writes the result back,
//! so the encoder (which writes back what it read) and the decoder (which writes what it
//! decoded) cannot drift apart.

use super::error::BcpackError;
use super::header::MAX_STREAMS;
use super::range::{get_tree, put_tree, Prob, RangeDecoder, RangeEncoder};

/// One side of the range coder, seen by a model.
pub(super) trait Coder {
    fn bit(&mut self, p: &mut Prob, bit: u32) -> u32;
    fn tree(&mut self, probs: &mut [Prob], nbits: u32, value: u32, known_zero_msb: bool) -> u32;
    /// Two `nbits`-bit trees, each `(coder, tree, value)` as in [`Coder::tree`], on two
    /// different streams. Each stream sees exactly what `tree` would code on it, so the
    /// order between them is free: a decoder takes their bits in turn, and so works on two
    /// independent dependency chains at once.
    #[inline]
    fn tree_pair(a: (&mut Self, &mut [Prob], u32), b: (&mut Self, &mut [Prob], u32), nbits: u32) -> (u32, u32) {
        (a.0.tree(a.1, nbits, a.2, false), b.0.tree(b.1, nbits, b.2, false))
    }
}

impl Coder for RangeEncoder {
    #[inline]
    fn bit(&mut self, p: &mut Prob, bit: u32) -> u32 {
        RangeEncoder::bit(self, p, bit);
        bit
    }
    #[inline]
    fn tree(&mut self, probs: &mut [Prob], nbits: u32, value: u32, known_zero_msb: bool) -> u32 {
        put_tree(self, probs, nbits, value, known_zero_msb);
        value
    }
}

impl Coder for RangeDecoder<'_> {
    #[inline]
    fn bit(&mut self, p: &mut Prob, _bit: u32) -> u32 {
        RangeDecoder::bit(self, p)
    }
    #[inline]
    fn tree(&mut self, probs: &mut [Prob], nbits: u32, _value: u32, known_zero_msb: bool) -> u32 {
        get_tree(self, probs, nbits, known_zero_msb)
    }
    /// Each bit without a branch on it: a mispredicted bit of one stream would discard the
    /// other's work too. Both decoders run on local copies, so their state stays in registers.
    #[inline(always)]
    fn tree_pair(a: (&mut Self, &mut [Prob], u32), b: (&mut Self, &mut [Prob], u32), nbits: u32) -> (u32, u32) {
        let (mut dec_a, mut dec_b) = (*a.0, *b.0);
        let (mut node_a, mut node_b) = (1usize, 1usize);
        for _ in 0..nbits {
            let bit_a = dec_a.bit_unpredictable(&mut a.1[node_a]);
            let bit_b = dec_b.bit_unpredictable(&mut b.1[node_b]);
            node_a = node_a * 2 + bit_a as usize;
            node_b = node_b * 2 + bit_b as usize;
        }
        (*a.0, *b.0) = (dec_a, dec_b);
        let mask = (1usize << nbits) - 1;
        ((node_a & mask) as u32, (node_b & mask) as u32)
    }
}

/// The already-coded neighbours of the current block (same byte range of each block).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Nb<'a> {
    pub left: Option<&'a [u8]>,
    pub up: Option<&'a [u8]>,
    pub up_left: Option<&'a [u8]>,
}

impl<'a> Nb<'a> {
    /// The same neighbours restricted to bytes `at..at + len` of each block (one half of a
    /// BC3/BC5 block).
    pub fn sub(&self, at: usize, len: usize) -> Nb<'a> {
        let cut = |b: Option<&'a [u8]>| b.map(|b| &b[at..at + len]);
        Nb { left: cut(self.left), up: cut(self.up), up_left: cut(self.up_left) }
    }
}

/// A per-format block model. `code` codes one block that is not a copy of a neighbour.
/// `cur` holds the block's bytes when encoding and zeros when decoding; on return it holds
/// the block in both cases. A model uses streams `0..STREAMS` of the [`MAX_STREAMS`]
/// coders it is handed.
pub(super) trait Model: Default {
    const BLOCK_BYTES: usize;
    const STREAMS: usize;
    fn code<C: Coder>(
        &mut self,
        c: &mut [C; MAX_STREAMS],
        cur: &mut [u8],
        nb: &Nb,
        block: usize,
    ) -> Result<(), BcpackError>;
}

/// The copy flag: "this block equals its left (or upper) neighbour", coded in stream 0
/// before the block. Flat regions of real textures repeat whole blocks; this turns each
/// repeat into a fraction of a bit.
struct CopyFlags {
    /// Whether each block of the previous row (ahead of `x`) / current row (behind `x`) was
    /// a copy; a row's worth of state regardless of the image size.
    row: Vec<u8>,
    is_copy: [Prob; 8],
    which: [Prob; 4],
}

impl CopyFlags {
    fn new(row_blocks: usize) -> Self {
        CopyFlags { row: vec![0; row_blocks], is_copy: [Prob::default(); 8], which: [Prob::default(); 4] }
    }
}

#[inline]
pub(super) fn neighbours(prev: &[u8], index: usize, row: usize, bb: usize) -> Nb<'_> {
    let x = index % row;
    let at = |i: usize| Some(&prev[i * bb..(i + 1) * bb]);
    Nb {
        left: if x > 0 { at(index - 1) } else { None },
        up: if index >= row { at(index - row) } else { None },
        up_left: if x > 0 && index > row { at(index - row - 1) } else { None },
    }
}

/// Codes every block of `buf` (input blocks when encoding, the output being filled when
/// decoding) through `model`.
fn run<M: Model, C: Coder>(
    model: &mut M,
    coders: &mut [C; MAX_STREAMS],
    buf: &mut [u8],
    row: usize,
    decoding: bool,
) -> Result<(), BcpackError> {
    let bb = M::BLOCK_BYTES;
    let blocks = buf.len() / bb;
    let mut flags = CopyFlags::new(row);
    for index in 0..blocks {
        let (prev, rest) = buf.split_at_mut(index * bb);
        let cur = &mut rest[..bb];
        if decoding {
            cur.fill(0);
        }
        let nb = neighbours(prev, index, row, bb);
        let x = index % row;
        let left_flag = if x > 0 { flags.row[x - 1] } else { 0 };
        let up_flag = flags.row[x];
        // Candidates: left first; up only when it differs from left (else it adds nothing).
        let up_distinct = match (nb.left, nb.up) {
            (Some(l), Some(u)) => l != u,
            (None, Some(_)) => true,
            _ => false,
        };
        let candidates = usize::from(nb.left.is_some()) + usize::from(up_distinct);
        let mut copied = 0u8;
        if candidates > 0 {
            let want = match (nb.left, nb.up) {
                (Some(l), _) if l == &cur[..] => 1,
                (_, Some(u)) if up_distinct && u == &cur[..] => 2,
                _ => 0,
            };
            let ctx = usize::from(left_flag) + 2 * usize::from(up_flag) + 4 * (candidates - 1);
            if coders[0].bit(&mut flags.is_copy[ctx], u32::from(want != 0)) == 1 {
                let src = if candidates == 2 {
                    let which = coders[0]
                        .bit(&mut flags.which[usize::from(left_flag) + 2 * usize::from(up_flag)], u32::from(want == 2));
                    if which == 1 {
                        nb.up
                    } else {
                        nb.left
                    }
                } else if nb.left.is_some() {
                    nb.left
                } else {
                    nb.up
                };
                if let Some(src) = src {
                    cur.copy_from_slice(src);
                }
                copied = 1;
            }
        }
        if copied == 0 {
            model.code(coders, cur, &nb, index)?;
        }
        flags.row[x] = copied;
    }
    Ok(())
}

/// Encodes `blocks` (a whole number of blocks) into `M::STREAMS` range-coded streams.
pub(super) fn encode_streams<M: Model>(blocks: &[u8], row: usize) -> Vec<Vec<u8>> {
    let mut model = M::default();
    let mut coders: [RangeEncoder; MAX_STREAMS] = Default::default();
    let mut buf = blocks.to_vec();
    // Encoding cannot fail: every model accepts any block bytes.
    let encoded = run(&mut model, &mut coders, &mut buf, row, false);
    debug_assert!(encoded.is_ok());
    coders.into_iter().take(M::STREAMS).map(RangeEncoder::finish).collect()
}

/// Decodes `streams` into `out` (sized by the validated header), then checks that no stream
/// was read past its end.
pub(super) fn decode_streams<M: Model>(streams: &[&[u8]], out: &mut [u8], row: usize) -> Result<(), BcpackError> {
    let mut model = M::default();
    // Streams past `M::STREAMS` are empty and never read.
    let mut slices: [&[u8]; MAX_STREAMS] = [&[]; MAX_STREAMS];
    for (slot, s) in slices.iter_mut().zip(streams.iter().take(M::STREAMS)) {
        *slot = s;
    }
    for (stream, s) in slices.iter().take(M::STREAMS).enumerate() {
        if let Some(&first) = s.first().filter(|&&b| b != 0) {
            return Err(BcpackError::StreamStart { stream, found: first });
        }
    }
    let mut coders = slices.map(RangeDecoder::new);
    run(&mut model, &mut coders, out, row, true)?;
    for (stream, (d, s)) in coders.iter().zip(slices).take(M::STREAMS).enumerate() {
        if d.consumed() > s.len() {
            return Err(BcpackError::StreamOverrun { stream, consumed: d.consumed(), len: s.len() });
        }
    }
    Ok(())
}
