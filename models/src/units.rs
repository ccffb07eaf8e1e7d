//! Quantities with units: [`Time`] (integer picoseconds), [`Bytes`] and [`Rate`]
//! (integer bytes per second).
//!
//! Scenario files write quantities as strings with a unit: `"250ms"`, `"16.7ms"`,
//! `"2000MB/s"`, `"1.6GB/s"`, `"64KiB"`, `"32MiB"`. MB (10^6) and MiB (2^20) are different
//! units and are never guessed: a number without a unit, or an unknown unit, is an error.
//! All conversions use integer math with `u128` intermediates; nothing here touches `f64`
//! except the explicitly named `as_*_f64` helpers used for reporting.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// Picoseconds per second.
pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Why a quantity string could not be parsed. The message names the accepted units.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    /// A bare number (`"250"`): units are never guessed, since MB and MiB differ.
    #[error("{kind} {text:?} has no unit; write it with one of {units}")]
    MissingUnit {
        /// What was being parsed: `"duration"`, `"size"` or `"rate"`.
        kind: &'static str,
        /// The text as given.
        text: String,
        /// The accepted units, comma-separated, for the message.
        units: &'static str,
    },
    /// A number followed by a unit this kind does not have (`"5kg"`, or `"64KiB"` as a rate).
    #[error("{kind} {text:?} has unknown unit {unit:?}; expected one of {units}")]
    UnknownUnit {
        /// What was being parsed: `"duration"`, `"size"` or `"rate"`.
        kind: &'static str,
        /// The text as given.
        text: String,
        /// The unit as written.
        unit: String,
        /// The accepted units, comma-separated, for the message.
        units: &'static str,
    },
    /// The text does not start with a plain decimal number (digits, at most one `.`, `_`
    /// separators; no sign, no exponent).
    #[error("{kind} {text:?} is not a number followed by a unit (e.g. {example})")]
    BadNumber {
        /// What was being parsed: `"duration"`, `"size"` or `"rate"`.
        kind: &'static str,
        /// The text as given.
        text: String,
        /// A valid example of this kind, for the message.
        example: &'static str,
    },
    /// A fraction that does not land on the base unit (`"0.5ps"`, `"1.5B"`): values are
    /// exact integers, so nothing is rounded.
    #[error("{kind} {text:?} is not a whole number of {base}")]
    NotWhole {
        /// What was being parsed: `"duration"`, `"size"` or `"rate"`.
        kind: &'static str,
        /// The text as given.
        text: String,
        /// The base unit, plural: `"picoseconds"`, `"bytes"`, `"bytes per second"`.
        base: &'static str,
    },
    /// The value does not fit the 64-bit base-unit count.
    #[error("{kind} {text:?} is too large (maximum {max})")]
    Overflow {
        /// What was being parsed: `"duration"`, `"size"` or `"rate"`.
        kind: &'static str,
        /// The text as given.
        text: String,
        /// The largest count of base units (`u64::MAX`), as text.
        max: String,
    },
}

const TIME_UNITS: &[(&str, u64)] = &[
    ("ps", 1),
    ("ns", 1_000),
    ("us", 1_000_000),
    ("µs", 1_000_000),
    ("ms", 1_000_000_000),
    ("s", PS_PER_S),
    ("min", 60 * PS_PER_S),
    ("h", 3600 * PS_PER_S),
];
const TIME_UNIT_NAMES: &str = "ps, ns, us, ms, s, min, h";

const BYTE_UNITS: &[(&str, u64)] = &[
    ("B", 1),
    ("KB", 1_000),
    ("MB", 1_000_000),
    ("GB", 1_000_000_000),
    ("TB", 1_000_000_000_000),
    ("KiB", 1 << 10),
    ("MiB", 1 << 20),
    ("GiB", 1 << 30),
    ("TiB", 1 << 40),
];
const BYTE_UNIT_NAMES: &str = "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB";
const RATE_UNIT_NAMES: &str = "B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s";

