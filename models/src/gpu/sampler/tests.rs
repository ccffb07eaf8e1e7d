//! Sampler tests: hand-computed LODs, clamps, footprints, and feedback end to end.

use super::*;
use crate::gpu::{FeedbackLayout, Lod53, MinMipFeedback, MinMipFilter, Offset, Slope, SmallTailPolicy};
use proptest::prelude::*;

const TEX: u32 = 1024;
const MIPS: u32 = 11;

/// Derivatives of `ux` texels along U per pixel in x and `vy` texels along V per pixel in y.
fn axis_derivs(ux: f64, vy: f64) -> [f64; 4] {
    [ux / f64::from(TEX), 0.0, 0.0, vy / f64::from(TEX)]
}

fn run(desc: &SamplerDesc, uv: (f64, f64), derivs: [f64; 4]) -> Sample {
    sample(desc, uv, derivs, TEX, TEX, MIPS, None).unwrap()
}

#[test]
fn four_texels_per_pixel_is_lod_2() {
    let s = run(&SamplerDesc::new(Filter::Trilinear), (0.5, 0.5), axis_derivs(4.0, 4.0));
    assert_eq!(s.desired_lod, 2.0);
    assert_eq!(s.effective_lod, 2.0);
    assert_eq!(s.clamp, 0.0);
    assert_eq!(s.anisotropy, 1.0);
    // Exactly LOD 2: the mip-3 half of the trilinear filter has weight 0 and is skipped.
    // u * 256 - 0.5 = 127.5: texels 127 and 128 of mip 2.
    let tap = Tap { mip: 2, x0: 127, x1: 128, y0: 127, y1: 128 };
    assert_eq!(s.footprint.taps, vec![tap]);
    assert_eq!(s.feedback_footprint, s.footprint);
}

#[test]
fn anisotropic_four_to_one_uses_the_minor_axis() {
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
    let s = run(&desc, (0.5, 0.5), axis_derivs(16.0, 4.0));
    assert_eq!(s.desired_lod, 2.0); // log2(4), the minor axis
    assert_eq!(s.anisotropy, 4.0);
    // The isotropic filters take the major axis instead.
    let iso = run(&SamplerDesc::new(Filter::Trilinear), (0.5, 0.5), axis_derivs(16.0, 4.0));
    assert_eq!(iso.desired_lod, 4.0);
    // Four probes along U at -6, -2, 2, 6 texels of mip 0 = -1.5, -0.5, 0.5, 1.5 texels of
    // mip 2 (256 wide) around its texel coordinate 128; each bilinear quad starts half a
    // texel left of its probe. All on mip 2, on the centre rows 127..=128.
    let xs: Vec<(u32, u32)> = s.footprint.taps.iter().map(|t| (t.x0, t.x1)).collect();
    assert_eq!(xs, vec![(126, 127), (127, 128), (128, 129), (129, 130)]);
    assert!(s.footprint.taps.iter().all(|t| t.mip == 2 && t.y0 == 127));
}

#[test]
fn anisotropic_ratio_clamps_at_max_aniso() {
    let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 4 });
    let s = run(&desc, (0.5, 0.5), axis_derivs(64.0, 4.0));
    // Ratio 16 clamped to 4: minor taken as 64 / 4 = 16 texels -> LOD 4.
    assert_eq!((s.desired_lod, s.anisotropy), (4.0, 4.0));
    assert_eq!(s.footprint.taps.len(), 4);
}

#[test]
fn lod_bias_and_mip_range_clamp() {
    let mut desc = SamplerDesc::new(Filter::Trilinear);
    desc.lod_bias = 1.0;
    assert_eq!(run(&desc, (0.5, 0.5), axis_derivs(4.0, 4.0)).desired_lod, 3.0);
    desc.lod_bias = -3.0;
    assert_eq!(run(&desc, (0.5, 0.5), axis_derivs(4.0, 4.0)).desired_lod, 0.0);
    desc.lod_bias = 0.0;
    let huge = run(&desc, (0.5, 0.5), axis_derivs(1e9, 1e9));
    assert_eq!(huge.desired_lod, 10.0);
    assert_eq!(huge.footprint.mips(), vec![10]);
    let zero = run(&desc, (0.5, 0.5), [0.0; 4]);
    assert_eq!(zero.desired_lod, 0.0);
    // Derivatives whose squares overflow still land on the last mip.
    let aniso = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
    let s = sample(&aniso, (0.5, 0.5), [1e300; 4], TEX, TEX, MIPS, None).unwrap();
    assert_eq!(s.desired_lod, 10.0);
}

