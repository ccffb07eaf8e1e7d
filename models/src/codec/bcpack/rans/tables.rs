//! How a static rANS table is transmitted: as quantised *log* weights, not frequencies.
//!
//! Version 1 sent each frequency exactly (Exp-Golomb, ~10–20 bits per present symbol); on a
//! 64 KiB BC7 tile the tables cost 2.3 % of the BC size, more than the fast method lost in
//! modelling. Here each present symbol's weight is `2^(e / 2^r)` for a small integer level
//! `e`, coded as its difference from the previous present symbol's level (residual
//! alphabets fall off smoothly, so the differences are small); the decoder normalises the
//! weights to `2^p` with integer arithmetic the encoder reproduces exactly. Rounding a
//! probability to a step of `2^(1/2^r)` costs a few thousandths of a bit per symbol, far
//! less than the header bits saved; the encoder picks `p`, `r` and the Exp-Golomb order per
//! table by total cost.

use super::super::error::BcpackError;
use super::exact;

/// Largest table precision, in bits (16 KiB of u32 lookup entries per table).
pub(in crate::codec::bcpack) const MAX_PREC: u32 = 12;
/// Largest alphabet of one table.
pub(in crate::codec::bcpack) const MAX_ALPHABET: usize = 256;
/// Weight levels per resolution: level 1..=TOP; weight(TOP) = 2^12.
const fn top(r: u32) -> u32 {
    (MAX_PREC << r) + 1
}

/// `2^(j/8)` in 1.16 fixed point, j = 0..8 (rounded; the decoder's weights come only from
/// these integers, so encoder and decoder agree on every platform).
const FRAC8: [u64; 8] = [65536, 71468, 77936, 84990, 92682, 101070, 110218, 120194];

/// The weight of level `e` (1..=top(r)) at resolution `r`: `2^((e − 1) / 2^r)`, ×2^16.
fn weight(e: u32, r: u32) -> u64 {
    let q = (e - 1) >> r;
    let j = ((e - 1) & ((1 << r) - 1)) << (3 - r);
    FRAC8[j as usize] << q
}

