//! The DDS layout: header offsets' constants (Microsoft's names) and mip sizes.

use crate::texture::BcFormat;

/// `"DDS "` little-endian.
pub(super) const MAGIC: u32 = 0x2053_4444;
pub(super) const HEADER_BYTES: usize = 124;
pub(super) const PIXEL_FORMAT_BYTES: u32 = 32;
pub(super) const DX10_BYTES: usize = 20;
/// Magic + `DDS_HEADER`.
pub(super) const BASE_BYTES: usize = 4 + HEADER_BYTES;

// dwFlags
pub(super) const DDSD_CAPS: u32 = 0x1;
pub(super) const DDSD_HEIGHT: u32 = 0x2;
pub(super) const DDSD_WIDTH: u32 = 0x4;
pub(super) const DDSD_PIXELFORMAT: u32 = 0x1000;
pub(super) const DDSD_MIPMAPCOUNT: u32 = 0x2_0000;
pub(super) const DDSD_LINEARSIZE: u32 = 0x8_0000;
pub(super) const DDSD_DEPTH: u32 = 0x80_0000;
// ddspf.dwFlags
pub(super) const DDPF_FOURCC: u32 = 0x4;
// dwCaps, dwCaps2
pub(super) const DDSCAPS_COMPLEX: u32 = 0x8;
pub(super) const DDSCAPS_TEXTURE: u32 = 0x1000;
pub(super) const DDSCAPS_MIPMAP: u32 = 0x40_0000;
pub(super) const DDSCAPS2_CUBEMAP: u32 = 0x200;
pub(super) const DDSCAPS2_VOLUME: u32 = 0x20_0000;
// DDS_HEADER_DXT10: D3D10_RESOURCE_DIMENSION, miscFlag
pub(super) const DIMENSION_UNKNOWN: u32 = 0;
pub(super) const DIMENSION_TEXTURE1D: u32 = 2;
pub(super) const DIMENSION_TEXTURE2D: u32 = 3;
pub(super) const DIMENSION_TEXTURE3D: u32 = 4;
pub(super) const MISC_TEXTURECUBE: u32 = 0x4;

pub(super) fn mip_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    ((width >> level.min(31)).max(1), (height >> level.min(31)).max(1))
}

pub(super) fn mip_bytes(format: BcFormat, width: u32, height: u32, level: u32) -> u64 {
    let (w, h) = mip_size(width, height, level);
    format.surface_bytes(w, h)
}

/// Mips in the full chain down to 1x1.
pub(super) fn max_mips(width: u32, height: u32) -> u32 {
    u32::BITS - width.max(height).max(1).leading_zeros()
}
