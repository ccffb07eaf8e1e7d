//! Streaming simulator speed: sample-grid.ron (64 sets × 3 × 8192², 1080p/128 sampling,
//! the engine, NVMe, DirectStorage and MDU): its first 2 simulated seconds on all cores,
//! and the whole recorded 60 s path on one core in timing-only mode (the measure:
//! ten runs of about 6 s each, flat sampling) and its first 10 s in that mode on all
//! cores, the shipped defaults (full mode, footprint feedback) on one core, and the loaded
//! city-flythrough.ron and intel-demo.ron on all cores.
//! Criterion's "elem/s" here is simulated seconds per wall-clock second.
//! Run: cargo bench --features bench --bench stream

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Override, Scenario};
use std::path::Path;

fn sample_grid(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/stream/sample-grid.ron");
    let mut group = c.benchmark_group("stream");
    group.sample_size(10);
    group.throughput(Throughput::Elements(2));
    for (name, sets) in [
        ("sample-grid, 2 s simulated, footprint feedback", &["duration=2s"][..]),
        ("sample-grid, 2 s simulated, location feedback", &["duration=2s", "workload.render.feedback.writes=Location"]),
    ] {
        let overrides: Vec<Override> = sets.iter().map(|s| s.parse().expect("valid override")).collect();
        let scenario = Scenario::load(&file, &overrides).expect("sample-grid.ron loads");
        group.bench_function(name, |b| {
            b.iter(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
        });
    }
    // The measure: the whole 60 s path on one core (the sampler's thread pool
    // limited to one thread), timing only (no visual-quality measurement).
    let overrides: Vec<Override> = ["workload.render.feedback.writes=Location", "workload.mode=TimingOnly"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let scenario = Scenario::load(&file, &overrides).expect("sample-grid.ron loads");
    let one_core = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool");
    group.throughput(Throughput::Elements(60));
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("sample-grid, 60 s simulated, location feedback, timing only, one core", |b| {
        b.iter(|| {
            one_core.install(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
        })
    });
    // The same with `render.reuse` (frames 4, max_motion 64: each sample cell traced at
    // least every 4th frame), the approximate mode item 2 allows, in the same run.
    let overrides: Vec<Override> = [
        "workload.render.feedback.writes=Location",
        "workload.mode=TimingOnly",
        "workload.render.reuse=Some((frames: 4, max_motion: 64.0))",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let reusing = Scenario::load(&file, &overrides).expect("sample-grid.ron loads");
    group.bench_function("sample-grid, 60 s simulated, location feedback, timing only, reuse 4/64, one core", |b| {
        b.iter(|| {
            one_core.install(|| run(&reusing, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
        })
    });
    // The same mode on all cores, the first 10 s: what the sampler's chunks (each resolving
    // its own rows' visibility) gain from a second core.
    let overrides: Vec<Override> =
        ["duration=10s", "workload.render.feedback.writes=Location", "workload.mode=TimingOnly"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
    let scenario = Scenario::load(&file, &overrides).expect("sample-grid.ron loads");
    group.throughput(Throughput::Elements(10));
    group.bench_function("sample-grid, 10 s simulated, location feedback, timing only, all cores", |b| {
        b.iter(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
    });
    // The shipped defaults on one core: full mode (quality measured), footprint feedback,
    // anisotropic 16x; the first 10 s of the path (10 runs of several seconds each).
    let overrides: Vec<Override> = ["duration=10s"].iter().map(|s| s.parse().unwrap()).collect();
    let scenario = Scenario::load(&file, &overrides).expect("sample-grid.ron loads");
    group.throughput(Throughput::Elements(10));
    group.bench_function("sample-grid, 10 s simulated, footprint feedback, full mode, one core", |b| {
        b.iter(|| {
            one_core.install(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
        })
    });
    group.finish();
}

/// The loaded scenarios, their first 2 simulated seconds on all cores: city-flythrough.ron
/// (1000 4K texture sets, a coaster path through the grid) and intel-demo.ron (1000
/// spheres with 16K sets, the paint-mixer path).
fn loaded_scenarios(c: &mut Criterion) {
    let mut group = c.benchmark_group("stream");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(2));
    for name in ["city-flythrough", "intel-demo"] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/stream/{name}.ron"));
        let overrides: Vec<Override> = ["duration=2s"].iter().map(|s| s.parse().unwrap()).collect();
        let scenario = Scenario::load(&file, &overrides).expect("the shipped scenario loads");
        group.bench_function(format!("{name}, 2 s simulated, all cores"), |b| {
            b.iter(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
        });
    }
    group.finish();
}

criterion_group!(benches, sample_grid, loaded_scenarios);
criterion_main!(benches);
