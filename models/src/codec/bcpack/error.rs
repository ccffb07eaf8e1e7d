//! Why a BCPack stream could not be encoded or decoded. Every message names what was
//! expected and what was found.

use super::header::{FORMAT_VERSION, MAX_ROW_BLOCKS};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BcpackError {
    #[error("BcpackMode {mode} is not a BC format; expected 1..5 (BC1..BC5), 6 (BC6H) or 7 (BC7)")]
    BadMode { mode: u32 },
    #[error("input of {len} B is not a whole number of {block_bytes}-byte blocks")]
    NotWholeBlocks { len: usize, block_bytes: usize },
    #[error("input of {blocks} blocks is more than the format's limit of {max} blocks per stream")]
    TooManyBlocks { blocks: usize, max: u64 },
    #[error("row width of {row_blocks} blocks is out of range; expected 1..={MAX_ROW_BLOCKS}")]
    BadRowWidth { row_blocks: u32 },
    #[error("BCPack stream is {len} B, shorter than its {need}-byte header")]
    HeaderTruncated { len: usize, need: usize },
    #[error("BCPack format version {found} is not supported; this decoder reads version {FORMAT_VERSION}")]
    UnsupportedVersion { found: u8 },
    #[error("BCPack coding method {method} is unknown; expected 0 (modelled), 1 (stored) or 2 (fast)")]
    BadMethod { method: u8 },
    #[error("BCPack mode {mode} with method {method} has {expected} streams, but the header lists {found}")]
    StreamCount { mode: u8, method: u8, expected: usize, found: usize },
    #[error(
        "BCPack header declares {blocks} blocks of {block_bytes} B = {declared} B, but {expected} B were expected"
    )]
    LengthMismatch { blocks: u64, block_bytes: usize, declared: u64, expected: usize },
    #[error("BCPack stream table adds up to {declared} B after the header, but {available} B follow it")]
    StreamTableMismatch { declared: u64, available: usize },
    #[error("stored BCPack payload is {stored} B, but the header declares {expected} B of blocks")]
    StoredLength { stored: usize, expected: usize },
    #[error("BCPack stream {stream} does not start with the range coder's zero byte (found {found:#04x})")]
    StreamStart { stream: usize, found: u8 },
    #[error("BCPack stream {stream} is {len} B but decoding it needed {consumed} B: truncated or corrupt")]
    StreamOverrun { stream: usize, consumed: usize, len: usize },
    #[error("block {block}: decoded {what} symbol {value} is invalid (at most {max})")]
    InvalidSymbol { block: usize, what: &'static str, value: u32, max: u32 },
    #[error("BCPack stream {stream} ends inside its frequency tables ({len} B)")]
    TablesTruncated { stream: usize, len: usize },
    #[error("BCPack stream {stream} has an invalid frequency table: {why}")]
    BadTable { stream: usize, why: &'static str },
    #[error(
        "BCPack stream {stream}: rANS payload of {len} B was not consumed exactly (read {consumed} B) \
         or its final states are not the encoder's start state"
    )]
    RansEnd { stream: usize, consumed: usize, len: usize },
    #[error("decoded {what} symbol {value} is out of range (at most {max}): corrupt stream")]
    SymbolRange { what: &'static str, value: u32, max: u32 },
    #[error("block {block}: copies its {which} neighbour, which does not exist")]
    MissingNeighbour { block: usize, which: &'static str },
    #[error("decoded blocks have Adler-32 {found:#010x}, but the header recorded {expected:#010x}: corrupt stream")]
    Checksum { expected: u32, found: u32 },
}
