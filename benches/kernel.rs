//! Kernel events per second: a steady queue of 1024 pending events, each pop scheduling
//! one new event a pseudo-random distance ahead (the shape of a busy simulation).
//! Run: cargo bench --features bench --bench kernel

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sfsim::kernel::Kernel;
use sfsim::models::units::Time;

const PENDING: u64 = 1024;
const EVENTS: u64 = 1_000_000;

fn steady_state(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel");
    group.throughput(Throughput::Elements(EVENTS));
    group.bench_function("pop+schedule, 1024 pending", |b| {
        b.iter(|| {
            let mut k: Kernel<u32> = Kernel::new();
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for i in 0..PENDING {
                k.schedule(Time(i * 1000), i as u32);
            }
            for _ in 0..EVENTS {
                let (now, e) = k.pop().expect("never empty");
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                k.schedule(now + Time(x % 1_000_000), black_box(e));
            }
            k.processed()
        })
    });
    group.finish();
}

criterion_group!(benches, steady_state);
criterion_main!(benches);
