//! Why a BCPack stream could not be encoded or decoded. Every message names what was
//! expected and what was found.

use super::header::MAX_ROW_BLOCKS;

/// Why BCPack refused to encode its input or decode a stream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BcpackError {
    /// A request's `BcpackMode` value that names no BC format.
    #[error("BcpackMode {mode} is not a BC format; expected 1..5 (BC1..BC5), 6 (BC6H) or 7 (BC7)")]
    BadMode {
        /// The raw value given.
        mode: u32,
    },
    /// The input to encode does not end on a block boundary.
    #[error("input of {len} B is not a whole number of {block_bytes}-byte blocks")]
    NotWholeBlocks {
        /// Bytes given.
        len: usize,
        /// The format's block size, bytes.
        block_bytes: usize,
    },
    /// The input to encode has more blocks than the header's block count can hold.
    #[error("input of {blocks} blocks is more than the format's limit of {max} blocks per stream")]
    TooManyBlocks {
        /// Blocks given.
        blocks: usize,
        /// The most blocks one stream can hold.
        max: u64,
    },
    /// The neighbour-prediction row width (given to the encoder or read from a header) is 0
    /// or above [`MAX_ROW_BLOCKS`].
    #[error("row width of {row_blocks} blocks is out of range; expected 1..={MAX_ROW_BLOCKS}")]
    BadRowWidth {
        /// The row width given, blocks.
        row_blocks: u32,
    },
    /// The stream is shorter than its header.
    #[error("BCPack stream is {len} B, shorter than its {need}-byte header")]
    HeaderTruncated {
        /// The stream's size, bytes.
        len: usize,
        /// Bytes the header needs (it grows with the stream count).
        need: usize,
    },
    /// The header's version is not the one this decoder reads.
    #[error(
        "BCPack format version {found} is not supported; this decoder reads version {expected} only (re-pack the data)"
    )]
    UnsupportedVersion {
        /// The version in the header.
        found: u8,
        /// The version this decoder reads.
        expected: u8,
    },
    /// The header's coding method byte names no method.
    #[error("BCPack coding method {method} is unknown or not available for this mode; expected 0 (modelled), 1 (stored) or 3 (fast)")]
    BadMethod {
        /// The method byte in the header.
        method: u8,
    },
    /// The header lists a different number of field streams than its mode and method have.
    #[error("BCPack mode {mode} with method {method} has {expected} streams, but the header lists {found}")]
    StreamCount {
        /// The header's mode byte.
        mode: u8,
        /// The header's method byte.
        method: u8,
        /// Streams that mode and method use.
        expected: usize,
        /// Streams the header lists.
        found: usize,
    },
    /// The header's block count does not give the size the caller expects.
    #[error(
        "BCPack header declares {blocks} blocks of {block_bytes} B = {declared} B, but {expected} B were expected"
    )]
    LengthMismatch {
        /// Blocks the header declares.
        blocks: u64,
        /// The mode's block size, bytes.
        block_bytes: usize,
        /// `blocks × block_bytes`.
        declared: u64,
        /// Bytes the caller expects (the output buffer's length).
        expected: usize,
    },
    /// The stream table's lengths do not add up to the bytes after the header.
    #[error("BCPack stream table adds up to {declared} B after the header, but {available} B follow it")]
    StreamTableMismatch {
        /// Sum of the table's stream lengths, bytes.
        declared: u64,
        /// Bytes after the header.
        available: usize,
    },
    /// A stored (uncoded) payload is not the declared block bytes.
    #[error("stored BCPack payload is {stored} B, but the header declares {expected} B of blocks")]
    StoredLength {
        /// Bytes of the payload.
        stored: usize,
        /// Bytes of the blocks the header declares.
        expected: usize,
    },
    /// A range-coded stream does not start with the coder's zero byte.
    #[error("BCPack stream {stream} does not start with the range coder's zero byte (found {found:#04x})")]
    StreamStart {
        /// Index of the stream in the header's table.
        stream: usize,
        /// The first byte found.
        found: u8,
    },
    /// Decoding a stream read past its end: the stream is truncated or corrupt.
    #[error("BCPack stream {stream} is {len} B but decoding it needed {consumed} B: truncated or corrupt")]
    StreamOverrun {
        /// Index of the stream in the header's table.
        stream: usize,
        /// Bytes decoding needed.
        consumed: usize,
        /// The stream's length, bytes.
        len: usize,
    },
    /// A decoded symbol is out of its field's range (corrupt data).
    #[error("block {block}: decoded {what} symbol {value} is invalid (at most {max})")]
    InvalidSymbol {
        /// Index of the block being decoded.
        block: usize,
        /// The field, e.g. `"BC7 mode"`.
        what: &'static str,
        /// The symbol decoded.
        value: u32,
        /// The field's largest valid symbol.
        max: u32,
    },
    /// A fast-method (rANS) stream ends inside its frequency tables.
    #[error("BCPack stream {stream} ends inside its frequency tables ({len} B)")]
    TablesTruncated {
        /// Index of the stream in the header's table.
        stream: usize,
        /// The stream's length, bytes.
        len: usize,
    },
    /// A fast-method (rANS) frequency table is invalid.
    #[error("BCPack stream {stream} has an invalid frequency table: {why}")]
    BadTable {
        /// Index of the stream in the header's table.
        stream: usize,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A rANS payload was not consumed exactly, or its final states are not the encoder's start state: truncated or corrupt.
    #[error(
        "BCPack stream {stream}: rANS payload of {len} B was not consumed exactly (read {consumed} B) \
         or its final states are not the encoder's start state"
    )]
    RansEnd {
        /// Index of the stream in the header's table.
        stream: usize,
        /// Bytes decoding read.
        consumed: usize,
        /// The payload's length, bytes.
        len: usize,
    },
    /// A fast-method stream decoded to an inconsistent block (a copy of a missing neighbour,
    /// a reference to a partition that does not exist…).
    #[error("BCPack stream {stream} is corrupt: it decoded {what}")]
    Corrupt {
        /// Index of the stream in the header's table.
        stream: usize,
        /// What was inconsistent.
        what: &'static str,
    },
    /// The decoded blocks' Adler-32 differs from the one the header recorded.
    #[error("decoded blocks have Adler-32 {found:#010x}, but the header recorded {expected:#010x}: corrupt stream")]
    Checksum {
        /// The checksum in the header.
        expected: u32,
        /// The checksum of the decoded blocks.
        found: u32,
    },
}