#[test]
fn filters_read_their_documented_footprints() {
    let uv = (0.3, 0.7);
    let d = axis_derivs(2.0_f64.powf(1.75), 1.0); // LOD 1.75
    let point = run(&SamplerDesc::new(Filter::Point), uv, d);
    assert_eq!(point.footprint.taps.len(), 1);
    assert_eq!(point.footprint.mips(), vec![2]); // nearest of 1.75
    let t = point.footprint.taps[0];
    assert_eq!((t.x0, t.x1, t.y0, t.y1), (76, 76, 179, 179)); // floor(uv * 256)
    let bilinear = run(&SamplerDesc::new(Filter::Bilinear), uv, d);
    let t = bilinear.footprint.taps[0];
    assert_eq!((t.mip, t.x1 - t.x0, t.y1 - t.y0), (2, 1, 1));
    let trilinear = run(&SamplerDesc::new(Filter::Trilinear), uv, d);
    assert_eq!(trilinear.footprint.mips(), vec![1, 2]);
    assert!(trilinear.footprint.taps.iter().all(|t| t.x1 - t.x0 == 1 && t.y1 - t.y0 == 1));
}

#[test]
fn minmip_clamp_raises_the_read_but_not_the_feedback() {
    // 4x4 MinMip map (256² tiles): the top-left tile only has mip 3 and coarser resident.
    let mut values = vec![0u8; 16];
    values[0] = 24;
    let map = MinMipMap::from_values(4, 4, values).unwrap();
    let desc = SamplerDesc::new(Filter::Trilinear);
    let uv = (0.1, 0.1);
    let s = sample(&desc, uv, axis_derivs(2.0, 2.0), TEX, TEX, MIPS, Some(&map)).unwrap();
    assert_eq!((s.desired_lod, s.clamp, s.effective_lod), (1.0, 3.0, 3.0));
    assert_eq!(s.footprint.mips(), vec![3]);
    assert_eq!(s.feedback_footprint.mips(), vec![1]);

    // Feedback records the desired LOD 1 in the tile's region, not the clamp 3.
    let layout = FeedbackLayout::new(TEX, TEX, MIPS, 256, 256).unwrap();
    let mut fb = MinMipFeedback::new(layout.map_width(), layout.map_height()).unwrap();
    layout.write_min_mip(&mut fb, &s.feedback_footprint, s.desired_lod, SmallTailPolicy::Exact).unwrap();
    assert_eq!(fb.get(0, 0), Some(Lod53(8)));
    assert_eq!(fb.requested_count(), 1);

    // With the MinMip filter, a sample just inside a fine tile next to the coarse one is
    // clamped up too (continuity), while the point clamp would read 0 there.
    let filtered = SamplerDesc {
        minmip: Some(MinMipFilter {
            slope_u: Slope::Eight,
            slope_v: Slope::Eight,
            offset_u: Offset::Quarter,
            offset_v: Offset::Quarter,
        }),
        ..desc
    };
    let near = (0.26, 0.1); // 0.04 MinMip texels right of the border
    let p = sample(&desc, near, axis_derivs(2.0, 2.0), TEX, TEX, MIPS, Some(&map)).unwrap();
    let f = sample(&filtered, near, axis_derivs(2.0, 2.0), TEX, TEX, MIPS, Some(&map)).unwrap();
    assert_eq!(p.clamp, 0.0);
    assert_eq!(f.clamp, 3.0);
    assert_eq!(f.desired_lod, p.desired_lod);
}

