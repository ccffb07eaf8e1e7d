//! The tile database: every standard tile of every texture, its state and timestamps, in
//! dense per-texture arrays (the sample's hash table; dense arrays are exact and faster),
//! and each load's lifecycle record (tiles.csv).
//!
//! Policies read it through [`TileDb`]'s accessors; only the engine changes it.

use super::lifecycle::TileRecord;
use super::records::RecordStore;
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

impl Status {
    /// Whether a tile in this state holds a pool slot.
    pub fn holds_slot(self) -> bool {
        matches!(self, Status::Loading | Status::Complete | Status::Resident)
    }
}

/// A (texture, dense tile index) pair: a tile's key in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId {
    /// Texture index in the scene.
    pub texture: u32,
    /// Dense index of the standard tile in its texture ([`TextureDesc::tile_index`]).
    pub index: u32,
}

/// One tile's state in the database.
#[derive(Debug, Clone, Copy)]
pub struct TileState {
    /// Where the tile is in its life.
    pub status: Status,
    /// Pool slot while Loading, Complete or Resident.
    pub slot: Option<u32>,
    /// Last time a feedback pass found it requested (or a finer tile under it): its expiry
    /// timestamp, refreshed at analysis as the sample does.
    pub last_seen: Time,
    /// Whether the analysis pass in progress referenced it (so each tile is listed once).
    pub touched: bool,
    /// The load's data is in the pool.
    pub io_done: bool,
    /// UpdateTileMappings for the load finished.
    pub mapped: bool,
    /// Slot of its current lifecycle record in [`TileDb::records`] (an unfinished one).
    pub record: Option<u32>,
    /// Consecutive failed loads (`hardware.faults`); back to 0 once a load succeeds.
    pub failures: u8,
    /// After a failure: not submitted again before this time (its back-off).
    pub retry_after: Time,
    /// The load in flight failed; its slot is freed once its mapping call is done.
    pub failed: bool,
}

impl Default for TileState {
    fn default() -> Self {
        TileState {
            status: Status::Absent,
            slot: None,
            last_seen: Time::ZERO,
            touched: false,
            io_done: false,
            mapped: false,
            record: None,
            failures: 0,
            retry_after: Time::ZERO,
            failed: false,
        }
    }
}

/// One texture's tiles.
struct TextureTiles {
    pub desc: TextureDesc,
    /// The desc's tile grid, precomputed for O(1) tile indices.
    pub grid: TileGrid,
    pub states: Vec<TileState>,
}

/// Every tile's state, plus the lifecycle record of every load.
pub struct TileDb {
    textures: Vec<TextureTiles>,
    records: RecordStore,
}

impl TileDb {
    pub(super) fn new(textures: &[TextureDesc]) -> TileDb {
        let textures = textures
            .iter()
            .map(|d| TextureTiles {
                desc: *d,
                grid: TileGrid::new(d),
                states: vec![TileState::default(); d.standard_tile_count() as usize],
            })
            .collect();
        TileDb { textures, records: RecordStore::default() }
    }

    /// Textures in the database (the scene's, in scene order).
    pub fn texture_count(&self) -> u32 {
        self.textures.len() as u32
    }

    /// A texture's description.
    pub fn desc(&self, texture: u32) -> &TextureDesc {
        &self.textures[texture as usize].desc
    }

    /// A texture's tile grid (O(1) tile indices).
    pub fn grid(&self, texture: u32) -> &TileGrid {
        &self.textures[texture as usize].grid
    }

    /// The tile's state.
    pub fn state(&self, id: TileId) -> &TileState {
        &self.textures[id.texture as usize].states[id.index as usize]
    }

    pub(super) fn state_mut(&mut self, id: TileId) -> &mut TileState {
        &mut self.textures[id.texture as usize].states[id.index as usize]
    }

    /// Mip and position of a tile.
    pub fn coord(&self, id: TileId) -> TileCoord {
        self.textures[id.texture as usize].grid.tile_from_index(id.index)
    }

    /// The id of `coord` in `texture` (a standard tile: below the packed tail).
    pub fn id(&self, texture: u32, coord: TileCoord) -> TileId {
        TileId { texture, index: self.grid(texture).tile_index(coord) }
    }

    /// Every load's lifecycle record: the unfinished ones, what the finished ones add to
    /// the stats, and (once the run is over) all of them in the order tiles were first
    /// requested.
    pub fn records(&self) -> &RecordStore {
        &self.records
    }

    pub(super) fn records_mut(&mut self) -> &mut RecordStore {
        &mut self.records
    }

    /// The tile's current lifecycle record.
    pub(super) fn record_mut(&mut self, id: TileId) -> Option<&mut TileRecord> {
        let r = self.state(id).record?;
        self.records.get_mut(r)
    }

    /// Starts a lifecycle record for the tile's new request (the one it had is final).
    pub(super) fn open_record(&mut self, id: TileId, requested: Time) {
        let r = self.records.open(TileRecord::new(id, requested));
        if let Some(old) = self.state_mut(id).record.replace(r) {
            self.records.finish(old);
        }
    }

    /// The tile no longer has a lifecycle record (its last one is final).
    pub(super) fn unlink_record(&mut self, id: TileId) {
        if let Some(old) = self.state_mut(id).record.take() {
            self.records.finish(old);
        }
    }

    /// Back to Absent, keeping only when it was last seen.
    pub(super) fn forget(&mut self, id: TileId) {
        self.unlink_record(id);
        let last_seen = self.state(id).last_seen;
        *self.state_mut(id) = TileState { last_seen, ..TileState::default() };
    }

    /// Resident tiles per mip (index 15 gathers mips ≥ 15).
    pub fn residency_per_mip(&self, resident: &[TileId]) -> Vec<u64> {
        let mut per = vec![0u64; 16];
        for id in resident {
            per[(self.coord(*id).mip as usize).min(15)] += 1;
        }
        per
    }
}
