//! Writing one sample's feedback: from a filter footprint to feedback-map texels.
//!
//! D3D12 Sampler Feedback spec, "Sampling and updating": the hardware establishes the
//! sample pattern from the sampler state, converts each location to feedback-map texel
//! coordinates and atomically mins the LOD computed *without* mip clamping (MinMip), or ORs
//! "used" into each integer mip (MipRegionUsed). sfsim's pattern is the filter
//! [`Footprint`]: every feedback texel that any tapped texel overlaps is written. That is a
//! superset of the spec's "sample location" pseudo-code (it includes texels of a bilinear
//! quad across a region border); the spec permits it ("Zero-weight reads ... may cause
//! feedback to be written") and it errs towards loading, never towards missing a tile.
//!
//! A texel of mip `k` covers mip-0 texels `[x * W0 / Wk, (x + 1) * W0 / Wk)`: the spec's
//! non-power-of-two example projects the mip's grid onto the feedback map this way, and for
//! power-of-two textures it is simply `x << k`. Feedback texel = mip-0 texel / mip region.
//!
//! Packed mips: the spec ("Packed mips behavior") says feedback for packed mips behaves
//! like for any other mip, so nothing here depends on the packed tail. What it does allow is
//! the "small tail mip" conservatism, modelled by [`SmallTailPolicy`].

use super::error::GpuError;
use super::feedback::{check_dim, MinMipFeedback};
use super::footprint::{clamp_texel_to, Footprint, Tap};
use super::limits::{full_mip_count, mip_dim};
use super::lod::Lod53;
use super::region_used::MipRegionUsedFeedback;
use serde::{Deserialize, Serialize};

/// What MinMip feedback records for a *small tail mip* (D3D12 Sampler Feedback spec,
/// "Circumstances where one paired texture texel might correspond to multiple feedback
/// texels"): a mip N with `WN < W0 / region_w` or `HN < H0 / region_h`. The spec lets
/// hardware write either N or the first (finest) small tail mip; which one the Xbox GPU
/// writes is not public, so this is a scenario knob.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SmallTailPolicy {
    /// Record the requested LOD unchanged.
    #[default]
    Exact,
    /// Record a request for a mip coarser than the first small tail mip as that mip
    /// (whole), i.e. a finer-than-requested value.
    FirstSmallTailMip,
}

/// How a texture maps onto its feedback maps: the texture's mip-0 size and mip count and
/// the mip region (mip-0 texels per feedback texel). Validated against D3D12's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FeedbackLayout {
    tex_width: u32,
    tex_height: u32,
    mip_count: u32,
    region_width: u32,
    region_height: u32,
}

/// Finds the feedback texel of a sample location ([`FeedbackLayout::location`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TexelLocator {
    /// Mip-0 texels across and down.
    size: (f64, f64),
    /// The last mip-0 texel's column and row.
    last: (u32, u32),
    /// log2 of the mip region's edges (powers of two).
    shift: (u32, u32),
}

impl TexelLocator {
    /// The feedback texel that holds normalized `uv` (CLAMP addressing).
    #[inline]
    pub fn locate(&self, uv: (f64, f64)) -> (u32, u32) {
        let (x, y) = (clamp_texel_to(uv.0 * self.size.0, self.last.0), clamp_texel_to(uv.1 * self.size.1, self.last.1));
        (x >> self.shift.0, y >> self.shift.1)
    }
}

/// Inclusive rectangle of feedback texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegionRect {
    /// First column, feedback texels.
    pub x0: u32,
    /// Last column (inclusive), feedback texels.
    pub x1: u32,
    /// First row, feedback texels.
    pub y0: u32,
    /// Last row (inclusive), feedback texels.
    pub y1: u32,
}

impl FeedbackLayout {
    /// A layout for a `tex_width x tex_height` texture of `mip_count` mips with a
    /// `region_width x region_height` mip region (texels of mip 0).
    ///
    /// Errors: texture edge outside 1..=16384; `mip_count` outside 1..=full chain; a region
    /// edge that is not a power of two in 4..=half of mip 0's edge (D3D12 Sampler Feedback
    /// spec, "Mip region constraints").
    pub fn new(
        tex_width: u32,
        tex_height: u32,
        mip_count: u32,
        region_width: u32,
        region_height: u32,
    ) -> Result<Self, GpuError> {
        check_dim("texture width", tex_width)?;
        check_dim("texture height", tex_height)?;
        let max = full_mip_count(tex_width, tex_height);
        if mip_count == 0 || mip_count > max {
            return Err(GpuError::MipCount { mip_count, max });
        }
        let edge_ok = |r: u32, tex: u32| r.is_power_of_two() && r >= 4 && r <= tex / 2;
        if !edge_ok(region_width, tex_width) || !edge_ok(region_height, tex_height) {
            return Err(GpuError::MipRegion { width: region_width, height: region_height, tex_width, tex_height });
        }
        Ok(FeedbackLayout { tex_width, tex_height, mip_count, region_width, region_height })
    }

