//! What can go wrong when the functional MDU decodes (or packs) a request's bytes: each
//! variant names the stage and carries the offending values.

use crate::codec::bcpack::BcpackError;
use crate::codec::swizzle::SwizzleError;
use crate::codec::zlib::ZlibError;
use crate::nvme::SwizzleMode;

/// Why a request's bytes could not be decoded (or packed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MduError {
    #[error("BcpackMode {0} is out of range; expected 0 (none) or 1..=7 (BC1..BC5, BC6H, BC7)")]
    /// The BCPack mode number is not one the MDU knows.
    BcpackMode(u32),
    #[error("SwizzleMode {0} is out of range; expected 0..={max}", max = SwizzleMode::MAX)]
    /// The swizzle mode number is not one the MDU knows.
    SwizzleMode(u32),
    #[error("zlib stage: {0}")]
    /// The zlib stage rejected its input.
    Zlib(#[from] ZlibError),
    #[error("BCPack stage: {0}")]
    /// The BCPack stage rejected its input.
    Bcpack(#[from] BcpackError),
    #[error("swizzle stage: {0}")]
    /// The swizzle stage rejected its input.
    Swizzle(#[from] SwizzleError),
    #[error("the request asks for BcpackMode {requested} but the BCPack stream is mode {found}")]
    /// The BCPack stream's header names another mode than the request.
    BcpackModeMismatch {
        /// The request's BCPack mode.
        requested: u32,
        /// The mode in the stream's header.
        found: u8,
    },
    #[error("{stage}: {found} B in, but the request declares {expected} B out and the stage keeps the size")]
    /// A size-keeping stage got another size than the request declares.
    SizeMismatch {
        /// The stage's name.
        stage: &'static str,
        /// The size the request declares.
        expected: u64,
        /// The size the stage got.
        found: u64,
    },
    #[error("{what} of {value} B is more than the MDU's {max} B limit")]
    /// A size beyond the MDU's limit.
    TooLarge {
        /// Which size.
        what: &'static str,
        /// Its value in bytes.
        value: u64,
        /// The limit in bytes.
        max: u64,
    },
    #[error(
        "swizzle mode {mode:?} needs the BC block size: {block_bytes} is not 8 or 16 and no BCPack mode implies it"
    )]
    /// A swizzle that needs the BC block size got neither 8 nor 16 and no BCPack mode.
    BlockBytes {
        /// The swizzle mode.
        mode: SwizzleMode,
        /// The block size given.
        block_bytes: u32,
    },
}
