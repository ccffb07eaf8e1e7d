//! The tile database: every standard tile of every texture, its state and timestamps, in
//! dense per-texture arrays (the sample's hash table; dense arrays are exact and faster).

use sfsim_models::texture::{TextureDesc, TileCoord, TileGrid};
use sfsim_models::units::Time;

/// Where a tile is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not resident, not wanted.
    Absent,
    /// In the Seen Tiles list, waiting for staging space and a pool slot.
    Seen,
    /// Read, decompress and map in flight.
    Loading,
    /// Loaded and mapped, waiting for the next frame's MinMip update.
    Complete,
    /// Visible through the MinMip map.
    Resident,
}

/// A (texture, dense tile index) pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId {
    pub texture: u32,
    pub index: u32,
}

#[derive(Debug, Clone, Copy)]
pub struct TileState {
    pub status: Status,
    /// Pool slot while Loading, Complete or Resident.
    pub slot: u32,
    /// Last frame time feedback asked for the tile (or a finer tile under it).
    pub last_seen: Time,
    /// Consecutive analysed frames without a request (RefCount eviction).
    pub unreferenced_frames: u32,
    /// Whether the current analysis pass referenced it.
    pub referenced: bool,
    pub io_done: bool,
    pub mapped: bool,
    /// Index of its current lifecycle record.
    pub record: u32,
}

impl Default for TileState {
    fn default() -> Self {
        TileState {
            status: Status::Absent,
            slot: u32::MAX,
            last_seen: Time::ZERO,
            unreferenced_frames: 0,
            referenced: false,
            io_done: false,
            mapped: false,
            record: u32::MAX,
        }
    }
}

/// One texture's tiles and its CPU copy of the MinMip map.
pub struct TextureTiles {
    pub desc: TextureDesc,
    /// The desc's tile grid, precomputed for O(1) tile indices.
    pub grid: TileGrid,
    pub states: Vec<TileState>,
    /// 5.3 values, one per mip-0 tile (the MinMip map's CPU copy).
    pub minmip: Vec<u8>,
    pub minmip_dims: (u32, u32),
}

impl TextureTiles {
    pub fn new(desc: TextureDesc) -> Self {
        let dims = desc.min_mip_map_dims();
        let tail = (desc.first_packed_mip() * 8).min(255) as u8;
        TextureTiles {
            desc,
            grid: TileGrid::new(&desc),
            states: vec![TileState::default(); desc.standard_tile_count() as usize],
            minmip: vec![tail; (dims.0 * dims.1) as usize],
            minmip_dims: dims,
        }
    }

    /// The tile at `mip` over MinMip texel (x, y) (one texel per mip-0 tile).
    pub fn tile_over(&self, mip: u32, x: u32, y: u32) -> u32 {
        self.grid.tile_index(TileCoord { mip, x: x >> mip, y: y >> mip })
    }

    /// Recomputes the MinMip texels a tile covers from residency: the finest mip whose
    /// tile — and every coarser tile above it — is Resident. Returns texels rewritten.
    pub fn update_minmip(&mut self, tile: TileCoord) -> u32 {
        let (w, h) = self.minmip_dims;
        let first_packed = self.grid.first_packed_mip();
        let (x0, y0) = (tile.x << tile.mip, tile.y << tile.mip);
        let (x1, y1) = (((tile.x + 1) << tile.mip).min(w), ((tile.y + 1) << tile.mip).min(h));
        let mut n = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                let mut mip = first_packed;
                while mip > 0 && self.states[self.tile_over(mip - 1, x, y) as usize].status == Status::Resident {
                    mip -= 1;
                }
                self.minmip[(y * w + x) as usize] = (mip * 8).min(255) as u8;
                n += 1;
            }
        }
        n
    }
}
