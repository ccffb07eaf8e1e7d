//! Exact sliding-window accounting of delivered bytes.
//!
//! Cumulative delivery D(t) is piecewise linear (the channel moves bytes at a constant rate
//! between breakpoints), so the least and most delivered over any window [s, s+W] lying
//! inside one busy period is found by evaluating D(s+W) − D(s) only where s or s+W is a
//! breakpoint. The tracker does that online, keeping just one window of breakpoints.

use crate::units::{Bytes, Time};

#[derive(Debug, Clone, Copy)]
struct Point {
    t: Time,
    d: u64,
}

fn interpolate(a: &Point, b: &Point, t: Time) -> u64 {
    if b.t == a.t {
        return b.d;
    }
    let (span, offset, rise) = ((b.t - a.t).0, (t - a.t).0, b.d - a.d);
    if rise == 0 {
        // A flat stretch (command overhead, a stall): no division.
        return a.d;
    }
    // A 64-bit division when the product fits (most breakpoints are an IO apart).
    if let Some(product) = rise.checked_mul(offset) {
        return a.d + product / span;
    }
    a.d + (u128::from(rise) * u128::from(offset) / u128::from(span)) as u64
}

/// Least and most bytes delivered in any full window that lies inside a busy period.
#[derive(Debug)]
pub struct WindowTracker {
    window: Time,
    busy_since: Option<Time>,
    /// The breakpoints of the last window, from `points[head]` on (a Vec with a moving
    /// front, compacted now and then, indexes more cheaply than a VecDeque).
    points: Vec<Point>,
    head: usize,
    /// `points.partition_point(|p| p.t <= t − window)` as of the last breakpoint: window
    /// starts only move forward, so the search resumes from here instead of bisecting.
    start_cursor: usize,
    /// The first breakpoint whose window (starting there) has not ended yet: those before
    /// it were recorded.
    eval_cursor: usize,
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
            points: Vec::new(),
            head: 0,
            start_cursor: 0,
            eval_cursor: 0,
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
            self.clear_points();
            self.points.push(Point { t, d: delivered });
        }
    }

    /// A breakpoint of D(t) while busy.
    #[inline(always)]
    pub fn point(&mut self, t: Time, delivered: u64) {
        let Some(busy_since) = self.busy_since else {
            return;
        };
        let last = *self.points.last().expect("busy period has a first point");
        if t < last.t {
            return;
        }
        let new = Point { t, d: delivered };
        let w = self.window;
        // Windows that start at an earlier breakpoint and end inside (last.t, t].
        while let Some(&p) = self.points.get(self.eval_cursor) {
            if p.t + w > t {
                break;
            }
            self.eval_cursor += 1;
            self.record(interpolate(&last, &new, p.t + w) - p.d);
        }
        // The window that ends at this breakpoint.
        if t >= busy_since + w {
            let start = t - w;
            let mut idx = self.start_cursor;
            while idx < self.points.len() && self.points[idx].t <= start {
                idx += 1;
            }
            self.start_cursor = idx;
            let d_start = if idx == self.points.len() {
                interpolate(&last, &new, start)
            } else {
                interpolate(&self.points[idx - 1], &self.points[idx], start)
            };
            self.record(delivered - d_start);
        }
        self.points.push(new);
        while self.points.len() - self.head >= 2 && self.points[self.head + 1].t + w <= t {
            self.head += 1;
        }
        self.start_cursor = self.start_cursor.max(self.head);
        self.eval_cursor = self.eval_cursor.max(self.head);
        if self.head >= 1024 && self.head * 2 >= self.points.len() {
            // Drop the dead front: each point is moved at most once per compaction, and a
            // compaction at least halves the list.
            self.points.drain(..self.head);
            self.start_cursor -= self.head;
            self.eval_cursor -= self.head;
            self.head = 0;
        }
    }

    fn clear_points(&mut self) {
        self.points.clear();
        self.head = 0;
        self.start_cursor = 0;
        self.eval_cursor = 0;
    }

    /// The channel ran out of work at `t`.
    pub fn busy_end(&mut self, t: Time, delivered: u64) {
        self.point(t, delivered);
        self.below = false;
        self.busy_since = None;
        self.clear_points();
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

    /// Least and most over every full window of one busy period, by brute force: D is
    /// piecewise linear, so the extremes lie where a window starts or ends at a breakpoint.
    fn brute_force(points: &[(u64, u64)], w: u64) -> Option<(u64, u64)> {
        let at = |t: u64| -> u64 {
            let i = points.partition_point(|p| p.0 <= t);
            if i == points.len() {
                return points[i - 1].1;
            }
            let (a, b) = (points[i - 1], points[i]);
            interpolate(&Point { t: Time(a.0), d: a.1 }, &Point { t: Time(b.0), d: b.1 }, Time(t))
        };
        let (first, last) = (points[0].0, points[points.len() - 1].0);
        let starts = points.iter().map(|p| p.0).chain(points.iter().filter_map(|p| p.0.checked_sub(w)));
        let values: Vec<u64> = starts.filter(|&s| s >= first && s + w <= last).map(|s| at(s + w) - at(s)).collect();
        Some((*values.iter().min()?, *values.iter().max()?))
    }

    #[test]
    fn online_windows_equal_the_brute_force_extremes() {
        use proptest::prelude::*;
        // D(t) is continuous: breakpoints strictly later, bytes never fewer; often flat
        // (command overhead, stalls).
        let steps = proptest::collection::vec((1u64..40, prop_oneof![Just(0u64), 0u64..1000]), 1..120);
        proptest!(ProptestConfig::with_cases(2000), |(w in 1u64..200, steps in steps)| {
            let mut points = vec![(0u64, 0u64)];
            for (dt, dd) in steps {
                let &(t, d) = points.last().expect("a first point");
                points.push((t + dt, d + dd));
            }
            let mut tracker = WindowTracker::new(Time(w));
            tracker.busy_start(Time(0), 0);
            for &(t, d) in &points[1..points.len() - 1] {
                tracker.point(Time(t), d);
            }
            let &(t, d) = points.last().expect("a last point");
            tracker.busy_end(Time(t), d);
            let online = tracker.min().zip(tracker.max()).map(|(a, b)| (a.0, b.0));
            prop_assert_eq!(online, brute_force(&points, w));
        });
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
