//! NVMe device + DirectStorage queue parameters, each with its unit, default and meaning.

use crate::config::ConfigError;
use crate::units::{Bytes, Rate, Time};
use serde::{Deserialize, Serialize};

/// How the device's short-term rate varies. sfsim's own model (the hardware's is not
/// public): the channel runs at `peak` except during stalls, and a governor shortens any
/// stall that would let a busy window fall below the guaranteed bandwidth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub enum StallProfile {
    /// Always at `peak`.
    #[default]
    None,
    /// A stall of `length` starting every `every` (first at `every`).
    Periodic {
        /// Time from one stall's start to the next one's.
        every: Time,
        /// Length of each stall (< `every`).
        length: Time,
    },
    /// Seeded stalls: the gap after each stall and each stall's length are drawn uniformly
    /// from [0, 2 × mean], so their means are `mean_gap` and `mean_length`.
    Random {
        /// Mean time from one stall's end to the next one's start.
        mean_gap: Time,
        /// Mean stall length.
        mean_length: Time,
    },
}

/// The NVMe device and the DirectStorage queue in front of it (SPEC §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NvmeConfig {
    /// Bandwidth guaranteed over every full `window` while the device has work (2000 MB/s).
    pub guaranteed: Rate,
    /// Length of the guarantee window (250 ms).
    pub window: Time,
    /// Short-term channel rate when not stalled (2400 MB/s, the drive's raw rate).
    pub peak: Rate,
    /// Command overhead per IO, channel time during which no bytes move (0.5 µs).
    pub per_io: Time,
    /// Access latency per IO, pipelined across the queue depth: an IO completes this long
    /// after its last byte left the channel (80 µs).
    pub latency: Time,
    /// IOs the device holds at once, from acceptance to completion (32).
    pub queue_depth: u32,
    /// Smallest IO for which the device honours the guarantee (16 KiB): the governor
    /// reserves room for the command overhead of IOs this small. Below it, command overhead
    /// alone may hold a window under the guaranteed rate, as on a real drive.
    pub guarantee_min_io: Bytes,
    /// Requests with more source bytes than this are split into several IOs, each reaching
    /// the MDU as its own job (512 KiB).
    pub max_io: Bytes,
    /// Reads submitted together (one `Submit` of the DirectStorage queue, e.g. a texture
    /// set's tiles) whose file ranges follow each other — the next starts where the last
    /// ended, up to its 16-byte alignment — are merged into one IO of at most `max_io`:
    /// one command overhead and one access latency, each request still its own MDU job
    /// (true). Requests submitted one at a time are never merged.
    pub merge_adjacent: bool,
    /// Short-term rate variation.
    pub stalls: StallProfile,
}

impl Default for NvmeConfig {
    fn default() -> Self {
        NvmeConfig {
            guaranteed: Rate::mb_per_sec(2000),
            window: Time::from_ms(250),
            peak: Rate::mb_per_sec(2400),
            per_io: Time::from_ns(500),
            latency: Time::from_us(80),
            queue_depth: 32,
            guarantee_min_io: Bytes::kib(16),
            max_io: Bytes::kib(512),
            merge_adjacent: true,
            stalls: StallProfile::None,
        }
    }
}

/// Rounding margin kept out of the stall budget (integer transfer times round up).
const ROUNDING_MARGIN: Time = Time::from_us(1);

impl NvmeConfig {
    /// Channel time that may be lost (stalls + command overhead) in one window while still
    /// delivering `guaranteed × window` at `peak`.
    pub fn lost_budget(&self) -> Time {
        let needed = self.peak.time_for(self.guaranteed.bytes_in(self.window));
        self.window.saturating_sub(needed)
    }

