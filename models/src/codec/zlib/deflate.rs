//! zlib encoders for the packer: XBTC's choice of Deflate, from fast to smallest.

use super::ZlibError;
use std::num::NonZeroU64;

/// Which Deflate encoder and effort to pack with. All produce standard RFC 1950 streams
/// that any zlib decoder (and the MDU) inflates; they differ in size and packing time.
/// Built through the checked constructors so an out-of-range level is reported, not clamped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoder(Kind);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Zlib(u8),
    Libdeflate(u8),
    Zopfli(u16),
}

impl Encoder {
    /// zlib's own encoder at level 9 ("best"): XBTC's default Deflate.
    pub const ZLIB_BEST: Encoder = Encoder(Kind::Zlib(9));
    /// libdeflate's slowest, smallest level.
    pub const LIBDEFLATE_BEST: Encoder = Encoder(Kind::Libdeflate(12));
    /// zopfli with its default 15 iterations: XBTC's `--usezopfli`.
    pub const ZOPFLI: Encoder = Encoder(Kind::Zopfli(15));

    /// zlib levels 0 (stored) to 9, through zlib-rs (zlib's algorithm, so the same
    /// size/speed trade-off a zlib-based packer sees).
    pub fn zlib(level: u32) -> Result<Self, ZlibError> {
        range_check("zlib", level, 0, 9).map(|l| Encoder(Kind::Zlib(l as u8)))
    }

    /// libdeflate levels 1 to 12 (10–12 use its optimal parser: near zopfli, much faster).
    pub fn libdeflate(level: u32) -> Result<Self, ZlibError> {
        range_check("libdeflate", level, 1, 12).map(|l| Encoder(Kind::Libdeflate(l as u8)))
    }

    /// zopfli with `iterations` (1 to 1000) optimisation passes; 1–2 % smaller than zlib 9,
    /// far slower (SPEC: XBTC `--usezopfli` is ~10× slower than zlib).
    pub fn zopfli(iterations: u32) -> Result<Self, ZlibError> {
        range_check("zopfli iterations", iterations, 1, 1000).map(|i| Encoder(Kind::Zopfli(i as u16)))
    }
}

impl std::fmt::Display for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Kind::Zlib(l) => write!(f, "zlib-{l}"),
            Kind::Libdeflate(l) => write!(f, "libdeflate-{l}"),
            Kind::Zopfli(i) => write!(f, "zopfli-{i}"),
        }
    }
}

fn range_check(encoder: &'static str, level: u32, min: u32, max: u32) -> Result<u32, ZlibError> {
    if (min..=max).contains(&level) {
        Ok(level)
    } else {
        Err(ZlibError::BadLevel { encoder, level, min, max })
    }
}

/// Compresses `data` into one zlib (RFC 1950) stream. The result may be larger than
/// `data` (incompressible input); the packer then stores the data raw, as the MDU requires.
pub fn deflate(data: &[u8], encoder: Encoder) -> Vec<u8> {
    match encoder.0 {
        Kind::Zlib(level) => zlib_rs_deflate(data, i32::from(level), zlib_rs::Strategy::Default),
        Kind::Libdeflate(level) => libdeflate_deflate(data, level),
        Kind::Zopfli(iterations) => zopfli_deflate(data, iterations),
    }
}

pub(crate) fn zlib_rs_deflate(data: &[u8], level: i32, strategy: zlib_rs::Strategy) -> Vec<u8> {
    let mut out = vec![0; zlib_rs::compress_bound(data.len())];
    let config = zlib_rs::DeflateConfig { level, strategy, ..zlib_rs::DeflateConfig::default() };
    let (written, code) = zlib_rs::compress_slice(&mut out, data, config);
    // The buffer holds compress_bound bytes and the configuration is valid: zlib-rs
    // cannot fail here.
    assert_eq!(code, zlib_rs::ReturnCode::Ok, "zlib-rs deflate failed within its own bound");
    let n = written.len();
    out.truncate(n);
    out
}

fn libdeflate_deflate(data: &[u8], level: u8) -> Vec<u8> {
    use libdeflater::{CompressionLvl, Compressor};
    let level = CompressionLvl::new(i32::from(level)).unwrap_or_default();
    let mut compressor = Compressor::new(level);
    let mut out = vec![0; compressor.zlib_compress_bound(data.len())];
    // libdeflate guarantees its bound is enough.
    let n = compressor.zlib_compress(data, &mut out).expect("libdeflate output within its own bound");
    out.truncate(n);
    out
}

fn zopfli_deflate(data: &[u8], iterations: u16) -> Vec<u8> {
    let options = zopfli::Options {
        iteration_count: NonZeroU64::new(u64::from(iterations)).unwrap_or(NonZeroU64::MIN),
        ..zopfli::Options::default()
    };
    let mut out = Vec::with_capacity(data.len() / 2 + 64);
    // Reading a slice and writing a Vec cannot fail.
    zopfli::compress(options, zopfli::Format::Zlib, data, &mut out).expect("zopfli into a Vec");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_outside_each_encoder_range_are_errors() {
        assert!(Encoder::zlib(0).is_ok() && Encoder::zlib(9).is_ok());
        assert_eq!(Encoder::zlib(10), Err(ZlibError::BadLevel { encoder: "zlib", level: 10, min: 0, max: 9 }));
        assert!(Encoder::libdeflate(0).is_err() && Encoder::libdeflate(13).is_err());
        assert!(Encoder::libdeflate(1).is_ok() && Encoder::libdeflate(12).is_ok());
        assert!(Encoder::zopfli(0).is_err() && Encoder::zopfli(1).is_ok());
        let msg = Encoder::libdeflate(13).unwrap_err().to_string();
        assert!(msg.contains("13") && msg.contains("1..=12"), "{msg}");
    }

    #[test]
    fn stronger_settings_never_lose_to_stored() {
        let data: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8 ^ (i / 997) as u8).collect();
        let stored = deflate(&data, Encoder::zlib(0).unwrap()).len();
        assert!(stored > data.len(), "level 0 stores: {stored} B for {} B", data.len());
        for enc in
            [Encoder::ZLIB_BEST, Encoder::libdeflate(6).unwrap(), Encoder::LIBDEFLATE_BEST, Encoder::zopfli(2).unwrap()]
        {
            let n = deflate(&data, enc).len();
            assert!(n < data.len() / 4, "{enc}: {n} B");
        }
    }
}
