//! MinMip maps: per mip-0 tile, the finest resident mip, and the point-sampled clamp.
//!
//! D3D12 Sampler Feedback spec, "The MinMip Map": an application-defined texture with one
//! texel per mip region (here: per mip-0 tile, SPEC §4) holding the most detailed mip that
//! is resident there; every coarser mip is resident too. Shaders sample it at the same UV as
//! the tiled texture and use the value as a per-pixel MinLOD clamp. sfsim stores the values
//! in 5.3 fixed point like feedback (DESIGN.md), so whole mips are multiples of 8.
//!
//! Point sampling ([`MinMipMap::clamp_point`]) is the baseline; the MinMip filter
//! ([`MinMipMap::clamp_filtered`], in `minmip_filter.rs`) is sfsim's continuous variant.

use super::error::GpuError;
use super::feedback::{alloc_filled, check_dim, texel_count};
use super::footprint::clamp_texel_to;
use super::lod::Lod53;

/// A MinMip map of `width x height` texels (mip-0 tiles), row-major, 5.3 values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinMipMap {
    width: u32,
    height: u32,
    values: Vec<u8>,
    /// Largest value in `values`: bounds how far a filtered clamp has to look.
    max_value: u8,
}

impl MinMipMap {
    /// A map with every texel set to `fill` (typically the first packed mip: only the
    /// always-resident tail is loaded).
    ///
    /// Errors when an edge is outside 1..=16384 or the allocation fails.
    pub fn new(width: u32, height: u32, fill: Lod53) -> Result<Self, GpuError> {
        check_dim("MinMip map width", width)?;
        check_dim("MinMip map height", height)?;
        Ok(MinMipMap { width, height, values: alloc_filled(texel_count(width, height), fill.0)?, max_value: fill.0 })
    }

    /// A map over the given row-major 5.3 `values`.
    ///
    /// Errors when an edge is outside 1..=16384 or `values.len() != width * height`.
    pub fn from_values(width: u32, height: u32, values: Vec<u8>) -> Result<Self, GpuError> {
        check_dim("MinMip map width", width)?;
        check_dim("MinMip map height", height)?;
        let expected = texel_count(width, height);
        if values.len() != expected {
            return Err(GpuError::DataLength { expected, actual: values.len() });
        }
        let max_value = values.iter().copied().max().unwrap_or(0);
        Ok(MinMipMap { width, height, values, max_value })
    }

    /// Width, texels (mip-0 tiles).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height, texels (mip-0 tiles).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// All values, row-major (`y * width + x`), 5.3 bytes.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The largest (coarsest) value in the map.
    pub fn max_value(&self) -> Lod53 {
        Lod53(self.max_value)
    }

    /// The value at (`x`, `y`); `None` outside the map.
    #[inline]
    pub fn get(&self, x: u32, y: u32) -> Option<Lod53> {
        self.index(x, y).map(|i| Lod53(self.values[i]))
    }

    /// Sets the value at (`x`, `y`). Returns `false` and writes nothing outside the map.
    pub fn set(&mut self, x: u32, y: u32, value: Lod53) -> bool {
        let Some(i) = self.index(x, y) else {
            return false;
        };
        let old = std::mem::replace(&mut self.values[i], value.0);
        if value.0 > self.max_value {
            self.max_value = value.0;
        } else if old == self.max_value && value.0 < old {
            self.recompute_max();
        }
        true
    }

    /// Replaces every texel, row-major, as one upload of the whole map does. Returns `false`
    /// and writes nothing unless `values` has exactly one value per texel.
    pub fn set_all(&mut self, values: &[Lod53]) -> bool {
        if values.len() != self.values.len() {
            return false;
        }
        for (texel, v) in self.values.iter_mut().zip(values) {
            *texel = v.0;
        }
        self.max_value = self.values.iter().copied().max().unwrap_or(0);
        true
    }

