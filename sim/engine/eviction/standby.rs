//! RTXTS-style standby: tiles unseen for `after` stay mapped (and are reused for free if
//! seen again) until a load needs their slot; then the least recently seen go first.

use super::{unseen_longer_than, EvictionPolicy};
use crate::engine::tiles::{TileDb, TileId};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// RTXTS-style standby list, reclaimed when the pool is full.
pub struct StandbyEviction {
    after: Time,
}

impl StandbyEviction {
    /// Tiles unseen for longer than `after` may be reclaimed, in (0s, 1h].
    pub fn new(after: Time) -> Result<Self, ConfigError> {
        super::check_unseen_time("after", after)?;
        Ok(StandbyEviction { after })
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

    fn reclaim(&mut self, now: Time, db: &TileDb, resident: &[TileId], needed: usize) -> Vec<TileId> {
        let mut standby = unseen_longer_than(now, self.after, db, resident);
        standby.truncate(needed);
        standby
    }
}
