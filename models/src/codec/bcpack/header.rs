//! The BCPack container header (format version 2) and the checksum it carries.
//!
//! ```text
//! offset  size  field
//! 0       1     version = 2 (version 1's method-2 rANS streams are not read)
//! 1       1     mode: 1..5 = BC1..BC5, 6 = BC6H, 7 = BC7
//! 2       1     method: 0 = modelled (range-coded streams), 1 = stored (blocks verbatim),
//!                       3 = fast (static rANS streams, four states, log-weight tables)
//! 3       1     stream count n (fixed by mode and method)
//! 4       2     row width in blocks, u16 LE, 1..=4096 (neighbour geometry)
//! 6       4     block count, u32 LE
//! 10      4     Adler-32 (RFC 1950) of the decoded blocks, u32 LE
//! 14      4n    stream lengths, u32 LE each; the streams follow back to back
//! ```

use super::error::BcpackError;
use super::BcpackMode;

/// The container format version this decoder reads (and the encoder writes).
pub const FORMAT_VERSION: u8 = 2;
pub(super) const HEADER_FIXED_BYTES: usize = 14;
/// Largest row width: a 16384-texel-wide surface is 4096 blocks. Bounds the decoder's
/// per-row state.
pub const MAX_ROW_BLOCKS: u32 = 4096;
/// Most streams any mode uses; bounds the stream table.
pub(super) const MAX_STREAMS: usize = 4;

/// How the payload after the header is coded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Fields split into range-coded streams with neighbour prediction.
    Modelled = 0,
    /// Blocks copied verbatim (chosen when modelling would not shrink the data).
    Stored = 1,
    /// The same field split, coded with static per-stream rANS tables: decodes many times
    /// faster than [`Method::Modelled`]. The default for every mode that has it.
    Fast = 3,
}

/// The decoded header of a BCPack stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The BC format of the blocks.
    pub mode: BcpackMode,
    /// How the payload after the header is coded.
    pub method: Method,
    /// Blocks per row of the tile the neighbours are taken from.
    pub row_blocks: u32,
    /// Blocks the stream decodes to.
    pub block_count: u32,
    /// Adler-32 of the decoded bytes.
    pub checksum: u32,
    pub(super) stream_lens: [u32; MAX_STREAMS],
    pub(super) streams: usize,
}

impl Header {
    /// Bytes the header occupies, stream table included.
    pub fn len(&self) -> usize {
        HEADER_FIXED_BYTES + 4 * self.streams
    }

    /// Always false: a header has at least its fixed part (satisfies clippy's len rule).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Byte length of each stream, in table order.
    pub fn stream_lens(&self) -> &[u32] {
        &self.stream_lens[..self.streams]
    }

    /// Bytes of decoded output the header declares.
    pub fn output_bytes(&self) -> u64 {
        u64::from(self.block_count) * self.mode.block_bytes() as u64
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.push(FORMAT_VERSION);
        out.push(self.mode as u8);
        out.push(self.method as u8);
        out.push(self.streams as u8);
        out.extend_from_slice(&(self.row_blocks as u16).to_le_bytes());
        out.extend_from_slice(&self.block_count.to_le_bytes());
        out.extend_from_slice(&self.checksum.to_le_bytes());
        for len in &self.stream_lens[..self.streams] {
            out.extend_from_slice(&len.to_le_bytes());
        }
    }

