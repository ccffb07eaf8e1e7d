//! Latency samples for percentile stats, in memory that stops growing.
//!
//! A run keeps every latency exactly (nearest-rank percentiles, as [`super::percentile`])
//! until it has [`EXACT_SAMPLES`] of them; past that it moves them into an HdrHistogram
//! with three significant digits, so an hour-long run holds a few hundred KiB instead of
//! four to eight bytes per request ([`ExactSamples`] keeps latencies under 275 ms in
//! four). Percentiles then carry at most 0.1 % quantisation error (each is the upper end
//! of its bucket); `exact()` says which applies. Every shipped scenario stays below the
//! cap, so its stats are exact.

use super::exact::ExactSamples;
use super::percentile_index;
use hdrhistogram::Histogram;
use sfsim_models::units::Time;

/// Samples kept exactly before switching to the histogram (16 MiB for latencies under
/// 275 ms, kept in four bytes each; 32 MiB at most).
pub const EXACT_SAMPLES: usize = 1 << 22;

/// Significant decimal digits the histogram keeps (0.1 % relative error).
const SIGNIFICANT_DIGITS: u8 = 3;

/// The largest latency the histogram tells apart, picoseconds.
const HIGHEST: u64 = 1 << 62;

/// Latencies of one kind (requests, background requests), exact or binned.
#[derive(Debug, Clone)]
pub struct Latencies {
    exact: ExactSamples,
    binned: Option<Histogram<u64>>,
    cap: usize,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies::with_cap(EXACT_SAMPLES)
    }
}

impl Latencies {
    /// Kept exactly up to `cap` samples (tests use a small cap).
    pub fn with_cap(cap: usize) -> Self {
        Latencies { exact: ExactSamples::default(), binned: None, cap }
    }

    #[inline]
    pub fn push(&mut self, latency: Time) {
        if let Some(h) = self.binned.as_mut() {
            h.saturating_record(latency.0);
            return;
        }
        self.exact.push(latency);
        if self.exact.len() > self.cap {
            self.bin();
        }
    }

    fn bin(&mut self) {
        // Fixed bounds (about 400 KiB of counts): up to 2^62 ps (53 days); longer latencies,
        // which the run's duration cap rules out, would count at that bound.
        let mut h = Histogram::new_with_bounds(1, HIGHEST, SIGNIFICANT_DIGITS)
            .expect("1 ..= 2^62 at 3 significant digits is a valid histogram");
        for t in self.exact.iter() {
            h.saturating_record(t.0);
        }
        self.exact = ExactSamples::default();
        self.binned = Some(h);
    }

