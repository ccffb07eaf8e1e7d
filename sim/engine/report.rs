//! The engine's side of one frame: counts, what stopped loading, modeled CPU time.

use super::timeline::FrameGpu;
use sfsim_models::units::Time;

/// What stopped the next load in a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bottleneck {
    /// Every seen tile was submitted.
    Nothing,
    /// No staging memory for the next tile's compressed bytes.
    Staging,
    /// No free pool slot.
    Pool,
    /// The per-frame upload cap.
    UploadCap,
}

impl Bottleneck {
    /// Every bottleneck, in stats order.
    pub const ALL: [Bottleneck; 4] =
        [Bottleneck::Nothing, Bottleneck::Staging, Bottleneck::Pool, Bottleneck::UploadCap];

    /// The name in stats and frames.csv.
    pub fn name(self) -> &'static str {
        match self {
            Bottleneck::Nothing => "none",
            Bottleneck::Staging => "staging",
            Bottleneck::Pool => "pool",
            Bottleneck::UploadCap => "upload_cap",
        }
    }
}

/// The engine's side of one frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameReport {
    /// DirectStorage tile loads submitted.
    pub loads: u32,
    /// Tiles evicted (including standby tiles reclaimed for loads).
    pub evictions: u32,
    /// Tiles whose MinMip update this frame made visible.
    pub became_visible: u32,
    /// Seen Tiles left waiting after submission.
    pub seen_list: u32,
    /// What stopped submission (`None` before the first submission).
    pub bottleneck: Option<Bottleneck>,
    /// Feedback texels read back and scanned this frame (every texel of every map).
    pub texels_analysed: u64,
    /// Modeled CPU time of feedback analysis.
    pub cpu_analysis: Time,
    /// Modeled CPU time of sorting Seen Tiles.
    pub cpu_sort: Time,
    /// Modeled CPU time of building and enqueuing requests.
    pub cpu_submit: Time,
    /// Modeled CPU time of MinMip updates.
    pub cpu_minmip: Time,
    /// Tiles between submission and completion at the frame's start.
    pub tiles_in_flight: u64,
    /// Pool slots in use at the frame's start.
    pub pool_used: u32,
    /// When the frame's GPU work ran.
    pub gpu: FrameGpu,
    /// GPU time of the frame's render (without MinMip copy and resolve).
    pub gpu_render: Time,
    /// GPU time of the frame's feedback resolve and copy (and `GpuAnalysis`'s pass).
    pub gpu_feedback: Time,
    /// MinMip texels copied CPU→GPU for this frame (its command list, or the streaming
    /// thread's uploads while it was the latest frame).
    pub minmip_texels_copied: u64,
    /// The feedback thread's pass for this frame: when it began and ended (`None`: no
    /// feedback was due yet).
    pub pass_start: Option<Time>,
    /// See `pass_start`.
    pub pass_end: Option<Time>,
    /// The pass ended after the frame's budget.
    pub pass_late: bool,
    /// With `gpu.feedback_budget`: the feedback maps resolved this frame (0 without).
    pub feedback_maps: u32,
    /// With `gpu.feedback_budget`: the maps the budget left without feedback this frame.
    pub feedback_maps_skipped: u32,
}
