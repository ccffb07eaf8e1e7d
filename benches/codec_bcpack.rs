//! BCPack decode speed (MB/s of decoded BC blocks) on the committed 64 KiB khronos tiles,
//! one per decoder, for each method (small = adaptive range coder, fast = static rANS),
//! plus encode speed for reference.
//! Run: cargo bench --features bench --bench codec_bcpack

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sfsim::models::codec::bcpack::{decode_into, encode_with, BcpackMode, Profile};

const FIXTURES: [(&str, BcpackMode, &[u8]); 4] = [
    ("BC1 diffuse", BcpackMode::Bc1, include_bytes!("../models/tests-data/bcpack/bc1-diffuse.bin")),
    ("BC5 normal", BcpackMode::Bc5, include_bytes!("../models/tests-data/bcpack/bc5-normal.bin")),
    ("BC7 diffuse", BcpackMode::Bc7, include_bytes!("../models/tests-data/bcpack/bc7-diffuse.bin")),
    ("BC7 mode 7", BcpackMode::Bc7, include_bytes!("../models/tests-data/bcpack/bc7m7-diffuse.bin")),
];

const PROFILES: [(&str, Profile); 2] = [("small", Profile::Small), ("fast", Profile::Fast)];

fn decode_tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("bcpack decode");
    group.sample_size(20);
    for (pname, profile) in PROFILES {
        for (name, mode, tile) in FIXTURES {
            let packed = encode_with(mode, tile, mode.default_row_blocks(), profile).unwrap();
            let mut out = vec![0u8; tile.len()];
            group.throughput(Throughput::Bytes(tile.len() as u64));
            group.bench_function(format!("{pname}/{name}"), |b| b.iter(|| decode_into(&packed, &mut out).unwrap()));
        }
    }
    group.finish();
}

fn encode_tiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("bcpack encode");
    group.sample_size(10);
    for (pname, profile) in PROFILES {
        for (name, mode, tile) in FIXTURES {
            group.throughput(Throughput::Bytes(tile.len() as u64));
            group.bench_function(format!("{pname}/{name}"), |b| {
                b.iter(|| encode_with(mode, tile, mode.default_row_blocks(), profile).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, decode_tiles, encode_tiles);
criterion_main!(benches);
