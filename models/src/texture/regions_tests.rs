//! Tests of `regions.rs`.

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
