//! Merging traced chunks into the frame: statistics, then feedback writes, chunk by chunk
//! in sample order so every run writes the same maps and sums the same floats.
//!
//! On several cores the pool's workers trace chunks in order of a shared counter while the
//! calling thread merges each finished chunk as soon as every earlier one is merged: the
//! merge (serial, about a sixth of a frame) overlaps the tracing instead of following it.
//! The calling thread counts as one of the cores: it takes chunks to trace too whenever the
//! next one to merge is not ready, and one worker fewer is started.
//! A caller that is itself one of a pool's workers (a sweep point) traces on the pool and
//! merges after: it must not block on work only the pool's workers can do.
//! Shading only reads the renderer, and what merging writes ([`FeedbackSink`]) is out of
//! the renderer for the frame, so the two never touch the same data.

use super::reuse::{ChunkReuse, ReusePlan};
use super::trace::{Chunk, TracedSample, Writes, NONRESIDENT, NONRESIDENT_POINT};
use super::{FeedbackKind, FeedbackRenderer, FrameBuffers, FrameStats, PixelLods, READ_MIPS};
use crate::scene::requests::FirstWrites;
use crate::scene::RayCamera;
use rayon::prelude::*;
use sfsim_models::gpu::{linear_mips, FeedbackArray, Lod53, MipRegionUsedFeedback, MipRegions};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};

/// Chunk buffers a frame's tracing cycles through on several cores (see `trace_and_merge`).
const RING: usize = 8;

/// What merging chunks changes: the feedback maps, the MinMip first-write lists and which
/// textures were written.
pub(super) struct FeedbackSink {
    arrays: Vec<FeedbackArray>,
    first_writes: Option<Vec<FirstWrites>>,
    region_used: Vec<MipRegionUsedFeedback>,
    written: Vec<bool>,
}

impl FeedbackSink {
    /// Moves the write state out of `renderer` (no copy) for one frame.
    pub(super) fn take_from(renderer: &mut FeedbackRenderer<'_>) -> FeedbackSink {
        FeedbackSink {
            arrays: std::mem::take(&mut renderer.arrays),
            first_writes: renderer.first_writes.take(),
            region_used: std::mem::take(&mut renderer.region_used),
            written: std::mem::take(&mut renderer.written),
        }
    }

    /// Moves it back at the end of the frame.
    pub(super) fn put_back(self, renderer: &mut FeedbackRenderer<'_>) {
        renderer.arrays = self.arrays;
        renderer.first_writes = self.first_writes;
        renderer.region_used = self.region_used;
        renderer.written = self.written;
    }
}

/// Where a texture's MinMip feedback map lies: its array, the index there of its first
/// texel, and its size (a texel is checked against the size, then written at
/// `start + y × width + x`), looked up once per read instead of the array's fields.
#[derive(Debug, Clone, Copy)]
pub(super) struct MinMipTarget {
    array: usize,
    start: usize,
    width: u32,
    height: u32,
}

impl MinMipTarget {
    /// Atomic-mins `value` into texel (`x`, `y`) of the map in `arrays`: whether it is the
    /// texel's first request since the clear, `None` (nothing written) outside the map.
    #[inline]
    fn write(&self, arrays: &mut [FeedbackArray], x: u32, y: u32, value: Lod53) -> Option<bool> {
        self.write_in(arrays[self.array].texels_mut(), x, y, value)
    }

    /// [`write`](Self::write) into the target array's texels, `texels`, looked up once for
    /// many writes.
    #[inline(always)]
    fn write_in(&self, texels: &mut [u8], x: u32, y: u32, value: Lod53) -> Option<bool> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let texel = texels.get_mut(self.start + y as usize * self.width as usize + x as usize)?;
        let previous = *texel;
        *texel = previous.min(value.0);
        Some(previous == Lod53::NONE.0 && value != Lod53::NONE)
    }
}

