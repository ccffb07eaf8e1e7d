//! Does a texture read touch a tile that is not resident? The hazard the MinMip clamp (and
//! the MinMip filter) exist to prevent, checked against residency as the GPU sees it: the
//! texture's MinMip map.
//!
//! The MinMip map has one texel per mip-0 tile holding the finest resident mip there (5.3;
//! D3D12 Sampler Feedback spec, "The MinMip Map": every coarser mip is resident too). So
//! mip `m` is resident over the mip-0 tile region of texel `r` iff `value(r) <= m * 8`.
//! A tap at mip `m` reads the texels `x0..=x1` x `y0..=y1` of that mip; texel `x` of mip
//! `m` covers mip-0 texels `x * 2^m .. (x + 1) * 2^m`, hence MinMip texels
//! `(x0 << m) / tile_w ..= (((x1 + 1) << m) - 1) / tile_w` (clamped to the map; the same
//! along V with `tile_h`). The tap reads only resident data iff every one of those texels
//! holds a value `<= m * 8`. Mips from the first packed mip on (the packed tail) are
//! always resident.
//!
//! The test looks at the texels the tap really covers, not at the whole 64 KiB tile of
//! mip `m` holding them (2^m x 2^m MinMip texels): for a map a streaming engine keeps
//! consistent (a mip-`m` tile is resident for all of its region or none) the two agree.

use super::error::GpuError;
use super::feedback::check_dim;
use super::footprint::{Footprint, Tap};
use super::minmip::MinMipMap;

/// How a texture's taps map onto its MinMip map: its tile shape and first packed mip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResidencyCheck {
    /// log2 of the tile width and height, texels (tile edges are powers of two).
    tile_shift: (u32, u32),
    first_packed_mip: u32,
}

impl ResidencyCheck {
    /// A check for a texture of `tile_texels` (width, height) per 64 KiB tile (512x256 for
    /// BC1/BC4, 256x256 otherwise: SPEC §3) whose packed tail starts at `first_packed_mip`.
    ///
    /// Errors when a tile edge is not a power of two in 1..=16384.
    pub fn new(tile_texels: (u32, u32), first_packed_mip: u32) -> Result<Self, GpuError> {
        let shift = |what, edge: u32| {
            check_dim(what, edge)?;
            if !edge.is_power_of_two() {
                return Err(GpuError::Dimension { what, value: edge });
            }
            Ok(edge.trailing_zeros())
        };
        Ok(ResidencyCheck {
            tile_shift: (shift("tile width", tile_texels.0)?, shift("tile height", tile_texels.1)?),
            first_packed_mip,
        })
    }

    /// The first packed (always resident) mip.
    pub fn first_packed_mip(&self) -> u32 {
        self.first_packed_mip
    }

    /// The inclusive MinMip-texel rectangle `(x0, x1, y0, y1)` that `tap`'s texels cover,
    /// clamped to `map`.
    pub fn cover(&self, map: &MinMipMap, tap: &Tap) -> (u32, u32, u32, u32) {
        let axis = |t0: u32, t1: u32, shift: u32, len: u32| {
            // In u64: a 16384-texel mip-0 edge shifted by up to 14 mips fits easily; larger
            // mips than the chain (never built) saturate at the map edge.
            let m = u64::from(tap.mip.min(40));
            let last = u64::from(len - 1);
            let lo = ((u64::from(t0) << m) >> shift).min(last);
            let hi = ((((u64::from(t1) + 1) << m) - 1) >> shift).min(last);
            (lo as u32, hi as u32)
        };
        let (x0, x1) = axis(tap.x0, tap.x1, self.tile_shift.0, map.width());
        let (y0, y1) = axis(tap.y0, tap.y1, self.tile_shift.1, map.height());
        (x0, x1, y0, y1)
    }

    /// Whether `map` has every tile of mip `mip` and coarser resident (so no read from
    /// `mip` on can touch a non-resident tile): `mip` is in the packed tail, or no texel
    /// of the map is coarser than `mip`.
    #[inline]
    pub fn resident_from(&self, map: &MinMipMap, mip: u32) -> bool {
        mip >= self.first_packed_mip || u32::from(map.max_value().0) <= mip.saturating_mul(8)
    }

    /// Whether every texel `tap` reads is resident according to `map`.
    #[inline]
    pub fn tap_is_resident(&self, map: &MinMipMap, tap: &Tap) -> bool {
        self.resident_from(map, tap.mip) || self.texels_hold(map, tap.mip, self.cover(map, tap))
    }