/// Splits `"16.7ms"` into mantissa digits and unit, and returns `value * scale` exactly.
fn parse_scaled(
    text: &str,
    kind: &'static str,
    units: &[(&str, u64)],
    unit_suffix: &str,
    unit_names: &'static str,
    example: &'static str,
    base: &'static str,
) -> Result<u64, UnitError> {
    let trimmed = text.trim();
    let split = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_')).unwrap_or(trimmed.len());
    let (number, unit_part) = trimmed.split_at(split);
    let unit_part = unit_part.trim();
    if number.is_empty() {
        return Err(UnitError::BadNumber { kind, text: text.into(), example });
    }
    if unit_part.is_empty() {
        return Err(UnitError::MissingUnit { kind, text: text.into(), units: unit_names });
    }
    let unit_core = unit_part.strip_suffix(unit_suffix).filter(|_| !unit_suffix.is_empty());
    let unit_core = match (unit_suffix.is_empty(), unit_core) {
        (true, _) => unit_part,
        (false, Some(core)) => core,
        (false, None) => {
            return Err(UnitError::UnknownUnit { kind, text: text.into(), unit: unit_part.into(), units: unit_names })
        }
    };
    let scale = units
        .iter()
        .find(|(name, _)| *name == unit_core)
        .map(|(_, s)| *s)
        .ok_or_else(|| UnitError::UnknownUnit { kind, text: text.into(), unit: unit_part.into(), units: unit_names })?;
    let number: String = number.chars().filter(|c| *c != '_').collect();
    let (int_part, frac_part) = match number.split_once('.') {
        Some((i, f)) => (i, f),
        None => (number.as_str(), ""),
    };
    if (int_part.is_empty() && frac_part.is_empty()) || frac_part.contains('.') {
        return Err(UnitError::BadNumber { kind, text: text.into(), example });
    }
    let overflow = || UnitError::Overflow { kind, text: text.into(), max: u64::MAX.to_string() };
    let mut mantissa: u128 = 0;
    for c in int_part.chars().chain(frac_part.chars()) {
        mantissa =
            mantissa.checked_mul(10).and_then(|m| m.checked_add(u128::from(c as u8 - b'0'))).ok_or_else(overflow)?;
    }
    let denominator = 10u128.checked_pow(frac_part.len() as u32).ok_or_else(overflow)?;
    let scaled = mantissa.checked_mul(u128::from(scale)).ok_or_else(overflow)?;
    if scaled % denominator != 0 {
        return Err(UnitError::NotWhole { kind, text: text.into(), base });
    }
    u64::try_from(scaled / denominator).map_err(|_| overflow())
}

/// Prints `value / scale` with up to `max_decimals` decimals if that is exact.
fn format_exact(value: u64, scale: u64, max_decimals: u32) -> Option<String> {
    let int = value / scale;
    let rem = value % scale;
    if rem == 0 {
        return Some(int.to_string());
    }
    let mut digits = String::new();
    let mut r = u128::from(rem);
    for _ in 0..max_decimals {
        r *= 10;
        digits.push(char::from(b'0' + (r / u128::from(scale)) as u8));
        r %= u128::from(scale);
        if r == 0 {
            return Some(format!("{int}.{digits}"));
        }
    }
    None
}

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

/// A byte count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bytes(pub u64);

