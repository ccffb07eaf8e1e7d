//! Where an anisotropic filter looks: the probes along the major axis, each placed with
//! the same arithmetic every time (the footprint and its feedback rectangles must agree
//! bit for bit).

use super::super::limits::MAX_ANISOTROPY;

/// Probe `i` of `n` sits at `t = (i + 0.5) / n - 0.5` of the major axis: the offsets for
/// every `n` up to [`MAX_ANISOTROPY`], worked out once with that same arithmetic.
const PROBE_OFFSETS: [[f64; MAX_ANISOTROPY as usize]; MAX_ANISOTROPY as usize + 1] = {
    let mut table = [[0.0; MAX_ANISOTROPY as usize]; MAX_ANISOTROPY as usize + 1];
    let mut n = 1;
    while n <= MAX_ANISOTROPY as usize {
        let mut i = 0;
        while i < n {
            table[n][i] = (i as f64 + 0.5) / n as f64 - 0.5;
            i += 1;
        }
        n += 1;
    }
    table
};

/// The anisotropic probes of one sample: `ceil(ratio)` (1..=max_aniso; none for a NaN
/// ratio) centres along the major axis, probe `i` at `uv + t_i * major / size`.
#[derive(Debug, Clone, Copy)]
pub(super) struct ProbeLine {
    uv: (f64, f64),
    n: usize,
    major: (f64, f64),
    size: (f64, f64),
    /// `major / size` per axis when that scaling is exact for every probe (below), else
    /// `None`: each probe then divides.
    step: (Option<f64>, Option<f64>),
}

/// What a texture's size contributes to every probe line on it, worked out once per
/// sampler: the size, and per axis `1 / size` when the size is a power of two (dividing by
/// it then equals multiplying by that, both rounded once from the same exact value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ProbeScale {
    size: (f64, f64),
    inverse: (Option<f64>, Option<f64>),
}

impl ProbeScale {
    pub(super) fn new(size: (f64, f64)) -> ProbeScale {
        let inverse = |size: f64| {
            let power_of_two = size > 0.0 && size <= f64::from(u32::MAX) && (size as u32).is_power_of_two();
            (power_of_two && size == f64::from(size as u32)).then(|| 1.0 / size)
        };
        ProbeScale { size, inverse: (inverse(size.0), inverse(size.1)) }
    }
}

impl ProbeLine {
    /// [`scaled`](Self::scaled) working the size's part out on the spot (the tests' form;
    /// samplers keep theirs in a [`ProbeScale`]).
    #[cfg(test)]
    pub(super) fn new(uv: (f64, f64), ratio: f64, major: (f64, f64), max_aniso: u32, size: (f64, f64)) -> ProbeLine {
        ProbeLine::scaled(uv, ratio, major, max_aniso, &ProbeScale::new(size))
    }

    /// The probe line of a read at `uv` with anisotropy `ratio` along `major`, on a texture
    /// whose size's part is `scale`.
    #[inline]
    pub(super) fn scaled(
        uv: (f64, f64),
        ratio: f64,
        major: (f64, f64),
        max_aniso: u32,
        scale: &ProbeScale,
    ) -> ProbeLine {
        let n = probe_count(ratio, max_aniso);
        let step = (exact_step(major.0, scale.inverse.0), exact_step(major.1, scale.inverse.1));
        ProbeLine { uv, n, major, size: scale.size, step }
    }

    /// Probes on the line.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// Centre of probe `i` (< `len()`), normalized UV.
    #[inline]
    pub(super) fn at(&self, i: usize) -> (f64, f64) {
        (self.u_at(i), self.v_at(i))
    }

    /// The u of [`at`](Self::at) alone.
    #[inline]
    pub(super) fn u_at(&self, i: usize) -> f64 {
        self.uv.0 + along(PROBE_OFFSETS[self.n][i], self.major.0, self.size.0, self.step.0)
    }

    /// The v of [`at`](Self::at) alone.
    #[inline]
    pub(super) fn v_at(&self, i: usize) -> f64 {
        self.uv.1 + along(PROBE_OFFSETS[self.n][i], self.major.1, self.size.1, self.step.1)
    }
}

