//! sfsim's open BCPack stand-in: a lossless, BC-format-aware codec, one model per BC format.
//!
//! The real BCPack bitstream of the Xbox Series X|S MDU is not public. This module fills the
//! MDU's BCPack slot with sfsim's own codec, with the same contract: a per-format mode
//! (`BcpackMode` 1..=7 = BC1..BC5, BC6H, BC7), input = a unit of whole BC blocks (a 64 KiB
//! tile in practice), applied before Deflate when packing and after zlib in the MDU
//! (zlib → BCPack → swizzle).
//!
//! How it compresses (the full format is in `docs/bcpack.md`):
//! - each block is parsed into its fields (BC1: two RGB565 endpoints and 16 selectors; BC4:
//!   two 8-bit endpoints and 16 3-bit indices; BC7: mode, partition, rotation,
//!   index selection, per-channel endpoints, p-bits, indices), and fields go to separate
//!   streams with their own contexts;
//! - endpoints are predicted from the left/upper/upper-left blocks (tile order: row-major
//!   blocks, 128 blocks per row for 8-byte formats and 64 for 16-byte ones by default) and
//!   only the residual is coded;
//! - two entropy methods, both read by every decoder: [`Profile::Small`] (method 0, the
//!   default) codes everything with an adaptive binary range coder, indices in the context of
//!   the neighbouring texels' indices — smallest, but one adaptive decision per bit, so slow
//!   to decode; [`Profile::Fast`] (method 3; BC1, BC3, BC4, BC5, BC7) codes one multi-bit
//!   symbol per field group with static per-stream rANS tables sent in the stream (four
//!   interleaved states, tables as quantised log weights or exact frequencies) — several
//!   times faster to decode and 0.4–1.5 points of BC size larger, so not yet the default;
//! - a whole block equal to its left or upper neighbour costs a fraction of a bit;
//! - data that would not shrink is stored verbatim (method 1), so any byte content —
//!   including reserved BC7 mode bytes — round-trips bit-exactly.
//!
//! The decoder is shaped like a hardware stage: fixed-size context tables (or, for the fast
//! method, at most 16 KiB of lookup table per transmitted table), one row of per-block state
//! (the fast BC1 decoder: one kind byte per block), no allocation beyond the declared output
//! (which must equal the size the caller expects) and the input's own bytes, every length
//! checked, an Adler-32 of the output; corrupt, truncated or mismatched input is an error,
//! never a panic. The format version is [`FORMAT_VERSION`]; other versions are refused.
//!
//! ```
//! use sfsim_models::codec::bcpack::{decode, encode, BcpackMode};
//! let blocks = vec![0x5Au8; 8 * 256]; // 256 BC1 blocks
//! let packed = encode(BcpackMode::Bc1, &blocks).unwrap();
//! assert!(packed.len() < blocks.len());
//! assert_eq!(decode(&packed, blocks.len()).unwrap(), blocks);
//! ```

mod bc1;
mod bc4;
mod bc7;
mod driver;
mod error;
mod fast;
mod generic;
mod header;
mod range;
mod rans;
#[cfg(test)]
mod tests;

pub use error::BcpackError;
pub use header::{Header, Method, FORMAT_VERSION, MAX_ROW_BLOCKS};

use crate::texture::BcFormat;
use header::{adler32, MAX_STREAMS};

/// The `BcpackMode` request field: which BC format the unit holds (one decoder each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BcpackMode {
    /// BC1 (8-byte blocks: two RGB565 endpoints, 2-bit indices).
    Bc1 = 1,
    /// BC2 (16-byte blocks: explicit 4-bit alpha, then a BC1 colour block).
    Bc2 = 2,
    /// BC3 (16-byte blocks: a BC4 alpha block, then a BC1 colour block).
    Bc3 = 3,
    /// BC4 (8-byte blocks: one channel, two 8-bit endpoints, 3-bit indices).
    Bc4 = 4,
    /// BC5 (16-byte blocks: two BC4 channels).
    Bc5 = 5,
    /// BC6H (16-byte blocks, HDR, 14 modes).
    Bc6h = 6,
    /// BC7 (16-byte blocks, 8 modes).
    Bc7 = 7,
}

impl BcpackMode {
    /// Every mode, in request-value order.
    pub const ALL: [BcpackMode; 7] = [
        BcpackMode::Bc1,
        BcpackMode::Bc2,
        BcpackMode::Bc3,
        BcpackMode::Bc4,
        BcpackMode::Bc5,
        BcpackMode::Bc6h,
        BcpackMode::Bc7,
    ];

    /// The mode for a request's raw `BcpackMode` value (0, "none", is not a mode here).
    pub fn from_raw(raw: u32) -> Result<Self, BcpackError> {
        Ok(match raw {
            1 => BcpackMode::Bc1,
            2 => BcpackMode::Bc2,
            3 => BcpackMode::Bc3,
            4 => BcpackMode::Bc4,
            5 => BcpackMode::Bc5,
            6 => BcpackMode::Bc6h,
            7 => BcpackMode::Bc7,
            _ => return Err(BcpackError::BadMode { mode: raw }),
        })
    }

