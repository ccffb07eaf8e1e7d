//! Unsigned 5.3 fixed-point LOD values, the format of MinMip maps and MinMip feedback maps.
//!
//! SPEC §4: feedback values are R8_UINT unsigned 5.3 fixed point (LOD x 8), cleared to 0xFF
//! (31.875, "nothing requested"); sfsim stores MinMip map values the same way (DESIGN.md).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A level of detail in unsigned 5.3 fixed point: the byte is LOD x 8, so one step is 1/8
/// mip and the range is 0.0..=31.875 mips.
///
/// Ordering is numeric: a smaller value is a finer (more detailed) mip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Lod53(pub u8);

impl Lod53 {
    /// 0xFF = 31.875 mips: "nothing requested", the value feedback maps are cleared to
    /// (D3D12 Sampler Feedback spec, "Encoding cleared feedback").
    pub const NONE: Lod53 = Lod53(0xFF);

    /// Mip 0, the finest level.
    pub const ZERO: Lod53 = Lod53(0);

    /// Fractional bits: 3, so one step is 1/8 mip.
    pub const FRACTION_BITS: u32 = 3;

    /// Encodes `lod` (mips): truncates `lod x 8` toward zero, saturating at 255 (31.875).
    ///
    /// Negative values and NaN give 0. This is sfsim's rule, not a documented hardware one:
    /// the sampler clamps the LOD to the texture's mip range before feedback is written, so
    /// in practice the input is already in 0..=mip_count-1.
    #[inline]
    pub fn from_lod(lod: f32) -> Lod53 {
        if lod.is_nan() || lod <= 0.0 {
            return Lod53(0);
        }
        let scaled = lod * 8.0;
        if scaled >= 255.0 {
            Lod53(u8::MAX)
        } else {
            // `as` truncates toward zero, which is the rounding this format uses.
            Lod53(scaled as u8)
        }
    }

    /// Encodes a whole mip level; `None` above 31 (the largest whole mip 5.3 can hold).
    #[inline]
    pub fn from_mip(mip: u32) -> Option<Lod53> {
        u8::try_from(mip).ok().filter(|&m| m <= 31).map(|m| Lod53(m << Self::FRACTION_BITS))
    }

    /// The value in mips, 0.0..=31.875 (exact: every 5.3 value is an f32).
    #[inline]
    pub fn lod(self) -> f32 {
        f32::from(self.0) / 8.0
    }

    /// The whole mip this value falls in: `floor(lod)`, 0..=31.
    #[inline]
    pub fn mip(self) -> u32 {
        u32::from(self.0 >> Self::FRACTION_BITS)
    }

    /// Whether this is the cleared value [`Lod53::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == Self::NONE
    }
}

impl fmt::Display for Lod53 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lod())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_table() {
        for (lod, byte) in [
            (0.0, 0),
            (1.0, 8),
            (2.99, 23),
            (31.9, 255),
            (40.0, 255),
            (-1.0, 0),
            (0.124, 0),
            (0.125, 1),
            (31.875, 255),
            (31.874, 254),
            (f32::INFINITY, 255),
            (f32::NEG_INFINITY, 0),
            (f32::NAN, 0),
        ] {
            assert_eq!(Lod53::from_lod(lod), Lod53(byte), "lod {lod}");
        }
    }

    #[test]
    fn decoding() {
        assert_eq!(Lod53(23).lod(), 2.875);
        assert_eq!(Lod53(23).mip(), 2);
        assert_eq!(Lod53::NONE.lod(), 31.875);
        assert_eq!(Lod53::NONE.mip(), 31);
        assert!(Lod53::NONE.is_none());
        assert!(!Lod53(254).is_none());
        assert_eq!(Lod53(20).to_string(), "2.5");
    }

    #[test]
    fn whole_mips() {
        assert_eq!(Lod53::from_mip(0), Some(Lod53(0)));
        assert_eq!(Lod53::from_mip(3), Some(Lod53(24)));
        assert_eq!(Lod53::from_mip(31), Some(Lod53(248)));
        assert_eq!(Lod53::from_mip(32), None);
        assert_eq!(Lod53::from_mip(u32::MAX), None);
        for mip in 0..32 {
            let v = Lod53::from_mip(mip).unwrap();
            assert_eq!(v.mip(), mip);
            assert_eq!(Lod53::from_lod(v.lod()), v);
        }
    }

    #[test]
    fn round_trips_every_byte() {
        for byte in 0..=u8::MAX {
            assert_eq!(Lod53::from_lod(Lod53(byte).lod()), Lod53(byte));
        }
    }
}
