//! The frame as a span of time: the resources that take time inside a frame, each a serial
//! queue — the GPU's direct queue (MinMip copy, render, feedback resolve and copy,
//! UpdateTileMappings), the copy queue the streaming thread uploads MinMip updates on, the
//! engine's feedback thread (analysis, sort, submission) and the streaming thread — with
//! the GPU cost model and the counts of frames that overran their budget.

use serde::{Deserialize, Serialize};
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

/// Work that runs one item after another (a GPU queue, a CPU thread).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct SerialQueue {
    free_at: Time,
    busy: Time,
}

impl SerialQueue {
    /// Runs `cost` of work that is ready at `ready`; returns (start, end).
    pub fn run(&mut self, ready: Time, cost: Time) -> (Time, Time) {
        let start = ready.max(self.free_at);
        let end = start + cost;
        self.free_at = end;
        self.busy += cost;
        (start, end)
    }

    /// When the work queued so far is done.
    pub fn free_at(&self) -> Time {
        self.free_at
    }

    /// Total time spent working.
    pub fn busy(&self) -> Time {
        self.busy
    }
}

/// How the engine learns that tile loads and mappings finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Completions {
    /// The sample's: completions are polled once per frame, at its BeginFrame on the render
    /// thread; their MinMip updates ride in that frame's command list, so a tile becomes
    /// visible at a frame's render start.
    #[default]
    PerFrame,
    /// A streaming thread watches IO and mapping fences continuously (the "more aggressive
    /// use of threads" the sample names): each completion's MinMip update is applied on that
    /// thread and uploaded at once on the GPU copy queue, visible when the upload lands.
    StreamingThread,
}

/// GPU cost model of the direct queue (scenario `workload.engine.gpu`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpuCosts {
    /// A frame's render, fixed part (1 ms).
    pub frame: Time,
    /// Per pixel shaded (resolution width × height; 2 ns: 4.1 ms at 1080p).
    pub per_pixel: Time,
    /// Per sampler-feedback write (a texture sample of a texture with a feedback map; 20 ns).
    pub per_feedback_write: Time,
    /// Feedback resolve and copy to CPU-readable memory, per feedback texel (1 ns).
    pub resolve_per_texel: Time,
    /// MinMip map CPU→GPU copy, per texel copied (0.5 ns).
    pub minmip_copy_per_texel: Time,
    /// `GpuAnalysis`'s compute pass, per feedback texel scanned (0.2 ns).
    pub analysis_per_texel: Time,
    /// Intel's demo's feedback budget (`maxFeedbackTime`): each frame resolves only the
    /// feedback maps whose resolve fits this GPU time, chosen round-robin (at least one);
    /// the others write no feedback that frame. None: every map, every frame.
    pub feedback_budget: Option<Time>,
}

impl Default for GpuCosts {
    fn default() -> Self {
        GpuCosts {
            frame: Time::from_ms(1),
            per_pixel: Time::from_ns(2),
            per_feedback_write: Time::from_ns(20),
            resolve_per_texel: Time::from_ns(1),
            minmip_copy_per_texel: Time(500),
            analysis_per_texel: Time(200),
            feedback_budget: None,
        }
    }
}

impl GpuCosts {
    /// Range checks; fields are relative to `gpu`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let limits: [(&str, Time, Time); 6] = [
            ("frame", self.frame, Time::from_ms(100)),
            ("per_pixel", self.per_pixel, Time::from_us(1)),
            ("per_feedback_write", self.per_feedback_write, Time::from_us(1)),
            ("resolve_per_texel", self.resolve_per_texel, Time::from_us(1)),
            ("minmip_copy_per_texel", self.minmip_copy_per_texel, Time::from_us(1)),
            ("analysis_per_texel", self.analysis_per_texel, Time::from_us(1)),
        ];
        for (field, value, max) in limits {
            if value > max {
                return Err(ConfigError::new(field, format!("{value} is out of range; expected 0s..={max}")));
            }
        }
        if let Some(b) = self.feedback_budget.filter(|b| *b == Time::ZERO || *b > Time::from_ms(100)) {
            return Err(ConfigError::new(
                "feedback_budget",
                format!("{b} is out of range; expected (0s, 100ms] or None"),
            ));
        }
        Ok(())
    }

    /// The render of a frame of `pixels` pixels with `feedback_writes` feedback writes.
    pub fn render(&self, pixels: u64, feedback_writes: u64) -> Time {
        self.frame + Time(self.per_pixel.0 * pixels) + Time(self.per_feedback_write.0 * feedback_writes)
    }
}

/// What one frame's render asks of the GPU.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameWork {
    /// Pixels shaded (width × height).
    pub pixels: u64,
    /// Sampler-feedback writes.
    pub feedback_writes: u64,
}

/// When a frame's GPU work ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrameGpu {
    /// Its command list was submitted (after the render thread's BeginFrame work).
    pub submitted: Time,
    /// Its render began (after the MinMip copy at the head of its command list).
    pub render_start: Time,
    /// Its feedback is in CPU-readable memory (resolve and copy done; with `GpuAnalysis`,
    /// the load/evict lists too).
    pub feedback_ready: Time,
}

/// The queues of one engine and the counts that say whether a frame fit its budget.
#[derive(Debug, Default)]
pub(super) struct Timeline {
    /// The GPU's direct queue.
    pub gpu: SerialQueue,
    /// The GPU copy queue (the streaming thread's MinMip uploads).
    pub copy: SerialQueue,
    /// The engine's feedback thread: analysis, sort, submission.
    pub feedback_thread: SerialQueue,
    /// The streaming thread (`StreamingThread` only): completions and MinMip updates.
    pub streaming_thread: SerialQueue,
    /// The render thread's BeginFrame work (polling, MinMip updates, evictions).
    pub begin_frame_cpu: Time,
    /// Feedback passes that ended after their frame's budget.
    pub passes_late: u64,
    /// Frames whose render began more than one frame period after the frame started.
    pub renders_late: u64,
    /// When work ran that no frame report holds, for trace.json.
    pub spans: QueueSpans,
}

/// (start, end) of the work on the queues that run between frames.
#[derive(Debug, Default, Clone)]
pub struct QueueSpans {
    /// UpdateTileMappings calls on the direct queue.
    pub mapping_calls: Vec<(Time, Time)>,
    /// MinMip uploads on the copy queue (`StreamingThread`).
    pub uploads: Vec<(Time, Time)>,
    /// The streaming thread's MinMip updates (`StreamingThread`).
    pub streaming_thread: Vec<(Time, Time)>,
}
