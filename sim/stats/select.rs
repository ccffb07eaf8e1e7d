//! Order statistics of unsorted samples without sorting them all.
//!
//! A run's stats and its latency CDF need the samples' values at a few (4) or a few
//! thousand (20 000) ranks, out of up to [`super::EXACT_SAMPLES`]. A full sort of a
//! saturating IO run's 650 000 latencies cost more than a tenth of the run; here one pass
//! counts the samples into equal-width buckets, a second copies out only the samples of the
//! buckets that hold a wanted rank, and only those are sorted (or, when a bucket is still
//! large, selected from the same way). The values are exactly a full sort's: each bucket's
//! samples are all above the previous bucket's, so a rank's value is its rank within its
//! bucket's sorted samples.
//!
//! Many ranks want many buckets (about four samples each, so that the wanted ones hold
//! few samples); a few ranks want few (4 096: the counts stay in the L1 cache, and the
//! wanted buckets are selected from again if they are large).

use sfsim_models::units::Time;

/// Up to this many samples a plain sort of a copy is as quick.
const SMALL: usize = 1 << 12;

/// Most buckets: 2^20 counts (4 MiB), for the largest exact sample sets.
const MAX_BUCKET_BITS: u32 = 20;

/// Fewest buckets (when few ranks are wanted): 2^12 counts, 16 KiB.
const MIN_BUCKET_BITS: u32 = 12;

/// Buckets per wanted rank, when that is more than the minimum (and fewer than a bucket
/// per four samples).
const BUCKETS_PER_RANK_BITS: u32 = 6;

/// A sample type [`at_ranks_within`] selects from: ordered as its `u64` key.
pub trait Key: Copy + Ord + Default {
    fn key(self) -> u64;
    /// The sample whose key is `key` (only called with keys of samples or between two).
    fn from_key(key: u64) -> Self;
}

impl Key for Time {
    #[inline]
    fn key(self) -> u64 {
        self.0
    }
    #[inline]
    fn from_key(key: u64) -> Self {
        Time(key)
    }
}

impl Key for u32 {
    #[inline]
    fn key(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn from_key(key: u64) -> Self {
        u32::try_from(key).expect("a key between two u32 samples fits u32")
    }
}

/// The values at `ranks` of `data` sorted ascending; `ranks` ascending (repeats allowed),
/// each below `data.len()`.
#[cfg(test)]
pub fn at_ranks<T: Key>(data: &[T], ranks: &[usize]) -> Vec<T> {
    let (lo, hi) = data.iter().fold((u64::MAX, 0), |(lo, hi), &t| (lo.min(t.key()), hi.max(t.key())));
    at_ranks_within(data, (T::from_key(lo), T::from_key(hi)), ranks)
}

/// [`at_ranks`] of samples that all lie in `bounds` (least, greatest; a caller that
/// tracked them as the samples came saves a pass).
pub fn at_ranks_within<T: Key>(data: &[T], bounds: (T, T), ranks: &[usize]) -> Vec<T> {
    debug_assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "ranks ascending");
    let Some(&last) = ranks.last() else { return Vec::new() };
    assert!(last < data.len(), "rank {last} of {} samples", data.len());
    if data.len() <= SMALL || data.len() > u32::MAX as usize / 2 {
        let mut copy = data.to_vec();
        copy.sort_unstable();
        return ranks.iter().map(|&r| copy[r]).collect();
    }
    let (lo, hi) = (bounds.0.key(), bounds.1.key());
    debug_assert!(data.iter().all(|t| (lo..=hi).contains(&t.key())), "samples within the bounds");
    if lo == hi {
        return vec![T::from_key(lo); ranks.len()];
    }
    // Bucket b holds the samples with (t − lo) >> shift == b.
    let span_bits = u64::BITS - (hi - lo).leading_zeros();
    let log2 = |n: usize| usize::BITS - 1 - n.max(1).leading_zeros();
    let per_four_samples = log2(data.len()).saturating_sub(2);
    let for_ranks = (log2(ranks.len()) + 1 + BUCKETS_PER_RANK_BITS).max(MIN_BUCKET_BITS);
    let bucket_bits = per_four_samples.min(for_ranks).min(MAX_BUCKET_BITS);
    let shift = span_bits.saturating_sub(bucket_bits);
    let buckets = ((hi - lo) >> shift) as usize + 1;
    let bucket = |t: T| ((t.key() - lo) >> shift) as usize;

    // `start[b]`: the rank of bucket b's first sample (`start[buckets]` = the count).
    let mut start = vec![0u32; buckets + 1];
    for &t in data {
        start[bucket(t) + 1] += 1;
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }

