//! Most recently seen first (what the camera looks at now), then coarsest.

use super::{LoadOrder, SeenTile};
use std::cmp::Reverse;

/// Most recently seen first, then coarsest.
pub struct RecencyFirst;

impl LoadOrder for RecencyFirst {
    fn name(&self) -> &'static str {
        "RecencyFirst"
    }

    fn sort(&self, seen: &mut [SeenTile]) {
        seen.sort_unstable_by_key(|s| (Reverse(s.last_seen), Reverse(s.mip), s.id));
    }
}
