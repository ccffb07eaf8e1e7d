//! DirectStorage requests and the rules the runtime checks when a request is enqueued
//! (SPEC §1). A violation is an error that names the offending values; nothing is fixed up.

use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// Largest request (1 GiB): source + destination size for a decompression request, the
/// size read for a plain read.
pub const MAX_REQUEST_BYTES: Bytes = Bytes::gib(1);
/// Largest output of the zlib stage for one request (32 MiB).
pub const MAX_ZLIB_OUTPUT: Bytes = Bytes::mib(32);
/// Compressed streams start on a 16-byte boundary in their file.
pub const STREAM_ALIGNMENT: u64 = 16;
/// `BcpackMode` values: NONE=0, BC1..BC5 = 1..5, BC6H = 6, BC7 = 7.
pub const BCPACK_MODE_MAX: u8 = 7;

/// Swizzle modes sfsim's MDU model knows (`SwizzleMode`, 16 bits in the request; 0 = none).
/// The hardware numbering is not public; this numbering is sfsim's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum SwizzleMode {
    /// No swizzle: bytes pass through unchanged.
    None = 0,
    /// BC1 blocks regrouped as 2+2+4 byte fields per 64 KiB.
    Bc1Shuffle = 1,
    /// BC3: alpha 1+1+6, then colour 2+2+4.
    Bc3Shuffle = 2,
    /// BC4 blocks regrouped as 1+1+6.
    Bc4Shuffle = 3,
    /// BC5: two BC4 halves.
    Bc5Shuffle = 4,
    /// Linear block order → Morton order inside a 64 KiB tile.
    LinearToMorton = 5,
    /// Morton order → linear block order inside a 64 KiB tile.
    MortonToLinear = 6,
}

impl SwizzleMode {
    /// The highest mode number sfsim knows.
    pub const MAX: u16 = 6;

    /// The mode a request's raw 16-bit field names, or `None` for a number sfsim does not
    /// know (the caller reports it rather than guessing).
    pub fn from_raw(raw: u32) -> Option<Self> {
        Some(match raw {
            0 => Self::None,
            1 => Self::Bc1Shuffle,
            2 => Self::Bc3Shuffle,
            3 => Self::Bc4Shuffle,
            4 => Self::Bc5Shuffle,
            5 => Self::LinearToMorton,
            6 => Self::MortonToLinear,
            _ => return None,
        })
    }
}

/// The request option bits (`ZlibDecompress:1`, `BcpackMode:4`, `SwizzleMode:16`), kept as
/// raw integers so that out-of-range values can be reported rather than lost in parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RequestOptions {
    /// `ZlibDecompress`: inflate the source.
    pub zlib: bool,
    /// `BcpackMode`: 0 = none, 1..5 = BC1..BC5, 6 = BC6H, 7 = BC7.
    pub bcpack_mode: u32,
    /// `SwizzleMode`: 0 = none, otherwise a [`SwizzleMode`] number.
    pub swizzle_mode: u32,
}

impl RequestOptions {
    /// Whether the BCPack stage runs.
    #[inline]
    pub fn bcpack(&self) -> bool {
        self.bcpack_mode != 0
    }
    /// Whether the swizzle stage runs.
    #[inline]
    pub fn swizzle(&self) -> bool {
        self.swizzle_mode != 0
    }
    /// True when the MDU must decode something (zlib or BCPack); a swizzle alone keeps the
    /// size and counts as an uncompressed move.
    #[inline]
    pub fn decompresses(&self) -> bool {
        self.zlib || self.bcpack()
    }
}

/// Where the source bytes come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A file on the NVMe device at a byte offset.
    File {
        /// Where the stream starts in the file (a multiple of [`STREAM_ALIGNMENT`] when
        /// compressed).
        offset: u64,
    },
    /// Title memory (an in-memory decompression request: no NVMe, no staging).
    Memory,
}

/// One DirectStorage request as the title fills it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// Where the source bytes are.
    pub source: Source,
    /// Bytes read from the source (the compressed stream, or the data itself).
    pub source_size: Bytes,
    /// `IntermediateSize`: after zlib, before BCPack. Must be 0 unless both apply.
    pub intermediate_size: Bytes,
    /// Bytes written to title memory.
    pub destination_size: Bytes,
    /// The MDU stages to run on the bytes.
    pub options: RequestOptions,
    /// The content is a perfectly compressible page (one repeated value): the MDU writes it
    /// at its fill rate (12 GB/s in total) instead of its normal output rate.
    pub fill: bool,
}

