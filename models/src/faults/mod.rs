//! Fault injection on the DirectStorage path (`hardware.faults`): drive read errors, hung
//! IOs failed after a timeout, latency spikes, corrupt payloads ([`FaultyDrive`] over any
//! drive model), the drive throttled below its guarantee ([`NvmeDevice::set_throttle`]),
//! and the loss of one MDU unit ([`Mdu::lose_last_unit_at`]). Every fault is seeded from
//! the scenario seed and off by default.
//!
//! [`NvmeDevice::set_throttle`]: crate::nvme::NvmeDevice::set_throttle
//! [`Mdu::lose_last_unit_at`]: crate::mdu::Mdu::lose_last_unit_at

mod config;
mod drive;
mod generator;

pub use config::{FaultConfig, FaultRate, LatencySpikes, Throttle};
pub use drive::FaultyDrive;
pub use generator::{FaultCounts, FaultGenerator, IoFate};

use crate::config::ConfigError;
use crate::mdu::{Mdu, MduConfig, MduModel};
use crate::nvme::{NvmeConfig, NvmeDevice, NvmeModel};

/// sfsim's drive with `faults` on it: the throttle inside the device (it changes the
/// channel's rate), the per-IO faults in a [`FaultyDrive`] around it. With no fault
/// configured this is exactly [`nvme::build_model`](crate::nvme::build_model)'s drive.
pub fn build_drive(cfg: &NvmeConfig, faults: &FaultConfig, seed: u64) -> Result<Box<dyn NvmeModel>, ConfigError> {
    let mut device = NvmeDevice::new(cfg, seed)?;
    if let Some(t) = faults.throttle {
        device.set_throttle(t);
    }
    Ok(if faults.per_io() { Box::new(FaultyDrive::new(Box::new(device), faults, seed)) } else { Box::new(device) })
}

/// sfsim's MDU, losing its last unit at `faults.mdu_unit_lost_at` if set.
pub fn build_mdu(cfg: &MduConfig, faults: &FaultConfig) -> Result<Box<dyn MduModel>, ConfigError> {
    let mut mdu = Mdu::new(cfg)?;
    if let Some(at) = faults.mdu_unit_lost_at {
        mdu.lose_last_unit_at(at);
    }
    Ok(Box::new(mdu))
}
