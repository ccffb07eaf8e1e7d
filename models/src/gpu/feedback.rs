//! MinMip feedback maps (decoded R8_UINT 5.3) and arrays of them sharing one allocation.
//!
//! D3D12 Sampler Feedback spec, "MinMip feedback map": each texel covers one mip region of
//! the paired texture and holds the most detailed LOD requested there, written with an
//! atomic minimum and computed without the MinMip clamp. A cleared map is all 0xFF. sfsim
//! models the decoded (transcoded) form directly; the opaque layout is not public.
//!
//! SPEC §4 / the spec's "Batch Processing" section: maps of equal size live as slices of one
//! Texture2DArray so one clear resets them all — [`FeedbackArray`].

use super::error::GpuError;
use super::limits::{MAX_ARRAY_SLICES, MAX_TEXTURE_DIM};
use super::lod::Lod53;

/// A MinMip feedback map: `width x height` texels, row-major, one [`Lod53`] byte each.
///
/// Generic over its storage so that an owned map (`Vec<u8>`, the default) and a slice of a
/// [`FeedbackArray`] (`&[u8]` / `&mut [u8]`) share one implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinMipFeedback<S = Vec<u8>> {
    width: u32,
    height: u32,
    texels: S,
}

/// A read-only slice of a [`FeedbackArray`].
pub type MinMipFeedbackSlice<'a> = MinMipFeedback<&'a [u8]>;

/// A writable slice of a [`FeedbackArray`].
pub type MinMipFeedbackSliceMut<'a> = MinMipFeedback<&'a mut [u8]>;

/// Checks a map edge against 1..=16384 texels.
pub(crate) fn check_dim(what: &'static str, value: u32) -> Result<(), GpuError> {
    if value == 0 || value > MAX_TEXTURE_DIM {
        return Err(GpuError::Dimension { what, value });
    }
    Ok(())
}

/// Texels in a `width x height` map; both edges are at most 16384 so this cannot overflow.
pub(crate) fn texel_count(width: u32, height: u32) -> usize {
    width as usize * height as usize
}

/// `len` bytes of `value`, or an error instead of an allocation abort: the D3D12 limits
/// still allow arrays of hundreds of GiB.
pub(crate) fn alloc_filled(len: usize, value: u8) -> Result<Vec<u8>, GpuError> {
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| GpuError::Allocation(len))?;
    bytes.resize(len, value);
    Ok(bytes)
}

impl MinMipFeedback<Vec<u8>> {
    /// A cleared (all [`Lod53::NONE`]) map of `width x height` feedback texels.
    ///
    /// Errors when an edge is 0 or above 16384 (the D3D12 2D texture limit), or when the
    /// allocation fails.
    pub fn new(width: u32, height: u32) -> Result<Self, GpuError> {
        check_dim("feedback map width", width)?;
        check_dim("feedback map height", height)?;
        Ok(MinMipFeedback { width, height, texels: alloc_filled(texel_count(width, height), Lod53::NONE.0)? })
    }
}

impl<S: AsRef<[u8]>> MinMipFeedback<S> {
    /// Width, feedback texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, feedback texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// All texels, row-major (`y * width + x`), each a 5.3 LOD byte.
    #[inline]
    pub fn texels(&self) -> &[u8] {
        self.texels.as_ref()
    }

    /// The texel at (`x`, `y`); `None` outside the map.
    pub fn get(&self, x: u32, y: u32) -> Option<Lod53> {
        self.index(x, y).map(|i| Lod53(self.texels.as_ref()[i]))
    }

    /// Texels holding a request (anything but [`Lod53::NONE`]).
    pub fn requested_count(&self) -> usize {
        self.texels().iter().filter(|&&b| b != Lod53::NONE.0).count()
    }

    #[inline]
    fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }
}

impl<S: AsRef<[u8]> + AsMut<[u8]>> MinMipFeedback<S> {
    /// Resets every texel to [`Lod53::NONE`] ("nothing requested"), as
    /// `ClearUnorderedAccessViewUint` does before each frame.
    pub fn clear(&mut self) {
        self.texels.as_mut().fill(Lod53::NONE.0);
    }

