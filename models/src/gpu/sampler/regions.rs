//! One sample's feedback footprint as feedback-map rectangles, without building it: what
//! feedback written over the footprint costs when regions are large next to a footprint.
//!
//! A filter's taps at one mip lie along the line of anisotropy, and every step from a
//! probe's position to a feedback texel (scale by the mip's size, floor, CLAMP, projection
//! onto mip 0, the region shift) is monotonic — in floating point too, where each operation
//! rounds monotonically. So along the probes each edge of a tap's region rectangle moves
//! one way only, and when the two end probes land on the same rectangle every probe between
//! them does: the mip is written once. A finer mip's bilinear taps lie inside the next
//! coarser mip's (in mip-0 texels), so when the coarser mip's end probes land in one region
//! (the usual read), that region is both mips' rectangle and the finer mip's ends are not
//! worked out. A footprint that crosses a border along one axis only, with its probes no
//! further apart than a tap reaches (as anisotropic filtering spaces them, unless its LOD
//! is past the sampler's last mip), covers exactly the hull of its two ends: one rectangle
//! again. Other footprints whose ends differ have every probe's span worked out, each axis
//! apart (a branch-free loop: bisecting works out fewer probes but mispredicts its
//! branches), and each run of equal rectangles is written once. Overlapping rectangles are
//! harmless: atomic-min and bit-set writes are idempotent, so the maps end the same as
//! [`FeedbackLayout::write_min_mip`] over [`Sample::feedback_footprint`] (tested).

use super::super::feedback_write::{FeedbackLayout, RegionRect};
use super::super::lod_select::{linear_mips, nearest_mip};
use super::axis_runs::AxisRuns;
use super::mip_taps::AxisEnds;
pub(super) use super::mip_taps::MipTaps;
#[cfg(doc)]
use super::Sample;
use super::{footprint, DesiredLod, Filter, PreparedSampler, ProbeLine};

/// The feedback texels of mip `mip` that some tap of a sample's footprint overlaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MipRegions {
    /// Mip the taps read.
    pub mip: u32,
    /// Feedback texels their texels overlap.
    pub rect: RegionRect,
}

impl PreparedSampler {
    /// Appends to `out` the rectangles of `layout`'s feedback map that the feedback
    /// footprint ([`Sample::feedback_footprint`]) of the sample at `uv` with desired LOD `d`
    /// overlaps. Rectangles may overlap; writing each of their texels writes exactly the
    /// texels [`FeedbackLayout::write_min_mip`] and
    /// [`FeedbackLayout::write_region_used`] write for that footprint. `layout` is meant to
    /// be this sampler's texture's (another size takes a slower, tap-by-tap path). For many
    /// samples, build a [`FootprintRegions`] once.
    pub fn feedback_regions(&self, uv: (f64, f64), d: &DesiredLod, layout: &FeedbackLayout, out: &mut Vec<MipRegions>) {
        let _ = FootprintRegions::new(self, layout).regions(uv, d, out);
    }
}

/// [`PreparedSampler::feedback_regions`] for one sampler and feedback layout, each mip's
/// projection onto the feedback map worked out once: for hot loops over one texture.
#[derive(Debug, Clone)]
pub struct FootprintRegions {
    sampler: PreparedSampler,
    layout: FeedbackLayout,
    /// Per mip of the sampler's texture; `None` past the layout's mips.
    mips: Vec<Option<MipTaps>>,
}

impl FootprintRegions {
    /// The regions of `sampler`'s footprints on `layout`'s feedback map.
    pub fn new(sampler: &PreparedSampler, layout: &FeedbackLayout) -> FootprintRegions {
        let same_size = (sampler.tex_w, sampler.tex_h) == (layout.tex_width(), layout.tex_height());
        // Another texture's layout takes the tap-by-tap path: no per-mip projections.
        let mut mips: Vec<Option<MipTaps>> = if same_size {
            (0..sampler.mip_count).map(|mip| MipTaps::new(sampler, mip, layout)).collect()
        } else {
            Vec::new()
        };
        for m in 1..mips.len() {
            if let (Some(finer), Some(coarser)) = (mips[m - 1], mips[m].as_mut()) {
                coarser.follow_finer(&finer);
            }
        }
        FootprintRegions { sampler: *sampler, layout: *layout, mips }
    }

