//! Round trips through the container, the reader's refusals, and hostile files.

use super::format::table_hash;
use super::*;
use crate::content::mipgen::{mip_chain, Image};
use proptest::prelude::*;
use sfsim_models::codec::bc::{Bc7Quality, EncodeSettings};
use sfsim_models::texture::{BcFormat, TileMode};
use std::sync::OnceLock;

/// A gradient with a soft pattern and a little noise: compressible, but not trivially.
pub(super) fn test_image(width: u32, height: u32) -> Image {
    let mut state = 0x2545_F491u32;
    let mut rgba = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let n = state % 9;
            let wave = ((x / 16 + y / 16) % 2) * 40;
            rgba.extend_from_slice(&[
                (x * 255 / width + n) as u8,
                (y * 255 / height + wave) as u8,
                ((x + y) * 127 / (width + height) + n) as u8,
                255,
            ]);
        }
    }
    Image { width, height, rgba }
}

pub(super) fn fast(format: BcFormat) -> PackOptions {
    let mut o = PackOptions::new(format);
    o.encode = EncodeSettings { bc7_quality: Bc7Quality::Fast, bc7_modes: None };
    o
}

/// One packed BC1 texture shared by the hostile-input tests (packing it once keeps them fast).
pub(super) fn packed_bc1() -> &'static PackedTexture {
    static PACKED: OnceLock<PackedTexture> = OnceLock::new();
    PACKED.get_or_init(|| pack(&test_image(512, 512), &fast(BcFormat::Bc1), &|| {}).unwrap())
}

#[test]
fn every_stream_decodes_to_the_packed_bc_data_in_every_mode() {
    let image = test_image(512, 512);
    for (format, mode, streams) in [
        (BcFormat::Bc1, TileMode::Sfs, None),
        (BcFormat::Bc7, TileMode::Sfs, None),
        (BcFormat::Bc7, TileMode::Sfs, Some(1)),
        (BcFormat::Bc7, TileMode::Tile64k, None),
        (BcFormat::Bc4, TileMode::Mip, Some(0)),
        (BcFormat::Bc5, TileMode::Mip, None),
        (BcFormat::Bc3, TileMode::Tile64k, Some(1)),
    ] {
        let options = PackOptions { tile_mode: mode, mip_streams: streams, ..fast(format) };
        let packed = pack(&image, &options, &|| {}).unwrap();
        let c = Container::from_bytes(packed.container.clone()).unwrap();
        assert_eq!(c.stream_count(), packed.summary.streams);
        assert_eq!(c.decode_layout().unwrap(), packed.layout, "{format:?} {mode}");
        // Independently encoded mips come back from the container, untiled.
        let chain = mip_chain(&image, options.color).unwrap();
        let mips = encode_mips(&chain, format, &options.encode).unwrap();
        for (level, blocks) in mips.iter().enumerate() {
            assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks, "{format:?} {mode} mip {level}");
        }
        for (i, e) in c.entries().iter().enumerate() {
            let s = c.stream(i).unwrap();
            assert_eq!(s.file_offset % 16, 0);
            assert_eq!(e.options.zlib, e.compressed_size != e.inflated_size);
            assert_eq!(e.options.bcpack(), e.inflated_size != e.uncompressed_size);
            if mode == TileMode::Sfs && !e.resident {
                assert_eq!(e.uncompressed_size, 65_536);
            }
        }
        assert!(packed.summary.compressed_bytes < packed.summary.uncompressed_bytes, "{format:?} {mode}");
    }
}

#[test]
fn summary_counts_streams_by_path_and_serialises() {
    let p = packed_bc1();
    let s = &p.summary;
    assert_eq!(s.streams, 3); // mip 0 = two 512x256 tiles, mips 1.. = the tail
    assert_eq!(s.paths.values().map(|t| t.streams).sum::<usize>(), 3);
    assert_eq!(s.paths.values().map(|t| t.compressed_bytes).sum::<u64>(), s.compressed_bytes);
    let json: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
    assert_eq!(json["streams"], 3);
    assert_eq!(
        json["paths"]["bcpack_deflate"]["streams"].as_u64().unwrap() as usize,
        s.paths["bcpack_deflate"].streams
    );
    assert!(s.to_string().contains("BCPack+Deflate"));
}

fn field_error(bytes: Vec<u8>) -> String {
    Container::parse("t.sfstex", bytes).unwrap_err().to_string()
}

/// Sets `bytes[at..]` to `value` and recomputes the table hash, so only the field check can
/// catch it.
fn with_field(at: usize, value: &[u8]) -> Vec<u8> {
    let mut bytes = packed_bc1().container.clone();
    bytes[at..at + value.len()].copy_from_slice(value);
    let end = format::data_offset(3) as usize;
    let hash = table_hash(&bytes[..end]);
    bytes[56..64].copy_from_slice(&hash.to_le_bytes());
    bytes
}

