//! Bit-exact parsing of any 128-bit value into BC7 fields, and back.
//!
//! Every mode's fields cover all 128 bits, and a value whose first byte is 0 has no mode
//! (reserved) and keeps its 120 remaining bits verbatim, so `pack(parse(b)) == b` for every
//! 16-byte input, valid or not.

use super::tables::{ANCHOR2, ANCHOR3_1, ANCHOR3_2, PARTITION2, PARTITION3};

/// Layout of one BC7 mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::codec::bcpack) struct ModeInfo {
    /// Subsets (1..3); endpoints = 2 × subsets.
    pub subsets: usize,
    pub partition_bits: u32,
    pub rotation_bits: u32,
    pub index_select_bits: u32,
    pub colour_bits: u32,
    pub alpha_bits: u32,
    /// One p-bit per endpoint.
    pub endpoint_pbits: bool,
    /// One p-bit per subset, shared by its two endpoints.
    pub shared_pbits: bool,
    pub index_bits: u32,
    pub index2_bits: u32,
}

/// The eight BC7 modes (BPTC specification, table "Mode descriptions").
pub(in crate::codec::bcpack) const MODES: [ModeInfo; 8] = [
    ModeInfo {
        subsets: 3,
        partition_bits: 4,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 4,
        alpha_bits: 0,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 3,
        index2_bits: 0,
    },
    ModeInfo {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 6,
        alpha_bits: 0,
        endpoint_pbits: false,
        shared_pbits: true,
        index_bits: 3,
        index2_bits: 0,
    },
    ModeInfo {
        subsets: 3,
        partition_bits: 6,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 5,
        alpha_bits: 0,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        index2_bits: 0,
    },
    ModeInfo {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 7,
        alpha_bits: 0,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 2,
        index2_bits: 0,
    },
    ModeInfo {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 2,
        index_select_bits: 1,
        colour_bits: 5,
        alpha_bits: 6,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        index2_bits: 3,
    },
    ModeInfo {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 2,
        index_select_bits: 0,
        colour_bits: 7,
        alpha_bits: 8,
        endpoint_pbits: false,
        shared_pbits: false,
        index_bits: 2,
        index2_bits: 2,
    },
    ModeInfo {
        subsets: 1,
        partition_bits: 0,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 7,
        alpha_bits: 7,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 4,
        index2_bits: 0,
    },
    ModeInfo {
        subsets: 2,
        partition_bits: 6,
        rotation_bits: 0,
        index_select_bits: 0,
        colour_bits: 5,
        alpha_bits: 5,
        endpoint_pbits: true,
        shared_pbits: false,
        index_bits: 2,
        index2_bits: 0,
    },
];

/// Mode value of a block with no mode bit in its first byte.
pub(in crate::codec::bcpack) const RESERVED: usize = 8;

impl ModeInfo {
    pub fn endpoints(&self) -> usize {
        2 * self.subsets
    }
    pub fn channels(&self) -> usize {
        if self.alpha_bits > 0 {
            4
        } else {
            3
        }
    }
    pub fn channel_bits(&self, ch: usize) -> u32 {
        if ch == 3 {
            self.alpha_bits
        } else {
            self.colour_bits
        }
    }
    pub fn pbit_count(&self) -> usize {
        if self.endpoint_pbits {
            self.endpoints()
        } else if self.shared_pbits {
            self.subsets
        } else {
            0
        }
    }
    /// The p-bit that extends endpoint `k`, as an index into `Fields::pbits`.
    pub fn pbit_of(&self, k: usize) -> Option<usize> {
        if self.endpoint_pbits {
            Some(k)
        } else if self.shared_pbits {
            Some(k / 2)
        } else {
            None
        }
    }
}

/// Subset of each texel (2 bits per texel) for a mode and partition.
pub(in crate::codec::bcpack) fn subset_map(info: &ModeInfo, partition: usize) -> u32 {
    match info.subsets {
        2 => PARTITION2[partition & 63],
        3 => PARTITION3[partition & 63],
        _ => 0,
    }
}

