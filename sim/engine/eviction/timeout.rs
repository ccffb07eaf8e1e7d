//! The sample's eviction (SPEC §5 step 7): a resident tile unseen for longer than `after`
//! expires at the next frame start.

use super::{unseen_longer_than, EvictionPolicy};
use crate::engine::tiles::{TileDb, TileId};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// The sample's timeout eviction.
pub struct TimeoutEviction {
    after: Time,
}

impl TimeoutEviction {
    /// Evicts tiles unseen for longer than `after`, in (0s, 1h].
    pub fn new(after: Time) -> Result<Self, ConfigError> {
        super::check_unseen_time("after", after)?;
        Ok(TimeoutEviction { after })
    }
}

impl EvictionPolicy for TimeoutEviction {
    fn name(&self) -> &'static str {
        "Timeout"
    }

    fn seen_horizon(&self) -> Time {
        self.after
    }

    fn victims(&mut self, now: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId> {
        unseen_longer_than(now, self.after, db, resident)
    }
}