    /// Texture width, texels of mip 0.
    pub fn tex_width(&self) -> u32 {
        self.tex_width
    }

    /// Texture height, texels of mip 0.
    pub fn tex_height(&self) -> u32 {
        self.tex_height
    }

    /// Mips in the texture.
    pub fn mip_count(&self) -> u32 {
        self.mip_count
    }

    /// Mip region width, texels of mip 0 per feedback texel.
    #[inline]
    pub fn region_width(&self) -> u32 {
        self.region_width
    }

    /// Mip region height, texels of mip 0 per feedback texel.
    #[inline]
    pub fn region_height(&self) -> u32 {
        self.region_height
    }

    /// Feedback map width: `ceil(tex_width / region_width)` feedback texels (the spec's
    /// decoded size, "Compatible transcode resources").
    #[inline]
    pub fn map_width(&self) -> u32 {
        self.tex_width.div_ceil(self.region_width)
    }

    /// Feedback map height: `ceil(tex_height / region_height)` feedback texels.
    #[inline]
    pub fn map_height(&self) -> u32 {
        self.tex_height.div_ceil(self.region_height)
    }

    /// The first small tail mip: the finest mip N with `WN * region_w < W0` or
    /// `HN * region_h < H0` (integer form of the spec's `WN < W0 / region_w`). `None` when
    /// the chain stops before one.
    pub fn first_small_tail_mip(&self) -> Option<u32> {
        (0..self.mip_count).find(|&n| {
            u64::from(mip_dim(self.tex_width, n)) * u64::from(self.region_width) < u64::from(self.tex_width)
                || u64::from(mip_dim(self.tex_height, n)) * u64::from(self.region_height) < u64::from(self.tex_height)
        })
    }

    /// The feedback texels that `tap`'s texels overlap; `None` when the tap's mip is not in
    /// the texture or its rectangle is empty or outside that mip.
    pub fn regions(&self, tap: &Tap) -> Option<RegionRect> {
        if tap.mip >= self.mip_count {
            return None;
        }
        let (x0, x1) = span(tap.x0, tap.x1, self.tex_width, tap.mip)?;
        let (y0, y1) = span(tap.y0, tap.y1, self.tex_height, tap.mip)?;
        // Region edges are powers of two (validated in `new`): shifts, not divisions.
        let (sx, sy) = (self.region_width.trailing_zeros(), self.region_height.trailing_zeros());
        Some(RegionRect { x0: x0 >> sx, x1: x1 >> sx, y0: y0 >> sy, y1: y1 >> sy })
    }

    /// The feedback texel that holds normalized `uv` (CLAMP addressing): where the D3D12
    /// spec's pseudo-code writes a sample's feedback ("the sample location").
    #[inline]
    pub fn location(&self, uv: (f64, f64)) -> (u32, u32) {
        self.locator().locate(uv)
    }

    /// [`location`](Self::location) with its per-layout constants worked out once, for
    /// callers that locate many samples.
    pub fn locator(&self) -> TexelLocator {
        TexelLocator {
            size: (f64::from(self.tex_width), f64::from(self.tex_height)),
            last: (self.tex_width - 1, self.tex_height - 1),
            shift: (self.region_width.trailing_zeros(), self.region_height.trailing_zeros()),
        }
    }

    /// The value MinMip feedback records for a request of `desired_lod` mips under
    /// `policy`.
    #[inline]
    pub fn recorded_value(&self, desired_lod: f32, policy: SmallTailPolicy) -> Lod53 {
        self.recorded_lod53(Lod53::from_lod(desired_lod), policy)
    }

    /// [`recorded_value`](Self::recorded_value) of a desired LOD already in 5.3 form.
    #[inline]
    pub fn recorded_lod53(&self, value: Lod53, policy: SmallTailPolicy) -> Lod53 {
        if policy == SmallTailPolicy::Exact {
            return value;
        }
        match self.first_small_tail_mip() {
            // `first` < mip_count <= 15, so it always encodes.
            Some(first) if value.mip() > first => Lod53::from_mip(first).unwrap_or(value),
            _ => value,
        }
    }