    /// Parses and validates the header at the start of `src`: version, mode, method,
    /// stream count for that mode, row width, and that the stream table covers exactly the
    /// bytes after the header.
    pub fn read(src: &[u8]) -> Result<Header, BcpackError> {
        if src.len() < HEADER_FIXED_BYTES {
            return Err(BcpackError::HeaderTruncated { len: src.len(), need: HEADER_FIXED_BYTES });
        }
        if src[0] != FORMAT_VERSION {
            return Err(BcpackError::UnsupportedVersion { found: src[0], expected: FORMAT_VERSION });
        }
        let mode = BcpackMode::from_raw(u32::from(src[1]))?;
        let method = match src[2] {
            0 => Method::Modelled,
            1 => Method::Stored,
            3 => Method::Fast,
            m => return Err(BcpackError::BadMethod { method: m }),
        };
        let expected = match method {
            Method::Modelled => mode.stream_count(),
            Method::Stored => 1,
            Method::Fast => mode.fast_stream_count().ok_or(BcpackError::BadMethod { method: src[2] })?,
        };
        let streams = usize::from(src[3]);
        if streams != expected {
            return Err(BcpackError::StreamCount { mode: src[1], method: src[2], expected, found: streams });
        }
        let row_blocks = u32::from(u16::from_le_bytes([src[4], src[5]]));
        if row_blocks == 0 || row_blocks > MAX_ROW_BLOCKS {
            return Err(BcpackError::BadRowWidth { row_blocks });
        }
        let word = |at: usize| u32::from_le_bytes([src[at], src[at + 1], src[at + 2], src[at + 3]]);
        let block_count = word(6);
        let checksum = word(10);
        let need = HEADER_FIXED_BYTES + 4 * streams;
        if src.len() < need {
            return Err(BcpackError::HeaderTruncated { len: src.len(), need });
        }
        let mut stream_lens = [0u32; MAX_STREAMS];
        let mut total = 0u64;
        for (i, len) in stream_lens.iter_mut().take(streams).enumerate() {
            *len = word(HEADER_FIXED_BYTES + 4 * i);
            total += u64::from(*len);
        }
        let available = src.len() - need;
        if total != available as u64 {
            return Err(BcpackError::StreamTableMismatch { declared: total, available });
        }
        Ok(Header { mode, method, row_blocks, block_count, checksum, stream_lens, streams })
    }

    /// The payload of each stream, in table order.
    pub(super) fn stream_slices<'a>(&self, src: &'a [u8]) -> [&'a [u8]; MAX_STREAMS] {
        let mut out: [&[u8]; MAX_STREAMS] = [&[]; MAX_STREAMS];
        let mut at = self.len();
        for (slot, &len) in out.iter_mut().zip(&self.stream_lens[..self.streams]) {
            let end = at + len as usize;
            *slot = &src[at..end];
            at = end;
        }
        out
    }
}

/// Adler-32 (RFC 1950 §8.2), processed in runs short enough that the sums cannot overflow.
pub(super) fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    const RUN: usize = 5_552;
    const LANES: usize = 16;
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(RUN) {
        // Per-lane sums (lane j = bytes at offsets ≡ j mod 16): `acc` the plain sum and
        // `tri` the sum of `acc` after every step, so a byte of step c (of C) enters `tri`
        // C − c times. Then, with n bytes, b gains n·a + 16·Σ tri − Σ j·acc_j — the per-byte
        // recurrence without its serial add chain, in independent lanes the compiler
        // vectorises (the checksum was 7 % of a fast BC1 decode with a 16-byte serial step).
        let mut groups = chunk.chunks_exact(LANES);
        let (mut acc, mut tri) = ([0u32; LANES], [0u32; LANES]);
        for g in &mut groups {
            for j in 0..LANES {
                acc[j] += u32::from(g[j]);
                tri[j] += acc[j];
            }
        }
        let n = (chunk.len() / LANES * LANES) as u64;
        let sum: u64 = acc.iter().map(|&v| u64::from(v)).sum();
        let weighted: u64 = acc.iter().enumerate().map(|(j, &v)| j as u64 * u64::from(v)).sum();
        let tri: u64 = tri.iter().map(|&v| u64::from(v)).sum();
        let m = u64::from(MOD);
        // 16·tri ≥ Σ j·acc_j, since every byte is counted at least once in tri.
        b = ((u64::from(b) + n % m * u64::from(a) + LANES as u64 * tri - weighted) % m) as u32;
        a = ((u64::from(a) + sum) % m) as u32;
        for &byte in groups.remainder() {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler32_matches_rfc1950_reference_values() {
        assert_eq!(adler32(b""), 1);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        let big: Vec<u8> = (0..100_003u32).map(|i| if i % 7 == 0 { 0x3C } else { 0xFF }).collect();
        // Straightforward per-byte modular reference.
        let (mut a, mut b) = (1u64, 0u64);
        for &x in &big {
            a = (a + u64::from(x)) % 65_521;
            b = (b + a) % 65_521;
        }
        assert_eq!(adler32(&big), ((b << 16) | a) as u32);
    }
}