#[test]
fn bad_fields_are_named_with_their_range() {
    let entry = |i: usize, off: usize| HEADER_BYTES + i * ENTRY_BYTES + off;
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (with_field(8, &2u16.to_le_bytes()), "header version is 2; expected 1"),
        (with_field(14, &[9]), "format is 9; expected 1..=7"),
        (with_field(15, &[3]), "tile mode is 3; expected 0 (sfs)"),
        (with_field(16, &0u32.to_le_bytes()), "width is 0; expected 1..=16384"),
        (with_field(24, &[4]), "mip count is 4; expected 10"),
        (with_field(25, &[3]), "mip streams is 3; expected 0..=1"),
        (with_field(28, &4u32.to_le_bytes()), "stream count is 4; expected 3"),
        (with_field(entry(1, 0), &8u64.to_le_bytes()), "stream 1 RelativeOffset is 8; expected a multiple of 16"),
        (with_field(entry(0, 16), &1000u32.to_le_bytes()), "stream 0 UncompressedSize is 1000; expected 65536"),
        (
            with_field(entry(0, 22), &9u16.to_le_bytes()),
            "stream 0 SwizzleMode is 9; expected 0 (none) or 1 (Bc1Shuffle, Bc1's field shuffle)",
        ),
        (with_field(entry(2, 42), &[0]), "stream 2 flags"),
    ];
    for (bytes, expected) in cases {
        let e = field_error(bytes);
        assert!(e.starts_with("t.sfstex: ") && e.contains(expected), "{e}\n  expected: {expected}");
    }
    // zlib flag without a size change contradicts the sizes.
    let e0 = Container::from_bytes(packed_bc1().container.clone()).unwrap().entries()[0];
    let flipped = u8::from(!e0.options.zlib);
    let e = field_error(with_field(entry(0, 20), &[flipped]));
    assert!(e.contains("stream 0 InflatedSize"), "{e}");
}

#[test]
fn truncation_and_corruption_are_caught() {
    let good = &packed_bc1().container;
    let e = field_error(good[..40].to_vec());
    assert!(e.contains("truncated: the header needs 64 B but the file has 40 B"), "{e}");
    let e = field_error(good[..100].to_vec());
    assert!(e.contains("truncated: the stream table needs 208 B"), "{e}");
    let e = field_error(good[..good.len() - 1].to_vec());
    assert!(e.contains("truncated: the data section"), "{e}");
    let e = field_error(b"PNG\r\n\x1a\n and more bytes".to_vec());
    assert!(e.contains("magic") && e.contains("SFSIMTEX"), "{e}");
    // A flipped hash byte in the table: only the table hash sees it.
    let mut bytes = good.clone();
    bytes[HEADER_BYTES + 32] ^= 1;
    assert!(field_error(bytes).contains("the file is corrupt"));
    // A flipped byte inside a stream: that stream fails to decode or fails its hash.
    let c = Container::from_bytes(good.clone()).unwrap();
    let at = c.stream(1).unwrap().file_offset as usize + c.entries()[1].compressed_size as usize / 2;
    let mut bytes = good.clone();
    bytes[at] ^= 0x40;
    let c = Container::from_bytes(bytes).unwrap();
    assert!(c.decode_stream(0).is_ok());
    let e = c.decode_stream(1).unwrap_err().to_string();
    assert!(e.contains("stream 1") && (e.contains("corrupt") || e.contains("does not decode")), "{e}");
    assert!(c.decode_stream(3).unwrap_err().to_string().contains("expected 0..3"));
}

#[test]
fn open_names_the_file() {
    let e = Container::open("/nonexistent/x.sfstex".as_ref()).unwrap_err().to_string();
    assert!(e.starts_with("/nonexistent/x.sfstex: cannot read"), "{e}");
}

/// `bytes` with each `(at, x)` XORed in at `at % len`, then cut to `cut % (len + 1)` when
/// `truncate`: the mutation both fuzz tests apply.
pub(super) fn mutate(mut bytes: Vec<u8>, flips: &[(usize, u8)], cut: usize, truncate: bool) -> Vec<u8> {
    for &(at, x) in flips {
        let i = at % bytes.len();
        bytes[i] ^= x;
    }
    if truncate {
        bytes.truncate(cut % (bytes.len() + 1));
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Flipped bytes anywhere and any truncation: never a panic, and whatever decodes with
    /// every hash intact is exactly the packed data.
    #[test]
    fn mutated_containers_never_panic(
        flips in proptest::collection::vec((any::<usize>(), 1u8..), 0..4),
        cut in any::<usize>(),
        truncate in any::<bool>(),
    ) {
        let packed = packed_bc1();
        let bytes = mutate(packed.container.clone(), &flips, cut, truncate);
        if let Ok(c) = Container::from_bytes(bytes) {
            if let Ok(layout) = c.decode_layout() {
                prop_assert_eq!(layout, packed.layout.clone());
            }
            for level in 0..12 {
                let _ = c.mip_blocks(level);
            }
        }
    }
}
