//! Bytes per fixed-width time bin, with spans spread over the bins they overlap.

use sfsim_models::units::Time;

#[derive(Debug, Clone)]
pub struct Bins {
    width: Time,
    values: Vec<u64>,
    /// The last bin added to and its span [start, end) in picoseconds: additions come in
    /// nearly time order, so most land in it and skip a 64-bit division.
    last: (usize, u64, u64),
}

impl Bins {
    pub fn new(width: Time) -> Self {
        assert!(width.0 > 0, "bin width must be > 0");
        Bins { width, values: Vec::new(), last: (0, 0, width.0) }
    }

    pub fn width(&self) -> Time {
        self.width
    }

    fn slot(&mut self, index: usize) -> &mut u64 {
        if index >= self.values.len() {
            self.values.resize(index + 1, 0);
        }
        &mut self.values[index]
    }

    /// The bin holding `t`, and that bin's end.
    #[inline]
    fn bin_of(&mut self, t: u64) -> (usize, u64) {
        let (index, start, end) = self.last;
        if start <= t && t < end {
            return (index, end);
        }
        let index = t / self.width.0;
        let start = index * self.width.0;
        let end = start.saturating_add(self.width.0);
        self.last = (index as usize, start, end);
        (index as usize, end)
    }

    /// Adds `amount` at one instant.
    #[inline(always)]
    pub fn add_at(&mut self, t: Time, amount: u64) {
        let (index, _) = self.bin_of(t.0);
        *self.slot(index) += amount;
    }

    /// Spreads `amount` uniformly over [start, end); the parts sum exactly to `amount`.
    #[inline(always)]
    pub fn add_span(&mut self, start: Time, end: Time, amount: u64) {
        if end <= start {
            self.add_at(start, amount);
            return;
        }
        let (index, bin_end) = self.bin_of(start.0);
        if end.0 <= bin_end {
            // Inside one bin (most spans): the loop below would add all of `amount` there.
            *self.slot(index) += amount;
            return;
        }
        let span = u128::from((end - start).0);
        let mut t = start;
        let mut given = 0u64;
        while t < end {
            let index = t.0 / self.width.0;
            let bin_end = Time((index + 1) * self.width.0).min(end);
            let upto = (u128::from(amount) * u128::from((bin_end - start).0) / span) as u64;
            *self.slot(index as usize) += upto - given;
            given = upto;
            t = bin_end;
        }
    }

    /// Values of the first `count` bins (zero where nothing was added).
    pub fn values(&self, count: usize) -> Vec<u64> {
        (0..count).map(|i| self.values.get(i).copied().unwrap_or(0)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_split_exactly() {
        let mut b = Bins::new(Time(10));
        b.add_span(Time(5), Time(25), 100);
        assert_eq!(b.values(4), vec![25, 50, 25, 0]);
        b.add_at(Time(39), 7);
        assert_eq!(b.values(4)[3], 7);
        // Inside one bin, and ending exactly on its end.
        b.add_span(Time(30), Time(40), 5);
        b.add_span(Time(31), Time(33), 1);
        assert_eq!(b.values(5), vec![25, 50, 25, 13, 0]);
    }

    /// The formula without the last-bin shortcut: each part by division.
    fn reference(values: &mut Vec<u64>, width: u64, start: u64, end: u64, amount: u64) {
        let mut add = |i: u64, a: u64| {
            let i = i as usize;
            if values.len() <= i {
                values.resize(i + 1, 0);
            }
            values[i] += a;
        };
        if end <= start {
            return add(start / width, amount);
        }
        let (mut t, mut given) = (start, 0);
        while t < end {
            let bin_end = ((t / width + 1) * width).min(end);
            let upto = (u128::from(amount) * u128::from(bin_end - start) / u128::from(end - start)) as u64;
            add(t / width, upto - given);
            (given, t) = (upto, bin_end);
        }
    }

    proptest::proptest! {
        /// Spans and instants in any order (mostly forward, sometimes back) give the parts
        /// the division formula gives.
        #[test]
        fn last_bin_shortcut_changes_nothing(
            width in 1u64..50,
            adds in proptest::collection::vec((0u64..1_000, 0u64..120, 0u64..10_000, proptest::bool::ANY), 1..80),
        ) {
            let mut b = Bins::new(Time(width));
            let mut want = Vec::new();
            for &(start, length, amount, instant) in &adds {
                if instant {
                    b.add_at(Time(start), amount);
                    reference(&mut want, width, start, start, amount);
                } else {
                    b.add_span(Time(start), Time(start + length), amount);
                    reference(&mut want, width, start, start + length, amount);
                }
            }
            proptest::prop_assert_eq!(b.values(want.len() + 1), [want, vec![0]].concat());
        }
    }
}