#[test]
fn clamp_beyond_the_chain_reads_the_last_mip() {
    let map = MinMipMap::new(4, 4, Lod53::NONE).unwrap();
    let s = sample(&SamplerDesc::new(Filter::Bilinear), (0.5, 0.5), axis_derivs(1.0, 1.0), TEX, TEX, MIPS, Some(&map))
        .unwrap();
    assert_eq!(s.effective_lod, 31.875);
    assert_eq!(s.footprint.mips(), vec![10]);
}

#[test]
fn invalid_inputs_are_errors() {
    let ok = SamplerDesc::new(Filter::Trilinear);
    let d = axis_derivs(1.0, 1.0);
    let bad_aniso = SamplerDesc::new(Filter::Anisotropic { max_aniso: 0 });
    assert_eq!(sample(&bad_aniso, (0.5, 0.5), d, TEX, TEX, MIPS, None), Err(GpuError::MaxAniso(0)));
    let too_much = SamplerDesc::new(Filter::Anisotropic { max_aniso: 17 });
    assert!(too_much.validate().is_err());
    let mut bias = ok;
    bias.lod_bias = f32::NAN;
    assert!(bias.validate().is_err());
    bias.lod_bias = 16.0;
    assert!(bias.validate().is_err());
    assert!(sample(&ok, (f64::NAN, 0.5), d, TEX, TEX, MIPS, None).is_err());
    assert!(sample(&ok, (0.5, 0.5), [f64::INFINITY, 0.0, 0.0, 0.0], TEX, TEX, MIPS, None).is_err());
    assert!(sample(&ok, (0.5, 0.5), d, TEX, TEX, 12, None).is_err());
    assert!(sample(&ok, (0.5, 0.5), d, TEX, TEX, 0, None).is_err());
    assert!(sample(&ok, (0.5, 0.5), d, 0, TEX, 1, None).is_err());
}

#[test]
fn fully_populated_desc_validates_and_samples() {
    let desc = SamplerDesc {
        filter: Filter::Anisotropic { max_aniso: 8 },
        lod_bias: 0.5,
        minmip: Some(MinMipFilter {
            slope_u: Slope::TwoAndHalf,
            slope_v: Slope::SixtyFour,
            offset_u: Offset::Eighth,
            offset_v: Offset::OneTwentyEighth,
        }),
    };
    assert_eq!(desc.validate(), Ok(()));
    let map = MinMipMap::new(4, 4, Lod53(16)).unwrap();
    let s = sample(&desc, (0.5, 0.5), axis_derivs(8.0, 2.0), TEX, TEX, MIPS, Some(&map)).unwrap();
    // Minor axis 2 texels -> LOD 1, + 0.5 bias; the uniform map clamps to 2.
    assert_eq!((s.desired_lod, s.clamp, s.effective_lod), (1.5, 2.0, 2.0));
    assert_eq!(s.anisotropy, 4.0);
}

