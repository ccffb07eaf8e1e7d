//! Golden numbers (SPEC §3–4, D3D12 Sampler Feedback spec examples) and error cases.

use super::*;

const MIB: u64 = 1 << 20;

fn tex(w: u32, h: u32, f: BcFormat) -> TextureDesc {
    TextureDesc::new(w, h, f, None).unwrap()
}

#[test]
fn golden_2048_bc7_is_86_tiles() {
    let t = tex(2048, 2048, BcFormat::Bc7);
    assert_eq!(t.mip_levels, 12);
    assert_eq!(t.mip(0).bytes, 4 * MIB);
    let tiles: Vec<u32> = (0..4).map(|l| t.mip(l).tile_count()).collect();
    assert_eq!(tiles, vec![64, 16, 4, 1]);
    assert_eq!(t.first_packed_mip(), 4);
    assert!(t.mip(4).packed && !t.mip(3).packed);
    assert_eq!(t.standard_tile_count(), 85);
    assert_eq!(t.packed_tail_tiles(), 1);
    assert_eq!(t.total_tiles(), 86);
    assert_eq!(t.virtual_bytes(), 86 * TILE_BYTES);
    // 128² + 64² + .. + 4² in 16-byte blocks, then 2² and 1² still one block each.
    assert_eq!(t.packed_tail_bytes(), 16_384 + 4_096 + 1_024 + 256 + 64 + 16 + 16 + 16);
}

#[test]
fn golden_map_sizes() {
    assert_eq!(tex(8192, 8192, BcFormat::Bc1).min_mip_map_dims(), (16, 32));
    let t = tex(4096, 4096, BcFormat::Bc1);
    assert_eq!(t.feedback_map_dims((512, 256)), Ok((8, 16)));
    assert_eq!(t.tile_mip_region(), Ok((512, 256)));
    assert_eq!(t.min_mip_map_dims(), (8, 16));
}

/// BC7 is 1 byte per texel (16 B per 4x4 block), so 8192² mip 0 is 64 MiB = 1024 tiles —
/// 16x the 4 MiB of 2048², and over the 32 MiB zlib-stream limit (SPEC §3: "≥ 8K textures
/// can have mips over the 32 MiB limit"). 128 MiB = 2048 tiles is 16384x8192.
#[test]
fn golden_8k_bc7_mip0_sizes() {
    let m = tex(8192, 8192, BcFormat::Bc7).mip(0);
    assert_eq!(m.bytes, 64 * MIB);
    assert_eq!(m.tile_count(), 1024);
    assert!(m.bytes > 32 * MIB);
    let m = tex(16_384, 8192, BcFormat::Bc7).mip(0);
    assert_eq!(m.bytes, 128 * MIB);
    assert_eq!(m.tile_count(), 2048);
    // 8192² BC1 is exactly at the limit: 32 MiB = 512 tiles of 512x256.
    let m = tex(8192, 8192, BcFormat::Bc1).mip(0);
    assert_eq!((m.bytes, m.tile_count()), (32 * MIB, 512));
}

#[test]
fn partial_chain_has_no_tail() {
    let t = TextureDesc::new(2048, 2048, BcFormat::Bc7, Some(2)).unwrap();
    assert_eq!(t.first_packed_mip(), 2);
    assert_eq!(t.packed_tail_tiles(), 0);
    assert_eq!(t.total_tiles(), 80);
}

#[test]
fn thin_texture_is_all_tail() {
    // Height 128 < 256: even mip 0 is packed. Tail bytes summed by hand: 699 408 → 11 tiles.
    let t = tex(4096, 128, BcFormat::Bc7);
    assert_eq!(t.first_packed_mip(), 0);
    assert_eq!(t.standard_tile_count(), 0);
    assert_eq!(t.packed_tail_bytes(), 699_408);
    assert_eq!(t.total_tiles(), 11);
    assert_eq!(t.tiles().count(), 0);
}

#[test]
fn non_power_of_two_rounds_tiles_up() {
    let t = tex(1000, 600, BcFormat::Bc1);
    assert_eq!((t.mip(0).tiles_x, t.mip(0).tiles_y), (2, 3));
    assert_eq!(t.first_packed_mip(), 1); // mip 1 is 500 wide < 512
    assert_eq!(t.min_mip_map_dims(), (2, 3));
}

#[test]
fn sampler_feedback_spec_examples() {
    let t = tex(32, 32, BcFormat::Bc7);
    for r in [4, 8, 16] {
        assert!(t.feedback_map_dims((r, r)).is_ok(), "{r}");
    }
    assert!(t.feedback_map_dims((16, 8)).is_ok());
    assert!(t.feedback_map_dims((32, 32)).is_err());
    let t = tex(100, 100, BcFormat::Bc7);
    assert_eq!(t.feedback_map_dims((32, 32)), Ok((4, 4)));
    assert!(t.feedback_map_dims((64, 64)).is_err());
    // 15x15 with a 4x4 region decodes to a 4x4 map.
    assert_eq!(tex(15, 15, BcFormat::Bc7).feedback_map_dims((4, 4)), Ok((4, 4)));
    // Mip 0 one tile across: the tile-sized region is too big, so it is halved.
    assert_eq!(tex(256, 256, BcFormat::Bc7).tile_mip_region(), Ok((128, 128)));
}

#[test]
fn min_mip_rect_of_pow2_tiles() {
    let t = tex(2048, 2048, BcFormat::Bc7);
    assert_eq!(t.min_mip_rect(TileCoord { mip: 0, x: 3, y: 5 }), (3..4, 5..6));
    assert_eq!(t.min_mip_rect(TileCoord { mip: 1, x: 1, y: 0 }), (2..4, 0..2));
    assert_eq!(t.min_mip_rect(TileCoord { mip: 3, x: 0, y: 0 }), (0..8, 0..8));
}

