//! BC1–BC7 block formats: decode, encode, quality metrics and 64 KiB tile cutting — the
//! texel formats the MDU's BCPack stage and the GPU sampler consume (SPEC §2–3).
//!
//! A BC surface is a grid of 4x4-texel blocks, 8 bytes each for BC1/BC4 and 16 for the
//! others, stored row-major; sizes that are not multiples of 4 round up to whole blocks.
//!
//! - Decode: [`decode_block`] (one block to 16 RGBA8 texels), [`decode_surface`] (a whole mip
//!   to `width * height` RGBA8 texels), [`decode_bc6h_block`] (HDR floats). BC1–BC5 are
//!   sfsim's own decoders with one rounding convention — exact interpolation of the endpoints'
//!   real values, nearest integer, halves up (bcdec's formulas; docs/bc.md); BC6H and BC7 come
//!   from `bcdec_rs`. Any input bytes decode: there are no invalid blocks, only reserved
//!   modes, which decode to zero as D3D specifies.
//! - Encode: [`encode_surface`] for BC1, BC3, BC4, BC5 and BC7 via `intel_tex_2` (Intel's
//!   ISPC Texture Compressor), with [`Bc7Quality`] presets and a [`Bc7Modes`] mask
//!   (`Bc7Modes::MODE_7_ONLY` = XBTC's `--bc7modes 0x80`).
//! - Quality: [`psnr`] and [`rmse`] over the leading 1–4 channels ([`format_channels`]).
//! - Tiles: [`surface_to_tiles`] / [`tiles_to_surface`] cut a mip into the 64 KiB SFS tiles
//!   of [`BcFormat::tile_texels`](crate::texture::BcFormat::tile_texels), edge tiles
//!   zero-padded to 64 KiB.
//! - [`bc7_block_mode`]: the mode of a BC7 block, for BCPack's per-mode streams and reports.
//!
//! ```
//! use sfsim_models::codec::bc::{decode_surface, encode_surface, psnr, EncodeSettings, Bc7Modes};
//! use sfsim_models::texture::BcFormat;
//!
//! let (w, h) = (8, 8);
//! let rgba: Vec<u8> = (0..w * h).flat_map(|i| [(i * 4) as u8, 128, 255 - (i * 4) as u8, 255]).collect();
//! let settings = EncodeSettings { bc7_modes: Some(Bc7Modes::MODE_7_ONLY), ..Default::default() };
//! let blocks = encode_surface(BcFormat::Bc7, w, h, &rgba, &settings)?;
//! assert_eq!(blocks.len(), 4 * 16);
//! let decoded = decode_surface(BcFormat::Bc7, w, h, &blocks)?;
//! assert!(psnr(&rgba, &decoded, 3)? > 30.0);
//! # Ok::<(), sfsim_models::codec::bc::BcError>(())
//! ```

mod alpha;
mod bc7_modes;
mod block;
mod color;
mod encode;
mod error;
mod metrics;
mod rdo;
mod surface;
mod tiles;

#[cfg(test)]
mod real;

pub use bc7_modes::{Bc7Modes, Bc7Quality};
pub use block::{bc7_block_mode, decode_bc6h_block, decode_block, BLOCK_RGBA_BYTES};
pub use encode::{encode_surface, EncodeSettings};
pub use error::BcError;
pub use metrics::{format_channels, psnr, rmse};
pub use rdo::{rdo, RdoError, RdoSettings};
pub use surface::decode_surface;
pub use tiles::{surface_to_tiles, tile_grid, tiles_to_surface};
