//! D3D12 resource and sampler limits the GPU models validate against, and the mip-size rule.
//!
//! Values are the `D3D12_REQ_*` / `D3D12_*` constants of the D3D12 headers (the same values
//! as the D3D11.3 functional spec's constant table).

/// Largest 2D texture edge, texels (`D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION` = 16384).
pub const MAX_TEXTURE_DIM: u32 = 16384;

/// Longest mip chain of a texture whose larger edge is [`MAX_TEXTURE_DIM`]: 15 mips.
pub const MAX_MIP_COUNT: u32 = 15;

/// Most slices in a 2D texture array (`D3D12_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION` = 2048).
pub const MAX_ARRAY_SLICES: u32 = 2048;

/// Largest sampler `MaxAnisotropy` (`D3D12_MAX_MAXANISOTROPY` = 16); the smallest is 1.
pub const MAX_ANISOTROPY: u32 = 16;

/// Smallest sampler `MipLODBias`, mips (`D3D12_MIP_LOD_BIAS_MIN` = -16.0).
pub const MIP_LOD_BIAS_MIN: f32 = -16.0;

/// Largest sampler `MipLODBias`, mips (`D3D12_MIP_LOD_BIAS_MAX` = 15.99).
pub const MIP_LOD_BIAS_MAX: f32 = 15.99;

/// Edge of mip `mip` of an edge of `dim` texels: `max(1, dim >> mip)` (the D3D mip rule: each
/// mip halves and rounds down, never below one texel). A `mip` of 32 or more gives 1.
pub fn mip_dim(dim: u32, mip: u32) -> u32 {
    dim.checked_shr(mip).unwrap_or(0).max(1)
}

/// Length of the full mip chain of a `width` x `height` texture: `floor(log2(max)) + 1`
/// (down to 1x1). 0 for an empty texture.
pub fn full_mip_count(width: u32, height: u32) -> u32 {
    32 - width.max(height).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_sizes_halve_and_floor_at_one() {
        assert_eq!(mip_dim(1024, 0), 1024);
        assert_eq!(mip_dim(1024, 3), 128);
        assert_eq!(mip_dim(100, 3), 12);
        assert_eq!(mip_dim(1024, 10), 1);
        assert_eq!(mip_dim(1024, 11), 1);
        assert_eq!(mip_dim(1024, 40), 1);
    }

    #[test]
    fn full_chain_lengths() {
        assert_eq!(full_mip_count(1024, 1024), 11);
        assert_eq!(full_mip_count(2048, 16), 12);
        assert_eq!(full_mip_count(1, 1), 1);
        assert_eq!(full_mip_count(0, 0), 0);
        assert_eq!(full_mip_count(MAX_TEXTURE_DIM, 1), MAX_MIP_COUNT);
    }
}
