//! The per-IO fault draw: one seeded generator decides each IO's outcome in completion
//! order, so the same scenario and seed fail the same IOs.

use super::config::FaultConfig;
use crate::nvme::IoStatus;
use crate::units::Time;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Faults injected so far, by kind (`faults.injected.*`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// IOs the drive failed with a read error.
    pub io_error: u64,
    /// IOs that never answered and were failed after the timeout.
    pub timeout: u64,
    /// IOs delayed by a latency spike.
    pub latency_spike: u64,
    /// IOs whose payload arrived corrupt.
    pub corrupt: u64,
}

impl FaultCounts {
    /// Every fault injected (a spiked IO that also failed counts twice: two faults).
    pub fn total(&self) -> u64 {
        self.io_error + self.timeout + self.latency_spike + self.corrupt
    }
}

/// What befalls one IO: how it ends, and the delay a spike adds to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoFate {
    /// How the IO ends.
    pub status: IoStatus,
    /// Extra latency of a spike (zero: none).
    pub extra: Time,
}

/// Draws each IO's fate from the rates of a [`FaultConfig`].
pub struct FaultGenerator {
    cfg: FaultConfig,
    rng: ChaCha8Rng,
    counts: FaultCounts,
}

/// Keeps the fault stream independent of the drive's stall stream, which is seeded by the
/// scenario seed itself: turning faults on does not move the stalls.
const SEED_SALT: u64 = 0xFA17_5EED_0000_0001;

impl FaultGenerator {
    /// A generator seeded from the scenario's `seed`.
    pub fn new(cfg: &FaultConfig, seed: u64) -> Self {
        FaultGenerator { cfg: *cfg, rng: ChaCha8Rng::seed_from_u64(seed ^ SEED_SALT), counts: FaultCounts::default() }
    }

    /// The next IO's fate. Two draws per IO whatever the outcome, so one rate's change
    /// does not shift which later IOs the other faults hit.
    pub fn draw(&mut self) -> IoFate {
        let outcome: f64 = self.rng.gen();
        let spike: f64 = self.rng.gen();
        let c = &self.cfg;
        let status = if outcome < c.io_error_rate.0 {
            self.counts.io_error += 1;
            IoStatus::IoError
        } else if outcome < c.io_error_rate.0 + c.timeout_rate.0 {
            self.counts.timeout += 1;
            IoStatus::Timeout
        } else if outcome < c.io_error_rate.0 + c.timeout_rate.0 + c.corrupt_rate.0 {
            self.counts.corrupt += 1;
            IoStatus::Corrupt
        } else {
            IoStatus::Ok
        };
        let extra = if spike < c.latency_spikes.rate.0 {
            self.counts.latency_spike += 1;
            c.latency_spikes.extra
        } else {
            Time::ZERO
        };
        IoFate { status, extra }
    }

    /// Faults drawn so far.
    pub fn counts(&self) -> FaultCounts {
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faults::{FaultRate, LatencySpikes};

    fn cfg() -> FaultConfig {
        FaultConfig {
            io_error_rate: FaultRate(0.01),
            timeout_rate: FaultRate(0.02),
            corrupt_rate: FaultRate(0.05),
            latency_spikes: LatencySpikes { rate: FaultRate(0.1), extra: Time::from_ms(5) },
            ..Default::default()
        }
    }

    #[test]
    fn rates_are_honoured_within_tolerance() {
        let n = 200_000u64;
        let mut g = FaultGenerator::new(&cfg(), 7);
        for _ in 0..n {
            g.draw();
        }
        let c = g.counts();
        for (got, rate) in [(c.io_error, 0.01), (c.timeout, 0.02), (c.corrupt, 0.05), (c.latency_spike, 0.1)] {
            let expected = rate * n as f64;
            // Five binomial standard deviations: a seeded run either passes or not, forever.
            let sd = (expected * (1.0 - rate)).sqrt();
            assert!((got as f64 - expected).abs() < 5.0 * sd, "{got} vs {expected} ± {sd}");
        }
    }

    #[test]
    fn same_seed_same_fates_other_seed_others() {
        let fates = |seed| {
            let mut g = FaultGenerator::new(&cfg(), seed);
            (0..1000).map(|_| g.draw()).collect::<Vec<_>>()
        };
        assert_eq!(fates(3), fates(3));
        assert_ne!(fates(3), fates(4));
    }

    #[test]
    fn zero_rates_never_fault() {
        let mut g = FaultGenerator::new(&FaultConfig::default(), 1);
        for _ in 0..10_000 {
            assert_eq!(g.draw(), IoFate { status: IoStatus::Ok, extra: Time::ZERO });
        }
        assert_eq!(g.counts().total(), 0);
    }
}
