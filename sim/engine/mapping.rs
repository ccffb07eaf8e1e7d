//! UpdateTileMappings on the GPU's direct queue: each call costs a fixed time plus a time
//! per tile mapped or unmapped, and queues behind the work already on the queue (the
//! frame's render among it).

use super::tiles::TileId;
use super::timeline::SerialQueue;
use sfsim_models::units::Time;
use std::collections::VecDeque;

pub(super) struct MappingQueue {
    per_call: Time,
    per_tile: Time,
    /// Calls that map loading tiles: when each finishes, and its tiles.
    pending: VecDeque<(Time, Vec<TileId>)>,
    /// Tiles unmapped since the last call: they ride in the next one (one call per batch,
    /// as an engine batches its UpdateTileMappings).
    unmaps: usize,
}

impl MappingQueue {
    pub fn new(per_call: Time, per_tile: Time) -> MappingQueue {
        MappingQueue { per_call, per_tile, pending: VecDeque::new(), unmaps: 0 }
    }

    /// Notes `n` tiles to unmap in the next call.
    pub fn unmap(&mut self, n: usize) {
        self.unmaps += n;
    }

    /// Queues one call on `queue` at `now` that maps `mapped` (loading tiles, told when it
    /// finishes) and unmaps the tiles noted since the last call; nothing when both are
    /// empty. Returns when the call ran on the queue.
    pub fn queue(&mut self, queue: &mut SerialQueue, now: Time, mapped: Vec<TileId>) -> Option<(Time, Time)> {
        if mapped.is_empty() && self.unmaps == 0 {
            return None;
        }
        let tiles = (mapped.len() + std::mem::take(&mut self.unmaps)) as u64;
        let span = queue.run(now, self.per_call + Time(self.per_tile.0 * tiles));
        if !mapped.is_empty() {
            self.pending.push_back((span.1, mapped));
        }
        Some(span)
    }

    /// When the next call with tiles to map finishes.
    pub fn next_event(&self) -> Option<Time> {
        self.pending.front().map(|m| m.0)
    }

    /// The next call that finished by `now`: its end and its tiles.
    pub fn pop_done(&mut self, now: Time) -> Option<(Time, Vec<TileId>)> {
        if self.pending.front().is_some_and(|m| m.0 <= now) {
            self.pending.pop_front()
        } else {
            None
        }
    }
}
