//! Static rANS with per-tile frequency tables: the entropy coder of the fast method.
//!
//! The adaptive binary coder (method 0) pays one multiply, one compare and one possible byte
//! read per *bit*. Here one table lookup yields a whole symbol (up to 8 bits), and two
//! interleaved states let the CPU overlap consecutive decodes. The price is that the
//! statistics are fixed per stream and must be transmitted: each table carries its own
//! precision (1..=12 bits, picked by the encoder to minimise table + payload bits), so a
//! context that codes few symbols costs few header bits and a small lookup table.
//!
//! A stream is `tables ‖ payload`. Tables are bit-packed (LSB first), then padded to a byte:
//! per table one bit "used"; if used, 4 bits precision `p` (0..=12), and for `p = 0` an
//! 8-bit symbol (a table that always yields that symbol), otherwise 9 bits `n` (1..=256, the
//! alphabet length), 2 bits `k`, and frequencies of symbols `0..n−1` in Exp-Golomb order
//! `k`, where a coded 0 is followed by an order-0 code of (run − 1) for a run of zeros; the
//! last symbol's frequency is `2^p` minus the others and must be at least 1.
//! The payload is two initial states (u32 LE) then u16 LE words; symbol *i* of the stream
//! is decoded by state *i* mod 2. Decode with table (p, f, c):
//! `s = sym(x mod 2^p); x = f[s]·(x >> p) + (x mod 2^p) − c[s]; if x < 2^16 { x = x·2^16 + word }`.
//! At the end both states must be back at 2^16 (the encoder's start) and no word may have
//! been read past the payload.

use super::error::BcpackError;

/// Largest table precision, in bits.
pub(super) const MAX_PREC: u32 = 12;
/// Lower bound of the normalised state interval [L, 2^32).
const L: u32 = 1 << 16;
/// Largest alphabet of one table.
pub(super) const MAX_ALPHABET: usize = 256;

/// LSB-first bit writer for table headers.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    fn put(&mut self, bits: u32, v: u32) {
        debug_assert!(bits <= 32);
        self.acc |= u64::from(v) << self.n;
        self.n += bits;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn exp_golomb(&mut self, k: u32, v: u32) {
        let x = u64::from(v) + (1u64 << k);
        let len = 64 - x.leading_zeros();
        // (len − 1 − k) zeros, then x in len bits (MSB first is not needed: LSB-first is fine
        // as long as the reader mirrors it).
        self.put(len - 1 - k, 0);
        self.put(1, 1);
        self.put(len - 1, (x & ((1u64 << (len - 1)) - 1)) as u32);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// Bit reader over a table section; reads past the end are an error.
struct BitReader<'a> {
    src: &'a [u8],
    pos: usize,
    acc: u64,
    n: u32,
}

impl<'a> BitReader<'a> {
    fn new(src: &'a [u8]) -> Self {
        BitReader { src, pos: 0, acc: 0, n: 0 }
    }

    fn get(&mut self, bits: u32, stream: usize) -> Result<u32, BcpackError> {
        while self.n < bits {
            let Some(&b) = self.src.get(self.pos) else {
                return Err(BcpackError::TablesTruncated { stream, len: self.src.len() });
            };
            self.acc |= u64::from(b) << self.n;
            self.pos += 1;
            self.n += 8;
        }
        let v = (self.acc & ((1u64 << bits) - 1)) as u32;
        self.acc >>= bits;
        self.n -= bits;
        Ok(v)
    }

    fn exp_golomb(&mut self, k: u32, stream: usize) -> Result<u32, BcpackError> {
        let mut zeros = 0;
        while self.get(1, stream)? == 0 {
            zeros += 1;
            if zeros > 13 {
                return Err(BcpackError::BadTable { stream, why: "frequency code longer than 13 bits" });
            }
        }
        let len = zeros + k;
        let low = self.get(len, stream)?;
        Ok(((1u32 << len) | low) - (1 << k))
    }

    /// Bytes consumed, rounding the last partial byte up.
    fn bytes(&self) -> usize {
        self.pos
    }
}

/// A normalised frequency table (encoder side).
#[derive(Debug, Clone)]
struct EncTable {
    prec: u32,
    freq: Vec<u32>,
    cum: Vec<u32>,
}

