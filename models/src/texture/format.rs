//! Block-compressed formats and the 64 KiB tile shape each one gets.

use serde::{Deserialize, Serialize};

/// One tile (page) of a tiled (reserved) resource: 64 KiB, bytes. The unit of residency,
/// of SFS streaming and of the MinMip map.
pub const TILE_BYTES: u64 = 65_536;

/// Edge of a BC block, texels. Every BC format encodes 4x4 texels per block, so a mip's
/// storage is rounded up to whole blocks (a 1x1 or 2x2 mip still takes one block).
pub const BLOCK_DIM: u32 = 4;

/// The block-compressed texture formats sfsim streams (DXGI `BC1`..`BC7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BcFormat {
    /// RGB(A1), 8 bytes per block.
    Bc1,
    /// RGBA with explicit 4-bit alpha, 16 bytes per block.
    Bc2,
    /// RGBA with interpolated alpha, 16 bytes per block.
    Bc3,
    /// One channel, 8 bytes per block.
    Bc4,
    /// Two channels, 16 bytes per block.
    Bc5,
    /// HDR RGB, 16 bytes per block.
    Bc6h,
    /// High-quality RGB(A), 16 bytes per block.
    Bc7,
}

impl BcFormat {
    /// Bytes of one 4x4 texel block: 8 for BC1/BC4, 16 for the others.
    pub fn block_bytes(self) -> u32 {
        match self {
            BcFormat::Bc1 | BcFormat::Bc4 => 8,
            BcFormat::Bc2 | BcFormat::Bc3 | BcFormat::Bc5 | BcFormat::Bc6h | BcFormat::Bc7 => 16,
        }
    }

    /// (width, height) in texels of one 64 KiB standard tile: 512x256 for BC1/BC4 (128x64
    /// blocks of 8 B), 256x256 for the others (64x64 blocks of 16 B). These are the D3D12
    /// standard-swizzle Texture2D tile shapes ("Texture2D and Texture2DArray subresource
    /// tiling", learn.microsoft.com), and SPEC §3.
    pub fn tile_texels(self) -> (u32, u32) {
        match self.block_bytes() {
            8 => (512, 256),
            _ => (256, 256),
        }
    }

    /// DirectStorage `BcpackMode` value XBTC records for this format: BC1..BC5 = 1..5,
    /// BC6H = 6, BC7 = 7 (0 would mean "not BCPack-compressed").
    pub fn bcpack_mode(self) -> u32 {
        match self {
            BcFormat::Bc1 => 1,
            BcFormat::Bc2 => 2,
            BcFormat::Bc3 => 3,
            BcFormat::Bc4 => 4,
            BcFormat::Bc5 => 5,
            BcFormat::Bc6h => 6,
            BcFormat::Bc7 => 7,
        }
    }

    /// Every format, in `bcpack_mode` order (for sweeps and tests).
    pub fn all() -> [BcFormat; 7] {
        [BcFormat::Bc1, BcFormat::Bc2, BcFormat::Bc3, BcFormat::Bc4, BcFormat::Bc5, BcFormat::Bc6h, BcFormat::Bc7]
    }

    /// Bytes of a `width` x `height` texel image in this format, rounded up to whole 4x4
    /// blocks. Saturates instead of overflowing (only reachable with hand-built, invalid
    /// sizes far above the 16384 limit).
    pub fn surface_bytes(self, width: u32, height: u32) -> u64 {
        let blocks_x = u64::from(width.div_ceil(BLOCK_DIM));
        let blocks_y = u64::from(height.div_ceil(BLOCK_DIM));
        blocks_x.saturating_mul(blocks_y).saturating_mul(u64::from(self.block_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_of_blocks_is_exactly_64_kib() {
        for f in BcFormat::all() {
            let (w, h) = f.tile_texels();
            assert_eq!(f.surface_bytes(w, h), TILE_BYTES, "{f:?}");
        }
    }

    #[test]
    fn block_bytes_and_modes() {
        assert_eq!(BcFormat::Bc1.block_bytes(), 8);
        assert_eq!(BcFormat::Bc4.block_bytes(), 8);
        assert_eq!(BcFormat::Bc7.block_bytes(), 16);
        let modes: Vec<u32> = BcFormat::all().iter().map(|f| f.bcpack_mode()).collect();
        assert_eq!(modes, vec![1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn tiny_surfaces_take_one_block() {
        assert_eq!(BcFormat::Bc7.surface_bytes(1, 1), 16);
        assert_eq!(BcFormat::Bc1.surface_bytes(2, 2), 8);
        assert_eq!(BcFormat::Bc1.surface_bytes(5, 4), 16);
    }
}
