//! Where a tile's bytes come from: its compressed size and request options. Until packed
//! containers exist, a seeded synthetic model of per-format compression ratios (SPEC §3:
//! BC1 ≈ 2:1, BC7 ≈ 1.6:1), or real containers ([`PackedContent`](super::PackedContent)).
//! The engine only sees the [`ContentModel`] trait; a scenario picks one with
//! `content: Synthetic((…))` or `content: Packed((containers: [...], verify: Sample))`.

use serde::{Deserialize, Serialize};
use sfsim_models::nvme::{RequestOptions, STREAM_ALIGNMENT};
use sfsim_models::texture::{BcFormat, TextureDesc, TileCoord, TILE_BYTES};
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
    /// Where tiles sit in the synthetic files (PerTexture).
    pub layout: FileLayout,
}

impl Default for SyntheticContent {
    fn default() -> Self {
        SyntheticContent {
            ratio_bc1: 2.0,
            ratio_bc3: 1.8,
            ratio_bc7: 1.6,
            spread: 0.15,
            bcpack: true,
            seed: 1,
            layout: FileLayout::PerTexture,
        }
    }
}

/// How synthetic tiles are laid out in their files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileLayout {
    /// Each texture in its own file, every tile in its own 64 KiB-aligned slot (XBTC's
    /// one container per texture): a set's tiles are three reads at the drive.
    PerTexture,
    /// A texture set (textures 3s, 3s+1, 3s+2) in one file, its three tiles at one
    /// position back to back (16-byte aligned), as `sfsim pack --set` lays them out: a
    /// set's tiles submitted together are one read at the drive (`merge_adjacent`).
    SetInterleaved,
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

    /// The content model for a scene's textures (their formats and tile shapes place a
    /// set's tiles).
    pub fn files(&self, textures: &[TextureDesc]) -> SyntheticFiles {
        SyntheticFiles { model: *self, descs: textures.to_vec() }
    }

    fn compressed(&self, texture: u32, format: BcFormat, tile: TileCoord) -> u64 {
        let h = tile_hash(self.seed, texture, tile);
        let unit = (h >> 11) as f64 / (1u64 << 53) as f64;
        let ratio = self.ratio(format) * (1.0 + self.spread * (2.0 * unit - 1.0));
        ((TILE_BYTES as f64 / ratio) as u64).clamp(1, TILE_BYTES - 1)
    }
}

/// [`SyntheticContent`] over a scene's textures: the [`ContentModel`] a scenario's
/// `content: Synthetic((…))` builds.
#[derive(Debug, Clone)]
pub struct SyntheticFiles {
    model: SyntheticContent,
    descs: Vec<TextureDesc>,
}

/// A synthetic file's slot for a tile position: 64 KiB per texture for a tile (room for
/// the set's tiles at one diffuse position with `SetInterleaved`), mips 256 MiB apart,
/// files 4 GiB apart.
fn slot(file: u32, tile: TileCoord, per_slot: u64) -> u64 {
    (u64::from(file) << 32) + u64::from(tile.mip) * (1 << 28) + (u64::from(tile.y) << 14 | u64::from(tile.x)) * per_slot
}

/// Tiles at one diffuse position with `SetInterleaved`: the diffuse tile and up to two
/// companions of each other texture (tile shapes differ by at most 2× in width).
const SET_SLOT_TILES: u64 = 5;

impl SyntheticFiles {
    fn compressed(&self, texture: u32, tile: TileCoord) -> u64 {
        let format = self.descs.get(texture as usize).map_or(BcFormat::Bc7, |d| d.format);
        self.model.compressed(texture, format, tile)
    }