/// Normalises `counts` to sum `2^prec`, every present symbol keeping at least 1.
fn normalise(counts: &[u32], prec: u32) -> Option<Vec<u32>> {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    let present = counts.iter().filter(|&&c| c > 0).count() as u64;
    let scale = 1u64 << prec;
    if total == 0 || present > scale {
        return None;
    }
    let mut f: Vec<u32> =
        counts.iter().map(|&c| if c == 0 { 0 } else { ((u64::from(c) * scale / total) as u32).max(1) }).collect();
    let mut sum: i64 = f.iter().map(|&x| i64::from(x)).sum();
    // Give or take the rounding error from the symbols where it costs least.
    while sum != scale as i64 {
        let mut best = None;
        let mut best_cost = f64::MAX;
        for (s, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let fs = f64::from(f[s]);
            let cost = if sum > scale as i64 {
                if f[s] <= 1 {
                    continue;
                }
                f64::from(c) * (fs / (fs - 1.0)).ln()
            } else {
                -f64::from(c) * ((fs + 1.0) / fs).ln()
            };
            if cost < best_cost {
                best_cost = cost;
                best = Some(s);
            }
        }
        let s = best?;
        if sum > scale as i64 {
            f[s] -= 1;
            sum -= 1;
        } else {
            f[s] += 1;
            sum += 1;
        }
    }
    Some(f)
}

fn payload_bits(counts: &[u32], freq: &[u32], prec: u32) -> f64 {
    counts
        .iter()
        .zip(freq)
        .filter(|(&c, _)| c > 0)
        .map(|(&c, &f)| f64::from(c) * (f64::from(prec) - f64::from(f).log2()))
        .sum()
}

fn eg_len(k: u32, v: u32) -> u32 {
    let x = u64::from(v) + (1u64 << k);
    let len = 64 - x.leading_zeros();
    2 * len - 1 - k
}

/// Writes the best table for `counts` (or an unused marker) and returns it.
fn write_table(w: &mut BitWriter, counts: &[u32]) -> Option<EncTable> {
    let n = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
    if n == 0 {
        w.put(1, 0);
        return None;
    }
    w.put(1, 1);
    if counts.iter().filter(|&&c| c > 0).count() == 1 {
        w.put(4, 0);
        w.put(8, (n - 1) as u32);
        // Precision 0: the state passes through unchanged, the symbol costs nothing.
        let mut freq = vec![0; n];
        freq[n - 1] = 1;
        return Some(EncTable { prec: 0, cum: vec![0; n], freq });
    }
    let mut best: Option<(f64, u32, u32, Vec<u32>)> = None;
    for prec in 1..=MAX_PREC {
        let Some(freq) = normalise(&counts[..n], prec) else { continue };
        let data = payload_bits(&counts[..n], &freq, prec);
        for k in 0..4 {
            let head: u32 = 15 + freq_list_bits(&freq[..n - 1], k);
            let cost = data + f64::from(head);
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, prec, k, freq.clone()));
            }
        }
    }
    let (_, prec, k, freq) = best?;
    w.put(4, prec);
    w.put(9, (n - 1) as u32);
    w.put(2, k);
    for item in freq_items(&freq[..n - 1]) {
        match item {
            FreqItem::Value(f) => w.exp_golomb(k, f),
            FreqItem::Zeros(run) => {
                w.exp_golomb(k, 0);
                w.exp_golomb(0, run - 1);
            }
        }
    }
    Some(EncTable { prec, cum: cumulative(&freq), freq })
}

/// A frequency list as transmitted: nonzero values one by one, zeros as runs (sparse
/// alphabets — residual tails, unused palette positions — are mostly zeros).
enum FreqItem {
    Value(u32),
    Zeros(u32),
}

fn freq_items(freqs: &[u32]) -> Vec<FreqItem> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < freqs.len() {
        if freqs[i] == 0 {
            let run = freqs[i..].iter().take_while(|&&f| f == 0).count();
            out.push(FreqItem::Zeros(run as u32));
            i += run;
        } else {
            out.push(FreqItem::Value(freqs[i]));
            i += 1;
        }
    }
    out
}

fn freq_list_bits(freqs: &[u32], k: u32) -> u32 {
    freq_items(freqs)
        .iter()
        .map(|item| match *item {
            FreqItem::Value(f) => eg_len(k, f),
            FreqItem::Zeros(run) => eg_len(k, 0) + eg_len(0, run - 1),
        })
        .sum()
}

fn cumulative(freq: &[u32]) -> Vec<u32> {
    let mut c = 0;
    freq.iter()
        .map(|&f| {
            let at = c;
            c += f;
            at
        })
        .collect()
}

/// Collects the symbols of one stream (with the table each is coded in) while a model
/// runs, then writes the stream.
#[derive(Debug, Default)]
pub(super) struct SymbolSink {
    syms: Vec<(u16, u8)>,
}

impl SymbolSink {
    #[inline]
    pub(super) fn push(&mut self, table: usize, sym: u32) {
        debug_assert!(sym < MAX_ALPHABET as u32);
        self.syms.push((table as u16, sym as u8));
    }

