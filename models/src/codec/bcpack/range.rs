//! Adaptive binary range coder (the LZMA carry-propagating design) with dual-rate bit
//! probabilities.
//!
//! Every modelled decision in BCPack is one binary event coded against a [`Prob`]. A binary
//! coder keeps the decoder a fixed-work loop per bit (one multiply, one compare, one
//! conditional byte read), which is what a hardware stage can run at a fixed rate, and it
//! adapts to the statistics of a single 64 KiB unit without shipping any tables.
//!
//! Probabilities are 15-bit estimates of P(bit = 0) formed as the mean of a fast (shift 4)
//! and a slow (shift 7) 16-bit estimator: the fast one follows local changes inside a tile,
//! the slow one settles on the tile's steady statistics.

/// Bits of precision of the probability handed to the coder.
const PROB_BITS: u32 = 15;
/// Renormalise when the range drops below 2^24 (one byte shifted per renormalisation).
const TOP: u32 = 1 << 24;
const FAST_SHIFT: u32 = 4;
const SLOW_SHIFT: u32 = 7;

/// One adaptive binary context. Both halves start at 1/2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Prob {
    fast: u16,
    slow: u16,
}

impl Default for Prob {
    fn default() -> Self {
        Prob { fast: 1 << 15, slow: 1 << 15 }
    }
}

impl Prob {
    /// P(bit = 0) in 15 bits; always in [7, 32760], so both outcomes stay codable.
    #[inline]
    fn p0(self) -> u32 {
        (u32::from(self.fast) + u32::from(self.slow)) >> 2
    }

    /// [`Prob::update`] by masks rather than a branch on the bit (`one`: all ones for a 1).
    #[inline(always)]
    fn update_by_mask(&mut self, one: u16) {
        let up_fast = self.fast + ((u16::MAX - self.fast) >> FAST_SHIFT);
        let up_slow = self.slow + ((u16::MAX - self.slow) >> SLOW_SHIFT);
        let down_fast = self.fast - (self.fast >> FAST_SHIFT);
        let down_slow = self.slow - (self.slow >> SLOW_SHIFT);
        self.fast = (up_fast & !one) | (down_fast & one);
        self.slow = (up_slow & !one) | (down_slow & one);
    }

    #[inline]
    fn update(&mut self, bit: u32) {
        if bit == 0 {
            self.fast += (u16::MAX - self.fast) >> FAST_SHIFT;
            self.slow += (u16::MAX - self.slow) >> SLOW_SHIFT;
        } else {
            self.fast -= self.fast >> FAST_SHIFT;
            self.slow -= self.slow >> SLOW_SHIFT;
        }
    }
}

/// Encoder half. Output bytes accumulate in `out`; call [`RangeEncoder::finish`] once.
#[derive(Debug)]
pub(super) struct RangeEncoder {
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
}

impl Default for RangeEncoder {
    fn default() -> Self {
        RangeEncoder { low: 0, range: u32::MAX, cache: 0, cache_size: 1, out: Vec::new() }
    }
}

