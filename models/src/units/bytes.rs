//! [`Bytes`]: byte counts.

use super::*;
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

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
