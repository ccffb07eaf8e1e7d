//! The sampler's settings (`render: (…)` in a scenario): resolution, feedback, sampler,
//! residency and the approximate reuse mode.

use super::TemporalReuse;
use crate::scene::SamplePattern;
use serde::{Deserialize, Serialize};
use sfsim_models::gpu::{Filter, SamplerDesc, SmallTailPolicy};
use sfsim_models::ConfigError;

/// Which mips are resident when no streaming engine runs (the engine drives the MinMip
/// maps itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Residency {
    /// Only the packed mip tail: MinMip maps hold the first packed mip (a texture just
    /// created, SPEC §5 step 1).
    #[default]
    TailOnly,
    /// Every mip resident: MinMip maps hold 0, effective LOD = desired LOD.
    All,
}

/// The feedback map format (D3D12 `DXGI_FORMAT_SAMPLER_FEEDBACK_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FeedbackKind {
    /// The finest LOD requested per region, 5.3 fixed point, atomic-min (the sample's).
    #[default]
    MinMip,
    /// One bit per (region, mip) the filter footprint used.
    MipRegionUsed,
}

/// Which feedback texels a sample writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FeedbackWrites {
    /// Every feedback texel any texel of the filter footprint overlaps (conservative).
    #[default]
    Footprint,
    /// Only the texel holding the sample's UV — the D3D12 spec's pseudo-code. With
    /// tile-sized regions it differs only where a footprint crosses a region border, and it
    /// skips building footprints: the fast, timing-oriented choice.
    Location,
}

/// Sampler-feedback settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FeedbackConfig {
    /// Feedback is written for one pixel in `one_in` (128, the sample's rate; a power of
    /// two, 1 = every pixel).
    pub one_in: u32,
    /// Mip region (mip-0 texels per feedback texel, powers of two); `None` = one feedback
    /// texel per 64 KiB tile of mip 0, the sample's choice.
    pub region: Option<(u32, u32)>,
    /// What small tail mips record (D3D12 leaves it to the hardware).
    pub small_tail: SmallTailPolicy,
    /// Feedback map format (MinMip).
    pub kind: FeedbackKind,
    /// Which texels a sample writes (Footprint).
    pub writes: FeedbackWrites,
    /// With `region: None`, one feedback texel per `tiles_per_texel` × `tiles_per_texel`
    /// tiles of mip 0 (1; 2 = the "coarser feedback" improvement, −75 % texels).
    pub tiles_per_texel: u32,
}

impl Default for FeedbackConfig {
    fn default() -> Self {
        FeedbackConfig {
            one_in: 128,
            region: None,
            small_tail: SmallTailPolicy::Exact,
            kind: FeedbackKind::MinMip,
            writes: FeedbackWrites::Footprint,
            tiles_per_texel: 1,
        }
    }
}

/// Everything the sampler needs besides the scene and the camera.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RenderConfig {
    /// Render target width and height in pixels (1920 × 1080).
    pub resolution: (u32, u32),
    pub feedback: FeedbackConfig,
    /// The material sampler (anisotropic 16×, no bias, point-sampled MinMip clamp).
    pub sampler: SamplerDesc,
    pub residency: Residency,
    /// Approximate timing-only sampling (`None`, exact): trace each sample cell once every
    /// `frames` frames and reuse its feedback writes in between while the camera moves
    /// less than `max_motion` pixels (issue 17's separate, inexact mode; README
    /// "Approximate timing-only runs"). Needs a Stream workload with `mode: TimingOnly`
    /// and `feedback.writes: Location`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reuse: Option<TemporalReuse>,
    /// Whether each texture read also looks up its MinMip clamp to measure the effective
    /// LOD (the visual-quality statistics). Nothing else reads the effective LOD, so a
    /// timing-only run (the stream workload's `mode: TimingOnly`) turns it off; set
    /// through that mode, not in scenario files.
    #[serde(skip)]
    pub measure_quality: bool,
}

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            resolution: (1920, 1080),
            feedback: FeedbackConfig::default(),
            sampler: SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 }),
            residency: Residency::TailOnly,
            reuse: None,
            measure_quality: true,
        }
    }
}

impl RenderConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (w, h) = self.resolution;
        if !(1..=16_384).contains(&w) || !(1..=16_384).contains(&h) {
            return Err(ConfigError::new("resolution", format!("({w}, {h}) is out of range; expected 1..=16384 each")));
        }
        if !matches!(self.feedback.tiles_per_texel, 1 | 2 | 4) {
            return Err(ConfigError::new(
                "feedback.tiles_per_texel",
                format!("{} is out of range; expected 1, 2 or 4", self.feedback.tiles_per_texel),
            ));
        }
        if SamplePattern::new(self.feedback.one_in).is_none() {
            return Err(ConfigError::new(
                "feedback.one_in",
                format!("{} must be a power of two in 1..=65536", self.feedback.one_in),
            ));
        }
        if let Some(reuse) = &self.reuse {
            reuse.validate().map_err(|e| e.within("reuse"))?;
        }
        self.sampler.validate().map_err(|e| ConfigError::new("sampler", e.to_string()))
    }

    /// Why `reuse` cannot run with these settings (it reuses location feedback values
    /// and nothing else), or `None` when it can or is off.
    pub fn reuse_conflict(&self) -> Option<String> {
        let reuse = self.reuse?;
        let problem = if self.measure_quality {
            "measures quality (a full Stream run, or a Render workload)"
        } else if self.feedback.writes != FeedbackWrites::Location {
            "writes feedback over the footprint"
        } else if self.feedback.kind != FeedbackKind::MinMip {
            "writes MipRegionUsed feedback"
        } else {
            return None;
        };
        Some(format!(
            "Some((frames: {}, max_motion: {})) is for Stream workloads with mode: TimingOnly and MinMip feedback \
             at the location (render.feedback.writes: Location), but this run {problem}; expected None",
            reuse.frames, reuse.max_motion
        ))
    }
}
