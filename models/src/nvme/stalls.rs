//! The stall generator behind [`StallProfile`]: where the drive would pause if the
//! guarantee governor let it.

use super::config::StallProfile;
use crate::units::Time;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Proposes the drive's stalls, one after another; the guarantee governor then decides how
/// much of each is granted.
pub(super) struct StallGenerator {
    profile: StallProfile,
    rng: ChaCha8Rng,
}

impl StallGenerator {
    /// Random profiles draw from a generator seeded here, so a run's stalls depend only on
    /// the scenario's seed.
    pub(super) fn new(profile: StallProfile, seed: u64) -> Self {
        StallGenerator { profile, rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The stall proposed after the previous one ended at `after`: (start, length).
    pub(super) fn next(&mut self, after: Time) -> Option<(Time, Time)> {
        match self.profile {
            StallProfile::None => None,
            StallProfile::Periodic { every, length } => {
                let k = after.0 / every.0 + 1;
                Some((Time(k * every.0), length))
            }
            StallProfile::Random { mean_gap, mean_length } => {
                let gap = self.rng.gen_range(0..=2 * mean_gap.0);
                let length = self.rng.gen_range(1..=2 * mean_length.0);
                Some((after + Time(gap), Time(length)))
            }
        }
    }
}
