//! One mip's taps projected onto a feedback (or MinMip) map: each axis's texel-to-region
//! step worked out once per mip, so a tap's regions are a few integer operations.

use super::super::feedback_write::{FeedbackLayout, RegionRect};
use super::super::footprint::clamp_texel_to;
#[cfg(doc)]
use super::super::footprint::{bilinear_tap, point_tap};
use super::super::limits::mip_dim;
use super::regions::MipRegions;
use super::{Filter, PreparedSampler};

/// The feedback texels of one mip's taps: [`bilinear_tap`] / [`point_tap`] then
/// [`FeedbackLayout::regions`], with the per-mip divisions and checks done once.
#[derive(Debug, Clone, Copy)]
pub(super) struct MipTaps {
    mip: u32,
    point: bool,
    x: AxisTaps,
    y: AxisTaps,
    /// Set by [`follow_finer`](Self::follow_finer): whenever this mip's bilinear taps at a
    /// position lie in one region, the next finer mip's taps there lie in that region too.
    covers_finer: bool,
}

impl MipTaps {
    /// `None` when `layout` has no mip `mip` (no tap there writes feedback).
    pub(super) fn new(sampler: &PreparedSampler, mip: u32, layout: &FeedbackLayout) -> Option<MipTaps> {
        if mip >= layout.mip_count() {
            return None;
        }
        Some(MipTaps {
            mip,
            point: sampler.desc.filter == Filter::Point,
            x: AxisTaps::new(sampler.tex_w, layout.tex_width(), mip, layout.region_width()),
            y: AxisTaps::new(sampler.tex_h, layout.tex_height(), mip, layout.region_height()),
            covers_finer: false,
        })
    }

    /// The taps of `mip` of `sampler`'s texture as texels of a map with one texel per
    /// mip-0 block of 2^`shift.0` x 2^`shift.1` texels and `map` (width, height) texels,
    /// clamped to the map: [`ResidencyCheck::cover`](crate::gpu::ResidencyCheck::cover).
    pub(super) fn per_block(sampler: &PreparedSampler, mip: u32, shift: (u32, u32), map: (u32, u32)) -> MipTaps {
        MipTaps {
            mip,
            point: sampler.desc.filter == Filter::Point,
            x: AxisTaps::per_block(sampler.tex_w, mip, shift.0, map.0),
            y: AxisTaps::per_block(sampler.tex_h, mip, shift.1, map.1),
            covers_finer: false,
        }
    }

    /// Records whether this mip's one-region taps vouch for `finer`'s (the next finer mip
    /// of the same texture and layout): both bilinear, each axis halving the texels with
    /// the same regions. A bilinear tap at `s = u·size − ½` spans texels ⌊s⌋..⌊s + 1⌋; on
    /// the finer mip `u·2size` is exactly twice `u·size`, so its tap spans mip-0 texels
    /// inside the coarser tap's (2⌊(s − ½)/2⌋ ≤ ⌊s⌋ and ⌊s + 1⌋ ≤ 2⌊(s − ½)/2⌋ + 3, with
    /// half a texel to spare for the roundings below 2^49 texels, and both clamping
    /// alike past it and at the edges). Regions are blocks of mip-0 texels, so a coarser
    /// tap inside one region leaves the finer tap no other. Tested against the per-mip
    /// spans on edge values.
    pub(super) fn follow_finer(&mut self, finer: &MipTaps) {
        let bilinear = !self.point && !finer.point;
        self.covers_finer =
            bilinear && self.mip == finer.mip + 1 && self.x.covers_finer(&finer.x) && self.y.covers_finer(&finer.y);
    }

    /// Whether [`follow_finer`](Self::follow_finer) found that this mip vouches for the
    /// next finer one.
    #[inline(always)]
    pub(super) fn covers_finer(&self) -> bool {
        self.covers_finer
    }

    #[inline]
    pub(super) fn regions(&self, uv: (f64, f64)) -> MipRegions {
        let ((x0, x1), (y0, y1)) = (self.x_regions(uv.0), self.y_regions(uv.1));
        MipRegions { mip: self.mip, rect: RegionRect { x0, x1, y0, y1 } }
    }

    /// Whether this feedback projection gives, for every tap, exactly the rectangle `read`
    /// (a [`per_block`](Self::per_block) projection of the same mip) gives.
    pub(super) fn projects_like(&self, read: &MipTaps) -> bool {
        self.mip == read.mip
            && self.point == read.point
            && self.x.projects_like(&read.x)
            && self.y.projects_like(&read.y)
    }

