//! Rate-distortion optimisation (RDO) of BC1, BC3, BC4 and BC5 surfaces: a post-pass over
//! blocks an encoder already produced that trades a little quality for a smaller Deflate
//! stream — XBTC's `--rdo-lambda`.
//!
//! Deflate only finds repeats of 3 or more bytes within 32 KiB. BC blocks of real textures
//! rarely repeat exactly, but many blocks would look almost as good with the endpoint or
//! index bytes of a nearby block. This pass (the idea behind bc7enc_rdo's "ERT", written for
//! sfsim) walks the blocks in the order Deflate sees them and, for each block, tries
//! replacing its fields with fields copied from one of the previous `window_blocks` blocks;
//! it keeps the variant with the lowest `J = scale * D + lambda * R`:
//!
//! - `D`: sum of squared errors (8-bit levels) of the decoded block against the original
//!   texels, over the channels the part covers (RGB for a colour half; one channel, counted
//!   three times, for an interpolated half, so λ buys the same MSE in every format); texels
//!   outside the image do not count.
//! - `scale`: smooth-block protection. Banding in flat areas is what viewers notice first, so
//!   a block whose largest per-channel standard deviation σ is below `smooth_max_std_dev`
//!   has its error weighted up to `smooth_max_error_scale` times (linearly, fully at σ = 0).
//! - `R`: estimated Deflate bits for the block, from a field-level LZ model. A block is
//!   1 or 2 *parts* (BC1: colour; BC3: alpha then colour; BC4: one channel; BC5: R then G),
//!   each an endpoint field then an index field. Each field is coded, cheapest first, as
//!   (1) the continuation of the match that covered the previous field, when the field
//!   equals the bytes at that same distance: [`CONTINUE_BITS`]; (2) a new match at the
//!   nearest block of the window whose same field is equal (fields of 3+ bytes only, as
//!   Deflate's shortest match is 3 bytes): [`MATCH_BITS`] plus Deflate's extra distance bits;
//!   or (3) literals at [`LITERAL_BITS`] per byte.
//!
//! Candidates per part, with the window's fields deduplicated: the original; the block's own
//! endpoints with a window block's indices; least-squares endpoints refitted to those indices;
//! a window block's endpoints with the best indices for them; a window block's whole part.
//! Every candidate is decoded by the format's rules, so the output is always valid BC of the
//! same format, and a BC1 texel never changes between opaque and transparent.
//!
//! Order and window: blocks are visited in 64 KiB tile order (row-major inside each tile of
//! [`BcFormat::tile_texels`]), the byte order of a tile region; only earlier blocks of the
//! same tile are copied from, since each tile is compressed on its own. A window of 128 reaches
//! the block above for BC1/BC4 (tile rows of 128 blocks); a whole-mip region compressed
//! linearly still sees the same-row and same-field matches, at other distances.
//!
//! ```
//! use sfsim_models::codec::bc::{encode_surface, rdo, EncodeSettings, RdoSettings};
//! use sfsim_models::texture::BcFormat;
//!
//! let (w, h) = (64, 64);
//! let rgba: Vec<u8> = (0..w * h).flat_map(|i| [(i % 64 * 4) as u8, (i / 64 * 4) as u8, 90, 255]).collect();
//! let blocks = encode_surface(BcFormat::Bc1, w, h, &rgba, &EncodeSettings::default())?;
//! let smaller = rdo(BcFormat::Bc1, w, h, &rgba, &blocks, &RdoSettings { lambda: 20.0, ..Default::default() })?;
//! assert_eq!(smaller.len(), blocks.len());
//! # Ok::<(), sfsim_models::codec::bc::RdoError>(())
//! ```

use super::surface::check_surface;
use super::BcError;
use crate::texture::BcFormat;
use parts::parts;
use pass::Pass;
use target::Image;

mod field_index;
mod parts;
mod pass;
mod target;

/// Estimated bits of one literal byte. BC bytes are close to incompressible on their own;
/// Deflate's Huffman stage gains little on them.
pub const LITERAL_BITS: f32 = 8.0;
/// Estimated bits of a new Deflate match before its distance extra bits: a length symbol
/// (~7 bits) and a distance symbol (~5 bits) in a dynamic block, plus slack for the literals
/// it interrupts.
pub const MATCH_BITS: f32 = 14.0;
/// Estimated bits for extending the previous match over one more field (a longer length code).
pub const CONTINUE_BITS: f32 = 1.0;
/// Deflate's window: a copy source further back than this is unreachable.
pub const DEFLATE_WINDOW_BYTES: u32 = 32_768;

