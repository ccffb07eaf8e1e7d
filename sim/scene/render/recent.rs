//! A two-entry cache of per-class values for one hit's texture reads.

/// The values of the last two classes looked up: a texture set's textures come in at most
/// a few classes, often interleaved (BC1 diffuse, BC5 normal, BC1 specular).
pub(super) struct Recent<T> {
    entries: [(u32, T); 2],
    /// The entry the next miss replaces.
    oldest: usize,
}

impl<T: Copy + Default> Default for Recent<T> {
    fn default() -> Self {
        // Classes are texture ids, never u32::MAX.
        Recent { entries: [(u32::MAX, T::default()); 2], oldest: 0 }
    }
}

impl<T: Copy> Recent<T> {
    /// The value of `class`, computed by `f` unless one of the last two classes was it.
    #[inline]
    pub(super) fn get_or(&mut self, class: u32, f: impl FnOnce() -> T) -> T {
        self.get_or_else(class, |_| f())
    }

    /// [`get_or`](Self::get_or) where `f` may look up other classes first.
    #[inline]
    pub(super) fn get_or_else(&mut self, class: u32, f: impl FnOnce(&mut Self) -> T) -> T {
        // The classes compared first and only the matching value read: copying both
        // entries out cost more than the lookup.
        if let Some(&(_, v)) = self.entries.iter().find(|(c, _)| *c == class) {
            return v;
        }
        let v = f(self);
        self.entries[self.oldest] = (class, v);
        self.oldest ^= 1;
        v
    }
}
