//! Where a tile's bytes come from: its compressed size and request options. Until packed
//! containers exist, a seeded synthetic model of per-format compression ratios (SPEC §3:
//! BC1 ≈ 2:1, BC7 ≈ 1.6:1), or real containers ([`PackedContent`](super::PackedContent)).
//! The engine only sees the [`ContentModel`] trait; a scenario picks one with
//! `content: Synthetic((…))` or `content: Packed((containers: [...], verify: Sample))`.

use serde::{Deserialize, Serialize};
use sfsim_models::nvme::RequestOptions;
use sfsim_models::texture::{BcFormat, TileCoord, TILE_BYTES};
use sfsim_models::units::Bytes;
use sfsim_models::ConfigError;

/// One tile's stream as DirectStorage loads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileStream {
    /// Bytes read from the file (CompressedSize).
    pub compressed: Bytes,
    /// After zlib, before BCPack (0 unless both apply).
    pub intermediate: Bytes,
    /// Bytes in memory after every stage (64 KiB for a tile).
    pub uncompressed: Bytes,
    /// DirectStorage options: the MDU stages the stream goes through.
    pub options: RequestOptions,
    /// Byte offset in the content file (16-byte aligned).
    pub offset: u64,
}

/// Where each tile's bytes come from.
pub trait ContentModel: Send + Sync {
    /// The stream of `tile` of `texture` (a standard tile, or the first tile of the packed
    /// tail for the whole tail). It must make a valid DirectStorage request; the engine
    /// stops the run with an error naming the tile when it does not.
    fn stream(&self, texture: u32, format: BcFormat, tile: TileCoord) -> TileStream;
}

/// Shared models: the stream workload keeps a handle on packed content to verify loads.
impl<T: ContentModel + ?Sized> ContentModel for std::sync::Arc<T> {
    fn stream(&self, texture: u32, format: BcFormat, tile: TileCoord) -> TileStream {
        (**self).stream(texture, format, tile)
    }
}

/// The scenario's `content`: a synthetic size model or real containers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ContentConfig {
    /// Seeded per-format compression ratios.
    Synthetic(SyntheticContent),
    /// Containers written by `sfsim pack` (see `engine::packed`).
    Packed(super::packed::PackedConfig),
}

impl Default for ContentConfig {
    fn default() -> Self {
        ContentConfig::Synthetic(SyntheticContent::default())
    }
}

impl ContentConfig {
    /// Range checks of the selected model (fields relative to `content`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self {
            ContentConfig::Synthetic(s) => s.validate(),
            ContentConfig::Packed(p) => p.validate(),
        }
    }
}

/// Mean uncompressed ÷ compressed size per format, and the spread around it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SyntheticContent {
    /// BC1 and BC4 (2.0).
    pub ratio_bc1: f64,
    /// BC2, BC3, BC5 (1.8).
    pub ratio_bc3: f64,
    /// BC6H and BC7 (1.6).
    pub ratio_bc7: f64,
    /// Each tile's ratio is uniform in ratio × (1 ± spread) (0.15).
    pub spread: f64,
    /// Streams use zlib then BCPack (true) or zlib only.
    pub bcpack: bool,
    /// Seeds every tile's ratio.
    pub seed: u64,
}

impl Default for SyntheticContent {
    fn default() -> Self {
        SyntheticContent { ratio_bc1: 2.0, ratio_bc3: 1.8, ratio_bc7: 1.6, spread: 0.15, bcpack: true, seed: 1 }
    }
}

/// A well-mixed hash of (seed, texture, tile): a tile's synthetic size and whether it is
/// verified depend only on these, never on load order.
pub(super) fn tile_hash(seed: u64, texture: u32, tile: TileCoord) -> u64 {
    mix(seed ^ (u64::from(texture) << 40) ^ (u64::from(tile.mip) << 32) ^ (u64::from(tile.y) << 16) ^ u64::from(tile.x))
}

