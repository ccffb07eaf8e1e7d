//! Tests of `minmip_filter.rs`.

use super::*;
use proptest::prelude::*;

fn filter(su: u8, sv: u8, ou: u8, ov: u8) -> MinMipFilter {
    MinMipFilter {
        slope_u: Slope::from_index(su).unwrap(),
        slope_v: Slope::from_index(sv).unwrap(),
        offset_u: Offset::from_index(ou).unwrap(),
        offset_v: Offset::from_index(ov).unwrap(),
    }
}

/// DESIGN.md's formula with the literal 3x3 neighbourhood, kept to show why it was
/// widened.
fn clamp_3x3(map: &MinMipMap, f: &MinMipFilter, u: f64, v: f64) -> f32 {
    let (px, py) = map.position(u, v).unwrap();
    let (cx, cy) = map.containing(px, py);
    let mut best = f64::NEG_INFINITY;
    for ty in cy.saturating_sub(1)..=(cy + 1).min(map.height() - 1) {
        for tx in cx.saturating_sub(1)..=(cx + 1).min(map.width() - 1) {
            best = best.max(f.term(map.value(tx, ty), tx, ty, px, py));
        }
    }
    best as f32
}

/// The formula over every texel of the map: what the ring walk must equal.
fn clamp_brute(map: &MinMipMap, f: &MinMipFilter, u: f64, v: f64) -> f32 {
    let (px, py) = map.position(u, v).unwrap();
    let mut best = f64::NEG_INFINITY;
    for ty in 0..map.height() {
        for tx in 0..map.width() {
            best = best.max(f.term(map.value(tx, ty), tx, ty, px, py));
        }
    }
    best as f32
}

/// The formula over the radius from [`MinMipFilter::neighbourhood_radius`].
fn clamp_radius(map: &MinMipMap, f: &MinMipFilter, u: f64, v: f64) -> f32 {
    let (px, py) = map.position(u, v).unwrap();
    let (cx, cy) = map.containing(px, py);
    let range = map.max_value().lod() - map.value(cx, cy) as f32;
    let (ru, rv) = f.neighbourhood_radius(range);
    let mut best = f64::NEG_INFINITY;
    for ty in cy.saturating_sub(rv)..=(cy + rv).min(map.height() - 1) {
        for tx in cx.saturating_sub(ru)..=(cx + ru).min(map.width() - 1) {
            best = best.max(f.term(map.value(tx, ty), tx, ty, px, py));
        }
    }
    best as f32
}

#[test]
fn enums_follow_the_hardware_tables() {
    let slopes: Vec<f64> = Slope::ALL.iter().map(|s| s.value()).collect();
    assert_eq!(slopes, [2.5, 3.0, 4.0, 5.0, 8.0, 16.0, 32.0, 64.0]);
    let offsets: Vec<f64> = Offset::ALL.iter().map(|o| o.value()).collect();
    assert_eq!(offsets, [0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]);
    for i in 0..8 {
        assert_eq!(Slope::from_index(i).unwrap().index(), i);
    }
    for i in 0..6 {
        assert_eq!(Offset::from_index(i).unwrap().index(), i);
    }
    assert_eq!(Slope::from_index(8), None);
    assert_eq!(Offset::from_index(6), None);
}

#[test]
fn three_by_three_is_discontinuous() {
    // Mips 0, 0, 15 in a row; slope 2.5, offset 1/4.
    let map = MinMipMap::from_values(3, 1, vec![0, 0, 120]).unwrap();
    let f = filter(0, 0, 0, 0);
    let (left, right) = (0.999 / 3.0, 1.001 / 3.0);
    let jump = clamp_3x3(&map, &f, right, 0.5) - clamp_3x3(&map, &f, left, 0.5);
    assert!(jump > 13.0, "3x3 jump {jump}");
    let a = map.clamp_filtered(&f, left, 0.5).unwrap();
    let b = map.clamp_filtered(&f, right, 0.5).unwrap();
    assert!((a - b).abs() <= 2.5 * 0.002 + 1e-5, "{a} vs {b}");
    // 15 - 2.5 * (1.001 - 0.25) at p.x = 0.999.
    assert!((a - 13.1225).abs() < 1e-4, "{a}");
}

