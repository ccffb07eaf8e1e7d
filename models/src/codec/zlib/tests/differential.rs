//! Streams made by other encoders — miniz_oxide (flate2's default backend) at every level
//! and strategy, zlib-rs levels and strategies, libdeflate levels 1–12 and zopfli — must
//! inflate to exactly the bytes they were made from.

use super::data::{bc_like, text_like};
use crate::codec::zlib::deflate::zlib_rs_deflate;
use crate::codec::zlib::{deflate, inflate, Encoder, Inflater, ZlibError};

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut mixed = bc_like(2048, 11);
    mixed.extend(text_like(10_000, 12));
    mixed.extend(std::iter::repeat_n(0xaa, 5000));
    vec![
        ("bc-like 16 KiB", bc_like(2048, 10)),
        ("text 20 KB", text_like(20_000, 13)),
        ("mixed", mixed),
        ("zeros 64 KiB", vec![0; 65_536]),
        ("bc-like 96 KiB (window wraps)", bc_like(12_288, 14)),
    ]
}

/// Decodes `stream` for `data` with a fresh and a reused decoder; a stream that does not
/// shrink must be refused instead (the MDU rule).
fn check(what: &str, stream: &[u8], data: &[u8], reused: &mut Inflater) {
    if stream.len() >= data.len() {
        assert!(matches!(inflate(stream, data.len()), Err(ZlibError::NotSmaller { .. })), "{what}");
        return;
    }
    assert!(inflate(stream, data.len()).unwrap() == data, "{what}: fresh decoder");
    let mut out = vec![0xee; data.len()];
    reused.inflate_into(stream, &mut out).unwrap();
    assert!(out == data, "{what}: reused decoder");
}

#[test]
fn miniz_oxide_every_level_and_strategy() {
    use miniz_oxide::deflate::core::{compress_to_output, create_comp_flags_from_zip_params, CompressorOxide};
    use miniz_oxide::deflate::core::{TDEFLFlush, TDEFLStatus};
    let mut d = Inflater::new();
    for (name, data) in inputs() {
        for level in 0..=10u8 {
            let s = miniz_oxide::deflate::compress_to_vec_zlib(&data, level);
            check(&format!("{name}, miniz level {level}"), &s, &data, &mut d);
        }
        // Strategies: 1 filtered, 2 Huffman only, 3 RLE, 4 fixed Huffman blocks.
        for strategy in 1..=4 {
            for level in [1, 6, 9] {
                let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(level, 15, strategy));
                let mut s = Vec::new();
                let (status, _) = compress_to_output(&mut c, &data, TDEFLFlush::Finish, |out| {
                    s.extend_from_slice(out);
                    true
                });
                assert_eq!(status, TDEFLStatus::Done);
                check(&format!("{name}, miniz strategy {strategy} level {level}"), &s, &data, &mut d);
            }
        }
    }
}

#[test]
fn zlib_rs_levels_and_strategies() {
    use zlib_rs::Strategy;
    let mut d = Inflater::new();
    for (name, data) in inputs() {
        for level in 0..=9 {
            let s = deflate(&data, Encoder::zlib(level).unwrap());
            check(&format!("{name}, zlib level {level}"), &s, &data, &mut d);
        }
        for strategy in [Strategy::Filtered, Strategy::HuffmanOnly, Strategy::Rle, Strategy::Fixed] {
            let s = zlib_rs_deflate(&data, 6, strategy);
            check(&format!("{name}, zlib {strategy:?}"), &s, &data, &mut d);
        }
    }
}

#[test]
fn libdeflate_every_level() {
    let mut d = Inflater::new();
    for (name, data) in inputs() {
        for level in 1..=12 {
            let s = deflate(&data, Encoder::libdeflate(level).unwrap());
            check(&format!("{name}, libdeflate {level}"), &s, &data, &mut d);
        }
    }
}

#[test]
fn zopfli_streams() {
    let mut d = Inflater::new();
    // zopfli is slow: two inputs, few iterations.
    for (name, data) in inputs().into_iter().take(2) {
        let s = deflate(&data, Encoder::zopfli(2).unwrap());
        check(&format!("{name}, zopfli"), &s, &data, &mut d);
        let z9 = deflate(&data, Encoder::ZLIB_BEST);
        assert!(s.len() <= z9.len() + z9.len() / 100, "{name}: zopfli {} B vs zlib-9 {} B", s.len(), z9.len());
    }
}
