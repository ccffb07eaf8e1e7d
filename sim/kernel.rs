//! The event queue: events ordered by (time, insertion sequence), so ties resolve in the
//! order they were scheduled and every run is reproducible. Nothing here reads a clock.

use sfsim_models::units::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// `key` packs (time, insertion sequence) so one integer comparison orders entries.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn time(&self) -> Time {
        Time((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and the earliest event must come out first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// A discrete-event queue over simulated [`Time`].
pub struct Kernel<E> {
    /// An entry earlier than everything in `heap`: a self-timed component's next wake is
    /// usually scheduled just after the previous one pops and is usually the earliest
    /// event, so it goes here and skips the heap's sift both ways.
    front: Option<Entry<E>>,
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
    now: Time,
    processed: u64,
}

impl<E> Default for Kernel<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Kernel<E> {
    pub fn new() -> Self {
        Kernel { front: None, heap: BinaryHeap::new(), seq: 0, now: Time::ZERO, processed: 0 }
    }

    /// The time of the event being processed (or last processed).
    pub fn now(&self) -> Time {
        self.now
    }

    /// Events handed out so far.
    #[inline]
    pub fn processed(&self) -> u64 {
        self.processed
    }

    pub fn pending(&self) -> usize {
        self.heap.len() + usize::from(self.front.is_some())
    }

    /// Schedules `event` at `at`. Scheduling in the past is a model bug: the event is
    /// clamped to `now` in release builds and asserts in debug builds.
    #[inline]
    pub fn schedule(&mut self, at: Time, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past: {at} < {}", self.now);
        let time = at.max(self.now);
        let entry = Entry { key: (u128::from(time.0) << 64) | u128::from(self.seq), event };
        self.seq += 1;
        // Keys are unique, so "earlier than the front" or "than the heap's top" is strict.
        match &self.front {
            Some(front) if entry.key < front.key => {
                let later = self.front.replace(entry).expect("checked");
                self.heap.push(later);
            }
            Some(_) => self.heap.push(entry),
            None if self.heap.peek().is_none_or(|top| entry.key < top.key) => self.front = Some(entry),
            None => self.heap.push(entry),
        }
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.front.as_ref().or_else(|| self.heap.peek()).map(Entry::time)
    }

    /// Removes the earliest event and advances `now` to its time.
    // Always inlined: the event loops call it once per event, and whether LLVM inlined it
    // changed with unrelated edits to the loop's callees (+3 % instructions when not).
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(Time, E)> {
        let entry = match self.front.take() {
            Some(front) => front,
            None => self.heap.pop()?,
        };
        self.now = entry.time();
        self.processed += 1;
        Some((self.now, entry.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_by_time_then_insertion() {
        let mut k = Kernel::new();
        k.schedule(Time(20), 'c');
        k.schedule(Time(10), 'a');
        k.schedule(Time(20), 'd');
        k.schedule(Time(10), 'b');
        let order: Vec<char> = std::iter::from_fn(|| k.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
        assert_eq!(k.now(), Time(20));
        assert_eq!(k.processed(), 4);
    }

    /// The front slot is an optimisation only: any interleaving of schedules and pops gives
    /// the order of a plain sort by (time, insertion).
    #[test]
    fn front_slot_keeps_time_then_insertion_order() {
        use proptest::prelude::*;
        proptest!(ProptestConfig::with_cases(500), |(ops in proptest::collection::vec((0u64..8, 0u8..3), 1..200))| {
            let mut k = Kernel::new();
            let mut reference: Vec<(u64, u64)> = Vec::new();
            let (mut next_id, mut now) = (0u64, 0u64);
            for (dt, op) in ops {
                if op == 0 && !reference.is_empty() {
                    let (t, id) = k.pop().expect("an event");
                    reference.sort();
                    let (rt, rid) = reference.remove(0);
                    prop_assert_eq!((t.0, id), (rt, rid));
                    now = rt;
                } else {
                    k.schedule(Time(now + dt), next_id);
                    reference.push((now + dt, next_id));
                    next_id += 1;
                }
                prop_assert_eq!(k.pending(), reference.len());
                prop_assert_eq!(k.peek_time().map(|t| t.0), reference.iter().min().map(|e| e.0));
            }
        });
    }
}
