//! A minimal, independent Deflate *writer* for hand-built test streams: stored,
//! fixed-Huffman and dynamic-Huffman blocks, written straight from RFC 1951.

use super::data::adler32;
use crate::codec::zlib::header::default_header;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Default)]
pub struct BitWriter {
    pub bytes: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// Appends the low `n` bits of `v`, least significant first (RFC 1951 §3.1.1).
    pub fn bits(&mut self, v: u32, n: u32) {
        self.acc |= u64::from(v & ((1u64 << n) - 1) as u32) << self.n;
        self.n += n;
        while self.n >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// Huffman codes are sent most significant bit first.
    pub fn code(&mut self, code: u32, len: u32) {
        let rev = code.reverse_bits() >> (32 - len);
        self.bits(rev, len);
    }
    pub fn align(&mut self) {
        if self.n > 0 {
            self.bits(0, 8 - self.n);
        }
    }
    pub fn finish(mut self) -> Vec<u8> {
        self.align();
        self.bytes
    }
}

/// One LZ77 symbol.
#[derive(Clone, Copy, Debug)]
pub enum Sym {
    Lit(u8),
    Copy { len: u16, dist: u16 },
}

const LEN_BASE: [u16; 29] =
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA: [u32; 29] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u32; 30] =
    [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/// (symbol, extra bits, extra count) for a match length 3..=258.
fn len_code(len: u16) -> (usize, u32, u32) {
    let i = LEN_BASE.iter().rposition(|&b| b <= len).unwrap();
    (257 + i, u32::from(len - LEN_BASE[i]), LEN_EXTRA[i])
}
fn dist_code(dist: u16) -> (usize, u32, u32) {
    let i = DIST_BASE.iter().rposition(|&b| b <= dist).unwrap();
    (i, u32::from(dist - DIST_BASE[i]), DIST_EXTRA[i])
}

/// Greedy LZ77 over `data[start..]` with `data[..start]` as history, searching back up to
/// `window` bytes. Slow and simple; test inputs are small.
pub fn lz77(data: &[u8], start: usize, window: usize) -> Vec<Sym> {
    let mut out = Vec::new();
    let mut i = start;
    while i < data.len() {
        let (mut best_len, mut best_dist) = (0usize, 0usize);
        let max_len = (data.len() - i).min(258);
        for dist in 1..=i.min(window) {
            let mut l = 0;
            while l < max_len && data[i + l - dist] == data[i + l] {
                l += 1;
            }
            if l > best_len {
                (best_len, best_dist) = (l, dist);
                if l == max_len {
                    break;
                }
            }
        }
        if best_len >= 3 {
            out.push(Sym::Copy { len: best_len as u16, dist: best_dist as u16 });
            i += best_len;
        } else {
            out.push(Sym::Lit(data[i]));
            i += 1;
        }
    }
    out
}

pub fn stored_block(w: &mut BitWriter, data: &[u8], last: bool) {
    assert!(data.len() <= 65_535);
    w.bits(u32::from(last), 1);
    w.bits(0, 2);
    w.align();
    w.bits(data.len() as u32, 16);
    w.bits(!(data.len() as u32) & 0xffff, 16);
    for &b in data {
        w.bits(u32::from(b), 8);
    }
}

/// RFC 1951 §3.2.6 fixed literal/length code.
fn fixed_lit(sym: usize) -> (u32, u32) {
    match sym {
        0..=143 => (0x30 + sym as u32, 8),
        144..=255 => (0x190 + (sym as u32 - 144), 9),
        256..=279 => (sym as u32 - 256, 7),
        _ => (0xc0 + (sym as u32 - 280), 8),
    }
}

fn write_syms(w: &mut BitWriter, syms: &[Sym], lit: &dyn Fn(usize) -> (u32, u32), dist: &dyn Fn(usize) -> (u32, u32)) {
    for s in syms {
        match *s {
            Sym::Lit(b) => {
                let (c, l) = lit(usize::from(b));
                w.code(c, l);
            }
            Sym::Copy { len, dist: d } => {
                let (sym, extra, n) = len_code(len);
                let (c, l) = lit(sym);
                w.code(c, l);
                w.bits(extra, n);
                let (dsym, dextra, dn) = dist_code(d);
                let (c, l) = dist(dsym);
                w.code(c, l);
                w.bits(dextra, dn);
            }
        }
    }
    let (c, l) = lit(256);
    w.code(c, l);
}

pub fn fixed_block(w: &mut BitWriter, syms: &[Sym], last: bool) {
    w.bits(u32::from(last), 1);
    w.bits(1, 2);
    write_syms(w, syms, &fixed_lit, &|d| (d as u32, 5));
}

/// Huffman code lengths for `freq` limited to `max_len` (falls back to a flat complete
/// code when the plain Huffman tree is too deep; tests never need optimality).
fn code_lengths(freq: &[u32], max_len: u32) -> Vec<u32> {
    let mut freq = freq.to_vec();
    // At least two used symbols, so the code is complete.
    let mut used = freq.iter().filter(|&&f| f > 0).count();
    for f in freq.iter_mut() {
        if used >= 2 {
            break;
        }
        if *f == 0 {
            *f = 1;
            used += 1;
        }
    }
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut parent: Vec<usize> = Vec::new();
    for (i, &f) in freq.iter().enumerate() {
        if f > 0 {
            heap.push(Reverse((u64::from(f), i)));
        }
    }
    let n = freq.len();
    parent.resize(n, usize::MAX);
    while heap.len() > 1 {
        let Reverse((fa, a)) = heap.pop().unwrap();
        let Reverse((fb, b)) = heap.pop().unwrap();
        let node = parent.len();
        parent.push(usize::MAX);
        parent[a] = node;
        parent[b] = node;
        heap.push(Reverse((fa + fb, node)));
    }
    let mut lens: Vec<u32> = (0..n)
        .map(|i| {
            if freq[i] == 0 {
                return 0;
            }
            let (mut d, mut j) = (0, i);
            while parent[j] != usize::MAX {
                j = parent[j];
                d += 1;
            }
            d
        })
        .collect();
    if lens.iter().any(|&l| l > max_len) {
        // Flat complete code over the used symbols: k of length L-1 and the rest length L.
        let used: Vec<usize> = (0..n).filter(|&i| freq[i] > 0).collect();
        let l = (used.len() as f64).log2().ceil() as u32;
        let short = (1usize << l) - used.len();
        for (k, &i) in used.iter().enumerate() {
            lens[i] = if k < short { l - 1 } else { l };
        }
    }
    lens
}

/// Canonical codes from lengths (RFC 1951 §3.2.2).
fn canonical(lens: &[u32]) -> Vec<u32> {
    let mut bl_count = [0u32; 16];
    for &l in lens {
        bl_count[l as usize] += 1;
    }
    bl_count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + bl_count[bits - 1]) << 1;
        next[bits] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                0
            } else {
                let c = next[l as usize];
                next[l as usize] += 1;
                c
            }
        })
        .collect()
}

