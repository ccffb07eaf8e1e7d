//! Temporal reuse (`render.reuse`): an approximate timing-only mode that traces each sample
//! cell once every `frames` frames and, in between, writes the feedback that cell's last
//! traced sample wrote, as long as the camera has moved less than `max_motion` pixels since.
//!
//! The pattern's cells (one sample per block of `one_in` pixels) are split into `frames`
//! phases by `(block x + block y) mod frames`, a diagonal stripe pattern (a checkerboard
//! for 2): each frame re-traces one phase, so every cell is traced at least every `frames`
//! frames, and a phase whose accumulated camera motion passed the bound (or that was never
//! traced) is re-traced at once. A reused write is the feedback value and texel of a
//! surface point seen a few frames earlier: under a small camera motion the point is still
//! on screen a few pixels away, and its LOD has barely changed. What is not exact: cells
//! whose surface changed (silhouettes, objects entering), and LODs a few frames old.
//!
//! Sample, hit, texture-sample and feedback-write counts are kept as if every cell had been
//! traced (the reused cell's last counts), so the GPU's timing model sees the same work.

use super::super::visibility::{CellPhases, SampleGrid};
use super::super::RayCamera;
use super::trace::{Chunk, LocationWrite};
use serde::{Deserialize, Serialize};
use sfsim_models::ConfigError;

/// The most phases (`frames`).
pub const MAX_REUSE_FRAMES: u32 = 4;
/// The largest `max_motion`, pixels.
pub const MAX_REUSE_MOTION: f64 = 64.0;

/// `render.reuse`: trace each sample cell once every `frames` frames (an approximate,
/// timing-only mode; see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemporalReuse {
    /// A cell is traced at least once every `frames` frames (2 or 4).
    pub frames: u32,
    /// The most camera motion, in pixels at the screen's centre, a cell's writes are
    /// reused across (0 < max_motion <= 64): the rotation angle plus the translation over
    /// the nearest on-screen object's distance, over the angle of a pixel.
    pub max_motion: f64,
}

impl TemporalReuse {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_REUSE_FRAMES).contains(&self.frames) || !self.frames.is_power_of_two() {
            return Err(ConfigError::new(
                "frames",
                format!("{} is out of range; expected 2 or {MAX_REUSE_FRAMES}", self.frames),
            ));
        }
        if !(self.max_motion > 0.0 && self.max_motion <= MAX_REUSE_MOTION) {
            return Err(ConfigError::new(
                "max_motion",
                format!("{} is out of range; expected 0 < max_motion <= {MAX_REUSE_MOTION} pixels", self.max_motion),
            ));
        }
        Ok(())
    }
}

/// Which phases a frame re-traces.
pub(super) type ReusePlan = CellPhases;

/// What a chunk's cells of one phase wrote when last traced.
#[derive(Default)]
pub(super) struct PhaseWrites {
    pub writes: Vec<LocationWrite>,
    pub hits: u64,
}

/// A chunk's reused writes, per phase.
#[derive(Default)]
pub(super) struct ChunkReuse {
    pub phases: Vec<PhaseWrites>,
}

/// The reuse state a renderer keeps across frames.
pub(super) struct ReuseState {
    cfg: TemporalReuse,
    /// The last frame planned, its camera and nearest on-screen distance.
    last: Option<(u64, RayCamera, f64)>,
    /// Per phase, the motion (pixels) since it was traced; `None` = never traced.
    motion: Vec<Option<f64>>,
    /// Per chunk (band of block rows), its cells' last writes.
    pub chunks: Vec<std::sync::Mutex<ChunkReuse>>,
}

impl ReuseState {
    pub fn new(cfg: TemporalReuse) -> ReuseState {
        ReuseState { cfg, last: None, motion: vec![None; cfg.frames as usize], chunks: Vec::new() }
    }

