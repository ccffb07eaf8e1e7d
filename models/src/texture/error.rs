//! The one error type of the texture module. Every message names the offending value and the
//! range it had to be in, so a scenario author can fix the input without reading code.

/// An input to the texture model is outside its valid range.
///
/// `axis` fields are `"width"` or `"height"`; all sizes are in texels of mip 0 unless the
/// variant says otherwise.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TextureError {
    /// A mip-0 dimension is 0 or above [`MAX_DIMENSION`](super::MAX_DIMENSION).
    #[error("texture {axis} {value} is out of range; expected 1..={max} texels")]
    DimensionOutOfRange { axis: &'static str, value: u32, max: u32 },

    /// The requested mip count is 0 or longer than the full chain down to 1x1.
    #[error("mip_levels {value} is out of range; expected 1..={max} for a {width}x{height} texture")]
    MipLevelsOutOfRange { value: u32, max: u32, width: u32, height: u32 },

    /// A mip level index at or past the texture's mip count (checked accessors only).
    #[error("mip level {level} is out of range; expected 0..{mip_levels}")]
    MipOutOfRange { level: u32, mip_levels: u32 },

    /// A tile coordinate that is not one of the texture's standard (non-packed) tiles.
    #[error(
        "tile (mip {mip}, x {x}, y {y}) is not a standard tile; expected mip < {first_packed_mip}, \
         x < {tiles_x}, y < {tiles_y}"
    )]
    TileOutOfRange {
        mip: u32,
        x: u32,
        y: u32,
        /// Number of standard mips (tiles exist only below this level).
        first_packed_mip: u32,
        /// Tiles across / down in `mip` (0 when `mip` is packed or out of range).
        tiles_x: u32,
        tiles_y: u32,
    },

    /// A dense tile index at or past `standard_tile_count()`.
    #[error("tile index {index} is out of range; expected 0..{count}")]
    TileIndexOutOfRange { index: u32, count: u32 },

    /// A mip-region dimension that is not a power of two.
    #[error("mip region {axis} {value} is not a power of two; expected one of 4, 8, .., {max}")]
    MipRegionNotPowerOfTwo {
        axis: &'static str,
        value: u32,
        /// Largest valid value for this texture (half of mip 0's dimension, rounded down to a
        /// power of two).
        max: u32,
    },

    /// A power-of-two mip-region dimension below 4 or above half of mip 0's dimension.
    #[error(
        "mip region {axis} {value} is out of range; expected a power of two in 4..={max} \
         (at most half of the texture {axis} {texture})"
    )]
    MipRegionOutOfRange {
        axis: &'static str,
        value: u32,
        max: u32,
        /// Mip 0's dimension along `axis`, texels.
        texture: u32,
    },

    /// Mip 0 is too small along `axis` for any mip region (a region is >= 4 texels and at most
    /// half of the dimension, so the dimension must be >= 8).
    #[error(
        "texture {axis} {texture} is too small for a feedback map; expected a {axis} of 8..={max} \
         texels (a mip region is >= 4 and <= half of it)"
    )]
    FeedbackUnsupported { axis: &'static str, texture: u32, max: u32 },
}