/// Run-length codes the concatenated code lengths with symbols 0–18 (16 = repeat previous
/// 3–6, 17 = zeros 3–10, 18 = zeros 11–138).
fn rle_lengths(lens: &[u32]) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lens.len() {
        let v = lens[i];
        let mut run = 1;
        while i + run < lens.len() && lens[i + run] == v {
            run += 1;
        }
        let mut left = run;
        if v == 0 {
            while left >= 11 {
                let k = left.min(138);
                out.push((18, (k - 11) as u32, 7));
                left -= k;
            }
            if left >= 3 {
                out.push((17, (left - 3) as u32, 3));
                left = 0;
            }
        } else {
            out.push((v, 0, 0));
            left -= 1;
            while left >= 3 {
                let k = left.min(6);
                out.push((16, (k - 3) as u32, 2));
                left -= k;
            }
        }
        for _ in 0..left {
            out.push((v, 0, 0));
        }
        i += run;
    }
    out
}

pub fn dynamic_block(w: &mut BitWriter, syms: &[Sym], last: bool) {
    let mut lit_freq = vec![0u32; 286];
    let mut dist_freq = vec![0u32; 30];
    for s in syms {
        match *s {
            Sym::Lit(b) => lit_freq[usize::from(b)] += 1,
            Sym::Copy { len, dist } => {
                lit_freq[len_code(len).0] += 1;
                dist_freq[dist_code(dist).0] += 1;
            }
        }
    }
    lit_freq[256] += 1;
    let lit_lens = code_lengths(&lit_freq, 15);
    let dist_lens = code_lengths(&dist_freq, 15);
    let hlit = 257.max(lit_lens.iter().rposition(|&l| l > 0).unwrap() + 1);
    let hdist = 1.max(dist_lens.iter().rposition(|&l| l > 0).unwrap() + 1);
    let all: Vec<u32> = lit_lens[..hlit].iter().chain(&dist_lens[..hdist]).copied().collect();
    let rle = rle_lengths(&all);
    let mut cl_freq = vec![0u32; 19];
    for &(s, _, _) in &rle {
        cl_freq[s as usize] += 1;
    }
    let cl_lens = code_lengths(&cl_freq, 7);
    let cl_codes = canonical(&cl_lens);
    const ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
    let hclen = 4.max(ORDER.iter().rposition(|&s| cl_lens[s] > 0).unwrap() + 1);

    w.bits(u32::from(last), 1);
    w.bits(2, 2);
    w.bits((hlit - 257) as u32, 5);
    w.bits((hdist - 1) as u32, 5);
    w.bits((hclen - 4) as u32, 4);
    for &s in &ORDER[..hclen] {
        w.bits(cl_lens[s], 3);
    }
    for &(s, extra, n) in &rle {
        w.code(cl_codes[s as usize], cl_lens[s as usize]);
        w.bits(extra, n);
    }
    let lit_codes = canonical(&lit_lens);
    let dist_codes = canonical(&dist_lens);
    write_syms(w, syms, &|s| (lit_codes[s], lit_lens[s]), &|d| (dist_codes[d], dist_lens[d]));
}

/// Wraps raw Deflate data in the zlib header and the Adler-32 of `data`.
pub fn zlib_wrap(deflate: &[u8], data: &[u8]) -> Vec<u8> {
    let mut v = default_header().to_vec();
    v.extend_from_slice(deflate);
    v.extend_from_slice(&adler32(data).to_be_bytes());
    v
}
