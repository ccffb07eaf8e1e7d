//! The zlib stage's decoder: RFC 1950 framing and the MDU's size rules checked here, the
//! Deflate data itself decoded by a real crate (docs/zlib.md says which and why).

use super::error::Inflated;
use super::header;
use super::ZlibError;
use crate::nvme::MAX_ZLIB_OUTPUT;
use zlib_rs::{Inflate, InflateFlush, Status};

/// A reusable zlib-stage decoder. Keeping one per worker avoids re-allocating the
/// decoder state and its 32 KiB window for every 64 KiB tile.
pub struct Inflater {
    raw: Inflate,
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
    pub fn new() -> Self {
        // Raw Deflate: the header and trailer are checked here so that each fault gets its
        // own error and trailing bytes are caught (a zlib decoder silently ignores them).
        Self { raw: Inflate::new(false, 15) }
    }

    /// Inflates `src` into exactly `out.len()` bytes (the request's declared size).
    /// On error `out` holds unspecified bytes.
    pub fn inflate_into(&mut self, src: &[u8], out: &mut [u8]) -> Result<(), ZlibError> {
        check_sizes(src.len(), out.len())?;
        header::check(src)?;
        let body = &src[2..];
        self.raw.reset(false);
        let status = self.raw.decompress(body, out, InflateFlush::Finish);
        let consumed = usize::try_from(self.raw.total_in()).unwrap_or(usize::MAX);
        let inflated = self.raw.total_out();
        match status {
            Err(e) => Err(ZlibError::InvalidDeflate {
                offset: 2 + consumed as u64,
                inflated,
                reason: self.raw.error_message().unwrap_or(e.as_str()),
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

    /// Inflates `src` into a new buffer of exactly `declared` bytes.
    pub fn inflate(&mut self, src: &[u8], declared: usize) -> Result<Vec<u8>, ZlibError> {
        // Checked before allocating, so a hostile size never reaches the allocator.
        check_sizes(src.len(), declared)?;
        let mut out = vec![0; declared];
        self.inflate_into(src, &mut out)?;
        Ok(out)
    }
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

/// After the final Deflate block ends at `src[end]`: the declared length, then the
/// Adler-32, then nothing else.
fn check_trailer(src: &[u8], end: usize, out: &[u8], inflated: u64) -> Result<(), ZlibError> {
    if inflated < out.len() as u64 {
        return Err(ZlibError::OutputTooShort { declared: out.len() as u64, actual: inflated });
    }
    let len = src.len() as u64;
    let stored =
        header::trailer(src, end).ok_or(ZlibError::TruncatedTrailer { len, missing: (end + 4) as u64 - len })?;
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
