//! SPEC §4 / the sample's claim that feedback is highly redundant: feedback written for 1
//! pixel in 128 asks, over a few frames, for nearly every tile that feedback from every
//! pixel asks for.

use crate::common::repo;
use sfsim::camera::CameraSource;
use sfsim::models::texture::TileCoord;
use sfsim::scene::{FeedbackConfig, FeedbackRenderer, RenderConfig, Scene, SceneConfig};
use sfsim::workload::render::{ray_camera, RenderWorkload};
use std::collections::HashSet;

fn requested_over(
    workload: &RenderWorkload,
    scene: &Scene,
    one_in: u32,
    frames: std::ops::Range<u64>,
) -> HashSet<(u32, TileCoord)> {
    let cfg = RenderConfig { feedback: FeedbackConfig { one_in, ..FeedbackConfig::default() }, ..workload.render };
    let mut renderer = FeedbackRenderer::new(scene, &cfg).unwrap();
    let path = workload.camera.open(&repo("scenarios"), f64::from(workload.frame_rate)).unwrap();
    let mut tiles = HashSet::new();
    for frame in frames {
        renderer.clear_feedback();
        renderer.render(&ray_camera(path.as_ref(), workload, frame), 7, frame, None);
        tiles.extend(renderer.requested_tiles());
    }
    tiles
}

#[test]
fn one_in_128_covers_95_percent_of_full_rate_tiles_over_a_few_frames() {
    let workload = RenderWorkload {
        scene: SceneConfig::default(),
        camera: CameraSource::Recorded("cameras/orbit.csv".into()),
        frame_rate: 60,
        render: RenderConfig { resolution: (1920, 1080), ..RenderConfig::default() },
    };
    let scene = Scene::build(&workload.scene).unwrap();
    // 12 frames (0.2 s) of the orbit at 1080p: the sparse pattern moves every frame.
    let frames = 600..612;
    let full = requested_over(&workload, &scene, 1, frames.clone());
    let sparse = requested_over(&workload, &scene, 128, frames);
    let covered = full.intersection(&sparse).count();
    let coverage = covered as f64 / full.len() as f64;
    eprintln!("full {} sparse {} covered {}", full.len(), sparse.len(), covered);
    assert!(full.len() > 50, "the path must request real tiles, got {}", full.len());
    assert!(coverage >= 0.95, "1/128 covers {covered} of {} tiles ({:.1} %)", full.len(), coverage * 100.0);
    // And it costs 128× fewer samples: the sparse set is no larger than the full one.
    assert!(sparse.len() <= full.len() + full.len() / 20);
}
