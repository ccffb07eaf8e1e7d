//! Simulator speed on scenarios/io/saturate.ron (10 simulated seconds, ~650k IOs).
//! Criterion's "elem/s" here is simulated seconds per wall-clock second.
//! Run: cargo bench --features bench --bench saturate

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sfsim::run::{run, RunOptions};
use sfsim::scenario::Scenario;
use std::path::Path;

fn saturate(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/io/saturate.ron");
    let scenario = Scenario::load(&file, &[]).expect("saturate.ron loads");
    let mut group = c.benchmark_group("saturate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(scenario.duration.as_secs_f64().round() as u64));
    group.bench_function("10 s simulated", |b| {
        b.iter(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("runs").stats)
    });
    group.finish();
}

criterion_group!(benches, saturate);
criterion_main!(benches);
