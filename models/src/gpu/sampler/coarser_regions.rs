//! A coarser feedback layout's footprint rectangles from a finer one's, without walking the
//! footprint again: a texture set's textures often share a size and a sampler but not a
//! tile shape (a BC1 tile is 512 × 256 texels, a BC5 one 256 × 256), so their feedback
//! regions differ by a power of two per axis.
//!
//! Every step from a probe to its region is monotonic, and a coarser layout's region is the
//! finer one's shifted right, so a coarser rectangle changes along the probes only where a
//! finer one does: shifting each finer run (or hull) and merging the equal neighbours this
//! makes covers exactly the texels [`FootprintRegions::regions`] finds for the coarser
//! layout (tested against it; where the finer footprint crosses borders both ways and the
//! coarser one way only, the coarser layout's own is one hull, the derived ones runs).

use super::regions::RegionRuns;
use super::{FootprintRegions, MipRegions};
use crate::gpu::feedback_write::RegionRect;

/// How one layout's footprint rectangles follow from a finer layout's
/// ([`FootprintRegions::coarser_than`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoarserRegions {
    /// log2 of how many finer regions one region spans, per axis.
    shift: (u32, u32),
}

impl FootprintRegions {
    /// How this layout's rectangles follow from `finer`'s, when they are for the same
    /// sampler and texture and this layout's regions are `finer`'s times a power of two
    /// per axis; `None` otherwise (then work them out with [`regions`](Self::regions)).
    pub fn coarser_than(&self, finer: &FootprintRegions) -> Option<CoarserRegions> {
        let ((sampler, mips), (finer_sampler, finer_mips)) = (self.parts(), finer.parts());
        if sampler != finer_sampler || mips.is_empty() || mips.len() != finer_mips.len() {
            return None;
        }
        let mut shift = None;
        for (mine, theirs) in mips.iter().zip(finer_mips) {
            match (mine, theirs) {
                (None, None) => {}
                (Some(mine), Some(theirs)) => {
                    let s = mine.coarser_shift(theirs)?;
                    if shift.is_some_and(|known| known != s) {
                        return None;
                    }
                    shift = Some(s);
                }
                _ => return None,
            }
        }
        shift.map(|shift| CoarserRegions { shift })
    }
}

