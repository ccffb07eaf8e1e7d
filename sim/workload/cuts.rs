//! Camera cuts and time-to-sharp: after the view jumps, how many frames pass until the
//! mean LOD deficit (effective − desired, over the frame's texture samples) falls under
//! [`SHARP_BELOW`] again — how long a player sees blur after a cut.

use crate::scene::FrameStats;
use crate::stats::StatSet;
use glam::DVec3;
use sfsim_models::units::Time;

/// A frame is a cut when the camera moved more than this many times the run's median
/// per-frame move (a continuous path moves about the median every frame; a cut jumps).
pub const CUT_FACTOR: f64 = 8.0;

/// A frame is sharp when its mean LOD deficit is under this many mips.
pub const SHARP_BELOW: f64 = 0.1;

/// Camera positions and the LOD deficit of every frame, in order.
#[derive(Debug, Default)]
pub struct CutTracker {
    positions: Vec<DVec3>,
    deficits: Vec<Option<f64>>,
}

impl CutTracker {
    /// Frame `n` (the next) was seen from `position` with these sampler counts.
    pub fn frame(&mut self, position: DVec3, sampler: &FrameStats) {
        self.positions.push(position);
        self.deficits.push(sampler.mean_lod_deficit());
    }

    /// Frames that are cuts (never frame 0).
    pub fn cuts(&self) -> Vec<usize> {
        let moves: Vec<f64> = self.positions.windows(2).map(|w| w[0].distance(w[1])).collect();
        let mut sorted = moves.clone();
        sorted.sort_by(f64::total_cmp);
        let Some(&median) = sorted.get(sorted.len() / 2) else { return Vec::new() };
        let jump = (median * CUT_FACTOR).max(1e-9);
        moves.iter().enumerate().filter(|(_, &m)| m > jump).map(|(i, _)| i + 1).collect()
    }

    /// Per cut, frames until sharp; `None` when it was not sharp before the next cut or the
    /// end of the run (or quality was not measured).
    pub fn frames_to_sharp(&self) -> Vec<Option<u64>> {
        let cuts = self.cuts();
        cuts.iter()
            .enumerate()
            .map(|(k, &c)| {
                let end = cuts.get(k + 1).copied().unwrap_or(self.deficits.len());
                (c..end).find(|&f| self.deficits[f].is_some_and(|d| d < SHARP_BELOW)).map(|f| (f - c) as u64)
            })
            .collect()
    }

    /// `camera.cuts`, `quality.time_to_sharp.{mean,max}` (over cuts that got sharp) and
    /// `quality.cuts_never_sharp` (the last three null when quality was not measured).
    pub fn push_stats(&self, s: &mut StatSet, frame_period: Time) {
        let per_cut = self.frames_to_sharp();
        let measured = self.deficits.iter().any(Option::is_some);
        let sharp: Vec<f64> = per_cut.iter().flatten().map(|&f| f as f64 * frame_period.as_ms_f64()).collect();
        s.push(
            "camera.cuts",
            Some(per_cut.len() as f64),
            "count",
            format!("camera cuts: frames whose camera moved more than {CUT_FACTOR}× the median per-frame move"),
        );
        s.push(
            "quality.time_to_sharp.mean",
            (!sharp.is_empty()).then(|| sharp.iter().sum::<f64>() / sharp.len() as f64),
            "ms",
            format!("after a cut, time until the mean LOD deficit is under {SHARP_BELOW} mips (cuts that got sharp)"),
        );
        s.push(
            "quality.time_to_sharp.max",
            sharp.iter().copied().reduce(f64::max),
            "ms",
            "longest time-to-sharp after a cut",
        );
        s.push(
            "quality.cuts_never_sharp",
            measured.then(|| per_cut.iter().filter(|c| c.is_none()).count() as f64),
            "count",
            "cuts after which the view was not sharp before the next cut or the end",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(deficit: f64) -> FrameStats {
        FrameStats { quality_samples: 1, lod_deficit_sum: deficit, ..FrameStats::default() }
    }

    #[test]
    fn a_jump_is_a_cut_and_sharpness_is_counted_in_frames_after_it() {
        let mut t = CutTracker::default();
        // A steady walk along x, then a jump at frame 5; blurry for 3 frames after it.
        let deficits = [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 0.5, 0.05, 0.0];
        for (i, d) in deficits.iter().enumerate() {
            let x = if i < 5 { i as f64 } else { 100.0 + i as f64 };
            t.frame(DVec3::new(x, 0.0, 0.0), &frame(*d));
        }
        assert_eq!(t.cuts(), vec![5]);
        assert_eq!(t.frames_to_sharp(), vec![Some(3)]);
        let mut s = StatSet::default();
        t.push_stats(&mut s, Time::from_ms(10));
        assert_eq!(s.get("quality.time_to_sharp.mean"), Some(30.0));
        assert_eq!(s.get("quality.cuts_never_sharp"), Some(0.0));
    }
}