    /// Writes `tables` frequency tables and the rANS payload for the collected symbols.
    pub(super) fn finish(self, tables: usize) -> Vec<u8> {
        let mut counts = vec![[0u32; MAX_ALPHABET]; tables];
        for &(t, s) in &self.syms {
            counts[usize::from(t)][usize::from(s)] += 1;
        }
        let mut w = BitWriter::default();
        let enc: Vec<Option<EncTable>> = counts.iter().map(|c| write_table(&mut w, c)).collect();
        let mut out = w.finish();
        // Encode backwards so the decoder reads forwards; symbol i uses state i % 2.
        let mut state = [L, L];
        let mut words: Vec<u16> = Vec::with_capacity(self.syms.len());
        for (i, &(t, s)) in self.syms.iter().enumerate().rev() {
            let Some(tab) = &enc[usize::from(t)] else { unreachable!("a used table is written") };
            let f = tab.freq[usize::from(s)];
            let c = tab.cum[usize::from(s)];
            if tab.prec == 0 {
                continue;
            }
            let x = &mut state[i & 1];
            let x_max = ((L >> tab.prec) << 16) * f;
            if *x >= x_max {
                words.push(*x as u16);
                *x >>= 16;
            }
            *x = ((*x / f) << tab.prec) + (*x % f) + c;
        }
        out.extend_from_slice(&state[0].to_le_bytes());
        out.extend_from_slice(&state[1].to_le_bytes());
        for w in words.iter().rev() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// Decoding table: where its 2^prec entries start in the arena, and its precision.
/// Each entry is `symbol | (freq − 1) << 8 | start << 20` (start = cumulative frequency).
#[derive(Debug, Clone, Copy)]
struct DecTable {
    at: u32,
    prec: u32,
}

/// Precision marking a table the stream did not transmit.
const ABSENT: u32 = u32::MAX;

/// All decoding tables of one stream, in one arena bounded by `tables × 2^12` entries.
#[derive(Debug)]
struct Tables {
    lut: Vec<u32>,
    tabs: Vec<DecTable>,
}

impl Tables {
    /// Reads `count` tables from the start of `src`; returns them and the bytes they took.
    fn read(src: &[u8], count: usize, stream: usize) -> Result<(Tables, usize), BcpackError> {
        let mut r = BitReader::new(src);
        let mut lut = Vec::new();
        let mut tabs = Vec::with_capacity(count);
        let mut freq = [0u32; MAX_ALPHABET];
        for _ in 0..count {
            if r.get(1, stream)? == 0 {
                tabs.push(DecTable { at: 0, prec: ABSENT });
                continue;
            }
            let prec = r.get(4, stream)?;
            let at = lut.len() as u32;
            if prec == 0 {
                // One entry of frequency 1 at precision 0: x' = 1·(x >> 0) + 0 − 0 = x.
                lut.push(r.get(8, stream)?);
                tabs.push(DecTable { at, prec: 0 });
                continue;
            }
            if prec > MAX_PREC {
                return Err(BcpackError::BadTable { stream, why: "precision above 12 bits" });
            }
            let n = r.get(9, stream)? as usize + 1;
            if n > MAX_ALPHABET {
                return Err(BcpackError::BadTable { stream, why: "alphabet longer than 256 symbols" });
            }
            let k = r.get(2, stream)?;
            let scale = 1u32 << prec;
            let mut sum = 0u32;
            let mut s = 0;
            while s < n - 1 {
                let f = r.exp_golomb(k, stream)?;
                if f == 0 {
                    let run = r.exp_golomb(0, stream)? as usize + 1;
                    if s + run > n - 1 {
                        return Err(BcpackError::BadTable { stream, why: "a zero run passes the alphabet's end" });
                    }
                    freq[s..s + run].fill(0);
                    s += run;
                    continue;
                }
                sum += f;
                if sum >= scale {
                    return Err(BcpackError::BadTable { stream, why: "frequencies exceed the table's precision" });
                }
                freq[s] = f;
                s += 1;
            }
            freq[n - 1] = scale - sum;
            lut.reserve(scale as usize);
            let mut start = 0u32;
            for (s, &f) in freq[..n].iter().enumerate() {
                if f > 0 {
                    lut.extend(std::iter::repeat_n(s as u32 | ((f - 1) << 8) | (start << 20), f as usize));
                }
                start += f;
            }
            tabs.push(DecTable { at, prec });
        }
        Ok((Tables { lut, tabs }, r.bytes()))
    }
}

#[cold]
fn absent_table(stream: usize) -> BcpackError {
    BcpackError::BadTable { stream, why: "a symbol uses a table the stream lacks" }
}

/// Two interleaved rANS states over one payload: symbols alternate between them, so
/// consecutive decodes do not wait on each other. Words read past the end are zero and
/// counted, so a truncated payload ends in an error after the block loop, not a panic.
#[derive(Debug)]
pub(super) struct RansDecoder<'a> {
    words: &'a [u8],
    pos: usize,
    /// `x[0]` decodes the next symbol; the states swap after each one.
    x: [u32; 2],
    tables: Tables,
    stream: usize,
}

impl<'a> RansDecoder<'a> {
    pub(super) fn new(src: &'a [u8], tables: usize, stream: usize) -> Result<Self, BcpackError> {
        let (tables, used) = Tables::read(src, tables, stream)?;
        let rest = &src[used..];
        if rest.len() < 8 {
            return Err(BcpackError::TablesTruncated { stream, len: src.len() });
        }
        let word = |at: usize| u32::from_le_bytes([rest[at], rest[at + 1], rest[at + 2], rest[at + 3]]);
        let x = [word(0), word(4)];
        if x.iter().any(|&x| x < L) {
            return Err(BcpackError::BadTable { stream, why: "initial rANS state below 2^16" });
        }
        Ok(RansDecoder { words: &rest[8..], pos: 0, x, tables, stream })
    }

