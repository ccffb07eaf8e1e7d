//! The MDU-model interface: what the DirectStorage path needs from any model of the
//! Memory Decompression Unit's timing, and the factory that builds sfsim's own ([`Mdu`]).

use super::config::MduConfig;
use super::pool::{Job, JobDone, Mdu, UnitStats};
use crate::config::ConfigError;
use crate::units::Time;

/// A self-timed model of the MDU's timing: it owns no clock. Its owner asks
/// [`next_event`](Self::next_event) when a job finishes next and calls
/// [`advance`](Self::advance) with that time, and submits each job at the time its input
/// is ready. Times are integer picoseconds ([`Time`]); the model must be deterministic
/// (same calls ⇒ same answers) so runs stay reproducible.
///
/// The MDU never refuses work: jobs queue inside the model until a unit is free, so the
/// backpressure on the path comes from the staging buffer, whose bytes a job holds until
/// it is done.
pub trait MduModel: Send {
    /// Queues `job` at `now` (its input is in memory: staged by the drive, or title memory
    /// for in-memory requests). The model reports it back, with its `id`, once its output
    /// is in title memory.
    fn submit(&mut self, now: Time, job: Job);

    /// When the next running job finishes, or `None` while no job is running. The owner
    /// must call [`advance`](Self::advance) at that time.
    fn next_event(&self) -> Option<Time>;

    /// Runs the model up to and including `until`, appending every job that finished by
    /// then to `done` in completion order (ties in a fixed order, so runs are reproducible)
    /// and starting queued jobs as units free up. `until` never decreases.
    fn advance(&mut self, until: Time, done: &mut Vec<JobDone>);

    /// Per-unit counters so far (jobs, busy time, bytes in and out), one entry per unit in
    /// unit order; the reports sum them and show each unit's busy share.
    fn unit_stats(&self) -> &[UnitStats];

    /// Units out of service at `at` (a fault); they take no new jobs. Models without
    /// faults keep the default: none.
    fn units_lost(&self, _at: Time) -> u32 {
        0
    }
}

/// Builds sfsim's MDU timing model ([`Mdu`]) from `cfg`. Errors name the field of `cfg`
/// that is out of range.
pub fn build_model(cfg: &MduConfig) -> Result<Box<dyn MduModel>, ConfigError> {
    Ok(Box::new(Mdu::new(cfg)?))
}
