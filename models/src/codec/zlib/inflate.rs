//! The zlib stage's decoder: RFC 1950 framing and the MDU's size rules checked here, the
//! Deflate data decoded by real crates (docs/zlib.md has the measurements).
//!
//! Two backends, one behaviour. libdeflate, the fastest decoder measured on BC tiles, takes
//! every stream first. It validates header, Deflate data and the Adler-32 stored right
//! after the data, but cannot say where that data ended, so stray bytes after the trailer
//! would go unnoticed; that is settled without a second decode: if the last four bytes
//! equal the Adler-32 and that 4-byte value occurs nowhere earlier in the stream, the
//! trailer libdeflate checked can only be the last four bytes. Anything libdeflate refuses
//! (or cannot settle) is decoded again by zlib-rs, which reports where the data ended and
//! so names the exact fault.

use super::error::Inflated;
use super::header;
use super::ZlibError;
use crate::nvme::MAX_ZLIB_OUTPUT;
use zlib_rs::{Inflate, InflateFlush, Status};

/// A reusable zlib-stage decoder. Keeping one per worker avoids re-allocating decoder
/// state for every 64 KiB tile.
pub struct Inflater {
    fast: libdeflater::Decompressor,
}

impl Default for Inflater {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Inflater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inflater").finish_non_exhaustive()
    }
}

impl Inflater {
    /// A decoder with its own libdeflate state; reuse it across streams to avoid the set-up.
    pub fn new() -> Self {
        Self { fast: libdeflater::Decompressor::new() }
    }

    /// Inflates `src` into exactly `out.len()` bytes (the request's declared size).
    /// On error `out` holds unspecified bytes.
    pub fn inflate_into(&mut self, src: &[u8], out: &mut [u8]) -> Result<(), ZlibError> {
        check_sizes(src.len(), out.len())?;
        header::check(src)?;
        if matches!(self.fast.zlib_decompress(src, out), Ok(n) if n == out.len()) && ends_at_trailer(src, out) {
            return Ok(());
        }
        exact_inflate_into(src, out)
    }

    /// Inflates `src` into a new buffer of exactly `declared` bytes.
    pub fn inflate(&mut self, src: &[u8], declared: usize) -> Result<Vec<u8>, ZlibError> {
        // Checked before allocating, so a hostile size never reaches the allocator.
        check_sizes(src.len(), declared)?;
        let mut out = vec![0; declared];
        self.inflate_into(src, &mut out)?;
        Ok(out)
    }
}

/// After libdeflate accepted `src`: true when its Deflate data provably ends right before
/// the last four bytes. libdeflate found the Adler-32 `a` of `out` at the data's end `e`
/// (`e + 4 <= len`). If the last four bytes are `a` and `a` occurs at no earlier position
/// from 2 on, `e` must be `len - 4`. A false answer only sends the stream to the exact path.
fn ends_at_trailer(src: &[u8], out: &[u8]) -> bool {
    let a = libdeflater::adler32(out).to_be_bytes();
    let len = src.len();
    len >= 7 && src[len - 4..] == a && memchr::memmem::find(&src[2..len - 1], &a).is_none()
}

/// The MDU's size rules, checked before any decoding.
fn check_sizes(compressed: usize, declared: usize) -> Result<(), ZlibError> {
    let (compressed, declared) = (compressed as u64, declared as u64);
    if declared > MAX_ZLIB_OUTPUT.0 {
        return Err(ZlibError::DeclaredTooLarge { declared, limit: MAX_ZLIB_OUTPUT.0 });
    }
    if compressed >= declared {
        return Err(ZlibError::NotSmaller { compressed, declared });
    }
    Ok(())
}

/// zlib-rs on the raw Deflate data, with the framing checked here so that each fault gets
/// its own error and trailing bytes are caught.
fn exact_inflate_into(src: &[u8], out: &mut [u8]) -> Result<(), ZlibError> {
    let body = &src[2..];
    let mut raw = Inflate::new(false, 15);
    let status = raw.decompress(body, out, InflateFlush::Finish);
    let consumed = usize::try_from(raw.total_in()).unwrap_or(usize::MAX);
    let inflated = raw.total_out();
    match status {
        Err(e) => Err(ZlibError::InvalidDeflate {
            offset: 2 + consumed as u64,
            inflated,
            reason: raw.error_message().unwrap_or(e.as_str()),
        }),
        Ok(Status::StreamEnd) => check_trailer(src, 2 + consumed, out, inflated),
        Ok(Status::Ok | Status::BufError) => {
            let declared = out.len() as u64;
            // The output filled up before the stream ended: find out by how much it
            // overflows, unless it turns out to break off right there.
            match if inflated == declared { measure(body) } else { Inflated::AtLeast(inflated) } {
                Inflated::AtLeast(n) if n <= declared => {
                    Err(ZlibError::TruncatedDeflate { len: src.len() as u64, inflated: n })
                }
                actual => Err(ZlibError::OutputTooLong { declared, actual }),
            }
        }
    }
}