    /// Atomic-mins the recorded value of `desired_lod` (mips, computed without the MinMip
    /// clamp) into every texel of `map` overlapped by `footprint`. Returns the number of
    /// texel writes (overlapping taps count once each).
    ///
    /// Errors when `map` is not `map_width() x map_height()`.
    pub fn write_min_mip<S: AsRef<[u8]> + AsMut<[u8]>>(
        &self,
        map: &mut MinMipFeedback<S>,
        footprint: &Footprint,
        desired_lod: f32,
        policy: SmallTailPolicy,
    ) -> Result<usize, GpuError> {
        self.check_size(map.width(), map.height())?;
        let value = self.recorded_value(desired_lod, policy);
        let mut writes = 0;
        for rect in footprint.taps.iter().filter_map(|t| self.regions(t)) {
            for y in rect.y0..=rect.y1 {
                for x in rect.x0..=rect.x1 {
                    writes += usize::from(map.write_min(x, y, value));
                }
            }
        }
        Ok(writes)
    }

    /// Marks each tap's mip as used in every region its texels overlap. Returns the number
    /// of bit writes.
    ///
    /// Errors when `map` is not `map_width() x map_height()` or tracks fewer mips than the
    /// texture has.
    pub fn write_region_used(&self, map: &mut MipRegionUsedFeedback, footprint: &Footprint) -> Result<usize, GpuError> {
        self.check_size(map.width(), map.height())?;
        if map.mips() < self.mip_count {
            return Err(GpuError::MapMips { needed: self.mip_count, actual: map.mips() });
        }
        let mut writes = 0;
        for tap in &footprint.taps {
            let Some(rect) = self.regions(tap) else {
                continue;
            };
            for y in rect.y0..=rect.y1 {
                for x in rect.x0..=rect.x1 {
                    writes += usize::from(map.set(x, y, tap.mip));
                }
            }
        }
        Ok(writes)
    }

    pub(crate) fn check_size(&self, width: u32, height: u32) -> Result<(), GpuError> {
        if (width, height) != (self.map_width(), self.map_height()) {
            return Err(GpuError::MapSize {
                width: self.map_width(),
                height: self.map_height(),
                actual_width: width,
                actual_height: height,
            });
        }
        Ok(())
    }
}

