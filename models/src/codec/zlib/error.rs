use std::fmt;

/// An inflated length as far as it could be measured: a stream that runs past the MDU's
/// 32 MiB limit (or breaks off after the declared length) is only known to be "at least" long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inflated {
    /// The stream inflates to exactly this many bytes.
    Exactly(u64),
    /// The stream inflates to at least this many bytes (measuring stopped there).
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
    /// The request declares more output than the MDU's zlib stage can produce.
    #[error("declared output {declared} B exceeds the MDU's zlib limit of {limit} B (32 MiB)")]
    DeclaredTooLarge {
        /// The declared (uncompressed) size, bytes.
        declared: u64,
        /// The limit, bytes (32 MiB).
        limit: u64,
    },
    /// The compressed stream is not smaller than its output: the MDU requires stored data then.
    #[error(
        "compressed size {compressed} B is not smaller than the declared output {declared} B; \
         data that does not shrink must be stored uncompressed"
    )]
    NotSmaller {
        /// The stream's size, bytes.
        compressed: u64,
        /// The declared (uncompressed) size, bytes.
        declared: u64,
    },
    /// The stream is shorter than the 2-byte zlib header.
    #[error("zlib stream is {len} B; a header alone needs 2 B")]
    MissingHeader {
        /// The stream's size, bytes.
        len: u64,
    },
    /// The header's compression method is not Deflate.
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x}: compression method {method}, expected 8 (Deflate)")]
    BadMethod {
        /// The header's first byte (CMF: method and window).
        cmf: u8,
        /// The header's second byte (FLG: check bits, dictionary flag, level).
        flg: u8,
        /// CMF's low four bits (CM).
        method: u8,
    },
    /// The header asks for a window above 32 KiB.
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x}: window field {cinfo} (2^{} B), expected at most 7 (32 KiB)", u32::from(*cinfo) + 8)]
    BadWindow {
        /// The header's first byte (CMF: method and window).
        cmf: u8,
        /// The header's second byte (FLG: check bits, dictionary flag, level).
        flg: u8,
        /// CMF's high four bits (CINFO): the window is 2^(CINFO + 8) bytes.
        cinfo: u8,
    },
    /// The header's check bits fail: `(CMF × 256 + FLG) % 31` must be 0.
    #[error(
        "zlib header 0x{cmf:02x} 0x{flg:02x}: check bits fail, 0x{cmf:02x}{flg:02x} % 31 = {remainder}, expected 0"
    )]
    BadHeaderCheck {
        /// The header's first byte (CMF: method and window).
        cmf: u8,
        /// The header's second byte (FLG: check bits, dictionary flag, level).
        flg: u8,
        /// `(CMF × 256 + FLG) % 31`.
        remainder: u16,
    },
    /// The header sets FDICT (a preset dictionary), which the MDU does not support.
    #[error("zlib header 0x{cmf:02x} 0x{flg:02x} asks for a preset dictionary, which the MDU does not support")]
    PresetDictionary {
        /// The header's first byte (CMF: method and window).
        cmf: u8,
        /// The header's second byte (FLG: check bits, dictionary flag, level).
        flg: u8,
    },
    /// The Deflate data is malformed (bad block type, code lengths, distance…).
    #[error("invalid Deflate data near compressed byte {offset} ({inflated} B inflated so far): {reason}")]
    InvalidDeflate {
        /// Byte of the stream near which decoding failed.
        offset: u64,
        /// Bytes inflated before the fault.
        inflated: u64,
        /// What was wrong, in the decoder's words.
        reason: &'static str,
    },
    /// The stream ends before Deflate's final block ends.
    #[error("zlib stream of {len} B ends inside its Deflate data ({inflated} B inflated so far, no final block end)")]
    TruncatedDeflate {
        /// The stream's size, bytes.
        len: u64,
        /// Bytes inflated before the end.
        inflated: u64,
    },
    /// The stream ends inside its Adler-32 trailer.
    #[error("zlib stream of {len} B ends {missing} B short of its 4-byte Adler-32 trailer")]
    TruncatedTrailer {
        /// The stream's size, bytes.
        len: u64,
        /// Trailer bytes missing (1..=4).
        missing: u64,
    },
    /// The stream inflates to fewer bytes than the request declared.
    #[error("zlib stream inflates to {actual} B, fewer than the {declared} B the request declared")]
    OutputTooShort {
        /// The declared size, bytes.
        declared: u64,
        /// Bytes the stream inflates to.
        actual: u64,
    },
    /// The stream inflates to more bytes than the request declared.
    #[error("zlib stream inflates to {actual}, more than the {declared} B the request declared")]
    OutputTooLong {
        /// The declared size, bytes.
        declared: u64,
        /// Bytes the stream inflates to, as far as measured.
        actual: Inflated,
    },
    /// The Adler-32 trailer does not match the inflated data.
    #[error("Adler-32 mismatch: the stream stores 0x{stored:08x}, the inflated data sums to 0x{computed:08x}")]
    BadAdler {
        /// The checksum the stream carries.
        stored: u32,
        /// The checksum of the inflated bytes.
        computed: u32,
    },
    /// Bytes follow the end of the zlib stream: the MDU wants the stream to fill the request.
    #[error("{count} B of trailing data after the zlib stream, which ends at byte {end} of {len}")]
    TrailingBytes {
        /// Bytes after the stream's end.
        count: u64,
        /// Where the stream ends, bytes from the start.
        end: u64,
        /// The input's size, bytes.
        len: u64,
    },
    /// An encoder was asked for a level it does not have.
    #[error("{encoder} level {level} is out of range; expected {min}..={max}")]
    BadLevel {
        /// The encoder's name, e.g. `"libdeflate"`.
        encoder: &'static str,
        /// The level asked for.
        level: u32,
        /// The encoder's lowest level.
        min: u32,
        /// The encoder's highest level.
        max: u32,
    },
}
