use std::fmt;

/// An inflated length as far as it could be measured: a stream that runs past the MDU's
/// 32 MiB limit (or breaks off after the declared length) is only known to be "at least" long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inflated {
    Exactly(u64),
    AtLeast(u64),
}

impl fmt::Display for Inflated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inflated::Exactly(n) => write!(f, "{n} B"),
            Inflated::AtLeast(n) => write!(f, "at least {n} B"),
        }
    }
}

/// Why the zlib stage refused a stream. Each variant is a distinct MDU rule and carries
/// the values that broke it, so a failing request can be diagnosed from the message alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZlibError {
    #[error("declared output {declared} B exceeds the MDU's zlib limit of {limit} B (32 MiB)")]
    DeclaredTooLarge { declared: u64, limit: u64 },
    #[error(
        "compressed size {compressed} B is not smaller than the declared output {declared} B; \
         data that does not shrink must be stored uncompressed"
    )]
    NotSmaller { compressed: u64, declared: u64 },
    #[error("zlib stream is {len} B; a header alone needs 2 B")]
    MissingHeader { len: u64 },
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x}: compression method {method}, expected 8 (Deflate)")]
    BadMethod { cmf: u8, flg: u8, method: u8 },
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x}: window field {cinfo} (2^{} B), expected at most 7 (32 KiB)", u32::from(*cinfo) + 8)]
    BadWindow { cmf: u8, flg: u8, cinfo: u8 },
    #[error(
        "zlib header 0x{cmf:02x} 0x{flg:02x}: check bits fail, 0x{cmf:02x}{flg:02x} % 31 = {remainder}, expected 0"
    )]
    BadHeaderCheck { cmf: u8, flg: u8, remainder: u16 },
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x} asks for a preset dictionary, which the MDU does not support")]
    PresetDictionary { cmf: u8, flg: u8 },
    #[error("invalid Deflate data near compressed byte {offset} ({inflated} B inflated so far): {reason}")]
    InvalidDeflate { offset: u64, inflated: u64, reason: &'static str },
    #[error("zlib stream of {len} B ends inside its Deflate data ({inflated} B inflated so far, no final block end)")]
    TruncatedDeflate { len: u64, inflated: u64 },
    #[error("zlib stream of {len} B ends {missing} B short of its 4-byte Adler-32 trailer")]
    TruncatedTrailer { len: u64, missing: u64 },
    #[error("zlib stream inflates to {actual} B, fewer than the {declared} B the request declared")]
    OutputTooShort { declared: u64, actual: u64 },
    #[error("zlib stream inflates to {actual}, more than the {declared} B the request declared")]
    OutputTooLong { declared: u64, actual: Inflated },
    #[error("Adler-32 mismatch: the stream stores 0x{stored:08x}, the inflated data sums to 0x{computed:08x}")]
    BadAdler { stored: u32, computed: u32 },
    #[error("{count} B of trailing data after the zlib stream, which ends at byte {end} of {len}")]
    TrailingBytes { count: u64, end: u64, len: u64 },
    #[error("{encoder} level {level} is out of range; expected {min}..={max}")]
    BadLevel { encoder: &'static str, level: u32, min: u32, max: u32 },
}
