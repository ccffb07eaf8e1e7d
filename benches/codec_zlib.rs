//! zlib stage decode speed on 64 KiB BC tiles: the candidate backends side by side, then
//! sfsim's `codec::zlib::inflate_into` (the chosen backend plus the MDU's checks).
//! Tiles come from `$SFSIM_BC_CORPUS/{bc1,bc7}/*.bin` when that variable names a directory,
//! else from deterministic BC-like data, so the bench always runs.
//! Run: SFSIM_BC_CORPUS=/tmp/bc-corpus cargo bench --features bench --bench codec_zlib

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use sfsim::models::codec::zlib::{self, Encoder};
use std::path::Path;

const TILE: usize = 65_536;

/// One named set of 64 KiB tiles (e.g. "bc1").
struct TileSet {
    name: &'static str,
    tiles: Vec<Vec<u8>>,
}

fn load_dir(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).filter(|t| t.len() == TILE).collect()
}

/// BC-like tiles: endpoints drawn from a small palette (so Deflate finds repeats, as in
/// real BC data) and random index bits (which it cannot compress).
fn generated(block_bytes: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..16)
        .map(|_| {
            let palette: Vec<[u8; 8]> = (0..48).map(|_| rng.gen()).collect();
            let mut t = Vec::with_capacity(TILE);
            while t.len() < TILE {
                let endpoints = palette[rng.gen_range(0..palette.len())];
                let head = block_bytes / 2;
                t.extend_from_slice(&endpoints[..head.min(8)]);
                t.extend((0..block_bytes - head.min(8)).map(|_| rng.gen::<u8>()));
            }
            t
        })
        .collect()
}

fn corpus() -> Vec<TileSet> {
    let root = std::env::var_os("SFSIM_BC_CORPUS");
    let mut sets = Vec::new();
    for (name, block_bytes, seed) in [("bc1", 8, 1), ("bc7", 16, 7)] {
        let tiles = root.as_ref().map(|r| load_dir(&Path::new(r).join(name))).unwrap_or_default();
        let tiles = if tiles.is_empty() { generated(block_bytes, seed) } else { tiles };
        sets.push(TileSet { name, tiles });
    }
    sets
}

fn decode(c: &mut Criterion) {
    for set in corpus() {
        for (enc_name, enc) in [("zlib9", Encoder::ZLIB_BEST), ("libdeflate12", Encoder::LIBDEFLATE_BEST)] {
            // Tiles that do not shrink are stored raw by the packer and never reach the stage.
            let streams: Vec<Vec<u8>> =
                set.tiles.iter().map(|t| zlib::deflate(t, enc)).filter(|s| s.len() < TILE).collect();
            if streams.is_empty() {
                continue;
            }
            let out_bytes = (streams.len() * TILE) as u64;
            let in_bytes: usize = streams.iter().map(Vec::len).sum();
            eprintln!(
                "{} {enc_name}: {} tiles, ratio {:.3} (compressed / raw)",
                set.name,
                streams.len(),
                in_bytes as f64 / out_bytes as f64
            );
            let mut group = c.benchmark_group(format!("zlib-decode/{}/{enc_name}", set.name));
            group.throughput(Throughput::Bytes(out_bytes));
            let mut out = vec![0u8; TILE];

            group.bench_function(BenchmarkId::from_parameter("libdeflate"), |b| {
                let mut d = libdeflater::Decompressor::new();
                b.iter(|| {
                    for s in &streams {
                        assert_eq!(d.zlib_decompress(s, &mut out).unwrap(), TILE);
                    }
                })
            });
            group.bench_function(BenchmarkId::from_parameter("zlib-rs"), |b| {
                let mut d = zlib_rs::Inflate::new(true, 15);
                b.iter(|| {
                    for s in &streams {
                        d.reset(true);
                        let st = d.decompress(s, &mut out, zlib_rs::InflateFlush::Finish).unwrap();
                        assert_eq!((st, d.total_out()), (zlib_rs::Status::StreamEnd, TILE as u64));
                    }
                })
            });
            group.bench_function(BenchmarkId::from_parameter("miniz_oxide"), |b| {
                use miniz_oxide::inflate::stream::{inflate, InflateState};
                use miniz_oxide::{DataFormat, MZFlush, MZStatus};
                let mut st = InflateState::new_boxed(DataFormat::Zlib);
                b.iter(|| {
                    for s in &streams {
                        st.reset_as(miniz_oxide::inflate::stream::MinReset);
                        let r = inflate(&mut st, s, &mut out, MZFlush::Finish);
                        assert_eq!((r.status, r.bytes_written), (Ok(MZStatus::StreamEnd), TILE));
                    }
                })
            });
            group.bench_function(BenchmarkId::from_parameter("zune-inflate"), |b| {
                b.iter(|| {
                    for s in &streams {
                        let opts = zune_inflate::DeflateOptions::default().set_size_hint(TILE).set_limit(TILE);
                        let v = zune_inflate::DeflateDecoder::new_with_options(s, opts).decode_zlib().unwrap();
                        assert_eq!(v.len(), TILE);
                    }
                })
            });
            group.bench_function(BenchmarkId::from_parameter("sfsim inflate_into"), |b| {
                b.iter(|| {
                    for s in &streams {
                        zlib::inflate_into(s, &mut out).unwrap();
                    }
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);
