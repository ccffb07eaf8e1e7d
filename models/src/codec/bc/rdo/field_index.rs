//! Where each field value last occurred in the current tile, for the rate model's nearest
//! match: looked up by value (a hash map) for a candidate the pass made up, and by a
//! finished block's class (an array) for the window's own fields, which the pass looks up
//! far more often.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Multiplicative hash for u64 field values (std's SipHash is several times slower here and
/// the keys are not attacker-chosen in a way that matters: worst case is a slow pack).
#[derive(Default, Clone, Copy)]
struct FieldHasher(u64);

impl Hasher for FieldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// One field's values in the current tile: each distinct value is a class, and a class
/// knows the tile-order index of its latest block.
#[derive(Default)]
pub(super) struct FieldIndex {
    classes: HashMap<u64, u32, BuildHasherDefault<FieldHasher>>,
    latest: Vec<u32>,
}

impl FieldIndex {
    /// Forgets every value (a new tile).
    pub(super) fn clear(&mut self) {
        self.classes.clear();
        self.latest.clear();
    }

    /// Records `value` at tile-order index `k` (later than every index recorded before);
    /// returns its class.
    pub(super) fn record(&mut self, value: u64, k: usize) -> u32 {
        let next = self.latest.len() as u32;
        let class = *self.classes.entry(value).or_insert(next);
        if class == next {
            self.latest.push(k as u32);
        } else {
            self.latest[class as usize] = k as u32;
        }
        class
    }

    /// The latest index of `value`, if recorded.
    pub(super) fn latest_of(&self, value: u64) -> Option<usize> {
        self.classes.get(&value).map(|&class| self.latest[class as usize] as usize)
    }

    /// The latest index of the value of class `class`.
    pub(super) fn latest_of_class(&self, class: u32) -> usize {
        self.latest[class as usize] as usize
    }
}
