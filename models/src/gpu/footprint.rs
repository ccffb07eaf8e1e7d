//! The texels a filter reads: taps as texel rectangles at one mip each.
//!
//! Texel selection follows D3D11.3 §7.18.7 (point: `floor(u * W)`) and §7.18.8 (linear:
//! `floor(u * W - 0.5)` and the texel after it), with the CLAMP address mode of §7.18.9
//! (out-of-range texel indices clamp to the edge). Other address modes are not modelled;
//! callers wanting WRAP reduce `uv` to 0..1 first (which differs from hardware only for the
//! taps that straddle the seam).

use super::limits::mip_dim;
use serde::{Deserialize, Serialize};

/// One tap: the inclusive texel rectangle `x0..=x1` x `y0..=y1` of mip `mip`.
///
/// Coordinates are texels of that mip (mip `mip` is `max(1, W >> mip)` wide).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Tap {
    /// Mip level read.
    pub mip: u32,
    /// First column, texels of `mip`.
    pub x0: u32,
    /// Last column (inclusive), texels of `mip`.
    pub x1: u32,
    /// First row, texels of `mip`.
    pub y0: u32,
    /// Last row (inclusive), texels of `mip`.
    pub y1: u32,
}

/// Every tap a filter reads for one sample, sorted and without duplicates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Footprint {
    /// The taps, sorted by (mip, x0, x1, y0, y1).
    pub taps: Vec<Tap>,
}

impl Footprint {
    /// Builds a footprint from taps in any order, sorting and dropping duplicates (several
    /// anisotropic probes often land on the same 2x2 quad).
    pub fn from_taps(mut taps: Vec<Tap>) -> Footprint {
        taps.sort_unstable();
        taps.dedup();
        Footprint { taps }
    }

    /// The distinct mips read, ascending.
    pub fn mips(&self) -> Vec<u32> {
        let mut mips: Vec<u32> = self.taps.iter().map(|t| t.mip).collect();
        mips.dedup(); // taps are sorted by mip first
        mips
    }

    /// Whether no tap is present.
    pub fn is_empty(&self) -> bool {
        self.taps.is_empty()
    }
}

/// Texel index of continuous texel coordinate `s` on an axis of `n` texels, CLAMP-addressed.
#[inline]
pub(crate) fn clamp_texel(s: f64, n: u32) -> u32 {
    clamp_texel_to(s, n - 1)
}

/// [`clamp_texel`] with the last texel's index, `last`, worked out already.
///
/// The saturating cast does the clamp at 0: negative values and NaN cast to 0, and
/// truncation floors the non-negative values left, so `floor(s)` clamped to `0..=last`
/// costs no libm `floor` call. Values past `last` cast to at least `last` (it is whole;
/// past `u32::MAX` the cast saturates), so the integer `min` clamps them.
#[inline(always)]
pub(crate) fn clamp_texel_to(s: f64, last: u32) -> u32 {
    (s as u32).min(last)
}

/// The single texel nearest `uv` at `mip` (point sampling, D3D11.3 §7.18.7).
pub(crate) fn point_tap(uv: (f64, f64), mip: u32, tex_w: u32, tex_h: u32) -> Tap {
    let (w, h) = (mip_dim(tex_w, mip), mip_dim(tex_h, mip));
    let x = clamp_texel(uv.0 * f64::from(w), w);
    let y = clamp_texel(uv.1 * f64::from(h), h);
    Tap { mip, x0: x, x1: x, y0: y, y1: y }
}

/// The 2x2 quad linear filtering reads around `uv` at `mip` (D3D11.3 §7.18.8), CLAMP-
/// addressed so the quad shrinks to one texel column/row at an edge. Zero-weight texels are
/// included: the spec allows zero-weight reads to write feedback, and sfsim chooses the
/// conservative side.
pub(crate) fn bilinear_tap(uv: (f64, f64), mip: u32, tex_w: u32, tex_h: u32) -> Tap {
    let (w, h) = (mip_dim(tex_w, mip), mip_dim(tex_h, mip));
    let sx = uv.0 * f64::from(w) - 0.5;
    let sy = uv.1 * f64::from(h) - 0.5;
    Tap {
        mip,
        x0: clamp_texel(sx, w),
        x1: clamp_texel(sx + 1.0, w),
        y0: clamp_texel(sy, h),
        y1: clamp_texel(sy + 1.0, h),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_picks_the_containing_texel() {
        let t = point_tap((0.5, 0.25), 0, 8, 8);
        assert_eq!((t.x0, t.x1, t.y0, t.y1), (4, 4, 2, 2));
        let t = point_tap((0.999, 0.0), 1, 8, 8);
        assert_eq!((t.x0, t.y0), (3, 0));
        let t = point_tap((1.5, -3.0), 0, 8, 8); // CLAMP
        assert_eq!((t.x0, t.y0), (7, 0));
    }

    #[test]
    fn bilinear_reads_the_quad_around_the_sample() {
        // Texel centres are at half-units: u * 8 = 4.2 sits between texels 3 and 4.
        let t = bilinear_tap((4.2 / 8.0, 4.7 / 8.0), 0, 8, 8);
        assert_eq!((t.x0, t.x1, t.y0, t.y1), (3, 4, 4, 5));
        // At the edges CLAMP folds the outside texel onto the edge one.
        let t = bilinear_tap((0.0, 1.0), 0, 8, 8);
        assert_eq!((t.x0, t.x1, t.y0, t.y1), (0, 0, 7, 7));
        let t = bilinear_tap((0.5, 0.5), 3, 8, 8); // 1x1 mip
        assert_eq!((t.x0, t.x1, t.y0, t.y1), (0, 0, 0, 0));
    }

    proptest::proptest! {
        #[test]
        fn clamp_texel_floors_then_clamps(
            s in proptest::prop_oneof![proptest::num::f64::ANY, -2.0f64..20_002.0, 4.29e9f64..4.3e9],
            n in proptest::prop_oneof![1u32..20_000, (u32::MAX - 2)..=u32::MAX],
        ) {
            let by_floor = s.floor().clamp(0.0, f64::from(n - 1)) as u32;
            proptest::prop_assert_eq!(clamp_texel(s, n), by_floor);
        }
    }

    #[test]
    fn footprint_sorts_and_dedups() {
        let a = Tap { mip: 1, x0: 0, x1: 1, y0: 0, y1: 1 };
        let b = Tap { mip: 0, ..a };
        let f = Footprint::from_taps(vec![a, b, a]);
        assert_eq!(f.taps, vec![b, a]);
        assert_eq!(f.mips(), vec![0, 1]);
        assert!(!f.is_empty());
    }
}
