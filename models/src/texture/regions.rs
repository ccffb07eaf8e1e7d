//! Packing regions: how a texture's BC data is cut into the streams of a packed container
//! (XBTC's `--tilemode` and `--mipstreams`, SPEC §3).
//!
//! The packer lays every mip out one after the other, mip 0 first, into one byte sequence —
//! the *layout*. Each mip is stored either
//! - [`MipLayout::Tiled`]: as its 64 KiB standard tiles, row-major, each tile's blocks
//!   row-major inside it (exactly [`surface_to_tiles`]; edge tiles zero-padded), so a tile
//!   lands in a reserved resource's page as it is, or
//! - [`MipLayout::Linear`]: its blocks row-major, no padding (a linear BC mip).
//!
//! A region is a contiguous byte range of the layout; the regions cover it in order,
//! without gaps. Which mips are tiled and where the ranges are cut depends on the tile mode:
//!
//! | mode | standard mips (≥ one tile in both axes) | packed mips (the tail) | streamable mip `l` | the rest |
//! | --- | --- | --- | --- | --- |
//! | `sfs` | tiled | linear | one region per 64 KiB tile | one always-resident region |
//! | `tile64k` | tiled | linear | one region per mip | one always-resident region |
//! | `mip` | linear | linear | one region per mip | one always-resident region |
//!
//! `mip_streams` = N makes mips `0..N` streamable; mips `N..` (the remaining standard mips and
//! the packed tail) form the always-resident region that is loaded once when the texture is
//! created. N ranges over `0..=first_packed_mip()`: the packed tail can never stream
//! separately (it is mapped all-or-nothing), and N = 0 packs the whole texture as one
//! resident region. The default is every standard mip.
//!
//! A region the MDU could not inflate in one request (more than 32 MiB,
//! [`MAX_ZLIB_OUTPUT`]) is split into pieces of at most 32 MiB, cut between tiles (tiled
//! mips) or between block rows (linear mips). That only happens from 8K textures up (SPEC:
//! "≥ 8K textures can have mips over the 32 MiB limit"); it never changes the worked counts.
//!
//! Worked checks (SPEC §3), 2048² BC7: `sfs` → 85 tiles + 1 resident = 86 streams;
//! `sfs`, N = 1 → 64 + 1 = 65; `tile64k` → mip 0..3 + tail = 5; `tile64k`, N = 2 → mip 0,
//! mip 1, mips 2–11 = 3.
//!
//! [`surface_to_tiles`]: crate::codec::bc::surface_to_tiles
//! [`MAX_ZLIB_OUTPUT`]: crate::nvme::MAX_ZLIB_OUTPUT

use super::desc::TextureDesc;
use super::format::{BcFormat, BLOCK_DIM, TILE_BYTES};
use super::tiles::TileCoord;
use crate::nvme::MAX_ZLIB_OUTPUT;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Largest region, bytes: the MDU's zlib output limit per request (32 MiB).
pub const MAX_REGION_BYTES: u64 = MAX_ZLIB_OUTPUT.0;

/// XBTC's `--tilemode`: how mips are laid out and cut into regions (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TileMode {
    /// Sampler Feedback Streaming: one stream per 64 KiB tile of every streamable mip.
    #[default]
    Sfs,
    /// A plain 64 KiB-tiled texture: one stream per streamable mip, stored as its tiles.
    Tile64k,
    /// Linear mips: one stream per streamable mip, blocks row-major.
    Mip,
}

impl TileMode {
    /// Every mode, in code order.
    pub const ALL: [TileMode; 3] = [TileMode::Sfs, TileMode::Tile64k, TileMode::Mip];

    /// The command-line and file name: `sfs`, `tile64k` or `mip`.
    pub fn name(self) -> &'static str {
        match self {
            TileMode::Sfs => "sfs",
            TileMode::Tile64k => "tile64k",
            TileMode::Mip => "mip",
        }
    }

    /// The container's code for the mode (0, 1, 2).
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The mode with container code `code`, or `None` for an unknown code.
    pub fn from_code(code: u8) -> Option<TileMode> {
        TileMode::ALL.get(usize::from(code)).copied()
    }

    /// True when standard mips are stored as 64 KiB tiles.
    pub fn tiles_standard_mips(self) -> bool {
        self != TileMode::Mip
    }
}

