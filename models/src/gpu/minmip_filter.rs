//! The MinMip filter: a clamp that is continuous across MinMip texel borders and never lets
//! a small footprint reach a non-resident tile.
//!
//! SPEC §4: the filter is a sampler flag with a slope and an offset per axis; the hardware
//! filter is not public. DESIGN.md defines it, for a sample at continuous MinMip-map
//! position p (texels) inside texel c:
//!
//! ```text
//! clamp(p) = max over t of  m_t - max(S_u * max(0, dx_t(p) - O_u), S_v * max(0, dy_t(p) - O_v))
//! ```
//!
//! with `dx_t`, `dy_t` the distances from p to texel t's square (0 inside it), m in mips.
//!
//! **Change from DESIGN.md: the neighbourhood.** DESIGN.md takes t over c's 3x3
//! neighbourhood. That is not continuous in general: when p crosses from c into its right
//! neighbour, the column two to the right of c joins the neighbourhood with
//! `dx = 1`, i.e. a term `m_t - S_u * (1 - O_u)`, which exceeds every other term whenever
//! `m_t - m_c > S_u * (1 - O_u)` (1.875 mips for slope 2.5 and offset 1/4). Example: mips
//! `[0, 0, 15]` in a row jump from 0 to 13.125 at the first border (test
//! `three_by_three_is_discontinuous`). sfsim keeps the formula and widens the
//! neighbourhood to radius `R = ceil(D / S + O)` texels per axis, `D` = the map's largest
//! value minus m_c ([`MinMipFilter::neighbourhood_radius`]): a texel k > R texels away is at
//! least `k - 1 >= R` away from p, so its term is at most `m_t - S * (R - O) <= m_c` and
//! cannot win. The clamp therefore equals the maximum over the *whole map*, a maximum of
//! finitely many continuous functions: continuous, and Lipschitz with
//! `|clamp(p) - clamp(q)| <= max(S_u |px - qx|, S_v |py - qy|)`. The implementation walks
//! rings outward from c and stops as soon as no further ring can raise the maximum.
//!
//! The other properties hold for every neighbourhood containing c and its 8 neighbours:
//! `clamp(p) >= m_c` (c's own term is m_c), and any texel within `O_u` / `O_v` of p
//! contributes its full m_t, so a footprint of that radius sampled at LOD >= clamp(p) with
//! whole-mip MinMip values only reads mips >= every touched m_t, i.e. resident tiles.

use super::lod::Lod53;
use super::minmip::MinMipMap;
use serde::{Deserialize, Serialize};

/// MinMip filter slope, mips per MinMip texel (hardware enum 0–7, SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slope {
    /// 2.5 mips per texel (enum 0).
    TwoAndHalf,
    /// 3 mips per texel (enum 1).
    Three,
    /// 4 mips per texel (enum 2).
    Four,
    /// 5 mips per texel (enum 3).
    Five,
    /// 8 mips per texel (enum 4).
    Eight,
    /// 16 mips per texel (enum 5).
    Sixteen,
    /// 32 mips per texel (enum 6).
    ThirtyTwo,
    /// 64 mips per texel (enum 7).
    SixtyFour,
}

impl Slope {
    /// Every slope in enum order.
    pub const ALL: [Slope; 8] = [
        Slope::TwoAndHalf,
        Slope::Three,
        Slope::Four,
        Slope::Five,
        Slope::Eight,
        Slope::Sixteen,
        Slope::ThirtyTwo,
        Slope::SixtyFour,
    ];

    /// The slope with hardware enum value `index`; `None` above 7.
    pub fn from_index(index: u8) -> Option<Slope> {
        Self::ALL.get(usize::from(index)).copied()
    }

    /// Hardware enum value, 0–7.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// Mips per MinMip texel.
    pub fn value(self) -> f64 {
        match self {
            Slope::TwoAndHalf => 2.5,
            Slope::Three => 3.0,
            Slope::Four => 4.0,
            Slope::Five => 5.0,
            Slope::Eight => 8.0,
            Slope::Sixteen => 16.0,
            Slope::ThirtyTwo => 32.0,
            Slope::SixtyFour => 64.0,
        }
    }
}

/// MinMip filter offset, MinMip texels (hardware enum 0–5, SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Offset {
    /// 1/4 texel (enum 0).
    Quarter,
    /// 1/8 texel (enum 1).
    Eighth,
    /// 1/16 texel (enum 2).
    Sixteenth,
    /// 1/32 texel (enum 3).
    ThirtySecond,
    /// 1/64 texel (enum 4).
    SixtyFourth,
    /// 1/128 texel (enum 5).
    OneTwentyEighth,
}

impl Offset {
    /// Every offset in enum order.
    pub const ALL: [Offset; 6] = [
        Offset::Quarter,
        Offset::Eighth,
        Offset::Sixteenth,
        Offset::ThirtySecond,
        Offset::SixtyFourth,
        Offset::OneTwentyEighth,
    ];

    /// The offset with hardware enum value `index`; `None` above 5.
    pub fn from_index(index: u8) -> Option<Offset> {
        Self::ALL.get(usize::from(index)).copied()
    }

