//! BCPack decode speed (MB/s of decoded BC blocks) on the committed 64 KiB khronos tiles,
//! one per decoder, plus encode speed for reference.
//! Run: cargo bench --features bench --bench codec_bcpack

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sfsim::models::codec::bcpack::{decode_into, encode, BcpackMode};

const FIXTURES: [(&str, BcpackMode, &[u8]); 4] = [
    ("BC1 diffuse", BcpackMode::Bc1, include_bytes!("../models/tests-data/bcpack/bc1-diffuse.bin")),
    ("BC5 normal", BcpackMode::Bc5, include_bytes!("../models/tests-data/bcpack/bc5-normal.bin")),
    ("BC7 diffuse", BcpackMode::Bc7, include_bytes!("../models/tests-data/bcpack/bc7-diffuse.bin")),
    ("BC7 mode 7", BcpackMode::Bc7, include_bytes!("../models/tests-data/bcpack/bc7m7-diffuse.bin")),
];

fn decode_tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("bcpack decode");
    group.sample_size(20);
    for (name, mode, tile) in FIXTURES {
        let packed = encode(mode, tile).unwrap();
        let mut out = vec![0u8; tile.len()];
        group.throughput(Throughput::Bytes(tile.len() as u64));
        group.bench_function(name, |b| b.iter(|| decode_into(&packed, &mut out).unwrap()));
    }
    group.finish();
}

fn encode_tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("bcpack encode");
    group.sample_size(10);
    for (name, mode, tile) in FIXTURES {
        group.throughput(Throughput::Bytes(tile.len() as u64));
        group.bench_function(name, |b| b.iter(|| encode(mode, tile).unwrap()));
    }
    group.finish();
}

criterion_group!(benches, decode_tiles, encode_tiles);
criterion_main!(benches);
