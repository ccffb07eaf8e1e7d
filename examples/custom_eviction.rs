//! An eviction policy written outside the crate, run on a shipped scenario through the
//! public API, compared with the scenario's own policy.
//!
//! The policy is a residency budget: when more than `max_resident` tiles are resident,
//! the least recently seen go (the finest first among equals, so a tile never outlives its
//! coarser parent), whatever their age — a budget a title might set to share the pool.
//!
//! Run from the repository root: `cargo run --release --example custom_eviction`.

use sfsim::engine::{EvictionPolicy, TileDb, TileId};
use sfsim::scenario::{Override, Scenario, Workload};
use sfsim::stats::StatSet;
use sfsim::workload::stream;
use sfsim_models::units::Time;

/// Evicts the least recently seen tiles beyond a budget.
struct ResidencyBudget {
    max_resident: usize,
    evicted: u64,
}

impl EvictionPolicy for ResidencyBudget {
    fn name(&self) -> &'static str {
        "ResidencyBudget"
    }

    /// Seen tiles nobody asks for again are dropped after 2 s, as in the sample.
    fn seen_horizon(&self) -> Time {
        Time::from_secs(2)
    }

    fn victims(&mut self, _now: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId> {
        if resident.len() <= self.max_resident {
            return Vec::new();
        }
        // Oldest first, then finest; the tile id breaks ties so the run stays deterministic.
        let mut by_age: Vec<(Time, u32, TileId)> =
            resident.iter().map(|&id| (db.state(id).last_seen, db.coord(id).mip, id)).collect();
        by_age.sort_unstable();
        let excess = resident.len() - self.max_resident;
        self.evicted += excess as u64;
        by_age.into_iter().take(excess).map(|(_, _, id)| id).collect()
    }

    /// A policy reports its own stats; they are appended to stats.json.
    fn push_stats(&self, stats: &mut StatSet) {
        stats.push("eviction.budget.evicted", Some(self.evicted as f64), "count", "tiles evicted over the budget");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let overrides: Vec<Override> = vec!["duration=2s".parse()?];
    let scenario = Scenario::load("scenarios/quickstart.ron".as_ref(), &overrides)?;
    let Workload::Stream(cfg) = &scenario.workload else { return Err("quickstart is a streaming scenario".into()) };

    // The scenario's own policies (its selectors: Timeout after 2 s) …
    let own = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |_, _| {})?;
    // … and the same run with the custom eviction policy; every other component unchanged.
    let mut components = stream::Components::from_scenario(&scenario, cfg)?;
    components.policies.eviction = Box::new(ResidencyBudget { max_resident: 256, evicted: 0 });
    let capped = stream::run_with(&scenario, cfg, components, &mut |_, _| {}, &mut |_, _| {})?;

    let stat = |s: &StatSet, name: &str| s.get(name).unwrap_or(f64::NAN);
    for (label, run) in [("Timeout(2s)", &own), ("ResidencyBudget(256)", &capped)] {
        println!(
            "{label:>18}: engine.evictions {:>5}  engine.loads {:>5}  tile.latency.p95 {:>7.2} ms  quality.lod_deficit.mean {:.3}",
            stat(&run.stats, "engine.evictions"),
            stat(&run.stats, "engine.loads"),
            stat(&run.stats, "tile.latency.p95"),
            stat(&run.stats, "quality.lod_deficit.mean"),
        );
    }
    let (before, after) = (stat(&own.stats, "engine.evictions"), stat(&capped.stats, "engine.evictions"));
    assert!(after > before, "the budget must evict more than the 2 s timeout ({after} vs {before})");
    assert_eq!(stat(&capped.stats, "eviction.budget.evicted"), after, "every eviction was the policy's");
    Ok(())
}
