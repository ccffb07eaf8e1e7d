//! Resolving only some of a frame's sample cells (`render.reuse`): the cells are split
//! into phases along diagonals, and a frame resolves the phases it re-traces.

use super::{Nearest, SampleHits, Visibility, NOTHING};
use crate::scene::geometry::Shape;
use crate::scene::raycast::{RayCamera, RayDirection};
use glam::DVec3;

/// Which of a frame's sample cells (blocks) to resolve: those whose phase,
/// `(block x + block y) mod phases`, has its bit set in `mask` (`render.reuse`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellPhases {
    pub phases: u32,
    pub mask: u8,
}

impl CellPhases {
    /// The phase of the cell at block (`bx`, `by`) (`phases` is a power of two).
    #[inline]
    pub fn phase(&self, bx: u32, by: u32) -> u32 {
        (bx + by) & (self.phases - 1)
    }

    #[inline]
    pub fn has(&self, phase: u32) -> bool {
        self.mask >> phase & 1 != 0
    }

    /// Whether every phase is in.
    pub fn all(&self) -> bool {
        self.mask.count_ones() == self.phases
    }

    /// Calls `f` with the blocks `x0..=x1` of block row `by` whose phase is in.
    #[inline(always)]
    pub fn for_each_in_row(self, by: u32, x0: u32, x1: u32, mut f: impl FnMut(u32)) {
        if self.mask.count_ones() == 1 {
            // One phase: every `phases`-th block.
            let offset = (self.mask.trailing_zeros().wrapping_sub(x0 + by)) & (self.phases - 1);
            let mut bx = x0 + offset;
            while bx <= x1 {
                f(bx);
                bx += self.phases;
            }
        } else {
            for bx in x0..=x1 {
                if self.has(self.phase(bx, by)) {
                    f(bx);
                }
            }
        }
    }
}

impl Visibility {
    /// [`Visibility::resolve`] of only the cells whose phase is in `cells` (the others
    /// miss).
    pub(super) fn resolve_phases(
        &self,
        camera: &RayCamera,
        shapes: &[Shape],
        pixels: &[(u32, u32)],
        band: usize,
        cells: CellPhases,
        out: &mut SampleHits,
    ) -> std::ops::Range<usize> {
        let grid = self.grid;
        debug_assert_eq!(pixels.len(), (grid.blocks_x * grid.blocks_y) as usize);
        let rows = self.band_rows(band);
        let samples = grid.samples_of_rows(rows.clone());
        out.first = samples.start;
        // A cell left out gets a nearest distance below every box's, so no box is tested
        // against it (it misses), and no ray: its slot keeps whatever it held, never read.
        let unused = camera.primary_direction(0, 0);
        out.rays.resize(samples.len(), unused);
        out.nearest_t.clear();
        out.nearest_t.resize(samples.len(), f64::NEG_INFINITY);
        for by in rows.clone() {
            let row = ((by - rows.start) * grid.blocks_x) as usize;
            cells.for_each_in_row(by, 0, grid.blocks_x - 1, |bx| {
                let k = row + bx as usize;
                let (x, y) = pixels[samples.start + k];
                out.rays[k] = camera.primary_direction(x, y);
                out.nearest_t[k] = f64::INFINITY;
            });
        }
        out.nearest.clear();
        out.nearest.resize(samples.len(), NOTHING);
        let (origin, best_t, best, rays) = (camera.position, &mut out.nearest_t, &mut out.nearest, &out.rays);
        for &(near, object, rect) in &self.banded[self.band_starts[band]..self.band_starts[band + 1]] {
            let shape = &shapes[object as usize];
            for by in rect.y0.max(rows.start)..=rect.y1.min(rows.end - 1) {
                let row = ((by - rows.start) * grid.blocks_x) as usize;
                cells.for_each_in_row(by, rect.x0, rect.x1, |bx| {
                    nearer(shape, object, near, origin, &rays[row + bx as usize], row + bx as usize, best_t, best);
                });
            }
        }
        samples
    }
}

/// Tests sample `k`'s ray against `shape` (object `object`, its box `near` away) and keeps
/// the hit if it is the sample's nearest so far (the lower object on a tie).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn nearer(
    shape: &Shape,
    object: u32,
    near: f64,
    origin: DVec3,
    ray: &RayDirection,
    k: usize,
    best_t: &mut [f64],
    best: &mut [Nearest],
) {
    if best_t[k] < near {
        return;
    }
    if let Some((t, face)) = shape.hit_distance_face_inv(origin, ray.dir, ray.inv_dir, best_t[k]) {
        if t < best_t[k] || object < best[k].object {
            best_t[k] = t;
            best[k] = Nearest { object, face };
        }
    }
}
