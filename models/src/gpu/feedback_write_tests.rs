//! Tests of `feedback_write.rs`.

use super::*;
use proptest::prelude::*;

/// The division form of `span`, for any texture size.
fn span_by_division(t0: u32, t1: u32, dim0: u32, mip: u32) -> Option<(u32, u32)> {
    let dim = mip_dim(dim0, mip);
    if t0 > t1 || t1 >= dim {
        return None;
    }
    let (d0, d) = (u64::from(dim0), u64::from(dim));
    Some(((u64::from(t0) * d0 / d) as u32, (((u64::from(t1) + 1) * d0).div_ceil(d) - 1) as u32))
}

/// The floor-then-clamp definition of the sample location's feedback texel.
fn location_by_floor(layout: &FeedbackLayout, uv: (f64, f64)) -> (u32, u32) {
    let texel = |u: f64, dim: u32| {
        let t = (u * f64::from(dim)).floor();
        if t.is_nan() {
            0
        } else {
            t.clamp(0.0, f64::from(dim - 1)) as u32
        }
    };
    (texel(uv.0, layout.tex_width) / layout.region_width, texel(uv.1, layout.tex_height) / layout.region_height)
}

#[test]
fn location_clamps_edges_and_non_finite_coordinates() {
    let layout = FeedbackLayout::new(1024, 512, 11, 64, 32).unwrap();
    for (uv, texel) in [
        ((0.0, 0.0), (0, 0)),
        ((0.999, 0.999), (15, 15)),
        ((1.0, 1.0), (15, 15)),
        ((-0.25, 7.0), (0, 15)),
        ((f64::NAN, f64::INFINITY), (0, 15)),
        ((f64::NEG_INFINITY, 0.5), (0, 8)),
    ] {
        assert_eq!(layout.location(uv), texel, "{uv:?}");
    }
}

proptest! {
    #[test]
    fn location_floors_then_clamps(log_w in 3u32..14, log_h in 3u32..14, u in -2.0f64..3.0, v in -2.0f64..3.0) {
        let layout = FeedbackLayout::new(1 << log_w, 1 << log_h, 1, 4, 4).unwrap();
        prop_assert_eq!(layout.location((u, v)), location_by_floor(&layout, (u, v)));
    }

    #[test]
    fn power_of_two_shift_path_equals_division(log in 0u32..15, mip in 0u32..16, a in 0u32..20_000, b in 0u32..20_000) {
        let dim0 = 1u32 << log;
        let dim = mip_dim(dim0, mip);
        let (t0, t1) = (a.min(b) % dim, a.max(b) % dim);
        let (t0, t1) = (t0.min(t1), t0.max(t1));
        prop_assert_eq!(span(t0, t1, dim0, mip), span_by_division(t0, t1, dim0, mip));
    }
}

fn tap(mip: u32, x0: u32, x1: u32, y0: u32, y1: u32) -> Tap {
    Tap { mip, x0, x1, y0, y1 }
}

#[test]
fn layout_sizes_follow_spec_worked_checks() {
    // SPEC §3: 4096² BC1 with a 512x256 mip region -> 8x16 feedback map.
    let l = FeedbackLayout::new(4096, 4096, 13, 512, 256).unwrap();
    assert_eq!((l.map_width(), l.map_height()), (8, 16));
    // D3D12 spec NPOT example: 15x15 with 4x4 regions -> 4x4.
    let l = FeedbackLayout::new(15, 15, 2, 4, 4).unwrap();
    assert_eq!((l.map_width(), l.map_height()), (4, 4));
}

#[test]
fn region_constraints() {
    assert!(FeedbackLayout::new(32, 32, 1, 16, 8).is_ok());
    assert!(FeedbackLayout::new(100, 100, 1, 32, 32).is_ok());
    assert!(FeedbackLayout::new(100, 100, 1, 64, 32).is_err()); // > half
    assert!(FeedbackLayout::new(32, 32, 1, 2, 4).is_err()); // < 4
    assert!(FeedbackLayout::new(32, 32, 1, 12, 4).is_err()); // not a power of two
    assert!(FeedbackLayout::new(32, 32, 0, 4, 4).is_err());
    assert!(FeedbackLayout::new(32, 32, 7, 4, 4).is_err()); // chain is 6 long
    assert!(FeedbackLayout::new(0, 32, 1, 4, 4).is_err());
}

#[test]
fn small_tail_mips_match_spec_table() {
    // Spec example: 1024² full chain, 16x16 regions -> mips 5..=10 are small tail mips.
    let l = FeedbackLayout::new(1024, 1024, 11, 16, 16).unwrap();
    assert_eq!(l.first_small_tail_mip(), Some(5));
    let exact = SmallTailPolicy::Exact;
    let first = SmallTailPolicy::FirstSmallTailMip;
    assert_eq!(l.recorded_value(4.5, first), Lod53(36));
    assert_eq!(l.recorded_value(5.5, first), Lod53(44)); // mip 5 itself: unchanged
    assert_eq!(l.recorded_value(7.25, first), Lod53(40)); // recorded as 5
    assert_eq!(l.recorded_value(10.0, first), Lod53(40));
    assert_eq!(l.recorded_value(7.25, exact), Lod53(58));
    // A chain that stops before the first small tail mip has none.
    let l = FeedbackLayout::new(1024, 1024, 5, 16, 16).unwrap();
    assert_eq!(l.first_small_tail_mip(), None);
    assert_eq!(l.recorded_value(4.0, first), Lod53(32));
}

