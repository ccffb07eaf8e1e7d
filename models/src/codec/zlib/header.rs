//! The RFC 1950 two-byte header (CMF, FLG) and four-byte big-endian Adler-32 trailer.

use super::ZlibError;

/// Accepts exactly what the MDU accepts: Deflate (CM = 8), a window of at most 32 KiB
/// (any smaller window decodes with the full one), a valid FCHECK and no preset
/// dictionary (a DirectStorage request has nowhere to name one). FLEVEL is a hint and ignored.
pub(crate) fn check(src: &[u8]) -> Result<(), ZlibError> {
    let [cmf, flg, ..] = *src else { return Err(ZlibError::MissingHeader { len: src.len() as u64 }) };
    let remainder = (u16::from(cmf) << 8 | u16::from(flg)) % 31;
    if remainder != 0 {
        return Err(ZlibError::BadHeaderCheck { cmf, flg, remainder });
    }
    if cmf & 0x0f != 8 {
        return Err(ZlibError::BadMethod { cmf, flg, method: cmf & 0x0f });
    }
    if cmf >> 4 > 7 {
        return Err(ZlibError::BadWindow { cmf, flg, cinfo: cmf >> 4 });
    }
    if flg & 0x20 != 0 {
        return Err(ZlibError::PresetDictionary { cmf, flg });
    }
    Ok(())
}

/// The Adler-32 stored at `src[end..end + 4]`, if the stream is that long.
pub(crate) fn trailer(src: &[u8], end: usize) -> Option<u32> {
    let bytes: [u8; 4] = src.get(end..end.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_be_bytes(bytes))
}

/// `cmf`, then `flg` with its low five bits (FCHECK) set so the header passes the check.
#[cfg(test)]
pub(crate) fn with_fcheck(cmf: u8, flg: u8) -> [u8; 2] {
    let flg = flg & 0xe0;
    let fcheck = (31 - (u16::from(cmf) << 8 | u16::from(flg)) % 31) % 31;
    [cmf, flg | fcheck as u8]
}

/// A header that passes [`check`]: CM = 8, a 32 KiB window, FLEVEL 2 (default).
#[cfg(test)]
pub(crate) fn default_header() -> [u8; 2] {
    with_fcheck(0x78, 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_headers_pass() {
        for h in [[0x78, 0x01], [0x78, 0x5e], [0x78, 0x9c], [0x78, 0xda], [0x08, 0x1d], default_header()] {
            assert_eq!(check(&h), Ok(()), "{h:02x?}");
        }
    }

    #[test]
    fn every_header_is_classified_without_panicking() {
        let mut ok = 0;
        for cmf in 0..=255u8 {
            for flg in 0..=255u8 {
                let valid = (u16::from(cmf) * 256 + u16::from(flg)) % 31 == 0
                    && cmf & 0x0f == 8
                    && cmf >> 4 <= 7
                    && flg & 0x20 == 0;
                assert_eq!(check(&[cmf, flg]).is_ok(), valid, "{cmf:02x} {flg:02x}");
                ok += usize::from(valid);
            }
        }
        // 8 windows x 4 FLEVELs x one FCHECK each (FDICT clear).
        assert_eq!(ok, 32);
    }

    #[test]
    fn each_header_fault_has_its_own_error() {
        assert_eq!(check(&[0x78]), Err(ZlibError::MissingHeader { len: 1 }));
        assert!(matches!(check(&[0x78, 0x9d]), Err(ZlibError::BadHeaderCheck { remainder: 1, .. })));
        // FCHECK fixed up each time so only the named field is wrong.
        assert!(matches!(check(&with_fcheck(0x7f, 0)), Err(ZlibError::BadMethod { method: 15, .. })));
        assert!(matches!(check(&with_fcheck(0x88, 0)), Err(ZlibError::BadWindow { cinfo: 8, .. })));
        assert!(matches!(check(&with_fcheck(0x78, 0x20)), Err(ZlibError::PresetDictionary { .. })));
    }

    #[test]
    fn trailer_reads_big_endian_and_refuses_short_input() {
        assert_eq!(trailer(&[9, 1, 2, 3, 4], 1), Some(0x0102_0304));
        assert_eq!(trailer(&[9, 1, 2, 3], 1), None);
        assert_eq!(trailer(&[], usize::MAX), None);
    }
}
