//! The 5.3 fixed-point value of a LOD straight from the length whose `log2` it is, the way
//! a sampler's hardware does it: the binary exponent gives the whole mips and the mantissa,
//! compared against the eighth-mip thresholds 2^(j/8), the fraction. It is exactly
//! [`Lod53::from_lod`] of the `f32` LOD the floating-point path computes: a mantissa so
//! close to a threshold that rounding could decide it goes through that path instead.

use super::Lod53;

/// 2^(j/8) for j = 1..=7: a mantissa in [1, 2) at or above entry j - 1 has at least j
/// eighths of a mip in its `log2`.
const EIGHTHS: [f64; 7] = [
    1.090_507_732_665_257_7,
    1.189_207_115_002_721,
    1.296_839_554_651_009_6,
    std::f64::consts::SQRT_2,
    1.542_210_825_407_940_8,
    1.681_792_830_507_429,
    1.834_008_086_409_342_4,
];

/// 1, the thresholds, 2: the bounds of each eighth's mantissas.
const BOUNDS: [f64; 9] = [1.0, EIGHTHS[0], EIGHTHS[1], EIGHTHS[2], EIGHTHS[3], EIGHTHS[4], EIGHTHS[5], EIGHTHS[6], 2.0];

/// Per sixteenth of the mantissas [1, 2) (the mantissa's top four bits): how many
/// thresholds lie below it, and the threshold inside it (2.0 when none). The thresholds
/// are more than 1/16 apart, so a sixteenth holds at most one, and a mantissa's count of
/// thresholds at or below it is its sixteenth's count plus one comparison.
const SIXTEENTHS: [(usize, f64); 16] = {
    let mut table = [(0, 2.0); 16];
    let mut k = 0;
    while k < 16 {
        let (lo, hi) = (1.0 + k as f64 / 16.0, 1.0 + (k + 1) as f64 / 16.0);
        let mut j = 0;
        while j < EIGHTHS.len() {
            if EIGHTHS[j] < lo {
                table[k].0 += 1;
            } else if EIGHTHS[j] < hi {
                table[k].1 = EIGHTHS[j];
            }
            j += 1;
        }
        k += 1;
    }
    table
};

/// How close (relative) a mantissa may come to a threshold, 1 or 2 before the fast answer
/// is not trusted: 2e-5 in the mantissa is ~3e-5 mips, far more than the `f32` rounding of
/// a LOD below 16 mips (~1e-6) and the `log2` error (~1e-16) can move it.
const MARGIN: f64 = 2e-5;

/// `Lod53::from_lod(length.log2().min(max_lod).max(0.0) as f32)` — the recorded desired LOD
/// of a sampler without LOD bias, `length` being the filter's minor axis (anisotropic) or
/// longer derivative (isotropic) in mip-0 texels. `max_lod` is the last mip, below 31.
#[inline]
pub fn lod53_of_length(length: f64, max_lod: f64) -> Lod53 {
    let exact = || Lod53::from_lod(length.log2().min(max_lod).max(0.0) as f32);
    if !(length > 1.0 && length < 2f64.powi(30)) {
        // Magnification (0), NaN (0) and the far end: the floating-point path.
        return exact();
    }
    // length = m · 2^e with m in [1, 2): a normal number above 1, so the exponent field is
    // e + 1023 and the mantissa field m's fraction.
    let bits = length.to_bits();
    let e = ((bits >> 52) as i32 - 1023) as u32;
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    // Counted without branches (neighbouring samples' mantissas are unrelated): the
    // thresholds below the mantissa's sixteenth, and the one inside it.
    let (below_sixteenth, inside) = SIXTEENTHS[(bits >> 48) as usize & 15];
    let eighths = below_sixteenth + usize::from(m >= inside);
    let (below, above) = (BOUNDS[eighths], BOUNDS[eighths + 1]);
    if m < below * (1.0 + MARGIN) || m > above * (1.0 - MARGIN) {
        return exact();
    }
    // log2(length) lies strictly inside (e + j/8, e + (j+1)/8): the LOD's value is
    // 8e + j, or the last mip's when the LOD reaches it.
    let value = 8 * e + eighths as u32;
    if f64::from(value) >= max_lod * 8.0 {
        return exact();
    }
    Lod53(value as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reference(length: f64, max_lod: f64) -> Lod53 {
        Lod53::from_lod(length.log2().min(max_lod).max(0.0) as f32)
    }

    #[test]
    fn thresholds_are_the_eighth_mips() {
        for (j, t) in EIGHTHS.iter().enumerate() {
            assert!((t.log2() - (j + 1) as f64 / 8.0).abs() < 1e-15, "{j}");
        }
    }

    /// The sixteenths' counts give every mantissa the count of thresholds at or below it:
    /// the thresholds themselves, their neighbouring doubles, the sixteenths' edges and a
    /// fine sweep of [1, 2).
    #[test]
    fn sixteenths_count_the_thresholds() {
        let count = |m: f64| EIGHTHS.iter().filter(|&&t| m >= t).count();
        let by_table = |m: f64| {
            let (below, inside) = SIXTEENTHS[(m.to_bits() >> 48) as usize & 15];
            below + usize::from(m >= inside)
        };
        let near = |x: f64| [f64::from_bits(x.to_bits() - 1), x, f64::from_bits(x.to_bits() + 1)];
        let edges = (0..16).map(|k| 1.0 + f64::from(k) / 16.0);
        let sweep = (0..100_000).map(|i| 1.0 + f64::from(i) / 100_000.0);
        for m in EIGHTHS.iter().copied().chain(edges).flat_map(near).filter(|m| (1.0..2.0).contains(m)).chain(sweep) {
            assert_eq!(by_table(m), count(m), "mantissa {m}");
        }
        assert_eq!(SIXTEENTHS.iter().filter(|(_, t)| *t < 2.0).count(), 7, "every threshold in one sixteenth");
    }

    #[test]
    fn special_lengths_take_the_floating_point_path() {
        for length in [0.0, -1.0, 0.5, 1.0, 2.0, 4.0, 8192.0, f64::NAN, f64::INFINITY, 1e300, f64::MIN_POSITIVE] {
            for max_lod in [0.0, 5.0, 13.0] {
                assert_eq!(lod53_of_length(length, max_lod), reference(length, max_lod), "{length} {max_lod}");
            }
        }
    }

    #[test]
    fn every_threshold_neighbourhood_matches() {
        // Lengths at and a few ulps around every eighth-mip boundary of every mip.
        for e in 0..14 {
            for j in 0..8 {
                let boundary = 2f64.powf(e as f64 + j as f64 / 8.0);
                let mut x = boundary;
                for _ in 0..40 {
                    x = f64::from_bits(x.to_bits() - 1);
                }
                for _ in 0..80 {
                    assert_eq!(lod53_of_length(x, 13.0), reference(x, 13.0), "{x}");
                    x = f64::from_bits(x.to_bits() + 1);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn equals_the_floating_point_path(log in -4.0f64..20.0, max_lod in 0u32..15) {
            let length = 2f64.powf(log);
            prop_assert_eq!(lod53_of_length(length, f64::from(max_lod)), reference(length, f64::from(max_lod)));
        }

        #[test]
        fn equals_it_near_every_threshold(e in 0i32..14, j in 0usize..8, offset in -1e-4f64..1e-4) {
            let length = 2f64.powf(f64::from(e) + j as f64 / 8.0) * (1.0 + offset);
            prop_assert_eq!(lod53_of_length(length, 13.0), reference(length, 13.0));
        }
    }
}