    /// `(sx, sy)` when every tap's rectangle here is `finer`'s shifted right by `sx`
    /// columns and `sy` rows: the same texture and mip, regions 2^`sx` × 2^`sy` times
    /// larger (a shift of a shift is the sum, and feedback projections never clamp).
    pub(super) fn coarser_shift(&self, finer: &MipTaps) -> Option<(u32, u32)> {
        if (self.mip, self.point) != (finer.mip, finer.point) {
            return None;
        }
        Some((self.x.coarser_shift(&finer.x)?, self.y.coarser_shift(&finer.y)?))
    }

    /// The column spans at the line's two end probes `ends`, then the row spans: straight
    /// line code, the four taps independent of each other.
    #[inline(always)]
    pub(super) fn end_spans(&self, ends: ((f64, f64), (f64, f64))) -> (AxisEnds, AxisEnds) {
        let (a, b) = ends;
        ((self.x_regions(a.0), self.x_regions(b.0)), (self.y_regions(a.1), self.y_regions(b.1)))
    }

    /// The one rectangle that covers exactly the texels of the rectangles of the `n` probes
    /// between `ends`, when their spans differ along one axis only (`x_ends`, `y_ends`)
    /// and neighbouring probes' taps leave no texel of this mip between them: the spans
    /// along that axis then join up, and their union is the ends' hull. `None` otherwise.
    ///
    /// A bilinear tap spans 2 texels (a point tap 1), so probes at most that far apart
    /// join; the spacing is the ends' distance over `n - 1` (the probes are evenly spaced),
    /// checked with a margin of a thousandth of a texel. Below 2^30 texels from the origin
    /// the probes' rounding moves a spacing by under 2^-19 texels, far inside the margin.
    /// Joined texel spans stay joined through the monotonic projection onto regions.
    #[inline]
    pub(super) fn joined_hull(
        &self,
        ends: ((f64, f64), (f64, f64)),
        n: usize,
        x_ends: AxisEnds,
        y_ends: AxisEnds,
    ) -> Option<RegionRect> {
        let reach = if self.point { 1.0 } else { 2.0 } - 1e-3;
        let joined = |axis: &AxisTaps, a: f64, b: f64| {
            let near_origin = a.abs().max(b.abs()) * axis.size < (1u64 << 30) as f64;
            near_origin && (b - a).abs() * axis.size <= reach * (n - 1) as f64
        };
        let hull = |(a, b): AxisEnds| (a.0.min(b.0), a.1.max(b.1));
        let rect = |(x0, x1), (y0, y1)| RegionRect { x0, x1, y0, y1 };
        if y_ends.0 == y_ends.1 && joined(&self.x, ends.0 .0, ends.1 .0) {
            Some(rect(hull(x_ends), y_ends.0))
        } else if x_ends.0 == x_ends.1 && joined(&self.y, ends.0 .1, ends.1 .1) {
            Some(rect(x_ends.0, hull(y_ends)))
        } else {
            None
        }
    }

    /// The columns of regions the tap at `u` overlaps.
    #[inline(always)]
    pub(super) fn x_regions(&self, u: f64) -> (u32, u32) {
        self.x.regions(u, self.point)
    }

    /// The rows of regions the tap at `v` overlaps.
    #[inline(always)]
    pub(super) fn y_regions(&self, v: f64) -> (u32, u32) {
        self.y.regions(v, self.point)
    }
}

/// An axis's span of regions at a probe line's first and last probes.
pub(super) type AxisEnds = ((u32, u32), (u32, u32));

/// How [`AxisTaps::project`] takes mip texels to regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Projection {
    /// A region spans 2^k of the mip's texels, and no region clamps: texels `t0..=t1` are
    /// regions `t0 >> k ..= t1 >> k` (`((t1 + 1) << s) - 1) >> r` is `t1 >> (r - s)`).
    Down(u32),
    /// A mip texel spans 2^k regions, and no region clamps: `t0 << k ..= ((t1 + 1) << k) - 1`.
    Up(u32),
    /// Through mip 0's texels, then the region shift and clamp.
    General,
}

/// One axis of [`MipTaps`].
#[derive(Debug, Clone, Copy)]
struct AxisTaps {
    /// The mip's texels along the axis (the sampler's texture), as a float for scaling,
    /// and the last one's index.
    size: f64,
    texels: u32,
    last_texel: u32,
    /// The shortcut `project` takes.
    projection: Projection,
    /// Mip-0 texels of the layout's texture along the axis.
    dim0: u32,
    /// The layout's texels of this mip.
    dim: u32,
    /// log2(dim0 / dim) when dim0 is a power of two (the projection is a shift).
    scale: Option<u32>,
    /// log2 of the region edge.
    region_shift: u32,
    /// The last region (regions past it clamp to it; `u32::MAX` for feedback layouts,
    /// whose regions never pass the map).
    last: u32,
}