fn arb_filter() -> impl Strategy<Value = Filter> {
    prop_oneof![
        Just(Filter::Point),
        Just(Filter::Bilinear),
        Just(Filter::Trilinear),
        (1u32..=16).prop_map(|max_aniso| Filter::Anisotropic { max_aniso }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Invariants of every sample: LOD ranges, clamp ordering, taps inside their mips, and
    /// a read never finer than the feedback request.
    #[test]
    fn sample_invariants(
        filter in arb_filter(), bias in -4.0f32..4.0,
        u in -0.5f64..1.5, v in -0.5f64..1.5,
        derivs in proptest::array::uniform4(-0.05f64..0.05),
        log_w in 2u32..=11, log_h in 2u32..=11, mips_short in 0u32..4,
        minmip in proptest::collection::vec(0u8..=88, 16),
    ) {
        let (w, h) = (1u32 << log_w, 1u32 << log_h);
        let mip_count = (full_mip_count(w, h) - mips_short).max(1);
        let map = MinMipMap::from_values(4, 4, minmip).unwrap();
        let desc = SamplerDesc { filter, lod_bias: bias, minmip: None };
        let s = sample(&desc, (u, v), derivs, w, h, mip_count, Some(&map)).unwrap();
        let last = (mip_count - 1) as f32;
        prop_assert!((0.0..=last).contains(&s.desired_lod));
        prop_assert!(s.effective_lod >= s.desired_lod && s.effective_lod >= s.clamp);
        prop_assert!(!s.footprint.is_empty() && !s.feedback_footprint.is_empty());
        let max_taps = match filter {
            Filter::Point | Filter::Bilinear => 1,
            Filter::Trilinear => 2,
            Filter::Anisotropic { max_aniso } => 2 * max_aniso as usize,
        };
        prop_assert!(s.footprint.taps.len() <= max_taps);
        for t in s.footprint.taps.iter().chain(&s.feedback_footprint.taps) {
            prop_assert!(t.mip < mip_count);
            prop_assert!(t.x0 <= t.x1 && t.x1 < (w >> t.mip).max(1));
            prop_assert!(t.y0 <= t.y1 && t.y1 < (h >> t.mip).max(1));
            prop_assert!(t.x1 - t.x0 <= 1 && t.y1 - t.y0 <= 1);
        }
        let finest = |f: &Footprint| f.mips()[0];
        prop_assert!(finest(&s.footprint) >= finest(&s.feedback_footprint));
    }
}

proptest! {
    /// The pieces a renderer uses to share work across a texture set — the desired LOD,
    /// one MinMip texel index, each map's clamp there — give `clamped`'s values exactly.
    #[test]
    fn shared_pieces_match_clamped(
        u in -0.5f64..1.5, v in -0.5f64..1.5,
        d in proptest::array::uniform4(-0.05f64..0.05),
        values in proptest::collection::vec(0u8..=80, 32 * 16),
    ) {
        let desc = SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 });
        let sampler = PreparedSampler::new(&desc, 8192, 8192, 14).unwrap();
        let map = MinMipMap::from_values(32, 16, values).unwrap();
        let desired = sampler.desired(d).unwrap();
        let l = sampler.clamped((u, v), &desired, Some(&map)).unwrap();
        let index = map.point_index(u, v).unwrap();
        prop_assert_eq!(desired.lod(), l.desired_lod);
        prop_assert_eq!(desired.effective(map.clamp_at(index)), l.effective_lod);
        prop_assert_eq!(map.clamp_at(index), l.clamp);
    }

    /// A clamp only coarsens a read: a read whose finest mip is resident at clamp 0 is
    /// resident at any clamp a map holds (the renderer's first residency test).
    #[test]
    fn resident_at_clamp_zero_is_resident_at_any_clamp(
        d in proptest::array::uniform4(-0.05f64..0.05), kind in 0u32..4,
        max_value in 0u8..=112, clamp_value in 0u8..=255, first_packed in 0u32..15,
    ) {
        let filter = [Filter::Point, Filter::Bilinear, Filter::Trilinear, Filter::Anisotropic { max_aniso: 16 }][kind as usize];
        let sampler = PreparedSampler::new(&SamplerDesc::new(filter), 8192, 8192, 14).unwrap();
        let map = MinMipMap::from_values(2, 1, vec![max_value, 0]).unwrap();
        let check = crate::gpu::ResidencyCheck::new((256, 256), first_packed).unwrap();
        let Ok(desired) = sampler.desired(d) else { return Ok(()) };
        let clamp = f32::from(clamp_value) / 8.0;
        if check.resident_from(&map, sampler.finest_read_mip_clamped(&desired, 0.0)) {
            prop_assert!(check.resident_from(&map, sampler.finest_read_mip_clamped(&desired, clamp)));
        }
    }
}

