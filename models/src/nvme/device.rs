//! The NVMe device: a FIFO channel that moves one IO at a time at the short-term rate,
//! paying a command overhead per IO, with an access latency pipelined across the queue
//! depth, and stalls bounded by the guarantee governor.
//!
//! The device is sfsim's [`NvmeModel`]: a self-timed component whose owner asks
//! [`NvmeModel::next_event`] when something happens next and calls [`NvmeModel::advance`]
//! with that time.

use super::config::NvmeConfig;
use super::lost::LostLog;
use super::model::NvmeModel;
use super::report::{DeviceStats, IoDone, Transfer};
use super::stalls::StallGenerator;
use super::window::WindowTracker;
use crate::config::ConfigError;
use crate::fifo::Fifo;
use crate::time_per_byte::TimePerByte;
use crate::units::{Bytes, Time};

mod stalling;

#[derive(Debug, Clone, Copy)]
struct ActiveIo {
    id: u64,
    bytes: u64,
    overhead_left: Time,
    transfer_total: Time,
    transfer_left: Time,
}

impl ActiveIo {
    /// Bytes moved once `transfer_total − transfer_left` of transfer time has elapsed.
    fn bytes_done(&self) -> u64 {
        let elapsed = (self.transfer_total - self.transfer_left).0;
        if elapsed == 0 {
            // An IO that was never paused: the common case, without the 128-bit division.
            return 0;
        }
        (u128::from(self.bytes) * u128::from(elapsed) / u128::from(self.transfer_total.0.max(1))) as u64
    }
}

/// sfsim's NVMe drive: the windowed-bandwidth model of [`NvmeConfig`] (peak rate, command
/// overhead, pipelined latency, queue depth, stalls the guarantee governor may shorten).
pub struct NvmeDevice {
    cfg: NvmeConfig,
    now: Time,
    queue: Fifo<ActiveIo>,
    /// Start of the current running segment of the head IO (`None` while stalled or idle).
    segment_start: Option<Time>,
    stall_until: Option<Time>,
    next_stall: Option<(Time, Time)>,
    stalls: StallGenerator,
    completions: Fifo<IoDone>,
    outstanding: u32,
    lost: LostLog,
    window: WindowTracker,
    delivered: u64,
    busy_since: Option<Time>,
    /// The DirectStorage queue holds IOs the device cannot take yet (staging full or queue
    /// depth reached): windows keep counting while the device waits on them.
    backlog: bool,
    stats: DeviceStats,
    transfers: Vec<Transfer>,
    record_transfers: bool,
    throttle: Option<ThrottleCycle>,
    /// `cfg.peak`, for each IO's transfer time.
    peak: TimePerByte,
    /// [`Self::earliest_event`] as of the last change of state: the owner asks for it
    /// several times per event, and it only changes when the device does.
    next_event: Option<Time>,
}

/// How often a throttle's forced stall recurs: far below the guarantee window, so every
/// window sees the throttled mean rate, and above an IO's transfer time, so IOs still move.
pub const THROTTLE_PERIOD: Time = Time::from_ms(1);

/// A throttle in progress: when it ends, each forced stall's length, the next stall.
#[derive(Debug, Clone, Copy)]
struct ThrottleCycle {
    end: Time,
    stall: Time,
    next: Option<Time>,
}

impl NvmeDevice {
    /// A drive idle at time zero, its random stalls (if any) seeded by `seed`. Errors name
    /// the field of `cfg` that is out of range.
    pub fn new(cfg: &NvmeConfig, seed: u64) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let mut stalls = StallGenerator::new(cfg.stalls, seed);
        let next_stall = stalls.next(Time::ZERO);
        Ok(NvmeDevice {
            cfg: *cfg,
            now: Time::ZERO,
            queue: Fifo::new(),
            segment_start: None,
            stall_until: None,
            next_stall,
            stalls,
            completions: Fifo::new(),
            outstanding: 0,
            lost: LostLog::default(),
            window: WindowTracker::with_floor(cfg.window, cfg.guaranteed.bytes_in(cfg.window)),
            delivered: 0,
            busy_since: None,
            backlog: false,
            stats: DeviceStats::default(),
            transfers: Vec::new(),
            record_transfers: true,
            throttle: None,
            peak: TimePerByte::new(cfg.peak),
            next_event: next_stall.map(|(start, _)| start),
        })
    }

    /// The parameters the drive was built with.
    pub fn config(&self) -> &NvmeConfig {
        &self.cfg
    }

    /// Keep a list of [`Transfer`]s for [`NvmeModel::drain_transfers`] (on by default);
    /// owners that never read them turn this off so the list does not grow over a run.
    pub fn set_record_transfers(&mut self, on: bool) {
        self.record_transfers = on;
    }

    /// IOs accepted and not yet completed (bounded by the queue depth).
    pub fn outstanding(&self) -> u32 {
        self.outstanding
    }

    /// Whether the guarantee windows are counting: the device has work, or the queue in
    /// front of it does.
    fn tracking(&self) -> bool {
        !self.queue.is_empty() || self.backlog
    }

    /// When the head IO's current phase (overhead or transfer) ends, if it is running.
    fn phase_end(&self) -> Option<Time> {
        let start = self.segment_start?;
        let head = self.queue.front()?;
        Some(if head.overhead_left.0 > 0 { start + head.overhead_left } else { start + head.transfer_left })
    }

    /// Records D(t) at the start of a transfer segment.
    fn start_transfer_point(&mut self, t: Time) {
        if self.queue.front().is_some_and(|h| h.overhead_left.0 == 0) {
            self.window.point(t, self.delivered);
        }
    }

    fn finish_phase(&mut self, t: Time) {
        let start = self.segment_start.expect("running");
        let head = self.queue.front_mut().expect("head");
        if head.overhead_left.0 > 0 {
            head.overhead_left = Time::ZERO;
            self.lost.push(start, t);
            self.segment_start = Some(t);
            self.window.point(t, self.delivered);
            return;
        }
        let moved = head.bytes - head.bytes_done();
        let io = self.queue.pop_front().expect("head");
        self.delivered += moved;
        self.stats.bytes += io.bytes;
        if self.record_transfers {
            self.transfers.push(Transfer { id: io.id, start, end: t, bytes: moved });
        }
        self.completions.push_back(IoDone::ok(io.id, t + self.cfg.latency));
        if self.queue.is_empty() {
            self.segment_start = None;
            if self.backlog {
                self.window.point(t, self.delivered);
            } else {
                self.window.busy_end(t, self.delivered);
            }
            if let Some(since) = self.busy_since.take() {
                self.stats.busy += t - since;
            }
        } else {
            self.segment_start = Some(t);
            self.window.point(t, self.delivered);
        }
    }

    /// Bytes moved so far (IOs finished and partial transfers paused by stalls).
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// When the device changes state next: a completion, a stall's end, the head IO's
    /// phase end, the next stall or throttle stall.
    #[inline]
    fn earliest_event(&self) -> Option<Time> {
        // Pairwise rather than through an array iterator: the array's stack round trip
        // showed in profiles.
        let earliest = |a: Option<Time>, b: Option<Time>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let next = earliest(self.completions.front().map(|c| c.time), self.stall_until);
        let next = earliest(next, self.phase_end());
        let next = earliest(next, self.next_stall.map(|(start, _)| start));
        earliest(next, self.next_throttle())
    }
}

