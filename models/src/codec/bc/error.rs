//! The one error type of the BC codec module. Messages name what was expected and what was
//! found, so a caller can fix the input without reading this code.

use crate::texture::BcFormat;

/// An input to the BC codec does not have the size, shape or setting it must have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BcError {
    /// A surface dimension is 0 or above [`MAX_DIMENSION`](crate::texture::MAX_DIMENSION).
    #[error("surface {axis} {value} is out of range; expected 1..={max} texels")]
    Dimension {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The dimension given, texels.
        value: u32,
        /// The largest dimension accepted, texels.
        max: u32,
    },

    /// One block's bytes are not the format's block size.
    #[error("{format:?} block is {found} B; expected {expected} B")]
    BlockLength {
        /// The block's format.
        format: BcFormat,
        /// The format's block size, bytes (8 or 16).
        expected: usize,
        /// Bytes given.
        found: usize,
    },

    /// A block-compressed surface's bytes do not match its texel size.
    #[error(
        "{format:?} surface {width}x{height} is {blocks_x}x{blocks_y} blocks = {expected} B; \
         found {found} B"
    )]
    SurfaceLength {
        /// The surface's format.
        format: BcFormat,
        /// Surface width, texels.
        width: u32,
        /// Surface height, texels.
        height: u32,
        /// Blocks across: `width` / 4 rounded up.
        blocks_x: u32,
        /// Blocks down: `height` / 4 rounded up.
        blocks_y: u32,
        /// Bytes of `blocks_x × blocks_y` blocks.
        expected: u64,
        /// Bytes given.
        found: u64,
    },

    /// An RGBA8 image's bytes do not match `width * height * 4`.
    #[error("RGBA8 image {width}x{height} is {expected} B; found {found} B")]
    ImageLength {
        /// Image width, texels.
        width: u32,
        /// Image height, texels.
        height: u32,
        /// `width × height × 4` bytes.
        expected: u64,
        /// Bytes given.
        found: u64,
    },

    /// The encoder has no path for this format (BC6H needs half-float input, which sfsim's
    /// RGBA8 pipeline never has).
    #[error("encoding {format:?} is not supported; expected BC1, BC2, BC3, BC4, BC5 or BC7")]
    EncodeUnsupported {
        /// The format asked for (BC6H).
        format: BcFormat,
    },

    /// A BC7 mode mask the encoder cannot search exactly.
    #[error("BC7 mode mask {mask:#04x} cannot be encoded: {reason}")]
    Bc7ModeMask {
        /// The mask given: bit `m` enables BC7 mode `m`.
        mask: u8,
        /// Why the encoder cannot honour it.
        reason: &'static str,
    },

    /// Two images compared by a quality metric differ in size.
    #[error("images differ in size: {a} B vs {b} B; expected equal RGBA8 images")]
    MetricLength {
        /// Bytes of the first image.
        a: usize,
        /// Bytes of the second image.
        b: usize,
    },

    /// A quality metric was asked for an empty image or a length that is not whole RGBA8 texels.
    #[error("image is {len} B; expected a non-empty multiple of 4 B (RGBA8)")]
    MetricImage {
        /// Bytes given.
        len: usize,
    },

    /// A quality metric was asked for a channel count outside 1..=4.
    #[error("channel count {channels} is out of range; expected 1..=4 (R, RG, RGB, RGBA)")]
    MetricChannels {
        /// The channel count asked for.
        channels: usize,
    },

    /// Reassembling a surface from tiles got the wrong number of tiles.
    #[error("{format:?} surface {width}x{height} is {tiles_x}x{tiles_y} tiles = {expected}; found {found} tiles")]
    TileCount {
        /// The surface's format (sets the tile shape).
        format: BcFormat,
        /// Surface width, texels.
        width: u32,
        /// Surface height, texels.
        height: u32,
        /// 64 KiB tiles across.
        tiles_x: u32,
        /// 64 KiB tiles down.
        tiles_y: u32,
        /// `tiles_x × tiles_y`.
        expected: usize,
        /// Tiles given.
        found: usize,
    },

    /// One tile is not exactly 64 KiB.
    #[error("tile {index} is {found} B; expected {expected} B")]
    TileLength {
        /// The tile's position in the list given.
        index: usize,
        /// 65 536 bytes.
        expected: usize,
        /// Bytes of that tile.
        found: usize,
    },
}
