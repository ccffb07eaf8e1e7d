//! A first-in first-out list for the models' hot queues (the drive's IOs and completions,
//! its lost-time log, the MDU's jobs): a `Vec` read from a moving front. Unlike a
//! `VecDeque` its elements are one slice, so reaching the front or the i-th element needs
//! no wrap-around arithmetic (which showed in profiles of IO runs, several times per
//! event). The consumed front is dropped when the list empties, or moved down once it is
//! at least half of the list, so each element is moved at most once per halving: memory
//! stays bounded by the longest the queue has been.

/// Consumed items kept before the front is moved down (so a short queue that never
/// empties, like the drive's, moves its few items only once per this many pops).
const COMPACT_AFTER: usize = 4_096;

/// A FIFO of `Copy` items.
#[derive(Debug, Clone)]
pub(crate) struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Default for Fifo<T> {
    fn default() -> Self {
        Fifo { items: Vec::new(), head: 0 }
    }
}

impl<T: Copy> Fifo<T> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.items.len() - self.head
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.items.len() == self.head
    }

    /// The items, oldest first.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        &self.items[self.head..]
    }

    #[inline]
    pub(crate) fn front(&self) -> Option<&T> {
        self.items.get(self.head)
    }

    #[inline]
    pub(crate) fn front_mut(&mut self) -> Option<&mut T> {
        self.items.get_mut(self.head)
    }

    #[inline]
    pub(crate) fn back(&self) -> Option<&T> {
        self.as_slice().last()
    }

    #[inline]
    pub(crate) fn push_back(&mut self, item: T) {
        self.items.push(item);
    }

    #[inline]
    pub(crate) fn pop_front(&mut self) -> Option<T> {
        let item = *self.items.get(self.head)?;
        self.head += 1;
        if self.head == self.items.len() {
            self.items.clear();
            self.head = 0;
        } else if self.head >= COMPACT_AFTER && self.head * 2 >= self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        Some(item)
    }
}

impl<T: Copy> std::ops::Index<usize> for Fifo<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    proptest! {
        /// Any interleaving of pushes and pops reads like a VecDeque.
        #[test]
        fn behaves_like_a_vecdeque(ops in proptest::collection::vec(0u8..3, 0..30_000)) {
            let (mut fifo, mut reference) = (Fifo::new(), VecDeque::new());
            for (i, op) in ops.into_iter().enumerate() {
                if op == 0 {
                    prop_assert_eq!(fifo.pop_front(), reference.pop_front());
                } else {
                    fifo.push_back(i);
                    reference.push_back(i);
                }
                prop_assert_eq!(fifo.len(), reference.len());
                prop_assert_eq!(fifo.is_empty(), reference.is_empty());
                prop_assert_eq!(fifo.front(), reference.front());
                prop_assert_eq!(fifo.back(), reference.back());
                prop_assert!(fifo.as_slice().iter().eq(reference.iter()));
                if !reference.is_empty() {
                    prop_assert_eq!(fifo[reference.len() / 2], reference[reference.len() / 2]);
                }
            }
            // The consumed front does not pile up.
            prop_assert!(fifo.items.len() <= 2 * fifo.len().max(COMPACT_AFTER));
        }
    }
}