#[test]
fn ramp_shape_next_to_a_coarser_neighbour() {
    // Mip 0 next to mip 4, offset 1/4 along U.
    let map = MinMipMap::from_values(2, 1, vec![0, 32]).unwrap();
    let slope_4 = filter(2, 2, 0, 0);
    let at = |f: &MinMipFilter, x: f64| map.clamp_filtered(f, x / 2.0, 0.5).unwrap();
    assert_eq!(at(&slope_4, 1.5), 4.0); // inside the coarse texel
    assert_eq!(at(&slope_4, 0.8), 4.0); // within the offset of the border
    assert_eq!(at(&slope_4, 0.5), 3.0); // 4 - 4 * (0.5 - 0.25)
    assert!((at(&slope_4, 0.1) - 1.4).abs() < 1e-6); // 4 - 4 * (0.9 - 0.25)
                                                     // A steeper slope falls to m_c, which then wins.
    let slope_16 = filter(5, 5, 0, 0);
    assert_eq!(at(&slope_16, 0.5), 0.0);
    assert_eq!(at(&slope_16, 0.76), 4.0);
    assert_eq!(map.clamp_point(0.8 / 2.0, 0.5), Some(0.0));
}

#[test]
fn uniform_map_is_flat_and_non_finite_is_none() {
    let map = MinMipMap::new(5, 3, crate::gpu::Lod53(20)).unwrap();
    let f = filter(7, 0, 5, 0);
    assert_eq!(map.clamp_filtered(&f, 0.37, 0.91), Some(2.5));
    assert_eq!(map.clamp_filtered(&f, 3.0, -2.0), Some(2.5));
    assert_eq!(map.clamp_filtered(&f, f64::NAN, 0.0), None);
}

#[test]
fn radius_formula() {
    let f = filter(0, 4, 0, 5);
    // U: ceil(15 / 2.5 + 0.25) = 7; V: ceil(15 / 8 + 1/128) = 2.
    assert_eq!(f.neighbourhood_radius(15.0), (7, 2));
    assert_eq!(f.neighbourhood_radius(0.0), (1, 1));
    assert_eq!(f.neighbourhood_radius(31.875), (13, 4));
    assert_eq!(f.neighbourhood_radius(f32::INFINITY), (13, 4));
    assert_eq!(f.neighbourhood_radius(f32::NAN), (1, 1));
}

fn arb_filter() -> impl Strategy<Value = MinMipFilter> {
    (0u8..8, 0u8..8, 0u8..6, 0u8..6).prop_map(|(a, b, c, d)| filter(a, b, c, d))
}

