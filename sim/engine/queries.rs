//! The engine's state as its owner reads it: its parameters and policies, the tile
//! database, pool and staging occupancy, residency and the CPU MinMip copy, for the run's
//! per-frame rows, its stats and tests. Nothing here changes the engine.

use super::{Engine, EngineConfig, Policies, TileDb, TileId, TileRecord, TileState};
use crate::scene::FeedbackRenderer;
use sfsim_models::gpu::Lod53;
use sfsim_models::texture::TileCoord;

impl Engine {
    /// The engine's parameters.
    pub fn config(&self) -> &EngineConfig {
        &self.cfg
    }

    /// The policies in use.
    pub fn policies(&self) -> &Policies {
        &self.policies
    }

    /// Initial MinMip maps (the packed tail) into the renderer: SPEC §5 step 1.
    pub fn init_minmip(&self, renderer: &mut FeedbackRenderer) {
        self.minmip.copy_all_to_gpu(renderer);
    }

    /// The tile database (states and lifecycle records).
    pub fn tiles(&self) -> &TileDb {
        &self.db
    }

    /// Every load's lifecycle record (tiles.csv), in load order, read back from the spill
    /// file where finished ones went: for tests and small runs (tiles.csv reads them
    /// through [`TileDb::records`] one at a time).
    pub fn records(&self) -> Result<Vec<TileRecord>, crate::spill::SpillError> {
        self.db.records().read().collect()
    }

    /// Where finished lifecycle records are spilled (the system's temporary folder when
    /// None).
    pub fn set_spill_dir(&mut self, dir: Option<std::path::PathBuf>) {
        self.db.records_mut().set_spill_dir(dir);
    }

    /// The run is over: every lifecycle record is final (its stats complete).
    pub fn finish_records(&mut self) {
        self.db.records_mut().finish_all();
    }

    /// The first error writing finished records out, if any (the run stops on it).
    pub fn take_spill_error(&mut self) -> Option<crate::spill::SpillError> {
        self.db.records_mut().take_error()
    }

    /// A tile's state.
    pub fn state(&self, id: TileId) -> &TileState {
        self.db.state(id)
    }

    /// Tile coordinates of a database id.
    pub fn tile_coord(&self, id: TileId) -> TileCoord {
        self.db.coord(id)
    }

    /// The tile database (read-only: states, coordinates, lifecycle records).
    pub fn tile_db(&self) -> &TileDb {
        &self.db
    }

    /// 64 KiB slots in the pool.
    pub fn pool_capacity(&self) -> u32 {
        self.pool.capacity()
    }

    /// Pool slots held by loading, complete or resident tiles.
    pub fn pool_used(&self) -> u32 {
        self.pool.used()
    }

    /// Staging bytes held by tile loads in flight.
    pub fn staging_used(&self) -> u64 {
        self.requests.staging_used()
    }

    /// Tiles submitted and not yet in the pool.
    pub fn tiles_in_flight(&self) -> usize {
        self.requests.tiles()
    }

    /// Resident tiles per mip (index 15 gathers mips ≥ 15).
    pub fn residency_per_mip(&self) -> Vec<u64> {
        self.lists.resident.per_mip()
    }

    /// MinMip value the CPU copy holds at a texel.
    pub fn minmip_value(&self, texture: u32, x: u32, y: u32) -> Lod53 {
        self.minmip.value(texture, x, y)
    }

    /// Width and height of a texture's MinMip map.
    pub fn minmip_dims(&self, texture: u32) -> (u32, u32) {
        self.minmip.dims(texture)
    }

    /// Textures the engine streams.
    pub fn texture_count(&self) -> u32 {
        self.db.texture_count()
    }
}
