//! One region, compressed the three ways XBTC tries — Deflate only, BCPack only, BCPack then
//! Deflate — keeping the smallest, or the raw bytes when nothing shrinks (SPEC §3); with
//! `--shuffle` ([`ShuffleChoice`]) the Deflate-only candidate may be taken over the format's
//! BC field shuffle instead.
//!
//! A candidate only counts when it is strictly smaller than its input, because the MDU
//! refuses a zlib stream that does not shrink and a BCPack unit is only worth a stage when it
//! does. Ties go to the candidate with fewer stages (raw, then Deflate, then shuffled
//! Deflate, then BCPack, then both): the same bytes, less MDU work.
//!
//! **Which compositions with a shuffle are valid.** The MDU runs zlib → BCPack → swizzle, so a
//! shuffled stream's BCPack stage would have to encode the shuffled *planes* as if they were
//! blocks. That decodes exactly (sfsim's BCPack is lossless on any bytes), but BCPack's
//! models predict endpoints from neighbouring blocks and split fields into streams
//! themselves; fed planes they lose both (measured on the Khronos diffuse (BC1) and normal
//! (BC5) at 512²: 30 % and 32 % larger than BCPack on the blocks). So the packer shuffles
//! **only Deflate-only streams**; BCPack candidates always see the blocks, and a raw stream
//! is never shuffled (same size, one stage more). The reader accepts any composition the MDU
//! decodes; it only requires the shuffle to be the format's own.

use super::error::PackError;
use sfsim_models::codec::bcpack::{self, BcpackMode, Method};
use sfsim_models::codec::swizzle;
use sfsim_models::codec::zlib::{deflate, Encoder};
use sfsim_models::nvme::{RequestOptions, SwizzleMode};
use sfsim_models::texture::BcFormat;
use std::fmt;
use std::str::FromStr;

/// `--shuffle`: whether Deflate-only streams are stored as the format's BC field shuffle
/// (`SwizzleMode::Bc1Shuffle` … `Bc5Shuffle`, undone by the MDU's swizzle stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ShuffleChoice {
    /// Never shuffle (what XBTC does; swizzle mode 0 everywhere).
    #[default]
    Off,
    /// The Deflate-only candidate is the shuffled one (BCPack candidates unchanged). An
    /// error for a format without a shuffle (BC7).
    On,
    /// Per region, both the plain and the shuffled Deflate candidate are tried and the
    /// smallest of all candidates kept; never larger than `Off`. A format without a shuffle
    /// packs as `Off`.
    Auto,
}

impl ShuffleChoice {
    /// The values `--shuffle` takes, for messages.
    pub const EXPECTED: &'static str = "off, on or auto";

    pub fn name(self) -> &'static str {
        match self {
            ShuffleChoice::Off => "off",
            ShuffleChoice::On => "on",
            ShuffleChoice::Auto => "auto",
        }
    }

    /// The swizzle mode the shuffled candidate uses for `format`: `None` for `Off`, or for
    /// `Auto` on a format without a shuffle; an error for `On` on one.
    pub fn mode(self, format: BcFormat) -> Result<Option<SwizzleMode>, PackError> {
        match (self, shuffle_mode(format)) {
            (ShuffleChoice::Off, _) | (ShuffleChoice::Auto, None) => Ok(None),
            (_, Some(mode)) => Ok(Some(mode)),
            (ShuffleChoice::On, None) => Err(PackError::Shuffle { format }),
        }
    }
}

impl fmt::Display for ShuffleChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ShuffleChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "off" => ShuffleChoice::Off,
            "on" => ShuffleChoice::On,
            "auto" => ShuffleChoice::Auto,
            _ => return Err(format!("`{s}` is not a shuffle choice; expected {}", ShuffleChoice::EXPECTED)),
        })
    }
}

