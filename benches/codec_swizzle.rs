//! Swizzle stage speed: MB/s per mode on one 64 KiB tile, both directions (the MDU's
//! `apply_into`, and the packer's `unapply`).
//! Run: cargo bench --features bench --bench codec_swizzle

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use sfsim::models::codec::swizzle::{apply_into, unapply, UNIT_BYTES};
use sfsim::models::nvme::SwizzleMode;

fn swizzle(c: &mut Criterion) {
    let mut tile = vec![0u8; UNIT_BYTES];
    rand_chacha::ChaCha8Rng::seed_from_u64(5).fill_bytes(&mut tile);
    let cases = [
        (SwizzleMode::Bc1Shuffle, 8),
        (SwizzleMode::Bc3Shuffle, 16),
        (SwizzleMode::Bc4Shuffle, 8),
        (SwizzleMode::Bc5Shuffle, 16),
        (SwizzleMode::LinearToMorton, 8),
        (SwizzleMode::LinearToMorton, 16),
        (SwizzleMode::MortonToLinear, 16),
        (SwizzleMode::None, 16),
    ];
    let mut group = c.benchmark_group("swizzle-64KiB");
    group.throughput(Throughput::Bytes(UNIT_BYTES as u64));
    let mut out = vec![0u8; UNIT_BYTES];
    for (mode, b) in cases {
        group.bench_function(BenchmarkId::new(format!("{mode:?} {b}B"), "apply_into (MDU)"), |bench| {
            bench.iter(|| apply_into(mode, b, &tile, &mut out).unwrap())
        });
        group.bench_function(BenchmarkId::new(format!("{mode:?} {b}B"), "unapply (pack)"), |bench| {
            bench.iter(|| unapply(mode, b, &tile).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, swizzle);
criterion_main!(benches);