    /// Samples recorded.
    pub fn len(&self) -> u64 {
        self.binned.as_ref().map_or(self.exact.len() as u64, |h| h.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True while every sample is kept (percentiles are exact nearest-rank values).
    pub fn exact(&self) -> bool {
        self.binned.is_none()
    }

    /// Nearest-rank percentile (p in 0..=100); None without samples.
    pub fn percentile(&mut self, p: u32) -> Option<Time> {
        match &self.binned {
            Some(h) => Some(binned_percentile(h, p)),
            None => {
                self.exact.sort();
                let len = self.exact.len();
                (len > 0).then(|| self.exact.at_ranks(&[percentile_index(len, p)])[0])
            }
        }
    }
}

impl Latencies {
    /// At most `max` latencies that draw the samples' CDF, ascending: every sample while
    /// they are exact and no more than `max`, else the nearest-rank quantiles at `max`
    /// evenly spaced ranks (for plots; stats use [`percentile`](Self::percentile)).
    pub fn cdf_samples(&self, max: usize) -> Vec<Time> {
        if self.is_empty() || max == 0 {
            return Vec::new();
        }
        if let Some(h) = &self.binned {
            return (0..max).map(|i| Time(h.value_at_quantile((i as f64 + 0.5) / max as f64))).collect();
        }
        let len = self.exact.len();
        if len <= max {
            return self.exact.sorted();
        }
        let ranks: Vec<usize> = (0..max).map(|i| (i * 2 + 1) * len / (max * 2)).collect();
        self.exact.at_ranks(&ranks)
    }

    /// [`percentile`](Self::percentile) without sorting in place (nor a copy).
    pub fn percentile_of(&self, p: u32) -> Option<Time> {
        self.percentiles(&[p])[0]
    }

    /// Nearest-rank percentiles (each p in 0..=100) at once, without sorting in place: the
    /// values [`percentile`](Self::percentile) gives, from one pass over the samples.
    pub fn percentiles(&self, ps: &[u32]) -> Vec<Option<Time>> {
        if self.is_empty() {
            return vec![None; ps.len()];
        }
        if let Some(h) = &self.binned {
            return ps.iter().map(|&p| Some(binned_percentile(h, p))).collect();
        }
        let len = self.exact.len();
        let rank = |p: u32| percentile_index(len, p);
        let mut ranks: Vec<usize> = ps.iter().map(|&p| rank(p)).collect();
        ranks.sort_unstable();
        let values = self.exact.at_ranks(&ranks);
        ps.iter().map(|&p| Some(values[ranks.partition_point(|&r| r < rank(p))])).collect()
    }
}

/// The histogram's percentile `p`: the maximum at 100.
fn binned_percentile(h: &Histogram<u64>, p: u32) -> Time {
    if p >= 100 {
        Time(h.max())
    } else {
        Time(h.value_at_quantile(f64::from(p) / 100.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::percentile;

    #[test]
    fn exact_below_the_cap_and_within_a_thousandth_above_it() {
        let values: Vec<Time> = (0..10_000u64).map(|i| Time((i * 7919) % 10_000 * 1_000 + 1_000)).collect();
        let mut sorted = values.clone();
        sorted.sort_unstable();
        let mut exact = Latencies::with_cap(values.len());
        let mut binned = Latencies::with_cap(1_000);
        for &v in &values {
            exact.push(v);
            binned.push(v);
        }
        assert!(exact.exact() && !binned.exact());
        assert_eq!((exact.len(), binned.len()), (10_000, 10_000));
        for p in [1, 50, 95, 99, 100] {
            let want = percentile(&sorted, p).unwrap();
            assert_eq!(exact.percentile(p), Some(want), "p{p} exact");
            let got = binned.percentile(p).unwrap();
            let err = got.0.abs_diff(want.0) as f64 / want.0 as f64;
            assert!(err <= 1e-3, "p{p}: {} against {} ({err})", got.0, want.0);
        }
    }

    #[test]
    fn cdf_samples_keep_every_sample_up_to_the_limit_then_quantiles() {
        let mut few = Latencies::default();
        for v in [5u64, 1, 3] {
            few.push(Time(v));
        }
        assert_eq!(few.cdf_samples(10), vec![Time(1), Time(3), Time(5)]);
        let mut many = Latencies::with_cap(100);
        for v in 1..=10_000u64 {
            many.push(Time(v * 1_000));
        }
        let cdf = many.cdf_samples(100);
        assert_eq!(cdf.len(), 100);
        assert!(cdf.windows(2).all(|w| w[0] <= w[1]));
        // The median of the 100 quantiles sits at the samples' median, within 0.1 %.
        let mid = cdf[50].0 as f64;
        assert!((mid - 5_050_000.0).abs() / 5_050_000.0 < 2e-2, "{mid}");
        let mut exact = Latencies::default();
        for v in 1..=1_000u64 {
            exact.push(Time(v));
        }
        assert_eq!(exact.cdf_samples(10), (0..10).map(|i| Time(i * 100 + 51)).collect::<Vec<_>>());
    }

    /// Unsorted samples above the selection's small-set size: the percentiles, their
    /// markers and the CDF's quantiles are exactly those of a sorted copy.
    #[test]
    fn selection_matches_the_sorted_samples() {
        let values: Vec<Time> = (0..50_000u64).map(|i| Time((i * 7919) % 50_000 * 1_000 + (i % 7) * 3)).collect();
        let mut sorted = values.clone();
        sorted.sort_unstable();
        let mut l = Latencies::default();
        for &v in &values {
            l.push(v);
        }
        let ps = [100, 50, 0, 95, 99, 50];
        let want: Vec<Option<Time>> = ps.iter().map(|&p| percentile(&sorted, p)).collect();
        assert_eq!(l.percentiles(&ps), want);
        assert_eq!(l.percentile_of(99), percentile(&sorted, 99));
        let len = sorted.len();
        let cdf: Vec<Time> = (0..2_000).map(|i| sorted[(i * 2 + 1) * len / 4_000]).collect();
        assert_eq!(l.cdf_samples(2_000), cdf);
        // Sorting in place changes none of them.
        assert_eq!(l.percentile(95), percentile(&sorted, 95));
        assert_eq!((l.percentiles(&ps), l.cdf_samples(2_000)), (want, cdf));
    }

    #[test]
    fn no_samples_no_percentile() {
        let mut l = Latencies::default();
        assert!(l.is_empty());
        assert_eq!(l.percentile(50), None);
        assert_eq!(l.percentiles(&[50, 100]), vec![None, None]);
    }
}