impl RangeEncoder {
    #[inline]
    pub(super) fn bit(&mut self, p: &mut Prob, bit: u32) {
        let bound = (self.range >> PROB_BITS) * p.p0();
        if bit == 0 {
            self.range = bound;
        } else {
            self.low += u64::from(bound);
            self.range -= bound;
        }
        p.update(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    /// Emits the top byte of `low`, holding back runs of 0xFF until a carry is known.
    fn shift_low(&mut self) {
        if (self.low as u32) < 0xFF00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.cache_size -= 1;
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// Decoder half over one stream. Reading past the end yields zero bytes and is counted, so
/// a truncated stream decodes to garbage of bounded size and is then reported by
/// [`RangeDecoder::overrun`] instead of panicking or reading out of bounds.
#[derive(Debug, Clone, Copy)]
pub(super) struct RangeDecoder<'a> {
    src: &'a [u8],
    pos: usize,
    range: u32,
    code: u32,
}

impl<'a> RangeDecoder<'a> {
    /// Starts a decoder. The encoder's first byte is always zero; the caller checks it
    /// (cheap early rejection of corrupt streams), the decoder skips it.
    pub(super) fn new(src: &'a [u8]) -> Self {
        let mut d = RangeDecoder { src, pos: 1, range: u32::MAX, code: 0 };
        for _ in 0..4 {
            d.code = (d.code << 8) | u32::from(d.next_byte());
        }
        d
    }

    #[inline]
    fn next_byte(&mut self) -> u8 {
        let b = self.src.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    #[inline]
    pub(super) fn bit(&mut self, p: &mut Prob) -> u32 {
        let bound = (self.range >> PROB_BITS) * p.p0();
        let bit = if self.code < bound {
            self.range = bound;
            0
        } else {
            self.code -= bound;
            self.range -= bound;
            1
        };
        p.update(bit);
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next_byte());
        }
        bit
    }

    /// [`RangeDecoder::bit`] without a branch on the bit or on the renormalisation: where
    /// two streams' bits are decoded in turn, a mispredicted bit would discard the other
    /// stream's work too, and the compare it adds to the dependency chain is hidden by the
    /// other chain. Called on a local copy of the decoder, so its state stays in registers.
    #[inline(always)]
    pub(super) fn bit_unpredictable(&mut self, p: &mut Prob) -> u32 {
        let bound = (self.range >> PROB_BITS) * p.p0();
        let bit = u32::from(self.code >= bound);
        let one = 0u32.wrapping_sub(bit);
        self.code -= bound & one;
        self.range = (bound & !one) | (self.range.wrapping_sub(bound) & one);
        p.update_by_mask(one as u16);
        // Renormalise: 0, 1 or 2 bytes, however many the range's top zero bytes are.
        let bytes = self.range.leading_zeros() >> 3;
        let shift = 8 * bytes;
        let next = self.peek_be32() >> 1 >> (31 - shift);
        self.code = ((u64::from(self.code) << shift) as u32) | next;
        self.range <<= shift;
        self.pos += bytes as usize;
        bit
    }

    /// The next four bytes, big-endian (bytes past the end read as zero).
    #[inline]
    fn peek_be32(&self) -> u32 {
        match self.src.get(self.pos..self.pos + 4) {
            Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            None => {
                let mut b = [0u8; 4];
                for (i, slot) in b.iter_mut().enumerate() {
                    *slot = self.src.get(self.pos + i).copied().unwrap_or(0);
                }
                u32::from_be_bytes(b)
            }
        }
    }

    /// Bytes the decoder consumed so far (may exceed the stream length after an overrun).
    pub(super) fn consumed(&self) -> usize {
        self.pos
    }
}

/// Codes `nbits`-bit symbols MSB first through a binary tree of contexts (`probs` holds
/// 2^nbits entries; entry 0 unused). `known_zero_msb` skips the top bit for values whose
/// MSB is implied 0 (BC7 anchor indices), reusing the same tree's lower nodes.
#[inline]
pub(super) fn put_tree(enc: &mut RangeEncoder, probs: &mut [Prob], nbits: u32, value: u32, known_zero_msb: bool) {
    let (mut node, start) = if known_zero_msb { (2usize, nbits - 1) } else { (1usize, nbits) };
    for i in (0..start).rev() {
        let b = (value >> i) & 1;
        enc.bit(&mut probs[node], b);
        node = node * 2 + b as usize;
    }
}

/// Inverse of [`put_tree`].
#[inline]
pub(super) fn get_tree(dec: &mut RangeDecoder, probs: &mut [Prob], nbits: u32, known_zero_msb: bool) -> u32 {
    let (mut node, start) = if known_zero_msb { (2usize, nbits - 1) } else { (1usize, nbits) };
    for _ in 0..start {
        let b = dec.bit(&mut probs[node]);
        node = node * 2 + b as usize;
    }
    (node as u32) & ((1 << nbits) - 1)
}

/// Folds `value` around `pred` into an `nbits`-bit symbol: the modular difference,
/// zig-zagged so that small residuals of either sign map to small symbols. A bijection on
/// [0, 2^nbits) for every `pred`, so any field value is codable.
#[inline]
pub(super) fn fold(value: u32, pred: u32, nbits: u32) -> u32 {
    let mask = (1u32 << nbits) - 1;
    let d = value.wrapping_sub(pred) & mask;
    let half = 1u32 << (nbits - 1);
    if d < half {
        d << 1
    } else {
        (((mask + 1) - d) << 1) - 1
    }
}

/// Inverse of [`fold`].
#[inline]
pub(super) fn unfold(sym: u32, pred: u32, nbits: u32) -> u32 {
    // Odd symbols are negative residuals: −((sym + 1) / 2) = !(sym / 2). Branch-free,
    // because the sign is unpredictable.
    let d = (sym >> 1) ^ 0u32.wrapping_sub(sym & 1);
    pred.wrapping_add(d) & ((1u32 << nbits) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fold_is_a_bijection_for_every_width_and_prediction() {
        for nbits in 1..=8 {
            for pred in 0..(1u32 << nbits) {
                let mut seen = vec![false; 1 << nbits];
                for v in 0..(1u32 << nbits) {
                    let s = fold(v, pred, nbits);
                    assert!(s < (1 << nbits), "symbol {s} out of {nbits} bits");
                    assert!(!seen[s as usize], "symbol {s} reused (nbits {nbits}, pred {pred})");
                    seen[s as usize] = true;
                    assert_eq!(unfold(s, pred, nbits), v);
                }
            }
        }
        assert_eq!(fold(5, 5, 6), 0);
        assert_eq!(fold(6, 5, 6), 2);
        assert_eq!(fold(4, 5, 6), 1);
    }

    proptest! {
        #[test]
        fn bits_and_trees_round_trip(bits in proptest::collection::vec(any::<bool>(), 0..2000), syms in proptest::collection::vec(0u32..64, 0..300)) {
            let mut enc = RangeEncoder::default();
            let mut p = [Prob::default(); 4];
            let mut tree = [Prob::default(); 64];
            for (i, &b) in bits.iter().enumerate() {
                enc.bit(&mut p[i % 4], u32::from(b));
            }
            for &s in &syms {
                put_tree(&mut enc, &mut tree, 6, s, false);
            }
            let out = enc.finish();
            let mut dec = RangeDecoder::new(&out);
            let mut p = [Prob::default(); 4];
            let mut tree = [Prob::default(); 64];
            for (i, &b) in bits.iter().enumerate() {
                prop_assert_eq!(dec.bit(&mut p[i % 4]), u32::from(b));
            }
            for &s in &syms {
                prop_assert_eq!(get_tree(&mut dec, &mut tree, 6, false), s);
            }
            prop_assert!(dec.consumed() <= out.len(), "consumed {} of {}", dec.consumed(), out.len());
        }
    }

    proptest! {
        /// The branch-free decision is the same function as the branchy one, on whole
        /// streams and on streams cut short (bytes past the end read as zero and are counted).
        /// Contexts 0..4 are skewed (a 1 in 128), so rare bits renormalise by two bytes.
        #[test]
        fn unpredictable_bits_decode_as_bit_does(
            draws in proptest::collection::vec((any::<u8>(), 0usize..8), 1..3000),
            cut in 0usize..64,
        ) {
            let bits: Vec<(bool, usize)> =
                draws.iter().map(|&(x, ctx)| (if ctx < 4 { x < 2 } else { x & 1 == 1 }, ctx)).collect();
            let mut enc = RangeEncoder::default();
            let mut p = [Prob::default(); 8];
            for &(b, ctx) in &bits {
                enc.bit(&mut p[ctx], u32::from(b));
            }
            let mut out = enc.finish();
            let keep = out.len().saturating_sub(cut).max(1);
            for stream in [out.clone(), { out.truncate(keep); out }] {
                let (mut plain, mut free) = (RangeDecoder::new(&stream), RangeDecoder::new(&stream));
                let (mut p_plain, mut p_free) = ([Prob::default(); 8], [Prob::default(); 8]);
                for &(_, ctx) in &bits {
                    let want = plain.bit(&mut p_plain[ctx]);
                    prop_assert_eq!(free.bit_unpredictable(&mut p_free[ctx]), want);
                    prop_assert_eq!(free.consumed(), plain.consumed());
                }
                prop_assert_eq!(p_free, p_plain);
            }
        }
    }

    /// Rare bits in a saturated context shrink the range below 2^16, so the branch-free
    /// decision renormalises by two bytes at once; it must still decode as `bit` does.
    #[test]
    fn unpredictable_bits_renormalise_by_two_bytes() {
        let bits: Vec<u32> = (0..40_000u32).map(|i| u32::from(i % 4001 == 4000 || i % 7919 == 0)).collect();
        let mut enc = RangeEncoder::default();
        let mut p = Prob::default();
        for &b in &bits {
            enc.bit(&mut p, b);
        }
        let out = enc.finish();
        let (mut plain, mut free) = (RangeDecoder::new(&out), RangeDecoder::new(&out));
        let (mut p_plain, mut p_free) = (Prob::default(), Prob::default());
        let mut two_bytes = 0;
        for &b in &bits {
            let before = free.consumed();
            assert_eq!(plain.bit(&mut p_plain), b);
            assert_eq!(free.bit_unpredictable(&mut p_free), b);
            assert_eq!(free.consumed(), plain.consumed());
            two_bytes += usize::from(free.consumed() - before == 2);
        }
        assert!(two_bytes > 0, "no two-byte renormalisation exercised");
    }

    #[test]
    fn skewed_input_compresses() {
        let mut enc = RangeEncoder::default();
        let mut p = Prob::default();
        for i in 0..80_000u32 {
            enc.bit(&mut p, u32::from(i % 50 == 0));
        }
        let out = enc.finish();
        // 80 000 bits of entropy ~0.14 bit each is ~1.4 KB; a broken coder would be near 10 KB.
        assert!(out.len() < 2_000, "{} bytes", out.len());
    }
}
