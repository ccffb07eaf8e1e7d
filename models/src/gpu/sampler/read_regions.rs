//! Does a read touch a non-resident tile? [`ResidencyCheck::touches_nonresident`] over
//! [`PreparedSampler::read_footprint`], without building the footprint.
//!
//! The read's taps at a mip cover MinMip texels (one per mip-0 tile) through a projection —
//! scale by the mip's size, floor, clamp, shift onto mip 0, shift onto tiles, clamp to the
//! map — whose every step is monotonic, as for feedback regions (see `regions.rs`). So the
//! runs of equal covers along the probes are found the same way, and the read touches a
//! non-resident tile iff one of those covers does: every probe's cover is one of them.

#[cfg(doc)]
use super::super::footprint::Footprint;
use super::super::minmip::MinMipMap;
use super::super::residency_check::ResidencyCheck;
use super::regions::{projected_regions, MipTaps};
use super::{Lods, MipRegions, PreparedSampler};

/// The MinMip-texel covers of one texture's reads, each mip's projection worked out once.
#[derive(Debug, Clone)]
pub struct ReadRegions {
    sampler: PreparedSampler,
    check: ResidencyCheck,
    /// Per mip of the sampler's texture.
    mips: Vec<Option<MipTaps>>,
}

impl ReadRegions {
    /// The covers of `sampler`'s reads on a MinMip map of `map` (width, height) texels,
    /// checked with `check` (the texture's tile shape and packed tail).
    pub fn new(sampler: &PreparedSampler, check: &ResidencyCheck, map: (u32, u32)) -> ReadRegions {
        let mips =
            (0..sampler.mip_count).map(|mip| Some(MipTaps::per_block(sampler, mip, check.tile_shift(), map))).collect();
        ReadRegions { sampler: *sampler, check: *check, mips }
    }

    /// Appends to `out` the MinMip-texel rectangles the read at `uv` with LODs `l` covers,
    /// per mip: together, exactly the covers ([`ResidencyCheck::cover`]) of the taps of
    /// [`PreparedSampler::read_footprint`] (rectangles may repeat or overlap).
    pub fn covers(&self, uv: (f64, f64), l: &Lods, out: &mut Vec<MipRegions>) {
        projected_regions(&self.sampler, &self.mips, uv, l.effective, l.ratio, l.major, out);
    }

    /// Whether the read at `uv` with LODs `l` touches a tile `map` does not have resident:
    /// [`ResidencyCheck::touches_nonresident`] of its [`Footprint`]. `scratch` holds the
    /// covers (reused across calls; its contents are not kept).
    pub fn touches_nonresident(
        &self,
        map: &MinMipMap,
        uv: (f64, f64),
        l: &Lods,
        scratch: &mut Vec<MipRegions>,
    ) -> bool {
        scratch.clear();
        self.covers(uv, l, scratch);
        scratch.iter().any(|r| !self.check.cover_is_resident(map, r.mip, (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{Filter, Lod53, SamplerDesc};
    use super::*;
    use proptest::prelude::*;

    fn filter_of(kind: u32, max_aniso: u32) -> Filter {
        match kind {
            0 => Filter::Point,
            1 => Filter::Bilinear,
            2 => Filter::Trilinear,
            _ => Filter::Anisotropic { max_aniso },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn covers_and_verdict_equal_the_footprints(
            kind in 0u32..5, max_aniso in 1u32..=16,
            w in prop_oneof![Just(8192u32), Just(1024), 64u32..3000], h in prop_oneof![Just(8192u32), Just(512), 64u32..3000],
            log_tw in 6u32..10, log_th in 6u32..10, packed in 0u32..15,
            u in -0.2f64..1.2, v in -0.2f64..1.2,
            scale in -14.0f64..2.0, d in proptest::array::uniform4(-1.0f64..1.0),
            clamp in 0.0f32..8.0, seed in any::<u64>(),
        ) {
            let desc = SamplerDesc::new(filter_of(kind, max_aniso));
            let mips = crate::gpu::full_mip_count(w, h);
            let Ok(sampler) = PreparedSampler::new(&desc, w, h, mips) else { return Ok(()) };
            let check = ResidencyCheck::new((1 << log_tw, 1 << log_th), packed.min(mips)).unwrap();
            let (mw, mh) = (w.div_ceil(1 << log_tw), h.div_ceil(1 << log_th));
            // A map of random finest-resident mips, mostly fine, some coarse.
            let mut state = seed | 1;
            let values: Vec<u8> = (0..mw * mh)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    ((state % 5) * 8) as u8
                })
                .collect();
            let map = MinMipMap::from_values(mw, mh, values).unwrap();
            let k = 2f64.powf(scale);
            let derivs = [d[0] * k, d[1] * k, d[2] * k * 0.3, d[3] * k * 0.3];
            let Ok(desired) = sampler.desired(derivs) else { return Ok(()) };
            let l = desired.with_clamp(clamp);
            let footprint = sampler.read_footprint((u, v), &l);
            let regions = ReadRegions::new(&sampler, &check, (mw, mh));
            let mut covers = Vec::new();
            regions.covers((u, v), &l, &mut covers);
            // Every tap's cover is listed, and every listed cover is some tap's.
            let tap_covers: Vec<(u32, (u32, u32, u32, u32))> =
                footprint.taps.iter().map(|t| (t.mip, check.cover(&map, t))).collect();
            let listed: Vec<(u32, (u32, u32, u32, u32))> =
                covers.iter().map(|r| (r.mip, (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1))).collect();
            for c in &tap_covers {
                prop_assert!(listed.contains(c), "tap cover {:?} missing from {:?}", c, listed);
            }
            for c in &listed {
                prop_assert!(tap_covers.contains(c), "cover {:?} is no tap's: {:?}", c, tap_covers);
            }
            let mut scratch = Vec::new();
            prop_assert_eq!(
                regions.touches_nonresident(&map, (u, v), &l, &mut scratch),
                check.touches_nonresident(&map, &footprint)
            );
        }
    }

    #[test]
    fn a_read_of_a_missing_tile_is_caught_and_a_resident_one_is_not() {
        let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
        let sampler = PreparedSampler::new(&desc, 8192, 8192, 14).unwrap();
        let check = ResidencyCheck::new((256, 256), 6).unwrap();
        // Mip 0 resident everywhere but MinMip texel (20, 20), which has only mip 2.
        let mut map = MinMipMap::new(32, 32, Lod53(0)).unwrap();
        assert!(map.set(20, 20, Lod53(16)));
        let regions = ReadRegions::new(&sampler, &check, (32, 32));
        let derivs = [8.0 / 8192.0, 0.0, 0.0, 1.0 / 8192.0];
        let l = sampler.desired(derivs).unwrap().with_clamp(0.0);
        let mut scratch = Vec::new();
        assert!(regions.touches_nonresident(&map, (20.5 / 32.0, 20.5 / 32.0), &l, &mut scratch));
        assert!(!regions.touches_nonresident(&map, (5.5 / 32.0, 5.5 / 32.0), &l, &mut scratch));
        // Clamped to mip 2, the same read is resident.
        let clamped = sampler.desired(derivs).unwrap().with_clamp(2.0);
        assert!(!regions.touches_nonresident(&map, (20.5 / 32.0, 20.5 / 32.0), &clamped, &mut scratch));
    }
}
