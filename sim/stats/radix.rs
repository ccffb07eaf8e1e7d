//! LSD radix sort of [`Time`]s, for the latency percentiles of long IO runs.
//!
//! A sort of integers has exactly one result, so this orders samples exactly as
//! `sort_unstable` would (the tests check it); it is only quicker: a request-latency list
//! of a 10 s saturating run holds ~650 k samples whose top bits are all zero, and a
//! radix sort moves each sample once per varying 11-bit digit instead of ~20 comparisons.

use sfsim_models::units::Time;

/// Bits per digit: 2048 counters per digit stay in L1/L2 while a pass scatters.
const BITS: u32 = 11;
const BUCKETS: usize = 1 << BITS;
const MASK: u64 = BUCKETS as u64 - 1;
/// Digits covering 64 bits (6 × 11 = 66).
const DIGITS: usize = 64_usize.div_ceil(BITS as usize);
/// Below this many samples a comparison sort is at least as quick (and needs no scratch).
const SMALL: usize = 4_096;

/// Sorts `values` ascending. Uses a scratch buffer as large as `values` while it runs.
pub fn sort(values: &mut [Time]) {
    let n = values.len();
    if n < SMALL {
        values.sort_unstable();
        return;
    }
    // Every digit's histogram in one read of the samples.
    let mut counts = vec![[0usize; BUCKETS]; DIGITS];
    for v in values.iter() {
        for (d, c) in counts.iter_mut().enumerate() {
            c[((v.0 >> (d as u32 * BITS)) & MASK) as usize] += 1;
        }
    }
    let mut scratch = vec![Time::ZERO; n];
    let mut src: &mut [Time] = values;
    let mut dst: &mut [Time] = &mut scratch;
    let mut in_scratch = false;
    for (d, c) in counts.iter_mut().enumerate() {
        // A digit every sample shares (latencies' high bits) leaves the order as it is.
        if c.contains(&n) {
            continue;
        }
        let mut sum = 0;
        for k in c.iter_mut() {
            (*k, sum) = (sum, sum + *k);
        }
        let shift = d as u32 * BITS;
        for &v in src.iter() {
            let b = ((v.0 >> shift) & MASK) as usize;
            dst[c[b]] = v;
            c[b] += 1;
        }
        std::mem::swap(&mut src, &mut dst);
        in_scratch = !in_scratch;
    }
    if in_scratch {
        dst.copy_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(values: Vec<u64>) -> Result<(), TestCaseError> {
        let mut got: Vec<Time> = values.iter().map(|&v| Time(v)).collect();
        let mut want = got.clone();
        want.sort_unstable();
        sort(&mut got);
        prop_assert_eq!(got, want);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any values, above and below the comparison-sort cut-off.
        #[test]
        fn equals_sort_unstable(values in proptest::collection::vec(any::<u64>(), 0..20_000)) {
            check(values)?;
        }

        /// Latency-like values: only some digits vary (an odd or even number of passes).
        #[test]
        fn equals_sort_unstable_with_constant_digits(
            values in proptest::collection::vec(0u64..1 << 40, SMALL..SMALL * 3),
            high in any::<u64>(),
            keep in 1u32..64,
        ) {
            let mask = (1u64 << keep) - 1;
            check(values.into_iter().map(|v| (high & !mask) | (v & mask)).collect())?;
        }
    }

    #[test]
    fn all_equal_and_extremes() {
        check(vec![7; SMALL * 2]).unwrap();
        let mut v: Vec<u64> = (0..SMALL as u64 * 2).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        v.extend([0, u64::MAX, u64::MAX, 0]);
        check(v).unwrap();
    }
}