impl fmt::Display for TileMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TileMode {
    type Err = RegionError;
    fn from_str(s: &str) -> Result<Self, RegionError> {
        TileMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| RegionError::UnknownTileMode(s.to_string()))
    }
}

/// Why regions could not be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// A tile-mode name (as written) that is not `sfs`, `tile64k` or `mip`.
    #[error("tile mode `{0}` is unknown; expected sfs, tile64k or mip")]
    UnknownTileMode(String),
    /// `--mipstreams` asks for more streamable mips than the texture has standard mips.
    #[error(
        "mip streams {value} is out of range; expected 0..={max} for a {width}x{height} {format:?} texture \
         ({max} standard mips; the packed tail from mip {max} down cannot stream separately)"
    )]
    MipStreamsOutOfRange {
        /// The mip-stream count asked for.
        value: u32,
        /// The texture's number of standard mips (its first packed mip).
        max: u32,
        /// Mip 0's width, texels.
        width: u32,
        /// Mip 0's height, texels.
        height: u32,
        /// The texture's format.
        format: BcFormat,
    },
}

/// How one mip's blocks sit in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MipLayout {
    /// 64 KiB tiles, row-major; blocks row-major inside each tile; edge tiles zero-padded.
    Tiled,
    /// Blocks row-major over the whole mip, no padding.
    Linear,
}

/// Where one mip lives in the layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MipPlacement {
    /// The mip level (0 = finest).
    pub level: u32,
    /// The mip's width, texels.
    pub width: u32,
    /// The mip's height, texels.
    pub height: u32,
    /// Byte offset of the mip's first byte in the layout.
    pub offset: u64,
    /// Bytes the mip occupies (tile padding included when tiled).
    pub bytes: u64,
    /// Tiled or linear.
    pub layout: MipLayout,
}

impl MipPlacement {
    /// The mip's byte range in the layout, `offset..offset + bytes`.
    pub fn range(&self) -> Range<u64> {
        self.offset..self.offset + self.bytes
    }
}

/// One stream's share of the layout.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Region {
    /// Byte offset in the layout.
    pub offset: u64,
    /// Bytes: the stream's `UncompressedSize` (64 KiB for an SFS tile).
    pub bytes: u64,
    /// The mips the region holds bytes of.
    pub mips: Range<u32>,
    /// The SFS tile this region is (only in `sfs` mode, for streamable mips).
    pub tile: Option<TileCoord>,
    /// Loaded once when the texture is created and never evicted.
    pub resident: bool,
    /// Blocks per row of the region's data, the neighbour geometry BCPack should predict
    /// with: the mip's width in blocks for a region inside one linear mip, the tile's
    /// otherwise.
    pub row_blocks: u32,
}

impl Region {
    /// The region's byte range in the layout, `offset..offset + bytes`.
    pub fn range(&self) -> Range<u64> {
        self.offset..self.offset + self.bytes
    }
}

/// A texture's layout and its regions, for one tile mode and mip-stream count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackRegions {
    /// The texture laid out.
    pub desc: TextureDesc,
    /// The tile mode the regions follow.
    pub mode: TileMode,
    /// Streamable mips (`--mipstreams`), `0..=desc.first_packed_mip()`.
    pub mip_streams: u32,
    /// Every mip, 0 first, in layout order.
    pub mips: Vec<MipPlacement>,
    /// Every region, in layout order; the resident ones last.
    pub regions: Vec<Region>,
}

