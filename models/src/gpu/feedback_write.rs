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
#[path = "feedback_write_tests.rs"]
mod tests;
