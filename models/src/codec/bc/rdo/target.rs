//! Distortion: one part's original texels against a decoded palette, the best indices
//! for a palette, and least-squares endpoints for fixed indices.

use super::super::color::ColorMode;
use super::parts::{Kind, Palette};
use super::RdoSettings;

/// The original texels, RGBA8.
pub(super) struct Image<'a> {
    pub rgba: &'a [u8],
    pub width: usize,
    pub height: usize,
}
/// Error of an impossible choice (a BC1 texel changing transparency); 16 of them still fit u32.
pub(super) const FORBIDDEN: u32 = 1 << 26;

/// The original texels of one part of one block.
pub(super) struct Target {
    pub kind: Kind,
    /// Channel values: RGB for colour, `[v, 0, 0]` for an alpha part.
    pub x: [[i32; 3]; 16],
    /// The same as `f32`, for the least-squares fit.
    pub xf: [[f32; 3]; 16],
    /// Each index's interpolation weights (a, b), for the fit.
    weights: ([f32; 8], [f32; 8]),
    /// Texel lies inside the image.
    pub live: [bool; 16],
    /// BC1 only: the texel decoded opaque from the original block (must stay so).
    pub opaque: [bool; 16],
    pub check_alpha: bool,
    /// Smooth-block error weight (>= 1).
    pub scale: f32,
}

