//! Shading and sampling a chunk of a frame's samples (read-only: chunks run in parallel).
//!
//! The chunk goes through three short passes — shade every hit, then compute every
//! desired LOD, then clamp every texture read and find the feedback it writes (the sample
//! location's texel, or the footprint's rectangles) — rather than one long body per
//! sample: each pass's iterations are independent, so the core overlaps the divisions,
//! square roots and logarithms of neighbouring samples instead of waiting on each in turn.
//! The arithmetic is the same either way.

use super::super::visibility::{SampleHits, Visibility, MISS};
use super::super::RayCamera;
use super::materials::MaterialTexture;
use super::recent::Recent;
use super::reuse::{reuse_writes, ChunkReuse, ReusePlan};
use super::{FeedbackRenderer, FeedbackWrites};
use sfsim_models::gpu::{DesiredLod, Lod53, Lods, MipRegions, RegionRuns};
use std::sync::{Mutex, PoisonError};

/// About the samples per parallel work item (a band of whole block rows: a chunk resolves
/// its own rows' visibility).
pub(super) const CHUNK: usize = 256;

/// One texture read of a traced pixel: its LODs and which feedback it writes.
#[derive(Clone, Copy)]
pub(super) struct TracedSample {
    pub texture: u32,
    pub desired: f32,
    pub effective: f32,
    pub writes: Writes,
    /// [`NONRESIDENT`] and [`NONRESIDENT_POINT`] flags (0 when quality is not measured).
    pub nonresident: u8,
}

/// [`TracedSample::nonresident`]: the read touches a tile its MinMip map has not resident.
pub(super) const NONRESIDENT: u8 = 1;
/// [`TracedSample::nonresident`]: it would with a point-sampled MinMip clamp.
pub(super) const NONRESIDENT_POINT: u8 = 2;

/// A texture read of timing-only MinMip feedback at the location: all it yields is the
/// value written and where (a fifth of a [`TracedSample`]'s bytes, one loop to merge).
#[derive(Clone, Copy)]
pub(super) struct LocationWrite {
    pub texture: u32,
    /// The feedback texel, x | y << 16 (maps are at most 16384 / 4 texels across).
    pub texel: u32,
    pub value: Lod53,
}

#[derive(Clone, Copy)]
pub(super) enum Writes {
    /// Over the footprint: its rectangles, `start..end` of the chunk's region buffer, and
    /// the value MinMip feedback records there.
    Regions(u32, u32, Lod53),
    /// At the location: the feedback texel and the value MinMip feedback records there.
    Texel(u32, u32, Lod53),
}

/// One parallel work item's output, and its scratch buffers, reused across frames.
#[derive(Default)]
pub(super) struct Chunk {
    /// Samples (pixels) in the chunk.
    pub len: usize,
    /// Their rays and nearest hits.
    visible: SampleHits,
    /// The samples that hit something, in sample order.
    pub hits: Vec<ShadedHit>,
    /// Per hit, its texture reads in `samples`, or in `location_writes` when those are
    /// all a read yields.
    pub reads: Vec<std::ops::Range<u32>>,
    pub samples: Vec<TracedSample>,
    pub location_writes: Vec<LocationWrite>,
    /// The feedback rectangles of reads that write over their footprint.
    pub regions: Vec<MipRegions>,
    /// Scratch for the quality check's MinMip covers of one read.
    covers: Vec<MipRegions>,
    desired: Vec<Option<DesiredLod>>,
    /// Timing-only MinMip feedback at the location: per hit, the length whose log2 is its
    /// first texture's desired LOD, then that LOD in 5.3 form (all the reads need).
    lengths: Vec<Option<f64>>,
    values: Vec<Option<Lod53>>,
    /// With `render.reuse`: of the chunk's samples, those whose writes (at the end of
    /// `location_writes`) were reused, and how many of them hit something.
    pub reused_samples: u64,
    pub reused_hits: u64,
}

/// A sample that hit something: where, and the UV derivatives there.
#[derive(Clone, Copy)]
pub(super) struct ShadedHit {
    /// Its index in the frame's samples.
    pub sample: usize,
    object: u32,
    uv: (f64, f64),
    derivs: [f64; 4],
}

