//! A frame on the engine's timeline. BeginFrame (the render thread): with `PerFrame`,
//! completed tiles' MinMip updates; then evictions; their MinMip copy heads the frame's
//! command list, which the GPU runs behind earlier work — copy, render, feedback resolve
//! and copy (and `GpuAnalysis`'s pass). The feedback thread and, with `StreamingThread`,
//! the streaming thread and copy queue run between frames in [`Engine::advance`].

use super::pass::Feedback;
use super::timeline::{Completions, FrameGpu, FrameWork};
use super::{Engine, EngineError, FrameReport, Status, TileId};
use crate::iopath::IoPath;
use crate::scene::FeedbackRenderer;
use sfsim_models::texture::TileCoord;
use sfsim_models::units::Time;

impl Engine {
    /// The render thread's BeginFrame at `now`: completed tiles become visible through
    /// this frame's MinMip copy (`PerFrame`), then evictions. The MinMip maps the frame
    /// renders with are in `renderer` when this returns.
    pub fn begin_frame(&mut self, now: Time, renderer: &mut FeedbackRenderer) -> Result<(), EngineError> {
        let mut report = FrameReport {
            tiles_in_flight: self.requests.tiles() as u64,
            pool_used: self.pool.used(),
            ..FrameReport::default()
        };
        let mut texels = 0u64;
        let mut changed: Vec<u32> = Vec::new();
        if self.cfg.completions == Completions::PerFrame {
            for id in std::mem::take(&mut self.lists.complete) {
                self.db.state_mut(id).status = Status::Resident;
                self.lists.resident.push(&self.db, id);
                self.lists.showing.push(id);
                // The sample rewrites the texture's map for every tile it completes.
                texels += self.minmip.texels(id.texture);
                changed.push(id.texture);
            }
            report.became_visible += self.lists.showing.len() as u32;
            changed.sort_unstable();
            changed.dedup();
            for &t in &changed {
                self.minmip.refresh(&self.db, t);
            }
        }
        let victims = self.policies.eviction.victims(now, &self.db, self.lists.resident.ids());
        let evicted = self.evict(now, &victims)?;
        // One UpdateTileMappings call unmaps the frame's evictions.
        if let Some(span) = self.mapping.queue(&mut self.timeline.gpu, now, Vec::new()) {
            self.timeline.spans.mapping_calls.push(span);
        }
        for &t in &evicted {
            texels += self.minmip.texels(t);
        }
        changed.extend(evicted);
        changed.sort_unstable();
        changed.dedup();
        for &t in &changed {
            report.minmip_texels_copied += self.minmip.texels(t);
            self.minmip.copy_to_gpu(t, renderer);
        }
        report.evictions += victims.len() as u32;
        report.cpu_minmip += self.cfg.cpu.cost(self.cfg.cpu.minmip_per_texel, texels);
        // BeginFrame's work comes before the frame's command list is submitted.
        self.timeline.begin_frame_cpu += report.cpu_minmip;
        report.gpu.submitted = now + report.cpu_minmip;
        if let Some(budget) = self.cfg.gpu.feedback_budget {
            let chosen = self.choose_feedback_maps(budget, renderer);
            let with_maps =
                (0..self.db.texture_count()).filter(|&t| self.policies.feedback.has_feedback_map(t)).count();
            report.feedback_maps = chosen;
            report.feedback_maps_skipped = with_maps as u32 - chosen;
        }
        self.reports.push(report);
        Ok(())
    }

    /// The maps whose resolve fits `budget` this frame, round-robin from where the last
    /// frame stopped (at least one): only they get feedback written. Returns how many.
    fn choose_feedback_maps(&mut self, budget: Time, renderer: &mut FeedbackRenderer) -> u32 {
        let n = self.db.texture_count();
        let mut chosen = vec![false; n as usize];
        let (mut spent, mut count) = (Time::ZERO, 0u32);
        let start = self.feedback.budget_cursor % n.max(1);
        for k in 0..n {
            let t = (start + k) % n;
            if !self.policies.feedback.has_feedback_map(t) {
                continue;
            }
            let (w, h) = renderer.feedback_dims(t);
            let cost = Time(self.cfg.gpu.resolve_per_texel.0 * u64::from(w) * u64::from(h));
            if count > 0 && spent + cost > budget {
                break;
            }
            chosen[t as usize] = true;
            spent += cost;
            count += 1;
            self.feedback.budget_cursor = (t + 1) % n;
        }
        renderer.set_feedback_textures(|t| chosen[t as usize]);
        count
    }

    /// The frame begun at `now` was rendered (`work`), its feedback asking for `requested`:
    /// its GPU work is queued and its feedback starts its way back to the feedback thread.
    pub fn end_frame(
        &mut self,
        now: Time,
        work: FrameWork,
        requested: Vec<(u32, TileCoord)>,
        renderer: &FeedbackRenderer,
    ) -> Result<(), EngineError> {
        let frame = self.reports.len().checked_sub(1).ok_or(EngineError::FrameOrder)?;
        let gpu = self.cfg.gpu;
        let texels = self.feedback_texels(renderer);
        let report = self.reports.last_mut().ok_or(EngineError::FrameOrder)?;
        let queue = &mut self.timeline.gpu;
        let (_, copied) =
            queue.run(report.gpu.submitted, Time(gpu.minmip_copy_per_texel.0 * report.minmip_texels_copied));
        report.gpu_render = gpu.render(work.pixels, work.feedback_writes);
        let (render_start, rendered) = queue.run(copied, report.gpu_render);
        report.gpu_feedback = Time(gpu.resolve_per_texel.0 * texels);
        if self.policies.feedback.analysis_on_gpu() {
            report.gpu_feedback += Time(gpu.analysis_per_texel.0 * texels);
        }
        let (_, ready) = queue.run(rendered, report.gpu_feedback);
        report.gpu = FrameGpu { submitted: report.gpu.submitted, render_start, feedback_ready: ready };
        if render_start > now + self.frame_period {
            self.timeline.renders_late += 1;
        }
        for id in std::mem::take(&mut self.lists.showing) {
            if let Some(r) = self.db.record_mut(id) {
                r.visible = Some(render_start);
            }
        }
        let feedback = Feedback { written: render_start, ready, requested, texels };
        self.feedback.push(feedback, self.cfg.readback_frames, frame, now);
        Ok(())
    }