proptest! {
    /// The desired LOD's 5.3 value without a logarithm equals the encoding of the
    /// floating-point desired LOD, for every filter, with and without bias, from
    /// magnification to the last mip.
    #[test]
    fn desired_lod53_equals_the_encoded_desired_lod(
        d in proptest::array::uniform4(-1.0f64..1.0),
        scale in -16.0f64..0.0,
        filter in 0usize..4,
        bias in prop_oneof![Just(0.0f32), -2.0f32..2.0],
    ) {
        let filter = [
            Filter::Point,
            Filter::Trilinear,
            Filter::Anisotropic { max_aniso: 16 },
            Filter::Anisotropic { max_aniso: 2 },
        ][filter];
        let desc = SamplerDesc { lod_bias: bias, ..SamplerDesc::new(filter) };
        let sampler = PreparedSampler::new(&desc, 8192, 4096, 14).unwrap();
        let derivs = d.map(|x| x * 2f64.powf(scale));
        let expected = Lod53::from_lod(sampler.desired(derivs).unwrap().lod());
        prop_assert_eq!(sampler.desired_lod53(derivs).unwrap(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The pieces a renderer uses for the non-resident-read count — `sample_with`,
    /// `read_footprint`, `DesiredLod::with_clamp`, `finest_read_mip` — agree with `sample`.
    #[test]
    fn counterfactual_pieces_match_sample(
        filter in arb_filter(), u in 0.0f64..1.0, v in 0.0f64..1.0,
        d in proptest::array::uniform4(-0.05f64..0.05),
        values in proptest::collection::vec(0u8..=80, 16),
        filtered in any::<bool>(),
    ) {
        let f = MinMipFilter {
            slope_u: Slope::TwoAndHalf, slope_v: Slope::Four, offset_u: Offset::Quarter, offset_v: Offset::Eighth,
        };
        let desc = SamplerDesc { filter, lod_bias: 0.0, minmip: filtered.then_some(f) };
        let sampler = PreparedSampler::new(&desc, TEX, TEX, MIPS).unwrap();
        let map = MinMipMap::from_values(4, 4, values).unwrap();
        let s = sampler.sample((u, v), d, Some(&map)).unwrap();
        let desired = sampler.desired(d).unwrap();
        let l = desired.with_clamp(s.clamp);
        prop_assert_eq!(&sampler.sample_with((u, v), &l), &s);
        prop_assert_eq!(&sampler.read_footprint((u, v), &l), &s.footprint);
        prop_assert_eq!(sampler.finest_read_mip(&l), s.footprint.mips()[0]);
        if !l.is_clamped() {
            prop_assert_eq!(&s.footprint, &s.feedback_footprint);
        }
        // The point clamp of a filtering sampler: what a point-sampling one reads.
        let point = PreparedSampler::new(&SamplerDesc { minmip: None, ..desc }, TEX, TEX, MIPS).unwrap();
        let p = point.sample((u, v), d, Some(&map)).unwrap();
        let lp = desired.with_clamp(map.clamp_point(u, v).unwrap());
        prop_assert_eq!(&sampler.read_footprint((u, v), &lp), &p.footprint);
    }
}

proptest! {
    /// The probe line (offset table, reciprocal of power-of-two sizes) places every probe
    /// exactly where `uv + ((i + 0.5) / n - 0.5) * major / size` does.
    #[test]
    fn probe_line_equals_the_division_form(
        u in -1.0f64..2.0, v in -1.0f64..2.0, ratio in 0.5f64..17.0, max_aniso in 1u32..=16,
        mu in -1e6f64..1e6, mv in -1e6f64..1e6,
        w in prop_oneof![Just(8192.0f64), Just(1.0), 1.0f64..16384.0], h in prop_oneof![Just(4096.0f64), 1.0f64..16384.0],
    ) {
        let (w, h) = (w.floor(), h.floor());
        let line = ProbeLine::new((u, v), ratio, (mu, mv), max_aniso, (w, h));
        let n = (ratio.ceil().clamp(1.0, f64::from(max_aniso))) as u32;
        prop_assert_eq!(line.len(), n as usize);
        for i in 0..n {
            let t = (f64::from(i) + 0.5) / f64::from(n) - 0.5;
            let expected = (u + t * mu / w, v + t * mv / h);
            let got = line.at(i as usize);
            prop_assert_eq!((got.0.to_bits(), got.1.to_bits()), (expected.0.to_bits(), expected.1.to_bits()));
        }
    }
}