impl Bytes {
    /// No bytes.
    pub const ZERO: Bytes = Bytes(0);
    /// `n` bytes.
    pub const fn new(n: u64) -> Self {
        Bytes(n)
    }
    /// `n` KiB (`n` × 2^10 bytes).
    pub const fn kib(n: u64) -> Self {
        Bytes(n << 10)
    }
    /// `n` MiB (`n` × 2^20 bytes).
    pub const fn mib(n: u64) -> Self {
        Bytes(n << 20)
    }
    /// `n` GiB (`n` × 2^30 bytes).
    pub const fn gib(n: u64) -> Self {
        Bytes(n << 30)
    }
    /// `n` MB (`n` × 10^6 bytes; not MiB).
    pub const fn mb(n: u64) -> Self {
        Bytes(n * 1_000_000)
    }
    /// The count of bytes.
    pub const fn get(self) -> u64 {
        self.0
    }
    /// Megabytes (10^6), for reporting only.
    pub fn as_mb_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// `self - other`, or zero if `other` is larger.
    pub fn saturating_sub(self, other: Bytes) -> Bytes {
        Bytes(self.0.saturating_sub(other.0))
    }
    /// Parses a size with a unit: `"64KiB"`, `"32MiB"`, `"1.5MB"`, `"4096B"`. SI (KB, MB,
    /// GB, TB = powers of 10) and binary (KiB, MiB, GiB, TiB) units are distinct; the value
    /// must be a whole number of bytes.
    pub fn parse(text: &str) -> Result<Self, UnitError> {
        parse_scaled(text, "size", BYTE_UNITS, "", BYTE_UNIT_NAMES, "\"64KiB\"", "bytes").map(Bytes)
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0B");
        }
        // Binary units first when exact: buffer sizes are binary, and "64KiB" reads better
        // than "65.536KB". Then SI with up to three decimals, then plain bytes.
        for (name, scale) in [("TiB", 1u64 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
            if self.0 >= scale && self.0.is_multiple_of(scale) {
                return write!(f, "{}{name}", self.0 / scale);
            }
        }
        for (name, scale) in [("TB", 1_000_000_000_000u64), ("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000)] {
            if self.0 >= scale {
                if let Some(text) = format_exact(self.0, scale, 3) {
                    return write!(f, "{text}{name}");
                }
            }
        }
        write!(f, "{}B", self.0)
    }
}

/// Saturates, never wraps (16 EiB is past every cap sfsim checks).
impl Add for Bytes {
    type Output = Bytes;
    #[inline]
    fn add(self, rhs: Bytes) -> Bytes {
        Bytes(self.0.saturating_add(rhs.0))
    }
}
impl AddAssign for Bytes {
    #[inline]
    fn add_assign(&mut self, rhs: Bytes) {
        *self = *self + rhs;
    }
}
impl Sub for Bytes {
    type Output = Bytes;
    #[inline]
    fn sub(self, rhs: Bytes) -> Bytes {
        Bytes(self.0 - rhs.0)
    }
}
impl SubAssign for Bytes {
    #[inline]
    fn sub_assign(&mut self, rhs: Bytes) {
        self.0 -= rhs.0;
    }
}

/// A data rate in integer bytes per second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rate(pub u64);

impl Rate {
    /// `n` bytes per second.
    pub const fn bytes_per_sec(n: u64) -> Self {
        Rate(n)
    }
    /// `n` MB/s (`n` × 10^6 bytes per second, as hardware rates are quoted).
    pub const fn mb_per_sec(n: u64) -> Self {
        Rate(n * 1_000_000)
    }
    /// The rate in bytes per second.
    pub const fn get(self) -> u64 {
        self.0
    }
    /// Time to move `bytes` at this rate, rounded UP to the next picosecond so that the
    /// achieved rate never exceeds the nominal one. A zero rate never finishes.
    #[inline]
    pub fn time_for(self, bytes: Bytes) -> Time {
        if self.0 == 0 {
            return Time::MAX;
        }
        let num = u128::from(bytes.0) * u128::from(PS_PER_S);
        // Most transfers (under 18 MB) fit a 64-bit division, several times cheaper.
        if let Ok(num) = u64::try_from(num) {
            return Time(num.div_ceil(self.0));
        }
        Time(num.div_ceil(u128::from(self.0)).min(u128::from(u64::MAX)) as u64)
    }
    /// Bytes moved in `time` at this rate, rounded down.
    pub fn bytes_in(self, time: Time) -> Bytes {
        Bytes((u128::from(time.0) * u128::from(self.0) / u128::from(PS_PER_S)) as u64)
    }
    /// Megabytes per second (10^6 B/s), for reporting only.
    pub fn as_mb_per_sec_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Parses a rate: a size unit followed by `/s`, e.g. `"2000MB/s"`, `"1.6GB/s"`,
    /// `"512KiB/s"`. The value must be a whole number of bytes per second.
    pub fn parse(text: &str) -> Result<Self, UnitError> {
        parse_scaled(text, "rate", BYTE_UNITS, "/s", RATE_UNIT_NAMES, "\"2000MB/s\"", "bytes per second").map(Rate)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0B/s");
        }
        // Hardware rates are quoted in SI units.
        for (name, scale) in [("GB/s", 1_000_000_000u64), ("MB/s", 1_000_000), ("KB/s", 1_000)] {
            if self.0 >= scale {
                if let Some(text) = format_exact(self.0, scale, 3) {
                    return write!(f, "{text}{name}");
                }
            }
        }
        for (name, scale) in [("GiB/s", 1u64 << 30), ("MiB/s", 1 << 20), ("KiB/s", 1 << 10)] {
            if self.0 >= scale && self.0.is_multiple_of(scale) {
                return write!(f, "{}{name}", self.0 / scale);
            }
        }
        write!(f, "{}B/s", self.0)
    }
}

macro_rules! serde_as_string {
    ($ty:ty, $expecting:expr) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$ty, E> {
                        <$ty>::parse(v).map_err(E::custom)
                    }
                }
                d.deserialize_str(Visitor)
            }
        }
    };
}