    /// When the engine next has work: a mapping call finishing, a MinMip upload landing, or
    /// the feedback thread's next step. The owner calls [`advance`](Engine::advance) then.
    pub fn next_event(&self) -> Option<Time> {
        let uploads = self.lists.uploading.front().map(|u| u.0);
        [self.mapping.next_event(), uploads, self.next_feedback_event(), self.next_tail_retry()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Runs everything due at `now`: mapping completions, the streaming thread's MinMip
    /// updates (`StreamingThread`), and the feedback thread's analysis and submissions
    /// (loads go to `io`; MinMip maps changed by reclaimed tiles go to `renderer`).
    pub fn advance(&mut self, now: Time, io: &mut IoPath, renderer: &mut FeedbackRenderer) -> Result<(), EngineError> {
        loop {
            self.mappings_done(now);
            let mut progressed = false;
            if self.cfg.completions == Completions::StreamingThread {
                progressed |= self.stream_completions(now);
                progressed |= self.land_uploads(now, renderer);
            }
            progressed |= self.retry_tails(now, io)?;
            progressed |= self.run_feedback_thread(now, io, renderer)?;
            if !progressed {
                return Ok(());
            }
        }
    }

    /// The streaming thread takes completed tiles at `now`, rewrites their MinMip maps and
    /// queues the upload on the copy queue.
    fn stream_completions(&mut self, now: Time) -> bool {
        if self.lists.complete.is_empty() {
            return false;
        }
        let tiles = std::mem::take(&mut self.lists.complete);
        let texels: u64 = tiles.iter().map(|id| self.minmip.texels(id.texture)).sum();
        let cost = self.cfg.cpu.cost(self.cfg.cpu.minmip_per_texel, texels);
        let (start, updated) = self.timeline.streaming_thread.run(now, cost);
        self.timeline.spans.streaming_thread.push((start, updated));
        let mut textures: Vec<u32> = tiles.iter().map(|id| id.texture).collect();
        textures.sort_unstable();
        textures.dedup();
        let copy_texels: u64 = textures.iter().map(|&t| self.minmip.texels(t)).sum();
        let upload = self.timeline.copy.run(updated, Time(self.cfg.gpu.minmip_copy_per_texel.0 * copy_texels));
        self.timeline.spans.uploads.push(upload);
        let landed = upload.1;
        if let Some(r) = self.reports.last_mut() {
            r.cpu_minmip += cost;
            r.minmip_texels_copied += copy_texels;
        }
        self.lists.uploading.push_back((landed, tiles));
        true
    }

    /// MinMip uploads that landed by `now`: their tiles are visible.
    fn land_uploads(&mut self, now: Time, renderer: &mut FeedbackRenderer) -> bool {
        let mut changed: Vec<u32> = Vec::new();
        while let Some((landed, tiles)) = self.lists.uploading.pop_front() {
            if landed > now {
                self.lists.uploading.push_front((landed, tiles));
                break;
            }
            for &id in &tiles {
                self.land(id, landed);
                changed.push(id.texture);
            }
            if let Some(r) = self.reports.last_mut() {
                r.became_visible += tiles.len() as u32;
            }
        }
        changed.sort_unstable();
        changed.dedup();
        for &t in &changed {
            self.minmip.refresh(&self.db, t);
            self.minmip.copy_to_gpu(t, renderer);
        }
        !changed.is_empty()
    }

    fn land(&mut self, id: TileId, at: Time) {
        self.db.state_mut(id).status = Status::Resident;
        self.lists.resident.push(&self.db, id);
        if let Some(r) = self.db.record_mut(id) {
            r.visible = Some(at);
        }
    }

    /// The frames' reports not yet handed over by
    /// [`take_final_reports`](Engine::take_final_reports), in order (a frame's pass may
    /// still be running).
    pub fn frame_reports(&self) -> &std::collections::VecDeque<FrameReport> {
        self.reports.live()
    }

    /// Hands over, in frame order, the reports that can no longer change: frames before
    /// the latest one whose feedback pass is over (or had none due).
    pub fn take_final_reports(&mut self, out: &mut dyn FnMut(&FrameReport)) {
        let latest = self.reports.len().saturating_sub(1);
        let bound = self.feedback.oldest_frame().map_or(latest, |f| f.min(latest));
        self.reports.release_before(bound, out);
    }

    /// The run is over: hands over every report left.
    pub fn finish_reports(&mut self, out: &mut dyn FnMut(&FrameReport)) {
        self.reports.release_before(usize::MAX, out);
    }

    /// When the work between frames ran: mapping calls, MinMip uploads, the streaming
    /// thread's updates (trace.json's tracks).
    pub fn queue_spans(&self) -> &super::QueueSpans {
        &self.timeline.spans
    }
}
