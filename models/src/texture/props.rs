//! Property tests over random dimensions, formats and mip counts.

use super::*;
use proptest::prelude::*;

fn any_desc() -> impl Strategy<Value = TextureDesc> {
    (1..=MAX_DIMENSION, 1..=MAX_DIMENSION, 0..7usize, any::<bool>(), 0..16u32).prop_map(|(w, h, f, full, cut)| {
        let full_count = TextureDesc::full_mip_count(w, h);
        let mips = if full { None } else { Some(full_count.saturating_sub(cut).max(1)) };
        TextureDesc::new(w, h, BcFormat::all()[f], mips).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn tile_counts_add_up(t in any_desc()) {
        prop_assert_eq!(t.total_tiles(), t.standard_tile_count() + t.packed_tail_tiles());
        prop_assert_eq!(t.tiles().count() as u32, t.standard_tile_count());
        prop_assert_eq!(t.packed_tail_tiles() == 0, t.first_packed_mip() == t.mip_levels);
    }

    #[test]
    fn mip_bytes_and_tiles_are_consistent(t in any_desc()) {
        let total: u64 = t.mips().map(|m| m.bytes).sum();
        let standard: u64 = t.mips().filter(|m| !m.packed).map(|m| m.bytes).sum();
        prop_assert_eq!(total, standard + t.packed_tail_bytes());
        for m in t.mips() {
            prop_assert_eq!(m.bytes, t.format.surface_bytes(m.width, m.height));
            prop_assert_eq!(m.packed, m.level >= t.first_packed_mip());
            if !m.packed {
                prop_assert!(m.bytes <= u64::from(m.tile_count()) * TILE_BYTES);
            }
        }
    }

    #[test]
    fn tile_index_round_trips(t in any_desc()) {
        for (i, tile) in t.tiles().enumerate() {
            prop_assert_eq!(t.tile_index(tile), i as u32);
            prop_assert_eq!(t.tile_from_index(i as u32), tile);
        }
    }

    #[test]
    fn tile_at_is_inside_the_mip(t in any_desc(), u in -0.5..1.5f64, v in -0.5..1.5f64, m in 0..15u32) {
        prop_assume!(t.first_packed_mip() > 0);
        let mip = m % t.first_packed_mip();
        let tile = t.tile_at(mip, u, v);
        prop_assert!(t.contains_tile(tile), "{:?}", tile);
    }

    #[test]
    fn min_mip_rects_cover_the_map(t in any_desc()) {
        let (mw, mh) = t.min_mip_map_dims();
        for tile in t.tiles() {
            let (xs, ys) = t.min_mip_rect(tile);
            prop_assert!(!xs.is_empty() && !ys.is_empty() && xs.end <= mw && ys.end <= mh);
            if tile.x == 0 && tile.y == 0 { prop_assert!(xs.start == 0 && ys.start == 0); }
        }
    }
}
