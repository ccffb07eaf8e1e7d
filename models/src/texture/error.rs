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
    DimensionOutOfRange {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The dimension given, texels.
        value: u32,
        /// The largest dimension accepted, texels.
        max: u32,
    },

    /// The requested mip count is 0 or longer than the full chain down to 1x1.
    #[error("mip_levels {value} is out of range; expected 1..={max} for a {width}x{height} texture")]
    MipLevelsOutOfRange {
        /// The mip count asked for.
        value: u32,
        /// The full chain's length down to 1x1 for this size.
        max: u32,
        /// Mip 0's width, texels.
        width: u32,
        /// Mip 0's height, texels.
        height: u32,
    },

    /// A mip level index at or past the texture's mip count (checked accessors only).
    #[error("mip level {level} is out of range; expected 0..{mip_levels}")]
    MipOutOfRange {
        /// The mip level asked for (0 = finest).
        level: u32,
        /// The texture's mip count.
        mip_levels: u32,
    },

    /// A tile coordinate that is not one of the texture's standard (non-packed) tiles.
    #[error(
        "tile (mip {mip}, x {x}, y {y}) is not a standard tile; expected mip < {first_packed_mip}, \
         x < {tiles_x}, y < {tiles_y}"
    )]
    TileOutOfRange {
        /// The tile's mip level.
        mip: u32,
        /// The tile's column, in tiles.
        x: u32,
        /// The tile's row, in tiles.
        y: u32,
        /// Number of standard mips (tiles exist only below this level).
        first_packed_mip: u32,
        /// Tiles across in `mip` (0 when `mip` is packed or out of range).
        tiles_x: u32,
        /// Tiles down in `mip` (0 when `mip` is packed or out of range).
        tiles_y: u32,
    },

    /// A dense tile index at or past `standard_tile_count()`.
    #[error("tile index {index} is out of range; expected 0..{count}")]
    TileIndexOutOfRange {
        /// The dense index given.
        index: u32,
        /// The texture's number of standard tiles.
        count: u32,
    },

    /// A mip-region dimension that is not a power of two.
    #[error("mip region {axis} {value} is not a power of two; expected one of 4, 8, .., {max}")]
    MipRegionNotPowerOfTwo {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The region dimension given, mip-0 texels.
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
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The region dimension given, mip-0 texels.
        value: u32,
        /// Largest valid value for this texture (half of mip 0's dimension, rounded down to a
        /// power of two).
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
    FeedbackUnsupported {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// Mip 0's dimension along `axis`, texels.
        texture: u32,
        /// The largest texture dimension accepted, texels.
        max: u32,
    },
}
