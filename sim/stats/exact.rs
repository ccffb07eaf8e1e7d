//! Every latency of a run, exactly, in four bytes a sample for the common range.
//!
//! A sample is kept as its low 32 bits in the group of its high 32 bits (a group spans
//! 2^32 ps, 4.3 ms), for the first [`NEAR_GROUPS`] groups (latencies under 275 ms); longer
//! ones are kept whole. The groups are already the first level of a selection: a rank's
//! group follows from the group sizes, so a percentile reads only the samples of its own
//! group. Half the bytes also means half the pages a long IO run touches for the first
//! time while it records (its 650 000 latencies: 2.5 MiB instead of 5).

use super::select;
use sfsim_models::units::Time;

/// Groups of 2^32 ps kept as 32-bit offsets: latencies below 64 × 2^32 ps (275 ms).
const NEAR_GROUPS: usize = 64;

/// A multiset of times, with the order they came in only as far as "were they ascending".
#[derive(Debug, Clone)]
pub struct ExactSamples {
    /// `near[g]`: the low 32 bits of the samples `t` with `t >> 32 == g` (grown on demand).
    near: Vec<Vec<u32>>,
    /// Samples of `NEAR_GROUPS << 32` ps or more, whole.
    far: Vec<Time>,
    /// The least and greatest of `far`.
    far_bounds: (Time, Time),
    len: usize,
    last: Time,
    /// True while every sample came no earlier than the one before (then every group is
    /// sorted as stored).
    sorted: bool,
}

impl Default for ExactSamples {
    fn default() -> Self {
        ExactSamples {
            near: Vec::new(),
            far: Vec::new(),
            far_bounds: (Time::MAX, Time::ZERO),
            len: 0,
            last: Time::ZERO,
            sorted: true,
        }
    }
}

impl ExactSamples {
    #[inline]
    pub fn push(&mut self, t: Time) {
        self.sorted &= self.last <= t;
        self.last = t;
        self.len += 1;
        match self.near.get_mut((t.0 >> 32) as usize) {
            Some(group) => group.push(t.0 as u32),
            None => self.push_to_new_group(t),
        }
    }

