//! Static rANS with per-tile tables: the entropy coder of the fast method (method 3).
//!
//! The adaptive binary coder (method 0) pays one multiply, one compare and one possible byte
//! read per *bit*. Here one table lookup yields a whole symbol (up to 8 bits), and four
//! interleaved states (symbol *i* of a stream uses state *i* mod 4) let the CPU overlap four
//! consecutive decodes. Statistics are fixed per stream and transmitted up front as
//! quantised log weights ([`tables`]).
//!
//! The decoder is infallible per symbol so the block loops carry no `Result`: every table's
//! alphabet is checked at read time against the field it codes (so no decoded symbol can be
//! out of its field's range), an unused table decodes as 0, and a model that finds an
//! inconsistent value (a copy of a missing neighbour…) records it with [`SymCoder::check`];
//! the first such finding, a payload not consumed exactly, or states not back at the
//! encoder's start are reported once, after the block loop.

mod exact;
mod tables;

use super::error::BcpackError;
pub(super) use tables::MAX_ALPHABET;
use tables::{read_table, write_table, BitReader, BitWriter, EncTable};

/// Lower bound of the normalised state interval [L, 2^32); renormalisation moves 16 bits.
const L: u32 = 1 << 16;
/// Interleaved states per stream.
const STATES: usize = 4;

