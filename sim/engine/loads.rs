//! DirectStorage requests the engine has in flight: packed tails read at creation and
//! tile loads (one request per tile), keyed by the tag the IO path hands back on
//! completion, and the staging memory they hold (compressed bytes and the zlib → BCPack
//! intermediate, as the IO path reserves them).

use super::content::TileStream;
use super::tiles::TileId;
use sfsim_models::nvme::{Request, Source};
use sfsim_models::texture::TILE_BYTES;
use sfsim_models::units::{Bytes, Time};
use std::collections::HashMap;

/// What one in-flight request brings into memory.
pub(super) enum InFlight {
    /// A texture's packed mip tail (outside the pool, always resident), and how many
    /// times its reads failed before this one.
    Tail { texture: u32, failures: u32 },
    /// A standard tile for its pool slot, and the staging bytes its request holds.
    Tile { tile: TileId, staging: u64 },
}

/// One request for the streams of `streams`, read back to back from the first one's offset
/// and decompressed with its options (a packed tail's tiles, stored as one stream; a
/// standard tile is a request of its own).
pub(super) fn request_for(streams: &[TileStream]) -> Request {
    let sum = |f: fn(&TileStream) -> u64| streams.iter().map(f).sum::<u64>();
    Request {
        source: Source::File { offset: streams[0].offset },
        source_size: Bytes(sum(|s| s.compressed.0)),
        intermediate_size: Bytes(sum(|s| s.intermediate.0)),
        destination_size: Bytes(TILE_BYTES * streams.len() as u64),
        options: streams[0].options,
        fill: false,
    }
}

#[derive(Default)]
pub(super) struct InFlightRequests {
    by_tag: HashMap<u64, InFlight>,
    next_tag: u64,
    /// Staging bytes held by tile loads, and the staging buffer's size.
    staging_used: u64,
    staging_capacity: u64,
    tails_pending: u32,
}

impl InFlightRequests {
    pub fn new(staging: Bytes) -> InFlightRequests {
        InFlightRequests { staging_capacity: staging.0, ..InFlightRequests::default() }
    }

    /// Registers a request; returns its tag for the IO path.
    pub fn add(&mut self, what: InFlight) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        match &what {
            InFlight::Tail { .. } => self.tails_pending += 1,
            InFlight::Tile { staging, .. } => self.staging_used += staging,
        }
        self.by_tag.insert(tag, what);
        tag
    }

    /// The request with `tag` completed: what it carried (`None` for an unknown tag).
    pub fn complete(&mut self, tag: u64) -> Option<InFlight> {
        let done = self.by_tag.remove(&tag)?;
        match &done {
            InFlight::Tail { .. } => self.tails_pending -= 1,
            InFlight::Tile { staging, .. } => self.staging_used -= staging,
        }
        Some(done)
    }

    /// The tile request `tag` loads, if it is a tile load in flight.
    pub fn tile_of(&self, tag: u64) -> Option<TileId> {
        match self.by_tag.get(&tag)? {
            InFlight::Tile { tile, .. } => Some(*tile),
            InFlight::Tail { .. } => None,
        }
    }

    /// Whether `bytes` more fit the staging memory left.
    pub fn staging_fits(&self, bytes: u64) -> bool {
        self.staging_used + bytes <= self.staging_capacity
    }

    pub fn staging_used(&self) -> u64 {
        self.staging_used
    }

    pub fn tails_pending(&self) -> u32 {
        self.tails_pending
    }

    /// Tiles submitted and not yet in the pool.
    pub fn tiles(&self) -> usize {
        self.by_tag.values().filter(|f| matches!(f, InFlight::Tile { .. })).count()
    }
}

/// When the engine's requests happened, for the stats.
#[derive(Debug, Clone, Default)]
pub(super) struct TailLoads {
    /// Requests made at creation (one per texture with a packed tail).
    pub requests: u32,
    /// Their compressed bytes.
    pub bytes: u64,
    /// When the last one reached memory.
    pub loaded_at: Option<Time>,
}
