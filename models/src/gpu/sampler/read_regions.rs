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
use super::{FootprintRegions, Lods, MipRegions, PreparedSampler};

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
        let _ = projected_regions(&self.sampler, &self.mips, uv, l.effective, l.ratio, l.major, out);
    }

    /// Whether an unclamped read's covers are exactly `feedback`'s rectangles for the same
    /// sample (its texture's layout with tile-sized regions and power-of-two edges): then
    /// [`rects_touch_nonresident`](Self::rects_touch_nonresident) over those rectangles
    /// answers for the read, and the search runs once. `feedback` must be of this sampler.
    pub fn covers_are_feedback_regions(&self, feedback: &FootprintRegions) -> bool {
        let projections = feedback.projections();
        let first_packed = self.check.first_packed_mip() as usize;
        // Mips from the packed tail on are resident whatever their covers: only the
        // streamed mips must project alike.
        projections.len() == self.mips.len()
            && (0..first_packed.min(self.mips.len())).all(|mip| match (&projections[mip], &self.mips[mip]) {
                (Some(f), Some(r)) => f.projects_like(r),
                _ => false,
            })
    }

    /// Whether any of `covers` (for this texture's map) holds a tile `map` does not have
    /// resident.
    pub fn rects_touch_nonresident(&self, map: &MinMipMap, covers: &[MipRegions]) -> bool {
        covers.iter().any(|r| !self.check.cover_is_resident(map, r.mip, (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1)))
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
        self.rects_touch_nonresident(map, scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{Filter, Lod53, SamplerDesc};
    use super::super::regions::tests::{filter_of, texels_of};
    use super::*;
    use proptest::prelude::*;

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
            // The covers hold exactly the MinMip texels the taps' covers hold.
            let tap_covers = footprint.taps.iter().map(|t| (t.mip, check.cover(&map, t)));
            let listed = covers.iter().map(|r| (r.mip, (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1)));
            prop_assert_eq!(texels_of(listed, 1 << 16), texels_of(tap_covers, 1 << 16), "{:?}", covers);
            let mut scratch = Vec::new();
            prop_assert_eq!(
                regions.touches_nonresident(&map, (u, v), &l, &mut scratch),
                check.touches_nonresident(&map, &footprint)
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Where the renderer reuses the feedback rectangles for the quality check.
        #[test]
        fn unclamped_covers_are_the_feedback_regions_where_claimed(
            kind in 0u32..5, max_aniso in 1u32..=16,
            log_w in 8u32..14, log_h in 8u32..14, tile in 0usize..2, region_is_tile in any::<bool>(),
            u in -0.2f64..1.2, v in -0.2f64..1.2,
            scale in -14.0f64..2.0, d in proptest::array::uniform4(-1.0f64..1.0),
        ) {
            let (w, h) = (1u32 << log_w, 1u32 << log_h);
            let (tw, th) = [(512u32, 256u32), (256, 256)][tile];
            let mips = crate::gpu::full_mip_count(w, h);
            let sampler = PreparedSampler::new(&SamplerDesc::new(filter_of(kind, max_aniso)), w, h, mips).unwrap();
            let packed = (0..mips).find(|&m| (w >> m) < tw || (h >> m) < th).unwrap_or(mips);
            let check = ResidencyCheck::new((tw, th), packed).unwrap();
            let (rw, rh) = if region_is_tile { (tw, th) } else { (tw / 2, th) };
            let Ok(layout) = crate::gpu::FeedbackLayout::new(w, h, mips, rw, rh) else { return Ok(()) };
            let (mw, mh) = (w.div_ceil(tw), h.div_ceil(th));
            let read = ReadRegions::new(&sampler, &check, (mw, mh));
            let feedback = FootprintRegions::new(&sampler, &layout);
            let claimed = read.covers_are_feedback_regions(&feedback);
            // Square power-of-two textures with tile-sized regions are the shipped case.
            if region_is_tile && w == h {
                prop_assert!(claimed);
            }
            if !region_is_tile {
                prop_assert!(!claimed, "half-tile regions project differently");
            }
            let k = 2f64.powf(scale);
            let derivs = [d[0] * k, d[1] * k, d[2] * k * 0.3, d[3] * k * 0.3];
            let Ok(desired) = sampler.desired(derivs) else { return Ok(()) };
            if claimed {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                feedback.regions((u, v), &desired, &mut a);
                read.covers((u, v), &desired.with_clamp(0.0), &mut b);
                // Only the streamed mips must agree (packed ones are resident anyway).
                let streamed = |r: &&MipRegions| r.mip < packed;
                prop_assert_eq!(a.iter().filter(streamed).collect::<Vec<_>>(), b.iter().filter(streamed).collect::<Vec<_>>());
            }
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
