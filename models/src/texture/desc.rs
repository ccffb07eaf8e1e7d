//! A tiled texture's shape: dimensions, mip chain, which mips are standard-tiled and which form
//! the packed tail, and how many 64 KiB tiles back the whole resource.

use super::error::TextureError;
use super::format::{BcFormat, TILE_BYTES};
use serde::{Deserialize, Serialize};

/// Largest mip-0 width or height, texels (D3D12 `D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION`).
pub const MAX_DIMENSION: u32 = 16_384;

/// A 2D block-compressed tiled texture (one array slice).
///
/// Build it with [`TextureDesc::new`], which validates. The fields are public for reading;
/// a hand-built value that `new` would reject gives unspecified (but never panicking)
/// answers, with `mip_levels` capped at the full chain.
///
/// Deserializing validates like `new`; `mip_levels` may be omitted for the full chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TextureDescSerde")]
pub struct TextureDesc {
    /// Mip-0 width, texels (1..=16384; need not be a multiple of 4).
    pub width: u32,
    /// Mip-0 height, texels (1..=16384; need not be a multiple of 4).
    pub height: u32,
    /// Block-compression format; decides block bytes and the tile shape.
    pub format: BcFormat,
    /// Number of mips, 1..=`full_mip_count(width, height)`.
    pub mip_levels: u32,
}

/// The deserialized form of [`TextureDesc`], validated through `TextureDesc::new`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextureDescSerde {
    width: u32,
    height: u32,
    format: BcFormat,
    #[serde(default)]
    mip_levels: Option<u32>,
}

impl TryFrom<TextureDescSerde> for TextureDesc {
    type Error = TextureError;
    fn try_from(raw: TextureDescSerde) -> Result<Self, TextureError> {
        TextureDesc::new(raw.width, raw.height, raw.format, raw.mip_levels)
    }
}

/// One mip level's size and tiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MipInfo {
    /// Mip index, 0 = most detailed.
    pub level: u32,
    /// Width, texels: `max(1, width >> level)`.
    pub width: u32,
    /// Height, texels: `max(1, height >> level)`.
    pub height: u32,
    /// Storage size rounded up to whole 4x4 blocks, bytes (no tile padding).
    pub bytes: u64,
    /// Standard tiles across, `ceil(width / tile_w)`; 0 for a packed mip.
    pub tiles_x: u32,
    /// Standard tiles down, `ceil(height / tile_h)`; 0 for a packed mip.
    pub tiles_y: u32,
    /// True when this mip lives in the packed tail instead of standard tiles.
    pub packed: bool,
}

impl MipInfo {
    /// Standard tiles of this mip, `tiles_x * tiles_y` (0 when packed).
    pub fn tile_count(&self) -> u32 {
        self.tiles_x.saturating_mul(self.tiles_y)
    }
}

impl TextureDesc {
    /// Validates and builds a texture description.
    ///
    /// `mip_levels: None` means the full chain down to 1x1. Errors when a dimension is 0 or
    /// above [`MAX_DIMENSION`], or when `mip_levels` is 0 or exceeds the full chain.
    /// Dimensions need not be multiples of 4 (as on hardware reporting D3D12
    /// `UnalignedBlockTexturesSupported`); storage is rounded up to whole blocks.
    pub fn new(width: u32, height: u32, format: BcFormat, mip_levels: Option<u32>) -> Result<Self, TextureError> {
        for (axis, value) in [("width", width), ("height", height)] {
            if value == 0 || value > MAX_DIMENSION {
                return Err(TextureError::DimensionOutOfRange { axis, value, max: MAX_DIMENSION });
            }
        }
        let full = Self::full_mip_count(width, height);
        let mip_levels = mip_levels.unwrap_or(full);
        if mip_levels == 0 || mip_levels > full {
            return Err(TextureError::MipLevelsOutOfRange { value: mip_levels, max: full, width, height });
        }
        Ok(TextureDesc { width, height, format, mip_levels })
    }

    /// Mips in the full chain of a `width` x `height` texture down to 1x1:
    /// `floor(log2(max(width, height))) + 1` (0 when both are 0).
    pub fn full_mip_count(width: u32, height: u32) -> u32 {
        u32::BITS - width.max(height).leading_zeros()
    }

    /// Mip count actually used in computations: `mip_levels`, capped at the full chain so a
    /// hand-built value cannot make loops run for billions of levels.
    pub(crate) fn levels(&self) -> u32 {
        self.mip_levels.min(Self::full_mip_count(self.width, self.height))
    }

