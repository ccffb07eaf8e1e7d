//! The MDU's swizzle stage: byte permutations applied as data is written out. The exact
//! byte layouts are in docs/zlib.md.
//!
//! - **Shuffles** (`Bc1Shuffle` … `Bc5Shuffle`): inside each 64 KiB unit of N blocks, the
//!   packer gathers each BC field into its own plane (BC1: all colour0 words, then all
//!   colour1 words, then all index words — "2+2+4"), because Deflate and BCPack find
//!   more matches among like fields. BC3 is alpha 1+1+6 then colour 2+2+4, BC4 1+1+6, BC5
//!   two BC4 halves each 1+1+6. A trailing unit shorter than 64 KiB is shuffled the same
//!   way with its own N. The MDU turns the planes back into blocks.
//! - **Layouts** (`LinearToMorton`, `MortonToLinear`): row-major blocks ↔ Z-order blocks
//!   inside each 64 KiB tile (128×64 blocks of 8 B or 64×64 of 16 B; see the `morton` module's
//!   definition for the non-square grid). Whole tiles only.
//!
//! [`apply`] is the MDU's direction (what the request's `SwizzleMode` asks the hardware
//! to do); [`unapply`] is its exact inverse, for the packer. Both keep the length.
//!
//! ```
//! use sfsim_models::codec::swizzle::{apply, unapply};
//! use sfsim_models::nvme::SwizzleMode;
//! let blocks: Vec<u8> = (0..64u8).collect(); // eight BC1 blocks
//! let packed = unapply(SwizzleMode::Bc1Shuffle, 8, &blocks).unwrap();
//! assert_eq!(packed[..4], [0, 1, 8, 9]); // colour0 of blocks 0 and 1
//! assert_eq!(apply(SwizzleMode::Bc1Shuffle, 8, &packed).unwrap(), blocks);
//! ```

mod error;
mod morton;
mod shuffle;
#[cfg(test)]
mod tests;

pub use error::SwizzleError;

use crate::nvme::SwizzleMode;
use shuffle::Half;

/// The unit every swizzle works in: one 64 KiB tile.
pub const UNIT_BYTES: usize = crate::texture::TILE_BYTES as usize;

/// What the MDU does for `mode`, on BC data of `block_bytes` (8 or 16) per block:
/// field planes → blocks for shuffles, the named layout change for layouts.
pub fn apply(mode: SwizzleMode, block_bytes: u32, src: &[u8]) -> Result<Vec<u8>, SwizzleError> {
    let mut dst = vec![0; src.len()];
    run(mode, block_bytes, src, &mut dst, Direction::Mdu)?;
    Ok(dst)
}

/// The exact inverse of [`apply`], for the packer: `apply(m, b, &unapply(m, b, x)?) == x`.
pub fn unapply(mode: SwizzleMode, block_bytes: u32, src: &[u8]) -> Result<Vec<u8>, SwizzleError> {
    let mut dst = vec![0; src.len()];
    run(mode, block_bytes, src, &mut dst, Direction::Pack)?;
    Ok(dst)
}

/// [`apply`] into a caller's buffer of the same length (the MDU writes straight to its
/// destination).
pub fn apply_into(mode: SwizzleMode, block_bytes: u32, src: &[u8], dst: &mut [u8]) -> Result<(), SwizzleError> {
    run(mode, block_bytes, src, dst, Direction::Mdu)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Shuffled planes → blocks; or the mode's named layout change.
    Mdu,
    /// Blocks → shuffled planes; or the reverse layout change.
    Pack,
}

fn run(mode: SwizzleMode, block_bytes: u32, src: &[u8], dst: &mut [u8], dir: Direction) -> Result<(), SwizzleError> {
    if block_bytes != 8 && block_bytes != 16 {
        return Err(SwizzleError::BadBlockSize { block_bytes });
    }
    if dst.len() != src.len() {
        return Err(SwizzleError::OutputSize { expected: src.len() as u64, found: dst.len() as u64 });
    }
    let remainder = src.len() % block_bytes as usize;
    if remainder != 0 {
        return Err(SwizzleError::NotWholeBlocks { len: src.len() as u64, block_bytes, remainder: remainder as u64 });
    }
    let halves: &[Half] = match mode {
        SwizzleMode::None => {
            dst.copy_from_slice(src);
            return Ok(());
        }
        SwizzleMode::LinearToMorton | SwizzleMode::MortonToLinear => {
            if !src.len().is_multiple_of(UNIT_BYTES) {
                return Err(SwizzleError::NotWholeTiles { mode, len: src.len() as u64 });
            }
            let to_morton = (mode == SwizzleMode::LinearToMorton) == (dir == Direction::Mdu);
            match (block_bytes, to_morton) {
                (8, true) => morton::to_morton::<8>(src, dst),
                (8, false) => morton::to_linear::<8>(src, dst),
                (_, true) => morton::to_morton::<16>(src, dst),
                (_, false) => morton::to_linear::<16>(src, dst),
            }
            return Ok(());
        }
        SwizzleMode::Bc1Shuffle => shuffle::BC1,
        SwizzleMode::Bc3Shuffle => shuffle::BC3,
        SwizzleMode::Bc4Shuffle => shuffle::BC4,
        SwizzleMode::Bc5Shuffle => shuffle::BC5,
    };
    let expected = 8 * halves.len() as u32;
    if block_bytes != expected {
        return Err(SwizzleError::ModeBlockMismatch { mode, expected, found: block_bytes });
    }
    match (block_bytes, dir) {
        (8, Direction::Mdu) => shuffle::join::<8>(halves, src, dst),
        (8, Direction::Pack) => shuffle::split::<8>(halves, src, dst),
        (_, Direction::Mdu) => shuffle::join::<16>(halves, src, dst),
        (_, Direction::Pack) => shuffle::split::<16>(halves, src, dst),
    }
    Ok(())
}
