//! What the drive reports: how each IO ended ([`IoDone`], [`IoStatus`]), the spans it
//! moved data in ([`Transfer`]) and its counters ([`DeviceStats`]).

use crate::faults::FaultCounts;
use crate::units::{Bytes, Time};

/// How an IO ended. Only a fault-injecting drive ([`crate::faults::FaultyDrive`]) reports
/// anything but `Ok`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IoStatus {
    /// The data is in the staging buffer.
    #[default]
    Ok,
    /// The drive reported a read error: no data.
    IoError,
    /// The IO never answered and DirectStorage failed it after the timeout: no data.
    Timeout,
    /// The data arrived with flipped bytes: the MDU decodes it, the check after rejects it.
    Corrupt,
}

impl IoStatus {
    /// The status's name in stats (`request.failed.<name>`).
    pub fn name(self) -> &'static str {
        match self {
            IoStatus::Ok => "ok",
            IoStatus::IoError => "io_error",
            IoStatus::Timeout => "timeout",
            IoStatus::Corrupt => "corrupt",
        }
    }

    /// Whether the IO brought data to decompress (ok or corrupt).
    #[inline]
    pub fn has_data(self) -> bool {
        matches!(self, IoStatus::Ok | IoStatus::Corrupt)
    }
}

/// An IO the device finished: its data is in the staging buffer at `time`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoDone {
    /// The id the IO was submitted with.
    pub id: u64,
    /// When its last byte is in the staging buffer (after the access latency), or when it
    /// failed.
    pub time: Time,
    /// How it ended.
    pub status: IoStatus,
}

impl IoDone {
    /// An IO that ended well at `time`.
    pub fn ok(id: u64, time: Time) -> Self {
        IoDone { id, time, status: IoStatus::Ok }
    }
}

/// A stretch of channel time during which one IO's bytes moved (for traces and per-window
/// throughput).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transfer {
    /// The id of the IO whose bytes moved.
    pub id: u64,
    /// When the bytes started moving.
    pub start: Time,
    /// When they stopped (the IO finished, or a stall paused it).
    pub end: Time,
    /// Bytes moved in `start..end`, spread evenly over it.
    pub bytes: u64,
}

/// Counters of what the device did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceStats {
    /// IOs submitted.
    pub ios: u64,
    /// Bytes of the IOs that finished moving.
    pub bytes: u64,
    /// Time the channel had work (including stalls and overhead while it had work).
    pub busy: Time,
    /// Stall time granted by the governor.
    pub stalled: Time,
    /// Stall time the governor refused (requested − granted).
    pub stall_refused: Time,
    /// Least bytes delivered in any full window while work was queued (`None`: no busy
    /// stretch lasted a whole window).
    pub window_min: Option<Bytes>,
    /// Most bytes delivered in any full window while work was queued.
    pub window_max: Option<Bytes>,
    /// Times the bytes delivered over a sliding full window fell below the guarantee
    /// (`guaranteed × window`) while work was queued: each drop below counts once.
    pub guarantee_violations: u64,
    /// Channel time lost to a throttle (`hardware.faults.throttle`), outside the governor.
    pub throttled: Time,
    /// Faults a fault-injecting drive put on its IOs.
    pub faults: FaultCounts,
}
