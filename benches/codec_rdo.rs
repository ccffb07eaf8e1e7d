//! RDO post-pass speed on real content: one 64 KiB SFS tile (BC1: 512x256 texels, BC5:
//! 256x256) of the Khronos RGB diffuse atlas committed under scenarios/content, already
//! BC-encoded, re-chosen at λ = 0 (quality-only pass) and the default λ = 40. Throughput is
//! tile bytes (64 KiB of blocks) per second. Also: DDS write + read of that tile.
//! Run: cargo bench --features bench --bench codec_rdo

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sfsim::models::codec::bc::{encode_surface, rdo, EncodeSettings, RdoSettings};
use sfsim::models::texture::{BcFormat, DdsImage, TILE_BYTES};
use std::hint::black_box;
use std::path::Path;

/// The tile-sized window at (512, 512) of ldr-rgb-diffuse.png (2048², opaque), as RGBA8.
fn tile_window(format: BcFormat) -> (u32, u32, Vec<u8>) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/content/textures/ldr-rgb-diffuse.png");
    let img = image::open(&file).expect("committed texture loads").to_rgba8();
    let (w, h) = format.tile_texels();
    let window = image::imageops::crop_imm(&img, 512, 512, w, h).to_image();
    (w, h, window.into_raw())
}

fn rdo_tile(c: &mut Criterion) {
    let mut group = c.benchmark_group("rdo 64 KiB tile");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(TILE_BYTES));
    for (name, format) in [("BC1", BcFormat::Bc1), ("BC5", BcFormat::Bc5)] {
        let (w, h, rgba) = tile_window(format);
        let blocks = encode_surface(format, w, h, &rgba, &EncodeSettings::default()).expect("encodes");
        for lambda in [0.0, 40.0] {
            let s = RdoSettings { lambda, ..Default::default() };
            group.bench_function(format!("{name} λ={lambda}"), |b| {
                b.iter(|| rdo(format, w, h, black_box(&rgba), black_box(&blocks), &s).expect("rdo"))
            });
        }
    }
    group.finish();
}

fn dds(c: &mut Criterion) {
    let mut group = c.benchmark_group("dds 64 KiB BC1 tile");
    group.throughput(Throughput::Bytes(TILE_BYTES));
    let (w, h, rgba) = tile_window(BcFormat::Bc1);
    let blocks = encode_surface(BcFormat::Bc1, w, h, &rgba, &EncodeSettings::default()).expect("encodes");
    let image = DdsImage { format: BcFormat::Bc1, width: w, height: h, mip_count: 1, srgb: true, mips: vec![blocks] };
    let file = image.write().expect("writes");
    group.bench_function("write", |b| b.iter(|| black_box(&image).write().expect("writes")));
    group.bench_function("read", |b| b.iter(|| DdsImage::read(black_box(&file)).expect("reads")));
    group.finish();
}

criterion_group!(benches, rdo_tile, dds);
criterion_main!(benches);
