//! Eviction policies: when resident tiles give their pool slots back.
//!
//! [`EvictionKind`] is the scenario's selector (`engine: (eviction: Timeout(after: "2s"))`);
//! [`EvictionKind::build`] makes the [`EvictionPolicy`] that the engine asks every frame.
//! Each implementation lives in its own file and owns its state. A new policy is one new
//! file, one enum variant and one factory arm; a policy written outside the crate plugs in
//! through [`Policies`](super::Policies) (see `examples/custom_eviction.rs`).

mod refcount;
mod standby;
mod timeout;

pub use refcount::RefCountEviction;
pub use standby::StandbyEviction;
pub use timeout::TimeoutEviction;

use super::tiles::{TileDb, TileId};
use crate::stats::StatSet;
use serde::{Deserialize, Serialize};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// Decides which resident tiles leave the pool.
///
/// The engine calls, in each frame: [`after_analysis`](Self::after_analysis) once the
/// frame's feedback has been analysed, [`victims`](Self::victims) at the start of the next
/// frame, and [`reclaim`](Self::reclaim) when a load finds no free pool slot. Every tile a
/// policy names must be Resident (listed in `resident`) and named once; anything else
/// stops the run with an [`EngineError::Policy`](super::EngineError::Policy).
///
/// `resident` is in no particular order (it changes as tiles are evicted): a policy that
/// picks among tiles sorts them by its own keys, ending in the unique [`TileId`] so that
/// ties cannot make the result depend on the list's order.
pub trait EvictionPolicy: Send {
    /// The name used in errors and stats.
    fn name(&self) -> &'static str;

    /// How long a Seen tile that feedback stopped asking for waits in Seen Tiles before it
    /// is dropped (it would be evicted soon after loading anyway).
    fn seen_horizon(&self) -> Time;

    /// After an analysis pass: `db.state(id).touched` says whether the pass referenced a
    /// resident tile (or a finer tile under it).
    fn after_analysis(&mut self, _db: &TileDb, _resident: &[TileId]) {}

    /// At frame start (`now`): the resident tiles to evict now, in eviction order.
    fn victims(&mut self, now: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId>;

    /// A load needs `needed` more slots than are free: resident tiles to evict for it, in
    /// order (at most `needed`; fewer or none leaves the load waiting for the pool).
    fn reclaim(&mut self, _now: Time, _db: &TileDb, _resident: &[TileId], _needed: usize) -> Vec<TileId> {
        Vec::new()
    }

    /// The tile left the pool (evicted or reclaimed): forget what the policy kept on it.
    fn evicted(&mut self, _id: TileId) {}

    /// The policy's own statistics, if any, appended to stats.json.
    fn push_stats(&self, _stats: &mut StatSet) {}
}

/// The scenario's eviction selector; the default is the sample's `Timeout(after: "2s")`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvictionKind {
    /// The sample's: tiles unseen for longer than `after` expire (2 s).
    Timeout {
        /// Unseen time after which a resident tile is evicted.
        after: Time,
    },
    /// Intel's sample: a tile whose feedback reference count stayed 0 for `frames`
    /// consecutive analysed frames is evicted.
    RefCount {
        /// Consecutive unreferenced frames a tile survives.
        frames: u32,
        /// How long an unloaded Seen tile nobody asks for again stays listed (1 s).
        #[serde(default = "RefCountEviction::default_seen_horizon")]
        seen_horizon: Time,
    },
    /// RTXTS style: tiles unseen for `after` move to a standby list, still mapped and
    /// reusable if seen again; they are really freed only when the pool needs the slot
    /// (least recently seen first).
    Standby {
        /// Unseen time after which a resident tile may be reclaimed.
        after: Time,
    },
}

impl Default for EvictionKind {
    fn default() -> Self {
        EvictionKind::Timeout { after: Time::from_secs(2) }
    }
}

impl EvictionKind {
    /// The policy this selector names; each implementation checks its own parameters
    /// (errors name the field relative to `eviction`).
    pub fn build(&self) -> Result<Box<dyn EvictionPolicy>, ConfigError> {
        Ok(match *self {
            EvictionKind::Timeout { after } => Box::new(TimeoutEviction::new(after)?),
            EvictionKind::RefCount { frames, seen_horizon } => Box::new(RefCountEviction::new(frames, seen_horizon)?),
            EvictionKind::Standby { after } => Box::new(StandbyEviction::new(after)?),
        })
    }
}

/// An unseen-time parameter: (0s, 1h].
fn check_unseen_time(field: &str, t: Time) -> Result<(), ConfigError> {
    if t.0 == 0 || t > Time::from_secs(3600) {
        return Err(ConfigError::new(field, format!("{t} is out of range; expected (0s, 1h]")));
    }
    Ok(())
}

/// Resident tiles unseen for longer than `after` at `now`, least recently seen first and,
/// among equals, the finest first (so a tile never outlives its coarser parent).
fn unseen_longer_than(now: Time, after: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId> {
    let mut keyed = expired_keys(now, after, db, resident);
    // Keys end with the unique tile id: an unstable sort gives the one order.
    keyed.sort_unstable();
    keyed.into_iter().map(|k| k.2).collect()
}

/// The (last seen, mip, tile) keys of the resident tiles unseen for longer than `after`, in
/// list order; sorted, they give [`unseen_longer_than`]'s order.
fn expired_keys(now: Time, after: Time, db: &TileDb, resident: &[TileId]) -> Vec<(Time, u32, TileId)> {
    // Only the expired tiles are keyed: most of a large pool was seen recently.
    resident
        .iter()
        .map(|&id| (db.state(id).last_seen, id))
        .filter(|&(seen, _)| now.saturating_sub(seen) > after)
        .map(|(seen, id)| (seen, db.coord(id).mip, id))
        .collect()
}