/// Bit mask of the texels whose primary index is one bit short (the subsets' anchors).
pub(in crate::codec::bcpack) fn anchor_mask(info: &ModeInfo, partition: usize) -> u16 {
    let p = partition & 63;
    match info.subsets {
        2 => 1 | (1 << ANCHOR2[p]),
        3 => 1 | (1 << ANCHOR3_1[p]) | (1 << ANCHOR3_2[p]),
        _ => 1,
    }
}

/// The fields of one BC7 block. Endpoint values exclude their p-bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(in crate::codec::bcpack) struct Fields {
    /// 0..=7, or [`RESERVED`].
    pub mode: usize,
    pub partition: u32,
    pub rotation: u32,
    pub index_select: u32,
    /// `[endpoint][channel]`, endpoint = 2 × subset + (0 | 1), channels R, G, B, A.
    pub ep: [[u32; 4]; 6],
    pub pbits: [u32; 6],
    pub idx: [u32; 16],
    pub idx2: [u32; 16],
    /// Bits 8..128 of a reserved block.
    pub reserved: u128,
}

struct Reader(u128, u32);

impl Reader {
    fn take(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let v = (self.0 >> self.1) as u32 & ((1u32 << n) - 1);
        self.1 += n;
        v
    }
}

struct Writer(u128, u32);

impl Writer {
    fn put64(&mut self, n: u32, v: u64) {
        if n == 0 {
            return;
        }
        self.0 |= u128::from(v) << self.1;
        self.1 += n;
    }

    fn put(&mut self, n: u32, v: u32) {
        if n == 0 {
            return;
        }
        self.0 |= u128::from(v & ((1u32 << n) - 1)) << self.1;
        self.1 += n;
    }
}

pub(in crate::codec::bcpack) fn parse(block: &[u8]) -> Fields {
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&block[..16]);
    let v = u128::from_le_bytes(bytes);
    let mut f = Fields::default();
    if bytes[0] == 0 {
        f.mode = RESERVED;
        f.reserved = v >> 8;
        return f;
    }
    f.mode = bytes[0].trailing_zeros() as usize;
    let info = &MODES[f.mode];
    let mut r = Reader(v, f.mode as u32 + 1);
    f.partition = r.take(info.partition_bits);
    f.rotation = r.take(info.rotation_bits);
    f.index_select = r.take(info.index_select_bits);
    for ch in 0..info.channels() {
        for k in 0..info.endpoints() {
            f.ep[k][ch] = r.take(info.channel_bits(ch));
        }
    }
    for p in 0..info.pbit_count() {
        f.pbits[p] = r.take(1);
    }
    let anchors = anchor_mask(info, f.partition as usize);
    for t in 0..16 {
        f.idx[t] = r.take(info.index_bits - u32::from((anchors >> t) & 1));
    }
    if info.index2_bits > 0 {
        for t in 0..16 {
            f.idx2[t] = r.take(info.index2_bits - u32::from(t == 0));
        }
    }
    debug_assert_eq!(r.1, 128);
    f
}

pub(in crate::codec::bcpack) fn pack(f: &Fields, block: &mut [u8]) {
    let v = if f.mode >= RESERVED {
        f.reserved << 8
    } else {
        let info = &MODES[f.mode];
        let mut w = Writer(0, 0);
        w.put(f.mode as u32 + 1, 1 << f.mode);
        w.put(info.partition_bits, f.partition);
        w.put(info.rotation_bits, f.rotation);
        w.put(info.index_select_bits, f.index_select);
        // Runs of fields are gathered in a u64 first (at most 48 endpoint bits per channel,
        // 63 index bits per set), so the u128 is touched once per run, not once per field.
        for ch in 0..info.channels() {
            let b = info.channel_bits(ch);
            let (run, n) = gather(f.ep[..info.endpoints()].iter().map(|e| (b, e[ch])));
            w.put64(n, run);
        }
        let (run, n) = gather(f.pbits[..info.pbit_count()].iter().map(|&p| (1, p)));
        w.put64(n, run);
        let anchors = anchor_mask(info, f.partition as usize);
        let (run, n) = index_run(&f.idx, info.index_bits, anchors);
        w.put64(n, run);
        if info.index2_bits > 0 {
            let (run, n) = index_run(&f.idx2, info.index2_bits, 1);
            w.put64(n, run);
        }
        w.0
    };
    block[..16].copy_from_slice(&v.to_le_bytes());
}

