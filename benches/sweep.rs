//! Sweep scaling: scenarios/sweeps/pool-size.ron (10 streaming points on the quickstart
//! scene, 3 simulated seconds each) run with one job and with two. Points share nothing
//! on the hot path, so two jobs on two cores should take about half the time: the
//! efficiency on 2 cores is the one-job median / (2 × the two-job median).
//! Criterion's "elem/s" is points per wall-clock second.
//! Run: cargo bench --features bench --bench sweep

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use sfsim::sweep::{execute, Plan, Settings};
use std::path::Path;

fn sweep_scaling(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/sweeps/pool-size.ron");
    let plan = Plan::load(&file).expect("pool-size.ron loads");
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(plan.points.len() as u64));
    for jobs in [1, 2] {
        group.bench_function(format!("pool-size, {} points, {jobs} job(s)", plan.points.len()), |b| {
            b.iter(|| {
                let out = tempfile::tempdir().expect("a temporary folder");
                let settings = Settings { out: out.path().to_path_buf(), jobs, shard: None };
                execute(&plan, &settings, &|_, _, _| {}).expect("the sweep runs").points_run
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sweep_scaling);
criterion_main!(benches);