impl PackRegions {
    /// Lays out `desc` for `mode`; `mip_streams: None` streams every standard mip.
    pub fn new(desc: &TextureDesc, mode: TileMode, mip_streams: Option<u32>) -> Result<PackRegions, RegionError> {
        let max = desc.first_packed_mip();
        let mip_streams = mip_streams.unwrap_or(max);
        if mip_streams > max {
            return Err(RegionError::MipStreamsOutOfRange {
                value: mip_streams,
                max,
                width: desc.width,
                height: desc.height,
                format: desc.format,
            });
        }
        let mips = placements(desc, mode);
        let mut regions = Vec::new();
        for m in &mips[..mip_streams as usize] {
            if mode == TileMode::Sfs {
                let info = desc.mip(m.level);
                for y in 0..info.tiles_y {
                    for x in 0..info.tiles_x {
                        let index = u64::from(y * info.tiles_x + x);
                        regions.push(Region {
                            offset: m.offset + index * TILE_BYTES,
                            bytes: TILE_BYTES,
                            mips: m.level..m.level + 1,
                            tile: Some(TileCoord { mip: m.level, x, y }),
                            resident: false,
                            row_blocks: tile_row_blocks(desc.format),
                        });
                    }
                }
            } else {
                split(desc.format, &mips, std::slice::from_ref(m), false, &mut regions);
            }
        }
        split(desc.format, &mips, &mips[mip_streams as usize..], true, &mut regions);
        Ok(PackRegions { desc: *desc, mode, mip_streams, mips, regions })
    }

    /// Bytes of the whole layout (the sum of every region's bytes).
    pub fn total_bytes(&self) -> u64 {
        self.mips.last().map_or(0, |m| m.offset + m.bytes)
    }

    /// Regions that stream on demand (everything before the resident ones).
    pub fn streamable(&self) -> usize {
        self.regions.iter().filter(|r| !r.resident).count()
    }
}

fn tile_row_blocks(format: BcFormat) -> u32 {
    format.tile_texels().0 / BLOCK_DIM
}

fn placements(desc: &TextureDesc, mode: TileMode) -> Vec<MipPlacement> {
    let mut offset = 0;
    desc.mips()
        .map(|info| {
            let tiled = mode.tiles_standard_mips() && !info.packed;
            let (layout, bytes) = if tiled {
                (MipLayout::Tiled, u64::from(info.tile_count()) * TILE_BYTES)
            } else {
                (MipLayout::Linear, info.bytes)
            };
            let m = MipPlacement { level: info.level, width: info.width, height: info.height, offset, bytes, layout };
            offset += bytes;
            m
        })
        .collect()
}

/// Appends the regions covering `group` (consecutive mips) as one range, cut into pieces of
/// at most [`MAX_REGION_BYTES`] between tiles or block rows.
fn split(format: BcFormat, all: &[MipPlacement], group: &[MipPlacement], resident: bool, out: &mut Vec<Region>) {
    let (Some(first), Some(last)) = (group.first(), group.last()) else { return };
    let end = last.offset + last.bytes;
    // Cut points no piece may straddle: every tile or block-row boundary, in order.
    let mut piece_start = first.offset;
    let mut cut = first.offset;
    let push = |from: u64, to: u64, out: &mut Vec<Region>| {
        let mips = mips_touching(all, from..to);
        let single_linear = mips.len() == 1 && all[mips.start as usize].layout == MipLayout::Linear;
        let row_blocks =
            if single_linear { all[mips.start as usize].width.div_ceil(BLOCK_DIM) } else { tile_row_blocks(format) };
        out.push(Region { offset: from, bytes: to - from, mips, tile: None, resident, row_blocks });
    };
    for m in group {
        let unit = match m.layout {
            MipLayout::Tiled => TILE_BYTES,
            MipLayout::Linear => u64::from(m.width.div_ceil(BLOCK_DIM)) * u64::from(format.block_bytes()),
        };
        let mut at = m.offset;
        while at < m.offset + m.bytes {
            let next = (at + unit).min(m.offset + m.bytes);
            if next - piece_start > MAX_REGION_BYTES {
                push(piece_start, cut, out);
                piece_start = cut;
            }
            cut = next;
            at = next;
        }
    }
    if end > piece_start {
        push(piece_start, end, out);
    }
}

/// The mips whose bytes overlap `range`.
fn mips_touching(all: &[MipPlacement], range: Range<u64>) -> Range<u32> {
    let mut touching = all.iter().filter(|m| m.offset < range.end && range.start < m.offset + m.bytes);
    let first = touching.next().map_or(0, |m| m.level);
    let last = touching.next_back().map_or(first, |m| m.level);
    first..last + 1
}

#[cfg(test)]
#[path = "regions_tests.rs"]
mod tests;
