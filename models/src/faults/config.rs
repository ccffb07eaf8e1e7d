//! Fault-injection parameters (`hardware.faults`), each with its unit, default and meaning.
//! Every fault is off by default, so a scenario without the section runs exactly as before.

use crate::config::ConfigError;
use crate::mdu::MduConfig;
use crate::nvme::NvmeConfig;
use crate::units::{Rate, Time};
use serde::{Deserialize, Serialize};

/// A probability per IO, 0..=1 (a plain number in scenario files: `0.001`).
///
/// Equality is bitwise so the hardware section stays `Eq`; validation rejects NaN.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaultRate(pub f64);

impl PartialEq for FaultRate {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}
impl Eq for FaultRate {}

impl FaultRate {
    /// Whether the fault can happen at all.
    pub fn is_on(self) -> bool {
        self.0 > 0.0
    }

    fn check(self, field: &str) -> Result<(), ConfigError> {
        if !(0.0..=1.0).contains(&self.0) {
            return Err(ConfigError::new(
                field,
                format!("{} is out of range; expected 0..=1 (a probability per IO)", self.0),
            ));
        }
        Ok(())
    }
}

/// IOs that complete late: each IO is delayed by `extra` with probability `rate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LatencySpikes {
    /// Probability per IO of a spike (0: none).
    pub rate: FaultRate,
    /// Time added to a spiked IO's completion (5 ms).
    pub extra: Time,
}

impl Default for LatencySpikes {
    fn default() -> Self {
        LatencySpikes { rate: FaultRate(0.0), extra: Time::from_ms(5) }
    }
}

/// The drive throttled (thermal, background work) to `rate` for `length` from `at`. The
/// guarantee governor cannot shorten it: a throttle below `hardware.nvme.guaranteed` breaks
/// the guarantee, and the stats say so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Throttle {
    /// When the throttle begins (simulated time).
    pub at: Time,
    /// How long it lasts.
    pub length: Time,
    /// The drive's mean rate while throttled (below `hardware.nvme.peak`).
    pub rate: Rate,
}

/// Faults injected into the DirectStorage path, seeded from the scenario's seed so runs
/// stay deterministic. The per-IO outcomes (IO error, timeout, corrupt payload) exclude
/// each other; a latency spike may hit any IO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FaultConfig {
    /// Probability per IO that the drive reports a read error (0).
    pub io_error_rate: FaultRate,
    /// Probability per IO that it never answers: DirectStorage fails it after `timeout` (0).
    pub timeout_rate: FaultRate,
    /// How long after its issue a hung IO is failed (50 ms).
    pub timeout: Time,
    /// IOs delayed by a latency spike (off).
    pub latency_spikes: LatencySpikes,
    /// One stretch of the run with the drive throttled (None).
    pub throttle: Option<Throttle>,
    /// Probability per IO that its payload arrives corrupt (bytes flipped): the MDU still
    /// decodes it, then the functional decode or the tile hash rejects it (0).
    pub corrupt_rate: FaultRate,
    /// From this time on the MDU's last unit takes no new jobs (None: every unit works).
    pub mdu_unit_lost_at: Option<Time>,
}

impl Default for FaultConfig {
    fn default() -> Self {
        FaultConfig {
            io_error_rate: FaultRate(0.0),
            timeout_rate: FaultRate(0.0),
            timeout: Time::from_ms(50),
            latency_spikes: LatencySpikes::default(),
            throttle: None,
            corrupt_rate: FaultRate(0.0),
            mdu_unit_lost_at: None,
        }
    }
}

/// Longest time any fault parameter may name (one simulated hour).
const MAX_TIME: Time = Time::from_secs(3600);

impl FaultConfig {
    /// Whether any fault is configured; runs without one report no fault stats.
    pub fn any(&self) -> bool {
        self.per_io() || self.throttle.is_some() || self.mdu_unit_lost_at.is_some()
    }

    /// Whether the section is all defaults.
    pub fn is_default(&self) -> bool {
        *self == FaultConfig::default()
    }