    /// `SetInterleaved`: the diffuse tile of each position, then the other textures'
    /// tiles covering it that no earlier diffuse tile (in (mip, y, x) order) covers, back
    /// to back. A tile no diffuse tile covers (the diffuse's packed tail) sits in the
    /// file's upper half in its own slot.
    fn set_offset(&self, texture: u32, tile: TileCoord) -> u64 {
        let set = texture / 3;
        let first = set * 3;
        let (Some(diffuse), Some(own)) = (self.descs.get(first as usize), self.descs.get(texture as usize)) else {
            return slot(set, tile, SET_SLOT_TILES * TILE_BYTES);
        };
        let anchor = if texture == first {
            Some(tile)
        } else {
            super::analysis::companion_tiles(own, tile, diffuse).into_iter().min_by_key(|c| (c.mip, c.y, c.x))
        };
        let Some(anchor) = anchor else {
            return slot(set, tile, TILE_BYTES) + (1 << 31);
        };
        let mut offset = slot(set, anchor, SET_SLOT_TILES * TILE_BYTES);
        if texture == first {
            return offset;
        }
        offset += self.compressed(first, anchor).next_multiple_of(STREAM_ALIGNMENT);
        let members = (first + 1..first + 3).filter(|&t| (t as usize) < self.descs.len());
        for t in members {
            let desc = &self.descs[t as usize];
            for c in super::analysis::companion_tiles(diffuse, anchor, desc) {
                let placed_earlier = super::analysis::companion_tiles(desc, c, diffuse)
                    .into_iter()
                    .any(|d| (d.mip, d.y, d.x) < (anchor.mip, anchor.y, anchor.x));
                if placed_earlier {
                    continue;
                }
                if (t, c) == (texture, tile) {
                    return offset;
                }
                offset += self.compressed(t, c).next_multiple_of(STREAM_ALIGNMENT);
            }
        }
        offset
    }
}

impl ContentModel for SyntheticFiles {
    fn stream(&self, texture: u32, format: BcFormat, tile: TileCoord) -> TileStream {
        let m = &self.model;
        let compressed = m.compressed(texture, format, tile);
        let (intermediate, options) = if m.bcpack {
            let inter =
                (((compressed as f64) * (TILE_BYTES as f64)).sqrt() as u64).clamp(compressed + 1, TILE_BYTES - 1);
            (inter, RequestOptions { zlib: true, bcpack_mode: format.bcpack_mode(), swizzle_mode: 0 })
        } else {
            (0, RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 })
        };
        let offset = match m.layout {
            FileLayout::PerTexture => slot(texture, tile, TILE_BYTES),
            FileLayout::SetInterleaved => self.set_offset(texture, tile),
        };
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
        let c = SyntheticContent::default().files(&[]);
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

    #[test]
    fn set_interleaved_places_a_sets_tiles_back_to_back() {
        let descs: Vec<TextureDesc> = [BcFormat::Bc7, BcFormat::Bc5, BcFormat::Bc6h]
            .iter()
            .map(|&f| TextureDesc::new(1024, 1024, f, None).unwrap())
            .collect();
        let model = SyntheticContent { layout: FileLayout::SetInterleaved, ..SyntheticContent::default() };
        let files = model.files(&descs);
        let tile = TileCoord { mip: 1, x: 1, y: 0 };
        let s: Vec<TileStream> = (0..3).map(|t| files.stream(t, descs[t as usize].format, tile)).collect();
        for k in 1..3 {
            assert_eq!(s[k].offset, (s[k - 1].offset + s[k - 1].compressed.0).next_multiple_of(16), "kind {k}");
        }
        assert_eq!(s[0].offset % 16, 0);
        // Sizes do not depend on the layout; the next position's slot starts after the set.
        let per_texture = SyntheticContent::default().files(&descs);
        assert_eq!(per_texture.stream(1, BcFormat::Bc5, tile).compressed, s[1].compressed);
        let next = files.stream(0, BcFormat::Bc7, TileCoord { mip: 1, x: 2, y: 0 });
        assert_eq!(next.offset, s[0].offset + SET_SLOT_TILES * TILE_BYTES);
        assert!(s[2].offset + s[2].compressed.0 <= next.offset);
    }

    #[test]
    fn set_interleaved_follows_the_diffuse_tile_when_shapes_differ() {
        // BC1 diffuse tiles are 512×256 texels, BC5 normal tiles 256×256: two normal tiles
        // follow each diffuse tile, then the BC1 specular tile.
        let descs: Vec<TextureDesc> = [BcFormat::Bc1, BcFormat::Bc5, BcFormat::Bc1]
            .iter()
            .map(|&f| TextureDesc::new(4096, 4096, f, None).unwrap())
            .collect();
        let files =
            SyntheticContent { layout: FileLayout::SetInterleaved, ..SyntheticContent::default() }.files(&descs);
        let at = |t: u32, x, y| files.stream(t, descs[t as usize].format, TileCoord { mip: 0, x, y });
        let order = [at(0, 3, 2), at(1, 6, 2), at(1, 7, 2), at(2, 3, 2)];
        for w in order.windows(2) {
            assert_eq!(w[1].offset, (w[0].offset + w[0].compressed.0).next_multiple_of(16));
        }
    }
}
