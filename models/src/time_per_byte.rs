//! [`Rate::time_for`] of one fixed rate without a 64-bit division per call, for the models'
//! per-IO and per-job timing (a division costs tens of cycles; two or three per IO showed in
//! profiles of IO runs).
//!
//! ⌈bytes × 10^12 ÷ rate⌉ is ⌈bytes × a ÷ b⌉ with a ÷ b the fraction 10^12 ÷ rate in lowest
//! terms. When b = 1 (the MDU's 1.6 GB/s, 4 GB/s: 625 and 250 ps per byte) that is one
//! multiplication. Otherwise (the drive's 2400 MB/s: 1250 ÷ 3) the quotient by b comes from
//! a multiply-high by ⌈2^64 ÷ b⌉, which is exact for every 32-bit dividend (Lemire, Kaser
//! and Kurz, "Faster remainder by direct computation", 2019); larger ones divide. Either way
//! the result is exactly [`Rate::time_for`]'s (the tests check it).

use crate::units::{Bytes, Rate, Time, PS_PER_S};

#[derive(Debug, Clone, Copy)]
pub(crate) struct TimePerByte {
    rate: Rate,
    /// 10^12 ÷ rate in lowest terms (a, b); (0, 0) for a zero rate.
    a: u64,
    b: u64,
    /// ⌈2^64 ÷ b⌉ (as `u64::MAX / b + 1`) when 2 ≤ b < 2^32.
    magic: u64,
}

const fn gcd(mut x: u64, mut y: u64) -> u64 {
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x
}

impl TimePerByte {
    pub(crate) fn new(rate: Rate) -> Self {
        if rate.0 == 0 {
            return TimePerByte { rate, a: 0, b: 0, magic: 0 };
        }
        let g = gcd(PS_PER_S, rate.0);
        let (a, b) = (PS_PER_S / g, rate.0 / g);
        let magic = if (2..1 << 32).contains(&b) { u64::MAX / b + 1 } else { 0 };
        TimePerByte { rate, a, b, magic }
    }

    #[inline]
    pub(crate) fn time_for(self, bytes: Bytes) -> Time {
        if self.b == 1 {
            // Past u64 the division saturates at Time::MAX too.
            return Time(bytes.0.saturating_mul(self.a));
        }
        if self.magic != 0 {
            // ⌈n ÷ b⌉ = ⌊(n + b − 1) ÷ b⌋, by multiply-high while n + b − 1 < 2^32.
            if let Some(n) = bytes.0.checked_mul(self.a).and_then(|n| n.checked_add(self.b - 1)) {
                if n < 1 << 32 {
                    return Time(((u128::from(self.magic) * u128::from(n)) >> 64) as u64);
                }
            }
        }
        self.rate.time_for(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hardware_rates() {
        for mb in [1600, 2400, 4000, 12_000, 2000, 1, 3, 7] {
            let rate = Rate::mb_per_sec(mb);
            let t = TimePerByte::new(rate);
            for bytes in (0..200_000u64).step_by(7).chain([524_288, 1 << 32, u64::MAX]) {
                assert_eq!(t.time_for(Bytes(bytes)), rate.time_for(Bytes(bytes)), "{mb} MB/s, {bytes} B");
            }
        }
    }

    proptest! {
        /// Exactly `Rate::time_for`, for rates that divide 10^12 (e.g. 4 GB/s, 1 B/s),
        /// rates whose reduced divisor is small (2400 MB/s), and any others, up to where
        /// the result saturates.
        #[test]
        fn equals_rate_time_for(
            bytes in prop_oneof![0u64..1 << 20, 0u64..1 << 40, any::<u64>()],
            divisor in 1u64..1 << 20,
            rate in 0u64..100_000_000_000,
            mb in 1u64..100_000,
        ) {
            let rates = [
                Rate(rate),
                Rate((PS_PER_S / divisor).max(1)),
                Rate(PS_PER_S >> (divisor % 13)),
                Rate::mb_per_sec(mb),
            ];
            for r in rates {
                prop_assert_eq!(TimePerByte::new(r).time_for(Bytes(bytes)), r.time_for(Bytes(bytes)), "{:?}", r);
            }
        }
    }
}