    /// Atomic-minimum write: the texel becomes `min(old, lod)`, so the finest request wins.
    ///
    /// Returns `false` (and writes nothing) when (`x`, `y`) is outside the map; `true`
    /// otherwise, whether or not the stored value changed.
    #[inline]
    pub fn write_min(&mut self, x: u32, y: u32, lod: Lod53) -> bool {
        let Some(i) = self.index(x, y) else {
            return false;
        };
        let texel = &mut self.texels.as_mut()[i];
        *texel = (*texel).min(lod.0);
        true
    }

    /// As [`write_min`](Self::write_min), returning the texel's value before the write
    /// (`None`, and nothing written, outside the map): [`Lod53::NONE`] marks a texel's
    /// first request since the clear.
    #[inline]
    pub fn write_min_previous(&mut self, x: u32, y: u32, lod: Lod53) -> Option<Lod53> {
        let i = self.index(x, y)?;
        let texel = &mut self.texels.as_mut()[i];
        let previous = *texel;
        *texel = previous.min(lod.0);
        Some(Lod53(previous))
    }
}

/// MinMip feedback maps of one size stored as the slices of one Texture2DArray allocation,
/// so [`FeedbackArray::clear_all`] is a single fill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedbackArray {
    width: u32,
    height: u32,
    slices: u32,
    texels: Vec<u8>,
}

impl FeedbackArray {
    /// `slices` cleared maps of `width x height` feedback texels each.
    ///
    /// Errors when an edge is outside 1..=16384 or `slices` outside 1..=2048 (D3D12 limits),
    /// or when the allocation fails.
    pub fn new(width: u32, height: u32, slices: u32) -> Result<Self, GpuError> {
        check_dim("feedback map width", width)?;
        check_dim("feedback map height", height)?;
        if slices == 0 || slices > MAX_ARRAY_SLICES {
            return Err(GpuError::ArraySlices(slices));
        }
        Ok(FeedbackArray {
            width,
            height,
            slices,
            texels: alloc_filled(texel_count(width, height) * slices as usize, Lod53::NONE.0)?,
        })
    }

    /// Width of every slice, feedback texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of every slice, feedback texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of slices (maps).
    pub fn slice_count(&self) -> u32 {
        self.slices
    }

    /// The whole allocation, slice after slice, each row-major.
    #[inline]
    pub fn texels(&self) -> &[u8] {
        &self.texels
    }

    /// [`texels`](Self::texels) for writing: for a caller writing many texels of known
    /// slices (from [`slice_start`](Self::slice_start)) in a tight loop, with the slice's
    /// pointer and length held in registers rather than re-read after every store.
    pub fn texels_mut(&mut self) -> &mut [u8] {
        &mut self.texels
    }

    /// Clears every slice to [`Lod53::NONE`] with one fill of the shared allocation.
    pub fn clear_all(&mut self) {
        self.texels.fill(Lod53::NONE.0);
    }

