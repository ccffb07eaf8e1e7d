//! The MDU's zlib stage: RFC 1950 (zlib framing around RFC 1951 Deflate) with the
//! hardware's extra rules, plus the encoders the packer uses.
//!
//! A DirectStorage request declares how many bytes the zlib stage must produce; the MDU
//! refuses a stream that inflates to any other length, that is not smaller than its
//! output, whose output exceeds 32 MiB ([`MAX_ZLIB_OUTPUT`](crate::nvme::MAX_ZLIB_OUTPUT)),
//! whose header or Adler-32 is wrong, or that is followed by stray bytes. Each case is its
//! own [`ZlibError`] variant naming the values involved. The window is the full 32 KiB, so
//! a stream from any conforming zlib encoder decodes bit-exactly.
//!
//! ```
//! use sfsim_models::codec::zlib::{deflate, inflate, Encoder};
//! let tile = vec![7u8; 65_536];
//! let stream = deflate(&tile, Encoder::ZLIB_BEST);
//! assert_eq!(inflate(&stream, tile.len()).unwrap(), tile);
//! assert!(inflate(&stream, tile.len() - 1).is_err()); // the declared size must be exact
//! ```
//!
//! Decoding uses the backend measured fastest on real 64 KiB BC tiles (docs/zlib.md);
//! [`Inflater`] keeps its state between streams. Encoding offers zlib levels 0–9,
//! libdeflate levels 1–12 and zopfli ([`Encoder`]).

mod deflate;
mod error;
mod header;
mod inflate;
#[cfg(test)]
mod tests;

pub use deflate::{deflate, Encoder};
pub use error::{Inflated, ZlibError};
pub use inflate::Inflater;

/// Inflates `src` into exactly `declared` bytes, enforcing every MDU rule.
pub fn inflate(src: &[u8], declared: usize) -> Result<Vec<u8>, ZlibError> {
    Inflater::new().inflate(src, declared)
}

/// Inflates `src` into all of `out` (its length is the declared size). On error `out`
/// holds unspecified bytes.
pub fn inflate_into(src: &[u8], out: &mut [u8]) -> Result<(), ZlibError> {
    Inflater::new().inflate_into(src, out)
}
