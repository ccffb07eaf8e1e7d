//! A Stream workload's configuration (`workload: Stream((…))`): the scene, camera, render
//! and engine settings, the content model, the simulation mode and background titles.

use crate::camera::CameraSource;
use crate::engine::{ContentConfig, EngineConfig, Policies, SyntheticContent};
use crate::scene::{RenderConfig, SceneConfig};
use crate::workload::background;
use crate::workload::io::IoWorkload;
use crate::workload::render::RenderWorkload;
use serde::{Deserialize, Serialize};
use sfsim_models::ConfigError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StreamWorkload {
    pub scene: SceneConfig,
    pub camera: CameraSource,
    /// Frames per second (60).
    pub frame_rate: u32,
    pub render: RenderConfig,
    pub engine: EngineConfig,
    /// Per-tile compressed sizes and options: a synthetic model or real containers.
    pub content: ContentConfig,
    /// Full (default) or timing-only simulation.
    pub mode: StreamMode,
    /// Other IO sharing the drive, staging buffer and MDU with the engine (none): IO
    /// workloads (asset reads from file, in-memory decompression), each its own title.
    pub background: Vec<IoWorkload>,
}

/// How much a streaming run computes besides its timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum StreamMode {
    /// Everything: timing, the visual-quality measurement (effective LOD after the MinMip
    /// clamp, `quality.*` stats) and, for packed content, verification of loaded tiles.
    #[default]
    Full,
    /// Only what decides when tiles are requested, loaded and visible: the sampler still
    /// computes every desired LOD and writes feedback, but reads no MinMip clamp, and packed
    /// tiles are not decoded to verify them. Every stat but `quality.*` (null here) and
    /// `content.*` (absent) is byte-identical to a full run's.
    TimingOnly,
}

impl Default for StreamWorkload {
    fn default() -> Self {
        let r = RenderWorkload::default();
        StreamWorkload {
            scene: r.scene,
            camera: r.camera,
            frame_rate: r.frame_rate,
            render: r.render,
            engine: EngineConfig::default(),
            content: ContentConfig::Synthetic(SyntheticContent::default()),
            mode: StreamMode::Full,
            background: Vec::new(),
        }
    }
}

impl StreamWorkload {
    /// The render part, for the sampler helpers shared with the render workload.
    pub fn as_render(&self) -> RenderWorkload {
        RenderWorkload {
            scene: self.scene.clone(),
            camera: self.camera.clone(),
            frame_rate: self.frame_rate,
            render: self.render,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.as_render().validate()?;
        // One knob per concept: in a streaming run the feedback policy sets the map
        // resolution.
        if self.render.feedback.tiles_per_texel != 1 {
            return Err(ConfigError::new(
                "render.feedback.tiles_per_texel",
                format!(
                    "{} is not used by a Stream workload (expected 1): the engine's feedback policy sets the \
                     feedback map resolution; use engine.feedback: Coarse2x2 for 2×2 tiles per texel",
                    self.render.feedback.tiles_per_texel
                ),
            ));
        }
        if self.engine.feedback.build().tiles_per_texel() != 1 && self.render.feedback.region.is_some() {
            return Err(ConfigError::new(
                "render.feedback.region",
                format!(
                    "{:?} conflicts with engine.feedback: {:?}, which sets the feedback map resolution; expected None",
                    self.render.feedback.region, self.engine.feedback
                ),
            ));
        }
        let mut sampled = self.render;
        sampled.measure_quality = self.mode == StreamMode::Full;
        if let Some(conflict) = sampled.reuse_conflict() {
            return Err(ConfigError::new("render.reuse", conflict));
        }
        self.engine.validate().map_err(|e| e.within("engine"))?;
        background::validate(&self.background)?;
        self.content.validate().map_err(|e| e.within("content"))
    }

    /// The render config the sampler runs with: the feedback policy's map resolution, and
    /// the quality measurement only in a full run.
    pub(super) fn effective_render(&self, policies: &Policies) -> RenderConfig {
        let mut r = self.render;
        r.feedback.tiles_per_texel = policies.feedback.tiles_per_texel();
        r.measure_quality = self.mode == StreamMode::Full;
        r
    }
}