/// One side of the static rANS coder, seen by a model: the encoder records `value` in
/// `table` and returns it; the decoder returns the decoded symbol.
pub(super) trait SymCoder {
    /// True for the decoder, which has no input fields to read (models skip that work).
    const DECODING: bool;
    fn sym(&mut self, table: usize, value: u32) -> u32;
    /// Records that a decoded value is inconsistent (`bad` true); the encoder never is.
    fn check(&mut self, bad: bool, what: &'static str);
}

/// Collects the symbols of one stream (with the table each is coded in) while a model
/// runs, then writes the stream.
#[derive(Debug, Default)]
pub(super) struct SymbolSink {
    syms: Vec<(u16, u8)>,
}

impl SymCoder for SymbolSink {
    const DECODING: bool = false;
    #[inline]
    fn sym(&mut self, table: usize, value: u32) -> u32 {
        debug_assert!(value < MAX_ALPHABET as u32);
        self.syms.push((table as u16, value as u8));
        value
    }
    #[inline]
    fn check(&mut self, bad: bool, what: &'static str) {
        debug_assert!(!bad, "the encoder produced an invalid {what}");
    }
}

impl SymbolSink {
    /// Writes the tables (`limits[t]` = table *t*'s alphabet bound) and the rANS payload.
    pub(super) fn finish(self, limits: &[usize]) -> Vec<u8> {
        let mut counts = vec![[0u32; MAX_ALPHABET]; limits.len()];
        for &(t, s) in &self.syms {
            counts[usize::from(t)][usize::from(s)] += 1;
        }
        let mut w = BitWriter::default();
        let enc: Vec<EncTable> = counts.iter().zip(limits).map(|(c, &l)| write_table(&mut w, c, l)).collect();
        let mut out = w.finish();
        // Encode backwards so the decoder reads forwards; symbol i uses state i % 4.
        let mut state = [L; STATES];
        let mut words: Vec<u16> = Vec::with_capacity(self.syms.len());
        for (i, &(t, s)) in self.syms.iter().enumerate().rev() {
            let tab = &enc[usize::from(t)];
            if tab.prec == 0 {
                continue;
            }
            let (f, c) = (tab.freq[usize::from(s)], tab.cum[usize::from(s)]);
            let x = &mut state[i % STATES];
            if *x >= ((L >> tab.prec) << 16) * f {
                words.push(*x as u16);
                *x >>= 16;
            }
            *x = ((*x / f) << tab.prec) + (*x % f) + c;
        }
        for x in state {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in words.iter().rev() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// Decoding table: where its 2^prec entries start in the arena, and its precision. Entry
/// = `symbol | (freq − 1) << 8 | start << 20`.
#[derive(Debug, Clone, Copy)]
struct DecTable {
    at: u32,
    prec: u32,
}

/// Four interleaved rANS states over one payload. Words read past the end are zero and
/// counted, so a truncated payload ends in an error after the block loop, not a panic.
#[derive(Debug)]
pub(super) struct RansDecoder {
    /// The payload's u16 words, converted once so the hot loop reads one word per index.
    words: Vec<u16>,
    /// The payload had an odd byte: it cannot be consumed exactly.
    odd: bool,
    pos: usize,
    /// `x[0]` decodes the next symbol; the states rotate after each one.
    x: [u32; STATES],
    /// Entry 0 is symbol 0 at precision 0: where unused tables point.
    lut: Vec<u32>,
    tabs: Vec<DecTable>,
    bad: Option<&'static str>,
    stream: usize,
}

impl RansDecoder {
    /// Reads `limits.len()` tables (each bounded by its field's alphabet) and the initial
    /// states. The lookup arena is at most `limits.len() × 2^12` entries whatever the input.
    pub(super) fn new(src: &[u8], limits: &[usize], stream: usize) -> Result<Self, BcpackError> {
        let mut r = BitReader::new(src, stream);
        let mut lut = vec![0u32];
        let mut tabs = Vec::with_capacity(limits.len());
        for &limit in limits {
            let at = lut.len() as u32;
            tabs.push(match read_table(&mut r, limit, &mut lut)? {
                Some(prec) => DecTable { at, prec },
                None => DecTable { at: 0, prec: 0 },
            });
        }
        let rest = &src[r.bytes()..];
        if rest.len() < 4 * STATES {
            return Err(BcpackError::TablesTruncated { stream, len: src.len() });
        }
        let mut x = [0u32; STATES];
        for (i, x) in x.iter_mut().enumerate() {
            *x = u32::from_le_bytes([rest[4 * i], rest[4 * i + 1], rest[4 * i + 2], rest[4 * i + 3]]);
        }
        if x.iter().any(|&x| x < L) {
            return Err(BcpackError::BadTable { stream, why: "initial rANS state below 2^16" });
        }
        let payload = &rest[4 * STATES..];
        let words = payload.chunks_exact(2).map(|w| u16::from_le_bytes([w[0], w[1]])).collect();
        Ok(RansDecoder { words, odd: payload.len() % 2 == 1, pos: 0, x, lut, tabs, bad: None, stream })
    }

    /// A decoder for an unused stream slot: no tables (every read yields 0), nothing to read.
    pub(super) fn empty() -> Self {
        RansDecoder {
            words: Vec::new(),
            odd: false,
            pos: 0,
            x: [L; STATES],
            lut: vec![0],
            tabs: Vec::new(),
            bad: None,
            stream: 0,
        }
    }

    /// Checks that no model found an inconsistency, the payload was consumed exactly and
    /// every state returned to the start.
    pub(super) fn finish(&self) -> Result<(), BcpackError> {
        if let Some(what) = self.bad {
            return Err(BcpackError::Corrupt { stream: self.stream, what });
        }
        if self.odd || self.pos != self.words.len() || self.x != [L; STATES] {
            let len = 2 * self.words.len() + usize::from(self.odd);
            return Err(BcpackError::RansEnd { stream: self.stream, consumed: 2 * self.pos, len });
        }
        Ok(())
    }
}

impl SymCoder for RansDecoder {
    const DECODING: bool = true;

    #[inline(always)]
    fn sym(&mut self, table: usize, _value: u32) -> u32 {
        // Out-of-range indices cannot happen (models use their own table counts); they would
        // decode as the unused table.
        let t = self.tabs.get(table).copied().unwrap_or(DecTable { at: 0, prec: 0 });
        let x = self.x[0];
        let mask = (1u32 << t.prec) - 1;
        let e = self.lut.get((t.at + (x & mask)) as usize).copied().unwrap_or(0);
        let x = (((e >> 8) & 0xFFF) + 1) * (x >> t.prec) + (x & mask) - (e >> 20);
        // Branch-free renormalisation: whether a word is needed is data-dependent and
        // unpredictable, so always fetch it and select.
        let w = u32::from(self.words.get(self.pos).copied().unwrap_or(0));
        let need = x < L;
        let x = if need { (x << 16) | w } else { x };
        self.pos += usize::from(need);
        self.x = [self.x[1], self.x[2], self.x[3], x];
        e & 0xFF
    }

    #[inline(always)]
    fn check(&mut self, bad: bool, what: &'static str) {
        if bad && self.bad.is_none() {
            self.bad = Some(what);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LIMITS: [usize; 3] = [256, 256, 256];

    fn round_trip(syms: &[(usize, u32)]) -> Vec<u8> {
        let mut sink = SymbolSink::default();
        for &(t, s) in syms {
            sink.sym(t, s);
        }
        let out = sink.finish(&LIMITS);
        let mut d = RansDecoder::new(&out, &LIMITS, 0).unwrap();
        for &(t, s) in syms {
            assert_eq!(d.sym(t, 0), s);
        }
        d.finish().unwrap();
        out
    }

    #[test]
    fn skewed_symbols_cost_little_and_single_symbol_tables_cost_nothing() {
        let syms: Vec<(usize, u32)> = (0..20_000).map(|i| (0, if i % 50 == 0 { 7 } else { 0 })).collect();
        let out = round_trip(&syms);
        // ~0.14 bit per symbol: ~350 B; a broken coder would be far larger.
        assert!(out.len() < 500, "{} B", out.len());
        let flat: Vec<(usize, u32)> = (0..20_000).map(|_| (1, 200)).collect();
        assert!(round_trip(&flat).len() < 24);
    }

    #[test]
    fn a_table_never_yields_a_symbol_past_its_limit() {
        let mut sink = SymbolSink::default();
        for i in 0..1000 {
            sink.sym(0, i % 200);
        }
        let out = sink.finish(&[200]);
        assert!(RansDecoder::new(&out, &[200], 0).is_ok());
        // Same 8-bit alphabet-length field, shorter bound: refused when the table is read.
        assert!(matches!(RansDecoder::new(&out, &[150], 0), Err(BcpackError::BadTable { .. })));
    }

    proptest! {
        #[test]
        fn symbols_round_trip(syms in proptest::collection::vec((0usize..3, 0u32..256), 0..3000), skew in 1u32..256) {
            let syms: Vec<(usize, u32)> = syms.into_iter().map(|(t, s)| (t, if t == 0 { s % skew } else { s })).collect();
            round_trip(&syms);
        }

        #[test]
        fn random_streams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), n in 0usize..200) {
            if let Ok(mut d) = RansDecoder::new(&bytes, &LIMITS, 0) {
                for i in 0..n {
                    prop_assert!(d.sym(i % 3, 0) < 256);
                }
                let _ = d.finish();
            }
        }
    }
}
