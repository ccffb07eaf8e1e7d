//! The render workload: a camera path over a scene, sampled every frame by the ray-cast
//! sampler, feedback written at the scenario's rate. No streaming engine: the MinMip maps
//! stay at the scenario's residency. It measures what the feedback asks for — tiles
//! requested per frame, their union, the LOD the samples wanted and got.

use crate::camera::{CameraPath, CameraSource, Generator};
use crate::kernel::Kernel;
use crate::scene::{FeedbackRenderer, FrameStats, RayCamera, RenderConfig, Scene, SceneConfig};
use crate::stats::StatSet;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use sfsim_models::texture::TileCoord;
use sfsim_models::units::{Time, PS_PER_S};
use sfsim_models::ConfigError;
use std::collections::HashSet;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RenderWorkload {
    pub scene: SceneConfig,
    /// The camera path (an orbit of the cube grid).
    pub camera: CameraSource,
    /// Frames per second (60).
    pub frame_rate: u32,
    pub render: RenderConfig,
}

impl Default for RenderWorkload {
    fn default() -> Self {
        RenderWorkload {
            scene: SceneConfig::default(),
            camera: CameraSource::Generator(Generator::Orbit {
                center: DVec3::ZERO,
                radius: 45.0,
                height: 12.0,
                period_s: 20.0,
                fov_y_deg: 60.0,
            }),
            frame_rate: 60,
            render: RenderConfig::default(),
        }
    }
}

impl RenderWorkload {
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.scene.validate().map_err(|e| e.within("scene"))?;
        self.camera.validate().map_err(|e| e.within("camera"))?;
        if !(1..=1000).contains(&self.frame_rate) {
            return Err(ConfigError::new(
                "frame_rate",
                format!("{} is out of range; expected 1..=1000 frames per second", self.frame_rate),
            ));
        }
        self.render.validate().map_err(|e| e.within("render"))
    }

    /// Start time of frame `n`.
    pub fn frame_time(&self, n: u64) -> Time {
        Time((u128::from(n) * u128::from(PS_PER_S) / u128::from(self.frame_rate)) as u64)
    }

    /// Number of whole frames in `duration`.
    pub fn frame_count(&self, duration: Time) -> u64 {
        (u128::from(duration.0) * u128::from(self.frame_rate) / u128::from(PS_PER_S)) as u64
    }
}

/// A pose of the path as the ray caster's camera.
pub fn ray_camera(path: &dyn CameraPath, workload: &RenderWorkload, frame: u64) -> RayCamera {
    let pose = path.pose_at(workload.frame_time(frame).as_secs_f64(), frame);
    let (w, h) = workload.render.resolution;
    RayCamera::new(pose.position, pose.forward(), pose.up(), pose.fov_y_deg, w, h)
}

/// A render run could not start.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error("camera: {0}")]
    Camera(#[from] crate::camera::CameraError),
}

/// One row of frames.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRow {
    pub frame: u64,
    pub time: Time,
    pub stats: FrameStats,
    /// Feedback texels with a request, over all maps.
    pub feedback_texels: u64,
    /// Standard tiles the frame's feedback requests.
    pub tiles_requested: u64,
    /// Distinct tiles requested since the start.
    pub tiles_seen: u64,
}

pub struct RenderOutcome {
    pub stats: StatSet,
    pub frames: Vec<FrameRow>,
    pub events: u64,
}

/// Runs every frame of the scenario's duration.
pub fn run(
    scenario_duration: Time,
    seed: u64,
    base_dir: &Path,
    cfg: &RenderWorkload,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<RenderOutcome, RenderError> {
    let scene = Scene::build(&cfg.scene).map_err(|e| e.within("workload.scene"))?;
    let path = cfg.camera.open(base_dir, f64::from(cfg.frame_rate))?;
    let mut renderer = FeedbackRenderer::new(&scene, &cfg.render).map_err(|e| e.within("workload.render"))?;
    let frames = cfg.frame_count(scenario_duration);
    let mut kernel: Kernel<u64> = Kernel::new();
    for f in 0..frames {
        kernel.schedule(cfg.frame_time(f), f);
    }
    let mut rows = Vec::with_capacity(frames as usize);
    let mut seen: HashSet<(u32, TileCoord)> = HashSet::new();
    let mut this_frame: HashSet<(u32, TileCoord)> = HashSet::new();
    let mut total = FrameStats::default();
    while let Some((now, frame)) = kernel.pop() {
        progress(now, scenario_duration);
        renderer.clear_feedback();
        let camera = ray_camera(path.as_ref(), cfg, frame);
        let stats = renderer.render(&camera, seed, frame, None);
        this_frame.clear();
        this_frame.extend(renderer.requested_tiles());
        seen.extend(this_frame.iter().copied());
        let feedback_texels = (0..scene.textures.len() as u32).map(|t| renderer.requested_texels(t) as u64).sum();
        total.accumulate(&stats);
        rows.push(FrameRow {
            frame,
            time: now,
            stats,
            feedback_texels,
            tiles_requested: this_frame.len() as u64,
            tiles_seen: seen.len() as u64,
        });
    }
    let mut s = StatSet::default();
    let n = rows.len().max(1) as f64;
    s.push("scene.objects", Some(scene.shapes.len() as f64), "count", "objects in the scene");
    s.push("scene.textures", Some(scene.textures.len() as f64), "count", "textures (3 per texture set)");
    s.push(
        "scene.virtual_size",
        Some(scene.virtual_bytes() as f64 / 1e9),
        "GB",
        "total virtual size of all textures (tiles × 64 KiB)",
    );
    s.push("frames", Some(rows.len() as f64), "count", "frames rendered");
    s.push(
        "sampler.samples_per_frame",
        Some(total.samples as f64 / n),
        "count",
        format!("pixels sampled per frame (1 in {})", cfg.render.feedback.one_in),
    );
    s.push(
        "sampler.hit_share",
        (total.samples > 0).then(|| total.hits as f64 / total.samples as f64),
        "fraction",
        "sampled pixels that hit an object",
    );
    s.push(
        "feedback.tiles_requested.mean",
        Some(rows.iter().map(|r| r.tiles_requested as f64).sum::<f64>() / n),
        "tiles",
        "standard tiles requested by one frame's feedback, mean",
    );
    s.push(
        "feedback.tiles_requested.max",
        Some(rows.iter().map(|r| r.tiles_requested).max().unwrap_or(0) as f64),
        "tiles",
        "most tiles one frame's feedback requested",
    );
    s.push("feedback.tiles_seen", Some(seen.len() as f64), "tiles", "distinct tiles requested over the run");
    s.push(
        "feedback.bytes_seen",
        Some(seen.len() as f64 * 65_536.0 / 1e6),
        "MB",
        "distinct tiles requested over the run × 64 KiB",
    );
    total.push_quality_stats(&mut s, "texture samples", &format!(" (residency {:?})", cfg.render.residency));
    Ok(RenderOutcome { stats: s, frames: rows, events: kernel.processed() })
}
