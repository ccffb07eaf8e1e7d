//! The visibility pass of a frame's sampled pixels: which object each sample ray hits
//! first. Rather than walking the BVH once per ray, every object's bounding box is
//! projected to the screen once per frame ([`Visibility::prepare`]) and tested only against
//! the samples inside that rectangle, nearest objects first, so a sample already hit closer
//! than an object's box skips it (early depth rejection). Per ray it runs the same exact
//! `hit_distance` tests as [`Bvh::nearest`](super::Bvh::nearest) and finds the same nearest
//! hit; on an exact tie between two objects the lower object index wins.
//!
//! The samples are resolved a band of block rows at a time ([`Visibility::resolve`]), by
//! whichever thread shades that band next: a separate parallel pass over the frame would
//! cost a wake-up of the pool per frame, which on a 2-core VM took longer than the pass.

use super::geometry::{Aabb, Shape};
use super::raycast::{PrimaryRay, RayCamera, RayDirection};
use glam::DVec3;

/// How a frame's samples lie on the screen: one sample per `block_w` × `block_h` block,
/// in row-major block order (what [`SamplePattern`](super::SamplePattern) produces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SampleGrid {
    pub block_w: u32,
    pub block_h: u32,
    pub blocks_x: u32,
    pub blocks_y: u32,
}

impl SampleGrid {
    /// The samples of block rows `rows` (indices into the frame's samples).
    pub fn samples_of_rows(&self, rows: std::ops::Range<u32>) -> std::ops::Range<usize> {
        let row = self.blocks_x as usize;
        rows.start as usize * row..rows.end as usize * row
    }
}

/// No object along the ray.
pub const MISS: u32 = u32::MAX;

/// A sample's nearest hit: the object and the face the slab test found (for cubes), so
/// that shading need not test the box again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nearest {
    pub object: u32,
    pub face: u8,
}

const NOTHING: Nearest = Nearest { object: MISS, face: 0 };

/// A frame's visibility set-up: the objects on screen, nearest first, with the blocks each
/// may cover, listed per band of block rows (no allocation per frame once warm).
#[derive(Debug, Default)]
pub struct Visibility {
    grid: SampleGrid,
    /// Block rows per band (the last band may have fewer).
    band_rows: u32,
    /// (distance from the camera to the object's box, object, block rectangle), nearest
    /// first.
    order: Vec<(f64, u32, BlockRect)>,
    /// `order`'s entries band by band, each band's in `order`'s order: band `b`'s are
    /// `banded[band_starts[b]..band_starts[b + 1]]`. A band visits only the objects it may
    /// see, however many the frame has.
    banded: Vec<(f64, u32, BlockRect)>,
    band_starts: Vec<usize>,
}