    #[cold]
    fn push_to_new_group(&mut self, t: Time) {
        let group = (t.0 >> 32) as usize;
        if group < NEAR_GROUPS {
            self.near.resize_with(group + 1, Vec::new);
            self.near[group].push(t.0 as u32);
        } else {
            self.far.push(t);
            self.far_bounds = (self.far_bounds.0.min(t), self.far_bounds.1.max(t));
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Every sample, ascending by group but in arrival order within one (for binning).
    pub fn iter(&self) -> impl Iterator<Item = Time> + '_ {
        let near = self.near.iter().enumerate().flat_map(|(g, lows)| lows.iter().map(move |&low| joined(g, low)));
        near.chain(self.far.iter().copied())
    }

    /// Sorts each group in place (on every core: a sort of integers has one result,
    /// whatever the split), so that later ranks are read directly.
    pub fn sort(&mut self) {
        use rayon::slice::ParallelSliceMut;
        if !self.sorted {
            for lows in &mut self.near {
                lows.par_sort_unstable();
            }
            self.far.par_sort_unstable();
            self.sorted = true;
            // A later sample keeps the groups sorted only if it is no less than the greatest.
            self.last = self.greatest().unwrap_or(Time::ZERO);
        }
    }

    /// The greatest sample, once every group is sorted.
    fn greatest(&self) -> Option<Time> {
        debug_assert!(self.sorted);
        let near = self.near.iter().enumerate().rev().find_map(|(g, lows)| lows.last().map(|&low| joined(g, low)));
        self.far.last().copied().or(near)
    }

    /// Every sample, ascending.
    pub fn sorted(&self) -> Vec<Time> {
        let mut out = Vec::with_capacity(self.len);
        for (g, lows) in self.near.iter().enumerate() {
            let from = out.len();
            out.extend(lows.iter().map(|&low| joined(g, low)));
            if !self.sorted {
                out[from..].sort_unstable();
            }
        }
        let from = out.len();
        out.extend_from_slice(&self.far);
        if !self.sorted {
            out[from..].sort_unstable();
        }
        out
    }

    /// The values at `ranks` (ascending, each below [`len`](Self::len)) of the samples
    /// sorted ascending, each group selected from only for the ranks that fall in it.
    pub fn at_ranks(&self, ranks: &[usize]) -> Vec<Time> {
        let mut out = Vec::with_capacity(ranks.len());
        let mut rest = ranks;
        let mut first = 0usize;
        for (g, lows) in self.near.iter().enumerate() {
            let n = rest.partition_point(|&r| r < first + lows.len());
            let (here, after) = rest.split_at(n);
            if !here.is_empty() {
                if self.sorted {
                    out.extend(here.iter().map(|&r| joined(g, lows[r - first])));
                } else {
                    let local: Vec<usize> = here.iter().map(|&r| r - first).collect();
                    let values = select::at_ranks_within(lows, (0, u32::MAX), &local);
                    out.extend(values.into_iter().map(|low| joined(g, low)));
                }
            }
            rest = after;
            first += lows.len();
        }
        if self.sorted {
            out.extend(rest.iter().map(|&r| self.far[r - first]));
        } else if !rest.is_empty() {
            let local: Vec<usize> = rest.iter().map(|&r| r - first).collect();
            out.extend(select::at_ranks_within(&self.far, self.far_bounds, &local));
        }
        debug_assert_eq!(out.len(), ranks.len());
        out
    }
}

#[inline]
fn joined(group: usize, low: u32) -> Time {
    Time(((group as u64) << 32) | u64::from(low))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Samples across near groups, the far range and the boundaries between them.
    fn samples() -> impl Strategy<Value = Vec<u64>> {
        let edge = (NEAR_GROUPS as u64) << 32;
        // Enough in one group (the clustered range) that it is selected from, not sorted.
        let one = prop_oneof![
            8 => (1u64 << 33)..(1u64 << 33) + 5_000_000,
            4 => 0u64..1 << 34,
            2 => (1u64 << 32) - 3..(1u64 << 32) + 3,
            1 => edge - 3..edge + 3,
            1 => edge..u64::MAX,
            1 => Just(u64::MAX),
        ];
        proptest::collection::vec(one, 0..16_000)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn the_same_multiset_as_a_sorted_copy(data in samples(), picks in proptest::collection::vec(0.0f64..1.0, 0..200), ascending: bool) {
            let mut want: Vec<Time> = data.iter().copied().map(Time).collect();
            want.sort_unstable();
            let mut s = ExactSamples::default();
            let arrival = if ascending { want.clone() } else { data.iter().copied().map(Time).collect() };
            for &t in &arrival {
                s.push(t);
            }
            prop_assert_eq!(s.len(), want.len());
            prop_assert_eq!(&s.sorted(), &want);
            let mut binned: Vec<Time> = s.iter().collect();
            binned.sort_unstable();
            prop_assert_eq!(&binned, &want);
            if !want.is_empty() {
                let mut ranks: Vec<usize> = picks.iter().map(|p| (p * want.len() as f64) as usize).collect();
                ranks.extend([0, want.len() - 1]);
                ranks.sort_unstable();
                let expected: Vec<Time> = ranks.iter().map(|&r| want[r]).collect();
                prop_assert_eq!(&s.at_ranks(&ranks), &expected);
                s.sort();
                prop_assert_eq!(&s.at_ranks(&ranks), &expected);
            }
        }
    }

    #[test]
    fn samples_after_sorting_in_place_are_ordered_against_the_greatest() {
        let mut s = ExactSamples::default();
        for t in [5, 1 << 33, 9, 3] {
            s.push(Time(t));
        }
        s.sort();
        s.push(Time(4));
        assert_eq!(s.at_ranks(&[0, 1, 2, 3, 4]), [3, 4, 5, 9, 1 << 33].map(Time));
        s.sort();
        s.push(Time(1 << 34));
        assert_eq!(s.at_ranks(&[4, 5]), [1 << 33, 1 << 34].map(Time));
        s.push(Time(6));
        assert_eq!(s.at_ranks(&[3, 4]), [6, 9].map(Time));
    }

    #[test]
    fn a_sample_past_the_near_groups_is_kept_whole() {
        let mut s = ExactSamples::default();
        let far = Time(((NEAR_GROUPS as u64) << 32) + 5);
        for t in [Time(7), far, Time(u64::MAX), Time(1 << 32)] {
            s.push(t);
        }
        assert_eq!(s.near.len(), 2);
        assert_eq!(s.far, [far, Time(u64::MAX)]);
        assert_eq!(s.sorted(), [Time(7), Time(1 << 32), far, Time(u64::MAX)]);
        assert_eq!(s.at_ranks(&[0, 2, 3]), [Time(7), far, Time(u64::MAX)]);
    }

    #[test]
    fn many_far_samples_are_selected_from_within_their_bounds() {
        let edge = (NEAR_GROUPS as u64) << 32;
        let values: Vec<Time> =
            (0..20_000u64).map(|i| Time(edge + (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24))).collect();
        let mut want = values.clone();
        want.sort_unstable();
        let mut s = ExactSamples::default();
        values.iter().for_each(|&t| s.push(t));
        let ranks = [0, 1, 9_999, 18_999, 19_999];
        assert_eq!(s.at_ranks(&ranks), ranks.map(|r| want[r]));
    }
}
