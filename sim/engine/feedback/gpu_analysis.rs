//! Feedback analysis on the GPU (an improvement the sample names): the sample's per-texture
//! maps, scanned by a compute pass after the resolve; the CPU reads back only the lists.

use super::FeedbackPolicy;

/// Per-texture maps, analysed on the GPU.
pub struct GpuAnalysis;

impl FeedbackPolicy for GpuAnalysis {
    fn name(&self) -> &'static str {
        "GpuAnalysis"
    }

    fn analysis_on_gpu(&self) -> bool {
        true
    }
}
