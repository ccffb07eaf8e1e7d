//! [`Rate`]: data rates in integer bytes per second.

use super::*;
use std::fmt;

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
