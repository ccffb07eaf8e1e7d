//! Intel's SFS demo eviction: each analysed frame counts, per resident tile, whether
//! feedback referenced it; a tile unreferenced for more than `frames` consecutive frames is
//! evicted, finest mips first.

use super::EvictionPolicy;
use crate::engine::tiles::{TileDb, TileId};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;
use std::collections::HashMap;

/// Intel's reference-count eviction with an N-frame delay.
pub struct RefCountEviction {
    frames: u32,
    seen_horizon: Time,
    /// Consecutive analysed frames without a reference, per resident tile.
    unreferenced: HashMap<TileId, u32>,
}

impl RefCountEviction {
    /// Evicts after `frames` (0..=100000) unreferenced frames; drops unloaded Seen tiles
    /// after `seen_horizon` ((0s, 1h]).
    pub fn new(frames: u32, seen_horizon: Time) -> Result<Self, ConfigError> {
        if frames > 100_000 {
            return Err(ConfigError::new("frames", format!("{frames} is out of range; expected 0..=100000")));
        }
        super::check_unseen_time("seen_horizon", seen_horizon)?;
        Ok(RefCountEviction { frames, seen_horizon, unreferenced: HashMap::new() })
    }

    /// The default `seen_horizon`: 1 s.
    pub fn default_seen_horizon() -> Time {
        Time::from_secs(1)
    }
}

impl EvictionPolicy for RefCountEviction {
    fn name(&self) -> &'static str {
        "RefCount"
    }

    fn seen_horizon(&self) -> Time {
        self.seen_horizon
    }

    fn after_analysis(&mut self, db: &TileDb, resident: &[TileId]) {
        for &id in resident {
            let count = self.unreferenced.entry(id).or_insert(0);
            *count = if db.state(id).touched { 0 } else { *count + 1 };
        }
    }

    fn victims(&mut self, _now: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId> {
        let mut victims: Vec<TileId> =
            resident.iter().copied().filter(|id| self.unreferenced.get(id).is_some_and(|&n| n > self.frames)).collect();
        victims.sort_by_key(|id| (db.coord(*id).mip, *id));
        victims
    }

    fn evicted(&mut self, id: TileId) {
        self.unreferenced.remove(&id);
    }
}
