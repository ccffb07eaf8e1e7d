//! RTXTS-style standby: tiles unseen for `after` stay mapped (and are reused for free if
//! seen again) until a load needs their slot; then the least recently seen go first.

use super::{expired_keys, EvictionPolicy};
use crate::engine::tiles::{Status, TileDb, TileId};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// RTXTS-style standby list, reclaimed when the pool is full.
pub struct StandbyEviction {
    after: Time,
    /// The standby list as a min-heap on (last seen, mip, tile) — least recently seen
    /// first — built at the first reclaim after an analysis (which may re-see tiles) and
    /// consumed by the pass's reclaims. A heap, because a pass usually takes only a few of
    /// a large pool's standby tiles: it pops in the order a full sort would give, paying
    /// for the ones taken. Tiles that cross `after` during the pass wait for the next one.
    standby: Option<BinaryHeap<Reverse<(Time, u32, TileId)>>>,
}

impl StandbyEviction {
    /// Tiles unseen for longer than `after` may be reclaimed, in (0s, 1h].
    pub fn new(after: Time) -> Result<Self, ConfigError> {
        super::check_unseen_time("after", after)?;
        Ok(StandbyEviction { after, standby: None })
    }
}

impl EvictionPolicy for StandbyEviction {
    fn name(&self) -> &'static str {
        "Standby"
    }

    fn seen_horizon(&self) -> Time {
        self.after
    }

    fn victims(&mut self, _now: Time, _db: &TileDb, _resident: &[TileId]) -> Vec<TileId> {
        Vec::new()
    }

    fn after_analysis(&mut self, _db: &TileDb, _resident: &[TileId]) {
        self.standby = None;
    }

    fn reclaim(&mut self, now: Time, db: &TileDb, resident: &[TileId], needed: usize) -> Vec<TileId> {
        let after = self.after;
        let standby = self
            .standby
            .get_or_insert_with(|| expired_keys(now, after, db, resident).into_iter().map(Reverse).collect());
        let mut out = Vec::with_capacity(needed);
        while out.len() < needed {
            let Some(Reverse((_, _, id))) = standby.pop() else { break };
            // Reclaimed earlier in the pass, or re-seen since the list was built.
            if db.state(id).status == Status::Resident && now.saturating_sub(db.state(id).last_seen) > after {
                out.push(id);
            }
        }
        out
    }
}