/// The nearest hits of a band of block rows' samples, and their rays (reused buffers).
#[derive(Debug, Default)]
pub struct SampleHits {
    /// The frame index of the first sample held.
    first: usize,
    rays: Vec<RayDirection>,
    nearest_t: Vec<f64>,
    nearest: Vec<Nearest>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockRect {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Visibility {
    /// Projects every object for a frame seen by `camera` with samples on `grid`, to be
    /// resolved in bands of `band_rows` block rows (at least 1).
    pub fn prepare(&mut self, camera: &RayCamera, shapes: &[Shape], grid: SampleGrid, band_rows: u32) {
        let band_rows = band_rows.max(1);
        (self.grid, self.band_rows) = (grid, band_rows);
        self.order.clear();
        for (i, shape) in shapes.iter().enumerate() {
            let bounds = shape.bounds();
            if let Some(rect) = screen_blocks(camera, bounds, grid) {
                self.order.push((distance_to_box(camera.position, bounds), i as u32, rect));
            }
        }
        self.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // Counted, then placed: each band's entries stay in `order`'s order.
        let bands = self.bands();
        self.band_starts.clear();
        self.band_starts.resize(bands + 1, 0);
        let bands_of = |rect: &BlockRect| (rect.y0 / band_rows) as usize..=(rect.y1 / band_rows) as usize;
        for (_, _, rect) in &self.order {
            for b in bands_of(rect) {
                self.band_starts[b + 1] += 1;
            }
        }
        for b in 0..bands {
            self.band_starts[b + 1] += self.band_starts[b];
        }
        let mut next = self.band_starts.clone();
        self.banded.clear();
        self.banded.resize(self.band_starts[bands], (0.0, MISS, BlockRect { x0: 0, y0: 0, x1: 0, y1: 0 }));
        for entry in &self.order {
            for b in bands_of(&entry.2) {
                self.banded[next[b]] = *entry;
                next[b] += 1;
            }
        }
    }

    /// The distance from the camera to the nearest on-screen object's box (`None`: none
    /// on screen), after [`prepare`](Self::prepare).
    pub fn nearest_distance(&self) -> Option<f64> {
        self.order.first().map(|o| o.0)
    }

    /// How the frame's samples lie in blocks.
    pub fn grid(&self) -> SampleGrid {
        self.grid
    }

    /// How many bands [`prepare`](Self::prepare) cut the frame into.
    pub fn bands(&self) -> usize {
        self.grid.blocks_y.div_ceil(self.band_rows.max(1)) as usize
    }

    /// Band `band`'s block rows.
    pub fn band_rows(&self, band: usize) -> std::ops::Range<u32> {
        let first = band as u32 * self.band_rows;
        first..(first + self.band_rows).min(self.grid.blocks_y)
    }

    /// Finds the nearest object of the samples of band `band` into `out` (`pixels` are the
    /// frame's samples, `pixels[i]` in block `i`, and `camera` and `shapes` those
    /// [`prepare`](Self::prepare) saw); returns the band's samples (frame indices).
    pub fn resolve(
        &self,
        camera: &RayCamera,
        shapes: &[Shape],
        pixels: &[(u32, u32)],
        band: usize,
        cells: Option<CellPhases>,
        out: &mut SampleHits,
    ) -> std::ops::Range<usize> {
        if let Some(cells) = cells.filter(|c| !c.all()) {
            return self.resolve_phases(camera, shapes, pixels, band, cells, out);
        }
        let grid = self.grid;
        debug_assert_eq!(pixels.len(), (grid.blocks_x * grid.blocks_y) as usize);
        let rows = self.band_rows(band);
        let samples = grid.samples_of_rows(rows.clone());
        out.first = samples.start;
        out.rays.clear();
        out.rays.extend(pixels[samples.clone()].iter().map(|&(x, y)| camera.primary_direction(x, y)));
        out.nearest_t.clear();
        out.nearest_t.resize(samples.len(), f64::INFINITY);
        out.nearest.clear();
        out.nearest.resize(samples.len(), NOTHING);
        let (origin, best_t, best, rays) = (camera.position, &mut out.nearest_t, &mut out.nearest, &out.rays);
        for &(near, object, rect) in &self.banded[self.band_starts[band]..self.band_starts[band + 1]] {
            let shape = &shapes[object as usize];
            for by in rect.y0.max(rows.start)..=rect.y1.min(rows.end - 1) {
                let row = ((by - rows.start) * grid.blocks_x) as usize;
                for bx in rect.x0..=rect.x1 {
                    let k = row + bx as usize;
                    if best_t[k] < near {
                        continue;
                    }
                    let ray = &rays[k];
                    if let Some((t, face)) = shape.hit_distance_face_inv(origin, ray.dir, ray.inv_dir, best_t[k]) {
                        if t < best_t[k] || object < best[k].object {
                            best_t[k] = t;
                            best[k] = Nearest { object, face };
                        }
                    }
                }
            }
        }
        samples
    }

    /// [`prepare`](Self::prepare) then [`resolve`](Self::resolve) of every row: the whole
    /// frame's samples into `out`.
    pub fn run(
        &mut self,
        camera: &RayCamera,
        shapes: &[Shape],
        pixels: &[(u32, u32)],
        grid: SampleGrid,
        out: &mut SampleHits,
    ) {
        self.prepare(camera, shapes, grid, grid.blocks_y);
        let _ = self.resolve(camera, shapes, pixels, 0, None, out);
    }
}

impl SampleHits {
    /// Sample `i`'s ray (a frame index among those resolved; `camera` is the pass's).
    #[inline]
    pub fn ray(&self, camera: &RayCamera, i: usize) -> PrimaryRay {
        camera.with_differentials(self.rays[i - self.first])
    }

    /// The object sample `i` hits first, or [`MISS`].
    pub fn nearest(&self, i: usize) -> u32 {
        self.nearest[i - self.first].object
    }

    /// Sample `i`'s nearest hit, its distance along the unit ray, and the face hit (see
    /// [`Shape::intersect_at`]); the object is [`MISS`] when nothing was hit.
    #[inline]
    pub fn nearest_hit(&self, i: usize) -> (Nearest, f64) {
        (self.nearest[i - self.first], self.nearest_t[i - self.first])
    }
}

/// Distance from a point to a box (0 inside): no hit on anything in the box is nearer.
fn distance_to_box(p: DVec3, b: Aabb) -> f64 {
    (b.min - p).max(p - b.max).max(DVec3::ZERO).length()
}

/// The blocks whose sample could see any of the box, or `None` when the box is off screen.
fn screen_blocks(camera: &RayCamera, b: Aabb, grid: SampleGrid) -> Option<BlockRect> {
    let whole = BlockRect { x0: 0, y0: 0, x1: grid.blocks_x - 1, y1: grid.blocks_y - 1 };
    let corners = [0, 1, 2, 3, 4, 5, 6, 7].map(|corner: u32| {
        DVec3::new(
            if corner & 1 == 0 { b.min.x } else { b.max.x },
            if corner & 2 == 0 { b.min.y } else { b.max.y },
            if corner & 4 == 0 { b.min.z } else { b.max.z },
        )
    });
    let mut lo = (f64::INFINITY, f64::INFINITY);
    let mut hi = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut add = |(x, y): (f64, f64)| {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    };
    let projected: Option<Vec<(f64, f64)>> = corners.iter().map(|&p| camera.project(p)).collect();
    match projected {
        Some(points) => points.into_iter().for_each(&mut add),
        None => {
            // The box reaches behind the camera plane: bound the part a screen ray can hit.
            let Some(near) = visible_depth(camera, b) else { return Some(whole) };
            let depth = |p: DVec3| (p - camera.position).dot(camera.forward);
            for (i, &a) in corners.iter().enumerate() {
                let za = depth(a);
                let mut points = Vec::with_capacity(4);
                if za >= near {
                    points.push(a);
                }
                // The box's edges from this corner (to the corner one bit over), each once.
                for bit in [1, 2, 4] {
                    let c = corners[i | bit];
                    let zc = depth(c);
                    if i & bit == 0 && (za < near) != (zc < near) {
                        points.push(a + (c - a) * ((near - za) / (zc - za)));
                    }
                }
                for p in points {
                    // In front by construction; should rounding say otherwise, stay safe.
                    let Some(xy) = camera.project(p) else { return Some(whole) };
                    add(xy);
                }
            }
        }
    }
    // A pixel's ray passes through its centre; one pixel of margin absorbs rounding.
    let (w, h) = (f64::from(camera.width), f64::from(camera.height));
    if hi.0 < -1.0 || hi.1 < -1.0 || lo.0 > w + 1.0 || lo.1 > h + 1.0 {
        return None;
    }
    let px = |v: f64, max: u32| (v.max(0.0) as u32).min(max - 1);
    let (x0, x1) = (px(lo.0 - 1.5, camera.width), px(hi.0 + 1.0, camera.width));
    let (y0, y1) = (px(lo.1 - 1.5, camera.height), px(hi.1 + 1.0, camera.height));
    Some(BlockRect { x0: x0 / grid.block_w, y0: y0 / grid.block_h, x1: x1 / grid.block_w, y1: y1 / grid.block_h })
}

/// For a box reaching behind the camera plane, a depth (along the view axis) that every
/// hit of a screen ray on it lies beyond; `None` when there is none to rely on (the camera
/// is in or at the box), so the box covers the whole screen. A screen ray's direction makes
/// at least `cos_min` with the view axis, and no point of the box is nearer than its
/// distance `d`, so hits lie deeper than `d · cos_min`; half of that leaves room for
/// rounding. The box clipped there is what can be seen.
fn visible_depth(camera: &RayCamera, b: Aabb) -> Option<f64> {
    let d = distance_to_box(camera.position, b);
    // The widest screen ray, a pixel beyond the corner: its tangents per axis.
    let step = camera.pixel_step();
    let (tx, ty) = ((f64::from(camera.width) * 0.5 + 1.0) * step, (f64::from(camera.height) * 0.5 + 1.0) * step);
    let cos_min = 1.0 / (1.0 + tx * tx + ty * ty).sqrt();
    let near = 0.5 * d * cos_min;
    // Too near to clip safely (the projection's 1e-9 plane, rounding): the whole screen.
    (near > 1e-6).then_some(near)
}

#[path = "visibility_phases.rs"]
mod phases;
pub use phases::CellPhases;

#[cfg(test)]
#[path = "visibility_tests.rs"]
mod tests;