    /// Sets the `w x h` rectangle whose top-left texel is (`x`, `y`), as a streaming engine
    /// does when a tile of mip N (covering 2^N x 2^N mip-0 tiles) maps or unmaps. Returns
    /// `false` and writes nothing unless the rectangle is non-empty and inside the map.
    pub fn fill_rect(&mut self, x: u32, y: u32, w: u32, h: u32, value: Lod53) -> bool {
        let inside = |start: u32, len: u32, dim: u32| len > 0 && start.checked_add(len).is_some_and(|end| end <= dim);
        if !inside(x, w, self.width) || !inside(y, h, self.height) {
            return false;
        }
        for row in y..y + h {
            let start = row as usize * self.width as usize + x as usize;
            self.values[start..start + w as usize].fill(value.0);
        }
        self.recompute_max();
        true
    }

    /// Point-sampled clamp (the baseline), mips: the value of the texel containing (`u`,
    /// `v`) (normalized coordinates; texel `floor(u * width)` as in D3D11.3 §7.18.7).
    ///
    /// Coordinates outside 0..=1 read the edge texel: the CLAMP address mode, which is what
    /// the hardware does when the MinMip sampler uses it. `None` for a NaN or infinite
    /// coordinate.
    #[inline]
    pub fn clamp_point(&self, u: f64, v: f64) -> Option<f32> {
        self.point_index(u, v).map(|i| self.clamp_at(i))
    }

    /// The row-major index of the texel [`clamp_point`](Self::clamp_point) reads at
    /// (`u`, `v`): maps of one size share it, so a texture set's maps look it up once.
    #[inline]
    pub fn point_index(&self, u: f64, v: f64) -> Option<usize> {
        if !u.is_finite() || !v.is_finite() {
            return None;
        }
        // `containing(position(u, v))` in one step: floor, then clamp to the texels (the
        // float clamp to 0..=width had been turned into a vector compare and branches).
        let cx = clamp_texel_to(u * f64::from(self.width), self.width - 1);
        let cy = clamp_texel_to(v * f64::from(self.height), self.height - 1);
        Some(cy as usize * self.width as usize + cx as usize)
    }

    /// The clamp, mips, held by texel `index` of [`point_index`](Self::point_index).
    #[inline]
    pub fn clamp_at(&self, index: usize) -> f32 {
        (f64::from(self.values[index]) / 8.0) as f32
    }

    /// Continuous MinMip-map position of (`u`, `v`), in texels, clamped to the map
    /// (CLAMP addressing); `None` when not finite.
    #[inline]
    pub(crate) fn position(&self, u: f64, v: f64) -> Option<(f64, f64)> {
        if !u.is_finite() || !v.is_finite() {
            return None;
        }
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        Some(((u * w).clamp(0.0, w), (v * h).clamp(0.0, h)))
    }

    /// The texel containing position (`px`, `py`); the far edge belongs to the last texel.
    #[inline]
    pub(crate) fn containing(&self, px: f64, py: f64) -> (u32, u32) {
        // `px` is in 0..=width, so truncation floors it and only `width` itself needs the min.
        let cx = (px as u32).min(self.width - 1);
        let cy = (py as u32).min(self.height - 1);
        (cx, cy)
    }

    /// Value at an in-range texel, mips.
    #[inline]
    pub(crate) fn value(&self, x: u32, y: u32) -> f64 {
        f64::from(self.values[y as usize * self.width as usize + x as usize]) / 8.0
    }

