//! BC codec speed on real content: decoding one 64 KiB SFS tile (BC1: 512x256 texels, BC7:
//! 256x256) of the Khronos RGB diffuse atlas committed under scenarios/content, and encoding
//! the same tile. Throughput is tile bytes (64 KiB of blocks) per second.
//! Run: cargo bench --features bench --bench codec_bc

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sfsim::models::codec::bc::{decode_surface, encode_surface, Bc7Modes, Bc7Quality, EncodeSettings};
use sfsim::models::texture::{BcFormat, TILE_BYTES};
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

fn settings(bc7_quality: Bc7Quality, bc7_modes: Option<Bc7Modes>) -> EncodeSettings {
    EncodeSettings { bc7_quality, bc7_modes }
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("bc decode 64 KiB tile");
    group.throughput(Throughput::Bytes(TILE_BYTES));
    for (name, format, s) in [
        ("BC1", BcFormat::Bc1, EncodeSettings::default()),
        ("BC7 basic", BcFormat::Bc7, settings(Bc7Quality::Basic, None)),
        ("BC7 mode 7 only", BcFormat::Bc7, settings(Bc7Quality::Basic, Some(Bc7Modes::MODE_7_ONLY))),
    ] {
        let (w, h, rgba) = tile_window(format);
        let blocks = encode_surface(format, w, h, &rgba, &s).expect("encodes");
        assert_eq!(blocks.len() as u64, TILE_BYTES);
        group.bench_function(name, |b| b.iter(|| decode_surface(format, w, h, black_box(&blocks)).expect("decodes")));
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("bc encode 64 KiB tile");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(TILE_BYTES));
    for (name, format, s) in [
        ("BC1", BcFormat::Bc1, EncodeSettings::default()),
        ("BC7 fast", BcFormat::Bc7, settings(Bc7Quality::Fast, None)),
        ("BC7 basic", BcFormat::Bc7, settings(Bc7Quality::Basic, None)),
        ("BC7 mode 7 only, basic", BcFormat::Bc7, settings(Bc7Quality::Basic, Some(Bc7Modes::MODE_7_ONLY))),
    ] {
        let (w, h, rgba) = tile_window(format);
        group.bench_function(name, |b| b.iter(|| encode_surface(format, w, h, black_box(&rgba), &s).expect("encodes")));
    }
    group.finish();
}

criterion_group!(benches, decode, encode);
criterion_main!(benches);
