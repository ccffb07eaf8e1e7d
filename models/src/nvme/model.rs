//! The drive-model interface: what the DirectStorage path needs from any NVMe drive model,
//! and the factory that builds sfsim's own ([`NvmeDevice`]) from its configuration.

use super::config::NvmeConfig;
use super::device::NvmeDevice;
use super::report::{DeviceStats, IoDone, Transfer};
use crate::config::ConfigError;
use crate::units::{Bytes, Time};

/// A self-timed NVMe drive model: it owns no clock. Its owner asks
/// [`next_event`](Self::next_event) when something happens next, and calls
/// [`advance`](Self::advance) with that time; every other call is made at a time `now` the
/// model has already been advanced to. Times are integer picoseconds ([`Time`]); the model
/// must be deterministic (same calls, same seed ⇒ same answers) so runs stay reproducible.
///
/// IOs are whole transfers of `bytes` from the drive into the staging buffer, identified by
/// the caller's `id`; the caller has already split requests at `max_io` and reserved
/// staging space for them.
pub trait NvmeModel: Send {
    /// Whether the drive takes another IO now. The DirectStorage queue holds IOs back while
    /// this is false (the drive's queue depth is reached), so a model may refuse IOs to
    /// model a bounded command queue.
    fn can_accept(&self) -> bool;

    /// Accepts IO `id` of `bytes` at `now`. The caller checks [`can_accept`](Self::can_accept)
    /// first; a model may panic on an IO it cannot take, since that is a caller bug.
    fn submit(&mut self, now: Time, id: u64, bytes: Bytes);

    /// Tells the model whether IOs are waiting for it in the DirectStorage queue at `now`
    /// (the caller says so after every change). The bandwidth guarantee is measured over
    /// windows in which work was queued anywhere, not only inside the drive, so a model
    /// that keeps window statistics needs to know when its idle time is forced by the
    /// path behind it (staging full) rather than by a lack of requests.
    fn set_backlog(&mut self, now: Time, waiting: bool);

    /// The earliest time at which the model's state changes (an IO completes, a stall
    /// starts or ends…), or `None` while it has nothing scheduled. The owner must call
    /// [`advance`](Self::advance) at that time; calling it earlier is harmless.
    fn next_event(&self) -> Option<Time>;

    /// Runs the model up to and including `until`, appending every IO whose data reached
    /// the staging buffer by then to `done`, in completion order. `until` never decreases
    /// from one call to the next.
    fn advance(&mut self, until: Time, done: &mut Vec<IoDone>);

    /// Closes the accounting at `end`, the end of the run (time still busy at the end
    /// counts as busy). Call once, after the last [`advance`](Self::advance).
    fn finish(&mut self, end: Time);

    /// What the drive did so far: IOs, bytes, busy and stall time, and the least and most
    /// bytes delivered in any full [`window`](Self::window) while work was queued.
    fn stats(&self) -> DeviceStats;

    /// The length of the windows over which [`DeviceStats::window_min`] and
    /// [`DeviceStats::window_max`] are measured (the guarantee window); the reports name it.
    fn window(&self) -> Time;

    /// The stretches of channel time during which IO bytes moved, since the last call, in
    /// time order; owners bin them into per-window throughput and traces. Drain them now
    /// and then (every event or frame) so they do not pile up over a run.
    fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer>;
}

/// Builds sfsim's drive model ([`NvmeDevice`]) from `cfg`, its stalls seeded by `seed`.
/// Errors name the field of `cfg` that is out of range.
pub fn build_model(cfg: &NvmeConfig, seed: u64) -> Result<Box<dyn NvmeModel>, ConfigError> {
    Ok(Box::new(NvmeDevice::new(cfg, seed)?))
}