impl FeedbackRenderer<'_> {
    /// Works out each texture's [`MinMipTarget`] from its slot and whether it writes, and
    /// which textures mirror another's feedback.
    pub(super) fn refresh_minmip_targets(&mut self) {
        let target = |(&(array, slice), &writes): (&(usize, u32), &bool)| {
            let a = &self.arrays[array];
            let start = a.slice_start(slice).filter(|_| writes)?;
            Some(MinMipTarget { array, start, width: a.width(), height: a.height() })
        };
        self.minmip_targets = self.slots.iter().zip(&self.writes_feedback).map(target).collect();
        self.refresh_twins();
    }

    /// Traces the frame's chunks on the pool's threads and merges them in chunk order
    /// (`bufs.traced` holds one buffer per chunk): on this thread as they finish when it is
    /// outside the pool, after they all finished when it is one of the pool's own workers
    /// (a sweep's point), which must not block waiting for work it would have to run.
    pub(super) fn trace_and_merge<'r>(
        &self,
        camera: &RayCamera,
        bufs: &mut FrameBuffers,
        reuse_of: &(dyn Fn(usize) -> Option<(ReusePlan, &'r Mutex<ChunkReuse>)> + Sync),
        sink: &mut FeedbackSink,
        stats: &mut FrameStats,
        mut pixels: Option<&mut Vec<PixelLods>>,
    ) {
        if rayon::current_thread_index().is_some() {
            let (frame_pixels, visibility) = (&bufs.pixels[..], &bufs.visibility);
            bufs.traced.par_iter_mut().enumerate().for_each(|(c, chunk)| {
                let chunk = chunk.get_mut().unwrap_or_else(PoisonError::into_inner);
                self.trace_chunk(camera, visibility, frame_pixels, c, reuse_of(c), chunk);
            });
            for chunk in &mut bufs.traced {
                let chunk = chunk.get_mut().unwrap_or_else(PoisonError::into_inner);
                self.merge_chunk(sink, chunk, &bufs.pixels, stats, pixels.as_deref_mut());
            }
            return;
        }
        let (frame_pixels, visibility, traced) = (&bufs.pixels[..], &bufs.visibility, &bufs.traced[..]);
        let chunks = traced.len();
        // Chunk c fills buffer c % ring once chunk c - ring is merged: the frame's chunk data
        // stays in a few buffers, in cache, instead of one buffer per chunk.
        let ring = RING.min(chunks);
        let next = AtomicUsize::new(0);
        let merged_so_far = AtomicUsize::new(0);
        let trace = |c: usize| {
            // A worker got ahead of the merge by a whole ring: wait for the buffer.
            while c >= merged_so_far.load(Ordering::Acquire) + ring {
                std::thread::yield_now();
            }
            let mut chunk = traced[c % ring].lock().unwrap_or_else(PoisonError::into_inner);
            self.trace_chunk(camera, visibility, frame_pixels, c, reuse_of(c), &mut chunk);
        };
        let (done_tx, done_rx) = mpsc::channel::<usize>();
        rayon::in_place_scope(|scope| {
            // One worker fewer than the pool has threads: this thread is the last one, so
            // the cores are not oversubscribed while it merges.
            for _ in 1..rayon::current_num_threads() {
                let (done_tx, next, trace) = (done_tx.clone(), &next, &trace);
                scope.spawn(move |_| loop {
                    // Chunks are taken in order, so they finish about in the order merged.
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        return;
                    }
                    trace(c);
                    // The receiver outlives every worker: a send only fails after a panic,
                    // which the scope passes on.
                    let _ = done_tx.send(c);
                });
            }
            drop(done_tx);
            let mut finished = vec![false; chunks];
            let mut merged = 0;
            // A chunk this thread took whose buffer was not free yet: traced once it is
            // (this thread is the one that frees it, so it never waits in `trace`).
            let mut held = None;
            while merged < chunks {
                for c in done_rx.try_iter() {
                    finished[c] = true;
                }
                if finished[merged] {
                    let chunk = traced[merged % ring].lock().unwrap_or_else(PoisonError::into_inner);
                    self.merge_chunk(sink, &chunk, frame_pixels, stats, pixels.as_deref_mut());
                    drop(chunk);
                    merged += 1;
                    merged_so_far.store(merged, Ordering::Release);
                    continue;
                }
                // The next chunk to merge is still being traced: trace one meanwhile, or,
                // with none left to take (or its buffer still in use), wait for a worker.
                let c = held.take().unwrap_or_else(|| next.fetch_add(1, Ordering::Relaxed));
                if c < chunks {
                    if c < merged + ring {
                        trace(c);
                        finished[c] = true;
                        continue;
                    }
                    held = Some(c);
                }
                match done_rx.recv() {
                    Ok(c) => finished[c] = true,
                    // Every worker is gone with chunks unmerged: one panicked, and the
                    // scope passes that on.
                    Err(_) => return,
                }
            }
        });
    }

    /// Adds a traced chunk's statistics to `stats` and writes its feedback, in sample order.
    pub(super) fn merge_chunk(
        &self,
        sink: &mut FeedbackSink,
        chunk: &Chunk,
        frame_pixels: &[(u32, u32)],
        stats: &mut FrameStats,
        pixels: Option<&mut Vec<PixelLods>>,
    ) {
        stats.samples += chunk.len as u64;
        stats.hits += chunk.hits.len() as u64 + chunk.reused_hits;
        stats.reused_samples += chunk.reused_samples;
        stats.texture_samples += (chunk.samples.len() + chunk.location_writes.len()) as u64;
        if self.cfg.measure_quality {
            stats.quality_samples += chunk.samples.len() as u64;
            for s in &chunk.samples {
                let deficit = f64::from(s.effective - s.desired).max(0.0);
                stats.lod_deficit_sum += deficit;
                stats.blurry += u64::from(deficit >= 1.0);
                stats.nonresident_reads += u64::from(s.nonresident & NONRESIDENT != 0);
                stats.nonresident_reads_point += u64::from(s.nonresident & NONRESIDENT_POINT != 0);
                // floor() without the libm call: for x >= 0 truncation is the floor, and a
                // negative or NaN x (never measured) casts to mip 0 either way. The cast to
                // u32 saturates as the one to usize would, in fewer instructions.
                let mip = (s.effective as u32).min(READ_MIPS as u32 - 1) as usize;
                stats.reads_by_mip[mip] += 1;
            }
        }
        if let Some(out) = pixels {
            for (hit, reads) in chunk.hits.iter().zip(&chunk.reads) {
                let (x, y) = frame_pixels[hit.sample];
                let first = reads.start as usize;
                if reads.is_empty() {
                    continue;
                }
                if let Some(s) = chunk.samples.get(first) {
                    out.push(PixelLods { x, y, texture: s.texture, desired: s.desired, effective: s.effective });
                } else if let Some(w) = chunk.location_writes.get(first) {
                    // Only the feedback value was worked out: no LODs.
                    out.push(PixelLods { x, y, texture: w.texture, desired: f32::NAN, effective: f32::NAN });
                }
            }
        }
        // Atomic-min and bit-set writes: their order does not matter.
        if let Some(lists) = sink.first_writes.as_mut() {
            // Timing-only reads at the location: a value and a texel each.
            let mut feedback_writes = 0;
            for w in &chunk.location_writes {
                let tex = w.texture as usize;
                let Some(target) = self.minmip_targets[tex] else { continue };
                feedback_writes += 1;
                if self.twin_of[tex].is_some() {
                    continue; // mirrored after the merge
                }
                if let Some(first) = target.write(&mut sink.arrays, w.texel & 0xFFFF, w.texel >> 16, w.value) {
                    lists[tex].record(w.texel, first);
                }
            }
            stats.feedback_writes += feedback_writes;
            // MinMip feedback, the kind with first-write lists (which also tell which
            // textures were written): its own short loop.
            for s in &chunk.samples {
                let tex = s.texture as usize;
                let Some(target) = self.minmip_targets[tex] else { continue };
                stats.feedback_writes += 1;
                if self.twin_of[tex].is_some() {
                    continue; // mirrored after the merge
                }
                // About half the writes are first writes: recorded without a branch.
                // Feedback maps are at most 16384 / 4 texels across: x and y fit 16 bits.
                match s.writes {
                    Writes::Texel(x, y, value) => {
                        if let Some(first) = target.write(&mut sink.arrays, x, y, value) {
                            lists[tex].record(x | y << 16, first);
                        }
                    }
                    Writes::Regions(start, end, value) => {
                        // The map's texels and the list's count are held in registers over
                        // the read's writes (through the structs they would be re-read
                        // after each store; for one write that costs more than it saves).
                        let (texels, mut list) = (sink.arrays[target.array].texels_mut(), lists[tex].recorder());
                        let mut write = |x: u32, y: u32, value: Lod53| {
                            if let Some(first) = target.write_in(texels, x, y, value) {
                                list.record(x | y << 16, first);
                            }
                        };
                        let mut rects = &chunk.regions[start as usize..end as usize];
                        // Both mips of a read often land on the same feedback texels (the
                        // regions are in mip 0's texels): writing them twice would change
                        // nothing, neither a value nor a first write.
                        if let [a, b] = rects {
                            if a.rect == b.rect {
                                rects = &rects[..1];
                            }
                        }
                        for r in rects {
                            // Half-open ranges (map coordinates are far below u32::MAX):
                            // an inclusive range's exhaustion flag cost more than the write.
                            for y in r.rect.y0..r.rect.y1 + 1 {
                                for x in r.rect.x0..r.rect.x1 + 1 {
                                    write(x, y, value);
                                }
                            }
                        }
                    }
                }
            }
            return;
        }
        for s in &chunk.samples {
            let tex = s.texture as usize;
            if self.writes_feedback[tex] {
                stats.feedback_writes += 1;
                sink.written[tex] = true;
                self.write_feedback(sink, s, &chunk.regions);
            }
        }
    }

    /// Writes one texture read's feedback, over its footprint or at its location.
    fn write_feedback(&self, sink: &mut FeedbackSink, s: &TracedSample, regions: &[MipRegions]) {
        let tex = s.texture;
        let layout = &self.layouts[tex as usize];
        match (self.cfg.feedback.kind, s.writes) {
            (FeedbackKind::MinMip, _) => unreachable!("MinMip writes take merge_chunk's own loop"),
            (FeedbackKind::MipRegionUsed, Writes::Regions(start, end, _)) => {
                let regions = &regions[start as usize..end as usize];
                let _ = layout.write_region_used_regions(&mut sink.region_used[tex as usize], regions);
            }
            (FeedbackKind::MipRegionUsed, Writes::Texel(x, y, _)) => {
                let (first, second) = linear_mips(f64::from(s.desired), layout.mip_count());
                let map = &mut sink.region_used[tex as usize];
                map.set(x, y, first);
                if let Some(mip) = second {
                    map.set(x, y, mip);
                }
            }
        }
    }
}