/// A request rule violated at enqueue time. Each variant carries the offending values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("request is empty: source {source_size} and destination {destination_size}; both must be > 0")]
    /// A size is zero.
    Empty {
        /// The request's source size.
        source_size: Bytes,
        /// The request's destination size.
        destination_size: Bytes,
    },
    #[error("compressed stream offset {offset} is not {STREAM_ALIGNMENT}-byte aligned (offset % 16 = {})", offset % STREAM_ALIGNMENT)]
    /// A compressed stream does not start on a 16-byte boundary.
    MisalignedOffset {
        /// The stream's file offset.
        offset: u64,
    },
    #[error("request moves {total} B (source {source_size} + destination {destination_size}); the limit is {MAX_REQUEST_BYTES} ({} B)", MAX_REQUEST_BYTES.0)]
    /// Source + destination exceed [`MAX_REQUEST_BYTES`].
    TooLarge {
        /// The request's source size.
        source_size: Bytes,
        /// The request's destination size.
        destination_size: Bytes,
        /// Their sum in bytes.
        total: u64,
    },
    #[error("plain read of {size} exceeds the {MAX_REQUEST_BYTES} request limit ({} B)", MAX_REQUEST_BYTES.0)]
    /// A plain (uncompressed) read is larger than [`MAX_REQUEST_BYTES`].
    ReadTooLarge {
        /// The size read.
        size: Bytes,
    },
    #[error("compressed size {compressed} is not smaller than uncompressed size {uncompressed}; data that does not shrink must be stored uncompressed")]
    /// A compressed request does not shrink its data.
    NotSmaller {
        /// The source (compressed) size.
        compressed: Bytes,
        /// The destination (uncompressed) size.
        uncompressed: Bytes,
    },
    #[error("zlib output {inflated} exceeds the MDU limit of {MAX_ZLIB_OUTPUT} per request")]
    /// The zlib stage would write more than [`MAX_ZLIB_OUTPUT`].
    ZlibOutputTooLarge {
        /// The zlib stage's output size.
        inflated: Bytes,
    },
    #[error("IntermediateSize must be set (size after zlib, before BCPack) when both zlib and BCPack apply; it is 0")]
    /// zlib and BCPack both apply but `IntermediateSize` is 0.
    IntermediateSizeMissing,
    #[error("IntermediateSize is {intermediate} but must be 0 unless both zlib and BCPack apply (zlib={zlib}, BcpackMode={bcpack_mode})")]
    /// `IntermediateSize` is set although zlib and BCPack do not both apply.
    IntermediateSizeUnexpected {
        /// The `IntermediateSize` given.
        intermediate: Bytes,
        /// The request's zlib option.
        zlib: bool,
        /// The request's BCPack mode.
        bcpack_mode: u32,
    },
    #[error("IntermediateSize {intermediate} must lie strictly between the compressed size {compressed} and the uncompressed size {uncompressed}")]
    /// `IntermediateSize` is not strictly between the compressed and uncompressed sizes.
    IntermediateSizeOutOfRange {
        /// The `IntermediateSize` given.
        intermediate: Bytes,
        /// The source (compressed) size.
        compressed: Bytes,
        /// The destination (uncompressed) size.
        uncompressed: Bytes,
    },
    #[error("one IO of this request holds {needed} of staging buffer (compressed bytes + zlib → BCPack intermediate) but the buffer is {capacity}; expected a buffer ≥ {needed} or a smaller request")]
    /// An IO's staging need (its compressed bytes and intermediate) exceeds the whole
    /// staging buffer, so it could never be issued (checked by the IO path, which knows
    /// the buffer's size).
    StagingTooSmall {
        /// Staging bytes one IO of the request needs.
        needed: Bytes,
        /// The staging buffer's size.
        capacity: Bytes,
    },
    #[error("BcpackMode {mode} is out of range; expected 0 (none), 1..5 (BC1..BC5), 6 (BC6H) or 7 (BC7)")]
    /// `BcpackMode` is above [`BCPACK_MODE_MAX`].
    BcpackModeOutOfRange {
        /// The mode given.
        mode: u32,
    },
    #[error("SwizzleMode {mode} is out of range; expected 0 (none) to {}", SwizzleMode::MAX)]
    /// `SwizzleMode` is not a mode sfsim knows.
    SwizzleModeOutOfRange {
        /// The mode given.
        mode: u32,
    },
    #[error("an uncompressed request must have equal source and destination sizes (source {source_size}, destination {destination_size})")]
    /// An uncompressed request whose source and destination sizes differ.
    SizeMismatch {
        /// The request's source size.
        source_size: Bytes,
        /// The request's destination size.
        destination_size: Bytes,
    },
}