    /// Per mip of the sampler's texture, the feedback projection (empty for another
    /// texture's layout).
    pub(super) fn projections(&self) -> &[Option<MipTaps>] {
        &self.mips
    }

    /// As [`PreparedSampler::feedback_regions`]; says how the rectangles are laid out.
    pub fn regions(&self, uv: (f64, f64), d: &DesiredLod, out: &mut Vec<MipRegions>) -> RegionRuns {
        if self.mips.is_empty() {
            // Another texture's layout: its regions of this sampler's taps, tap by tap.
            let sampler = &self.sampler;
            let probes = sampler.probes(uv, &d.with_clamp(0.0));
            let dims = (sampler.tex_w, sampler.tex_h, sampler.mip_count);
            let taps = footprint(sampler.desc.filter, &probes, d.desired, dims).taps;
            out.extend(taps.iter().filter_map(|t| self.layout.regions(t).map(|rect| MipRegions { mip: t.mip, rect })));
            return RegionRuns::PerTap;
        }
        projected_regions(&self.sampler, &self.mips, uv, d.desired, d.ratio, d.major, out)
    }

    /// The sampler, and per mip its feedback projection (empty for another texture's
    /// layout), for [`CoarserRegions`](super::CoarserRegions).
    pub(super) fn parts(&self) -> (&PreparedSampler, &[Option<MipTaps>]) {
        (&self.sampler, &self.mips)
    }
}

/// How [`FootprintRegions::regions`] laid out a footprint's rectangles: what a coarser
/// layout's rectangles may be derived from ([`CoarserRegions`](super::CoarserRegions)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RegionRuns {
    /// Per mip in order, the runs of equal rectangles along the footprint's probes (two
    /// rectangles in a row always differ), or their hull where it covers exactly their
    /// texels. A coarser layout's follow from these.
    #[default]
    Runs,
    /// One rectangle per tap or probe, equal ones in a row included (another texture's
    /// layout, or a probe line with an infinite axis): work a coarser layout's out itself.
    PerTap,
}

/// The rectangles, through `projections` (per mip of `sampler`'s texture), of the taps a
/// read at `uv` makes at the mips `lod` selects, with the anisotropy `ratio` along `major`.
///
/// The usual read (one region on both mips) is settled here, in a small frame; every other
/// goes on in [`crossing_regions`], out of line, with what was worked out so far.
#[inline]
pub(super) fn projected_regions(
    sampler: &PreparedSampler,
    projections: &[Option<MipTaps>],
    uv: (f64, f64),
    lod: f64,
    ratio: f64,
    major: (f64, f64),
    out: &mut Vec<MipRegions>,
) -> RegionRuns {
    let (first, second) = match sampler.desc.filter {
        Filter::Point | Filter::Bilinear => (nearest_mip(lod, sampler.mip_count), None),
        Filter::Trilinear | Filter::Anisotropic { .. } => linear_mips(lod, sampler.mip_count),
    };
    let mips = Mips { first, second };
    let Filter::Anisotropic { max_aniso } = sampler.desc.filter else {
        return unfiltered_regions(projections, mips, uv, out);
    };
    let line = ProbeLine::scaled(uv, ratio, major, max_aniso, &sampler.probe_scale);
    let n = line.len();
    if n == 0 {
        return RegionRuns::Runs; // a NaN ratio reads nothing
    }
    // Probes are worked out when needed: most footprints need only their two ends.
    let ends = (line.at(0), line.at(n - 1));
    // With an infinite axis the middle probe's offset is 0 × ∞ = NaN: not monotonic.
    let monotonic = major.0.is_finite() && major.1.is_finite();
    // The usual footprint lies in one region on both mips: the coarser mip's ends tell
    // (its taps contain the finer mip's), so the finer mip's ends are not worked out.
    let mut coarser_ends = None;
    if let Some((mip, coarser)) =
        second.and_then(|m| Some((m, taps_of(projections, m)?))).filter(|(_, t)| monotonic && t.covers_finer())
    {
        let (x_ends, y_ends) = coarser.end_spans(ends);
        if let Some(rect) = one_region(x_ends, y_ends) {
            out.extend([MipRegions { mip: first, rect }, MipRegions { mip, rect }]);
            return RegionRuns::Runs;
        }
        coarser_ends = Some((x_ends, y_ends));
    }
    crossing_regions(projections, mips, &line, ends, monotonic, coarser_ends, out)
}