impl NvmeModel for NvmeDevice {
    fn can_accept(&self) -> bool {
        self.outstanding < self.cfg.queue_depth
    }

    fn submit(&mut self, now: Time, id: u64, bytes: Bytes) {
        assert!(self.can_accept(), "NVMe queue depth exceeded: caller must check can_accept");
        debug_assert!(now >= self.now);
        self.now = now;
        let was_tracking = self.tracking();
        let transfer = self.peak.time_for(bytes);
        self.queue.push_back(ActiveIo {
            id,
            bytes: bytes.0,
            overhead_left: self.cfg.per_io,
            transfer_total: transfer,
            transfer_left: transfer,
        });
        self.outstanding += 1;
        self.stats.ios += 1;
        if self.busy_since.is_none() {
            self.busy_since = Some(now);
        }
        if !was_tracking {
            self.window.busy_start(now, self.delivered);
        } else if self.queue.len() == 1 {
            // The channel was idle behind a backlog: D(t) was flat up to now. (While the
            // channel is moving bytes, `delivered` lags D(t), so no point is added then.)
            self.window.point(now, self.delivered);
        }
        if self.queue.len() == 1 {
            if self.stall_until.is_none() {
                self.segment_start = Some(now);
            }
            // Only a new head IO starts a phase; an IO queued behind one changes no event.
            self.next_event = self.earliest_event();
        }
    }

    fn set_backlog(&mut self, now: Time, waiting: bool) {
        let before = self.tracking();
        self.backlog = waiting;
        match (before, self.tracking()) {
            (false, true) => self.window.busy_start(now, self.delivered),
            (true, false) => self.window.busy_end(now, self.delivered),
            _ => {}
        }
    }

    fn next_event(&self) -> Option<Time> {
        self.next_event
    }

    fn advance(&mut self, until: Time, done: &mut Vec<IoDone>) {
        while let Some(t) = self.next_event.filter(|&t| t <= until) {
            self.now = t;
            // The completion is rebuilt from its fields rather than moved through an
            // `Option<IoDone>`, whose padded copy stalled on store forwarding in profiles.
            if let Some((id, status)) = self.completions.front().filter(|c| c.time == t).map(|c| (c.id, c.status)) {
                self.completions.pop_front();
                self.outstanding -= 1;
                done.push(IoDone { id, time: t, status });
            } else if self.stall_until == Some(t) {
                self.stall_until = None;
                if !self.queue.is_empty() {
                    self.segment_start = Some(t);
                    self.start_transfer_point(t);
                }
            } else if self.phase_end() == Some(t) {
                self.finish_phase(t);
            } else if self.next_throttle() == Some(t) {
                self.start_throttle_stall(t);
            } else {
                self.start_stall(t);
            }
            self.next_event = self.earliest_event();
        }
        self.now = self.now.max(until);
    }

    fn finish(&mut self, end: Time) {
        if let Some(since) = self.busy_since {
            self.stats.busy += end.saturating_sub(since);
        }
    }

    fn stats(&self) -> DeviceStats {
        DeviceStats {
            window_min: self.window.min(),
            window_max: self.window.max(),
            guarantee_violations: self.window.drops_below_floor(),
            ..self.stats
        }
    }

    fn window(&self) -> Time {
        self.cfg.window
    }

    fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer> {
        self.transfers.drain(..)
    }
}

#[cfg(test)]
mod tests;