/// LSB-first bit writer.
#[derive(Default)]
pub(super) struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    pub(super) fn put(&mut self, bits: u32, v: u32) {
        self.acc |= u64::from(v) << self.n;
        self.n += bits;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    pub(super) fn exp_golomb(&mut self, k: u32, v: u32) {
        let x = u64::from(v) + (1u64 << k);
        let len = 64 - x.leading_zeros();
        self.put(len - 1 - k, 0);
        self.put(1, 1);
        self.put(len - 1, (x & ((1u64 << (len - 1)) - 1)) as u32);
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

pub(super) fn eg_len(k: u32, v: u32) -> u32 {
    let x = u64::from(v) + (1u64 << k);
    2 * (64 - x.leading_zeros()) - 1 - k
}

/// Bit reader over the table section; reading past its end is an error.
pub(super) struct BitReader<'a> {
    src: &'a [u8],
    pos: usize,
    acc: u64,
    n: u32,
    stream: usize,
}

impl<'a> BitReader<'a> {
    pub(super) fn new(src: &'a [u8], stream: usize) -> Self {
        BitReader { src, pos: 0, acc: 0, n: 0, stream }
    }

    pub(super) fn get(&mut self, bits: u32) -> Result<u32, BcpackError> {
        while self.n < bits {
            let Some(&b) = self.src.get(self.pos) else {
                return Err(BcpackError::TablesTruncated { stream: self.stream, len: self.src.len() });
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

    pub(super) fn exp_golomb(&mut self, k: u32) -> Result<u32, BcpackError> {
        let mut zeros = 0;
        while self.get(1)? == 0 {
            zeros += 1;
            if zeros > 16 {
                return Err(self.bad("an Exp-Golomb code longer than 16 bits"));
            }
        }
        let low = self.get(zeros + k)?;
        Ok(((1u32 << (zeros + k)) | low) - (1 << k))
    }

    pub(super) fn bad(&self, why: &'static str) -> BcpackError {
        BcpackError::BadTable { stream: self.stream, why }
    }

    /// Bytes consumed (the last partial byte counts).
    pub(super) fn bytes(&self) -> usize {
        self.pos
    }
}

/// Bits to send a symbol of an alphabet of at most `limit` symbols.
pub(super) fn sym_bits(limit: usize) -> u32 {
    usize::BITS - (limit.max(2) - 1).leading_zeros()
}

fn zigzag(d: i32) -> u32 {
    ((d << 1) ^ (d >> 31)) as u32
}

fn unzigzag(v: u32) -> i32 {
    (v >> 1) as i32 ^ -((v & 1) as i32)
}

/// Normalises level weights (`levels[s]` = 0 for an absent symbol) to frequencies summing
/// to `2^prec`, each present symbol at least 1. `None` if more symbols are present than
/// `2^prec` slots. The decoder runs exactly this, so it is integer-only and deterministic.
pub(super) fn normalise(levels: &[u32], r: u32, prec: u32, freq: &mut [u32]) -> Option<()> {
    let scale = 1u64 << prec;
    let total: u64 = levels.iter().filter(|&&e| e > 0).map(|&e| weight(e, r)).sum();
    let present = levels.iter().filter(|&&e| e > 0).count() as u64;
    if present == 0 || present > scale {
        return None;
    }
    let mut sum = 0u64;
    for (&e, f) in levels.iter().zip(freq.iter_mut()) {
        *f = if e == 0 { 0 } else { ((weight(e, r) * scale / total) as u32).max(1) };
        sum += u64::from(*f);
    }
    // The first symbol of the highest level.
    let big = levels.iter().enumerate().fold(0, |b, (s, &e)| if e > levels[b] { s } else { b });
    // Rounding down leaves slots over: the most probable symbol takes them. Rounding rare
    // symbols up to 1 can overshoot: the largest frequencies give the excess back.
    if sum < scale {
        freq[big] += (scale - sum) as u32;
    }
    while sum > scale {
        let (s, &f) = freq.iter().enumerate().rev().max_by_key(|&(_, &f)| f)?;
        let give = (sum - scale).min(u64::from(f - 1));
        freq[s] -= give as u32;
        sum -= give;
    }
    Some(())
}

/// The transmitted shape of one table's levels: nonzero levels as zigzag differences
/// from the previous nonzero level (from `top` for the first), absent symbols as runs.
enum Item {
    Level(u32),
    Zeros(u32),
}

fn items(levels: &[u32], r: u32) -> Vec<Item> {
    let mut out = Vec::new();
    let mut prev = top(r) as i32;
    let mut s = 0;
    while s < levels.len() {
        if levels[s] == 0 {
            let run = levels[s..].iter().take_while(|&&e| e == 0).count();
            out.push(Item::Zeros(run as u32));
            s += run;
        } else {
            // A coded 0 announces a run, so levels are sent as zigzag(d) + 1.
            out.push(Item::Level(zigzag(levels[s] as i32 - prev) + 1));
            prev = levels[s] as i32;
            s += 1;
        }
    }
    out
}

fn items_bits(items: &[Item], k: u32) -> u32 {
    items
        .iter()
        .map(|i| match *i {
            Item::Level(v) => eg_len(k, v),
            Item::Zeros(run) => eg_len(k, 0) + eg_len(0, run - 1),
        })
        .sum()
}

/// The level of a symbol seen `count` times when the most frequent is seen `max` times.
fn level(count: u32, max: u32, r: u32) -> u32 {
    if count == 0 {
        return 0;
    }
    let steps = (f64::from(max) / f64::from(count)).log2() * f64::from(1u32 << r);
    (top(r) as i64 - steps.round() as i64).max(1) as u32
}

/// An encoder-side table: precision and frequencies (empty `freq` = precision 0, or unused).
#[derive(Debug, Clone, Default)]
pub(super) struct EncTable {
    pub prec: u32,
    pub freq: Vec<u32>,
    pub cum: Vec<u32>,
}

/// Writes the cheapest description of `counts` (an alphabet of at most `limit` symbols).
pub(super) fn write_table(w: &mut BitWriter, counts: &[u32], limit: usize) -> EncTable {
    let n = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
    debug_assert!(n <= limit);
    if n == 0 {
        w.put(1, 0);
        return EncTable::default();
    }
    w.put(1, 1);
    if counts.iter().filter(|&&c| c > 0).count() == 1 {
        // Precision 0: the state passes through unchanged; the symbol costs nothing.
        w.put(4, 0);
        w.put(sym_bits(limit), (n - 1) as u32);
        let mut freq = vec![0; n];
        freq[n - 1] = 1;
        return EncTable { prec: 0, cum: vec![0; n], freq };
    }
    let counts = &counts[..n];
    let max = counts.iter().copied().max().unwrap_or(1);
    let present = counts.iter().filter(|&&c| c > 0).count();
    let mut best: Option<(f64, u32, u32, u32, Vec<u32>)> = None;
    let mut freq = vec![0u32; n];
    for r in 0..4 {
        let levels: Vec<u32> = counts.iter().map(|&c| level(c, max, r)).collect();
        let list = items(&levels, r);
        let head = (0..4).map(|k| (items_bits(&list, k), k)).min().unwrap_or((0, 0));
        for prec in sym_bits(present)..=MAX_PREC {
            if normalise(&levels, r, prec, &mut freq).is_none() {
                continue;
            }
            let data: f64 = counts
                .iter()
                .zip(&freq)
                .filter(|(&c, _)| c > 0)
                .map(|(&c, &f)| f64::from(c) * (f64::from(prec) - f64::from(f).log2()))
                .sum();
            let cost = data + f64::from(head.0);
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, prec, r, head.1, freq.clone()));
            }
        }
    }
    // The exact form: r = 4 marks it below.
    for prec in sym_bits(present)..=MAX_PREC {
        let Some(f) = exact::normalise_counts(counts, prec) else { continue };
        let data: f64 = counts
            .iter()
            .zip(&f)
            .filter(|(&c, _)| c > 0)
            .map(|(&c, &f)| f64::from(c) * (f64::from(prec) - f64::from(f).log2()))
            .sum();
        let (head, k) = (0..4).map(|k| (exact::list_bits(&f, k), k)).min().unwrap_or((0, 0));
        // The levels form spends 2 bits on r that this one does not.
        let cost = data + f64::from(head) - 2.0;
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, prec, 4, k, f));
        }
    }
    let Some((_, prec, r, k, freq)) = best else { unreachable!("precision 12 fits any 256-symbol alphabet") };
    w.put(4, prec);
    w.put(sym_bits(limit), (n - 1) as u32);
    w.put(1, u32::from(r == 4));
    if r == 4 {
        w.put(2, k);
        exact::write(w, &freq, k);
    } else {
        w.put(2, r);
        w.put(2, k);
        let levels: Vec<u32> = counts.iter().map(|&c| level(c, max, r)).collect();
        for item in items(&levels, r) {
            match item {
                Item::Level(v) => w.exp_golomb(k, v),
                Item::Zeros(run) => {
                    w.exp_golomb(k, 0);
                    w.exp_golomb(0, run - 1);
                }
            }
        }
    }
    let mut c = 0;
    let cum = freq
        .iter()
        .map(|&f| {
            c += f;
            c - f
        })
        .collect();
    EncTable { prec, freq, cum }
}

