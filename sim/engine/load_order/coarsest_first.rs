//! The sample's order: coarsest mip first (a coarse tile unblocks every finer one under it
//! in the MinMip map), then the oldest request.

use super::{LoadOrder, SeenTile};
use std::cmp::Reverse;

/// Coarsest mip first, then oldest request.
pub struct CoarsestFirst;

impl LoadOrder for CoarsestFirst {
    fn name(&self) -> &'static str {
        "CoarsestFirst"
    }

    fn sort(&self, seen: &mut [SeenTile]) {
        seen.sort_unstable_by_key(|s| (Reverse(s.mip), s.requested, s.id));
    }
}
