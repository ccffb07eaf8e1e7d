//! FootprintRegions against the footprint path, and its shortcuts.

use super::super::super::{MinMipFeedback, MinMipMap, MipRegionUsedFeedback, SamplerDesc, SmallTailPolicy};
use super::*;
use proptest::prelude::*;

/// The filter a proptest's `kind` in 0..5 names (4 and up: anisotropic).
pub(in crate::gpu::sampler) fn filter_of(kind: u32, max_aniso: u32) -> Filter {
    match kind {
        0 => Filter::Point,
        1 => Filter::Bilinear,
        2 => Filter::Trilinear,
        _ => Filter::Anisotropic { max_aniso },
    }
}

/// The (mip, x, y) texels `rects` cover: what writes and residency checks read of them,
/// whatever rectangles hold those texels. `None` past `limit` texels.
pub(in crate::gpu::sampler) fn texels_of(
    rects: impl IntoIterator<Item = (u32, (u32, u32, u32, u32))>,
    limit: usize,
) -> Option<std::collections::BTreeSet<(u32, u32, u32)>> {
    let mut texels = std::collections::BTreeSet::new();
    for (mip, (x0, x1, y0, y1)) in rects {
        if (u64::from(x1 - x0) + 1) * (u64::from(y1 - y0) + 1) > limit as u64 {
            return None;
        }
        texels.extend((y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (mip, x, y))));
        if texels.len() > limit {
            return None;
        }
    }
    Some(texels)
}

/// [`texels_of`] for [`MipRegions`].
pub(in crate::gpu::sampler) fn region_texels(
    rects: &[MipRegions],
    limit: usize,
) -> Option<std::collections::BTreeSet<(u32, u32, u32)>> {
    texels_of(rects.iter().map(|r| (r.mip, (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1))), limit)
}

/// The maps written through the footprint and through its regions, side by side, by a
/// sampler of `sampler_mips` mips (the layout has them all).
fn both_ways(
    desc: &SamplerDesc,
    size: (u32, u32),
    sampler_mips: u32,
    region: (u32, u32),
    uv: (f64, f64),
    derivs: [f64; 4],
) -> Option<((MinMipFeedback, MipRegionUsedFeedback), (MinMipFeedback, MipRegionUsedFeedback))> {
    let mips = crate::gpu::full_mip_count(size.0, size.1);
    let sampler = PreparedSampler::new(desc, size.0, size.1, sampler_mips).ok()?;
    let layout = FeedbackLayout::new(size.0, size.1, mips, region.0, region.1).ok()?;
    let maps = || {
        let min = MinMipFeedback::new(layout.map_width(), layout.map_height()).unwrap();
        let used = MipRegionUsedFeedback::new(layout.map_width(), layout.map_height(), mips).unwrap();
        (min, used)
    };
    let s = sampler.sample(uv, derivs, None::<&MinMipMap>).ok()?;
    let (mut min_a, mut used_a) = maps();
    layout.write_min_mip(&mut min_a, &s.feedback_footprint, s.desired_lod, SmallTailPolicy::Exact).unwrap();
    layout.write_region_used(&mut used_a, &s.feedback_footprint).unwrap();
    let d = sampler.desired(derivs).unwrap();
    let mut regions = Vec::new();
    sampler.feedback_regions(uv, &d, &layout, &mut regions);
    let (mut min_b, mut used_b) = maps();
    let value = layout.recorded_value(d.lod(), SmallTailPolicy::Exact);
    layout.write_min_mip_regions(&mut min_b, &regions, value).unwrap();
    layout.write_region_used_regions(&mut used_b, &regions).unwrap();
    Some(((min_a, used_a), (min_b, used_b)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn regions_write_what_the_footprint_writes(
        kind in 0u32..5, max_aniso in 1u32..=16,
        w in prop_oneof![Just(8192u32), Just(1024), 64u32..3000], h in prop_oneof![Just(8192u32), Just(512), 64u32..3000],
        log_rw in 2u32..10, log_rh in 2u32..10,
        u in -0.2f64..1.2, v in -0.2f64..1.2,
        scale in -14.0f64..2.0, d in proptest::array::uniform4(-1.0f64..1.0),
        mips_cut in prop_oneof![3 => Just(0u32), 1 => 1u32..12],
    ) {
        let desc = SamplerDesc::new(filter_of(kind, max_aniso));
        let k = 2f64.powf(scale);
        let derivs = [d[0] * k, d[1] * k, d[2] * k * 0.3, d[3] * k * 0.3];
        // Some samplers stop short of the texture's mips: a footprint past the last one
        // has probes further apart than its taps reach.
        let mips = crate::gpu::full_mip_count(w, h).saturating_sub(mips_cut).max(1);
        if let Some((footprint, regions)) = both_ways(&desc, (w, h), mips, (1 << log_rw, 1 << log_rh), (u, v), derivs) {
            prop_assert_eq!(footprint, regions);
        }
    }
}

#[test]
fn another_textures_layout_takes_the_tap_by_tap_path() {
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 8 });
    let sampler = PreparedSampler::new(&desc, 1024, 1024, 11).unwrap();
    let layout = FeedbackLayout::new(512, 512, 10, 64, 64).unwrap();
    let derivs = [8.0 * 3.0 / 1024.0, 0.0, 0.0, 3.0 / 1024.0];
    let s = sampler.sample((0.1, 0.2), derivs, None).unwrap();
    let expected: Vec<MipRegions> = s
        .feedback_footprint
        .taps
        .iter()
        .filter_map(|t| layout.regions(t).map(|rect| MipRegions { mip: t.mip, rect }))
        .collect();
    let mut regions = Vec::new();
    sampler.feedback_regions((0.1, 0.2), &sampler.desired(derivs).unwrap(), &layout, &mut regions);
    assert_eq!(regions, expected);
    assert!(!regions.is_empty());
}

