//! Per-load lifecycle times of a tile (tiles.csv).

use super::TileId;
use sfsim_models::units::Time;

/// One load of one tile: when each stage of its life happened (one row of tiles.csv).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileRecord {
    /// The tile.
    pub tile: TileId,
    /// Frame time of the feedback that first asked for it (read back and analysed
    /// `readback_frames` later).
    pub requested: Time,
    /// Its DirectStorage request was enqueued.
    pub submitted: Option<Time>,
    /// Last byte read from the drive.
    pub read: Option<Time>,
    /// Data in the pool (MDU done).
    pub decompressed: Option<Time>,
    /// UpdateTileMappings finished.
    pub mapped: Option<Time>,
    /// Visible through the MinMip map.
    pub visible: Option<Time>,
    /// Unmapped and freed.
    pub evicted: Option<Time>,
}

impl TileRecord {
    /// A record of a tile first asked for by feedback written at `requested`.
    pub fn new(tile: TileId, requested: Time) -> Self {
        TileRecord {
            tile,
            requested,
            submitted: None,
            read: None,
            decompressed: None,
            mapped: None,
            visible: None,
            evicted: None,
        }
    }
}