    /// The phases frame `frame` traces, seen by `camera` with the nearest on-screen object
    /// at `nearest` (`None`: nothing on screen), cut into `chunks` chunks.
    pub fn plan(&mut self, camera: &RayCamera, frame: u64, nearest: Option<f64>, chunks: usize) -> ReusePlan {
        let nearest = nearest.unwrap_or(f64::INFINITY);
        let moved = match self.last {
            Some((f, prev, prev_nearest)) if f.wrapping_add(1) == frame && self.chunks.len() == chunks => {
                motion_pixels(&prev, camera, prev_nearest.min(nearest))
            }
            _ => f64::INFINITY,
        };
        if self.chunks.len() != chunks {
            self.chunks.clear();
            self.chunks.resize_with(chunks, Default::default);
        }
        self.last = Some((frame, *camera, nearest));
        let frames = self.cfg.frames;
        let scheduled = (frame % u64::from(frames)) as u32;
        let mut fresh = 0u8;
        for (p, motion) in self.motion.iter_mut().enumerate() {
            let since = motion.map_or(f64::INFINITY, |m| m + moved);
            // `since` is never NaN: `motion_pixels` turns NaN into infinity.
            if p as u32 == scheduled || since > self.cfg.max_motion {
                fresh |= 1 << p;
                *motion = Some(0.0);
            } else {
                *motion = Some(since);
            }
        }
        ReusePlan { phases: frames, mask: fresh }
    }
}

/// Keeps the writes of the chunk's traced phases (its traced `samples` are in `chunk`) for
/// later frames, and appends the reused phases' last writes to the chunk's, after its own.
pub(super) fn reuse_writes(
    plan: ReusePlan,
    grid: SampleGrid,
    samples: std::ops::Range<usize>,
    chunk: &mut Chunk,
    cache: &mut ChunkReuse,
) {
    let phases = plan.phases as usize;
    if cache.phases.len() != phases {
        cache.phases.clear();
        cache.phases.resize_with(phases, Default::default);
    }
    for (p, phase) in cache.phases.iter_mut().enumerate() {
        if plan.has(p as u32) {
            phase.writes.clear();
            phase.hits = 0;
        }
    }
    let row = grid.blocks_x as usize;
    let cell = |i: usize| ((i % row) as u32, (i / row) as u32);
    for (hit, reads) in chunk.hits.iter().zip(&chunk.reads) {
        let (bx, by) = cell(hit.sample);
        let phase = &mut cache.phases[plan.phase(bx, by) as usize];
        phase.writes.extend_from_slice(&chunk.location_writes[reads.start as usize..reads.end as usize]);
        phase.hits += 1;
    }
    for (p, phase) in cache.phases.iter().enumerate() {
        if !plan.has(p as u32) {
            chunk.location_writes.extend_from_slice(&phase.writes);
            chunk.reused_hits += phase.hits;
        }
    }
    // The band's whole rows: per row, the cells of each phase are every `phases`-th.
    let (first_row, last_row) = (samples.start / row, samples.end / row);
    let mut reused = 0;
    for by in first_row as u32..last_row as u32 {
        for p in (0..plan.phases).filter(|&p| !plan.has(p)) {
            let first = (p + plan.phases - by % plan.phases) % plan.phases;
            reused += u64::from((grid.blocks_x + plan.phases - 1 - first) / plan.phases);
        }
    }
    chunk.reused_samples = reused;
}