    /// Whether every MinMip texel of the inclusive rectangle `cover` (`x0, x1, y0, y1`, inside
    /// `map`, as [`cover`](Self::cover) gives) has mip `mip` resident: mip `mip` is in the
    /// packed tail or every texel there holds a value `<= mip * 8`.
    #[inline]
    pub fn cover_is_resident(&self, map: &MinMipMap, mip: u32, cover: (u32, u32, u32, u32)) -> bool {
        self.resident_from(map, mip) || self.texels_hold(map, mip, cover)
    }

    /// The log2 of the tile (width, height), texels: one MinMip texel's mip-0 block.
    pub fn tile_shift(&self) -> (u32, u32) {
        self.tile_shift
    }

    fn texels_hold(&self, map: &MinMipMap, mip: u32, (x0, x1, y0, y1): (u32, u32, u32, u32)) -> bool {
        let limit = mip.saturating_mul(8);
        let width = map.width() as usize;
        let values = map.values();
        (y0..=y1).all(|y| {
            let row = y as usize * width;
            values[row + x0 as usize..=row + x1 as usize].iter().all(|&v| u32::from(v) <= limit)
        })
    }

    /// Whether any tap of `footprint` reads a texel of a tile `map` does not have resident.
    pub fn touches_nonresident(&self, map: &MinMipMap, footprint: &Footprint) -> bool {
        footprint.taps.iter().any(|tap| !self.tap_is_resident(map, tap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::footprint::bilinear_tap;
    use crate::gpu::Lod53;

    /// A 1024x1024 texture with 256x256 tiles (BC7): MinMip map 4x4, packed from mip 2 on
    /// for the test's purposes.
    fn bc7() -> ResidencyCheck {
        ResidencyCheck::new((256, 256), 2).unwrap()
    }

    fn tap(mip: u32, x0: u32, x1: u32, y0: u32, y1: u32) -> Tap {
        Tap { mip, x0, x1, y0, y1 }
    }

    #[test]
    fn a_footprint_inside_one_resident_tile_is_resident() {
        // Tile (1, 1) has mip 0, its neighbours only mip 1.
        let mut map = MinMipMap::new(4, 4, Lod53(8)).unwrap();
        assert!(map.set(1, 1, Lod53(0)));
        let c = bc7();
        let inside = Footprint::from_taps(vec![tap(0, 300, 301, 400, 401)]);
        assert_eq!(c.cover(&map, &inside.taps[0]), (1, 1, 1, 1));
        assert!(!c.touches_nonresident(&map, &inside));
        // Mip 1 texels 150..=151 cover mip-0 texels 300..=303: still tile 1.
        assert!(c.tap_is_resident(&map, &tap(1, 150, 151, 200, 201)));
    }

    #[test]
    fn a_bilinear_tap_straddling_a_border_into_a_coarser_region_is_not_resident() {
        let mut map = MinMipMap::new(4, 4, Lod53(8)).unwrap();
        assert!(map.set(1, 1, Lod53(0)));
        let c = bc7();
        // u * 1024 = 512.2: the quad reads columns 511 and 512, i.e. tiles 1 and 2.
        let t = bilinear_tap((512.2 / 1024.0, 300.0 / 1024.0), 0, 1024, 1024);
        assert_eq!((t.x0, t.x1), (511, 512));
        assert_eq!(c.cover(&map, &t), (1, 2, 1, 1));
        assert!(c.touches_nonresident(&map, &Footprint::from_taps(vec![t])));
        // The same quad one mip coarser reads mip 1, resident everywhere.
        let t1 = bilinear_tap((512.2 / 1024.0, 300.0 / 1024.0), 1, 1024, 1024);
        assert!(c.tap_is_resident(&map, &t1));
        // A trilinear pair whose finer mip is fine but whose coarser mip is not.
        let mut coarse = MinMipMap::new(4, 4, Lod53(16)).unwrap();
        coarse.fill_rect(0, 0, 2, 2, Lod53(0));
        let fine = tap(0, 300, 301, 300, 301); // tile (1, 1): mip 0 resident
        let next = tap(1, 255, 256, 150, 150); // mip-0 texels 510..=513: tiles 1 and 2
        assert!(c.tap_is_resident(&coarse, &fine));
        assert!(!c.tap_is_resident(&coarse, &next));
    }

    #[test]
    fn fractional_values_need_the_next_whole_mip() {
        // 2.625 mips: mip 2 is not resident there, mip 3 is.
        let map = MinMipMap::from_values(1, 1, vec![21]).unwrap();
        let c = ResidencyCheck::new((256, 256), 5).unwrap();
        assert!(!c.tap_is_resident(&map, &tap(2, 0, 1, 0, 1)));
        assert!(c.tap_is_resident(&map, &tap(3, 0, 1, 0, 1)));
    }

    #[test]
    fn packed_tail_mips_are_always_resident() {
        // A map saying "nothing resident" (0xFF) still has its tail.
        let map = MinMipMap::new(4, 4, Lod53::NONE).unwrap();
        let c = bc7();
        assert!(!c.tap_is_resident(&map, &tap(1, 0, 1, 0, 1)));
        assert!(c.tap_is_resident(&map, &tap(2, 0, 1, 0, 1)));
        assert!(c.tap_is_resident(&map, &tap(9, 0, 0, 0, 0)));
    }

    /// Why no MinMip filter setting makes a 16x anisotropic read safe: its probes spread
    /// over the major axis (up to 8 x 2^LOD mip-0 texels each way), which can reach further
    /// than the largest offset (1/4 MinMip texel), where the filter's ramp has already
    /// dropped below the neighbour's value. A trilinear quad reaches less than 1.5 x 2^m
    /// mip-0 texels at mip m: 48 at mip 5, under 1/4 of a 256-texel tile.
    #[test]
    fn an_anisotropic_footprint_can_outreach_the_filter_offset() {
        use crate::gpu::{Filter, MinMipFilter, Offset, PreparedSampler, SamplerDesc, Slope};
        // 8192^2 BC7: 256x256 tiles, a 32x32 map, mips 0..=5 standard, the tail from 6.
        // Mip 4 resident up to column 16, only the tail from column 17 on.
        let values = (0..32 * 32).map(|i| if i % 32 >= 17 { 48 } else { 32 }).collect();
        let map = MinMipMap::from_values(32, 32, values).unwrap();
        let check = ResidencyCheck::new((256, 256), 6).unwrap();
        let widest = MinMipFilter {
            slope_u: Slope::TwoAndHalf,
            slope_v: Slope::TwoAndHalf,
            offset_u: Offset::Quarter,
            offset_v: Offset::Quarter,
        };
        // 0.4 MinMip texels left of the border; 256 x 16 texels per pixel: ratio 16, LOD 4.
        let uv = (16.6 / 32.0, 16.5 / 32.0);
        let derivs = [256.0 / 8192.0, 0.0, 0.0, 16.0 / 8192.0];
        let run = |filter, derivs| {
            let desc = SamplerDesc { filter, lod_bias: 0.0, minmip: Some(widest) };
            PreparedSampler::new(&desc, 8192, 8192, 14).unwrap().sample(uv, derivs, Some(&map)).unwrap()
        };
        let aniso = run(Filter::Anisotropic { max_aniso: 16 }, derivs);
        assert_eq!(aniso.desired_lod, 4.0);
        // The ramp from column 17 (mip 6) 0.4 texels away: 6 - 2.5 * (0.4 - 0.25).
        assert_eq!(aniso.clamp, 5.625);
        // The last probe, 120 texels right of the sample, lands in column 17, whose mip 5
        // is not resident.
        assert!(check.touches_nonresident(&map, &aniso.footprint));
        // A trilinear read of LOD 4 at the same place, clamped alike, reaches less than 1.5
        // texels of mip 5 (48 mip-0 texels, well short of the border): resident.
        let tri = run(Filter::Trilinear, [16.0 / 8192.0, 0.0, 0.0, 16.0 / 8192.0]);
        assert_eq!((tri.desired_lod, tri.clamp), (4.0, 5.625));
        assert!(!check.touches_nonresident(&map, &tri.footprint));
    }

    #[test]
    fn coarse_mips_cover_many_minmip_texels_and_clamp_to_the_map() {
        // BC1 tiles are 512x256: a 2048x1024 texture has a 4x4 map.
        let c = ResidencyCheck::new((512, 256), 4).unwrap();
        let map = MinMipMap::new(4, 4, Lod53(0)).unwrap();
        // Mip 2 texels 127..=128 cover mip-0 texels 508..=515 (x: map texels 0..=1) and
        // mip-0 rows 1020..=1027 (clamped to the map's last row).
        assert_eq!(c.cover(&map, &tap(2, 127, 128, 255, 256)), (0, 1, 3, 3));
        assert!(ResidencyCheck::new((300, 256), 4).is_err());
        assert!(ResidencyCheck::new((0, 256), 4).is_err());
    }
}
