use crate::nvme::SwizzleMode;

/// Why the swizzle stage refused its input. Each variant names the sizes involved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwizzleError {
    #[error("BC block size {block_bytes} B is not supported; expected 8 (BC1/BC4) or 16 (BC2/3/5/6H/7)")]
    BadBlockSize { block_bytes: u32 },
    #[error("{mode:?} works on {expected}-byte blocks, but the data has {found}-byte blocks")]
    ModeBlockMismatch { mode: SwizzleMode, expected: u32, found: u32 },
    #[error("{len} B is not a whole number of {block_bytes}-byte BC blocks ({remainder} B left over)")]
    NotWholeBlocks { len: u64, block_bytes: u32, remainder: u64 },
    #[error("{mode:?} reorders whole 64 KiB tiles; {len} B is {} tile(s) + {} B", len / 65_536, len % 65_536)]
    NotWholeTiles { mode: SwizzleMode, len: u64 },
    #[error("output buffer is {found} B; the swizzle writes exactly {expected} B")]
    OutputSize { expected: u64, found: u64 },
}
