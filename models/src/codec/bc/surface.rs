//! Whole surfaces: a `width` x `height` texel image stored as blocks in row-major order
//! (block (bx, by) at `(by * blocks_x + bx) * block_bytes`), the layout of a linear BC mip.

use super::block::decode_block;
use super::BcError;
use crate::texture::{BcFormat, BLOCK_DIM, MAX_DIMENSION};

/// Blocks across and down for a `width` x `height` surface, after checking both are in
/// 1..=[`MAX_DIMENSION`].
pub(super) fn block_grid(width: u32, height: u32) -> Result<(u32, u32), BcError> {
    for (axis, value) in [("width", width), ("height", height)] {
        if value == 0 || value > MAX_DIMENSION {
            return Err(BcError::Dimension { axis, value, max: MAX_DIMENSION });
        }
    }
    Ok((width.div_ceil(BLOCK_DIM), height.div_ceil(BLOCK_DIM)))
}

/// Checks that `len` bytes are exactly the blocks of a `width` x `height` `format` surface and
/// returns the block grid.
pub(super) fn check_surface(format: BcFormat, width: u32, height: u32, len: usize) -> Result<(u32, u32), BcError> {
    let (blocks_x, blocks_y) = block_grid(width, height)?;
    let expected = format.surface_bytes(width, height);
    if len as u64 != expected {
        return Err(BcError::SurfaceLength { format, width, height, blocks_x, blocks_y, expected, found: len as u64 });
    }
    Ok((blocks_x, blocks_y))
}

/// Decodes a whole `format` surface of `width` x `height` texels to RGBA8, `width * height * 4`
/// bytes row-major. Texels of edge blocks past the surface (when a size is not a multiple of
/// 4) are dropped. Per-format channel layout as in [`decode_block`](super::decode_block).
pub fn decode_surface(format: BcFormat, width: u32, height: u32, blocks: &[u8]) -> Result<Vec<u8>, BcError> {
    let (blocks_x, _) = check_surface(format, width, height, blocks.len())?;
    let (w, h) = (width as usize, height as usize);
    let mut rgba = vec![0u8; w * h * 4];
    let block_bytes = format.block_bytes() as usize;
    // One block row of the surface fills (up to) four texel rows of the image.
    let block_rows = blocks.chunks_exact(blocks_x as usize * block_bytes);
    for (block_row, image_rows) in block_rows.zip(rgba.chunks_mut(w * 4 * 4)) {
        let rows = image_rows.len() / (w * 4);
        for (bx, block) in block_row.chunks_exact(block_bytes).enumerate() {
            let texels = decode_block(format, block)?;
            let x0 = bx * 4;
            let cols = (w - x0).min(4);
            for row in 0..rows {
                let dst = (row * w + x0) * 4;
                image_rows[dst..dst + cols * 4].copy_from_slice(&texels[row * 16..row * 16 + cols * 4]);
            }
        }
    }
    Ok(rgba)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn surface_length_error_names_the_grid() {
        let err = decode_surface(BcFormat::Bc7, 100, 60, &[0u8; 5984]).unwrap_err();
        assert_eq!(err.to_string(), "Bc7 surface 100x60 is 25x15 blocks = 6000 B; found 5984 B",);
        assert!(matches!(
            decode_surface(BcFormat::Bc1, 0, 4, &[]),
            Err(BcError::Dimension { axis: "width", value: 0, .. })
        ));
        assert!(matches!(
            decode_surface(BcFormat::Bc1, 4, MAX_DIMENSION + 1, &[]),
            Err(BcError::Dimension { axis: "height", .. })
        ));
    }

    #[test]
    fn blocks_land_row_major_and_edges_are_cropped() {
        // 6x5 texels of BC4 = 2x2 blocks; block i is a constant 10 * (i + 1).
        let mut blocks = Vec::new();
        for i in 0..4u8 {
            blocks.extend_from_slice(&[10 * (i + 1), 10 * (i + 1), 0, 0, 0, 0, 0, 0]);
        }
        let rgba = decode_surface(BcFormat::Bc4, 6, 5, &blocks).unwrap();
        assert_eq!(rgba.len(), 6 * 5 * 4);
        let red = |x: usize, y: usize| rgba[(y * 6 + x) * 4];
        assert_eq!((red(0, 0), red(3, 3), red(4, 0), red(5, 3), red(0, 4), red(5, 4)), (10, 10, 20, 20, 30, 40));
    }

    #[test]
    fn per_block_and_surface_decode_agree() {
        // A 4x4 surface is exactly one block.
        let block: Vec<u8> = (0..16u8).map(|i| i.wrapping_mul(37).wrapping_add(1)).collect();
        for format in BcFormat::all() {
            let b = &block[..format.block_bytes() as usize];
            assert_eq!(decode_surface(format, 4, 4, b).unwrap(), decode_block(format, b).unwrap().to_vec());
        }
    }

    proptest! {
        #[test]
        fn random_surfaces_never_panic(
            w in 1u32..40, h in 1u32..40, seed in any::<u64>(), format_idx in 0usize..7, trim in 0usize..3,
        ) {
            let format = BcFormat::all()[format_idx];
            let len = format.surface_bytes(w, h) as usize;
            let mut state = seed | 1;
            let bytes: Vec<u8> = (0..len).map(|_| {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17;
                state as u8
            }).collect();
            let out = decode_surface(format, w, h, &bytes);
            prop_assert_eq!(out.map(|v| v.len()), Ok((w * h * 4) as usize));
            // A truncated or extended buffer is an error, never a panic.
            let short = &bytes[..len - trim.min(len)];
            prop_assert_eq!(decode_surface(format, w, h, short).is_ok(), trim == 0);
            let mut long = bytes.clone();
            long.extend(std::iter::repeat_n(0u8, trim));
            prop_assert_eq!(decode_surface(format, w, h, &long).is_ok(), trim == 0);
        }
    }
}
