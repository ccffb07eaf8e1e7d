use crate::nvme::SwizzleMode;

/// Why the swizzle stage refused its input. Each variant names the sizes involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwizzleError {
    /// The block size is neither of the BC sizes.
    #[error("BC block size {block_bytes} B is not supported; expected 8 (BC1/BC4) or 16 (BC2/3/5/6H/7)")]
    BadBlockSize {
        /// The block size given, bytes.
        block_bytes: u32,
    },
    /// A shuffle made for one block size was given data of the other.
    #[error("{mode:?} works on {expected}-byte blocks, but the data has {found}-byte blocks")]
    ModeBlockMismatch {
        /// The swizzle asked for.
        mode: SwizzleMode,
        /// The block size the mode's format has, bytes.
        expected: u32,
        /// The block size given, bytes.
        found: u32,
    },
    /// The data does not end on a block boundary.
    #[error("{len} B is not a whole number of {block_bytes}-byte BC blocks ({remainder} B left over)")]
    NotWholeBlocks {
        /// Bytes given.
        len: u64,
        /// The block size, bytes.
        block_bytes: u32,
        /// `len % block_bytes`.
        remainder: u64,
    },
    /// A Morton layout change was given data that is not whole 64 KiB tiles.
    #[error("{mode:?} reorders whole 64 KiB tiles; {len} B is {} tile(s) + {} B", len / 65_536, len % 65_536)]
    NotWholeTiles {
        /// The swizzle asked for (`LinearToMorton` or `MortonToLinear`).
        mode: SwizzleMode,
        /// Bytes given.
        len: u64,
    },
    /// The caller's output buffer is not the input's length.
    #[error("output buffer is {found} B; the swizzle writes exactly {expected} B")]
    OutputSize {
        /// The input's length, bytes.
        expected: u64,
        /// The output buffer's length, bytes.
        found: u64,
    },
}