    /// Whether any per-IO fault (error, timeout, corruption, spike) can happen.
    pub fn per_io(&self) -> bool {
        self.io_error_rate.is_on()
            || self.timeout_rate.is_on()
            || self.corrupt_rate.is_on()
            || self.latency_spikes.rate.is_on()
    }

    /// Range checks; fields are relative to `faults`. The throttle is checked against the
    /// drive's `peak` and the unit loss against the MDU's `units`.
    pub fn validate(&self, nvme: &NvmeConfig, mdu: &MduConfig) -> Result<(), ConfigError> {
        self.io_error_rate.check("io_error_rate")?;
        self.timeout_rate.check("timeout_rate")?;
        self.corrupt_rate.check("corrupt_rate")?;
        self.latency_spikes.rate.check("latency_spikes.rate")?;
        let exclusive = self.io_error_rate.0 + self.timeout_rate.0 + self.corrupt_rate.0;
        if exclusive > 1.0 {
            return Err(ConfigError::new(
                "corrupt_rate",
                format!("io_error_rate + timeout_rate + corrupt_rate = {exclusive} is out of range; expected ≤ 1 (one outcome per IO)"),
            ));
        }
        if self.timeout == Time::ZERO || self.timeout > Time::from_secs(10) {
            return Err(ConfigError::new("timeout", format!("{} is out of range; expected (0s, 10s]", self.timeout)));
        }
        let extra = self.latency_spikes.extra;
        if extra == Time::ZERO || extra > Time::from_secs(10) {
            return Err(ConfigError::new(
                "latency_spikes.extra",
                format!("{extra} is out of range; expected (0s, 10s]"),
            ));
        }
        if let Some(t) = self.throttle {
            if t.at > MAX_TIME {
                return Err(ConfigError::new("throttle.at", format!("{} is out of range; expected 0s..=1h", t.at)));
            }
            if t.length == Time::ZERO || t.length > MAX_TIME {
                return Err(ConfigError::new(
                    "throttle.length",
                    format!("{} is out of range; expected (0s, 1h]", t.length),
                ));
            }
            if t.rate.0 == 0 || t.rate >= nvme.peak {
                return Err(ConfigError::new(
                    "throttle.rate",
                    format!(
                        "{} is out of range; expected > 0 B/s and below hardware.nvme.peak = {}",
                        t.rate, nvme.peak
                    ),
                ));
            }
        }
        if let Some(at) = self.mdu_unit_lost_at {
            if mdu.units < 2 {
                return Err(ConfigError::new(
                    "mdu_unit_lost_at",
                    format!("{at}: hardware.mdu.units = {} leaves no unit to run on; expected units ≥ 2", mdu.units),
                ));
            }
            if at > MAX_TIME {
                return Err(ConfigError::new("mdu_unit_lost_at", format!("{at} is out of range; expected 0s..=1h")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(f: FaultConfig) -> Result<(), ConfigError> {
        f.validate(&NvmeConfig::default(), &MduConfig::default())
    }

    #[test]
    fn defaults_are_off_and_valid() {
        let f = FaultConfig::default();
        assert!(!f.any() && f.is_default());
        check(f).unwrap();
    }

    #[test]
    fn errors_name_the_field_and_range() {
        let e = check(FaultConfig { io_error_rate: FaultRate(f64::NAN), ..Default::default() }).unwrap_err();
        assert_eq!(e.field, "io_error_rate");
        assert!(e.message.contains("NaN") && e.message.contains("0..=1"), "{}", e.message);
        let e = check(FaultConfig { timeout: Time::ZERO, ..Default::default() }).unwrap_err();
        assert_eq!(e.field, "timeout");
        let throttle = Throttle { at: Time::ZERO, length: Time::from_secs(1), rate: Rate::mb_per_sec(2400) };
        let e = check(FaultConfig { throttle: Some(throttle), ..Default::default() }).unwrap_err();
        assert_eq!(e.field, "throttle.rate");
        let one = MduConfig { units: 1, ..Default::default() };
        let f = FaultConfig { mdu_unit_lost_at: Some(Time::from_secs(1)), ..Default::default() };
        assert_eq!(f.validate(&NvmeConfig::default(), &one).unwrap_err().field, "mdu_unit_lost_at");
    }
}