    /// (width, height) of `level`, texels: each halves, rounding down, never below 1.
    pub fn mip_dims(&self, level: u32) -> (u32, u32) {
        let halve = |d: u32| d.checked_shr(level).unwrap_or(0).max(1);
        (halve(self.width), halve(self.height))
    }

    /// True when `level` is smaller than the standard tile shape in either dimension.
    ///
    /// D3D12 (`D3D12_PACKED_MIP_INFO`): on Tier 2 hardware a mip that fills at least one
    /// standard tile in every dimension is never packed, a mip smaller than the tile in some
    /// dimension *may* be packed. sfsim packs exactly those. Mips only shrink, so every
    /// coarser mip of a packed mip is packed too, as D3D12 requires.
    fn is_packed(&self, level: u32) -> bool {
        let (w, h) = self.mip_dims(level);
        let (tw, th) = self.format.tile_texels();
        w < tw || h < th
    }

    /// Size and tiling of mip `level` (`level < mip_levels`, debug-asserted; a larger level
    /// in release describes a 1x1 packed mip). See [`TextureDesc::try_mip`].
    pub fn mip(&self, level: u32) -> MipInfo {
        debug_assert!(level < self.mip_levels, "mip {level} out of 0..{}", self.mip_levels);
        let (width, height) = self.mip_dims(level);
        let packed = self.is_packed(level);
        let (tw, th) = self.format.tile_texels();
        let (tiles_x, tiles_y) = if packed { (0, 0) } else { (width.div_ceil(tw), height.div_ceil(th)) };
        MipInfo { level, width, height, bytes: self.format.surface_bytes(width, height), tiles_x, tiles_y, packed }
    }

    /// Like [`TextureDesc::mip`] but returns an error for `level >= mip_levels`.
    pub fn try_mip(&self, level: u32) -> Result<MipInfo, TextureError> {
        if level >= self.levels() {
            return Err(TextureError::MipOutOfRange { level, mip_levels: self.levels() });
        }
        Ok(self.mip(level))
    }

    /// All mips, 0 first.
    pub fn mips(&self) -> impl Iterator<Item = MipInfo> + '_ {
        (0..self.levels()).map(move |level| self.mip(level))
    }

    /// First mip of the packed tail; `mip_levels` when nothing is packed. 0 when even mip 0
    /// is smaller than a tile (the whole texture is the tail).
    pub fn first_packed_mip(&self) -> u32 {
        (0..self.levels()).find(|&level| self.is_packed(level)).unwrap_or(self.levels())
    }

    /// Number of standard (non-packed) mips; equal to `first_packed_mip()`.
    pub fn standard_mip_count(&self) -> u32 {
        self.first_packed_mip()
    }

    /// Tiles of all standard mips (the streamable tiles), 64 KiB each.
    pub fn standard_tile_count(&self) -> u32 {
        (0..self.first_packed_mip()).map(|level| self.mip(level).tile_count()).fold(0, u32::saturating_add)
    }

    /// Bytes of the packed tail: the sum of the block-rounded sizes of the packed mips.
    ///
    /// This is sfsim's model. A real driver lays the tail out in a hardware-specific way
    /// that may pad more (D3D12 only reports `NumTilesForPackedMips`), so real tails can
    /// need more tiles than [`TextureDesc::packed_tail_tiles`] says.
    pub fn packed_tail_bytes(&self) -> u64 {
        (self.first_packed_mip()..self.levels()).map(|level| self.mip(level).bytes).fold(0, u64::saturating_add)
    }

    /// Tiles holding the packed tail, `ceil(packed_tail_bytes / 64 KiB)`; 0 with no packed
    /// mips. The tail is mapped all-or-nothing and stays resident.
    pub fn packed_tail_tiles(&self) -> u32 {
        let tiles = self.packed_tail_bytes().div_ceil(TILE_BYTES);
        u32::try_from(tiles).unwrap_or(u32::MAX)
    }

    /// Tiles backing the whole resource: standard tiles + packed-tail tiles (D3D12
    /// `NumTilesForEntireResource` under sfsim's tail model).
    pub fn total_tiles(&self) -> u32 {
        self.standard_tile_count().saturating_add(self.packed_tail_tiles())
    }

    /// Virtual address space the reserved resource spans, bytes: `total_tiles * 64 KiB`.
    pub fn virtual_bytes(&self) -> u64 {
        u64::from(self.total_tiles()) * TILE_BYTES
    }
}
