//! Per-load lifecycle times of a tile (tiles.csv).

use super::TileId;
use sfsim_models::units::Time;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileRecord {
    pub tile: TileId,
    /// Frame time of the feedback that first asked for it (read back and analysed
    /// `readback_frames` later).
    pub requested: Time,
    pub submitted: Option<Time>,
    /// Last byte read from the drive.
    pub read: Option<Time>,
    /// Data in the pool (MDU done).
    pub decompressed: Option<Time>,
    /// UpdateTileMappings finished.
    pub mapped: Option<Time>,
    /// Visible through the MinMip map.
    pub visible: Option<Time>,
    pub evicted: Option<Time>,
}

impl TileRecord {
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
