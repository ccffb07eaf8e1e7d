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
    /// `1 / size` per axis when the size is a power of two: then `x / size == x * (1 /
    /// size)` exactly (both round the same exact quotient), and a product is cheaper.
    reciprocal: (Option<f64>, Option<f64>),
}

impl ProbeLine {
    #[inline]
    pub(super) fn new(uv: (f64, f64), ratio: f64, major: (f64, f64), max_aniso: u32, size: (f64, f64)) -> ProbeLine {
        // ratio is in 1..=max_aniso (finite), so the cast is exact after the clamp; a NaN
        // ratio stays NaN through the clamp and casts to 0.
        let n = (ratio.ceil().clamp(1.0, f64::from(max_aniso))) as usize;
        let reciprocal =
            |s: f64| (s > 0.0 && (s as u32).is_power_of_two() && s == f64::from(s as u32)).then(|| 1.0 / s);
        ProbeLine { uv, n, major, size, reciprocal: (reciprocal(size.0), reciprocal(size.1)) }
    }

    /// Probes on the line.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// Centre of probe `i` (< `len()`), normalized UV.
    #[inline]
    pub(super) fn at(&self, i: usize) -> (f64, f64) {
        let t = PROBE_OFFSETS[self.n][i];
        let along = |major: f64, size: f64, reciprocal: Option<f64>| match reciprocal {
            Some(r) => t * major * r,
            None => t * major / size,
        };
        (
            self.uv.0 + along(self.major.0, self.size.0, self.reciprocal.0),
            self.uv.1 + along(self.major.1, self.size.1, self.reciprocal.1),
        )
    }
}