/// `ceil(ratio)` clamped to `1..=max_aniso`, 0 for a NaN ratio, without libm's `ceil`: a
/// call there makes every caller spill its floating-point registers around it (x86-64's
/// baseline has no rounding instruction). Inside the clamp the ratio is below 2^32, so
/// truncating it and adding one when it had a fraction is its ceiling.
#[inline(always)]
fn probe_count(ratio: f64, max_aniso: u32) -> usize {
    if ratio >= f64::from(max_aniso) {
        return max_aniso as usize;
    }
    if ratio <= 1.0 {
        return 1;
    }
    // A NaN ratio gets here: it casts to 0 and is not above it.
    let whole = ratio as u32;
    (whole + u32::from(f64::from(whole) < ratio)) as usize
}

/// Probe offset `t`'s distance along one axis: `t * major / size`, by the exact product
/// when there is one.
#[inline(always)]
fn along(t: f64, major: f64, size: f64, step: Option<f64>) -> f64 {
    match step {
        Some(step) => t * step,
        None => divided(t, major, size),
    }
}

/// `major / size` when `t * major / size == t * (major / size)` for every probe offset
/// `t`, from `inverse` = `1 / size` (given only for a power-of-two size, so dividing by it
/// only moves the exponent) and no result near the subnormal range, where it would round
/// (offsets are 0 or at least 1/32 in magnitude). The product then has one rounding instead
/// of a rounding and a division, and a probe costs no division.
#[inline]
fn exact_step(major: f64, inverse: Option<f64>) -> Option<f64> {
    let step = major * inverse?;
    let clear_of_subnormals = step == 0.0 || step.abs() >= f64::MIN_POSITIVE * 64.0;
    (step.is_finite() && clear_of_subnormals).then_some(step)
}

/// The general case, kept out of line so that the usual one is not if-converted into
/// computing both.
#[cold]
#[inline(never)]
fn divided(t: f64, major: f64, size: f64) -> f64 {
    t * major / size
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The libm form the probe count replaces.
    fn ceil_count(ratio: f64, max_aniso: u32) -> usize {
        (ratio.ceil().clamp(1.0, f64::from(max_aniso))) as usize
    }

    #[test]
    fn probe_count_is_the_clamped_ceiling_at_the_edges() {
        let edges = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.0, 16.0, 17.0, 1e300, -1e300, 2.5];
        for max_aniso in [1, 2, 15, 16] {
            for &r in &edges {
                for r in [r, f64::from_bits(r.to_bits().wrapping_add(1)), f64::from_bits(r.to_bits().wrapping_sub(1))] {
                    assert_eq!(probe_count(r, max_aniso), ceil_count(r, max_aniso), "{r:e} at {max_aniso}");
                }
            }
            for whole in 0..=17u32 {
                let w = f64::from(whole);
                for r in [w, w.next_up(), w.next_down(), w + 0.5] {
                    assert_eq!(probe_count(r, max_aniso), ceil_count(r, max_aniso), "{r:e} at {max_aniso}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn probe_count_is_the_clamped_ceiling(
            ratio in prop_oneof![proptest::num::f64::ANY, 0.0f64..20.0], max_aniso in 1u32..=16,
        ) {
            prop_assert_eq!(probe_count(ratio, max_aniso), ceil_count(ratio, max_aniso));
        }

        /// The one-product form gives the bits of `t * major / size` for every probe.
        #[test]
        fn probes_equal_the_divided_form(
            u in prop_oneof![Just(0.0f64), -1.0f64..2.0], v in prop_oneof![Just(0.0f64), -1.0f64..2.0], ratio in 0.5f64..17.0, max_aniso in 1u32..=16,
            mx in prop_oneof![proptest::num::f64::ANY, -1e4f64..1e4, -1e-303f64..1e-303, -1e-306f64..1e-306],
            my in prop_oneof![proptest::num::f64::ANY, -1e4f64..1e4, -1e-303f64..1e-303, -1e-306f64..1e-306],
            log_w in 0u32..15, h in prop_oneof![1u32..20_000, Just(4096)],
        ) {
            let size = (f64::from(1u32 << log_w), f64::from(h));
            let line = ProbeLine::new((u, v), ratio, (mx, my), max_aniso, size);
            for (i, &t) in PROBE_OFFSETS[line.len()][..line.len()].iter().enumerate() {
                let want = (u + t * mx / size.0, v + t * my / size.1);
                let got = line.at(i);
                prop_assert_eq!(got.0.to_bits(), want.0.to_bits(), "u of probe {} of {}", i, line.len());
                prop_assert_eq!(got.1.to_bits(), want.1.to_bits(), "v of probe {} of {}", i, line.len());
            }
        }
    }
}
