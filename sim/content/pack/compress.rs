//! One region, compressed the three ways XBTC tries — Deflate only, BCPack only, BCPack then
//! Deflate — keeping the smallest, or the raw bytes when nothing shrinks (SPEC §3).
//!
//! A candidate only counts when it is strictly smaller than its input, because the MDU
//! refuses a zlib stream that does not shrink and a BCPack unit is only worth a stage when it
//! does. Ties go to the candidate with fewer stages (raw, then Deflate, then BCPack, then
//! both): the same bytes, less MDU work.

use super::error::PackError;
use sfsim_models::codec::bcpack::{self, BcpackMode, Method};
use sfsim_models::codec::zlib::{deflate, Encoder};
use sfsim_models::nvme::RequestOptions;
use sfsim_models::texture::BcFormat;
use std::fmt;

/// Which stages a stream went through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CodecPath {
    Raw,
    Deflate,
    Bcpack,
    BcpackDeflate,
}

impl CodecPath {
    pub const ALL: [CodecPath; 4] = [CodecPath::Raw, CodecPath::Deflate, CodecPath::Bcpack, CodecPath::BcpackDeflate];

    pub fn of(options: RequestOptions) -> CodecPath {
        match (options.zlib, options.bcpack()) {
            (false, false) => CodecPath::Raw,
            (true, false) => CodecPath::Deflate,
            (false, true) => CodecPath::Bcpack,
            (true, true) => CodecPath::BcpackDeflate,
        }
    }

    /// The summary's key: `raw`, `deflate`, `bcpack`, `bcpack_deflate`.
    pub fn key(self) -> &'static str {
        match self {
            CodecPath::Raw => "raw",
            CodecPath::Deflate => "deflate",
            CodecPath::Bcpack => "bcpack",
            CodecPath::BcpackDeflate => "bcpack_deflate",
        }
    }
}

impl fmt::Display for CodecPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CodecPath::Raw => "raw",
            CodecPath::Deflate => "Deflate only",
            CodecPath::Bcpack => "BCPack only",
            CodecPath::BcpackDeflate => "BCPack+Deflate",
        })
    }
}

/// The kept candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compressed {
    pub bytes: Vec<u8>,
    pub options: RequestOptions,
    /// Bytes after the zlib stage (the input size when zlib is not applied).
    pub inflated_size: u64,
}

/// Compresses region `index` (`data`, whole `format` blocks) every way and keeps the smallest.
/// `row_blocks` is the neighbour geometry BCPack predicts with.
pub fn compress(
    index: usize,
    format: BcFormat,
    data: &[u8],
    row_blocks: u32,
    encoder: Encoder,
) -> Result<Compressed, PackError> {
    let mode = BcpackMode::from_format(format);
    let mut best =
        Compressed { bytes: data.to_vec(), options: RequestOptions::default(), inflated_size: data.len() as u64 };
    let mut keep = |bytes: Vec<u8>, zlib: bool, bcpack: bool, inflated: usize| {
        if bytes.len() < best.bytes.len() {
            let options = RequestOptions { zlib, bcpack_mode: if bcpack { mode as u32 } else { 0 }, swizzle_mode: 0 };
            best = Compressed { bytes, options, inflated_size: inflated as u64 };
        }
    };
    let deflated = deflate(data, encoder);
    if deflated.len() < data.len() {
        keep(deflated, true, false, data.len());
    }
    let packed = bcpack::encode_with_row(mode, data, row_blocks).map_err(|source| PackError::Bcpack {
        index,
        bytes: data.len() as u64,
        source,
    })?;
    let modelled = bcpack::Header::read(&packed).is_ok_and(|h| h.method == Method::Modelled);
    if modelled && packed.len() < data.len() {
        let both = deflate(&packed, encoder);
        let packed_len = packed.len();
        keep(packed, false, true, packed_len);
        if both.len() < packed_len {
            keep(both, true, true, packed_len);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::mdu::{decode, MduRequest};

    fn request(c: &Compressed, format: BcFormat, len: usize) -> MduRequest {
        let both = c.options.zlib && c.options.bcpack();
        MduRequest {
            options: c.options,
            intermediate_size: if both { c.inflated_size } else { 0 },
            destination_size: len as u64,
            block_bytes: format.block_bytes(),
        }
    }

    /// Noise does not shrink: kept raw. Zeros: Deflate alone wins or ties BCPack.
    /// Structured BC1 blocks: some stage applies. Every result decodes exactly.
    #[test]
    fn keeps_the_smallest_and_falls_back_to_raw() {
        let mut state = 0x1234_5678u32;
        let noise: Vec<u8> = (0..65_536)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state as u8
            })
            .collect();
        let c = compress(0, BcFormat::Bc1, &noise, 128, Encoder::LIBDEFLATE_BEST).unwrap();
        assert_eq!(CodecPath::of(c.options), CodecPath::Raw);
        assert_eq!(c.bytes, noise);

        let blocks: Vec<u8> = (0..8192u32)
            .flat_map(|i| {
                let e = (i / 64) as u8;
                [e, 0x84, e.wrapping_add(9), 0x10, (i as u8) & 0x55, 0xAA, 0x0F, (i >> 5) as u8]
            })
            .collect();
        for data in [vec![0u8; 65_536], blocks] {
            let c = compress(0, BcFormat::Bc1, &data, 128, Encoder::LIBDEFLATE_BEST).unwrap();
            assert_ne!(CodecPath::of(c.options), CodecPath::Raw);
            assert!(c.bytes.len() < data.len());
            assert_eq!(decode(&request(&c, BcFormat::Bc1, data.len()), &c.bytes).unwrap(), data);
            // Whatever was kept is no larger than Deflate alone.
            assert!(c.bytes.len() <= deflate(&data, Encoder::LIBDEFLATE_BEST).len());
        }
    }
}
