//! The hardware of the texture-streaming path as one configuration: the NVMe drive with
//! its DirectStorage queue, the staging buffer between them and the MDU, and the MDU.
//!
//! A scenario holds it as its `hardware` section, so its serde shape is scenario-file API:
//! every field has a default (the SPEC value) and unknown fields are rejected.

use crate::config::ConfigError;
use crate::faults::FaultConfig;
use crate::mdu::MduConfig;
use crate::nvme::NvmeConfig;
use crate::units::Bytes;
use serde::{Deserialize, Serialize};

/// Every hardware parameter of the DirectStorage path (SPEC §1, §2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Hardware {
    /// The NVMe drive and the DirectStorage queue in front of it.
    pub nvme: NvmeConfig,
    /// DirectStorage staging buffer between the SSD and the MDU (32 MiB).
    pub staging: Bytes,
    /// The Memory Decompression Unit.
    pub mdu: MduConfig,
    /// Faults injected into the path (all off).
    pub faults: FaultConfig,
}

impl Default for Hardware {
    fn default() -> Self {
        Hardware {
            nvme: NvmeConfig::default(),
            staging: Bytes::mib(32),
            mdu: MduConfig::default(),
            faults: FaultConfig::default(),
        }
    }
}

impl Hardware {
    /// Range checks of every hardware parameter. Field paths start with `hardware.`
    /// (`hardware.nvme.peak`, `hardware.staging`) because a scenario holds this section
    /// there and its error messages point users at that path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.nvme.validate().map_err(|e| e.within("hardware.nvme"))?;
        self.mdu.validate().map_err(|e| e.within("hardware.mdu"))?;
        self.faults.validate(&self.nvme, &self.mdu).map_err(|e| e.within("hardware.faults"))?;
        // An IO larger than the whole buffer could never be staged: the path would stall.
        if self.staging < self.nvme.max_io {
            return Err(ConfigError::new(
                "hardware.staging",
                format!(
                    "{} is smaller than one IO (hardware.nvme.max_io = {}); expected ≥ max_io",
                    self.staging, self.nvme.max_io
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        Hardware::default().validate().unwrap();
    }

    #[test]
    fn errors_name_the_scenario_path() {
        let hw = Hardware { nvme: NvmeConfig { queue_depth: 0, ..Default::default() }, ..Default::default() };
        assert_eq!(hw.validate().unwrap_err().field, "hardware.nvme.queue_depth");
        let hw = Hardware { mdu: MduConfig { units: 0, ..Default::default() }, ..Default::default() };
        assert_eq!(hw.validate().unwrap_err().field, "hardware.mdu.units");
        let hw = Hardware { staging: Bytes::kib(64), ..Default::default() };
        let err = hw.validate().unwrap_err();
        assert_eq!(err.field, "hardware.staging");
        assert!(err.message.contains("hardware.nvme.max_io = 512KiB"), "{}", err.message);
    }
}