impl AxisTaps {
    fn new(sampler_dim0: u32, dim0: u32, mip: u32, region: u32) -> AxisTaps {
        let texels = mip_dim(sampler_dim0, mip);
        let dim = mip_dim(dim0, mip);
        // dim0 / dim is a power of two too: the difference of the exponents, no division.
        let scale = dim0.is_power_of_two().then(|| dim0.trailing_zeros() - dim.trailing_zeros());
        let region_shift = region.trailing_zeros();
        // Feedback regions never clamp (`last` is u32::MAX): the shifts fold into one.
        let projection = match scale {
            Some(scale) if region_shift >= scale => Projection::Down(region_shift - scale),
            Some(scale) => Projection::Up(scale - region_shift),
            None => Projection::General,
        };
        AxisTaps {
            size: f64::from(texels),
            texels,
            last_texel: texels - 1,
            projection,
            dim0,
            dim,
            scale,
            region_shift,
            last: u32::MAX,
        }
    }

    /// Mip texels projected onto mip 0 by a shift of `mip` whatever the size, then onto
    /// blocks of 2^`shift` texels, the last of `blocks` taking the rest.
    fn per_block(sampler_dim0: u32, mip: u32, shift: u32, blocks: u32) -> AxisTaps {
        let texels = mip_dim(sampler_dim0, mip);
        AxisTaps {
            size: f64::from(texels),
            texels,
            last_texel: texels - 1,
            projection: Projection::General,
            dim0: 0,
            dim: 0,
            scale: Some(mip),
            region_shift: shift,
            last: blocks.saturating_sub(1),
        }
    }

    /// The regions of mip texels `t0..=t1` (`span` then the region shift).
    #[inline(always)]
    fn project(&self, t0: u32, t1: u32) -> (u32, u32) {
        match self.projection {
            Projection::Down(k) => return (t0 >> k, t1 >> k),
            Projection::Up(k) => return (t0 << k, ((t1 + 1) << k) - 1),
            Projection::General => {}
        }
        let (first, last) = match self.scale {
            Some(scale) => (t0 << scale, ((t1 + 1) << scale) - 1),
            None => {
                let (dim0, dim) = (u64::from(self.dim0), u64::from(self.dim));
                let last = ((u64::from(t1) + 1) * dim0).div_ceil(dim) - 1;
                ((u64::from(t0) * dim0 / dim) as u32, last as u32)
            }
        };
        ((first >> self.region_shift).min(self.last), (last >> self.region_shift).min(self.last))
    }

    /// Whether `self` (a feedback layout's axis) and `read` (a per-block axis) project
    /// every texel span alike: the same texels, the same shifts, and no region of `self`'s
    /// past `read`'s clamp.
    fn projects_like(&self, read: &AxisTaps) -> bool {
        let Some(scale) = self.scale else { return false };
        let last_region = ((u64::from(self.texels) << scale) - 1) >> self.region_shift;
        self.texels == read.texels
            && self.size == read.size
            && read.scale == Some(scale)
            && self.region_shift == read.region_shift
            && last_region <= u64::from(read.last)
    }

    /// [`MipTaps::follow_finer`] along this axis: `finer` has twice the texels, and its
    /// region step is one shift more (the same regions in mip-0 texels).
    fn covers_finer(&self, finer: &AxisTaps) -> bool {
        let shifts = match (self.projection, finer.projection) {
            (Projection::Down(k), Projection::Down(fine_k)) => fine_k == k + 1,
            _ => false,
        };
        shifts
            && finer.size == 2.0 * self.size
            && finer.texels == 2 * self.texels
            && finer.last_texel == 2 * self.last_texel + 1
            && self.last == u32::MAX
            && finer.last == u32::MAX
    }

    /// [`MipTaps::coarser_shift`] along this axis.
    fn coarser_shift(&self, finer: &AxisTaps) -> Option<u32> {
        let same_texels = (self.size, self.texels, self.dim0, self.dim, self.scale)
            == (finer.size, finer.texels, finer.dim0, finer.dim, finer.scale);
        let unclamped = self.last == u32::MAX && finer.last == u32::MAX;
        (same_texels && unclamped).then(|| self.region_shift.checked_sub(finer.region_shift)).flatten()
    }

    /// The regions of the point or bilinear tap at `u`.
    #[inline(always)]
    fn regions(&self, u: f64, point: bool) -> (u32, u32) {
        if point {
            self.point(u)
        } else {
            self.bilinear(u)
        }
    }

    #[inline(always)]
    fn bilinear(&self, u: f64) -> (u32, u32) {
        let s = u * self.size - 0.5;
        self.project(clamp_texel_to(s, self.last_texel), clamp_texel_to(s + 1.0, self.last_texel))
    }

    #[inline(always)]
    fn point(&self, u: f64) -> (u32, u32) {
        let t = clamp_texel_to(u * self.size, self.last_texel);
        self.project(t, t)
    }
}
