//! The engine's feedback thread (SPEC §5 steps 3–5 as work that takes time): feedback of
//! frame M is read back once frame M + `readback_frames` has begun and its resolve/copy is
//! done; the thread then analyses it (a cost per texel read back, or per list entry with
//! `GpuAnalysis`), sorts Seen Tiles, and submits loads one after another, each at the
//! moment the thread gets to it. A pass that ends after its frame's budget is late.

use super::submit::{Step, Submission};
use super::{Bottleneck, Engine, EngineError};
use crate::iopath::IoPath;
use crate::scene::FeedbackRenderer;
use sfsim_models::texture::TileCoord;
use sfsim_models::units::Time;
use std::collections::VecDeque;

/// One frame's feedback on its way to the feedback thread.
pub(super) struct Feedback {
    /// Render start of the frame that wrote it.
    pub written: Time,
    /// When it is in CPU-readable memory.
    pub ready: Time,
    /// The tiles it asks for.
    pub requested: Vec<(u32, TileCoord)>,
    /// Texels of the maps read back.
    pub texels: u64,
}

/// Feedback whose readback frames have passed: it is analysed by the pass of `frame`.
pub(super) struct DueFeedback {
    pub feedback: Feedback,
    /// Index of the frame whose pass analyses it (its report gets the pass's counts).
    pub frame: usize,
    /// When that frame began; the pass is late if it ends after this plus the budget.
    pub frame_start: Time,
}

/// A submission pass in progress.
struct Pass {
    frame: usize,
    deadline: Time,
    submission: Submission,
    /// When the thread reaches the next submission.
    at: Time,
}

/// The feedback thread's queues: feedback in readback, feedback due, the pass running.
#[derive(Default)]
pub(super) struct FeedbackThread {
    /// With a feedback budget: the texture whose map is resolved first next frame.
    pub budget_cursor: u32,
    readback: VecDeque<Feedback>,
    due: VecDeque<DueFeedback>,
    pass: Option<Pass>,
}

impl FeedbackThread {
    /// The earliest frame whose report a pass may still change (its pass runs or its
    /// feedback is due); later feedback goes to frames not begun yet.
    pub fn oldest_frame(&self) -> Option<usize> {
        [self.pass.as_ref().map(|p| p.frame), self.due.front().map(|d| d.frame)].into_iter().flatten().min()
    }

    /// Queues frame `frame`'s feedback; feedback written `readback_frames` frames ago becomes
    /// due for that frame's pass.
    pub fn push(&mut self, feedback: Feedback, readback_frames: u32, frame: usize, frame_start: Time) {
        self.readback.push_back(feedback);
        if self.readback.len() > readback_frames as usize {
            if let Some(feedback) = self.readback.pop_front() {
                self.due.push_back(DueFeedback { feedback, frame, frame_start });
            }
        }
    }
}

impl Engine {
    /// When the feedback thread next has something to do.
    pub(super) fn next_feedback_event(&self) -> Option<Time> {
        let t = &self.feedback;
        match &t.pass {
            Some(pass) => Some(pass.at),
            None => t.due.front().map(|d| d.feedback.ready.max(self.timeline.feedback_thread.free_at())),
        }
    }

    /// Runs the feedback thread's work due at `now`; returns whether it did anything.
    pub(super) fn run_feedback_thread(
        &mut self,
        now: Time,
        io: &mut IoPath,
        renderer: &mut FeedbackRenderer,
    ) -> Result<bool, EngineError> {
        if self.feedback.pass.is_none() {
            let ready = self.next_feedback_event().is_some_and(|t| t <= now);
            if !ready {
                return Ok(false);
            }
            let Some(due) = self.feedback.due.pop_front() else { return Ok(false) };
            self.start_pass(now, due)?;
            return Ok(true);
        }
        let Some(mut pass) = self.feedback.pass.take() else { return Ok(false) };
        if pass.at > now {
            self.feedback.pass = Some(pass);
            return Ok(false);
        }
        let frame = pass.frame;
        let mut report = std::mem::take(&mut self.reports[frame]);
        let step = self.submit_step(now, &mut pass.submission, io, &mut report, renderer);
        let result = match step {
            Ok(Step::Submitted) => {
                pass.at = now + self.cfg.cpu.cost(self.cfg.cpu.submit_per_request, 1);
                self.feedback.pass = Some(pass);
                Ok(true)
            }
            Ok(Step::Stopped(stop)) => {
                self.finish_pass(now, pass, stop, &mut report);
                Ok(true)
            }
            Err(e) => Err(e),
        };
        self.reports[frame] = report;
        result
    }

    /// Analyses due feedback at `now` and sorts Seen Tiles; submission starts when the
    /// thread has spent the analysis and sort time.
    fn start_pass(&mut self, now: Time, due: DueFeedback) -> Result<(), EngineError> {
        let mut report = std::mem::take(&mut self.reports[due.frame]);
        let f = &due.feedback;
        let cpu = self.cfg.cpu;
        report.texels_analysed += f.texels;
        report.cpu_analysis += if self.policies.feedback.analysis_on_gpu() {
            // The GPU pass hands over lists: the CPU pays per entry.
            cpu.cost(cpu.per_list_entry, f.requested.len() as u64)
        } else {
            // The sample scans every texel of every map it read back, requested or not:
            // coarser and shared maps are what shrink this work.
            cpu.cost(cpu.analysis_per_texel, f.texels)
        };
        let result = self.analyse(now, f.written, &f.requested);
        let order = self.submission_order(now, &mut report);
        let at = now + report.cpu_analysis + report.cpu_sort;
        report.pass_start = Some(now);
        self.reports[due.frame] = report;
        result?;
        let budget = cpu.frame_budget.unwrap_or(self.frame_period);
        self.feedback.pass = Some(Pass {
            frame: due.frame,
            deadline: due.frame_start + budget,
            submission: Submission { order, next: 0, submitted: Vec::new() },
            at,
        });
        Ok(())
    }

    fn finish_pass(&mut self, now: Time, pass: Pass, stop: Bottleneck, report: &mut super::FrameReport) {
        self.end_submission(now, pass.submission, stop, report);
        let start = report.pass_start.unwrap_or(now);
        self.timeline.feedback_thread.run(start, now.saturating_sub(start));
        report.pass_end = Some(now);
        if now > pass.deadline {
            report.pass_late = true;
            self.timeline.passes_late += 1;
        }
    }
}