/// An index set as stored: 16 indices of `bits` bits (at most 64 in all), then the most
/// significant bit of each anchor texel (bit *t* of `anchors`) removed, highest texel first
/// so the lower positions do not move.
#[inline(always)]
fn index_run(idx: &[u32; 16], bits: u32, anchors: u16) -> (u64, u32) {
    let mask = (1u64 << bits) - 1;
    let mut run = 0u64;
    for (t, &v) in idx.iter().enumerate() {
        run |= (u64::from(v) & mask) << (t as u32 * bits);
    }
    let mut rest = anchors;
    while rest != 0 {
        let t = 15 - rest.leading_zeros();
        rest &= !(1 << t);
        let at = t * bits + bits - 1;
        let below = (1u64 << at) - 1;
        run = (run & below) | ((run >> 1) & !below);
    }
    (run, 16 * bits - anchors.count_ones())
}

/// Concatenates `(bits, value)` fields LSB first into one word (at most 64 bits in all).
#[inline(always)]
fn gather(fields: impl Iterator<Item = (u32, u32)>) -> (u64, u32) {
    let (mut run, mut n) = (0u64, 0u32);
    for (bits, v) in fields {
        run |= (u64::from(v) & ((1u64 << bits) - 1)) << n;
        n += bits;
    }
    (run, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_mode_layout_covers_128_bits() {
        for (m, info) in MODES.iter().enumerate() {
            let endpoint_bits: u32 =
                (0..info.channels()).map(|c| info.channel_bits(c)).sum::<u32>() * info.endpoints() as u32;
            let index_bits = 16 * info.index_bits - info.subsets as u32
                + if info.index2_bits > 0 { 16 * info.index2_bits - 1 } else { 0 };
            let total = m as u32
                + 1
                + info.partition_bits
                + info.rotation_bits
                + info.index_select_bits
                + endpoint_bits
                + info.pbit_count() as u32
                + index_bits;
            assert_eq!(total, 128, "mode {m}");
        }
    }

    #[test]
    fn anchors_lie_in_their_subsets() {
        for p in 0..64 {
            for info in [&MODES[1], &MODES[0]] {
                let map = subset_map(info, p);
                let mask = anchor_mask(info, p);
                let mut seen = [false; 3];
                for t in 0..16 {
                    if mask >> t & 1 == 1 {
                        let s = (map >> (2 * t)) & 3;
                        assert!(!seen[s as usize], "partition {p}: two anchors in subset {s}");
                        seen[s as usize] = true;
                    }
                }
                assert_eq!(seen.iter().filter(|&&s| s).count(), info.subsets, "partition {p}");
                assert_eq!(map & 3, 0, "texel 0 is in subset 0");
            }
        }
    }

    proptest! {
        #[test]
        fn parse_then_pack_is_identity(bytes in proptest::array::uniform16(any::<u8>()), mode in 0u8..9) {
            let mut b = bytes;
            // Force each mode (and the reserved first byte) to be exercised evenly.
            b[0] = if mode == 8 { 0 } else { b[0].checked_shl(u32::from(mode) + 1).unwrap_or(0) | (1 << mode) };
            let f = parse(&b);
            prop_assert_eq!(f.mode, usize::from(mode));
            let mut out = [0u8; 16];
            pack(&f, &mut out);
            prop_assert_eq!(out, b);
        }
    }
}
