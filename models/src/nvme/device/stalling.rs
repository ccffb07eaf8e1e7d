//! Stalls as the drive lives them: a random stall cut short by the guarantee governor so
//! that no window loses more than the stall budget, and a throttle's train of forced stalls,
//! which the governor leaves alone. Either pauses the IO at the head of the queue.

use super::{NvmeDevice, ThrottleCycle, THROTTLE_PERIOD};
use crate::faults::Throttle;
use crate::nvme::report::Transfer;
use crate::units::Time;

impl NvmeDevice {
    pub(super) fn start_stall(&mut self, t: Time) {
        let (_, requested) = self.next_stall.take().expect("stall event");
        let granted = self.governed_length(t, requested);
        self.stats.stall_refused += requested - granted;
        let end = t + granted;
        if granted.0 > 0 {
            self.pause_head(t);
            self.lost.push(t, end);
            self.stats.stalled += granted;
            // A throttle's stall may already hold the channel past `end`.
            self.stall_until = Some(self.stall_until.map_or(end, |u| u.max(end)));
        }
        // The governor only asks about windows ending at `t` or later (and starting at
        // `t − window` or later): nothing that ended before that is read again.
        self.lost.prune(t.saturating_sub(self.cfg.window));
        self.next_stall = self.stalls.next(end);
    }

    /// Pauses the head IO where it is (a stall begins at `t`).
    pub(super) fn pause_head(&mut self, t: Time) {
        if let (Some(start), Some(head)) = (self.segment_start.take(), self.queue.front_mut()) {
            let elapsed = t - start;
            if head.overhead_left.0 > 0 {
                head.overhead_left -= elapsed;
                self.lost.push(start, t);
            } else {
                let before = head.bytes_done();
                head.transfer_left -= elapsed;
                let moved = head.bytes_done() - before;
                self.delivered += moved;
                if self.record_transfers && moved > 0 {
                    self.transfers.push(Transfer { id: head.id, start, end: t, bytes: moved });
                }
            }
            self.window.point(t, self.delivered);
        }
    }

    /// Throttles the drive as `throttle` says. The throttle is a train of forced stalls,
    /// one every [`THROTTLE_PERIOD`], each the share of the period that brings the mean
    /// rate down to `throttle.rate`; the governor neither shortens them nor counts them
    /// against its stall budget, since a throttled drive is one that broke its guarantee.
    pub fn set_throttle(&mut self, throttle: Throttle) {
        let peak = u128::from(self.cfg.peak.0.max(1));
        let cut = u128::from(self.cfg.peak.0.saturating_sub(throttle.rate.0));
        let stall = Time((u128::from(THROTTLE_PERIOD.0) * cut / peak) as u64);
        self.throttle = Some(ThrottleCycle {
            end: throttle.at + throttle.length,
            stall,
            next: Some(throttle.at).filter(|_| stall.0 > 0),
        });
        self.next_event = self.earliest_event();
    }

    pub(super) fn next_throttle(&self) -> Option<Time> {
        self.throttle.as_ref().and_then(|c| c.next)
    }

    /// One forced stall of the throttle, at `t`.
    pub(super) fn start_throttle_stall(&mut self, t: Time) {
        let cycle = self.throttle.as_mut().expect("throttle event");
        let end = (t + cycle.stall).min(cycle.end);
        cycle.next = Some(t + THROTTLE_PERIOD).filter(|&n| n < cycle.end);
        self.pause_head(t);
        let held = self.stall_until.filter(|&u| u > t).unwrap_or(t);
        if end > held {
            self.stats.throttled += end - held;
            self.stall_until = Some(end);
        }
    }

    /// The longest stall up to `requested`, starting at `t`, that keeps lost time in every
    /// window within the stall budget. Lost time in the window ending at t+L only grows with
    /// L, so a binary search finds the bound.
    pub(super) fn governed_length(&self, t: Time, requested: Time) -> Time {
        let budget = self.cfg.stall_budget().0;
        let w = self.cfg.window;
        let fits = |len: u64| {
            let from = (t + Time(len)).saturating_sub(w);
            len + self.lost.since(from) + self.running_overhead(t, from) <= budget
        };
        if !fits(0) {
            return Time::ZERO;
        }
        let (mut lo, mut hi) = (0u64, requested.0);
        if fits(hi) {
            return requested;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Time(lo)
    }

    /// Overhead time of the head IO that elapsed before `t` but is not yet in the log.
    pub(super) fn running_overhead(&self, t: Time, from: Time) -> u64 {
        match (self.segment_start, self.queue.front()) {
            (Some(start), Some(head)) if head.overhead_left.0 > 0 => (t - start.max(from).min(t)).0,
            _ => 0,
        }
    }
}