    /// Command overhead reserved per window: the share of channel time `per_io` takes with
    /// back-to-back IOs of `guarantee_min_io` bytes.
    pub fn overhead_reserve(&self) -> Time {
        let io_time = self.per_io + self.peak.time_for(self.guarantee_min_io);
        Time((u128::from(self.window.0) * u128::from(self.per_io.0)).div_ceil(u128::from(io_time.0.max(1))) as u64)
    }

    /// Channel time per window that stalls may take.
    pub fn stall_budget(&self) -> Time {
        self.lost_budget().saturating_sub(self.overhead_reserve()).saturating_sub(ROUNDING_MARGIN)
    }

    /// Range checks; the error's field is the parameter's name (the caller prefixes its
    /// own path, e.g. `hardware.nvme`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.guaranteed.0 == 0 {
            return Err(ConfigError::new("guaranteed", "must be > 0 B/s"));
        }
        if self.peak < self.guaranteed {
            return Err(ConfigError::new(
                "peak",
                format!("{} is below guaranteed {}; expected peak ≥ guaranteed", self.peak, self.guaranteed),
            ));
        }
        if self.window < Time::from_ms(1) || self.window > Time::from_secs(10) {
            return Err(ConfigError::new("window", format!("{} is out of range; expected 1ms..=10s", self.window)));
        }
        if self.queue_depth == 0 || self.queue_depth > 65_536 {
            return Err(ConfigError::new(
                "queue_depth",
                format!("{} is out of range; expected 1..=65536", self.queue_depth),
            ));
        }
        if self.latency > Time::from_secs(1) {
            return Err(ConfigError::new("latency", format!("{} is out of range; expected 0s..=1s", self.latency)));
        }
        if self.guarantee_min_io.0 == 0 {
            return Err(ConfigError::new("guarantee_min_io", "must be > 0 B"));
        }
        if self.max_io < Bytes::kib(4) || self.max_io > Bytes::gib(1) {
            return Err(ConfigError::new("max_io", format!("{} is out of range; expected 4KiB..=1GiB", self.max_io)));
        }
        if self.overhead_reserve() + ROUNDING_MARGIN > self.lost_budget() {
            return Err(ConfigError::new(
                "per_io",
                format!(
                    "{} of command overhead per {} IO leaves less than guaranteed {} at peak {}; \
                     lower per_io, raise peak or guarantee_min_io",
                    self.per_io, self.guarantee_min_io, self.guaranteed, self.peak
                ),
            ));
        }
        match self.stalls {
            StallProfile::None => {}
            StallProfile::Periodic { every, length } => {
                if every.0 == 0 || length >= every {
                    return Err(ConfigError::new(
                        "stalls",
                        format!("Periodic every {every} length {length}: expected every > 0 and length < every"),
                    ));
                }
            }
            StallProfile::Random { mean_gap, mean_length } => {
                if mean_gap.0 == 0
                    || mean_length.0 == 0
                    || mean_gap > Time::from_secs(3600)
                    || mean_length > Time::from_secs(3600)
                {
                    return Err(ConfigError::new(
                        "stalls",
                        format!("Random mean_gap {mean_gap} mean_length {mean_length}: expected both in (0s, 1h]"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_budget_leaves_room_for_stalls() {
        let cfg = NvmeConfig::default();
        cfg.validate().unwrap();
        // 250 ms − 500 MB at 2400 MB/s = 41.67 ms may be lost; command overhead at 16 KiB
        // IOs reserves 0.5/(0.5+6.83) of the window ≈ 17.05 ms, leaving ≈ 24.6 ms of stalls.
        assert_eq!(cfg.lost_budget(), Time(41_666_666_666));
        let stall = cfg.stall_budget().as_ms_f64();
        assert!((stall - 24.6).abs() < 0.1, "{stall}");
    }

    #[test]
    fn overhead_that_breaks_the_guarantee_is_rejected() {
        let cfg = NvmeConfig { per_io: Time::from_us(5), ..Default::default() };
        let err = cfg.validate().unwrap_err();
        assert_eq!(err.field, "per_io");
    }
}
