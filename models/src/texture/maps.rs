//! Sizes of the per-texture MinMip map and sampler-feedback map, and mip-region validation.
//!
//! Source for the rules: the D3D12 Sampler Feedback spec
//! (microsoft/DirectX-Specs, `d3d/SamplerFeedback.md`, "Mip region constraints" and
//! "Compatible transcode resources"), and SPEC §4.

use super::desc::{TextureDesc, MAX_DIMENSION};
use super::error::TextureError;
use super::tiles::TileCoord;
use std::ops::Range;

/// Smallest mip-region edge, texels of mip 0 (D3D12: a mip region is at least 4x4).
pub const MIN_MIP_REGION: u32 = 4;

impl TextureDesc {
    /// (width, height) of the MinMip map, texels: one R8_UINT texel per mip-0 tile,
    /// `(ceil(width / tile_w), ceil(height / tile_h))`. A partial tile at the right or bottom
    /// edge still gets its own texel. E.g. 8192² BC1 (512x256 tiles) → 16x32.
    pub fn min_mip_map_dims(&self) -> (u32, u32) {
        let (tw, th) = self.format.tile_texels();
        (self.width.div_ceil(tw), self.height.div_ceil(th))
    }

    /// (width, height) of the decoded (R8_UINT, 1 mip) feedback map for a mip region of
    /// `region` = (width, height) texels of mip 0 per feedback texel:
    /// `(ceil(width / region.0), ceil(height / region.1))`, the minimum size D3D12 requires
    /// for the transcode target. E.g. 4096² BC1 with a 512x256 region → 8x16.
    ///
    /// Each region dimension must be a power of two, >= 4 and <= half of mip 0's dimension
    /// (D3D12 Sampler Feedback spec, "Mip region constraints"). "Half" is exact, so an odd
    /// dimension rounds down: a 100-texel edge allows up to 32, a 15-texel edge only 4. The
    /// spec has no exception for small textures, so sfsim allows none: a texture with a
    /// dimension below 8 cannot have a feedback map ([`TextureError::FeedbackUnsupported`]).
    pub fn feedback_map_dims(&self, region: (u32, u32)) -> Result<(u32, u32), TextureError> {
        let rw = check_region("width", region.0, self.width)?;
        let rh = check_region("height", region.1, self.height)?;
        Ok((self.width.div_ceil(rw), self.height.div_ceil(rh)))
    }

    /// The mip region that gives one feedback texel per mip-0 tile, so the feedback map
    /// matches the MinMip map: the tile shape, shrunk per dimension to the largest valid
    /// region when mip 0 is less than two tiles across (then one feedback texel covers less
    /// than a tile). Errors like [`TextureDesc::feedback_map_dims`] when a dimension is < 8.
    pub fn tile_mip_region(&self) -> Result<(u32, u32), TextureError> {
        let (tw, th) = self.format.tile_texels();
        let fit = |axis, tile: u32, dim| {
            let max = max_region(dim);
            check_region(axis, tile.min(max).max(MIN_MIP_REGION), dim)
        };
        Ok((fit("width", tw, self.width)?, fit("height", th, self.height)?))
    }

    /// MinMip-map texels that standard tile `t` overlaps, as (columns, rows) ranges.
    ///
    /// Overlap is in normalized texture space, which is how the shader samples both the
    /// texture and the MinMip map. For power-of-two textures a mip-`m` tile covers exactly
    /// `2^m x 2^m` MinMip texels (clipped at the map edge); for other sizes the ranges
    /// include every texel the tile touches. `t` must be a standard tile (debug-asserted);
    /// otherwise the result is clamped to the map.
    pub fn min_mip_rect(&self, t: TileCoord) -> (Range<u32>, Range<u32>) {
        debug_assert!(self.contains_tile(t), "{t:?} is not a standard tile");
        let (tw, th) = self.format.tile_texels();
        let (mw, mh) = self.mip_dims(t.mip);
        let (map_w, map_h) = self.min_mip_map_dims();
        (overlap(t.x, tw, mw, self.width, map_w), overlap(t.y, th, mh, self.height, map_h))
    }
}

/// Largest power of two <= `dim / 2` (0 when `dim < 2`): the largest legal region edge.
fn max_region(dim: u32) -> u32 {
    let half = dim / 2;
    if half == 0 {
        0
    } else {
        1 << (u32::BITS - 1 - half.leading_zeros())
    }
}

/// Validates one mip-region edge `value` against a mip-0 edge of `dim` texels.
fn check_region(axis: &'static str, value: u32, dim: u32) -> Result<u32, TextureError> {
    let max = max_region(dim);
    if max < MIN_MIP_REGION {
        return Err(TextureError::FeedbackUnsupported { axis, texture: dim, max: MAX_DIMENSION });
    }
    if !value.is_power_of_two() {
        return Err(TextureError::MipRegionNotPowerOfTwo { axis, value, max });
    }
    if !(MIN_MIP_REGION..=max).contains(&value) {
        return Err(TextureError::MipRegionOutOfRange { axis, value, max, texture: dim });
    }
    Ok(value)
}

/// MinMip texels along one axis overlapped by tile `index` (edge `tile` texels) of a mip
/// `mip_dim` texels long, when mip 0 is `dim` texels and the map `map_len` texels.
///
/// The tile spans normalized [index*tile, min((index+1)*tile, mip_dim)) / mip_dim; MinMip
/// texel i spans [i*tile, (i+1)*tile) / dim. So the first texel is
/// floor(index*tile*dim / (mip_dim*tile)) = floor(index*dim / mip_dim) and the end is the
/// ceiling of the tile's end over the texel size. Integer math in u64: no rounding drift.
fn overlap(index: u32, tile: u32, mip_dim: u32, dim: u32, map_len: u32) -> Range<u32> {
    let (index, tile, mip_dim, dim) = (u64::from(index), u64::from(tile), u64::from(mip_dim.max(1)), u64::from(dim));
    let start = index * dim / mip_dim;
    let end_texel = ((index + 1) * tile).min(mip_dim);
    let end = (end_texel * dim).div_ceil(mip_dim * tile);
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX).min(map_len);
    clamp(start)..clamp(end)
}
