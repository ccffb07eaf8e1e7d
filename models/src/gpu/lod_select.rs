//! LOD from screen-space derivatives, and mip selection from an LOD (D3D11.3 functional
//! spec §7.18.10–7.18.11).
//!
//! Derivatives here are in texels of mip 0 per pixel: `dx = (du/dx * W, dv/dx * H)` and
//! `dy = (du/dy * W, dv/dy * H)`. The spec's ideal Heckbert orthogonalisation of the
//! derivative pair is skipped, which §7.18.11 explicitly allows; the formulas below are the
//! spec's own pseudo-code.

/// Isotropic LOD, mips: `log2(max(|dx|, |dy|))` (Euclidean lengths). Unclamped: `-inf` for
/// zero derivatives, negative when magnifying.
#[inline]
pub fn isotropic_lod(dx: (f64, f64), dy: (f64, f64)) -> f64 {
    isotropic_length(dx, dy).log2()
}

/// The length whose `log2` is [`isotropic_lod`]: the longer derivative, texels.
#[inline]
pub(crate) fn isotropic_length(dx: (f64, f64), dy: (f64, f64)) -> f64 {
    dx.0.hypot(dx.1).max(dy.0.hypot(dy.1))
}

/// Result of the anisotropic LOD computation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnisoLod {
    /// LOD, mips: `log2` of the minor axis length. Unclamped.
    pub lod: f64,
    /// Ratio of anisotropy, 1..=max_aniso: how many probes the filter spreads along the
    /// major axis (before rounding up to whole probes).
    pub ratio: f64,
    /// The major axis (the longer derivative), texels of mip 0: the line the probes walk
    /// and its full length.
    pub major: (f64, f64),
}

/// Anisotropic LOD per D3D11.3 §7.18.11 with sampler `max_aniso`:
/// major = the longer derivative, minor = |det| / major (area-preserving),
/// `ratio = min(major / minor, max_aniso)`, `LOD = log2(major / ratio)`; when the ratio is
/// clamped the LOD rises so the probes still cover the major axis. When the minor axis is
/// below one texel (magnification) the ratio shrinks to `max(1, ratio * minor)` and the LOD
/// stays negative (the spec's post-2009 recommendation, which keeps LOD bias effective).
#[inline]
pub fn anisotropic_lod(dx: (f64, f64), dy: (f64, f64), max_aniso: u32) -> AnisoLod {
    let (minor, ratio, major) = anisotropic_axes(dx, dy, max_aniso);
    AnisoLod { lod: minor.log2(), ratio, major }
}

/// [`anisotropic_lod`] before the logarithm: (minor axis length, ratio, major axis); the
/// minor axis is 0 for a zero footprint (LOD −∞).
#[inline]
pub(crate) fn anisotropic_axes(dx: (f64, f64), dy: (f64, f64), max_aniso: u32) -> (f64, f64, (f64, f64)) {
    let sq_x = dx.0 * dx.0 + dx.1 * dx.1;
    let sq_y = dy.0 * dy.0 + dy.1 * dy.1;
    let det = (dx.0 * dy.1 - dx.1 * dy.0).abs();
    let (sq_major, major) = if sq_x > sq_y { (sq_x, dx) } else { (sq_y, dy) };
    let len_major = sq_major.sqrt();
    if len_major == 0.0 {
        // No footprint at all: isotropic, LOD -inf (clamped to the finest mip later).
        return (0.0, 1.0, (0.0, 0.0));
    }
    let max_aniso = f64::from(max_aniso);
    let mut ratio = sq_major / det; // +inf for parallel derivatives
    let len_minor = if ratio.is_nan() || ratio > max_aniso {
        // NaN comes from overflowing squares (inf / inf): treat it as "more than allowed".
        ratio = max_aniso;
        len_major / ratio
    } else {
        det / len_major
    };
    if len_minor < 1.0 {
        ratio = (ratio * len_minor).max(1.0);
    }
    (len_minor, ratio, major)
}

/// `lod` truncated to the 8.8 fixed point mip selection uses ("converted to at least 8.8
/// fixed point", §7.18.10), in 1/256 units: `floor(lod * 256)`, saturating (NaN and
/// negative → 0, past `u32::MAX` → `u32::MAX`: a mip far past any texture's last either
/// way, so the selections below come out the same as in a wider type).
#[inline]
fn fixed_8_8_units(lod: f64) -> u32 {
    // Truncation floors the non-negative `lod` without a libm call; a 32-bit saturating
    // conversion costs a few instructions where a 64-bit unsigned one costs a branch.
    (lod * 256.0) as u32
}

/// MIP_POINT selection (§7.18.10): the nearest mip, `floor(lod + 0.5)`, clamped to the
/// texture's last mip. `lod` >= 0.
#[inline]
pub fn nearest_mip(lod: f64, mip_count: u32) -> u32 {
    let last = mip_count.saturating_sub(1);
    // floor(k / 256 + 0.5) of the 8.8 value k, in integers (exact; a huge k saturates to
    // `last` like any other large value).
    let mip = fixed_8_8_units(lod).saturating_add(128) >> 8;
    mip.min(last)
}