impl CoarserRegions {
    /// Appends to `regions` this layout's rectangles of the footprint whose finer
    /// rectangles are `regions[finer]`, laid out as `runs` says (the finer ones usually
    /// sit in the same buffer). Returns false, appending nothing, for
    /// [`RegionRuns::PerTap`]: not runs, so work the rectangles out directly.
    pub fn append(&self, regions: &mut Vec<MipRegions>, finer: std::ops::Range<usize>, runs: RegionRuns) -> bool {
        if runs != RegionRuns::Runs {
            return false;
        }
        let start = regions.len();
        let (sx, sy) = self.shift;
        for i in finer {
            let r = regions[i];
            let rect =
                RegionRect { x0: r.rect.x0 >> sx, x1: r.rect.x1 >> sx, y0: r.rect.y0 >> sy, y1: r.rect.y1 >> sy };
            let coarse = MipRegions { mip: r.mip, rect };
            // Runs of one mip that now land on the same rectangle become one run.
            if regions.len() == start || regions[regions.len() - 1] != coarse {
                regions.push(coarse);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::regions::tests::{filter_of, region_texels};
    use super::super::{Filter, PreparedSampler, SamplerDesc};
    use super::*;
    use crate::gpu::FeedbackLayout;
    use proptest::prelude::*;

    /// `None` for a region the texture cannot have.
    fn try_regions_of(w: u32, h: u32, region: (u32, u32), desc: &SamplerDesc) -> Option<FootprintRegions> {
        let mips = crate::gpu::full_mip_count(w, h);
        let sampler = PreparedSampler::new(desc, w, h, mips).unwrap();
        Some(FootprintRegions::new(&sampler, &FeedbackLayout::new(w, h, mips, region.0, region.1).ok()?))
    }

    fn regions_of(w: u32, h: u32, region: (u32, u32), desc: &SamplerDesc) -> FootprintRegions {
        try_regions_of(w, h, region, desc).expect("a valid region")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Derived rectangles cover exactly the texels the coarser layout's own rectangles
        /// cover (what the renderer's writes and quality checks read).
        #[test]
        fn derived_rectangles_equal_the_coarser_layouts_own(
            kind in 0u32..5, max_aniso in 1u32..=16,
            w in prop_oneof![Just(8192u32), Just(1024), 64u32..3000], h in prop_oneof![Just(8192u32), Just(512), 64u32..3000],
            log_rw in 2u32..9, log_rh in 2u32..9, sx in 0u32..3, sy in 0u32..3,
            u in -0.2f64..1.2, v in -0.2f64..1.2,
            scale in -14.0f64..2.0, d in proptest::array::uniform4(-1.0f64..1.0),
            infinite in 0u32..20,
        ) {
            let desc = SamplerDesc::new(filter_of(kind, max_aniso));
            let coarse_region = (1 << (log_rw + sx), 1 << (log_rh + sy));
            let Some(coarser) = try_regions_of(w, h, coarse_region, &desc) else { return Ok(()) };
            let finer = regions_of(w, h, (1 << log_rw, 1 << log_rh), &desc);
            let how = coarser.coarser_than(&finer).expect("same texture, regions a power of two larger");
            let k = 2f64.powf(scale);
            let mut derivs = [d[0] * k, d[1] * k, d[2] * k * 0.3, d[3] * k * 0.3];
            if infinite == 0 {
                derivs[0] = f64::MAX; // an infinite major axis: probes not monotonic
            }
            let sampler = PreparedSampler::new(&desc, w, h, crate::gpu::full_mip_count(w, h)).unwrap();
            let Ok(lod) = sampler.desired(derivs) else { return Ok(()) };
            // The finer rectangles after something already in the buffer, as in a renderer's.
            let (mut buffer, mut direct) = (vec![MipRegions { mip: 0, rect: RegionRect { x0: 0, x1: 0, y0: 0, y1: 0 } }], Vec::new());
            let runs = finer.regions((u, v), &lod, &mut buffer);
            let fine_end = buffer.len();
            coarser.regions((u, v), &lod, &mut direct);
            if how.append(&mut buffer, 1..fine_end, runs) {
                // The same texels: a footprint crossing a border one way only may be one
                // hull on one side and shifted runs on the other.
                let (derived, own) = (region_texels(&buffer[fine_end..], 1 << 16), region_texels(&direct, 1 << 16));
                prop_assert_eq!(derived, own, "{:?} against {:?}", &buffer[fine_end..], &direct);
            } else {
                prop_assert_eq!(runs, RegionRuns::PerTap);
                prop_assert_eq!(buffer.len(), fine_end);
            }
        }
    }

    #[test]
    fn only_the_same_texture_with_larger_regions_derives() {
        let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
        let fine = regions_of(8192, 8192, (256, 256), &desc);
        let bc1 = regions_of(8192, 8192, (512, 256), &desc);
        assert_eq!(bc1.coarser_than(&fine), Some(CoarserRegions { shift: (1, 0) }));
        assert_eq!(fine.coarser_than(&bc1), None, "finer than, not coarser");
        assert_eq!(regions_of(4096, 8192, (512, 256), &desc).coarser_than(&fine), None, "another size");
        let trilinear = SamplerDesc::new(Filter::Trilinear);
        assert_eq!(regions_of(8192, 8192, (512, 256), &trilinear).coarser_than(&fine), None, "another sampler");
        // Another texture's layout walks tap by tap: nothing to derive from or to.
        let sampler = PreparedSampler::new(&desc, 8192, 8192, 14).unwrap();
        let foreign = FootprintRegions::new(&sampler, &FeedbackLayout::new(4096, 4096, 13, 256, 256).unwrap());
        assert_eq!(foreign.coarser_than(&fine), None);
        assert_eq!(bc1.coarser_than(&foreign), None);
    }
}
