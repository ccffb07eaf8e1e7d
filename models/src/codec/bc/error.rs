//! The one error type of the BC codec module. Messages name what was expected and what was
//! found, so a caller can fix the input without reading this code.

use crate::texture::BcFormat;

/// An input to the BC codec does not have the size, shape or setting it must have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BcError {
    /// A surface dimension is 0 or above [`MAX_DIMENSION`](crate::texture::MAX_DIMENSION).
    #[error("surface {axis} {value} is out of range; expected 1..={max} texels")]
    Dimension { axis: &'static str, value: u32, max: u32 },

    /// One block's bytes are not the format's block size.
    #[error("{format:?} block is {found} B; expected {expected} B")]
    BlockLength { format: BcFormat, expected: usize, found: usize },

    /// A block-compressed surface's bytes do not match its texel size.
    #[error(
        "{format:?} surface {width}x{height} is {blocks_x}x{blocks_y} blocks = {expected} B; \
         found {found} B"
    )]
    SurfaceLength { format: BcFormat, width: u32, height: u32, blocks_x: u32, blocks_y: u32, expected: u64, found: u64 },

    /// An RGBA8 image's bytes do not match `width * height * 4`.
    #[error("RGBA8 image {width}x{height} is {expected} B; found {found} B")]
    ImageLength { width: u32, height: u32, expected: u64, found: u64 },

    /// The encoder has no path for this format (intel_tex_2 does not encode BC2; BC6H needs
    /// half-float input, which sfsim's RGBA8 pipeline never has).
    #[error("encoding {format:?} is not supported; expected BC1, BC3, BC4, BC5 or BC7")]
    EncodeUnsupported { format: BcFormat },

    /// A BC7 mode mask the encoder cannot search exactly.
    #[error("BC7 mode mask {mask:#04x} cannot be encoded: {reason}")]
    Bc7ModeMask { mask: u8, reason: &'static str },

    /// Two images compared by a quality metric differ in size.
    #[error("images differ in size: {a} B vs {b} B; expected equal RGBA8 images")]
    MetricLength { a: usize, b: usize },

    /// A quality metric was asked for an empty image or a length that is not whole RGBA8 texels.
    #[error("image is {len} B; expected a non-empty multiple of 4 B (RGBA8)")]
    MetricImage { len: usize },

    /// A quality metric was asked for a channel count outside 1..=4.
    #[error("channel count {channels} is out of range; expected 1..=4 (R, RG, RGB, RGBA)")]
    MetricChannels { channels: usize },

    /// Reassembling a surface from tiles got the wrong number of tiles.
    #[error("{format:?} surface {width}x{height} is {tiles_x}x{tiles_y} tiles = {expected}; found {found} tiles")]
    TileCount { format: BcFormat, width: u32, height: u32, tiles_x: u32, tiles_y: u32, expected: usize, found: usize },

    /// One tile is not exactly 64 KiB.
    #[error("tile {index} is {found} B; expected {expected} B")]
    TileLength { index: usize, expected: usize, found: usize },
}