impl Target {
    /// The texels of part `kind` of block `global` (in a surface `blocks_x` blocks wide) of
    /// `img`, whose encoded `fields` (endpoints, indices) tell which BC1 texels are opaque,
    /// weighted by `settings`' smooth-block protection.
    pub(super) fn new(
        img: &Image,
        blocks_x: usize,
        global: usize,
        kind: Kind,
        fields: (u64, u64),
        settings: &RdoSettings,
    ) -> Target {
        let (bx, by) = (global % blocks_x, global / blocks_x);
        let mut t = Target {
            kind,
            x: [[0; 3]; 16],
            xf: [[0.0; 3]; 16],
            weights: weights(kind),
            live: [false; 16],
            opaque: [true; 16],
            check_alpha: kind == Kind::Color(ColorMode::Bc1),
            scale: 1.0,
        };
        for i in 0..16 {
            let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
            if x < img.width && y < img.height {
                let px = &img.rgba[(y * img.width + x) * 4..][..4];
                t.live[i] = true;
                t.x[i] = match kind {
                    Kind::Color(_) => [px[0], px[1], px[2]].map(i32::from),
                    Kind::Alpha { channel } => [i32::from(px[channel]), 0, 0],
                };
                t.xf[i] = t.x[i].map(|v| v as f32);
            }
        }
        if t.check_alpha {
            let pal = kind.palette(fields.0).rgba;
            let indices = fields.1;
            for (i, o) in t.opaque.iter_mut().enumerate() {
                *o = pal[((indices >> (2 * i)) & 3) as usize][3] == 255;
            }
        }
        let channels = if matches!(kind, Kind::Color(_)) { 3 } else { 1 };
        let live = t.live.iter().filter(|&&l| l).count() as f32;
        let sigma = (0..channels)
            .map(|c| {
                let vals = || t.x.iter().zip(&t.live).filter(|(_, &l)| l).map(|(v, _)| v[c] as f32);
                let mean = vals().sum::<f32>() / live;
                (vals().map(|v| (v - mean).powi(2)).sum::<f32>() / live).sqrt()
            })
            .fold(0f32, f32::max);
        let s = settings;
        if sigma < s.smooth_max_std_dev {
            t.scale = 1.0 + (s.smooth_max_error_scale - 1.0) * (1.0 - sigma / s.smooth_max_std_dev);
        }
        t
    }

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
        let pal = &pal.rgba[..pal.len];
        let bits = self.kind.index_bits();
        let (mut indices, mut sum) = (0u64, 0u32);
        for t in 0..16 {
            // A texel outside the image costs nothing whatever its index: 0.
            let (i, e) = if self.live[t] { self.nearest_entry(t, pal) } else { (0, 0) };
            indices |= (i as u64) << (bits * t as u32);
            sum += e;
            if sum >= bound {
                break;
            }
        }
        (indices, sum)
    }

    /// The first of `pal`'s entries with the least error at live texel `t`, and that error
    /// (`(0, 0)` for an empty palette).
    #[inline(always)]
    fn nearest_entry(&self, t: usize, pal: &[[i32; 4]]) -> (usize, u32) {
        let mut best = (0, if pal.is_empty() { 0 } else { u32::MAX });
        for (i, entry) in pal.iter().enumerate() {
            let e = self.texel_error(t, entry);
            if e < best.1 {
                best = (i, e);
            }
        }
        best
    }

    /// [`refit_lanes`](Self::refit_lanes) of one index field.
    #[cfg(test)]
    pub(super) fn refit(&self, indices: u64) -> Option<u64> {
        self.refit_lanes([indices; REFIT_LANES])[0]
    }

    /// Least-squares endpoints for each of several fixed index fields (four-colour /
    /// eight-value interpolation weights), quantised to the field; `None` where the indices
    /// do not pin two endpoints. Each lane sums its own products texel by texel in the order
    /// a one-field fit would, so its result does not depend on the other lanes; side by side,
    /// the lanes' sums take the vector units.
    pub(super) fn refit_lanes(&self, indices: [u64; REFIT_LANES]) -> [Option<u64>; REFIT_LANES] {
        let (bits, mask) = (self.kind.index_bits(), (1u64 << self.kind.index_bits()) - 1);
        let (mut saa, mut sab, mut sbb) = ([0f32; REFIT_LANES], [0f32; REFIT_LANES], [0f32; REFIT_LANES]);
        let (mut sax, mut sbx) = ([[0f32; REFIT_LANES]; 3], [[0f32; REFIT_LANES]; 3]);
        for t in 0..16 {
            if !self.live[t] || (self.check_alpha && !self.opaque[t]) {
                continue;
            }
            let shift = bits * t as u32;
            let weight = |table: &[f32; 8], l: usize| table[((indices[l] >> shift) & mask) as usize];
            let a: [f32; REFIT_LANES] = std::array::from_fn(|l| weight(&self.weights.0, l));
            let b: [f32; REFIT_LANES] = std::array::from_fn(|l| weight(&self.weights.1, l));
            for l in 0..REFIT_LANES {
                saa[l] += a[l] * a[l];
                sab[l] += a[l] * b[l];
                sbb[l] += b[l] * b[l];
            }
            for c in 0..3 {
                for l in 0..REFIT_LANES {
                    sax[c][l] += a[l] * self.xf[t][c];
                    sbx[c][l] += b[l] * self.xf[t][c];
                }
            }
        }
        std::array::from_fn(|l| {
            let column = |sums: &[[f32; REFIT_LANES]; 3]| [sums[0][l], sums[1][l], sums[2][l]];
            self.solve(saa[l], sab[l], sbb[l], column(&sax), column(&sbx))
        })
    }

    /// The least-squares endpoints from a fit's sums, quantised to the field.
    fn solve(&self, saa: f32, sab: f32, sbb: f32, sax: [f32; 3], sbx: [f32; 3]) -> Option<u64> {
        let det = saa * sbb - sab * sab;
        if det.abs() < 1e-3 {
            return None;
        }
        let solve = |c: usize| ((sax[c] * sbb - sab * sbx[c]) / det, (saa * sbx[c] - sab * sax[c]) / det);
        let q = |v: f32, max: f32| round_to_field(v * max / 255.0, max);
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

/// Index fields [`Target::refit_lanes`] fits at once.
pub(super) const REFIT_LANES: usize = 4;

/// Each index's interpolation weights (a, b): the two endpoints' shares of its palette
/// entry (four-colour for a colour part, eight-value for an alpha part).
fn weights(kind: Kind) -> ([f32; 8], [f32; 8]) {
    let (mut wa, mut wb) = ([0f32; 8], [0f32; 8]);
    for i in 0..8u32 {
        let (a, b) = match kind {
            Kind::Color(_) => [(1.0, 0.0), (0.0, 1.0), (2.0 / 3.0, 1.0 / 3.0), (1.0 / 3.0, 2.0 / 3.0)][i as usize % 4],
            Kind::Alpha { .. } => match i {
                0 => (1.0, 0.0),
                1 => (0.0, 1.0),
                _ => ((8 - i) as f32 / 7.0, (i - 1) as f32 / 7.0),
            },
        };
        (wa[i as usize], wb[i as usize]) = (a, b);
    }
    (wa, wb)
}

/// `v.round().clamp(0.0, max) as u64` for a whole `max` below 2^23, without a call to libm's
/// `roundf` (the target has no rounding instruction by default). Clamping first changes
/// nothing (rounding is monotonic and keeps whole numbers), and then the integer part and
/// the fraction of `v` are exact; halves round up, as `round` does for positive values.
pub(super) fn round_to_field(v: f32, max: f32) -> u64 {
    let v = v.clamp(0.0, max); // NaN stays NaN, and gives 0 below, as before
    let whole = v as u32;
    u64::from(whole + u32::from(v - whole as f32 >= 0.5))
}
