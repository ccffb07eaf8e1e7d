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

mod bytes;
mod rate;
mod time;
pub use bytes::Bytes;
pub use rate::Rate;
pub use time::Time;

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
mod tests;

#[cfg(test)]
mod saturation_tests;