#[test]
fn a_footprint_inside_one_region_is_one_rectangle_per_mip() {
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
    let sampler = PreparedSampler::new(&desc, 8192, 8192, 14).unwrap();
    let layout = FeedbackLayout::new(8192, 8192, 14, 256, 256).unwrap();
    // A 16:1 footprint at about mip 2.3, well inside region (16, 16).
    let derivs = [16.0 * 5.0 / 8192.0, 0.0, 0.0, 5.0 / 8192.0];
    let d = sampler.desired(derivs).unwrap();
    let mut regions = Vec::new();
    sampler.feedback_regions((0.51, 0.51), &d, &layout, &mut regions);
    assert_eq!(regions.len(), 2, "{regions:?}");
    assert!(regions.iter().all(|r| (r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1) == (16, 16, 16, 16)));
    // Across the border at u = 0.5, along u only: each mip's probes left of the border,
    // on mip 3 one whose quad straddles it, and those right of it. The probes' taps join
    // up, so the regions they cover are the ends' hull: one rectangle per mip.
    regions.clear();
    sampler.feedback_regions((0.5, 0.51), &d, &layout, &mut regions);
    let rects: Vec<_> = regions.iter().map(|r| (r.mip, r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1)).collect();
    assert_eq!(rects, [(2, 15, 16, 16, 16), (3, 15, 16, 16, 16)]);
    // Crossing both ways (near the corner of four regions): the runs along the probes.
    let diagonal = [16.0 * 5.0 / 8192.0, 16.0 * 5.0 / 8192.0, 5.0 / 8192.0, -5.0 / 8192.0];
    let d = sampler.desired(diagonal).unwrap();
    regions.clear();
    sampler.feedback_regions((0.5, 0.5), &d, &layout, &mut regions);
    let rects: Vec<_> = regions.iter().map(|r| (r.mip, r.rect.x0, r.rect.x1, r.rect.y0, r.rect.y1)).collect();
    assert!(rects.len() > 2, "{rects:?}");
    assert!(rects.iter().all(|r| r.1 == r.2 || r.3 == r.4 || r.2 - r.1 == 1), "{rects:?}");
}

#[test]
fn probes_too_far_apart_to_join_are_walked() {
    // A sampler with 3 mips reading a footprint whose LOD (4) is past them: clamped to
    // mip 2, its 16 probes (256 mip-0 texels along u) lie 4 of that mip's texels apart, so
    // the bilinear taps leave texels between them. Their hull would write regions no tap
    // reads; the walk writes only the taps'.
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
    let sampler = PreparedSampler::new(&desc, 1024, 1024, 3).unwrap();
    let layout = FeedbackLayout::new(1024, 1024, 11, 4, 4).unwrap();
    let derivs = [0.25, 0.0, 0.0, 0.25 / 16.0];
    let d = sampler.desired(derivs).unwrap();
    let mut regions = Vec::new();
    sampler.feedback_regions((0.5, 0.5), &d, &layout, &mut regions);
    let texels = region_texels(&regions, 1 << 12).unwrap();
    let xs: std::collections::BTreeSet<u32> = texels.iter().filter(|t| t.0 == 2).map(|t| t.1).collect();
    let (lo, hi) = (*xs.first().unwrap(), *xs.last().unwrap());
    assert!(xs.len() < (hi - lo + 1) as usize, "gaps between the taps' regions: {xs:?}");
    let (footprint, through_regions) = both_ways(&desc, (1024, 1024), 3, (4, 4), (0.5, 0.5), derivs).unwrap();
    assert!(footprint == through_regions);
}

