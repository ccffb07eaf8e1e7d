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
#[path = "minmip_filter_tests.rs"]
mod tests;