serde_as_string!(Time, "a duration string with a unit, e.g. \"250ms\"");
serde_as_string!(Bytes, "a size string with a unit, e.g. \"64KiB\" or \"500MB\"");
serde_as_string!(Rate, "a rate string with a unit, e.g. \"2000MB/s\"");

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_scenario_quantities_exactly() {
        assert_eq!(Time::parse("250ms").unwrap(), Time::from_ms(250));
        assert_eq!(Time::parse("16.7ms").unwrap(), Time(16_700_000_000));
        assert_eq!(Time::parse("2us").unwrap(), Time::from_us(2));
        assert_eq!(Rate::parse("2000MB/s").unwrap(), Rate(2_000_000_000));
        assert_eq!(Rate::parse("1.6GB/s").unwrap(), Rate(1_600_000_000));
        assert_eq!(Bytes::parse("64KiB").unwrap(), Bytes(65_536));
        assert_eq!(Bytes::parse("32MiB").unwrap(), Bytes(33_554_432));
        assert_eq!(Bytes::parse("500MB").unwrap(), Bytes(500_000_000));
    }

    #[test]
    fn mb_and_mib_are_different_units() {
        assert_ne!(Bytes::parse("1MB").unwrap(), Bytes::parse("1MiB").unwrap());
        assert_eq!(Bytes::parse("1MiB").unwrap().to_string(), "1MiB");
        assert_eq!(Bytes::parse("1MB").unwrap().to_string(), "1MB");
    }

    #[test]
    fn missing_or_unknown_units_are_errors() {
        assert!(matches!(Time::parse("250"), Err(UnitError::MissingUnit { .. })));
        // Range messages name "1h": it parses.
        assert_eq!(Time::parse("1h").unwrap(), Time::from_secs(3600));
        assert!(matches!(Bytes::parse("64kib"), Err(UnitError::UnknownUnit { .. })));
        assert!(matches!(Rate::parse("2000MB"), Err(UnitError::UnknownUnit { .. })));
        assert!(matches!(Bytes::parse("0.5B"), Err(UnitError::NotWhole { .. })));
        assert!(matches!(Time::parse("ms"), Err(UnitError::BadNumber { .. })));
        assert!(matches!(Time::parse("1.2.3ms"), Err(UnitError::BadNumber { .. })));
        assert!(matches!(Bytes::parse("99999999999TiB"), Err(UnitError::Overflow { .. })));
        let msg = Time::parse("250").unwrap_err().to_string();
        assert!(msg.contains("ms"), "{msg}");
    }

    #[test]
    fn rate_time_conversion_never_exceeds_nominal_rate() {
        let r = Rate::parse("2400MB/s").unwrap();
        let t = r.time_for(Bytes::kib(32));
        assert!(r.bytes_in(t) >= Bytes::kib(32));
        assert!(r.bytes_in(t - Time(1)) < Bytes::kib(32));
    }

    proptest! {
        /// The 64-bit fast path gives the 128-bit formula's value on both sides of the
        /// point where `bytes × 10^12` stops fitting.
        #[test]
        fn time_for_equals_the_wide_formula(bytes in 0u64..40_000_000, rate in 1u64..100_000_000_000) {
            let wide = (u128::from(bytes) * 1_000_000_000_000).div_ceil(u128::from(rate));
            prop_assert_eq!(u128::from(Rate(rate).time_for(Bytes(bytes)).0), wide.min(u128::from(u64::MAX)));
        }

        #[test]
        fn time_display_round_trips(ps in 0u64..u64::MAX / 2) {
            let t = Time(ps);
            prop_assert_eq!(Time::parse(&t.to_string()).unwrap(), t);
        }
        #[test]
        fn bytes_display_round_trips(n in 0u64..u64::MAX / 2) {
            let b = Bytes(n);
            prop_assert_eq!(Bytes::parse(&b.to_string()).unwrap(), b);
        }
        #[test]
        fn rate_display_round_trips(n in 0u64..u64::MAX / 2) {
            let r = Rate(n);
            prop_assert_eq!(Rate::parse(&r.to_string()).unwrap(), r);
        }
        #[test]
        fn parse_never_panics(s in "\\PC{0,12}") {
            let _ = Time::parse(&s);
            let _ = Bytes::parse(&s);
            let _ = Rate::parse(&s);
        }
    }
}

#[cfg(test)]
mod saturation_tests {
    use super::*;

    #[test]
    fn time_and_bytes_saturate_instead_of_wrapping() {
        assert_eq!(Time::MAX + Time(1), Time::MAX);
        let mut t = Time(u64::MAX - 1);
        t += Time::from_secs(1);
        assert_eq!(t, Time::MAX);
        assert_eq!(Bytes(u64::MAX) + Bytes(5), Bytes(u64::MAX));
        assert_eq!(Time::MAX.mul_div(3, 1), Time::MAX);
        // A 1 B/s drive's 64 KiB read ends 65536 s later: far past any run, not wrapped.
        let end = Time::from_secs(1) + Rate::bytes_per_sec(1).time_for(Bytes::kib(64));
        assert_eq!(end, Time::from_secs(65_537));
        assert_eq!(Time::from_secs(1) + Rate::bytes_per_sec(0).time_for(Bytes(1)), Time::MAX);
    }
}
