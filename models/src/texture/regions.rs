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
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn regions(w: u32, h: u32, f: BcFormat, mode: TileMode, n: Option<u32>) -> PackRegions {
        PackRegions::new(&TextureDesc::new(w, h, f, None).unwrap(), mode, n).unwrap()
    }

    #[test]
    fn golden_stream_counts_for_2048_bc7() {
        let sfs = regions(2048, 2048, BcFormat::Bc7, TileMode::Sfs, None);
        assert_eq!(sfs.regions.len(), 86);
        assert_eq!(sfs.streamable(), 85);
        assert_eq!(sfs.regions[0].tile, Some(TileCoord { mip: 0, x: 0, y: 0 }));
        assert_eq!(sfs.regions[84].tile, Some(TileCoord { mip: 3, x: 0, y: 0 }));
        let tail = &sfs.regions[85];
        assert!(tail.resident && tail.tile.is_none() && tail.mips == (4..12));
        assert_eq!(tail.bytes, sfs.desc.packed_tail_bytes());

        let one = regions(2048, 2048, BcFormat::Bc7, TileMode::Sfs, Some(1));
        assert_eq!((one.regions.len(), one.streamable()), (65, 64));
        let resident = one.regions.last().unwrap();
        assert_eq!(resident.mips, 1..12);
        assert_eq!(resident.bytes, (16 + 4 + 1) * TILE_BYTES + one.desc.packed_tail_bytes());

        let t64 = regions(2048, 2048, BcFormat::Bc7, TileMode::Tile64k, None);
        let mips: Vec<Range<u32>> = t64.regions.iter().map(|r| r.mips.clone()).collect();
        assert_eq!(mips, vec![0..1, 1..2, 2..3, 3..4, 4..12]);
        assert_eq!(t64.regions[0].bytes, 4 << 20);

        let two = regions(2048, 2048, BcFormat::Bc7, TileMode::Tile64k, Some(2));
        let mips: Vec<Range<u32>> = two.regions.iter().map(|r| r.mips.clone()).collect();
        assert_eq!(mips, vec![0..1, 1..2, 2..12]);
        assert_eq!(two.regions.iter().map(|r| r.resident).collect::<Vec<_>>(), vec![false, false, true]);
    }

    #[test]
    fn mip_mode_is_linear_and_unpadded() {
        // 1000x600 BC1: mip 0 is 250x150 blocks = 300 000 B linear, 2x3 tiles = 384 KiB tiled.
        let lin = regions(1000, 600, BcFormat::Bc1, TileMode::Mip, None);
        assert_eq!(lin.mips[0].bytes, 300_000);
        assert_eq!(lin.regions[0].row_blocks, 250);
        assert_eq!(lin.total_bytes(), lin.desc.mips().map(|m| m.bytes).sum::<u64>());
        let tiled = regions(1000, 600, BcFormat::Bc1, TileMode::Tile64k, None);
        assert_eq!(tiled.mips[0].bytes, 6 * TILE_BYTES);
        assert_eq!(tiled.regions.len(), 2);
        assert_eq!(tiled.regions[0].row_blocks, 128);
    }

    #[test]
    fn mip_streams_range_is_checked() {
        let desc = TextureDesc::new(2048, 2048, BcFormat::Bc7, None).unwrap();
        let e = PackRegions::new(&desc, TileMode::Sfs, Some(5)).unwrap_err();
        assert!(matches!(e, RegionError::MipStreamsOutOfRange { value: 5, max: 4, .. }));
        assert!(e.to_string().contains("expected 0..=4"), "{e}");
        let all = PackRegions::new(&desc, TileMode::Sfs, Some(0)).unwrap();
        assert_eq!(all.regions.len(), 1);
        assert!(all.regions[0].resident && all.regions[0].mips == (0..12));
        // A texture that is all tail has no streamable mip.
        let thin = TextureDesc::new(4096, 128, BcFormat::Bc7, None).unwrap();
        assert_eq!(PackRegions::new(&thin, TileMode::Sfs, None).unwrap().regions.len(), 1);
        assert!(PackRegions::new(&thin, TileMode::Sfs, Some(1)).is_err());
    }

    #[test]
    fn big_regions_split_at_32_mib_between_tiles_or_rows() {
        // 8192² BC7 mip 0 is 64 MiB: two 32 MiB pieces in tile64k and mip modes; in sfs with one
        // streamable mip, the 16 MiB + 4 MiB + .. resident rest fits in one.
        for mode in [TileMode::Tile64k, TileMode::Mip] {
            let r = regions(8192, 8192, BcFormat::Bc7, mode, Some(1));
            assert_eq!(r.regions.len(), 3, "{mode}");
            assert!(r.regions.iter().all(|r| r.bytes <= MAX_REGION_BYTES));
            assert_eq!(r.regions[0].bytes, 32 << 20);
        }
        let r = regions(16384, 16384, BcFormat::Bc7, TileMode::Sfs, Some(1));
        // Resident: mip 1 (64 MiB) + mip 2 (16) + .. > 32 MiB, so it is cut between tiles.
        let resident: Vec<&Region> = r.regions.iter().filter(|r| r.resident).collect();
        assert_eq!(resident.len(), 3);
        assert!(resident.iter().all(|r| r.bytes <= MAX_REGION_BYTES));
        assert!(resident[..2].iter().all(|r| r.bytes % TILE_BYTES == 0 && r.mips.end < 15));
        assert_eq!(resident[2].mips.end, 15);
        // An odd width cuts between block rows: 16380 BC7 wide is 4095 blocks = 65 520 B a row.
        let odd = regions(16380, 4096, BcFormat::Bc7, TileMode::Mip, Some(1));
        assert_eq!(odd.regions[0].bytes % 65_520, 0);
        assert!(odd.regions[0].bytes <= MAX_REGION_BYTES);
    }

    #[test]
    fn tile_mode_names_round_trip() {
        for m in TileMode::ALL {
            assert_eq!(m.name().parse::<TileMode>(), Ok(m));
            assert_eq!(TileMode::from_code(m.code()), Some(m));
        }
        assert_eq!(TileMode::from_code(3), None);
        let e = "tiled".parse::<TileMode>().unwrap_err();
        assert!(e.to_string().contains("expected sfs, tile64k or mip"), "{e}");
    }

    fn any_case() -> impl Strategy<Value = (TextureDesc, TileMode, u32)> {
        (1u32..=16_384, 1u32..=16_384, 0usize..7, 0usize..3, 0u32..16).prop_map(|(w, h, f, m, n)| {
            let desc = TextureDesc::new(w, h, BcFormat::all()[f], None).unwrap();
            let n = n % (desc.first_packed_mip() + 1);
            (desc, TileMode::ALL[m], n)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Regions tile the layout exactly, in order, none over 32 MiB; streamable regions
        /// hold exactly mips 0..N; SFS regions are the standard tiles of those mips.
        #[test]
        fn regions_cover_the_layout((desc, mode, n) in any_case()) {
            let r = PackRegions::new(&desc, mode, Some(n)).unwrap();
            let mut at = 0;
            for region in &r.regions {
                prop_assert_eq!(region.offset, at);
                prop_assert!(region.bytes > 0 && region.bytes <= MAX_REGION_BYTES);
                prop_assert!(!region.mips.is_empty());
                prop_assert_eq!(region.resident, region.mips.end > n);
                prop_assert!(region.row_blocks >= 1 && region.row_blocks <= 4096);
                at += region.bytes;
            }
            prop_assert_eq!(at, r.total_bytes());
            let standard = r.desc.mips().map(|m| if m.packed || mode == TileMode::Mip {
                m.bytes
            } else {
                u64::from(m.tile_count()) * TILE_BYTES
            });
            prop_assert_eq!(r.total_bytes(), standard.sum::<u64>());
            if mode == TileMode::Sfs {
                let tiles: Vec<TileCoord> = r.regions.iter().filter_map(|r| r.tile).collect();
                let expected: Vec<TileCoord> = desc.tiles().filter(|t| t.mip < n).collect();
                prop_assert_eq!(tiles, expected);
            } else {
                prop_assert!(r.regions.iter().filter(|r| !r.resident).all(|r| r.mips.len() == 1));
            }
        }
    }
}