    /// Slice `i` for reading; `None` when `i >= slice_count()`.
    #[inline]
    pub fn slice(&self, i: u32) -> Option<MinMipFeedbackSlice<'_>> {
        let range = self.range(i)?;
        Some(MinMipFeedback { width: self.width, height: self.height, texels: &self.texels[range] })
    }

    /// [`MinMipFeedback::write_min_previous`] on texel (`x`, `y`) of slice `slice`, without
    /// making a slice view first: one index computation for the per-sample write.
    #[inline]
    pub fn write_min_previous(&mut self, slice: u32, x: u32, y: u32, lod: Lod53) -> Option<Lod53> {
        if slice >= self.slices || x >= self.width || y >= self.height {
            return None;
        }
        let i = (slice as usize * self.height as usize + y as usize) * self.width as usize + x as usize;
        let texel = &mut self.texels[i];
        let previous = *texel;
        *texel = previous.min(lod.0);
        Some(Lod53(previous))
    }

    /// The index among the array's texels of slice `slice`'s first texel (its rows of
    /// [`width`](Self::width) texels follow), for [`write_min_at`](Self::write_min_at):
    /// a caller writing many texels of known slices looks each slice up once. `None` past
    /// the last slice.
    pub fn slice_start(&self, slice: u32) -> Option<usize> {
        self.range(slice).map(|r| r.start)
    }

    /// [`write_min_previous`](Self::write_min_previous) on the texel at `index` of the
    /// array's texels (from [`slice_start`](Self::slice_start)); `None`, and nothing
    /// written, past the last texel.
    #[inline]
    pub fn write_min_at(&mut self, index: usize, lod: Lod53) -> Option<Lod53> {
        let texel = self.texels.get_mut(index)?;
        let previous = *texel;
        *texel = previous.min(lod.0);
        Some(Lod53(previous))
    }

    /// Clears texel (`x`, `y`) of slice `slice` back to [`Lod53::NONE`] (no request):
    /// [`clear_all`](Self::clear_all) for the few texels a frame wrote, when the caller kept
    /// them. Returns `false` (and clears nothing) outside the array.
    #[inline]
    pub fn clear_texel(&mut self, slice: u32, x: u32, y: u32) -> bool {
        if slice >= self.slices || x >= self.width || y >= self.height {
            return false;
        }
        let i = (slice as usize * self.height as usize + y as usize) * self.width as usize + x as usize;
        self.texels[i] = Lod53::NONE.0;
        true
    }

    /// Slice `i` for writing; `None` when `i >= slice_count()`.
    #[inline]
    pub fn slice_mut(&mut self, i: u32) -> Option<MinMipFeedbackSliceMut<'_>> {
        let range = self.range(i)?;
        Some(MinMipFeedback { width: self.width, height: self.height, texels: &mut self.texels[range] })
    }

    #[inline]
    fn range(&self, i: u32) -> Option<std::ops::Range<usize>> {
        (i < self.slices).then(|| {
            let n = texel_count(self.width, self.height);
            i as usize * n..(i as usize + 1) * n
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_write_min_previous_writes_only_its_slice_texel() {
        let mut array = FeedbackArray::new(4, 3, 2).unwrap();
        assert_eq!(array.write_min_previous(1, 3, 2, Lod53(40)), Some(Lod53::NONE));
        assert_eq!(array.write_min_previous(1, 3, 2, Lod53(50)), Some(Lod53(40)));
        assert_eq!(array.slice(1).unwrap().get(3, 2), Some(Lod53(40)));
        assert_eq!(array.slice(0).unwrap().requested_count(), 0);
        assert_eq!(array.slice(1).unwrap().requested_count(), 1);
        for (slice, x, y) in [(2, 0, 0), (0, 4, 0), (0, 0, 3)] {
            assert_eq!(array.write_min_previous(slice, x, y, Lod53(8)), None);
            assert!(!array.clear_texel(slice, x, y));
        }
        assert_eq!(array.write_min_previous(0, 3, 2, Lod53(16)), Some(Lod53::NONE));
        // The same texels by index: a slice's start, then rows of `width` texels.
        let start = array.slice_start(1).unwrap();
        assert_eq!(array.write_min_at(start + 2 * array.width() as usize + 3, Lod53(30)), Some(Lod53(40)));
        assert_eq!(array.slice(1).unwrap().get(3, 2), Some(Lod53(30)));
        let end = (array.slice_count() * array.width() * array.height()) as usize;
        assert_eq!(array.write_min_at(end, Lod53(8)), None, "past the last texel");
        assert_eq!(array.slice_start(array.slice_count()), None);
        assert!(array.clear_texel(1, 3, 2));
        assert_eq!(array.slice(1).unwrap().requested_count(), 0, "the texel is cleared");
        assert_eq!(array.slice(0).unwrap().get(3, 2), Some(Lod53(16)), "the other slice's is kept");
    }

    #[test]
    fn write_min_previous_reports_the_first_request() {
        let mut map = MinMipFeedback::new(4, 4).unwrap();
        assert_eq!(map.write_min_previous(1, 2, Lod53(40)), Some(Lod53::NONE));
        assert_eq!(map.write_min_previous(1, 2, Lod53(50)), Some(Lod53(40)));
        assert_eq!(map.write_min_previous(1, 2, Lod53(8)), Some(Lod53(40)));
        assert_eq!(map.get(1, 2), Some(Lod53(8)));
        assert_eq!(map.write_min_previous(4, 0, Lod53(8)), None);
    }

    #[test]
    fn new_map_is_cleared() {
        let map = MinMipFeedback::new(8, 16).unwrap();
        assert_eq!(map.texels().len(), 128);
        assert!(map.texels().iter().all(|&b| b == 0xFF));
        assert_eq!(map.requested_count(), 0);
    }

    #[test]
    fn rejects_bad_sizes() {
        assert!(MinMipFeedback::new(0, 4).is_err());
        assert!(MinMipFeedback::new(4, 16385).is_err());
        assert!(FeedbackArray::new(4, 4, 0).is_err());
        assert!(FeedbackArray::new(4, 4, 2049).is_err());
        assert!(FeedbackArray::new(16384, 1, 2048).is_ok());
    }

    #[test]
    fn min_semantics_and_untouched_texels_stay_ff() {
        let mut map = MinMipFeedback::new(4, 2).unwrap();
        assert!(map.write_min(1, 1, Lod53(40)));
        assert!(map.write_min(1, 1, Lod53(24))); // finer: replaces
        assert!(map.write_min(1, 1, Lod53(32))); // coarser: ignored
        assert_eq!(map.get(1, 1), Some(Lod53(24)));
        assert!(map.write_min(3, 0, Lod53(0)));
        assert_eq!(map.get(3, 0), Some(Lod53(0)));
        for (x, y) in [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (3, 1)] {
            assert_eq!(map.get(x, y), Some(Lod53::NONE), "({x}, {y})");
        }
        assert_eq!(map.requested_count(), 2);
        map.clear();
        assert_eq!(map.get(1, 1), Some(Lod53::NONE));
    }

    #[test]
    fn out_of_range_writes_are_ignored() {
        let mut map = MinMipFeedback::new(4, 2).unwrap();
        assert!(!map.write_min(4, 0, Lod53(0)));
        assert!(!map.write_min(0, 2, Lod53(0)));
        assert!(!map.write_min(u32::MAX, u32::MAX, Lod53(0)));
        assert_eq!(map.get(4, 0), None);
        assert_eq!(map.requested_count(), 0);
    }

    #[test]
    fn array_slices_are_independent_and_clear_in_bulk() {
        let mut array = FeedbackArray::new(4, 4, 3).unwrap();
        array.slice_mut(0).unwrap().write_min(0, 0, Lod53(8));
        array.slice_mut(2).unwrap().write_min(3, 3, Lod53(16));
        assert!(array.slice_mut(3).is_none());
        assert!(array.slice(3).is_none());

        assert_eq!(array.slice(0).unwrap().get(0, 0), Some(Lod53(8)));
        assert_eq!(array.slice(1).unwrap().requested_count(), 0);
        assert_eq!(array.slice(2).unwrap().get(3, 3), Some(Lod53(16)));
        // Slice 2 starts right after slice 1 in the shared allocation.
        assert_eq!(array.texels()[2 * 16 + 15], 16);

        array.clear_all();
        assert!(array.texels().iter().all(|&b| b == 0xFF));
        for i in 0..3 {
            assert_eq!(array.slice(i).unwrap().requested_count(), 0);
        }
    }

    #[test]
    fn slices_clear_alone() {
        let mut array = FeedbackArray::new(2, 2, 2).unwrap();
        array.slice_mut(0).unwrap().write_min(0, 0, Lod53(1));
        array.slice_mut(1).unwrap().write_min(0, 0, Lod53(2));
        array.slice_mut(0).unwrap().clear();
        assert_eq!(array.slice(0).unwrap().get(0, 0), Some(Lod53::NONE));
        assert_eq!(array.slice(1).unwrap().get(0, 0), Some(Lod53(2)));
    }
}
