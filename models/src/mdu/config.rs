//! Memory Decompression Unit parameters, each with its unit, default and meaning.

use crate::config::ConfigError;
use crate::units::{Rate, Time};
use serde::{Deserialize, Serialize};

/// SPEC §2; the set-up cost is sfsim's calibration (docs/calibration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MduConfig {
    /// Identical units, each zlib → BCPack → swizzle (2).
    pub units: u32,
    /// Input rate limit per unit (1.6 GB/s).
    pub input: Rate,
    /// Output rate limit per unit (4 GB/s).
    pub output: Rate,
    /// Fixed cost every job pays before data moves (10 µs, calibrated so that throughput
    /// collapses below 64 KiB uncompressed and reaches NVMe rate near 32 KiB compressed).
    pub setup: Time,
    /// Output limit for perfectly compressible pages, all units together (12 GB/s).
    pub fill_output: Rate,
}

impl Default for MduConfig {
    fn default() -> Self {
        MduConfig {
            units: 2,
            input: Rate::mb_per_sec(1600),
            output: Rate::mb_per_sec(4000),
            setup: Time::from_us(10),
            fill_output: Rate::mb_per_sec(12_000),
        }
    }
}

impl MduConfig {
    /// Range checks; the error's field is the parameter's name (the caller prefixes its
    /// own path, e.g. `hardware.mdu`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.units == 0 || self.units > 64 {
            return Err(ConfigError::new("units", format!("{} is out of range; expected 1..=64", self.units)));
        }
        for (field, rate) in [("input", self.input), ("output", self.output), ("fill_output", self.fill_output)] {
            if rate.0 == 0 {
                return Err(ConfigError::new(field, "must be > 0 B/s"));
            }
        }
        if self.setup > Time::from_ms(10) {
            return Err(ConfigError::new("setup", format!("{} is out of range; expected 0s..=10ms", self.setup)));
        }
        Ok(())
    }

    /// Output rate of one unit on perfectly compressible pages.
    pub fn fill_output_per_unit(&self) -> Rate {
        Rate(self.fill_output.0 / u64::from(self.units))
    }
}