/// The mips a read's taps are on: the LOD's, and with a linear mip filter the next coarser.
#[derive(Clone, Copy)]
struct Mips {
    first: u32,
    second: Option<u32>,
}

fn taps_of(projections: &[Option<MipTaps>], mip: u32) -> Option<&MipTaps> {
    projections.get(mip as usize).and_then(Option::as_ref)
}

/// [`projected_regions`] without anisotropy: one tap per mip.
#[inline(never)]
fn unfiltered_regions(
    projections: &[Option<MipTaps>],
    mips: Mips,
    uv: (f64, f64),
    out: &mut Vec<MipRegions>,
) -> RegionRuns {
    let mips = std::iter::once(mips.first).chain(mips.second);
    out.extend(mips.filter_map(|mip| taps_of(projections, mip).map(|taps| taps.regions(uv))));
    RegionRuns::Runs
}

/// [`projected_regions`] for a footprint that is not in one region on both mips (or whose
/// mips do not vouch for each other): each mip's rectangles from its end probes, `ends`,
/// those of the coarser mip given when already worked out.
#[inline(never)]
fn crossing_regions(
    projections: &[Option<MipTaps>],
    mips: Mips,
    line: &ProbeLine,
    ends: ((f64, f64), (f64, f64)),
    monotonic: bool,
    coarser_ends: Option<(AxisEnds, AxisEnds)>,
    out: &mut Vec<MipRegions>,
) -> RegionRuns {
    let n = line.len();
    for mip in std::iter::once(mips.first).chain(mips.second) {
        let Some(taps) = taps_of(projections, mip) else { continue };
        if !monotonic {
            out.extend((0..n).map(|i| taps.regions(line.at(i))));
            continue;
        }
        let (x_ends, y_ends) = match coarser_ends {
            Some(spans) if Some(mip) == mips.second => spans,
            _ => taps.end_spans(ends),
        };
        let rect = |(x0, x1), (y0, y1)| MipRegions { mip, rect: RegionRect { x0, x1, y0, y1 } };
        if x_ends.0 == x_ends.1 && y_ends.0 == y_ends.1 {
            out.push(rect(x_ends.0, y_ends.0)); // the common case: one rectangle
            continue;
        }
        if let Some(hull) = taps.joined_hull(ends, n, x_ends, y_ends) {
            out.push(MipRegions { mip, rect: hull }); // a border crossed along one axis
            continue;
        }
        // Each axis changes its span of regions at its own probes: found apart, then
        // merged into the runs of equal rectangles. The ends are known: only the probes
        // between them are worked out, one axis at a time.
        let x = |i: usize| taps.x_regions(line.u_at(i));
        let y = |i: usize| taps.y_regions(line.v_at(i));
        let (mut xs, mut ys) = (AxisRuns::default(), AxisRuns::default());
        xs.fill(&x, n, x_ends);
        ys.fill(&y, n, y_ends);
        xs.merge(&ys, |xr, yr| out.push(rect(xr, yr)));
    }
    if monotonic {
        RegionRuns::Runs
    } else {
        RegionRuns::PerTap
    }
}

/// The region both ends' taps lie in, when they lie in one.
#[inline(always)]
fn one_region(x_ends: AxisEnds, y_ends: AxisEnds) -> Option<RegionRect> {
    let (x, y) = (x_ends.0, y_ends.0);
    let one = x_ends.1 == x && y_ends.1 == y && x.0 == x.1 && y.0 == y.1;
    one.then_some(RegionRect { x0: x.0, x1: x.1, y0: y.0, y1: y.1 })
}

#[cfg(test)]
#[path = "regions_tests.rs"]
pub(super) mod tests;
