//! The DirectStorage staging buffer: bytes read from the SSD wait here for the MDU.
//! A byte-count allocator used in FIFO order (the runtime uses it as a ring), resizable at
//! run time like `SetStagingBuffer`.

use crate::units::Bytes;

/// The buffer's capacity and occupancy, in bytes.
#[derive(Debug, Clone)]
pub struct StagingBuffer {
    capacity: Bytes,
    used: Bytes,
    peak: Bytes,
}

impl StagingBuffer {
    /// An empty buffer of `capacity` bytes.
    pub fn new(capacity: Bytes) -> Self {
        StagingBuffer { capacity, used: Bytes::ZERO, peak: Bytes::ZERO }
    }

    /// Bytes it may hold now (the latest `SetStagingBuffer` size).
    #[inline]
    pub fn capacity(&self) -> Bytes {
        self.capacity
    }
    /// Bytes reserved by IOs whose data the MDU has not consumed yet.
    pub fn used(&self) -> Bytes {
        self.used
    }
    /// Highest occupancy seen.
    pub fn peak(&self) -> Bytes {
        self.peak
    }

    /// Reserves `bytes` if they fit now. A request larger than the whole buffer can never
    /// fit; callers split requests into IOs no larger than the buffer.
    #[inline]
    pub fn try_alloc(&mut self, bytes: Bytes) -> bool {
        if self.used + bytes > self.capacity {
            return false;
        }
        self.used += bytes;
        self.peak = self.peak.max(self.used);
        true
    }

    /// Returns `bytes` reserved by [`try_alloc`](Self::try_alloc) once the MDU consumed
    /// them; freeing more than is in use is a caller bug and panics.
    #[inline]
    pub fn free(&mut self, bytes: Bytes) {
        assert!(bytes <= self.used, "staging free of {bytes} exceeds the {} in use", self.used);
        self.used -= bytes;
    }

    /// `SetStagingBuffer`: takes effect for new allocations at once; bytes already in use
    /// stay until freed (shrinking below the current use just blocks new IOs meanwhile).
    pub fn resize(&mut self, capacity: Bytes) {
        self.capacity = capacity;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_bytes_in_flight() {
        let mut s = StagingBuffer::new(Bytes::kib(64));
        assert!(s.try_alloc(Bytes::kib(40)));
        assert!(!s.try_alloc(Bytes::kib(40)));
        s.free(Bytes::kib(40));
        assert!(s.try_alloc(Bytes::kib(64)));
        assert_eq!(s.peak(), Bytes::kib(64));
        s.resize(Bytes::kib(32));
        s.free(Bytes::kib(64));
        assert!(!s.try_alloc(Bytes::kib(33)));
        assert!(s.try_alloc(Bytes::kib(32)));
    }
}