/// A map of up to 12x12 texels with any 5.3 values (`whole`: whole mips 0..=15 only).
fn arb_map(whole: bool) -> impl Strategy<Value = MinMipMap> {
    (1u32..=12, 1u32..=12).prop_flat_map(move |(w, h)| {
        let n = (w * h) as usize;
        let values = if whole {
            proptest::collection::vec((0u8..=15).prop_map(|m| m * 8), n).boxed()
        } else {
            proptest::collection::vec(any::<u8>(), n).boxed()
        };
        values.prop_map(move |v| MinMipMap::from_values(w, h, v).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The ring walk computes exactly the formula over the whole map, and over the
    /// documented radius.
    #[test]
    fn ring_walk_equals_whole_map_maximum(
        map in arb_map(false), f in arb_filter(), u in -0.1f64..1.1, v in -0.1f64..1.1,
    ) {
        let fast = map.clamp_filtered(&f, u, v).unwrap();
        prop_assert_eq!(fast, clamp_brute(&map, &f, u, v));
        prop_assert_eq!(fast, clamp_radius(&map, &f, u, v));
    }

    /// (a) Continuity across a border: points on either side of a vertical or
    /// horizontal texel border within epsilon differ by at most the slope times the
    /// distance (plus f32 rounding).
    #[test]
    fn continuous_across_borders(
        map in arb_map(false), f in arb_filter(),
        vertical in any::<bool>(), border_pick in 0u32..1000, along in 0.0f64..1.0,
        d1 in 0.0f64..1e-3, d2 in 0.0f64..1e-3, drift in -1e-3f64..1e-3,
    ) {
        let (w, h) = (f64::from(map.width()), f64::from(map.height()));
        let n = if vertical { map.width() } else { map.height() };
        prop_assume!(n >= 2);
        let border = f64::from(1 + border_pick % (n - 1));
        // p and q in MinMip texels, on either side of the border.
        let (p, q) = if vertical {
            ((border - d1, along * h), (border + d2, along * h + drift))
        } else {
            ((along * w, border - d1), (along * w + drift, border + d2))
        };
        let cp = map.clamp_filtered(&f, p.0 / w, p.1 / h).unwrap();
        let cq = map.clamp_filtered(&f, q.0 / w, q.1 / h).unwrap();
        let bound = (f.slope_u.value() * (p.0 - q.0).abs())
            .max(f.slope_v.value() * (p.1 - q.1).abs());
        prop_assert!(
            f64::from((cp - cq).abs()) <= bound + 1e-4,
            "clamp {} vs {} across border {} (bound {})", cp, cq, border, bound
        );
    }

    /// (a') The stronger statement behind it: Lipschitz everywhere, not only at
    /// borders.
    #[test]
    fn lipschitz_everywhere(
        map in arb_map(false), f in arb_filter(),
        u in 0.0f64..1.0, v in 0.0f64..1.0, du in -0.2f64..0.2, dv in -0.2f64..0.2,
    ) {
        let (w, h) = (f64::from(map.width()), f64::from(map.height()));
        let (u2, v2) = ((u + du).clamp(0.0, 1.0), (v + dv).clamp(0.0, 1.0));
        let a = map.clamp_filtered(&f, u, v).unwrap();
        let b = map.clamp_filtered(&f, u2, v2).unwrap();
        let bound = (f.slope_u.value() * (u - u2).abs() * w)
            .max(f.slope_v.value() * (v - v2).abs() * h);
        prop_assert!(f64::from((a - b).abs()) <= bound + 1e-4, "{} vs {}", a, b);
    }

    /// (b) Never below the sample's own texel: clamp(p) >= m_c = the point clamp.
    #[test]
    fn at_least_own_texel(
        map in arb_map(false), f in arb_filter(), u in -0.1f64..1.1, v in -0.1f64..1.1,
    ) {
        let filtered = map.clamp_filtered(&f, u, v).unwrap();
        let point = map.clamp_point(u, v).unwrap();
        prop_assert!(filtered >= point, "{} < {}", filtered, point);
    }

    /// (c) Safety: with whole-mip values, a footprint of radius r <= offset (per axis,
    /// MinMip texels) around p, sampled at any LOD >= clamp(p), only touches texels t
    /// with m_t <= floor(LOD): every tile it reads is resident.
    #[test]
    fn small_footprints_only_touch_resident_tiles(
        map in arb_map(true), f in arb_filter(),
        u in 0.0f64..=1.0, v in 0.0f64..=1.0,
        shrink_u in 0.0f64..0.999, shrink_v in 0.0f64..0.999, extra_lod in 0.0f32..3.0,
    ) {
        let (w, h) = (f64::from(map.width()), f64::from(map.height()));
        let (px, py) = (u * w, v * h);
        // Radius strictly inside the offset so float rounding cannot decide the case.
        let ru = f.offset_u.value() * shrink_u;
        let rv = f.offset_v.value() * shrink_v;
        let lod = map.clamp_filtered(&f, u, v).unwrap() + extra_lod;
        let mip = lod.floor() as u32;
        // Texels whose square meets the box [p - r, p + r], clipped to the map.
        for ty in 0..map.height() {
            for tx in 0..map.width() {
                let meets_x = f64::from(tx) <= px + ru && f64::from(tx + 1) >= px - ru;
                let meets_y = f64::from(ty) <= py + rv && f64::from(ty + 1) >= py - rv;
                if meets_x && meets_y {
                    let m_t = map.get(tx, ty).unwrap().mip();
                    prop_assert!(
                        m_t <= mip,
                        "texel ({}, {}) needs mip {} but LOD {} reads mip {}",
                        tx, ty, m_t, lod, mip
                    );
                }
            }
        }
    }

    /// The 3x3 rule also satisfies (b) and (c); only continuity needed the wider
    /// neighbourhood, and the widening never lowers the clamp.
    #[test]
    fn widening_only_raises_the_clamp(
        map in arb_map(false), f in arb_filter(), u in 0.0f64..1.0, v in 0.0f64..1.0,
    ) {
        prop_assert!(map.clamp_filtered(&f, u, v).unwrap() >= clamp_3x3(&map, &f, u, v));
    }
}