impl Request {
    /// Checks every enqueue-time rule of SPEC §1, in a fixed order.
    #[inline]
    pub fn validate(&self) -> Result<(), RequestError> {
        let (src, dst, opts) = (self.source_size, self.destination_size, self.options);
        if src.0 == 0 || dst.0 == 0 {
            return Err(RequestError::Empty { source_size: src, destination_size: dst });
        }
        if opts.bcpack_mode > u32::from(BCPACK_MODE_MAX) {
            return Err(RequestError::BcpackModeOutOfRange { mode: opts.bcpack_mode });
        }
        if SwizzleMode::from_raw(opts.swizzle_mode).is_none() {
            return Err(RequestError::SwizzleModeOutOfRange { mode: opts.swizzle_mode });
        }
        // SPEC §1: the 1 GiB limit counts source + destination only when the MDU
        // decompresses; a plain read moves its bytes once.
        let total = src.0.saturating_add(dst.0);
        if opts.decompresses() && total > MAX_REQUEST_BYTES.0 {
            return Err(RequestError::TooLarge { source_size: src, destination_size: dst, total });
        }
        if !opts.decompresses() && src.0.max(dst.0) > MAX_REQUEST_BYTES.0 {
            return Err(RequestError::ReadTooLarge { size: Bytes(src.0.max(dst.0)) });
        }
        if !opts.decompresses() {
            if self.intermediate_size.0 != 0 {
                return Err(RequestError::IntermediateSizeUnexpected {
                    intermediate: self.intermediate_size,
                    zlib: opts.zlib,
                    bcpack_mode: opts.bcpack_mode,
                });
            }
            if src != dst {
                return Err(RequestError::SizeMismatch { source_size: src, destination_size: dst });
            }
            return Ok(());
        }
        if let Source::File { offset } = self.source {
            if offset % STREAM_ALIGNMENT != 0 {
                return Err(RequestError::MisalignedOffset { offset });
            }
        }
        if src >= dst {
            return Err(RequestError::NotSmaller { compressed: src, uncompressed: dst });
        }
        let both = opts.zlib && opts.bcpack();
        if both && self.intermediate_size.0 == 0 {
            return Err(RequestError::IntermediateSizeMissing);
        }
        if !both && self.intermediate_size.0 != 0 {
            return Err(RequestError::IntermediateSizeUnexpected {
                intermediate: self.intermediate_size,
                zlib: opts.zlib,
                bcpack_mode: opts.bcpack_mode,
            });
        }
        if both && !(src < self.intermediate_size && self.intermediate_size < dst) {
            return Err(RequestError::IntermediateSizeOutOfRange {
                intermediate: self.intermediate_size,
                compressed: src,
                uncompressed: dst,
            });
        }
        if opts.zlib {
            let inflated = if both { self.intermediate_size } else { dst };
            if inflated > MAX_ZLIB_OUTPUT {
                return Err(RequestError::ZlibOutputTooLarge { inflated });
            }
        }
        Ok(())
    }

    /// Splits the request into IOs of at most `max_io` source bytes (512 KiB on the
    /// hardware): full pieces first, then the remainder. Each piece reaches the MDU as its
    /// own job; the destination is shared out in proportion to the source bytes so that the
    /// pieces' sizes sum exactly to the request's.
    pub fn split(&self, max_io: Bytes) -> Vec<Piece> {
        self.pieces(max_io).collect()
    }

    /// The pieces of [`split`](Self::split), one at a time, without allocating (the IO
    /// path splits every request it queues).
    #[inline]
    pub fn pieces(&self, max_io: Bytes) -> Pieces {
        let max_io = max_io.0.max(1);
        let count = if self.source_size.0 <= max_io { 1 } else { self.source_size.0.div_ceil(max_io) };
        Pieces {
            source: self.source_size.0,
            intermediate: self.intermediate_size.0,
            destination: self.destination_size.0,
            max_io,
            count,
            index: 0,
            src_done: 0,
            dst_done: 0,
            mid_done: 0,
        }
    }
}

/// The pieces of one request, in order ([`Request::pieces`]).
#[derive(Debug, Clone)]
pub struct Pieces {
    source: u64,
    intermediate: u64,
    destination: u64,
    max_io: u64,
    count: u64,
    index: u64,
    src_done: u64,
    dst_done: u64,
    mid_done: u64,
}

impl Pieces {
    /// `total`'s share up to source byte `src_end`; the last piece takes the remainder.
    fn share(&self, total: u64, src_end: u64, last: bool) -> u64 {
        if last {
            total
        } else {
            (u128::from(total) * u128::from(src_end) / u128::from(self.source)) as u64
        }
    }
}

impl Iterator for Pieces {
    type Item = Piece;

    #[inline]
    fn next(&mut self) -> Option<Piece> {
        if self.index == self.count {
            return None;
        }
        let src_end = (self.src_done + self.max_io).min(self.source);
        let last = self.index + 1 == self.count;
        let dst_end = self.share(self.destination, src_end, last);
        let mid_end = self.share(self.intermediate, src_end, last);
        let piece = Piece {
            index: self.index as u32,
            source_offset: self.src_done,
            source_bytes: Bytes(src_end - self.src_done),
            intermediate_bytes: Bytes(mid_end - self.mid_done),
            destination_bytes: Bytes(dst_end - self.dst_done),
        };
        self.index += 1;
        self.src_done = src_end;
        self.dst_done = dst_end;
        self.mid_done = mid_end;
        Some(piece)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.count - self.index) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Pieces {}

/// One IO of a split request and the MDU job it becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Its position in the request, from 0.
    pub index: u32,
    /// Where its bytes start in the request's source (0 for the first piece).
    pub source_offset: u64,
    /// Source bytes the IO reads (at most `max_io`).
    pub source_bytes: Bytes,
    /// Its share of the zlib → BCPack intermediate (0 unless both stages run),
    /// proportional to its source bytes like the destination's.
    pub intermediate_bytes: Bytes,
    /// Its share of the destination, proportional to its source bytes (the last piece
    /// takes the rounding remainder).
    pub destination_bytes: Bytes,
}

#[cfg(test)]
mod tests;
