//! The next frame's sample pattern, drawn on a pool worker while the calling thread runs
//! the end of this frame.
//!
//! On several cores the calling thread limits a frame: after the last chunk it mirrors the
//! twins, finds the requested tiles and runs the engine, while the workers have nothing to
//! do. The next frame's pattern depends only on the seed, the frame index and the screen,
//! so a worker draws it then. The next [`render`](super::FeedbackRenderer::render) takes
//! it when it is that frame's, and draws its own otherwise, so the pixels are the same
//! either way.

use super::super::SamplePattern;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Which frame's pattern a buffer holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PatternKey {
    width: u32,
    height: u32,
    seed: u64,
    frame: u64,
}

enum Slot {
    Empty,
    /// A worker is drawing it.
    Drawing,
    Drawn(PatternKey, Vec<(u32, u32)>),
}

/// A pattern being drawn ahead, or drawn, shared with the worker drawing it.
pub(super) struct PatternAhead {
    slot: Arc<(Mutex<Slot>, Condvar)>,
}

impl Default for PatternAhead {
    fn default() -> Self {
        PatternAhead { slot: Arc::new((Mutex::new(Slot::Empty), Condvar::new())) }
    }
}

impl PatternAhead {
    /// Starts drawing `frame`'s pattern into `buffer` on the global pool (the caller must be
    /// outside it, with a worker to run it).
    pub(super) fn start(
        &self,
        pattern: SamplePattern,
        (width, height): (u32, u32),
        seed: u64,
        frame: u64,
        buffer: Vec<(u32, u32)>,
    ) {
        let key = PatternKey { width, height, seed, frame };
        *self.slot.0.lock().unwrap_or_else(PoisonError::into_inner) = Slot::Drawing;
        let slot = Arc::clone(&self.slot);
        rayon::spawn(move || {
            let mut pixels = buffer;
            pattern.pixels_into(width, height, seed, frame, &mut pixels);
            let (lock, drawn) = &*slot;
            *lock.lock().unwrap_or_else(PoisonError::into_inner) = Slot::Drawn(key, pixels);
            drawn.notify_all();
        });
    }

    /// `frame`'s pattern in `out`: the one drawn ahead if it is this frame's (waiting for
    /// the worker if it is still drawing), else drawn here.
    pub(super) fn take_or_draw(
        &self,
        pattern: SamplePattern,
        (width, height): (u32, u32),
        seed: u64,
        frame: u64,
        out: &mut Vec<(u32, u32)>,
    ) {
        let key = PatternKey { width, height, seed, frame };
        let (lock, drawn) = &*self.slot;
        let mut slot = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while matches!(*slot, Slot::Drawing) {
            slot = drawn.wait(slot).unwrap_or_else(PoisonError::into_inner);
        }
        if let Slot::Drawn(drawn_for, pixels) = std::mem::replace(&mut *slot, Slot::Empty) {
            *out = pixels;
            if drawn_for == key {
                return;
            }
        }
        pattern.pixels_into(width, height, seed, frame, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(ahead: &PatternAhead, frame: u64) -> Vec<(u32, u32)> {
        let mut out = vec![(7, 7); 3];
        ahead.take_or_draw(SamplePattern::new(128).unwrap(), (200, 100), 9, frame, &mut out);
        out
    }

    #[test]
    fn the_pattern_drawn_ahead_is_the_frames_own() {
        let pattern = SamplePattern::new(128).unwrap();
        let ahead = PatternAhead::default();
        // Nothing drawn ahead: drawn here.
        assert_eq!(drawn(&ahead, 4), pattern.pixels(200, 100, 9, 4));
        // Drawn ahead for the frame asked: taken.
        ahead.start(pattern, (200, 100), 9, 5, Vec::new());
        assert_eq!(drawn(&ahead, 5), pattern.pixels(200, 100, 9, 5));
        // Drawn ahead for another frame, seed or screen: that frame's is drawn instead.
        ahead.start(pattern, (200, 100), 9, 6, Vec::new());
        assert_eq!(drawn(&ahead, 7), pattern.pixels(200, 100, 9, 7));
        ahead.start(pattern, (200, 100), 8, 8, Vec::new());
        assert_eq!(drawn(&ahead, 8), pattern.pixels(200, 100, 9, 8));
        ahead.start(pattern, (100, 100), 9, 9, Vec::new());
        assert_eq!(drawn(&ahead, 9), pattern.pixels(200, 100, 9, 9));
        // Taken once: the next call draws.
        assert_eq!(drawn(&ahead, 9), pattern.pixels(200, 100, 9, 9));
    }
}