fn mix(mut x: u64) -> u64 {
    // splitmix64: a tile's size depends only on (seed, texture, tile), not on load order.
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl SyntheticContent {
    /// Ratios in (1, 100], spread in 0..=0.5, and every tile shrinks.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (name, r) in [("ratio_bc1", self.ratio_bc1), ("ratio_bc3", self.ratio_bc3), ("ratio_bc7", self.ratio_bc7)] {
            if !(r.is_finite() && r > 1.0 && r <= 100.0) {
                return Err(ConfigError::new(name, format!("{r} is out of range; expected > 1 and ≤ 100")));
            }
        }
        if !(0.0..=0.5).contains(&self.spread) {
            return Err(ConfigError::new("spread", format!("{} is out of range; expected 0..=0.5", self.spread)));
        }
        let worst = self.ratio_bc1.min(self.ratio_bc3).min(self.ratio_bc7) * (1.0 - self.spread);
        if worst <= 1.05 {
            return Err(ConfigError::new(
                "spread",
                "the smallest ratio × (1 − spread) must stay above 1.05 so every tile shrinks",
            ));
        }
        Ok(())
    }

    fn ratio(&self, format: BcFormat) -> f64 {
        match format {
            BcFormat::Bc1 | BcFormat::Bc4 => self.ratio_bc1,
            BcFormat::Bc2 | BcFormat::Bc3 | BcFormat::Bc5 => self.ratio_bc3,
            BcFormat::Bc6h | BcFormat::Bc7 => self.ratio_bc7,
        }
    }
}

impl ContentModel for SyntheticContent {
    fn stream(&self, texture: u32, format: BcFormat, tile: TileCoord) -> TileStream {
        let h = tile_hash(self.seed, texture, tile);
        let unit = (h >> 11) as f64 / (1u64 << 53) as f64;
        let ratio = self.ratio(format) * (1.0 + self.spread * (2.0 * unit - 1.0));
        let compressed = ((TILE_BYTES as f64 / ratio) as u64).clamp(1, TILE_BYTES - 1);
        let (intermediate, options) = if self.bcpack {
            let inter =
                (((compressed as f64) * (TILE_BYTES as f64)).sqrt() as u64).clamp(compressed + 1, TILE_BYTES - 1);
            (inter, RequestOptions { zlib: true, bcpack_mode: format.bcpack_mode(), swizzle_mode: 0 })
        } else {
            (0, RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 })
        };
        // A synthetic file: every tile its own 64 KiB-aligned slot, so offsets are aligned.
        let offset = (u64::from(texture) << 32)
            + u64::from(tile.mip) * (1 << 28)
            + (u64::from(tile.y) << 14 | u64::from(tile.x)) * TILE_BYTES;
        TileStream {
            compressed: Bytes(compressed),
            intermediate: Bytes(intermediate),
            uncompressed: Bytes(TILE_BYTES),
            options,
            offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_follow_the_format_and_requests_are_valid() {
        let c = SyntheticContent::default();
        let mean = |format| {
            let n = 2000u32;
            let total: u64 = (0..n).map(|i| c.stream(0, format, TileCoord { mip: 0, x: i, y: 0 }).compressed.0).sum();
            TILE_BYTES as f64 / (total as f64 / f64::from(n))
        };
        assert!((mean(BcFormat::Bc1) - 2.0).abs() < 0.05);
        assert!((mean(BcFormat::Bc7) - 1.6).abs() < 0.05);
        let s = c.stream(3, BcFormat::Bc7, TileCoord { mip: 1, x: 2, y: 3 });
        let req = sfsim_models::nvme::Request {
            source: sfsim_models::nvme::Source::File { offset: s.offset },
            source_size: s.compressed,
            intermediate_size: s.intermediate,
            destination_size: s.uncompressed,
            options: s.options,
            fill: false,
        };
        req.validate().unwrap();
        assert_eq!(c.stream(3, BcFormat::Bc7, TileCoord { mip: 1, x: 2, y: 3 }), s, "deterministic");
    }
}
