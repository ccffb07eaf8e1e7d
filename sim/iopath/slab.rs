//! A free-list slab: stable small ids for in-flight requests and pieces, so the models can
//! carry a `u64` id instead of the path's own state.

pub(super) struct Slab<T> {
    items: Vec<Option<T>>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    pub(super) fn new() -> Self {
        Slab { items: Vec::new(), free: Vec::new() }
    }

    /// The id the next [`insert`](Self::insert) returns.
    #[inline]
    pub(super) fn vacant_id(&self) -> u32 {
        self.free.last().copied().unwrap_or(self.items.len() as u32)
    }

    // Inlined: built in place, the item skips a copy through the stack whose wide loads
    // of narrower stores stalled on store forwarding in profiles.
    #[inline(always)]
    pub(super) fn insert(&mut self, item: T) -> u32 {
        match self.free.pop() {
            Some(id) => {
                self.items[id as usize] = Some(item);
                id
            }
            None => {
                self.items.push(Some(item));
                (self.items.len() - 1) as u32
            }
        }
    }

    #[inline(always)]
    pub(super) fn get_mut(&mut self, id: u32) -> &mut T {
        self.items[id as usize].as_mut().expect("live slab id")
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, id: u32) -> T {
        self.free.push(id);
        self.items[id as usize].take().expect("live slab id")
    }
}