/// How far (pixels at the screen's centre) any point at least `nearest` away moves on
/// screen from `prev`'s view to `cur`'s: the rotation's angle plus the translation's
/// parallax, over a pixel's angle. Infinite when the projection itself changed.
fn motion_pixels(prev: &RayCamera, cur: &RayCamera, nearest: f64) -> f64 {
    if prev.tan_half_fov_y != cur.tan_half_fov_y || (prev.width, prev.height) != (cur.width, cur.height) {
        return f64::INFINITY;
    }
    // The rotation taking one orthonormal frame to the other: trace = 1 + 2 cos θ.
    let trace = prev.forward.dot(cur.forward) + prev.right.dot(cur.right) + prev.up.dot(cur.up);
    let angle = ((trace - 1.0) * 0.5).clamp(-1.0, 1.0).acos();
    let shift = (cur.position - prev.position).length();
    let parallax = if shift == 0.0 { 0.0 } else { (shift / nearest).atan() };
    let pixel = (cur.pixel_step()).atan();
    let moved = (angle + parallax) / pixel;
    if moved.is_nan() {
        f64::INFINITY
    } else {
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn camera(position: DVec3, forward: DVec3) -> RayCamera {
        RayCamera::new(position, forward, DVec3::Y, 60.0, 1920, 1080)
    }

    #[test]
    fn motion_is_the_rotation_and_the_parallax_in_pixels() {
        let a = camera(DVec3::ZERO, -DVec3::Z);
        assert_eq!(motion_pixels(&a, &a, 10.0), 0.0);
        // Turning by one pixel's angle at the centre moves the centre one pixel.
        let pixel = a.pixel_step().atan();
        let b = camera(DVec3::ZERO, DVec3::new(pixel.sin(), 0.0, -pixel.cos()));
        assert!((motion_pixels(&a, &b, 10.0) - 1.0).abs() < 1e-6, "{}", motion_pixels(&a, &b, 10.0));
        // Sliding sideways by d at distance D moves a point by atan(d / D).
        let c = camera(DVec3::new(0.5, 0.0, 0.0), -DVec3::Z);
        let expected = (0.5f64 / 100.0).atan() / pixel;
        assert!((motion_pixels(&a, &c, 100.0) - expected).abs() < 1e-6);
        // Twice as near, about twice the motion.
        assert!(motion_pixels(&a, &c, 50.0) > 1.9 * expected);
        let zoomed = RayCamera::new(DVec3::ZERO, -DVec3::Z, DVec3::Y, 50.0, 1920, 1080);
        assert_eq!(motion_pixels(&a, &zoomed, 10.0), f64::INFINITY);
        // Inside an object's box: a quarter turn of parallax, far past any bound.
        assert!(motion_pixels(&a, &c, 0.0) > MAX_REUSE_MOTION);
    }

    #[test]
    fn each_phase_is_traced_in_turn_and_when_the_camera_moved_too_far() {
        let cfg = TemporalReuse { frames: 4, max_motion: 4.0 };
        let mut state = ReuseState::new(cfg);
        let a = camera(DVec3::ZERO, -DVec3::Z);
        // The first frame traces everything.
        assert!(state.plan(&a, 0, Some(10.0), 4).all());
        // Still camera: one phase a frame, in turn.
        for f in 1..7u64 {
            let plan = state.plan(&a, f, Some(10.0), 4);
            let fresh: Vec<u32> = (0..4).filter(|&p| plan.has(p)).collect();
            assert_eq!(fresh, vec![(f % 4) as u32], "frame {f}");
        }
        // A skipped frame, a cut or a different chunking traces everything again.
        assert!(state.plan(&a, 8, Some(10.0), 4).all());
        assert!(!state.plan(&a, 9, Some(10.0), 4).all());
        assert!(state.plan(&a, 10, Some(10.0), 5).all());
        // A turn of 3 pixels a frame: a phase reused once has moved 3, twice 6 (> 4).
        let pixel = a.pixel_step().atan();
        let mut fresh_counts = Vec::new();
        for f in 11..17u64 {
            let angle = 3.0 * pixel * (f - 10) as f64;
            let cam = camera(DVec3::ZERO, DVec3::new(angle.sin(), 0.0, -angle.cos()));
            let plan = state.plan(&cam, f, Some(10.0), 5);
            fresh_counts.push((0..4).filter(|&p| plan.has(p)).count());
        }
        // The first turn leaves every phase within the bound; from then on each frame
        // re-traces the phases that passed it as well as its own.
        assert_eq!(fresh_counts[0], 1);
        assert!(fresh_counts[1..].iter().all(|&n| n >= 2), "{fresh_counts:?}");
    }

    #[test]
    fn settings_out_of_range_are_refused_naming_the_field() {
        let err = TemporalReuse { frames: 1, max_motion: 4.0 }.validate().unwrap_err().to_string();
        assert!(err.contains("frames") && err.contains("2 or 4"), "{err}");
        for bad in [0, 3, 8, 16] {
            let err = TemporalReuse { frames: bad, max_motion: 4.0 }.validate().unwrap_err().to_string();
            assert!(err.contains("frames"), "{err}");
        }
        for bad in [0.0, -1.0, f64::NAN, 65.0, f64::INFINITY] {
            let err = TemporalReuse { frames: 2, max_motion: bad }.validate().unwrap_err().to_string();
            assert!(err.contains("max_motion"), "{err}");
        }
        assert!(TemporalReuse { frames: 2, max_motion: 4.0 }.validate().is_ok());
    }
}
