//! Per-load lifecycle times of a tile (tiles.csv).

use super::TileId;
use sfsim_models::units::Time;

/// One load of one tile: when each stage of its life happened (one row of tiles.csv).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileRecord {
    /// The tile.
    pub tile: TileId,
    /// Render start of the frame whose feedback first asked for it.
    pub requested: Time,
    /// The feedback pass that found it began (feedback read back and the thread free).
    pub analysed: Option<Time>,
    /// Its DirectStorage request was enqueued.
    pub submitted: Option<Time>,
    /// Its first IO entered the drive.
    pub issued: Option<Time>,
    /// Last byte read from the drive.
    pub read: Option<Time>,
    /// Data in the pool (MDU done).
    pub decompressed: Option<Time>,
    /// UpdateTileMappings finished.
    pub mapped: Option<Time>,
    /// Visible through the GPU's MinMip map.
    pub visible: Option<Time>,
    /// Unmapped and freed.
    pub evicted: Option<Time>,
}

/// A stage of a visible tile's latency: its name in stats, what it spans, and its length.
pub struct LatencyStage {
    /// The stat name's part: `tile.stage.<name>.mean`.
    pub name: &'static str,
    /// From which event to which.
    pub spans: &'static str,
    /// Its length for a record that became visible.
    pub length: fn(&TileRecord) -> Option<Time>,
}

/// The stages of a tile's latency, in order; for a visible tile they add up to its latency
/// (first requested → visible).
pub const LATENCY_STAGES: [LatencyStage; 7] = [
    LatencyStage {
        name: "readback",
        spans: "feedback written → the feedback pass that found it began (readback frames, resolve and copy, \
                the feedback thread busy)",
        length: |r| Some(r.analysed?.saturating_sub(r.requested)),
    },
    LatencyStage {
        name: "cpu_wait",
        spans: "pass began → load submitted (analysis, sort, earlier submissions, waiting in Seen Tiles)",
        length: |r| Some(r.submitted?.saturating_sub(r.analysed?)),
    },
    LatencyStage {
        name: "io_queue",
        spans: "load submitted → its first IO entered the drive (staging space, queue depth)",
        length: |r| Some(r.issued?.saturating_sub(r.submitted?)),
    },
    LatencyStage {
        name: "drive",
        spans: "first IO entered the drive → last byte read",
        length: |r| Some(r.read?.saturating_sub(r.issued?)),
    },
    LatencyStage {
        name: "mdu",
        spans: "last byte read → data in the pool (MDU queue and decompression)",
        length: |r| Some(r.decompressed?.saturating_sub(r.read?)),
    },
    LatencyStage {
        name: "mapping",
        spans: "data in the pool → UpdateTileMappings done (0 when the mapping finished first)",
        length: |r| Some(r.mapped?.saturating_sub(r.decompressed?)),
    },
    LatencyStage {
        name: "visibility",
        spans: "data and mapping ready → visible through the GPU MinMip map (polling, MinMip update and copy, \
                the next render)",
        length: |r| Some(r.visible?.saturating_sub(r.decompressed?.max(r.mapped?))),
    },
];

impl TileRecord {
    /// A record of a tile first asked for by feedback written at `requested`.
    pub fn new(tile: TileId, requested: Time) -> Self {
        TileRecord {
            tile,
            requested,
            analysed: None,
            submitted: None,
            issued: None,
            read: None,
            decompressed: None,
            mapped: None,
            visible: None,
            evicted: None,
        }
    }
}
