//! Writing a footprint's feedback rectangles ([`FootprintRegions`](super::FootprintRegions))
//! into MinMip and MipRegionUsed maps: every texel of each rectangle, overlaps harmless
//! (atomic-min and bit-set writes are idempotent).

use super::super::error::GpuError;
use super::super::feedback::MinMipFeedback;
use super::super::feedback_write::FeedbackLayout;
use super::super::lod::Lod53;
use super::super::region_used::MipRegionUsedFeedback;
use super::MipRegions;
#[cfg(doc)]
use super::PreparedSampler;

impl FeedbackLayout {
    /// Atomic-mins `value` into every texel of `map` in `regions` (from
    /// [`PreparedSampler::feedback_regions`]); `value` is what
    /// [`recorded_value`](Self::recorded_value) gives for the desired LOD. Returns the
    /// number of texel writes (overlapping rectangles count each time).
    ///
    /// Errors when `map` is not `map_width() x map_height()`.
    pub fn write_min_mip_regions<S: AsRef<[u8]> + AsMut<[u8]>>(
        &self,
        map: &mut MinMipFeedback<S>,
        regions: &[MipRegions],
        value: Lod53,
    ) -> Result<usize, GpuError> {
        self.check_size(map.width(), map.height())?;
        let mut writes = 0;
        for r in regions {
            for y in r.rect.y0..=r.rect.y1 {
                for x in r.rect.x0..=r.rect.x1 {
                    writes += usize::from(map.write_min(x, y, value));
                }
            }
        }
        Ok(writes)
    }

    /// Marks each rectangle's mip as used in each of its regions. Returns the number of bit
    /// writes.
    ///
    /// Errors as [`write_region_used`](Self::write_region_used).
    pub fn write_region_used_regions(
        &self,
        map: &mut MipRegionUsedFeedback,
        regions: &[MipRegions],
    ) -> Result<usize, GpuError> {
        self.check_size(map.width(), map.height())?;
        if map.mips() < self.mip_count() {
            return Err(GpuError::MapMips { needed: self.mip_count(), actual: map.mips() });
        }
        let mut writes = 0;
        for r in regions {
            for y in r.rect.y0..=r.rect.y1 {
                for x in r.rect.x0..=r.rect.x1 {
                    writes += usize::from(map.set(x, y, r.mip));
                }
            }
        }
        Ok(writes)
    }
}

/// The one feedback texel all of `regions` are, if they are: then MinMip feedback, which
/// writes one value into all of a footprint's rectangles whatever their mip, writes that
/// texel once. With tile-sized regions this is most footprints (their mips' rectangles
/// repeat one texel).
#[inline]
pub fn single_texel(regions: &[MipRegions]) -> Option<(u32, u32)> {
    let first = regions.first()?.rect;
    let one = first.x0 == first.x1 && first.y0 == first.y1;
    (one && regions[1..].iter().all(|r| r.rect == first)).then_some((first.x0, first.y0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::RegionRect;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn texels(rects: impl IntoIterator<Item = RegionRect>) -> BTreeSet<(u32, u32)> {
        let mut set = BTreeSet::new();
        for r in rects {
            for y in r.y0..=r.y1 {
                for x in r.x0..=r.x1 {
                    set.insert((x, y));
                }
            }
        }
        set
    }

    fn rect() -> impl Strategy<Value = MipRegions> {
        (0u32..3, 0u32..2, 0u32..3, 0u32..2, 0u32..4)
            .prop_map(|(x0, w, y0, h, mip)| MipRegions { mip, rect: RegionRect { x0, x1: x0 + w, y0, y1: y0 + h } })
    }

    proptest! {
        /// `single_texel` names a texel exactly when the rectangles' texels are that one.
        #[test]
        fn single_texel_is_the_rectangles_only_texel(regions in prop::collection::vec(rect(), 0..6)) {
            let all = texels(regions.iter().map(|r| r.rect));
            match single_texel(&regions) {
                Some(xy) => prop_assert_eq!(all, BTreeSet::from([xy])),
                None => prop_assert_ne!(all.len(), 1),
            }
        }
    }
}