/// Reads a levels-form table body and normalises it into `freq` (its alphabet).
fn read_levels(r: &mut BitReader, prec: u32, freq: &mut [u32]) -> Result<(), BcpackError> {
    let n = freq.len();
    let res = r.get(2)?;
    let k = r.get(2)?;
    let mut levels = [0u32; MAX_ALPHABET];
    let mut prev = top(res) as i32;
    let mut s = 0;
    while s < n {
        let v = r.exp_golomb(k)?;
        if v == 0 {
            let run = r.exp_golomb(0)? as usize + 1;
            if s + run > n {
                return Err(r.bad("a run of absent symbols passes the alphabet's end"));
            }
            s += run;
            continue;
        }
        let e = prev + unzigzag(v - 1);
        if e < 1 || e > top(res) as i32 {
            return Err(r.bad("a weight level out of range"));
        }
        levels[s] = e as u32;
        prev = e;
        s += 1;
    }
    normalise(&levels[..n], res, prec, freq).ok_or(r.bad("more symbols than the precision has slots"))
}

/// Reads one table (alphabet at most `limit`) and appends its `2^prec` lookup entries to
/// `lut` (`symbol | (freq − 1) << 8 | start << 20`); returns its precision, or `None` for an
/// unused table (which decodes as symbol 0 without touching the state).
pub(super) fn read_table(r: &mut BitReader, limit: usize, lut: &mut Vec<u32>) -> Result<Option<u32>, BcpackError> {
    if r.get(1)? == 0 {
        return Ok(None);
    }
    let prec = r.get(4)?;
    if prec > MAX_PREC {
        return Err(r.bad("precision above 12 bits"));
    }
    let n = r.get(sym_bits(limit))? as usize + 1;
    if n > limit {
        return Err(r.bad("alphabet longer than the field allows"));
    }
    if prec == 0 {
        lut.push(n as u32 - 1);
        return Ok(Some(0));
    }
    let mut freq = [0u32; MAX_ALPHABET];
    if r.get(1)? == 1 {
        let k = r.get(2)?;
        exact::read(r, prec, k, &mut freq[..n])?;
    } else {
        read_levels(r, prec, &mut freq[..n])?;
    }
    let mut start = 0u32;
    lut.reserve(1 << prec);
    for (s, &f) in freq[..n].iter().enumerate() {
        if f > 0 {
            lut.extend(std::iter::repeat_n(s as u32 | ((f - 1) << 8) | (start << 20), f as usize));
        }
        start += f;
    }
    Ok(Some(prec))
}
