//! Block-compressed tiled textures: formats, 64 KiB tile shapes, mip chains, the packed mip
//! tail, tile addressing, and MinMip / sampler-feedback map sizes (SPEC §3–4).
//!
//! Model, with sources:
//! - A tile is 64 KiB ([`TILE_BYTES`]). Its shape is the D3D12 standard-swizzle shape:
//!   512x256 texels for BC1/BC4, 256x256 for BC2/3/5/6H/7 ([`BcFormat::tile_texels`]).
//! - Mip `l` is `max(1, dim >> l)` texels per axis; its storage is rounded up to whole 4x4
//!   blocks, so a 1x1 or 2x2 mip still takes one block ([`MipInfo::bytes`]).
//! - A mip smaller than the tile shape in either dimension is packed, with every coarser mip
//!   (D3D12 `D3D12_PACKED_MIP_INFO`, Tier 2). Standard mips take
//!   `ceil(w / tile_w) * ceil(h / tile_h)` tiles; the tail takes
//!   `ceil(sum of packed mip bytes / 64 KiB)` tiles — sfsim's model, real drivers may pad more.
//! - MinMip map: one texel per mip-0 tile. Feedback map: one texel per mip region, each
//!   region edge a power of two in 4..=half of mip 0's edge (D3D12 Sampler Feedback spec).
//!
//! Worked example (SPEC §3): 2048² BC7 has 64 + 16 + 4 + 1 standard tiles in mips 0–3 and a
//! one-tile tail from mip 4 (128²) down: 86 tiles.

mod dds;
mod desc;
mod error;
mod format;
mod maps;
mod regions;
mod tiles;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

pub use dds::{DdsError, DdsImage, DdsRead, DdsWarning};
pub use desc::{MipInfo, TextureDesc, MAX_DIMENSION};
pub use error::TextureError;
pub use format::{BcFormat, BLOCK_DIM, TILE_BYTES};
pub use maps::MIN_MIP_REGION;
pub use regions::{MipLayout, MipPlacement, PackRegions, Region, RegionError, TileMode, MAX_REGION_BYTES};
pub use tiles::{TileCoord, TileGrid};
