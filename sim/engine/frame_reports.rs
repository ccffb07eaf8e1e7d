//! The engine's per-frame reports in memory that stops growing. A frame's report changes
//! while it is the latest frame and while its feedback pass runs; once both are over it
//! is final, goes to the caller (frames.csv's rows) and is folded into [`ReportTotals`],
//! which give the stats exactly what summing every report in frame order gave.

use super::report::{Bottleneck, FrameReport};
use crate::spill::{Decoder, Encoder};
use sfsim_models::units::Time;
use std::collections::VecDeque;

/// Reports by absolute frame index; only those not yet final are held.
#[derive(Debug, Default)]
pub struct FrameReports {
    live: VecDeque<FrameReport>,
    /// The frame index of `live[0]`.
    base: usize,
    totals: ReportTotals,
}

impl FrameReports {
    /// Frames begun.
    pub fn len(&self) -> usize {
        self.base + self.live.len()
    }

    /// The report of a frame just begun.
    pub fn push(&mut self, r: FrameReport) {
        self.live.push_back(r);
    }

    /// The latest frame's report.
    pub fn last_mut(&mut self) -> Option<&mut FrameReport> {
        self.live.back_mut()
    }

    /// Hands over, in order, every report of a frame before `frame`.
    pub fn release_before(&mut self, frame: usize, out: &mut dyn FnMut(&FrameReport)) {
        while self.base < frame {
            let Some(r) = self.live.pop_front() else { return };
            self.totals.add(&r);
            out(&r);
            self.base += 1;
        }
    }

    /// Reports not yet handed over.
    pub fn live(&self) -> &VecDeque<FrameReport> {
        &self.live
    }

    /// Totals over every frame, handed over or not.
    pub fn totals(&self) -> ReportTotals {
        let mut t = self.totals.clone();
        self.live.iter().for_each(|r| t.add(r));
        t
    }
}

impl std::ops::Index<usize> for FrameReports {
    type Output = FrameReport;
    fn index(&self, frame: usize) -> &FrameReport {
        &self.live[frame - self.base]
    }
}

impl std::ops::IndexMut<usize> for FrameReports {
    fn index_mut(&mut self, frame: usize) -> &mut FrameReport {
        &mut self.live[frame - self.base]
    }
}

/// What the stats need of every frame's report, summed in frame order (the floating-point
/// sums add in the same order, from the same start, as `Iterator::sum` over the reports).
#[derive(Debug, Clone)]
pub struct ReportTotals {
    /// Frames begun.
    pub frames: u64,
    /// Most tiles in flight at a frame's start.
    pub tiles_in_flight_max: u64,
    /// Tiles in flight at frame starts, summed.
    pub tiles_in_flight_sum: u64,
    /// Most pool slots in use at a frame's start.
    pub pool_used_max: u32,
    /// Frames per submission stop, in [`Bottleneck::ALL`] order.
    pub stops: [u64; 4],
    /// Sums of cpu_analysis, cpu_sort, cpu_submit, cpu_minmip, gpu_render, gpu_feedback (ms).
    pub ms: [f64; 6],
    /// Feedback maps resolved, summed.
    pub feedback_maps: f64,
}

impl Default for ReportTotals {
    fn default() -> Self {
        let zero = std::iter::empty::<f64>().sum::<f64>();
        ReportTotals {
            frames: 0,
            tiles_in_flight_max: 0,
            tiles_in_flight_sum: 0,
            pool_used_max: 0,
            stops: [0; 4],
            ms: [zero; 6],
            feedback_maps: zero,
        }
    }
}

impl ReportTotals {
    fn add(&mut self, r: &FrameReport) {
        self.frames += 1;
        self.tiles_in_flight_max = self.tiles_in_flight_max.max(r.tiles_in_flight);
        self.tiles_in_flight_sum += r.tiles_in_flight;
        self.pool_used_max = self.pool_used_max.max(r.pool_used);
        if let Some(i) = r.bottleneck.and_then(|b| Bottleneck::ALL.iter().position(|&a| a == b)) {
            self.stops[i] += 1;
        }
        let times = [r.cpu_analysis, r.cpu_sort, r.cpu_submit, r.cpu_minmip, r.gpu_render, r.gpu_feedback];
        for (sum, t) in self.ms.iter_mut().zip(times) {
            *sum += t.as_ms_f64();
        }
        self.feedback_maps += f64::from(r.feedback_maps);
    }
}

/// Bytes of one report in a spill file.
pub const REPORT_BYTES: usize = 4 * 8 + 8 * 14;