    // The buckets holding a wanted rank, in order: (bucket, its first rank, where its
    // samples go in `gathered`).
    let mut wanted: Vec<(usize, usize, usize)> = Vec::new();
    let mut gathered_len = 0usize;
    let mut b = 0usize;
    for &r in ranks {
        while start[b + 1] as usize <= r {
            b += 1;
        }
        if wanted.last().is_none_or(|w| w.0 != b) {
            wanted.push((b, start[b] as usize, gathered_len));
            gathered_len += (start[b + 1] - start[b]) as usize;
        }
    }

    // `start` becomes each bucket's write cursor into `gathered`; the buckets not wanted
    // all write to one scratch slot past the end (no branch in the loop).
    let scratch = gathered_len as u32;
    let cursor = &mut start;
    cursor.fill(scratch);
    for &(b, _, at) in &wanted {
        cursor[b] = at as u32;
    }
    let mut gathered = vec![T::default(); gathered_len + 1];
    for &t in data {
        let slot = &mut cursor[bucket(t)];
        let at = *slot;
        gathered[at as usize] = t;
        *slot = at + u32::from(at != scratch);
    }

    let mut out = Vec::with_capacity(ranks.len());
    let mut w = 0usize;
    for (i, &(b, first, at)) in wanted.iter().enumerate() {
        let end = wanted.get(i + 1).map_or(gathered_len, |next| next.2);
        let samples = &mut gathered[at..end];
        let from = w;
        while w < ranks.len() && ranks[w] < first + samples.len() {
            w += 1;
        }
        if samples.len() <= SMALL {
            samples.sort_unstable();
            out.extend(ranks[from..w].iter().map(|&r| samples[r - first]));
        } else {
            let local: Vec<usize> = ranks[from..w].iter().map(|&r| r - first).collect();
            // A large bucket (the samples bunch there): selected from the same way, within
            // the bucket's bounds, which are 2^shift wide, so every level narrows the values.
            let bucket_lo = lo + ((b as u64) << shift);
            let bucket_hi = bucket_lo.saturating_add((1u64 << shift) - 1).min(hi);
            out.extend(at_ranks_within(samples, (T::from_key(bucket_lo), T::from_key(bucket_hi)), &local));
        }
    }
    debug_assert_eq!(out.len(), ranks.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sorted_at(data: &[Time], ranks: &[usize]) -> Vec<Time> {
        let mut copy = data.to_vec();
        copy.sort_unstable();
        ranks.iter().map(|&r| copy[r]).collect()
    }

    /// Samples of several shapes: spread, clustered with far outliers, few distinct values.
    fn samples() -> impl Strategy<Value = Vec<Time>> {
        let spread = proptest::collection::vec(0u64..u64::MAX, SMALL..3 * SMALL);
        let clustered = proptest::collection::vec(
            prop_oneof![
                20 => 1_000_000u64..1_001_000,
                1 => 0u64..u64::MAX,
            ],
            SMALL..3 * SMALL,
        );
        let few = proptest::collection::vec(prop_oneof![Just(7u64), Just(9u64), 0u64..4], SMALL..3 * SMALL);
        let runs = (1u64..1_000_000, 1usize..50, SMALL..3 * SMALL).prop_map(|(step, runs, n)| {
            (0..n as u64).map(|i| (i % runs as u64) * step * 3 + (i / runs as u64) * step).collect()
        });
        prop_oneof![spread, clustered, few, runs].prop_map(|v| v.into_iter().map(Time).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn same_values_as_a_full_sort(data in samples(), picks in proptest::collection::vec(0.0f64..1.0, 0..300)) {
            let mut ranks: Vec<usize> = picks.iter().map(|p| (p * data.len() as f64) as usize).collect();
            ranks.push(0);
            ranks.push(data.len() - 1);
            ranks.sort_unstable();
            prop_assert_eq!(at_ranks(&data, &ranks), sorted_at(&data, &ranks));
        }
    }

    #[test]
    fn looser_bounds_give_the_same_values() {
        let data: Vec<Time> = (0..20_000u64).map(|i| Time(1_000 + i.wrapping_mul(7_919) % 20_000)).collect();
        let ranks = [0, 1, 9_999, 10_000, 19_999];
        let want = sorted_at(&data, &ranks);
        assert_eq!(at_ranks_within(&data, (Time(1_000), Time(20_999)), &ranks), want);
        assert_eq!(at_ranks_within(&data, (Time::ZERO, Time(u64::MAX)), &ranks), want);
    }

    #[test]
    fn small_sets_and_no_ranks() {
        let data: Vec<Time> = [5u64, 1, 3, 3].into_iter().map(Time).collect();
        assert_eq!(at_ranks(&data, &[0, 1, 2, 2, 3]), [1, 3, 3, 3, 5].map(Time));
        assert!(at_ranks(&data, &[]).is_empty());
    }

    #[test]
    fn every_rank_of_a_large_set() {
        let data: Vec<Time> = (0..50_000u64).map(|i| Time(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20)).collect();
        let ranks: Vec<usize> = (0..data.len()).collect();
        assert_eq!(at_ranks(&data, &ranks), sorted_at(&data, &ranks));
    }
}