/// After the final Deflate block ends at `src[end]`: the declared length, then the
/// Adler-32, then nothing else.
fn check_trailer(src: &[u8], end: usize, out: &[u8], inflated: u64) -> Result<(), ZlibError> {
    if inflated < out.len() as u64 {
        return Err(ZlibError::OutputTooShort { declared: out.len() as u64, actual: inflated });
    }
    let len = src.len() as u64;
    let stored = header::trailer(src, end)
        .ok_or_else(|| ZlibError::TruncatedTrailer { len, missing: ((end + 4) as u64).saturating_sub(len) })?;
    let computed = zlib_rs::adler32::adler32(1, out);
    if stored != computed {
        return Err(ZlibError::BadAdler { stored, computed });
    }
    if src.len() > end + 4 {
        return Err(ZlibError::TrailingBytes { count: len - (end + 4) as u64, end: (end + 4) as u64, len });
    }
    Ok(())
}

/// How long a too-long stream really is, decoded into a scratch buffer up to one byte past
/// the 32 MiB limit. Only runs on the error path.
fn measure(body: &[u8]) -> Inflated {
    let mut raw = Inflate::new(false, 15);
    let mut scratch = vec![0u8; 1 << 16];
    let limit = MAX_ZLIB_OUTPUT.0;
    let mut input = body;
    loop {
        let before_in = raw.total_in();
        let before_out = raw.total_out();
        let status = raw.decompress(input, &mut scratch, InflateFlush::NoFlush);
        let used = usize::try_from(raw.total_in() - before_in).unwrap_or(input.len());
        input = input.get(used..).unwrap_or_default();
        let progressed = used > 0 || raw.total_out() > before_out;
        match status {
            Ok(Status::StreamEnd) if raw.total_out() <= limit => return Inflated::Exactly(raw.total_out()),
            Ok(Status::Ok) if raw.total_out() <= limit && progressed => {}
            _ => return Inflated::AtLeast(raw.total_out().min(limit + 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::zlib::{deflate, Encoder};

    /// Both paths agree on every valid stream: the fast path's answer is the exact one.
    #[test]
    fn fast_and_exact_paths_agree() {
        let data: Vec<u8> = (0..40_000u32).map(|i| ((i * i) >> 7) as u8).collect();
        for enc in [Encoder::ZLIB_BEST, Encoder::libdeflate(1).unwrap(), Encoder::zlib(0).unwrap()] {
            let s = deflate(&data, enc);
            if s.len() >= data.len() {
                continue;
            }
            let mut a = vec![0; data.len()];
            let mut b = vec![0; data.len()];
            Inflater::new().inflate_into(&s, &mut a).unwrap();
            exact_inflate_into(&s, &mut b).unwrap();
            assert!(a == data && b == data, "{enc}");
        }
    }

    /// The one stream shape the fast path cannot settle alone — extra bytes that end with
    /// the Adler-32 again — still ends up refused, via the exact path.
    #[test]
    fn repeated_trailer_is_settled_by_the_exact_path() {
        let data = vec![9u8; 5000];
        let mut s = deflate(&data, Encoder::ZLIB_BEST);
        let len = s.len();
        assert!(ends_at_trailer(&s, &data));
        let t = s[len - 4..].to_vec();
        s.extend_from_slice(&t);
        assert!(!ends_at_trailer(&s, &data));
        assert_eq!(
            Inflater::new().inflate(&s, data.len()),
            Err(ZlibError::TrailingBytes { count: 4, end: len as u64, len: len as u64 + 4 })
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use crate::codec::zlib::{deflate, Encoder};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// On damaged streams the fast path never accepts what the exact path refuses,
        /// and both produce the same bytes when they accept.
        #[test]
        fn fast_path_never_accepts_more_than_the_exact_one(
            seed in any::<u8>(), flips in proptest::collection::vec(any::<usize>(), 1..4), cut in 0usize..3,
        ) {
            let data: Vec<u8> = (0..3000u32).map(|i| ((i * u32::from(seed)) >> 5) as u8 ^ (i % 7) as u8).collect();
            let mut s = deflate(&data, Encoder::zlib(u32::from(seed % 10)).unwrap());
            for f in flips {
                let bit = f % (s.len() * 8);
                s[bit / 8] ^= 1 << (bit % 8);
            }
            s.truncate(s.len() - cut);
            let mut fast = vec![0; data.len()];
            let mut exact = vec![0; data.len()];
            let f = Inflater::new().inflate_into(&s, &mut fast);
            let e = if check_sizes(s.len(), data.len()).and(header::check(&s)).is_ok() {
                exact_inflate_into(&s, &mut exact)
            } else {
                f.clone()
            };
            prop_assert_eq!(f.is_ok(), e.is_ok(), "fast {:?} exact {:?}", f, e);
            if f.is_ok() {
                prop_assert!(fast == exact);
            }
        }
    }
}