/// Mip-0 texels `first..=last` covered by texels `t0..=t1` of mip `mip` on an axis of
/// `dim0` mip-0 texels; `None` for an empty or out-of-range span.
fn span(t0: u32, t1: u32, dim0: u32, mip: u32) -> Option<(u32, u32)> {
    let dim = mip_dim(dim0, mip);
    if t0 > t1 || t1 >= dim {
        return None;
    }
    if dim0.is_power_of_two() {
        // dim0 / dim is exactly 2^mip (or dim0 itself once the mip is 1 texel wide).
        let scale = (dim0 / dim).trailing_zeros();
        return Some((t0 << scale, ((t1 + 1) << scale) - 1));
    }
    let (dim0, dim) = (u64::from(dim0), u64::from(dim));
    let first = u64::from(t0) * dim0 / dim;
    // ceil(...) >= 1 because t1 + 1 >= 1, and t1 + 1 <= dim keeps `last` <= dim0 - 1.
    let last = ((u64::from(t1) + 1) * dim0).div_ceil(dim) - 1;
    Some((first as u32, last as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The division form of `span`, for any texture size.
    fn span_by_division(t0: u32, t1: u32, dim0: u32, mip: u32) -> Option<(u32, u32)> {
        let dim = mip_dim(dim0, mip);
        if t0 > t1 || t1 >= dim {
            return None;
        }
        let (d0, d) = (u64::from(dim0), u64::from(dim));
        Some(((u64::from(t0) * d0 / d) as u32, (((u64::from(t1) + 1) * d0).div_ceil(d) - 1) as u32))
    }

    /// The floor-then-clamp definition of the sample location's feedback texel.
    fn location_by_floor(layout: &FeedbackLayout, uv: (f64, f64)) -> (u32, u32) {
        let texel = |u: f64, dim: u32| {
            let t = (u * f64::from(dim)).floor();
            if t.is_nan() {
                0
            } else {
                t.clamp(0.0, f64::from(dim - 1)) as u32
            }
        };
        (texel(uv.0, layout.tex_width) / layout.region_width, texel(uv.1, layout.tex_height) / layout.region_height)
    }

    #[test]
    fn location_clamps_edges_and_non_finite_coordinates() {
        let layout = FeedbackLayout::new(1024, 512, 11, 64, 32).unwrap();
        for (uv, texel) in [
            ((0.0, 0.0), (0, 0)),
            ((0.999, 0.999), (15, 15)),
            ((1.0, 1.0), (15, 15)),
            ((-0.25, 7.0), (0, 15)),
            ((f64::NAN, f64::INFINITY), (0, 15)),
            ((f64::NEG_INFINITY, 0.5), (0, 8)),
        ] {
            assert_eq!(layout.location(uv), texel, "{uv:?}");
        }
    }

    proptest! {
        #[test]
        fn location_floors_then_clamps(log_w in 3u32..14, log_h in 3u32..14, u in -2.0f64..3.0, v in -2.0f64..3.0) {
            let layout = FeedbackLayout::new(1 << log_w, 1 << log_h, 1, 4, 4).unwrap();
            prop_assert_eq!(layout.location((u, v)), location_by_floor(&layout, (u, v)));
        }

        #[test]
        fn power_of_two_shift_path_equals_division(log in 0u32..15, mip in 0u32..16, a in 0u32..20_000, b in 0u32..20_000) {
            let dim0 = 1u32 << log;
            let dim = mip_dim(dim0, mip);
            let (t0, t1) = (a.min(b) % dim, a.max(b) % dim);
            let (t0, t1) = (t0.min(t1), t0.max(t1));
            prop_assert_eq!(span(t0, t1, dim0, mip), span_by_division(t0, t1, dim0, mip));
        }
    }

    fn tap(mip: u32, x0: u32, x1: u32, y0: u32, y1: u32) -> Tap {
        Tap { mip, x0, x1, y0, y1 }
    }

    #[test]
    fn layout_sizes_follow_spec_worked_checks() {
        // SPEC §3: 4096² BC1 with a 512x256 mip region -> 8x16 feedback map.
        let l = FeedbackLayout::new(4096, 4096, 13, 512, 256).unwrap();
        assert_eq!((l.map_width(), l.map_height()), (8, 16));
        // D3D12 spec NPOT example: 15x15 with 4x4 regions -> 4x4.
        let l = FeedbackLayout::new(15, 15, 2, 4, 4).unwrap();
        assert_eq!((l.map_width(), l.map_height()), (4, 4));
    }

    #[test]
    fn region_constraints() {
        assert!(FeedbackLayout::new(32, 32, 1, 16, 8).is_ok());
        assert!(FeedbackLayout::new(100, 100, 1, 32, 32).is_ok());
        assert!(FeedbackLayout::new(100, 100, 1, 64, 32).is_err()); // > half
        assert!(FeedbackLayout::new(32, 32, 1, 2, 4).is_err()); // < 4
        assert!(FeedbackLayout::new(32, 32, 1, 12, 4).is_err()); // not a power of two
        assert!(FeedbackLayout::new(32, 32, 0, 4, 4).is_err());
        assert!(FeedbackLayout::new(32, 32, 7, 4, 4).is_err()); // chain is 6 long
        assert!(FeedbackLayout::new(0, 32, 1, 4, 4).is_err());
    }

    #[test]
    fn small_tail_mips_match_spec_table() {
        // Spec example: 1024² full chain, 16x16 regions -> mips 5..=10 are small tail mips.
        let l = FeedbackLayout::new(1024, 1024, 11, 16, 16).unwrap();
        assert_eq!(l.first_small_tail_mip(), Some(5));
        let exact = SmallTailPolicy::Exact;
        let first = SmallTailPolicy::FirstSmallTailMip;
        assert_eq!(l.recorded_value(4.5, first), Lod53(36));
        assert_eq!(l.recorded_value(5.5, first), Lod53(44)); // mip 5 itself: unchanged
        assert_eq!(l.recorded_value(7.25, first), Lod53(40)); // recorded as 5
        assert_eq!(l.recorded_value(10.0, first), Lod53(40));
        assert_eq!(l.recorded_value(7.25, exact), Lod53(58));
        // A chain that stops before the first small tail mip has none.
        let l = FeedbackLayout::new(1024, 1024, 5, 16, 16).unwrap();
        assert_eq!(l.first_small_tail_mip(), None);
        assert_eq!(l.recorded_value(4.0, first), Lod53(32));
    }

    #[test]
    fn tap_spans_project_mip_texels_onto_mip_0() {
        assert_eq!(span(3, 4, 1024, 2), Some((12, 19)));
        assert_eq!(span(0, 0, 1024, 10), Some((0, 1023)));
        // NPOT: mip 3 of 100 is 12 texels; texel 11 covers mip-0 texels 91..=99.
        assert_eq!(span(11, 11, 100, 3), Some((91, 99)));
        assert_eq!(span(0, 0, 100, 3), Some((0, 8)));
        assert_eq!(span(12, 12, 100, 3), None);
        assert_eq!(span(2, 1, 100, 0), None);
    }

    #[test]
    fn min_mip_write_covers_every_overlapped_region() {
        let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
        let mut map = MinMipFeedback::new(4, 4).unwrap();
        // A mip-0 quad straddling the border between regions 0 and 1 in x.
        let fp = Footprint::from_taps(vec![tap(0, 255, 256, 10, 11)]);
        let n = l.write_min_mip(&mut map, &fp, 0.5, SmallTailPolicy::Exact).unwrap();
        assert_eq!(n, 2);
        assert_eq!(map.get(0, 0), Some(Lod53(4)));
        assert_eq!(map.get(1, 0), Some(Lod53(4)));
        assert_eq!(map.requested_count(), 2);
        // A coarser request elsewhere does not overwrite the finer one.
        let fp = Footprint::from_taps(vec![tap(2, 0, 1, 0, 1)]);
        l.write_min_mip(&mut map, &fp, 2.0, SmallTailPolicy::Exact).unwrap();
        assert_eq!(map.get(0, 0), Some(Lod53(4)));
        assert_eq!(map.get(1, 1), Some(Lod53::NONE));
        // A 1x1 tail mip covers the whole map.
        let fp = Footprint::from_taps(vec![tap(10, 0, 0, 0, 0)]);
        assert_eq!(l.write_min_mip(&mut map, &fp, 10.0, SmallTailPolicy::Exact).unwrap(), 16);
        assert_eq!(map.get(3, 3), Some(Lod53(80)));
        assert_eq!(map.get(0, 0), Some(Lod53(4)));
    }

    #[test]
    fn writes_go_through_array_slices_too() {
        let l = FeedbackLayout::new(64, 64, 7, 16, 16).unwrap();
        let mut array = crate::gpu::FeedbackArray::new(4, 4, 2).unwrap();
        let fp = Footprint::from_taps(vec![tap(0, 40, 41, 40, 41)]);
        let mut slice = array.slice_mut(1).unwrap();
        l.write_min_mip(&mut slice, &fp, 0.0, SmallTailPolicy::Exact).unwrap();
        assert_eq!(array.slice(1).unwrap().get(2, 2), Some(Lod53(0)));
        assert_eq!(array.slice(0).unwrap().requested_count(), 0);
    }

    #[test]
    fn wrong_map_size_is_an_error() {
        let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
        let mut map = MinMipFeedback::new(4, 8).unwrap();
        let fp = Footprint::default();
        assert!(l.write_min_mip(&mut map, &fp, 0.0, SmallTailPolicy::Exact).is_err());
        let mut used = MipRegionUsedFeedback::new(4, 4, 10).unwrap();
        assert!(l.write_region_used(&mut used, &fp).is_err());
    }

    #[test]
    fn region_used_marks_each_taps_mip() {
        let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
        let mut used = MipRegionUsedFeedback::new(4, 4, 11).unwrap();
        // Mip-1 texels 255..=256 cover mip-0 texels 510..=513 (regions 1 and 2); mip-2
        // texels 127..=128 cover 508..=515 (the same regions).
        let fp = Footprint::from_taps(vec![tap(1, 255, 256, 0, 1), tap(2, 127, 128, 0, 1)]);
        assert_eq!(l.write_region_used(&mut used, &fp).unwrap(), 4);
        assert_eq!(used.used(1, 0, 1), Some(true));
        assert_eq!(used.used(2, 0, 1), Some(true));
        assert_eq!(used.used(1, 0, 2), Some(true));
        assert_eq!(used.used(2, 0, 2), Some(true));
        assert_eq!(used.used(0, 0, 1), Some(false));
        assert_eq!(used.finest_used(1, 0), Some(1));
    }

    #[test]
    fn malformed_taps_are_skipped() {
        let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
        assert_eq!(l.regions(&tap(11, 0, 0, 0, 0)), None);
        assert_eq!(l.regions(&tap(0, 1024, 1024, 0, 0)), None);
        assert_eq!(l.regions(&tap(0, 5, 4, 0, 0)), None);
    }
}
