//! Bytes per fixed-width time bin, with spans spread over the bins they overlap.

use sfsim_models::units::Time;

#[derive(Debug, Clone)]
pub struct Bins {
    width: Time,
    values: Vec<u64>,
}

impl Bins {
    pub fn new(width: Time) -> Self {
        assert!(width.0 > 0, "bin width must be > 0");
        Bins { width, values: Vec::new() }
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

    /// Adds `amount` at one instant.
    pub fn add_at(&mut self, t: Time, amount: u64) {
        *self.slot((t.0 / self.width.0) as usize) += amount;
    }

    /// Spreads `amount` uniformly over [start, end); the parts sum exactly to `amount`.
    pub fn add_span(&mut self, start: Time, end: Time, amount: u64) {
        if end <= start {
            self.add_at(start, amount);
            return;
        }
        let index = start.0 / self.width.0;
        if end.0 <= (index + 1) * self.width.0 {
            // Inside one bin (most spans): the loop below would add all of `amount` there.
            *self.slot(index as usize) += amount;
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
}
