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