/// A report as spill bytes.
pub fn encode(r: &FrameReport, out: &mut Vec<u8>) {
    let mut e = Encoder(std::mem::take(out));
    for v in [r.loads, r.evictions, r.became_visible, r.seen_list, r.pool_used, r.feedback_maps] {
        e.u32(v);
    }
    e.u32(r.feedback_maps_skipped);
    let stop = r.bottleneck.and_then(|b| Bottleneck::ALL.iter().position(|&a| a == b)).map_or(0, |i| i as u32 + 1);
    e.u32(
        stop | u32::from(r.pass_start.is_some()) << 8
            | u32::from(r.pass_end.is_some()) << 9
            | u32::from(r.pass_late) << 10,
    );
    for v in [r.texels_analysed, r.tiles_in_flight, r.minmip_texels_copied] {
        e.u64(v);
    }
    let g = &r.gpu;
    for t in [r.cpu_analysis, r.cpu_sort, r.cpu_submit, r.cpu_minmip, g.submitted, g.render_start, g.feedback_ready] {
        e.u64(t.0);
    }
    for t in [r.gpu_render, r.gpu_feedback, r.pass_start.unwrap_or(Time::ZERO), r.pass_end.unwrap_or(Time::ZERO)] {
        e.u64(t.0);
    }
    *out = e.0;
}

/// A report back from [`REPORT_BYTES`] bytes of [`encode`].
pub fn decode(bytes: &[u8]) -> FrameReport {
    let mut d = Decoder(bytes);
    let [loads, evictions, became_visible, seen_list, pool_used, feedback_maps, feedback_maps_skipped, flags] =
        std::array::from_fn(|_| d.u32());
    let [texels_analysed, tiles_in_flight, minmip_texels_copied] = std::array::from_fn(|_| d.u64());
    let [cpu_analysis, cpu_sort, cpu_submit, cpu_minmip, submitted, render_start, feedback_ready] =
        std::array::from_fn(|_| Time(d.u64()));
    let [gpu_render, gpu_feedback, pass_start, pass_end] = std::array::from_fn(|_| Time(d.u64()));
    let stop = (flags & 0xff) as usize;
    FrameReport {
        loads,
        evictions,
        became_visible,
        seen_list,
        bottleneck: stop.checked_sub(1).and_then(|i| Bottleneck::ALL.get(i).copied()),
        texels_analysed,
        cpu_analysis,
        cpu_sort,
        cpu_submit,
        cpu_minmip,
        tiles_in_flight,
        pool_used,
        gpu: super::FrameGpu { submitted, render_start, feedback_ready },
        gpu_render,
        gpu_feedback,
        minmip_texels_copied,
        pass_start: (flags >> 8 & 1 == 1).then_some(pass_start),
        pass_end: (flags >> 9 & 1 == 1).then_some(pass_end),
        pass_late: flags >> 10 & 1 == 1,
        feedback_maps,
        feedback_maps_skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn totals_equal_summing_every_report_in_frame_order_however_they_are_handed_over() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let all: Vec<FrameReport> = (0..500)
            .map(|_| FrameReport {
                tiles_in_flight: rng.gen_range(0..1000),
                pool_used: rng.gen_range(0..1000),
                bottleneck: [None, Some(Bottleneck::Staging), Some(Bottleneck::Pool)][rng.gen_range(0..3)],
                cpu_analysis: Time(rng.gen_range(0..10_000_000_000)),
                gpu_feedback: Time(rng.gen_range(0..10_000_000_000)),
                feedback_maps: rng.gen_range(0..300),
                ..FrameReport::default()
            })
            .collect();
        let mut reports = FrameReports::default();
        let mut handed = Vec::new();
        for (f, r) in all.iter().enumerate() {
            reports.push(r.clone());
            reports[f].loads += 1;
            if rng.gen_bool(0.3) {
                reports.release_before(f.saturating_sub(rng.gen_range(0..4)), &mut |r| handed.push(r.clone()));
            }
        }
        let t = reports.totals();
        assert_eq!(t.frames, all.len() as u64);
        assert_eq!(t.tiles_in_flight_max, all.iter().map(|r| r.tiles_in_flight).max().unwrap());
        assert_eq!(t.stops[1], all.iter().filter(|r| r.bottleneck == Some(Bottleneck::Staging)).count() as u64);
        let analysis: f64 = all.iter().map(|r| r.cpu_analysis.as_ms_f64()).sum();
        let feedback: f64 = all.iter().map(|r| r.gpu_feedback.as_ms_f64()).sum();
        assert_eq!((t.ms[0].to_bits(), t.ms[5].to_bits()), (analysis.to_bits(), feedback.to_bits()));
        reports.release_before(usize::MAX, &mut |r| handed.push(r.clone()));
        assert_eq!(handed.len(), all.len());
        assert!(handed.iter().zip(&all).all(|(h, a)| h.loads == a.loads + 1 && h.tiles_in_flight == a.tiles_in_flight));
    }

    #[test]
    fn a_report_survives_its_spill_bytes() {
        let r = FrameReport {
            loads: 7,
            bottleneck: Some(Bottleneck::UploadCap),
            pass_start: Some(Time(5)),
            pass_end: None,
            pass_late: true,
            gpu_render: Time(u64::MAX),
            feedback_maps_skipped: 3,
            ..FrameReport::default()
        };
        let mut bytes = Vec::new();
        encode(&r, &mut bytes);
        assert_eq!(bytes.len(), REPORT_BYTES);
        assert_eq!(decode(&bytes), r);
    }
}