    /// A decoder for an unused stream slot: it has no tables, so any read is an error.
    pub(super) fn empty() -> Self {
        RansDecoder { words: &[], pos: 0, x: [L, L], tables: Tables { lut: Vec::new(), tabs: Vec::new() }, stream: 0 }
    }

    /// Decodes one symbol with `table`.
    #[inline(always)]
    pub(super) fn sym(&mut self, table: usize) -> Result<u32, BcpackError> {
        let t = match self.tables.tabs.get(table) {
            Some(&t) if t.prec != ABSENT => t,
            _ => return Err(absent_table(self.stream)),
        };
        let x = self.x[0];
        let mask = (1u32 << t.prec) - 1;
        let e = self.tables.lut.get((t.at + (x & mask)) as usize).copied().unwrap_or(0);
        let freq = ((e >> 8) & 0xFFF) + 1;
        let x = freq * (x >> t.prec) + (x & mask) - (e >> 20);
        // Branch-free renormalisation: whether a word is needed is data-dependent and
        // unpredictable, so always fetch it and select.
        let w = match self.words.get(self.pos..self.pos + 2) {
            Some(&[lo, hi]) => u32::from(u16::from_le_bytes([lo, hi])),
            _ => 0,
        };
        let need = x < L;
        let x = if need { (x << 16) | w } else { x };
        self.pos += 2 * usize::from(need);
        self.x[0] = self.x[1];
        self.x[1] = x;
        Ok(e & 0xFF)
    }

    /// Checks that the payload was consumed exactly and both states returned to the start.
    pub(super) fn finish(&self) -> Result<(), BcpackError> {
        if self.pos != self.words.len() || self.x != [L, L] {
            return Err(BcpackError::RansEnd { stream: self.stream, consumed: self.pos, len: self.words.len() });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(syms: &[(usize, u32)], tables: usize) -> Vec<u8> {
        let mut sink = SymbolSink::default();
        for &(t, s) in syms {
            sink.push(t, s);
        }
        let out = sink.finish(tables);
        let mut d = RansDecoder::new(&out, tables, 0).unwrap();
        for &(t, s) in syms {
            assert_eq!(d.sym(t).unwrap(), s);
        }
        d.finish().unwrap();
        out
    }

    #[test]
    fn skewed_symbols_cost_little_and_single_symbol_tables_cost_nothing() {
        let syms: Vec<(usize, u32)> = (0..20_000).map(|i| (0, if i % 50 == 0 { 7 } else { 0 })).collect();
        let out = round_trip(&syms, 2);
        // ~0.14 bit per symbol: ~350 B; a broken coder would be far larger.
        assert!(out.len() < 500, "{} B", out.len());
        let flat: Vec<(usize, u32)> = (0..20_000).map(|_| (1, 200)).collect();
        assert!(round_trip(&flat, 2).len() < 16);
    }

    proptest! {
        #[test]
        fn symbols_round_trip(syms in proptest::collection::vec((0usize..3, 0u32..256), 0..3000), skew in 1u32..256) {
            let syms: Vec<(usize, u32)> = syms.into_iter().map(|(t, s)| (t, if t == 0 { s % skew } else { s })).collect();
            round_trip(&syms, 3);
        }

        #[test]
        fn random_streams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), n in 0usize..200) {
            if let Ok(mut d) = RansDecoder::new(&bytes, 3, 0) {
                for i in 0..n {
                    if d.sym(i % 3).is_err() {
                        break;
                    }
                }
                let _ = d.finish();
            }
        }
    }
}
