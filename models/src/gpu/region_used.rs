//! MipRegionUsed feedback: one "used" bit per (feedback texel, mip).
//!
//! D3D12 Sampler Feedback spec, "MipRegionUsed feedback map": for each sample the hardware
//! computes one or two integer mips and ORs "true" into the regions they touch; a cleared
//! map is all false. D3D's decoded form has one map per mip whose texel covers a mip region
//! of *that* mip (so mip N's map is 2^N times coarser per axis). sfsim instead keeps every
//! mip at the mip-0 region grid: strictly more information, and D3D's layout is recovered by
//! OR-ing 2^N x 2^N blocks of mip N's plane ([`MipRegionUsedFeedback::used_d3d`]).

use super::error::GpuError;
use super::feedback::check_dim;
use super::limits::MAX_MIP_COUNT;
use bitvec::vec::BitVec;

/// Used bits for `mips` mip levels over a `width x height` grid of mip-0 mip regions.
///
/// Bit order: mip-major, then row-major (`(mip * height + y) * width + x`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MipRegionUsedFeedback {
    width: u32,
    height: u32,
    mips: u32,
    bits: BitVec,
}

impl MipRegionUsedFeedback {
    /// A cleared map (no mip requested anywhere) of `width x height` regions and `mips` mips.
    ///
    /// Errors when an edge is outside 1..=16384 or `mips` outside 1..=15.
    pub fn new(width: u32, height: u32, mips: u32) -> Result<Self, GpuError> {
        check_dim("feedback map width", width)?;
        check_dim("feedback map height", height)?;
        if mips == 0 || mips > MAX_MIP_COUNT {
            return Err(GpuError::MipCount { mip_count: mips, max: MAX_MIP_COUNT });
        }
        let len = width as usize * height as usize * mips as usize;
        Ok(MipRegionUsedFeedback { width, height, mips, bits: BitVec::repeat(false, len) })
    }

    /// Width, mip-0 regions.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, mip-0 regions.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Mip levels tracked.
    pub fn mips(&self) -> u32 {
        self.mips
    }

    /// Clears every bit ("no mips have been requested for any mip region").
    pub fn clear(&mut self) {
        self.bits.fill(false);
    }

    /// Marks `mip` as used in region (`x`, `y`) (an OR). Returns `false` and writes nothing
    /// when the region or mip is outside the map.
    pub fn set(&mut self, x: u32, y: u32, mip: u32) -> bool {
        let Some(i) = self.index(x, y, mip) else {
            return false;
        };
        self.bits.set(i, true);
        true
    }

    /// Whether `mip` was used in region (`x`, `y`); `None` outside the map.
    pub fn used(&self, x: u32, y: u32, mip: u32) -> Option<bool> {
        self.index(x, y, mip).map(|i| self.bits[i])
    }

    /// The finest mip used in region (`x`, `y`): what a MinMip feedback map would hold as a
    /// whole mip (the spec's "index of the rightmost-set bit"). `None` when nothing was used
    /// or the region is outside the map.
    pub fn finest_used(&self, x: u32, y: u32) -> Option<u32> {
        (0..self.mips).find(|&mip| self.used(x, y, mip) == Some(true))
    }

    /// D3D's decoded view: whether texel (`x`, `y`) of mip `mip`'s map is set, i.e. whether
    /// any region of the 2^mip x 2^mip block it covers used `mip`. `None` when that texel is
    /// outside the (coarser) mip map or `mip` is not tracked.
    pub fn used_d3d(&self, x: u32, y: u32, mip: u32) -> Option<bool> {
        if mip >= self.mips {
            return None;
        }
        let x0 = x.checked_shl(mip).filter(|&v| v < self.width)?;
        let y0 = y.checked_shl(mip).filter(|&v| v < self.height)?;
        let x1 = x0.saturating_add(1 << mip).min(self.width);
        let y1 = y0.saturating_add(1 << mip).min(self.height);
        Some((y0..y1).any(|yy| (x0..x1).any(|xx| self.used(xx, yy, mip) == Some(true))))
    }

    /// Number of set bits.
    pub fn used_count(&self) -> usize {
        self.bits.count_ones()
    }

    fn index(&self, x: u32, y: u32, mip: u32) -> Option<usize> {
        (x < self.width && y < self.height && mip < self.mips)
            .then(|| (mip as usize * self.height as usize + y as usize) * self.width as usize + x as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_used_clear() {
        let mut map = MipRegionUsedFeedback::new(4, 2, 3).unwrap();
        assert_eq!(map.used_count(), 0);
        assert!(map.set(1, 1, 2));
        assert!(map.set(1, 1, 2)); // OR: idempotent
        assert!(map.set(3, 0, 0));
        assert_eq!(map.used(1, 1, 2), Some(true));
        assert_eq!(map.used(1, 1, 1), Some(false));
        assert_eq!(map.used(3, 0, 0), Some(true));
        assert_eq!(map.used_count(), 2);
        assert_eq!(map.finest_used(1, 1), Some(2));
        assert_eq!(map.finest_used(0, 0), None);
        map.clear();
        assert_eq!(map.used_count(), 0);
    }

    #[test]
    fn out_of_range_is_ignored() {
        let mut map = MipRegionUsedFeedback::new(4, 2, 3).unwrap();
        assert!(!map.set(4, 0, 0));
        assert!(!map.set(0, 2, 0));
        assert!(!map.set(0, 0, 3));
        assert_eq!(map.used(0, 0, 3), None);
        assert_eq!(map.used_count(), 0);
        assert!(MipRegionUsedFeedback::new(4, 4, 0).is_err());
        assert!(MipRegionUsedFeedback::new(4, 4, 16).is_err());
    }

    #[test]
    fn d3d_view_ors_blocks() {
        let mut map = MipRegionUsedFeedback::new(8, 8, 4).unwrap();
        map.set(5, 6, 2); // in the mip-2 block (1, 1)
        assert_eq!(map.used_d3d(1, 1, 2), Some(true));
        assert_eq!(map.used_d3d(0, 1, 2), Some(false));
        assert_eq!(map.used_d3d(2, 0, 2), None); // mip 2's map is 2x2
        assert_eq!(map.used_d3d(5, 6, 2), None);
        assert_eq!(map.used_d3d(0, 0, 4), None);
    }
}