/// The BC field shuffle of `format` (BC1/3/4/5), or `None` (BC7 and the rest have none).
pub fn shuffle_mode(format: BcFormat) -> Option<SwizzleMode> {
    match format {
        BcFormat::Bc1 => Some(SwizzleMode::Bc1Shuffle),
        BcFormat::Bc3 => Some(SwizzleMode::Bc3Shuffle),
        BcFormat::Bc4 => Some(SwizzleMode::Bc4Shuffle),
        BcFormat::Bc5 => Some(SwizzleMode::Bc5Shuffle),
        _ => None,
    }
}

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

/// Compresses region `index` (`data`, whole `format` blocks) every way `shuffle` allows —
/// with the BCPack candidates unless `bcpack` is false (a Deflate-only pipeline) — and
/// keeps the smallest. `row_blocks` is the neighbour geometry BCPack predicts with.
pub fn compress(
    index: usize,
    format: BcFormat,
    data: &[u8],
    row_blocks: u32,
    encoder: Encoder,
    shuffle: ShuffleChoice,
    bcpack: bool,
) -> Result<Compressed, PackError> {
    let mode = BcpackMode::from_format(format);
    let shuffled = shuffle.mode(format)?;
    let mut best =
        Compressed { bytes: data.to_vec(), options: RequestOptions::default(), inflated_size: data.len() as u64 };
    let mut keep = |bytes: Vec<u8>, options: RequestOptions, inflated: usize| {
        if bytes.len() < best.bytes.len() {
            best = Compressed { bytes, options, inflated_size: inflated as u64 };
        }
    };
    let deflate_only = RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 };
    if shuffle != ShuffleChoice::On {
        let deflated = deflate(data, encoder);
        if deflated.len() < data.len() {
            keep(deflated, deflate_only, data.len());
        }
    }
    if let Some(swizzle_mode) = shuffled {
        let planes = swizzle::unapply(swizzle_mode, format.block_bytes(), data)
            .map_err(|source| PackError::Swizzle { index, bytes: data.len() as u64, source })?;
        let deflated = deflate(&planes, encoder);
        if deflated.len() < data.len() {
            keep(deflated, RequestOptions { swizzle_mode: swizzle_mode as u32, ..deflate_only }, data.len());
        }
    }
    if !bcpack {
        return Ok(best);
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
        let bcpack_only = RequestOptions { zlib: false, bcpack_mode: mode as u32, swizzle_mode: 0 };
        keep(packed, bcpack_only, packed_len);
        if both.len() < packed_len {
            keep(both, RequestOptions { zlib: true, ..bcpack_only }, packed_len);
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
        let c = compress(0, BcFormat::Bc1, &noise, 128, Encoder::LIBDEFLATE_BEST, ShuffleChoice::Off, true).unwrap();
        assert_eq!(CodecPath::of(c.options), CodecPath::Raw);
        assert_eq!(c.bytes, noise);

        let blocks: Vec<u8> = (0..8192u32)
            .flat_map(|i| {
                let e = (i / 64) as u8;
                [e, 0x84, e.wrapping_add(9), 0x10, (i as u8) & 0x55, 0xAA, 0x0F, (i >> 5) as u8]
            })
            .collect();
        for data in [vec![0u8; 65_536], blocks] {
            let c = compress(0, BcFormat::Bc1, &data, 128, Encoder::LIBDEFLATE_BEST, ShuffleChoice::Off, true).unwrap();
            assert_ne!(CodecPath::of(c.options), CodecPath::Raw);
            assert!(c.bytes.len() < data.len());
            assert_eq!(decode(&request(&c, BcFormat::Bc1, data.len()), &c.bytes).unwrap(), data);
            // Whatever was kept is no larger than Deflate alone.
            assert!(c.bytes.len() <= deflate(&data, Encoder::LIBDEFLATE_BEST).len());
            // Without BCPack (a Deflate-only pipeline) the stream is exactly Deflate's.
            let d =
                compress(0, BcFormat::Bc1, &data, 128, Encoder::LIBDEFLATE_BEST, ShuffleChoice::Off, false).unwrap();
            assert_eq!(CodecPath::of(d.options), CodecPath::Deflate);
            assert_eq!(d.bytes, deflate(&data, Encoder::LIBDEFLATE_BEST));
        }
    }
}