impl FeedbackRenderer<'_> {
    /// Traces the samples of the visibility pass's band `band` into `chunk`.
    pub(super) fn trace_chunk(
        &self,
        camera: &RayCamera,
        visibility: &Visibility,
        pixels: &[(u32, u32)],
        band: usize,
        reuse: Option<(ReusePlan, &Mutex<ChunkReuse>)>,
        chunk: &mut Chunk,
    ) {
        let cells = reuse.map(|(plan, _)| plan);
        let range = visibility.resolve(camera, &self.scene.shapes, pixels, band, cells, &mut chunk.visible);
        let visible = &chunk.visible;
        chunk.len = range.len();
        chunk.reads.clear();
        chunk.samples.clear();
        chunk.location_writes.clear();
        chunk.regions.clear();
        chunk.hits.clear();
        chunk.desired.clear();
        chunk.lengths.clear();
        chunk.values.clear();
        (chunk.reused_samples, chunk.reused_hits) = (0, 0);
        // Pass 1: shading.
        for i in range.clone() {
            let (nearest, t) = visible.nearest_hit(i);
            let object = nearest.object;
            if object == MISS {
                continue;
            }
            let ray = visible.ray(camera, i);
            if let Some((uv, derivs)) = camera.shade_uv(&self.scene.shapes, &ray, object, t, nearest.face) {
                chunk.hits.push(ShadedHit { sample: i, object, uv: (wrap_unit(uv.0), wrap_unit(uv.1)), derivs });
            }
        }
        let at_location = self.cfg.feedback.writes == FeedbackWrites::Location;
        if at_location && self.feedback_value_only {
            // Timing only, MinMip feedback at the location: each read yields its feedback
            // value and nothing else, so the LOD never leaves 5.3 form (no logarithm).
            // In two steps, each a short loop whose iterations overlap: the lengths (square
            // root and divisions), then their 5.3 values.
            let lengths = chunk.hits.iter().map(|h| {
                let first = self.materials[h.object as usize].first()?;
                self.samplers[first.texture as usize].desired_length(h.derivs).ok()
            });
            chunk.lengths.extend(lengths);
            let values = chunk.hits.iter().zip(&chunk.lengths).map(|(h, &length)| {
                let first = self.materials[h.object as usize].first()?;
                Some(self.samplers[first.texture as usize].lod53_of(length?))
            });
            chunk.values.extend(values);
            for (hit, &value) in chunk.hits.iter().zip(&chunk.values) {
                let start = chunk.location_writes.len() as u32;
                self.feedback_values_at_location(hit, value, &mut chunk.location_writes);
                chunk.reads.push(start..chunk.location_writes.len() as u32);
            }
            if let Some((plan, cache)) = reuse {
                let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
                reuse_writes(plan, visibility.grid(), range, chunk, &mut cache);
            }
            return;
        }
        // Pass 2: the desired LOD of each hit's first texture (its set usually shares it).
        let desired = chunk.hits.iter().map(|h| {
            let first = self.materials[h.object as usize].first()?;
            self.samplers[first.texture as usize].desired(h.derivs).ok()
        });
        chunk.desired.extend(desired);
        // Pass 3: every texture read, in sample order.
        for (hit, &desired) in chunk.hits.iter().zip(&chunk.desired) {
            let start = chunk.samples.len() as u32;
            let regions = (!at_location).then_some(&mut chunk.regions);
            self.sample_textures(hit, desired, &mut chunk.samples, regions, &mut chunk.covers);
            chunk.reads.push(start..chunk.samples.len() as u32);
        }
    }

    /// Samples every texture of the hit's material. `first_desired` is the desired LOD of
    /// its first texture. Feedback goes at the sample location, or over the filter
    /// footprint when `regions` collects the footprint's feedback rectangles.
    fn sample_textures(
        &self,
        hit: &ShadedHit,
        first_desired: Option<DesiredLod>,
        out: &mut Vec<TracedSample>,
        mut regions: Option<&mut Vec<MipRegions>>,
        covers: &mut Vec<MipRegions>,
    ) {
        let textures = &self.materials[hit.object as usize];
        // A set's textures usually share a size, hence the desired LOD, and often a
        // feedback layout, hence the texel written.
        let mut desired = textures.first().map(|m| (m.sampler_class, first_desired));
        let mut texel = Recent::default();
        // The usual point-sampled clamp: one MinMip texel index per map size.
        let point_clamp = self.cfg.sampler.minmip.is_none();
        let mut minmip_texel = Recent::default();
        let mut rects = Recent::default();
        let uv_finite = hit.uv.0.is_finite() && hit.uv.1.is_finite();
        for m in textures {
            let sampler = &self.samplers[m.texture as usize];
            let d = match desired {
                Some((class, d)) if class == m.sampler_class => d,
                _ => {
                    let d = sampler.desired(hit.derivs).ok();
                    desired = Some((m.sampler_class, d));
                    d
                }
            };
            let Some(d) = d else { continue };
            let map = &self.minmip[m.texture as usize];
            // Over the footprint: its feedback rectangles first, which an unclamped read's
            // quality check reuses where they are its MinMip covers.
            let rects = regions.as_deref_mut().map(|regions| self.footprint_rects(hit.uv, &d, m, &mut rects, regions));
            let covers_from = match (&regions, rects) {
                (Some(regions), Some((start, end))) if self.feedback_covers_reads[m.texture as usize] => {
                    Some(&regions[start as usize..end as usize])
                }
                _ => None,
            };
            let lods = if !self.cfg.measure_quality {
                // Timing only: the effective LOD is not needed (nor read); over the
                // footprint it is the desired one, as an unclamped read's is.
                match rects {
                    None => Some((d.lod(), f32::NAN, 0)),
                    Some(_) => uv_finite.then(|| (d.lod(), d.lod(), 0)),
                }
            } else if point_clamp {
                let index = minmip_texel.get_or(m.minmip_class, || map.point_index(hit.uv.0, hit.uv.1));
                index.map(|i| {
                    let clamp = map.clamp_at(i);
                    // The usual case first, inline: every tile the read could reach is
                    // resident under this (the configured) clamp. A clamp (>= 0) only
                    // coarsens the read, so a read resident at clamp 0 is resident: that
                    // test first, which waits on no load of the map's texel.
                    let check = &self.residency[m.texture as usize];
                    let nonresident = if check.resident_from(map, sampler.finest_read_mip_clamped(&d, 0.0))
                        || check.resident_from(map, sampler.finest_read_mip_clamped(&d, clamp))
                    {
                        0
                    } else {
                        self.nonresident_flags(m.texture, hit.uv, &d, clamp, covers_from, covers)
                    };
                    (d.lod(), d.effective(clamp), nonresident)
                })
            } else {
                sampler.clamped(hit.uv, &d, Some(map)).ok().map(|l| {
                    let nonresident = self.nonresident_flags(m.texture, hit.uv, &d, l.clamp, covers_from, covers);
                    (l.desired_lod, l.effective_lod, nonresident)
                })
            };
            let Some((desired, effective, nonresident)) = lods else { continue };
            let layout = &self.layouts[m.texture as usize];
            let value = layout.recorded_value(desired, self.cfg.feedback.small_tail);
            let writes = match rects {
                Some((start, end)) => Writes::Regions(start, end, value),
                None => {
                    let (tx, ty) = texel.get_or(m.layout_class, || self.locators[m.texture as usize].locate(hit.uv));
                    Writes::Texel(tx, ty, value)
                }
            };
            out.push(TracedSample { texture: m.texture, desired, effective, writes, nonresident });
        }
    }

    /// The `start..end` in `regions` of the feedback rectangles of `m`'s read at `uv`:
    /// found by a recent read of its class, derived from its material's finer-region
    /// texture's, or worked out and appended.
    #[inline]
    fn footprint_rects(
        &self,
        uv: (f64, f64),
        d: &DesiredLod,
        m: &MaterialTexture,
        recent: &mut Recent<(u32, u32, RegionRuns)>,
        regions: &mut Vec<MipRegions>,
    ) -> (u32, u32) {
        let walk = |texture: u32, regions: &mut Vec<MipRegions>| {
            let start = regions.len() as u32;
            let runs = self.footprint_regions[texture as usize].regions(uv, d, regions);
            (start, regions.len() as u32, runs)
        };
        let (start, end, _) = recent.get_or_else(m.regions_class, |recent| {
            let Some(from) = m.regions_from else { return walk(m.texture, regions) };
            let (fine_start, fine_end, runs) = recent.get_or(from.regions_class, || walk(from.texture, regions));
            let start = regions.len() as u32;
            if from.coarsen.append(regions, fine_start as usize..fine_end as usize, runs) {
                (start, regions.len() as u32, RegionRuns::Runs)
            } else {
                walk(m.texture, regions)
            }
        });
        (start, end)
    }

    /// A hit's texture reads when only their feedback values are wanted (timing-only
    /// MinMip feedback at the location): `first_value` is the 5.3 desired LOD of the
    /// material's first texture.
    fn feedback_values_at_location(&self, hit: &ShadedHit, first_value: Option<Lod53>, out: &mut Vec<LocationWrite>) {
        let textures = &self.materials[hit.object as usize];
        let mut value = textures.first().map(|m| (m.sampler_class, first_value));
        let mut texel = Recent::default();
        for m in textures {
            let v = match value {
                Some((class, v)) if class == m.sampler_class => v,
                _ => {
                    let v = self.samplers[m.texture as usize].desired_lod53(hit.derivs).ok();
                    value = Some((m.sampler_class, v));
                    v
                }
            };
            let Some(v) = v else { continue };
            let (tx, ty) = texel.get_or(m.layout_class, || self.locators[m.texture as usize].locate(hit.uv));
            let value = self.layouts[m.texture as usize].recorded_lod53(v, self.cfg.feedback.small_tail);
            out.push(LocationWrite { texture: m.texture, texel: tx | ty << 16, value });
        }
    }

    /// The [`NONRESIDENT`] / [`NONRESIDENT_POINT`] flags of a texture read at `uv` of
    /// desired LOD `d` under the configured MinMip clamp `clamp` (mips): whether the read's
    /// footprint touches a tile the texture's MinMip map has not resident, and whether it
    /// would under the point-sampled clamp.
    fn nonresident_flags(
        &self,
        texture: u32,
        uv: (f64, f64),
        d: &DesiredLod,
        clamp: f32,
        feedback_rects: Option<&[MipRegions]>,
        covers: &mut Vec<MipRegions>,
    ) -> u8 {
        let t = texture as usize;
        let (sampler, map, check) = (&self.samplers[t], &self.minmip[t], &self.residency[t]);
        let reads = &self.read_regions[t];
        let mut touches = |l: &Lods| {
            // Every tile the read could reach is resident: no covers needed.
            if check.resident_from(map, sampler.finest_read_mip(l)) {
                return false;
            }
            match feedback_rects {
                // Unclamped, the read's footprint is the feedback footprint.
                Some(rects) if !l.is_clamped() => reads.rects_touch_nonresident(map, rects),
                _ => reads.touches_nonresident(map, uv, l, covers),
            }
        };
        // `clamped` with the clamp already known: `desired` and the clamp are all it uses.
        let configured = touches(&d.with_clamp(clamp));
        let point = if self.cfg.sampler.minmip.is_none() {
            configured
        } else {
            // The point clamp is never above the filtered one (the filter's own texel term).
            let point_clamp = map.clamp_point(uv.0, uv.1).unwrap_or(0.0);
            if point_clamp == clamp {
                configured
            } else {
                touches(&d.with_clamp(point_clamp))
            }
        };
        (u8::from(configured) * NONRESIDENT) | (u8::from(point) * NONRESIDENT_POINT)
    }
}

/// `u.rem_euclid(1.0)`, without the libm call for the usual case of a value already in
/// [0, 1).
#[inline]
fn wrap_unit(u: f64) -> f64 {
    if (0.0..1.0).contains(&u) {
        u
    } else {
        u.rem_euclid(1.0)
    }
}