    #[inline]
    fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }

    fn recompute_max(&mut self) {
        self.max_value = self.values.iter().copied().max().unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_2x2() -> MinMipMap {
        // Row 0: mips 0, 1; row 1: mips 2, 3.
        MinMipMap::from_values(2, 2, vec![0, 8, 16, 24]).unwrap()
    }

    #[test]
    fn set_all_replaces_every_texel_and_tracks_the_max() {
        let mut m = map_2x2();
        assert!(m.set_all(&[Lod53(4), Lod53(2), Lod53(9), Lod53(1)]));
        assert_eq!(m.values(), &[4, 2, 9, 1]);
        assert_eq!(m.max_value(), Lod53(9));
        assert!(!m.set_all(&[Lod53(0); 3]), "a wrong length is refused");
        assert_eq!(m.values(), &[4, 2, 9, 1], "and writes nothing");
    }

    proptest::proptest! {
        /// The one-step index is the texel `containing(position(u, v))` names, edges,
        /// huge and non-finite coordinates included.
        #[test]
        fn point_index_is_the_containing_texel_of_the_position(
            w in proptest::prop_oneof![1u32..8, proptest::strategy::Just(32), 1u32..4096], h in 1u32..300,
            u in proptest::prop_oneof![-0.5f64..1.5, proptest::strategy::Just(1.0), proptest::strategy::Just(0.0), proptest::num::f64::ANY],
            v in proptest::prop_oneof![-0.5f64..1.5, proptest::strategy::Just(1.0), proptest::strategy::Just(-0.0), proptest::num::f64::ANY],
        ) {
            let map = MinMipMap::new(w, h, Lod53::NONE).unwrap();
            let by_steps = map.position(u, v).map(|(px, py)| {
                let (cx, cy) = map.containing(px, py);
                cy as usize * w as usize + cx as usize
            });
            proptest::prop_assert_eq!(map.point_index(u, v), by_steps);
        }
    }

    #[test]
    fn point_sampling_reads_the_containing_texel() {
        let m = map_2x2();
        assert_eq!(m.clamp_point(0.25, 0.25), Some(0.0));
        assert_eq!(m.clamp_point(0.75, 0.25), Some(1.0));
        assert_eq!(m.clamp_point(0.25, 0.75), Some(2.0));
        assert_eq!(m.clamp_point(0.75, 0.75), Some(3.0));
        // A border belongs to the texel on its right / below (floor).
        assert_eq!(m.clamp_point(0.5, 0.0), Some(1.0));
        assert_eq!(m.clamp_point(0.4999, 0.0), Some(0.0));
        // CLAMP addressing: outside the map reads the edge texel.
        assert_eq!(m.clamp_point(1.0, 1.0), Some(3.0));
        assert_eq!(m.clamp_point(7.0, -3.0), Some(1.0));
        assert_eq!(m.clamp_point(f64::NAN, 0.5), None);
        assert_eq!(m.clamp_point(0.5, f64::INFINITY), None);
    }

    #[test]
    fn fractional_values_come_back_exactly() {
        let m = MinMipMap::from_values(1, 1, vec![21]).unwrap();
        assert_eq!(m.clamp_point(0.5, 0.5), Some(2.625));
    }

    #[test]
    fn set_and_fill_track_the_maximum() {
        let mut m = map_2x2();
        assert_eq!(m.max_value(), Lod53(24));
        assert!(m.set(1, 1, Lod53(4)));
        assert_eq!(m.max_value(), Lod53(16));
        assert!(m.set(0, 0, Lod53(40)));
        assert_eq!(m.max_value(), Lod53(40));
        assert!(!m.set(2, 0, Lod53(0)));
        assert!(m.fill_rect(0, 0, 2, 1, Lod53(8)));
        assert_eq!(m.values(), &[8, 8, 16, 4]);
        assert_eq!(m.max_value(), Lod53(16));
        assert!(!m.fill_rect(1, 1, 2, 1, Lod53(0)));
        assert!(!m.fill_rect(0, 0, 0, 1, Lod53(0)));
        assert!(!m.fill_rect(u32::MAX, 0, 2, 1, Lod53(0)));
        assert_eq!(m.values(), &[8, 8, 16, 4]);
    }

    #[test]
    fn rejects_bad_sizes() {
        assert!(MinMipMap::new(0, 1, Lod53::ZERO).is_err());
        assert!(MinMipMap::from_values(2, 2, vec![0; 3]).is_err());
        assert_eq!(MinMipMap::new(3, 2, Lod53(7)).unwrap().values(), &[7, 7, 7, 7, 7, 7]);
    }
}
