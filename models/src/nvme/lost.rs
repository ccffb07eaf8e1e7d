//! The log of "lost" channel time (stalls and per-IO command overhead) over the last window,
//! which the stall governor reads to keep the bandwidth guarantee.

use crate::fifo::Fifo;
use crate::units::Time;

#[derive(Debug, Default)]
pub(crate) struct LostLog {
    /// Disjoint `[start, end)` intervals in time order.
    intervals: Fifo<(Time, Time)>,
    /// Total lost picoseconds up to the end of each interval (same indices).
    cumulative: Fifo<u64>,
    total: u64,
}

impl LostLog {
    pub(crate) fn push(&mut self, start: Time, end: Time) {
        if end <= start {
            return;
        }
        debug_assert!(self.intervals.back().is_none_or(|&(_, e)| e <= start));
        self.total += (end - start).0;
        self.intervals.push_back((start, end));
        self.cumulative.push_back(self.total);
    }

    /// Lost time at or after `from` (all logged intervals lie in the past or present).
    pub(crate) fn since(&self, from: Time) -> u64 {
        let idx = self.intervals.as_slice().partition_point(|&(_, end)| end <= from);
        if idx == self.intervals.len() {
            return 0;
        }
        let before = if idx == 0 {
            self.cumulative[0] - (self.intervals[0].1 - self.intervals[0].0).0
        } else {
            self.cumulative[idx - 1]
        };
        let (start, end) = self.intervals[idx];
        let cut = from.max(start).min(end) - start;
        self.total - before - cut.0
    }

    /// Drops intervals that ended before `horizon`.
    pub(crate) fn prune(&mut self, horizon: Time) {
        while self.intervals.front().is_some_and(|&(_, end)| end < horizon) {
            self.intervals.pop_front();
            self.cumulative.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_counts_partial_intervals() {
        let mut log = LostLog::default();
        log.push(Time(10), Time(20));
        log.push(Time(30), Time(35));
        assert_eq!(log.since(Time(0)), 15);
        assert_eq!(log.since(Time(15)), 10);
        assert_eq!(log.since(Time(20)), 5);
        assert_eq!(log.since(Time(33)), 2);
        assert_eq!(log.since(Time(40)), 0);
        log.prune(Time(25));
        assert_eq!(log.since(Time(0)), 5);
    }
}
