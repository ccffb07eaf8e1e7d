//! Exact sliding-window accounting of delivered bytes.
//!
//! Cumulative delivery D(t) is piecewise linear (the channel moves bytes at a constant rate
//! between breakpoints), so the least and most delivered over any window [s, s+W] lying
//! inside one busy period is found by evaluating D(s+W) − D(s) only where s or s+W is a
//! breakpoint. The tracker does that online, keeping just one window of breakpoints.

use crate::units::{Bytes, Time};
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy)]
struct Point {
    t: Time,
    d: u64,
    evaluated: bool,
}

fn interpolate(a: &Point, b: &Point, t: Time) -> u64 {
    if b.t == a.t {
        return b.d;
    }
    let span = u128::from((b.t - a.t).0);
    let offset = u128::from((t - a.t).0);
    a.d + (u128::from(b.d - a.d) * offset / span) as u64
}

/// Least and most bytes delivered in any full window that lies inside a busy period.
#[derive(Debug)]
pub struct WindowTracker {
    window: Time,
    busy_since: Option<Time>,
    points: VecDeque<Point>,
    min: Option<u64>,
    max: Option<u64>,
    full_windows_seen: bool,
    /// The guarantee: bytes every full window should hold.
    floor: u64,
    below: bool,
    drops_below: u64,
}

impl WindowTracker {
    /// A tracker of windows `window` long, before any busy period.
    pub fn new(window: Time) -> Self {
        WindowTracker {
            window,
            busy_since: None,
            points: VecDeque::new(),
            min: None,
            max: None,
            full_windows_seen: false,
            floor: 0,
            below: false,
            drops_below: 0,
        }
    }

    /// A tracker that also counts how often a full window fell below `floor` bytes.
    pub fn with_floor(window: Time, floor: Bytes) -> Self {
        WindowTracker { floor: floor.0, ..WindowTracker::new(window) }
    }

    /// How many times the windows fell below the floor: a run of consecutive windows under
    /// it counts once, since a sliding window stays under for as long as the cause lasts.
    pub fn drops_below_floor(&self) -> u64 {
        self.drops_below
    }

    fn record(&mut self, value: u64) {
        self.full_windows_seen = true;
        let below = value < self.floor;
        if below && !self.below {
            self.drops_below += 1;
        }
        self.below = below;
        self.min = Some(self.min.map_or(value, |m| m.min(value)));
        self.max = Some(self.max.map_or(value, |m| m.max(value)));
    }

    /// The channel has work from `t` on; `delivered` is the cumulative byte count at `t`.
    pub fn busy_start(&mut self, t: Time, delivered: u64) {
        if self.busy_since.is_none() {
            self.busy_since = Some(t);
            self.points.clear();
            self.points.push_back(Point { t, d: delivered, evaluated: false });
        }
    }

    /// A breakpoint of D(t) while busy.
    pub fn point(&mut self, t: Time, delivered: u64) {
        let Some(busy_since) = self.busy_since else {
            return;
        };
        let last = *self.points.back().expect("busy period has a first point");
        if t < last.t {
            return;
        }
        let new = Point { t, d: delivered, evaluated: false };
        let w = self.window;
        // Windows that start at an earlier breakpoint and end inside (last.t, t].
        let mut ends = Vec::new();
        for p in self.points.iter_mut() {
            if p.t + w > t {
                break;
            }
            if !p.evaluated {
                p.evaluated = true;
                ends.push(interpolate(&last, &new, p.t + w) - p.d);
            }
        }
        for v in ends {
            self.record(v);
        }
        // The window that ends at this breakpoint.
        if t >= busy_since + w {
            let start = t - w;
            let idx = self.points.partition_point(|p| p.t <= start);
            let d_start = if idx == self.points.len() {
                interpolate(&last, &new, start)
            } else {
                interpolate(&self.points[idx - 1], &self.points[idx], start)
            };
            self.record(delivered - d_start);
        }
        self.points.push_back(new);
        while self.points.len() >= 2 && self.points[1].t + w <= t {
            self.points.pop_front();
        }
    }

    /// The channel ran out of work at `t`.
    pub fn busy_end(&mut self, t: Time, delivered: u64) {
        self.point(t, delivered);
        self.below = false;
        self.busy_since = None;
        self.points.clear();
    }

    /// Least bytes delivered in any full window so far (`None`: no full window yet).
    pub fn min(&self) -> Option<Bytes> {
        self.min.map(Bytes)
    }
    /// Most bytes delivered in any full window so far.
    pub fn max(&self) -> Option<Bytes> {
        self.max.map(Bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_rate_window_is_exact() {
        let mut w = WindowTracker::new(Time(100));
        w.busy_start(Time(0), 0);
        for i in 1..=10u64 {
            w.point(Time(i * 50), i * 500);
        }
        assert_eq!(w.min(), Some(Bytes(1000)));
        assert_eq!(w.max(), Some(Bytes(1000)));
    }

    #[test]
    fn finds_the_window_around_a_gap() {
        // 10 B/ps, then a 40 ps gap, then 10 B/ps again. Worst 100 ps window holds the gap.
        let mut w = WindowTracker::new(Time(100));
        w.busy_start(Time(0), 0);
        w.point(Time(200), 2000);
        w.point(Time(240), 2000);
        w.busy_end(Time(500), 4600);
        assert_eq!(w.min(), Some(Bytes(600)));
        assert_eq!(w.max(), Some(Bytes(1000)));
    }

    #[test]
    fn no_full_window_means_no_value() {
        let mut w = WindowTracker::new(Time(100));
        w.busy_start(Time(0), 0);
        w.busy_end(Time(99), 10);
        w.busy_start(Time(150), 10);
        w.busy_end(Time(240), 20);
        assert_eq!(w.min(), None);
    }
}
