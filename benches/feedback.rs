//! Sampler-feedback speed: single feedback samples (LOD + footprint + atomic-min write), and
//! one 1080p frame of the SFS sample's cube grid (64 texture sets) at 1 sample in 128 px.
//! Then the analysis scan of every feedback texel (the engine's per-texel CPU cost).
//! Run: cargo bench --features bench --bench feedback

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::DVec3;
use rand::{Rng, SeedableRng};
use sfsim::models::gpu::{sample, FeedbackLayout, Filter, MinMipFeedback, SamplerDesc, SmallTailPolicy};
use sfsim::scene::{FeedbackRenderer, RayCamera, RenderConfig, Scene, SceneConfig};

fn samples(c: &mut Criterion) {
    const N: u64 = 10_000;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let inputs: Vec<((f64, f64), [f64; 4])> = (0..N)
        .map(|_| {
            let scale = 10f64.powf(rng.gen_range(-4.5..-1.0));
            let derivs = [
                scale,
                scale * rng.gen_range(-0.3..0.3),
                scale * rng.gen_range(-0.3..0.3),
                scale * rng.gen_range(0.2..4.0),
            ];
            ((rng.gen_range(0.0..1.0), rng.gen_range(0.0..1.0)), derivs)
        })
        .collect();
    let layout = FeedbackLayout::new(8192, 8192, 14, 256, 256).unwrap();
    let mut map = MinMipFeedback::new(layout.map_width(), layout.map_height()).unwrap();
    let mut group = c.benchmark_group("feedback");
    group.throughput(Throughput::Elements(N));
    for (name, filter) in [("trilinear", Filter::Trilinear), ("aniso16", Filter::Anisotropic { max_aniso: 16 })] {
        let desc = SamplerDesc::new(filter);
        group.bench_function(format!("sample+write, {name}, 8192² BC7"), |b| {
            b.iter(|| {
                for (uv, d) in &inputs {
                    let s = sample(&desc, *uv, *d, 8192, 8192, 14, None).unwrap();
                    let _ =
                        layout.write_min_mip(&mut map, &s.feedback_footprint, s.desired_lod, SmallTailPolicy::Exact);
                }
            })
        });
    }
    group.finish();
}

fn frame(c: &mut Criterion) {
    let scene = Scene::build(&SceneConfig::default()).unwrap();
    let cfg = RenderConfig::default();
    let mut renderer = FeedbackRenderer::new(&scene, &cfg).unwrap();
    let camera = RayCamera::new(DVec3::new(26.0, 8.0, 26.0), DVec3::new(-1.0, -0.3, -1.0), DVec3::Y, 60.0, 1920, 1080);
    let mut group = c.benchmark_group("frame");
    group.sample_size(20);
    group.bench_function("1080p/128 cube grid, 64 sets", |b| {
        b.iter(|| {
            renderer.clear_feedback();
            renderer.render(&camera, 1, 0, None)
        })
    });
    group.finish();
}

/// The feedback analysis loop the engine's `cpu.analysis_per_texel` models: every texel of
/// every map of the 64-set grid scanned for requested tiles (64 × 2048 texels), after one
/// 1080p frame's writes. docs/calibration.md quotes its time per texel.
fn analysis(c: &mut Criterion) {
    let scene = Scene::build(&SceneConfig::default()).unwrap();
    let cfg = RenderConfig::default();
    let mut renderer = FeedbackRenderer::new(&scene, &cfg).unwrap();
    let camera = RayCamera::new(DVec3::new(26.0, 8.0, 26.0), DVec3::new(-1.0, -0.3, -1.0), DVec3::Y, 60.0, 1920, 1080);
    renderer.clear_feedback();
    renderer.render(&camera, 1, 0, None);
    let texels: u64 = (0..scene.textures.len() as u32)
        .map(|t| {
            let (w, h) = renderer.feedback_dims(t);
            u64::from(w) * u64::from(h)
        })
        .sum();
    let mut group = c.benchmark_group("analysis");
    group.throughput(Throughput::Elements(texels));
    group.bench_function("scan every feedback texel, 64 sets", |b| b.iter(|| renderer.requested_tiles()));
    group.finish();
}

criterion_group!(benches, samples, frame, analysis);
criterion_main!(benches);