    /// The mode that holds blocks of `format` (every BC format has one).
    pub fn from_format(format: BcFormat) -> Self {
        match format {
            BcFormat::Bc1 => BcpackMode::Bc1,
            BcFormat::Bc2 => BcpackMode::Bc2,
            BcFormat::Bc3 => BcpackMode::Bc3,
            BcFormat::Bc4 => BcpackMode::Bc4,
            BcFormat::Bc5 => BcpackMode::Bc5,
            BcFormat::Bc6h => BcpackMode::Bc6h,
            BcFormat::Bc7 => BcpackMode::Bc7,
        }
    }

    /// The BC format this mode decodes.
    pub fn format(self) -> BcFormat {
        match self {
            BcpackMode::Bc1 => BcFormat::Bc1,
            BcpackMode::Bc2 => BcFormat::Bc2,
            BcpackMode::Bc3 => BcFormat::Bc3,
            BcpackMode::Bc4 => BcFormat::Bc4,
            BcpackMode::Bc5 => BcFormat::Bc5,
            BcpackMode::Bc6h => BcFormat::Bc6h,
            BcpackMode::Bc7 => BcFormat::Bc7,
        }
    }

    /// Bytes per 4×4 block of the mode's format: 8 (BC1, BC4) or 16.
    pub fn block_bytes(self) -> usize {
        self.format().block_bytes() as usize
    }

    /// Blocks per row of a 64 KiB tile: 128 for 8-byte formats (512 texels), 64 for 16-byte
    /// ones (256 texels). Neighbour prediction uses this unless told otherwise.
    pub fn default_row_blocks(self) -> u32 {
        if self.block_bytes() == 8 {
            128
        } else {
            64
        }
    }

    /// Streams of the fast method, or `None` for a mode without a fast model.
    fn fast_stream_count(self) -> Option<usize> {
        fast::stream_count(self)
    }

    fn stream_count(self) -> usize {
        match self {
            BcpackMode::Bc1 => <bc1::Bc1 as driver::Model>::STREAMS,
            BcpackMode::Bc2 => <generic::Bc2 as driver::Model>::STREAMS,
            BcpackMode::Bc3 => <bc4::Bc3 as driver::Model>::STREAMS,
            BcpackMode::Bc4 => <bc4::Bc4 as driver::Model>::STREAMS,
            BcpackMode::Bc5 => <bc4::Bc5 as driver::Model>::STREAMS,
            BcpackMode::Bc6h => <generic::Bc6h as driver::Model>::STREAMS,
            BcpackMode::Bc7 => <bc7::Bc7 as driver::Model>::STREAMS,
        }
    }
}

/// Which trade-off the encoder makes between packed size and decode speed. Every decoder
/// reads every method, so the profile only matters when packing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// Adaptive binary range coding (method 0), the default: the smallest output, slow to
    /// decode (17–30 MB/s).
    #[default]
    Small,
    /// Static rANS tables (method 3): decodes several times faster than [`Profile::Small`],
    /// 0.4–1.5 points of BC size larger (docs/bcpack.md §6). BC2 and BC6H have no fast
    /// model and are packed as with [`Profile::Small`].
    Fast,
}

/// Largest unit one BCPack stream may hold (the block count is a u32 in the header).
const MAX_BLOCKS: u64 = u32::MAX as u64;

/// Packs `blocks` (any whole number of `mode`'s blocks, any byte content) with the tile's
/// default row width. Picks the stored method when modelling would not shrink the data.
pub fn encode(mode: BcpackMode, blocks: &[u8]) -> Result<Vec<u8>, BcpackError> {
    encode_with_row(mode, blocks, mode.default_row_blocks())
}

/// [`encode`] with an explicit row width (blocks per row) for neighbour prediction, for
/// units whose blocks are not laid out as a standard 64 KiB tile.
pub fn encode_with_row(mode: BcpackMode, blocks: &[u8], row_blocks: u32) -> Result<Vec<u8>, BcpackError> {
    encode_impl(mode, blocks, row_blocks, Profile::default(), true)
}

/// [`encode_with_row`] with an explicit [`Profile`].
pub fn encode_with(mode: BcpackMode, blocks: &[u8], row_blocks: u32, profile: Profile) -> Result<Vec<u8>, BcpackError> {
    encode_impl(mode, blocks, row_blocks, profile, true)
}