#[test]
fn tap_spans_project_mip_texels_onto_mip_0() {
    assert_eq!(span(3, 4, 1024, 2), Some((12, 19)));
    assert_eq!(span(0, 0, 1024, 10), Some((0, 1023)));
    // NPOT: mip 3 of 100 is 12 texels; texel 11 covers mip-0 texels 91..=99.
    assert_eq!(span(11, 11, 100, 3), Some((91, 99)));
    assert_eq!(span(0, 0, 100, 3), Some((0, 8)));
    assert_eq!(span(12, 12, 100, 3), None);
    assert_eq!(span(2, 1, 100, 0), None);
}

#[test]
fn min_mip_write_covers_every_overlapped_region() {
    let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
    let mut map = MinMipFeedback::new(4, 4).unwrap();
    // A mip-0 quad straddling the border between regions 0 and 1 in x.
    let fp = Footprint::from_taps(vec![tap(0, 255, 256, 10, 11)]);
    let n = l.write_min_mip(&mut map, &fp, 0.5, SmallTailPolicy::Exact).unwrap();
    assert_eq!(n, 2);
    assert_eq!(map.get(0, 0), Some(Lod53(4)));
    assert_eq!(map.get(1, 0), Some(Lod53(4)));
    assert_eq!(map.requested_count(), 2);
    // A coarser request elsewhere does not overwrite the finer one.
    let fp = Footprint::from_taps(vec![tap(2, 0, 1, 0, 1)]);
    l.write_min_mip(&mut map, &fp, 2.0, SmallTailPolicy::Exact).unwrap();
    assert_eq!(map.get(0, 0), Some(Lod53(4)));
    assert_eq!(map.get(1, 1), Some(Lod53::NONE));
    // A 1x1 tail mip covers the whole map.
    let fp = Footprint::from_taps(vec![tap(10, 0, 0, 0, 0)]);
    assert_eq!(l.write_min_mip(&mut map, &fp, 10.0, SmallTailPolicy::Exact).unwrap(), 16);
    assert_eq!(map.get(3, 3), Some(Lod53(80)));
    assert_eq!(map.get(0, 0), Some(Lod53(4)));
}

#[test]
fn writes_go_through_array_slices_too() {
    let l = FeedbackLayout::new(64, 64, 7, 16, 16).unwrap();
    let mut array = crate::gpu::FeedbackArray::new(4, 4, 2).unwrap();
    let fp = Footprint::from_taps(vec![tap(0, 40, 41, 40, 41)]);
    let mut slice = array.slice_mut(1).unwrap();
    l.write_min_mip(&mut slice, &fp, 0.0, SmallTailPolicy::Exact).unwrap();
    assert_eq!(array.slice(1).unwrap().get(2, 2), Some(Lod53(0)));
    assert_eq!(array.slice(0).unwrap().requested_count(), 0);
}

#[test]
fn wrong_map_size_is_an_error() {
    let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
    let mut map = MinMipFeedback::new(4, 8).unwrap();
    let fp = Footprint::default();
    assert!(l.write_min_mip(&mut map, &fp, 0.0, SmallTailPolicy::Exact).is_err());
    let mut used = MipRegionUsedFeedback::new(4, 4, 10).unwrap();
    assert!(l.write_region_used(&mut used, &fp).is_err());
}

#[test]
fn region_used_marks_each_taps_mip() {
    let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
    let mut used = MipRegionUsedFeedback::new(4, 4, 11).unwrap();
    // Mip-1 texels 255..=256 cover mip-0 texels 510..=513 (regions 1 and 2); mip-2
    // texels 127..=128 cover 508..=515 (the same regions).
    let fp = Footprint::from_taps(vec![tap(1, 255, 256, 0, 1), tap(2, 127, 128, 0, 1)]);
    assert_eq!(l.write_region_used(&mut used, &fp).unwrap(), 4);
    assert_eq!(used.used(1, 0, 1), Some(true));
    assert_eq!(used.used(2, 0, 1), Some(true));
    assert_eq!(used.used(1, 0, 2), Some(true));
    assert_eq!(used.used(2, 0, 2), Some(true));
    assert_eq!(used.used(0, 0, 1), Some(false));
    assert_eq!(used.finest_used(1, 0), Some(1));
}

#[test]
fn malformed_taps_are_skipped() {
    let l = FeedbackLayout::new(1024, 1024, 11, 256, 256).unwrap();
    assert_eq!(l.regions(&tap(11, 0, 0, 0, 0)), None);
    assert_eq!(l.regions(&tap(0, 1024, 1024, 0, 0)), None);
    assert_eq!(l.regions(&tap(0, 5, 4, 0, 0)), None);
}