/// MIP_LINEAR selection (§7.18.10): `floor(lod)` and, when the fractional weight is
/// non-zero and the texture has it, the next coarser mip. A zero-weight second mip is left
/// out (the spec lets zero-weight reads skip feedback; hardware skips the fetch). `lod` >= 0.
#[inline]
pub fn linear_mips(lod: f64, mip_count: u32) -> (u32, Option<u32>) {
    let last = mip_count.saturating_sub(1);
    // The 8.8 value's integer and fraction parts, in integers (no libm floor).
    let units = fixed_8_8_units(lod);
    let first = (units >> 8).min(last);
    let second = (units & 0xFF != 0 && first < last).then_some(first + 1);
    (first, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The floating-point definitions the integer forms replace.
    fn fixed_8_8(lod: f64) -> f64 {
        ((lod * 256.0) as u64) as f64 / 256.0
    }

    proptest! {
        #[test]
        fn integer_mip_selection_equals_the_floating_point_form(
            lod in prop_oneof![0.0f64..20.0, proptest::num::f64::ANY], mips in 0u32..17,
        ) {
            let last = mips.saturating_sub(1);
            let nearest = ((fixed_8_8(lod) + 0.5).floor() as u32).min(last);
            prop_assert_eq!(nearest_mip(lod, mips), nearest);
            let fixed = fixed_8_8(lod);
            let floor = fixed.floor();
            let first = (floor as u32).min(last);
            let second = (fixed > floor && first < last).then_some(first + 1);
            prop_assert_eq!(linear_mips(lod, mips), (first, second));
        }
    }

    /// Around and past the 32-bit saturation of the 8.8 value, and the non-finite values,
    /// the selections equal the 64-bit form's.
    #[test]
    fn selection_past_the_8_8_range_equals_the_wide_form() {
        let edge = f64::from(u32::MAX) / 256.0;
        let lods =
            [edge - 1.0, edge, edge + 1.0 / 256.0, edge + 1.0, 2f64.powi(40), 1e300, f64::INFINITY, f64::NAN, -1.0];
        for lod in lods {
            for mips in [0u32, 1, 2, 15, 16] {
                let last = mips.saturating_sub(1);
                let fixed = ((lod * 256.0) as u64) as f64 / 256.0;
                let nearest = ((fixed + 0.5).floor() as u32).min(last);
                assert_eq!(nearest_mip(lod, mips), nearest, "nearest, lod {lod}, {mips} mips");
                let first = (fixed.floor() as u32).min(last);
                let second = (fixed > fixed.floor() && first < last).then_some(first + 1);
                assert_eq!(linear_mips(lod, mips), (first, second), "linear, lod {lod}, {mips} mips");
            }
        }
    }

    #[test]
    fn isotropic_uses_the_longer_derivative() {
        assert_eq!(isotropic_lod((4.0, 0.0), (0.0, 4.0)), 2.0);
        assert_eq!(isotropic_lod((3.0, 4.0), (0.0, 1.0)), 5f64.log2());
        assert_eq!(isotropic_lod((16.0, 0.0), (0.0, 4.0)), 4.0);
        assert_eq!(isotropic_lod((0.0, 0.0), (0.0, 0.0)), f64::NEG_INFINITY);
        assert_eq!(isotropic_lod((0.5, 0.0), (0.0, 0.5)), -1.0);
    }

    #[test]
    fn anisotropic_takes_the_minor_axis() {
        // 4:1 footprint, max 16: LOD of the minor axis (4 texels) = 2, ratio 4.
        let a = anisotropic_lod((16.0, 0.0), (0.0, 4.0), 16);
        assert_eq!((a.lod, a.ratio, a.major), (2.0, 4.0, (16.0, 0.0)));
        // Rotated 45°: same lengths, same answer.
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let a = anisotropic_lod((16.0 * s, 16.0 * s), (-4.0 * s, 4.0 * s), 16);
        assert!((a.lod - 2.0).abs() < 1e-12 && (a.ratio - 4.0).abs() < 1e-12);
    }

    #[test]
    fn clamped_ratio_raises_the_lod() {
        // 64:1 with max 16: ratio 16, minor taken as 64 / 16 = 4 texels -> LOD 2 (not 0).
        let a = anisotropic_lod((0.0, 64.0), (1.0, 0.0), 16);
        assert_eq!((a.lod, a.ratio, a.major), (2.0, 16.0, (0.0, 64.0)));
        // max_aniso 1 degenerates to the major axis: LOD log2(64) = 6.
        assert_eq!(anisotropic_lod((0.0, 64.0), (1.0, 0.0), 1).lod, 6.0);
        // Parallel derivatives (det 0): ratio clamps.
        let a = anisotropic_lod((8.0, 0.0), (4.0, 0.0), 4);
        assert_eq!((a.lod, a.ratio), (1.0, 4.0));
    }

    #[test]
    fn magnification_shrinks_the_ratio_and_keeps_negative_lod() {
        // Minor 0.5 texel, major 2: ratio 4 * 0.5 = 2, LOD -1.
        let a = anisotropic_lod((2.0, 0.0), (0.0, 0.5), 16);
        assert_eq!((a.lod, a.ratio), (-1.0, 2.0));
        let a = anisotropic_lod((0.0, 0.0), (0.0, 0.0), 16);
        assert_eq!((a.lod, a.ratio), (f64::NEG_INFINITY, 1.0));
    }

    #[test]
    fn mip_selection() {
        assert_eq!(nearest_mip(1.49, 11), 1);
        assert_eq!(nearest_mip(1.5, 11), 2);
        assert_eq!(nearest_mip(30.0, 11), 10);
        assert_eq!(linear_mips(2.0, 11), (2, None));
        assert_eq!(linear_mips(2.25, 11), (2, Some(3)));
        assert_eq!(linear_mips(2.001, 11), (2, None)); // below 1/256: weight 0 in 8.8
        assert_eq!(linear_mips(9.5, 11), (9, Some(10)));
        assert_eq!(linear_mips(10.0, 11), (10, None));
        assert_eq!(linear_mips(12.7, 11), (10, None));
    }
}