/// `allow_stored = false` keeps the modelled streams even when they are larger (tests use
/// it to drive the models with data that does not compress).
fn encode_impl(
    mode: BcpackMode,
    blocks: &[u8],
    row_blocks: u32,
    profile: Profile,
    allow_stored: bool,
) -> Result<Vec<u8>, BcpackError> {
    let bb = mode.block_bytes();
    if !blocks.len().is_multiple_of(bb) {
        return Err(BcpackError::NotWholeBlocks { len: blocks.len(), block_bytes: bb });
    }
    let count = blocks.len() / bb;
    if count as u64 > MAX_BLOCKS {
        return Err(BcpackError::TooManyBlocks { blocks: count, max: MAX_BLOCKS });
    }
    if row_blocks == 0 || row_blocks > MAX_ROW_BLOCKS {
        return Err(BcpackError::BadRowWidth { row_blocks });
    }
    let row = row_blocks as usize;
    let fast = match profile {
        Profile::Fast => fast::encode(mode, blocks, row),
        Profile::Small => None,
    };
    let (method, streams) = match fast {
        Some(streams) => (Method::Fast, streams),
        None => (Method::Modelled, modelled_streams(mode, blocks, row)),
    };
    let modelled: usize = streams.iter().map(Vec::len).sum();
    let (method, streams) = if modelled < blocks.len() || !allow_stored {
        (method, streams)
    } else {
        (Method::Stored, vec![blocks.to_vec()])
    };
    let mut stream_lens = [0u32; MAX_STREAMS];
    for (slot, s) in stream_lens.iter_mut().zip(&streams) {
        // A stream is never longer than the u32-counted input plus a few bytes.
        *slot = u32::try_from(s.len()).unwrap_or(u32::MAX);
    }
    let header = Header {
        mode,
        method,
        row_blocks,
        block_count: count as u32,
        checksum: adler32(blocks),
        stream_lens,
        streams: streams.len(),
    };
    let mut out = Vec::with_capacity(header.len() + streams.iter().map(Vec::len).sum::<usize>());
    header.write(&mut out);
    for s in &streams {
        out.extend_from_slice(s);
    }
    Ok(out)
}

fn modelled_streams(mode: BcpackMode, blocks: &[u8], row: usize) -> Vec<Vec<u8>> {
    match mode {
        BcpackMode::Bc1 => driver::encode_streams::<bc1::Bc1>(blocks, row),
        BcpackMode::Bc2 => driver::encode_streams::<generic::Bc2>(blocks, row),
        BcpackMode::Bc3 => driver::encode_streams::<bc4::Bc3>(blocks, row),
        BcpackMode::Bc4 => driver::encode_streams::<bc4::Bc4>(blocks, row),
        BcpackMode::Bc5 => driver::encode_streams::<bc4::Bc5>(blocks, row),
        BcpackMode::Bc6h => driver::encode_streams::<generic::Bc6h>(blocks, row),
        BcpackMode::Bc7 => driver::encode_streams::<bc7::Bc7>(blocks, row),
    }
}

/// Decodes a BCPack stream whose output must be exactly `expected_len` bytes (the size the
/// request declares). Allocates only after the header has been checked against it.
pub fn decode(src: &[u8], expected_len: usize) -> Result<Vec<u8>, BcpackError> {
    let header = Header::read(src)?;
    check_len(&header, expected_len)?;
    let mut out = vec![0u8; expected_len];
    decode_checked(&header, src, &mut out)?;
    Ok(out)
}

/// Decodes into `dst`, whose length is the expected output size. Returns the header (mode,
/// method, geometry) so the caller can check the mode against its request.
pub fn decode_into(src: &[u8], dst: &mut [u8]) -> Result<Header, BcpackError> {
    let header = Header::read(src)?;
    check_len(&header, dst.len())?;
    decode_checked(&header, src, dst)?;
    Ok(header)
}

fn check_len(header: &Header, expected: usize) -> Result<(), BcpackError> {
    let declared = header.output_bytes();
    if declared != expected as u64 {
        return Err(BcpackError::LengthMismatch {
            blocks: u64::from(header.block_count),
            block_bytes: header.mode.block_bytes(),
            declared,
            expected,
        });
    }
    Ok(())
}

fn decode_checked(header: &Header, src: &[u8], dst: &mut [u8]) -> Result<(), BcpackError> {
    let streams = header.stream_slices(src);
    let streams = &streams[..header.streams];
    let row = header.row_blocks as usize;
    match header.method {
        Method::Stored => {
            if streams[0].len() != dst.len() {
                return Err(BcpackError::StoredLength { stored: streams[0].len(), expected: dst.len() });
            }
            dst.copy_from_slice(streams[0]);
        }
        Method::Modelled => match header.mode {
            BcpackMode::Bc1 => driver::decode_streams::<bc1::Bc1>(streams, dst, row)?,
            BcpackMode::Bc2 => driver::decode_streams::<generic::Bc2>(streams, dst, row)?,
            BcpackMode::Bc3 => driver::decode_streams::<bc4::Bc3>(streams, dst, row)?,
            BcpackMode::Bc4 => driver::decode_streams::<bc4::Bc4>(streams, dst, row)?,
            BcpackMode::Bc5 => driver::decode_streams::<bc4::Bc5>(streams, dst, row)?,
            BcpackMode::Bc6h => driver::decode_streams::<generic::Bc6h>(streams, dst, row)?,
            BcpackMode::Bc7 => driver::decode_streams::<bc7::Bc7>(streams, dst, row)?,
        },
        Method::Fast => fast::decode(header.mode, streams, dst, row)?,
    }
    let found = adler32(dst);
    if found != header.checksum {
        return Err(BcpackError::Checksum { expected: header.checksum, found });
    }
    Ok(())
}
