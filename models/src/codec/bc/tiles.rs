//! Cutting a block-compressed mip surface into 64 KiB SFS tiles and putting it back.
//!
//! Tile shape is [`BcFormat::tile_texels`] (SPEC §3): 512x256 texels = 128x64 blocks for
//! BC1/BC4, 256x256 texels = 64x64 blocks for the 16-byte formats. Tiles are listed row-major
//! (tile (tx, ty) at index `ty * tiles_x + tx`, the order of [`TextureDesc::tiles`] within a
//! mip), and inside a tile the blocks are row-major too.
//!
//! Edge tiles: a tile that reaches past the surface's right or bottom edge is padded with
//! zero bytes to the full 64 KiB, so every tile is exactly [`TILE_BYTES`] — the size a
//! reserved-resource tile occupies and the `UncompressedSize` XBTC records for SFS tiles. The
//! zero blocks decode to opaque black (BC1), transparent black (BC2, BC3, BC7's reserved
//! mode) or zero (BC4, BC5, BC6H); they lie outside the mip and are never sampled, and
//! [`tiles_to_surface`] drops them again.
//!
//! [`TextureDesc::tiles`]: crate::texture::TextureDesc::tiles

use super::surface::check_surface;
use super::BcError;
use crate::texture::{BcFormat, BLOCK_DIM, TILE_BYTES};

/// Tiles across and down for a `width` x `height` `format` surface.
pub fn tile_grid(format: BcFormat, width: u32, height: u32) -> (u32, u32) {
    let (tw, th) = format.tile_texels();
    (width.div_ceil(tw), height.div_ceil(th))
}

/// Cuts a `width` x `height` surface of `format` blocks (row-major) into 64 KiB tiles,
/// row-major, edge tiles zero-padded.
pub fn surface_to_tiles(format: BcFormat, width: u32, height: u32, blocks: &[u8]) -> Result<Vec<Vec<u8>>, BcError> {
    let (blocks_x, blocks_y) = check_surface(format, width, height, blocks.len())?;
    let layout = Layout::new(format, blocks_x, blocks_y);
    let mut tiles = vec![vec![0u8; TILE_BYTES as usize]; layout.tile_count()];
    layout.for_each_row(|tile, tile_offset, surface_offset, len| {
        tiles[tile][tile_offset..tile_offset + len].copy_from_slice(&blocks[surface_offset..surface_offset + len]);
    });
    Ok(tiles)
}

/// Reassembles the row-major surface from [`surface_to_tiles`]' output. Each tile must be
/// exactly 64 KiB and there must be exactly `tile_grid` tiles; padding bytes are ignored.
pub fn tiles_to_surface<T: AsRef<[u8]>>(
    format: BcFormat,
    width: u32,
    height: u32,
    tiles: &[T],
) -> Result<Vec<u8>, BcError> {
    let blocks_len = format.surface_bytes(width, height) as usize;
    let (blocks_x, blocks_y) = check_surface(format, width, height, blocks_len)?;
    let layout = Layout::new(format, blocks_x, blocks_y);
    if tiles.len() != layout.tile_count() {
        let (tiles_x, tiles_y) = tile_grid(format, width, height);
        return Err(BcError::TileCount {
            format,
            width,
            height,
            tiles_x,
            tiles_y,
            expected: layout.tile_count(),
            found: tiles.len(),
        });
    }
    for (index, tile) in tiles.iter().enumerate() {
        let found = tile.as_ref().len();
        if found != TILE_BYTES as usize {
            return Err(BcError::TileLength { index, expected: TILE_BYTES as usize, found });
        }
    }
    let mut blocks = vec![0u8; blocks_len];
    layout.for_each_row(|tile, tile_offset, surface_offset, len| {
        blocks[surface_offset..surface_offset + len]
            .copy_from_slice(&tiles[tile].as_ref()[tile_offset..tile_offset + len]);
    });
    Ok(blocks)
}

/// The block geometry shared by both directions.
struct Layout {
    block_bytes: usize,
    blocks_x: usize,
    blocks_y: usize,
    /// Tile edge in blocks.
    tile_bx: usize,
    tile_by: usize,
    tiles_x: usize,
    tiles_y: usize,
}

impl Layout {
    fn new(format: BcFormat, blocks_x: u32, blocks_y: u32) -> Layout {
        let (tw, th) = format.tile_texels();
        let (tile_bx, tile_by) = ((tw / BLOCK_DIM) as usize, (th / BLOCK_DIM) as usize);
        let (blocks_x, blocks_y) = (blocks_x as usize, blocks_y as usize);
        Layout {
            block_bytes: format.block_bytes() as usize,
            blocks_x,
            blocks_y,
            tile_bx,
            tile_by,
            tiles_x: blocks_x.div_ceil(tile_bx),
            tiles_y: blocks_y.div_ceil(tile_by),
        }
    }

    fn tile_count(&self) -> usize {
        self.tiles_x * self.tiles_y
    }

