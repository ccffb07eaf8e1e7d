//! Distortion: one part's original texels against a decoded palette, the best indices
//! for a palette, and least-squares endpoints for fixed indices.

use super::parts::{Kind, Palette};

/// Error of an impossible choice (a BC1 texel changing transparency); 16 of them still fit u32.
pub(super) const FORBIDDEN: u32 = 1 << 26;

/// The original texels of one part of one block.
pub(super) struct Target {
    pub kind: Kind,
    /// Channel values: RGB for colour, `[v, 0, 0]` for an alpha part.
    pub x: [[i32; 3]; 16],
    /// Texel lies inside the image.
    pub live: [bool; 16],
    /// BC1 only: the texel decoded opaque from the original block (must stay so).
    pub opaque: [bool; 16],
    pub check_alpha: bool,
    /// Smooth-block error weight (>= 1).
    pub scale: f32,
}

impl Target {
    pub(super) fn texel_error(&self, t: usize, e: &[i32; 4]) -> u32 {
        if !self.live[t] {
            return 0;
        }
        if self.check_alpha && (e[3] == 255) != self.opaque[t] {
            return FORBIDDEN;
        }
        if self.check_alpha && !self.opaque[t] {
            return 0; // transparent black either way
        }
        match self.kind {
            Kind::Color(_) => (0..3).map(|c| (e[c] - self.x[t][c]).pow(2) as u32).sum(),
            // Weighted as three channels, so a given λ costs every format the same MSE.
            Kind::Alpha { .. } => 3 * (e[0] - self.x[t][0]).pow(2) as u32,
        }
    }

    /// Error of `endpoints` with fixed `indices`; stops early (returning >= `bound`) once the
    /// sum reaches `bound`.
    pub(super) fn error(&self, pal: &Palette, indices: u64, bound: u32) -> u32 {
        let pal = &pal.rgba;
        let (bits, mask) = (self.kind.index_bits(), (1u64 << self.kind.index_bits()) - 1);
        let mut sum = 0u32;
        for t in 0..16 {
            sum += self.texel_error(t, &pal[((indices >> (bits * t as u32)) & mask) as usize]);
            if sum >= bound {
                return sum;
            }
        }
        sum
    }

    /// The indices that minimise the error for palette `pal`, and that error; stops early
    /// (returning an error >= `bound`) once the sum reaches `bound`.
    pub(super) fn best_indices(&self, pal: &Palette, bound: u32) -> (u64, u32) {
        let (pal, n) = (&pal.rgba, pal.len);
        let bits = self.kind.index_bits();
        let (mut indices, mut sum) = (0u64, 0u32);
        for t in 0..16 {
            let (i, e) = (0..n).map(|i| (i, self.texel_error(t, &pal[i]))).min_by_key(|&(_, e)| e).unwrap_or((0, 0));
            indices |= (i as u64) << (bits * t as u32);
            sum += e;
            if sum >= bound {
                break;
            }
        }
        (indices, sum)
    }

    /// Least-squares endpoints for fixed `indices` (four-colour / eight-value interpolation
    /// weights), quantised to the field; `None` when the indices do not pin two endpoints.
    pub(super) fn refit(&self, indices: u64) -> Option<u64> {
        let (bits, mask) = (self.kind.index_bits(), (1u64 << self.kind.index_bits()) - 1);
        let (mut saa, mut sab, mut sbb) = (0f32, 0f32, 0f32);
        let (mut sax, mut sbx) = ([0f32; 3], [0f32; 3]);
        for t in 0..16 {
            if !self.live[t] || (self.check_alpha && !self.opaque[t]) {
                continue;
            }
            let i = ((indices >> (bits * t as u32)) & mask) as u32;
            let (a, b) = match self.kind {
                Kind::Color(_) => [(1.0, 0.0), (0.0, 1.0), (2.0 / 3.0, 1.0 / 3.0), (1.0 / 3.0, 2.0 / 3.0)][i as usize],
                Kind::Alpha { .. } => match i {
                    0 => (1.0, 0.0),
                    1 => (0.0, 1.0),
                    _ => ((8 - i) as f32 / 7.0, (i - 1) as f32 / 7.0),
                },
            };
            saa += a * a;
            sab += a * b;
            sbb += b * b;
            for c in 0..3 {
                sax[c] += a * self.x[t][c] as f32;
                sbx[c] += b * self.x[t][c] as f32;
            }
        }
        let det = saa * sbb - sab * sab;
        if det.abs() < 1e-3 {
            return None;
        }
        let solve = |c: usize| ((sax[c] * sbb - sab * sbx[c]) / det, (saa * sbx[c] - sab * sax[c]) / det);
        let q = |v: f32, max: f32| (v * max / 255.0).round().clamp(0.0, max) as u64;
        match self.kind {
            Kind::Color(_) => {
                let (r, g, b) = (solve(0), solve(1), solve(2));
                let c0 = (q(r.0, 31.0) << 11) | (q(g.0, 63.0) << 5) | q(b.0, 31.0);
                let c1 = (q(r.1, 31.0) << 11) | (q(g.1, 63.0) << 5) | q(b.1, 31.0);
                Some(c0 | (c1 << 16))
            }
            Kind::Alpha { .. } => {
                let (e0, e1) = solve(0);
                Some(q(e0, 255.0) | (q(e1, 255.0) << 8))
            }
        }
    }
}
