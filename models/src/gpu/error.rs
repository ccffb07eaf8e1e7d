//! Why a GPU-side model refused its input.

use super::limits::{MAX_ANISOTROPY, MAX_ARRAY_SLICES, MAX_TEXTURE_DIM};
use thiserror::Error;

/// Invalid sizes, sampler settings or sample inputs given to the GPU models.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuError {
    /// A texture or map edge is 0 or larger than the D3D12 2D limit.
    #[error("{what} is {value} texels; expected 1..={MAX_TEXTURE_DIM}")]
    Dimension {
        /// Which edge (e.g. "feedback map width").
        what: &'static str,
        /// The rejected edge, texels.
        value: u32,
    },
    /// A texture array has 0 slices or more than the D3D12 limit.
    #[error("array has {0} slices; expected 1..={MAX_ARRAY_SLICES}")]
    ArraySlices(u32),
    /// A mip count is 0 or longer than the texture's full chain.
    #[error("mip count {mip_count} is out of range; expected 1..={max}")]
    MipCount {
        /// The rejected count.
        mip_count: u32,
        /// Full chain length of the texture.
        max: u32,
    },
    /// A mip region edge is not a power of two in 4..=half of mip 0's edge (D3D12 Sampler
    /// Feedback spec, "Mip region constraints").
    #[error("mip region {width}x{height} is invalid for a {tex_width}x{tex_height} texture; each edge must be a power of two in 4..=half of mip 0's edge")]
    MipRegion {
        /// Region width, texels of mip 0.
        width: u32,
        /// Region height, texels of mip 0.
        height: u32,
        /// Texture width, texels of mip 0.
        tex_width: u32,
        /// Texture height, texels of mip 0.
        tex_height: u32,
    },
    /// A feedback map's size does not match the layout it is written through.
    #[error("feedback map is {actual_width}x{actual_height}; the layout needs {width}x{height}")]
    MapSize {
        /// Width the layout needs, feedback texels.
        width: u32,
        /// Height the layout needs, feedback texels.
        height: u32,
        /// Width of the map given.
        actual_width: u32,
        /// Height of the map given.
        actual_height: u32,
    },
    /// A MipRegionUsed map tracks fewer mips than the layout's texture has.
    #[error("feedback map tracks {actual} mips; the layout needs {needed}")]
    MapMips {
        /// Mips the layout's texture has.
        needed: u32,
        /// Mips the map tracks.
        actual: u32,
    },
    /// A sampler's max anisotropy is outside the D3D12 range.
    #[error("max_aniso {0} is out of range; expected 1..={MAX_ANISOTROPY}")]
    MaxAniso(u32),
    /// A sampler's LOD bias is not finite or outside the D3D12 range.
    #[error("lod_bias {0} is out of range; expected -16.0..=15.99 mips")]
    LodBias(f32),
    /// A map was given a value buffer of the wrong length.
    #[error("value buffer has {actual} bytes; the map needs {expected}")]
    DataLength {
        /// Bytes the map needs (width x height).
        expected: usize,
        /// Bytes given.
        actual: usize,
    },
    /// A map's storage could not be allocated.
    #[error("cannot allocate {0} bytes")]
    Allocation(usize),
    /// A coordinate or derivative is NaN or infinite.
    #[error("{0} is not finite")]
    NonFinite(&'static str),
}