    /// Calls `f(tile index, byte offset in tile, byte offset in surface, bytes)` for every
    /// run of blocks that is one block row inside one tile.
    fn for_each_row(&self, mut f: impl FnMut(usize, usize, usize, usize)) {
        for by in 0..self.blocks_y {
            let (ty, row_in_tile) = (by / self.tile_by, by % self.tile_by);
            for tx in 0..self.tiles_x {
                let bx0 = tx * self.tile_bx;
                let run = (self.blocks_x - bx0).min(self.tile_bx);
                f(
                    ty * self.tiles_x + tx,
                    row_in_tile * self.tile_bx * self.block_bytes,
                    (by * self.blocks_x + bx0) * self.block_bytes,
                    run * self.block_bytes,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A surface whose every block holds its own (bx, by) coordinates, so any misplaced block
    /// is detectable.
    fn labelled(format: BcFormat, width: u32, height: u32) -> Vec<u8> {
        let bb = format.block_bytes() as usize;
        let (bx_n, by_n) = (width.div_ceil(4), height.div_ceil(4));
        let mut out = Vec::new();
        for by in 0..by_n {
            for bx in 0..bx_n {
                let mut b = vec![0xEEu8; bb];
                b[0..2].copy_from_slice(&(bx as u16).to_le_bytes());
                b[2..4].copy_from_slice(&(by as u16).to_le_bytes());
                out.extend(b);
            }
        }
        out
    }

    #[test]
    fn tile_shapes_follow_the_spec() {
        // 2048² BC7 mip 0: 8x8 tiles of 64x64 blocks; BC1 4096²: 8x16 tiles of 128x64 blocks.
        assert_eq!(tile_grid(BcFormat::Bc7, 2048, 2048), (8, 8));
        assert_eq!(tile_grid(BcFormat::Bc1, 4096, 4096), (8, 16));
        let blocks = labelled(BcFormat::Bc1, 1024, 512);
        let tiles = surface_to_tiles(BcFormat::Bc1, 1024, 512, &blocks).unwrap();
        assert_eq!(tiles.len(), 2 * 2);
        // Tile (1, 1) = index 3 starts with block (128, 64); its second block row starts with
        // block (128, 65), 128 blocks * 8 B in.
        let at = |t: &Vec<u8>, off: usize| {
            (u16::from_le_bytes([t[off], t[off + 1]]), u16::from_le_bytes([t[off + 2], t[off + 3]]))
        };
        assert_eq!(at(&tiles[3], 0), (128, 64));
        assert_eq!(at(&tiles[3], 128 * 8), (128, 65));
        assert_eq!(at(&tiles[1], 127 * 8), (255, 0));
        let tiles = surface_to_tiles(BcFormat::Bc5, 512, 256, &labelled(BcFormat::Bc5, 512, 256)).unwrap();
        assert_eq!(tiles.len(), 2);
        assert_eq!(at(&tiles[1], 64 * 16), (64, 1));
    }

    #[test]
    fn partial_edge_tiles_are_zero_padded_to_64_kib() {
        // 300x100 BC7 = 75x25 blocks: 2x1 tiles; tile 1 holds 11 of its 64 block columns and 25
        // of its 64 rows.
        let blocks = labelled(BcFormat::Bc7, 300, 100);
        let tiles = surface_to_tiles(BcFormat::Bc7, 300, 100, &blocks).unwrap();
        assert_eq!(tiles.len(), 2);
        assert!(tiles.iter().all(|t| t.len() == TILE_BYTES as usize));
        let t = &tiles[1];
        for row in 0..64 {
            for col in 0..64 {
                let b = &t[(row * 64 + col) * 16..][..16];
                let inside = row < 25 && col < 11;
                assert_eq!(b.iter().all(|&v| v == 0), !inside, "row {row} col {col}");
            }
        }
    }

    #[test]
    fn small_mip_is_one_padded_tile() {
        let blocks = labelled(BcFormat::Bc1, 4, 4);
        let tiles = surface_to_tiles(BcFormat::Bc1, 4, 4, &blocks).unwrap();
        assert_eq!(tiles.len(), 1);
        assert_eq!(&tiles[0][..8], &blocks[..]);
        assert!(tiles[0][8..].iter().all(|&v| v == 0));
    }

    #[test]
    fn bad_tile_inputs_are_errors() {
        let tiles = vec![vec![0u8; TILE_BYTES as usize]; 3];
        let err = tiles_to_surface(BcFormat::Bc7, 512, 256, &tiles).unwrap_err();
        assert_eq!(err.to_string(), "Bc7 surface 512x256 is 2x1 tiles = 2; found 3 tiles");
        let tiles = vec![vec![0u8; TILE_BYTES as usize], vec![0u8; 100]];
        assert_eq!(
            tiles_to_surface(BcFormat::Bc7, 512, 256, &tiles),
            Err(BcError::TileLength { index: 1, expected: TILE_BYTES as usize, found: 100 })
        );
        assert!(matches!(surface_to_tiles(BcFormat::Bc1, 8, 8, &[0u8; 31]), Err(BcError::SurfaceLength { .. })));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn round_trip(format_idx in 0usize..7, w in 1u32..1100, h in 1u32..600) {
            let format = BcFormat::all()[format_idx];
            let blocks = labelled(format, w, h);
            let tiles = surface_to_tiles(format, w, h, &blocks).unwrap();
            let (tx, ty) = tile_grid(format, w, h);
            prop_assert_eq!(tiles.len(), (tx * ty) as usize);
            prop_assert_eq!(tiles_to_surface(format, w, h, &tiles).unwrap(), blocks);
        }

        /// Any bytes in, any tiles back: no panics, and the non-padding bytes survive.
        #[test]
        fn random_tiles_never_panic(format_idx in 0usize..7, w in 1u32..600, h in 1u32..300, fill in any::<u8>()) {
            let format = BcFormat::all()[format_idx];
            let (tx, ty) = tile_grid(format, w, h);
            let tiles = vec![vec![fill; TILE_BYTES as usize]; (tx * ty) as usize];
            let blocks = tiles_to_surface(format, w, h, &tiles).unwrap();
            prop_assert!(blocks.iter().all(|&b| b == fill));
            prop_assert_eq!(blocks.len() as u64, format.surface_bytes(w, h));
        }
    }
}
