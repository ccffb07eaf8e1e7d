//! The roller-coaster track: a seeded closed loop, travelled at constant speed.

use super::generators::CoasterParams;
use super::spline::centripetal;
use super::CameraPose;
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::TAU;

/// Number of control points of a roller-coaster loop.
const COASTER_POINTS: usize = 8;
/// Arc-length table resolution per spline segment.
const SAMPLES_PER_SEGMENT: usize = 256;

/// A roller-coaster track: control points and an arc-length table for constant speed.
#[derive(Debug, Clone)]
pub(crate) struct Track {
    params: CoasterParams,
    points: Vec<DVec3>,
    /// Cumulative length at parameter `k / SAMPLES_PER_SEGMENT` (segment units).
    lengths: Vec<f64>,
}

impl Track {
    pub(crate) fn new(params: &CoasterParams) -> Track {
        let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
        let n = COASTER_POINTS;
        let points: Vec<DVec3> = (0..n)
            .map(|i| {
                let angle = TAU * (i as f64 + rng.gen_range(-0.3..0.3)) / n as f64;
                let reach = if i % 2 == 0 { 0.6..1.0 } else { 0.15..0.5 };
                let r = params.radius * rng.gen_range(reach);
                let y = if params.amplitude > 0.0 { params.amplitude * rng.gen_range(-1.0..1.0) } else { 0.0 };
                params.center + DVec3::new(r * angle.cos(), y, -r * angle.sin())
            })
            .collect();
        let mut track = Track { params: params.clone(), points, lengths: Vec::new() };
        let steps = n * SAMPLES_PER_SEGMENT;
        let mut lengths = Vec::with_capacity(steps + 1);
        let mut total = 0.0;
        let mut prev = track.eval(0.0).0;
        lengths.push(0.0);
        for k in 1..=steps {
            let p = track.eval(k as f64 / SAMPLES_PER_SEGMENT as f64).0;
            total += p.distance(prev);
            lengths.push(total);
            prev = p;
        }
        track.lengths = lengths;
        track
    }

    /// Point and derivative at spline parameter `s` in [0, n] (segment units, periodic).
    fn eval(&self, s: f64) -> (DVec3, DVec3) {
        let n = self.points.len();
        let seg = (s.floor() as usize).min(n - 1);
        let u = s - seg as f64;
        let p = |k: usize| self.points[(seg + n + k - 1) % n];
        centripetal([p(0), p(1), p(2), p(3)], u)
    }

    /// The spline parameter at arc length `len` in [0, total].
    fn param_at_length(&self, len: f64) -> f64 {
        let k = self.lengths.partition_point(|&l| l <= len).clamp(1, self.lengths.len() - 1);
        let (l0, l1) = (self.lengths[k - 1], self.lengths[k]);
        let frac = if l1 > l0 { (len - l0) / (l1 - l0) } else { 0.0 };
        ((k - 1) as f64 + frac.clamp(0.0, 1.0)) / SAMPLES_PER_SEGMENT as f64
    }

    pub(crate) fn pose_at(&self, t_seconds: f64) -> CameraPose {
        let t = t_seconds;
        let total = self.lengths.last().copied().unwrap_or(0.0);
        let s = self.param_at_length(total * phase(t, self.params.period_s));
        let (position, tangent) = self.eval(s);
        CameraPose::look_at(position, position + tangent, DVec3::Y, self.params.fov_y_deg)
    }
}

/// Fraction of the period elapsed at `t` seconds, in [0, 1); 0 when that is not a finite
/// number (non-finite or astronomically large `t`).
pub(crate) fn phase(t: f64, period_s: f64) -> f64 {
    let p = (t / period_s).rem_euclid(1.0);
    if p.is_finite() && p < 1.0 {
        p
    } else {
        0.0
    }
}
