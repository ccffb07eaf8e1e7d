//! A per-frame plot series in bounded memory: every point is kept up to [`EXACT_POINTS`];
//! past it, neighbouring buckets are merged in pairs (each bucket then covers twice the
//! frames), keeping each bucket's mean, minimum and maximum, so an hour's run plots from
//! at most `EXACT_POINTS` buckets and its legend says how many frames a point covers.

use crate::report::Series;

/// Points kept one per frame: every shipped scenario but the hour-long soak fits (the
/// longest, 60 s at 60 fps, is 3600 frames), and a plot a few thousand pixels wide draws
/// no more. About 20 series of 40-byte buckets: under 7 MiB however long the run.
pub const EXACT_POINTS: usize = 1 << 13;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// The first frame's x.
    x: f64,
    n: u64,
    sum: f64,
    min: f64,
    max: f64,
}

impl Bucket {
    fn merge(self, other: Bucket) -> Bucket {
        Bucket {
            x: self.x,
            n: self.n + other.n,
            sum: self.sum + other.sum,
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

/// One value per frame, exact below the cap, mean/min/max per bucket past it.
#[derive(Debug, Clone)]
pub struct BoundedSeries {
    cap: usize,
    /// Frames per full bucket (a power of two).
    width: u64,
    full: Vec<Bucket>,
    filling: Option<Bucket>,
}

impl Default for BoundedSeries {
    fn default() -> Self {
        BoundedSeries::with_cap(EXACT_POINTS)
    }
}

impl BoundedSeries {
    /// At most `cap` buckets (even, ≥ 2; tests use small caps).
    pub fn with_cap(cap: usize) -> Self {
        BoundedSeries { cap: cap.max(2) & !1, width: 1, full: Vec::new(), filling: None }
    }

    pub fn push(&mut self, x: f64, y: f64) {
        let point = Bucket { x, n: 1, sum: y, min: y, max: y };
        let b = match self.filling.take() {
            Some(b) => b.merge(point),
            None => point,
        };
        if b.n < self.width {
            self.filling = Some(b);
            return;
        }
        self.full.push(b);
        if self.full.len() == self.cap {
            self.full = self.full.chunks(2).map(|p| p[0].merge(p[1])).collect();
            self.width *= 2;
        }
    }

    /// Frames per point: 1 while every frame is its own point.
    pub fn frames_per_point(&self) -> u64 {
        self.width
    }

    fn buckets(&self) -> impl Iterator<Item = &Bucket> {
        self.full.iter().chain(&self.filling)
    }

    /// The points: each frame's value, or each bucket's mean at its first frame.
    pub fn means(&self) -> Vec<(f64, f64)> {
        self.buckets().map(|b| (b.x, if b.n == 1 { b.sum } else { b.sum / b.n as f64 })).collect()
    }

    /// The plot's series: `label` alone while exact, else the means labelled with the
    /// frames per point and the buckets' minimum and maximum beside them.
    pub fn into_series(self, label: &str) -> Vec<Series> {
        if self.width == 1 {
            return vec![Series { label: label.to_string(), points: self.means() }];
        }
        let w = self.width;
        let min = self.buckets().map(|b| (b.x, b.min)).collect();
        let max = self.buckets().map(|b| (b.x, b.max)).collect();
        vec![
            Series { label: format!("{label} (mean per {w} frames)"), points: self.means() },
            Series { label: format!("{label} (min per {w} frames)"), points: min },
            Series { label: format!("{label} (max per {w} frames)"), points: max },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_the_cap_every_value_is_kept_exactly() {
        let mut s = BoundedSeries::with_cap(8);
        let values = [0.1, 0.7, 1e-300, 3.0, f64::MAX, -2.5, 0.3, 0.30000000000000004];
        for (i, &v) in values[..7].iter().enumerate() {
            s.push(i as f64, v);
        }
        let got = s.means();
        assert_eq!(got.len(), 7);
        for (i, &(x, y)) in got.iter().enumerate() {
            assert_eq!((x.to_bits(), y.to_bits()), ((i as f64).to_bits(), values[i].to_bits()));
        }
        assert_eq!(s.frames_per_point(), 1);
        assert_eq!(s.into_series("v").len(), 1);
    }

    #[test]
    fn past_the_cap_buckets_keep_mean_and_extremes_of_their_frames() {
        let mut s = BoundedSeries::with_cap(4);
        let values: Vec<f64> = (0..37).map(|i| f64::from((i * 7) % 11)).collect();
        for (i, &v) in values.iter().enumerate() {
            s.push(i as f64, v);
        }
        let w = s.frames_per_point() as usize;
        assert!(w > 1 && s.means().len() <= 4, "{} points of {w} frames", s.means().len());
        let series = s.into_series("v");
        assert_eq!(series.len(), 3);
        assert!(series[0].label.contains(&format!("per {w} frames")));
        for (k, chunk) in values.chunks(w).enumerate() {
            let mean = chunk.iter().sum::<f64>() / chunk.len() as f64;
            assert_eq!(series[0].points[k], ((k * w) as f64, mean));
            assert_eq!(series[1].points[k].1, chunk.iter().copied().fold(f64::INFINITY, f64::min));
            assert_eq!(series[2].points[k].1, chunk.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        }
    }
}