/// A position near a region border of a mip of `texels` texels with regions of 2^`k`
/// texels, `nudge` (in ulps) off the border or half a texel from it, or an edge value.
fn near_border(texels: u32, k: u32, border: u32, pick: u32, nudge: i64) -> f64 {
    let edge = f64::from((border % (texels >> k).max(1)) << k);
    let at = |s: f64| s / f64::from(texels);
    let nudged = |x: f64| f64::from_bits((x.to_bits() as i64 + nudge).max(0) as u64);
    match pick {
        0 => nudged(at(edge - 0.5)),
        1 => nudged(at(edge - 1.5)),
        2 => nudged(at(edge + 0.5)),
        3 => -nudged(at(edge + 0.5)),
        4 => [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300, -1e300, 0.0, -0.0, 1.0][(border % 8) as usize],
        _ => nudged(at(edge)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    /// The lemma behind the one-region shortcut: wherever a mip that vouches for the next
    /// finer one has its bilinear tap in one region, the finer mip's tap is in that region.
    #[test]
    fn a_coarser_tap_in_one_region_holds_the_finer_tap(
        log_w in 1u32..15, log_h in 1u32..15, log_rw in 2u32..10, log_rh in 2u32..10,
        border in 0u32..1 << 14, pick in 0u32..6, nudge in -8i64..=8, u in -0.1f64..1.1,
    ) {
        let (w, h) = (1u32 << log_w, 1u32 << log_h);
        let mips = crate::gpu::full_mip_count(w, h);
        let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
        let sampler = PreparedSampler::new(&desc, w, h, mips).unwrap();
        let Ok(layout) = FeedbackLayout::new(w, h, mips, 1 << log_rw, 1 << log_rh) else { return Ok(()) };
        let projections = FootprintRegions::new(&sampler, &layout);
        for mip in 1..mips {
            let (Some(coarser), Some(finer)) = (projections.mips[mip as usize], projections.mips[mip as usize - 1]) else {
                continue;
            };
            if !coarser.covers_finer() {
                continue;
            }
            let (tw, th) = (crate::gpu::limits::mip_dim(w, mip), crate::gpu::limits::mip_dim(h, mip));
            let (kx, ky) = (log_rw - (log_w - tw.trailing_zeros()), log_rh - (log_h - th.trailing_zeros()));
            for x in [near_border(tw, kx, border, pick, nudge), u] {
                let span = coarser.x_regions(x);
                if span.0 == span.1 {
                    prop_assert_eq!(finer.x_regions(x), span, "u = {:e}, mip {} of {} texels", x, mip, tw);
                }
            }
            for y in [near_border(th, ky, border, pick, nudge), u] {
                let span = coarser.y_regions(y);
                if span.0 == span.1 {
                    prop_assert_eq!(finer.y_regions(y), span, "v = {:e}, mip {} of {} texels", y, mip, th);
                }
            }
        }
    }

    /// The footprints' rectangles, shortcut and all, are the ones each mip's own ends and
    /// walk give, in the same order.
    #[test]
    fn the_one_region_shortcut_changes_no_rectangle(
        max_aniso in 1u32..=16, log_w in 6u32..14, log_h in 6u32..14, log_rw in 6u32..10, log_rh in 6u32..10,
        u in 0.0f64..1.0, v in 0.0f64..1.0, scale in -12.0f64..0.0, d in proptest::array::uniform4(-1.0f64..1.0),
    ) {
        let (w, h) = (1u32 << log_w, 1u32 << log_h);
        let mips = crate::gpu::full_mip_count(w, h);
        let sampler = PreparedSampler::new(&SamplerDesc::new(Filter::Anisotropic { max_aniso }), w, h, mips).unwrap();
        let Ok(layout) = FeedbackLayout::new(w, h, mips, 1 << log_rw, 1 << log_rh) else { return Ok(()) };
        let k = 2f64.powf(scale);
        let Ok(desired) = sampler.desired([d[0] * k, d[1] * k, d[2] * k * 0.3, d[3] * k * 0.3]) else { return Ok(()) };
        let with_shortcut = FootprintRegions::new(&sampler, &layout);
        let plain: Vec<_> = (0..mips).map(|mip| MipTaps::new(&sampler, mip, &layout)).collect();
        let (mut got, mut want) = (Vec::new(), Vec::new());
        let runs = with_shortcut.regions((u, v), &desired, &mut got);
        let plain_runs = projected_regions(&sampler, &plain, (u, v), desired.desired, desired.ratio, desired.major, &mut want);
        prop_assert_eq!(got, want);
        prop_assert_eq!(runs, plain_runs);
    }
}

#[test]
fn a_footprint_in_one_region_takes_the_shortcut() {
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
    let sampler = PreparedSampler::new(&desc, 8192, 8192, 14).unwrap();
    let layout = FeedbackLayout::new(8192, 8192, 14, 256, 256).unwrap();
    let projections = FootprintRegions::new(&sampler, &layout);
    // Regions of 256 mip-0 texels: every mip up to 8 (one texel per region) vouches for
    // the finer one; mips past that have texels wider than a region.
    let vouching: Vec<bool> = projections.mips.iter().map(|m| m.is_some_and(|m| m.covers_finer())).collect();
    assert_eq!(vouching, [false, true, true, true, true, true, true, true, true, false, false, false, false, false]);
    // Not a power of two: no mip vouches.
    let odd = PreparedSampler::new(&desc, 3000, 8192, 14).unwrap();
    let odd_layout = FeedbackLayout::new(3000, 8192, 14, 256, 256).unwrap();
    assert!(FootprintRegions::new(&odd, &odd_layout).mips.iter().all(|m| m.is_none_or(|m| !m.covers_finer())));
}
