//! [`Time`]: simulated time and durations in integer picoseconds.

use super::*;
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// Simulated time or a duration, in integer picoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub u64);

impl Time {
    /// Time zero: the start of a run, or an empty duration.
    pub const ZERO: Time = Time(0);
    /// The largest time (about 213 days): "never", e.g. when a zero rate would finish.
    pub const MAX: Time = Time(u64::MAX);

    /// `ps` picoseconds.
    pub const fn from_ps(ps: u64) -> Self {
        Time(ps)
    }
    /// `ns` nanoseconds (the product must fit in `u64`).
    pub const fn from_ns(ns: u64) -> Self {
        Time(ns * 1_000)
    }
    /// `us` microseconds (the product must fit in `u64`).
    pub const fn from_us(us: u64) -> Self {
        Time(us * 1_000_000)
    }
    /// `ms` milliseconds (the product must fit in `u64`).
    pub const fn from_ms(ms: u64) -> Self {
        Time(ms * 1_000_000_000)
    }
    /// `s` seconds (the product must fit in `u64`, i.e. `s` ≤ 18 446 744).
    pub const fn from_secs(s: u64) -> Self {
        Time(s * PS_PER_S)
    }
    /// The count of picoseconds.
    pub const fn as_ps(self) -> u64 {
        self.0
    }
    /// Seconds, for reporting only.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_S as f64
    }
    /// Milliseconds, for reporting only.
    pub fn as_ms_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    /// `self - other`, or zero if `other` is later.
    pub fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
    /// `self + other`, or `None` past [`Time::MAX`].
    pub fn checked_add(self, other: Time) -> Option<Time> {
        self.0.checked_add(other.0).map(Time)
    }
    /// `self * num / den`, exact integer math, rounded down.
    pub fn mul_div(self, num: u64, den: u64) -> Time {
        let exact = u128::from(self.0) * u128::from(num) / u128::from(den.max(1));
        Time(u64::try_from(exact).unwrap_or(u64::MAX))
    }
    /// Parses a duration with a unit: `"250ms"`, `"16.7ms"`, `"1.5us"`; units ps, ns, us
    /// (or µs), ms, s, min. The value must be a whole number of picoseconds.
    pub fn parse(text: &str) -> Result<Self, UnitError> {
        parse_scaled(text, "duration", TIME_UNITS, "", TIME_UNIT_NAMES, "\"250ms\"", "picoseconds").map(Time)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0s");
        }
        for (name, scale) in [("s", PS_PER_S), ("ms", 1_000_000_000), ("us", 1_000_000), ("ns", 1_000)] {
            if self.0 >= scale {
                if let Some(text) = format_exact(self.0, scale, 3) {
                    return write!(f, "{text}{name}");
                }
            }
        }
        write!(f, "{}ps", self.0)
    }
}

/// Saturates at [`Time::MAX`], never wraps: a time past the end of every run (1 h at most,
/// 0.02 % of `Time::MAX`) is "never", so a 1 B/s drive's transfer that would end after
/// `Time::MAX` simply does not end within the run instead of wrapping to the past.
impl Add for Time {
    type Output = Time;
    #[inline]
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Time {
    #[inline]
    fn add_assign(&mut self, rhs: Time) {
        *self = *self + rhs;
    }
}
impl Sub for Time {
    type Output = Time;
    #[inline]
    fn sub(self, rhs: Time) -> Time {
        Time(self.0 - rhs.0)
    }
}
impl SubAssign for Time {
    #[inline]
    fn sub_assign(&mut self, rhs: Time) {
        self.0 -= rhs.0;
    }
}