    /// Hardware enum value, 0–5.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// MinMip texels: 1/4 for enum 0, halving per step down to 1/128.
    pub fn value(self) -> f64 {
        0.25 / f64::from(1u32 << self.index())
    }
}

/// MinMip filter settings: a slope and an offset per axis (U, and V-or-W).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinMipFilter {
    /// Ramp slope along U, mips per MinMip texel.
    pub slope_u: Slope,
    /// Ramp slope along V, mips per MinMip texel.
    pub slope_v: Slope,
    /// Distance along U over which a neighbour's full value holds, MinMip texels.
    pub offset_u: Offset,
    /// Distance along V over which a neighbour's full value holds, MinMip texels.
    pub offset_v: Offset,
}

impl MinMipFilter {
    /// Neighbourhood radius (texels along U, along V) that continuity needs when values
    /// exceed the sample's own texel by at most `value_range` mips: `ceil(D / S + O)` per
    /// axis, at least 1 (DESIGN.md's 3x3). `value_range` is taken within 0..=31.875 (the
    /// 5.3 range; NaN as 0). Informational: [`MinMipMap::clamp_filtered`] finds the same
    /// maximum by walking rings until none can change it.
    pub fn neighbourhood_radius(&self, value_range: f32) -> (u32, u32) {
        // f32::max/min drop NaN, unlike clamp.
        let range = f64::from(value_range.max(0.0).min(Lod53::NONE.lod()));
        let radius = |s: Slope, o: Offset| {
            let r = (range / s.value() + o.value()).ceil();
            // value_range <= 31.875 in 5.3, so r <= 13 and the cast is exact.
            (r as u32).max(1)
        };
        (radius(self.slope_u, self.offset_u), radius(self.slope_v, self.offset_v))
    }

    /// Texel t's term of the clamp at position (`px`, `py`): `m_t` minus the ramp, mips.
    pub(crate) fn term(&self, m_t: f64, tx: u32, ty: u32, px: f64, py: f64) -> f64 {
        let dx = distance_to_span(px, tx);
        let dy = distance_to_span(py, ty);
        let ramp_u = self.slope_u.value() * (dx - self.offset_u.value()).max(0.0);
        let ramp_v = self.slope_v.value() * (dy - self.offset_v.value()).max(0.0);
        m_t - ramp_u.max(ramp_v)
    }
}

/// Distance from coordinate `p` to the texel span `[t, t + 1]`, 0 inside it.
fn distance_to_span(p: f64, t: u32) -> f64 {
    let lo = f64::from(t);
    (lo - p).max(p - (lo + 1.0)).max(0.0)
}

impl MinMipMap {
    /// Filtered clamp, mips, at normalized (`u`, `v`): DESIGN.md's formula over the
    /// neighbourhood widened as the module docs explain. Always `>=` the point-sampled
    /// clamp, and continuous in (u, v).
    ///
    /// Coordinates outside 0..=1 are clamped to the map's edge (CLAMP addressing, as for
    /// [`MinMipMap::clamp_point`]). `None` for a NaN or infinite coordinate.
    pub fn clamp_filtered(&self, filter: &MinMipFilter, u: f64, v: f64) -> Option<f32> {
        let (px, py) = self.position(u, v)?;
        let (cx, cy) = self.containing(px, py);
        let upper = f64::from(self.max_value().lod());
        // c's own term: p lies in c, so both distances are 0.
        let mut best = self.value(cx, cy);
        let last_ring = cx.max(self.width() - 1 - cx).max(cy).max(self.height() - 1 - cy);
        for k in 1..=last_ring {
            // Every texel of ring k is k columns or k rows from c, hence at least k - 1
            // texels from p along that axis: its ramp is at least `least_ramp`.
            let gap = f64::from(k - 1);
            let ramp = |s: Slope, o: Offset| s.value() * (gap - o.value()).max(0.0);
            let least_ramp = ramp(filter.slope_u, filter.offset_u).min(ramp(filter.slope_v, filter.offset_v));
            if upper - least_ramp <= best {
                break; // nothing from here outwards can raise the maximum
            }
            self.for_ring(cx, cy, k, |tx, ty| {
                best = best.max(filter.term(self.value(tx, ty), tx, ty, px, py));
            });
        }
        Some(best as f32)
    }

    /// Calls `f` on every in-map texel at Chebyshev distance exactly `k >= 1` from
    /// (`cx`, `cy`).
    fn for_ring(&self, cx: u32, cy: u32, k: u32, mut f: impl FnMut(u32, u32)) {
        let (cx, cy, k) = (i64::from(cx), i64::from(cy), i64::from(k));
        let (w, h) = (i64::from(self.width()), i64::from(self.height()));
        let inside = |x: i64, y: i64| (0..w).contains(&x) && (0..h).contains(&y);
        for y in cy - k..=cy + k {
            let edge_row = y == cy - k || y == cy + k;
            let step = if edge_row { 1 } else { (2 * k) as usize };
            for x in (cx - k..=cx + k).step_by(step) {
                if inside(x, y) {
                    // `inside` bounds both to 0..16384, so the casts are exact.
                    f(x as u32, y as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}