#[test]
fn dimension_errors() {
    for (w, h, axis, value) in
        [(0, 64, "width", 0), (64, 0, "height", 0), (16_385, 64, "width", 16_385), (64, u32::MAX, "height", u32::MAX)]
    {
        let e = TextureDesc::new(w, h, BcFormat::Bc1, None).unwrap_err();
        assert_eq!(e, TextureError::DimensionOutOfRange { axis, value, max: 16_384 });
        let msg = e.to_string();
        assert!(msg.contains(&value.to_string()) && msg.contains("1..=16384"), "{msg}");
    }
}

#[test]
fn mip_level_errors() {
    for n in [0, 13, u32::MAX] {
        let e = TextureDesc::new(2048, 2048, BcFormat::Bc7, Some(n)).unwrap_err();
        assert!(matches!(e, TextureError::MipLevelsOutOfRange { value, max: 12, .. } if value == n));
        assert!(e.to_string().contains("1..=12"), "{e}");
    }
    assert!(TextureDesc::new(2048, 2048, BcFormat::Bc7, Some(12)).is_ok());
}

#[test]
fn region_errors() {
    let t = tex(4096, 4096, BcFormat::Bc1);
    let e = t.feedback_map_dims((3, 256)).unwrap_err();
    assert!(matches!(e, TextureError::MipRegionNotPowerOfTwo { value: 3, max: 2048, .. }));
    assert!(e.to_string().contains("width 3"), "{e}");
    assert!(matches!(
        t.feedback_map_dims((512, 0)),
        Err(TextureError::MipRegionNotPowerOfTwo { axis: "height", value: 0, .. })
    ));
    let e = t.feedback_map_dims((2, 256)).unwrap_err();
    assert!(matches!(e, TextureError::MipRegionOutOfRange { value: 2, max: 2048, .. }));
    assert!(e.to_string().contains("4..=2048"), "{e}");
    let e = t.feedback_map_dims((512, 4096)).unwrap_err();
    assert!(matches!(e, TextureError::MipRegionOutOfRange { axis: "height", value: 4096, .. }));
    let small = tex(6, 64, BcFormat::Bc7);
    let e = small.feedback_map_dims((4, 4)).unwrap_err();
    assert!(matches!(e, TextureError::FeedbackUnsupported { axis: "width", texture: 6, .. }));
    assert!(e.to_string().contains("width 6"), "{e}");
    assert_eq!(small.tile_mip_region(), Err(e));
}

#[test]
fn checked_accessor_errors() {
    let t = tex(2048, 2048, BcFormat::Bc7);
    assert_eq!(t.try_mip(12), Err(TextureError::MipOutOfRange { level: 12, mip_levels: 12 }));
    let e = t.try_tile_at(4, 0.5, 0.5).unwrap_err();
    assert!(matches!(e, TextureError::TileOutOfRange { mip: 4, first_packed_mip: 4, .. }));
    let e = t.try_tile_index(TileCoord { mip: 1, x: 4, y: 0 }).unwrap_err();
    assert!(e.to_string().contains("x < 4"), "{e}");
    assert_eq!(t.try_tile_from_index(85), Err(TextureError::TileIndexOutOfRange { index: 85, count: 85 }));
    assert_eq!(t.try_tile_from_index(84), Ok(TileCoord { mip: 3, x: 0, y: 0 }));
    assert_eq!(t.try_tile_at(0, 1.0, f64::NAN), Ok(TileCoord { mip: 0, x: 7, y: 0 }));
}

/// Fields are public, so a caller can build a value `new` would reject; answers are then
/// unspecified but nothing may panic, overflow or loop for billions of mips.
#[test]
fn hand_built_invalid_desc_does_not_panic() {
    for (width, height, mip_levels) in [(u32::MAX, 0, u32::MAX), (u32::MAX, u32::MAX, 0), (0, 0, 7)] {
        let t = TextureDesc { width, height, format: BcFormat::Bc7, mip_levels };
        let _ = (
            t.total_tiles(),
            t.virtual_bytes(),
            t.packed_tail_bytes(),
            t.min_mip_map_dims(),
            t.feedback_map_dims((4, 4)),
            t.tile_mip_region(),
            t.try_mip(3),
            t.try_tile_from_index(0),
            t.mips().count(),
        );
    }
}

#[test]
fn deserialize_validates() {
    use serde::de::value::{Error, MapDeserializer};
    use serde::Deserialize;
    let de = |w: u32| {
        let fields = [("width", w), ("height", 1024), ("format", 6)];
        TextureDesc::deserialize(MapDeserializer::<_, Error>::new(fields.into_iter()))
    };
    assert_eq!(de(2048).unwrap(), tex(2048, 1024, BcFormat::Bc7));
    let e = de(0).unwrap_err().to_string();
    assert!(e.contains("width 0") && e.contains("1..=16384"), "{e}");
}

#[test]
fn tile_grid_indexes_like_the_descriptor() {
    for desc in [tex(8192, 8192, BcFormat::Bc1), tex(2048, 1024, BcFormat::Bc7), tex(1000, 3000, BcFormat::Bc5)] {
        let grid = TileGrid::new(&desc);
        assert_eq!(grid.first_packed_mip(), desc.first_packed_mip());
        for (i, t) in desc.tiles().enumerate() {
            assert_eq!(grid.tile_index(t), i as u32, "{desc:?} {t:?}");
            assert_eq!(grid.tile_from_index(i as u32), t, "{desc:?} {i}");
            let m = desc.mip(t.mip);
            assert_eq!(grid.tiles(t.mip), (m.tiles_x, m.tiles_y));
        }
        assert_eq!(grid.tiles(desc.first_packed_mip()), (0, 0));
    }
}