/// Knobs of [`rdo`]. `Default` (λ = 40) is a moderate setting: on the committed real textures
/// BC1 loses at most 1.1 dB against the λ = 0 pass and Deflate shrinks 16–51 % (docs/rdo.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RdoSettings {
    /// λ: squared-error units (8-bit levels², summed over a part's 16 texels and 3 channels)
    /// one estimated bit is worth. 0 keeps only changes that lower the error.
    pub lambda: f32,
    /// How many previous blocks (in tile order) a block may copy from; at most
    /// `DEFLATE_WINDOW_BYTES / block_bytes`.
    pub window_blocks: u32,
    /// Blocks whose largest per-channel standard deviation (8-bit levels) is below this are
    /// protected; 0 turns the protection off.
    pub smooth_max_std_dev: f32,
    /// Error weight of a perfectly flat block (σ = 0); at least 1.
    pub smooth_max_error_scale: f32,
}

impl Default for RdoSettings {
    fn default() -> Self {
        RdoSettings { lambda: 40.0, window_blocks: 128, smooth_max_std_dev: 18.0, smooth_max_error_scale: 10.0 }
    }
}

/// Why [`rdo`] refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RdoError {
    /// The surface or image does not have the size its dimensions imply.
    #[error(transparent)]
    Bc(#[from] BcError),

    /// The format has no RDO pass (BC2's explicit alpha, BC6H and BC7 have other layouts).
    #[error("RDO does not support {format:?}; expected BC1, BC3, BC4 or BC5")]
    Unsupported {
        /// The format asked for.
        format: BcFormat,
    },

    /// A setting is outside its range.
    #[error("RDO setting {name} = {value} is out of range; expected {expected}")]
    Setting {
        /// The setting's name, e.g. `"lambda"`.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The valid range, as text.
        expected: String,
    },
}

/// Runs the RDO post-pass over a `format` surface of `width` x `height` texels: `blocks` as
/// [`encode_surface`](super::encode_surface) made them from `original_rgba` (RGBA8,
/// `width * height * 4` bytes). Returns blocks of the same format and size.
pub fn rdo(
    format: BcFormat,
    width: u32,
    height: u32,
    original_rgba: &[u8],
    blocks: &[u8],
    settings: &RdoSettings,
) -> Result<Vec<u8>, RdoError> {
    let parts = parts(format)?;
    settings.check(format)?;
    let (blocks_x, blocks_y) = check_surface(format, width, height, blocks.len())?;
    let expected = u64::from(width) * u64::from(height) * 4;
    if original_rgba.len() as u64 != expected {
        return Err(BcError::ImageLength { width, height, expected, found: original_rgba.len() as u64 }.into());
    }
    let image = Image { rgba: original_rgba, width: width as usize, height: height as usize };
    Ok(Pass::new(format, parts, settings, image, (blocks_x as usize, blocks_y as usize), blocks).run())
}

impl RdoSettings {
    fn check(&self, format: BcFormat) -> Result<(), RdoError> {
        let bad = |name, value: f32, expected: &str| {
            Err(RdoError::Setting { name, value: f64::from(value), expected: expected.to_string() })
        };
        if !(self.lambda.is_finite() && self.lambda >= 0.0) {
            return bad("lambda", self.lambda, "a finite value >= 0");
        }
        if !(self.smooth_max_std_dev.is_finite() && self.smooth_max_std_dev >= 0.0) {
            return bad("smooth_max_std_dev", self.smooth_max_std_dev, "a finite value >= 0");
        }
        if !(self.smooth_max_error_scale.is_finite() && self.smooth_max_error_scale >= 1.0) {
            return bad("smooth_max_error_scale", self.smooth_max_error_scale, "a finite value >= 1");
        }
        let max = DEFLATE_WINDOW_BYTES / format.block_bytes();
        if !(1..=max).contains(&self.window_blocks) {
            return Err(RdoError::Setting {
                name: "window_blocks",
                value: f64::from(self.window_blocks),
                expected: format!("1..={max} blocks ({DEFLATE_WINDOW_BYTES} B Deflate window)"),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
