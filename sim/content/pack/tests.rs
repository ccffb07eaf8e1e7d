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

/// `rdo_max_loss` through the library: refused with a fixed λ, for BC7, out of range and for
/// a DDS; on a synthetic image it stays within budget and reports what it wrote.
#[test]
fn rdo_max_loss_refusals_and_report() {
    let image = test_image(128, 128);
    let rule = |loss: f64| PackOptions { rdo_max_loss: Some(loss), ..fast(BcFormat::Bc1) };
    let both = PackOptions { rdo: Some(sfsim_models::codec::bc::RdoSettings::default()), ..rule(2.0) };
    let bc7 = PackOptions { rdo_max_loss: Some(2.0), ..fast(BcFormat::Bc7) };
    for (options, expected) in [
        (both, "--rdo-lambda"),
        (bc7, "bc7"),
        (rule(0.0), "0 < loss ≤ 20 dB"),
        (rule(-1.0), "0 < loss ≤ 20 dB"),
        (rule(30.0), "0 < loss ≤ 20 dB"),
        (rule(f64::NAN), "0 < loss ≤ 20 dB"),
    ] {
        let e = pack(&image, &options, &|| {}).unwrap_err().to_string();
        assert!(e.contains("--rdo-max-loss") && e.contains(expected), "{e}");
    }
    let dds = tiny_bc1_dds();
    let e = pack_dds(&dds, &rule(2.0), &|| {}).unwrap_err().to_string();
    assert!(e.contains("--rdo-max-loss") && e.contains("original texels"), "{e}");

    let plain = pack(&image, &fast(BcFormat::Bc1), &|| {}).unwrap();
    let packed = pack(&image, &rule(1.0), &|| {}).unwrap();
    let r = packed.summary.rdo_rule.clone().unwrap();
    assert!(r.loss_db <= 1.0 && r.bytes <= r.bytes_plain && r.bytes_plain == plain.summary.compressed_bytes, "{r:?}");
    assert_eq!(r.psnr_plain, plain.summary.psnr.unwrap());
    assert_eq!(Some(r.psnr_rdo), packed.summary.psnr);
    assert_eq!(packed.summary.rdo_lambda, r.lambda);
    // Every mip is RDO'd at the λ chosen (the search's probes pass over mip 0 only).
    let lambda = r.lambda.expect("a 1 dB budget leaves room for some RDO here");
    let settings = sfsim_models::codec::bc::RdoSettings { lambda, ..Default::default() };
    let fixed = pack(&image, &PackOptions { rdo: Some(settings), ..fast(BcFormat::Bc1) }, &|| {}).unwrap();
    assert!(packed.layout.len() > 128 * 128 / 2, "mips past mip 0");
    assert_eq!(packed.layout, fixed.layout);
    let text = packed.summary.to_string();
    assert!(text.contains("RDO by rule (max loss 1 dB"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&packed.summary.to_json()).unwrap();
    assert_eq!(json["rdo_rule"]["bytes_saved"], r.bytes_plain - r.bytes);
    assert!(json["rdo_rule"]["probes"].as_array().unwrap().len() >= 2);
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

/// Banding RDO by 64 KiB tile rows gives exactly the whole-mip pass (3 bands of BC1 here).
#[test]
fn rdo_bands_equal_the_whole_mip_pass() {
    use sfsim_models::codec::bc::{rdo, RdoSettings};
    let image = test_image(40, 600);
    let chain = vec![image.clone()];
    let mips = encode_mips(&chain, BcFormat::Bc1, &EncodeSettings::default()).unwrap();
    let settings = RdoSettings { lambda: 60.0, ..Default::default() };
    let banded = rdo_mips(&chain, &mips, BcFormat::Bc1, &settings).unwrap();
    let whole = rdo(BcFormat::Bc1, 40, 600, &image.rgba, &mips[0], &settings).unwrap();
    assert_eq!(banded[0], whole);
    assert_ne!(whole, mips[0], "λ = 60 changes some blocks of this image");
}

#[test]
fn pack_with_rdo_reports_psnr_and_shrinks() {
    let image = test_image(256, 256);
    let plain = pack(&image, &fast(BcFormat::Bc1), &|| {}).unwrap();
    let options = PackOptions { rdo: Some(sfsim_models::codec::bc::RdoSettings::default()), ..fast(BcFormat::Bc1) };
    let rdo = pack(&image, &options, &|| {}).unwrap();
    let (p, r) = (plain.summary.psnr.unwrap(), rdo.summary.psnr.unwrap());
    assert!(p > 30.0 && r > p - 2.0, "{p} → {r} dB");
    assert!(rdo.summary.compressed_bytes < plain.summary.compressed_bytes);
    assert_eq!(rdo.summary.rdo_lambda, Some(40.0));
    assert!(rdo.summary.to_string().contains("RDO λ = 40"));
    let c = Container::from_bytes(rdo.container).unwrap();
    assert_eq!(c.decode_layout().unwrap(), rdo.layout);
}

#[test]
fn rdo_is_refused_for_bc7_and_dds() {
    let options = PackOptions { rdo: Some(sfsim_models::codec::bc::RdoSettings::default()), ..fast(BcFormat::Bc7) };
    let e = pack(&test_image(64, 64), &options, &|| {}).unwrap_err().to_string();
    assert!(e.contains("RDO does not support Bc7"), "{e}");
    let dds = tiny_bc1_dds();
    let options = PackOptions { rdo: Some(sfsim_models::codec::bc::RdoSettings::default()), ..fast(BcFormat::Bc1) };
    let e = pack_dds(&dds, &options, &|| {}).unwrap_err().to_string();
    assert!(e.contains("--rdo-lambda") && e.contains("original texels"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any bytes are valid BC blocks: a DDS of random blocks packs, and every mip decodes
    /// back bit-exactly; exporting gives the same DDS back.
    #[test]
    fn dds_blocks_round_trip(
        format in prop_oneof![Just(BcFormat::Bc1), Just(BcFormat::Bc2), Just(BcFormat::Bc3), Just(BcFormat::Bc4),
            Just(BcFormat::Bc5), Just(BcFormat::Bc7)],
        width in 1u32..300,
        height in 1u32..200,
        seed in any::<u64>(),
        mode in prop_oneof![Just(TileMode::Sfs), Just(TileMode::Tile64k), Just(TileMode::Mip)],
    ) {
        let levels = u32::BITS - width.max(height).leading_zeros();
        let mut state = seed | 1;
        let mips: Vec<Vec<u8>> = (0..levels)
            .map(|l| {
                let bytes = format.surface_bytes((width >> l).max(1), (height >> l).max(1)) as usize;
                (0..bytes).map(|_| { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state as u8 }).collect()
            })
            .collect();
        let dds = sfsim_models::texture::DdsImage { format, width, height, mip_count: levels, srgb: false, mips };
        let options = PackOptions { tile_mode: mode, ..fast(format) };
        let packed = pack_dds(&dds, &options, &|| {}).unwrap();
        let c = Container::from_bytes(packed.container).unwrap();
        for (level, blocks) in dds.mips.iter().enumerate() {
            prop_assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks);
        }
        prop_assert_eq!(export_dds(&c).unwrap(), dds.write().unwrap());
    }

    /// A DDS with a random mip count packs when 1..=7 mips (the rest generated) and every
    /// mip has its size; anything else is refused, never a panic.
    #[test]
    fn dds_with_bad_mips_is_refused(count in 0u32..12, short in 0usize..3) {
        let (w, h) = (64u32, 64u32);
        let mips: Vec<Vec<u8>> =
            (0..count).map(|l| vec![0; (BcFormat::Bc1.surface_bytes((w >> l).max(1), (h >> l).max(1)) as usize).saturating_sub(short)]).collect();
        let dds = sfsim_models::texture::DdsImage { format: BcFormat::Bc1, width: w, height: h, mip_count: count, srgb: false, mips };
        let result = pack_dds(&dds, &fast(BcFormat::Bc1), &|| {});
        prop_assert_eq!(result.is_ok(), (1..=7).contains(&count) && short == 0);
    }
}

/// A real Khronos texture (scenarios/content/textures), downscaled by the packer's own mip
/// filter to at most `side` texels wide so packing stays quick in debug.
fn khronos(name: &str, side: u32) -> Image {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let image = load_image(&root.join("scenarios/content/textures").join(name)).unwrap();
    let chain = mip_chain(&image, crate::content::mipgen::ColorSpace::Linear).unwrap();
    chain.into_iter().find(|m| m.width <= side).unwrap()
}

/// `--shuffle on` on real textures (BC1 in SFS tiles with the packed tail, BC3 in 64 KiB-tiled
/// mips, BC4 in SFS tiles, BC5 as whole linear mips of several 64 KiB units): the container decodes bit-exactly through
/// the functional MDU, every stream passes its hash check, every shuffled stream carries the
/// format's shuffle and is Deflate-only, and some streams are shuffled (BC1, BC3, BC4; on the
/// normal map BCPack wins every stream).
#[test]
fn shuffle_on_decodes_bit_exactly_through_the_functional_mdu() {
    use sfsim_models::nvme::SwizzleMode;
    for (name, format, mode, shuffle) in [
        ("ldr-rgba-diffuse.png", BcFormat::Bc1, TileMode::Sfs, SwizzleMode::Bc1Shuffle),
        ("ldr-rgba-diffuse.png", BcFormat::Bc3, TileMode::Tile64k, SwizzleMode::Bc3Shuffle),
        ("ldr-rgba-specgloss.png", BcFormat::Bc4, TileMode::Sfs, SwizzleMode::Bc4Shuffle),
        ("ldr-xy-normal1.png", BcFormat::Bc5, TileMode::Mip, SwizzleMode::Bc5Shuffle),
    ] {
        let options = PackOptions { tile_mode: mode, shuffle: ShuffleChoice::On, ..fast(format) };
        let packed = pack(&khronos(name, 512), &options, &|| {}).unwrap();
        let c = Container::from_bytes(packed.container.clone()).unwrap();
        assert_eq!(c.decode_layout().unwrap(), packed.layout, "{name}");
        let mut shuffled = 0;
        for (i, e) in c.entries().iter().enumerate() {
            let s = c.stream(i).unwrap();
            assert_eq!(s.request.options.swizzle_mode, e.options.swizzle_mode);
            let bytes = c.decode_stream(i).unwrap(); // checks the stream's hash
            let at = e.layout_offset as usize;
            assert_eq!(bytes, packed.layout[at..at + bytes.len()], "{name} stream {i}");
            if e.options.swizzle_mode != 0 {
                assert_eq!(e.options.swizzle_mode, shuffle as u32, "{name} stream {i}");
                assert!(e.options.zlib && !e.options.bcpack(), "{name} stream {i}: {:?}", e.options);
                shuffled += 1;
            }
        }
        // BCPack wins every stream of the normal map (BC5), so nothing is shuffled there.
        if format != BcFormat::Bc5 {
            assert!(shuffled > 0, "{name} {format:?}: no stream was shuffled");
        }
        assert_eq!(packed.summary.shuffled_streams, shuffled);
        assert_eq!(packed.summary.shuffle, "on");
        assert!(packed.summary.to_string().contains(&format!("shuffle on: {shuffled} of")), "{}", packed.summary);
    }
}

/// `--shuffle auto` keeps, per region, the smaller of what `off` and `on` give (so it is never
/// larger than either in total), and its choices differ between regions (BC1, BC3, BC4).
#[test]
fn shuffle_auto_is_never_larger_and_picks_per_region() {
    for (name, format) in [
        ("ldr-rgba-diffuse.png", BcFormat::Bc1),
        ("ldr-rgba-diffuse.png", BcFormat::Bc3),
        ("ldr-rgba-specgloss.png", BcFormat::Bc4),
        ("ldr-xy-normal1.png", BcFormat::Bc5),
    ] {
        let image = khronos(name, 512);
        let run = |shuffle| {
            let packed = pack(&image, &PackOptions { shuffle, ..fast(format) }, &|| {}).unwrap();
            Container::from_bytes(packed.container).unwrap()
        };
        let (off, on, auto) = (run(ShuffleChoice::Off), run(ShuffleChoice::On), run(ShuffleChoice::Auto));
        assert!(off.entries().iter().all(|e| e.options.swizzle_mode == 0));
        let total = |c: &Container| c.entries().iter().map(|e| u64::from(e.compressed_size)).sum::<u64>();
        assert!(total(&auto) <= total(&off) && total(&auto) <= total(&on), "{name}");
        let mut kinds = std::collections::BTreeSet::new();
        for (i, a) in auto.entries().iter().enumerate() {
            let (o, n) = (&off.entries()[i], &on.entries()[i]);
            let best = if n.compressed_size < o.compressed_size { n } else { o };
            assert_eq!((a.compressed_size, a.options), (best.compressed_size, best.options), "{name} stream {i}");
            kinds.insert(a.options.swizzle_mode != 0);
        }
        auto.decode_layout().unwrap();
        if format != BcFormat::Bc5 {
            assert_eq!(kinds.len(), 2, "{name} {format:?}: auto made the same choice for every region");
        }
    }
}

/// BC7 has no field shuffle: `on` is refused naming the format and the valid ones (before
/// any encoding, and for a DDS too); `auto` packs as `off`.
#[test]
fn shuffle_on_bc7_is_refused_and_auto_packs_unshuffled() {
    let image = test_image(64, 64);
    let on = PackOptions { shuffle: ShuffleChoice::On, ..fast(BcFormat::Bc7) };
    let e = pack(&image, &on, &|| {}).unwrap_err().to_string();
    assert!(e.contains("--shuffle on") && e.contains("Bc7") && e.contains("BC1, BC3, BC4 or BC5"), "{e}");
    let mips = encode_mips(&mip_chain(&image, on.color).unwrap(), BcFormat::Bc7, &on.encode).unwrap();
    let dds = sfsim_models::texture::DdsImage {
        format: BcFormat::Bc7,
        width: 64,
        height: 64,
        mip_count: mips.len() as u32,
        srgb: true,
        mips,
    };
    let e = pack_dds(&dds, &on, &|| {}).unwrap_err().to_string();
    assert!(e.contains("Bc7") && e.contains("BC1, BC3, BC4 or BC5"), "{e}");
    let auto = pack(&image, &PackOptions { shuffle: ShuffleChoice::Auto, ..fast(BcFormat::Bc7) }, &|| {}).unwrap();
    assert_eq!(auto.summary.shuffled_streams, 0);
    assert_eq!("AUTO".parse::<ShuffleChoice>(), Ok(ShuffleChoice::Auto));
    let e = "maybe".parse::<ShuffleChoice>().unwrap_err();
    assert!(e.contains("`maybe`") && e.contains("off, on or auto"), "{e}");
}

/// A 4×4 BC1 DDS with its three mips (zero blocks): a DDS input for refusal tests.
fn tiny_bc1_dds() -> sfsim_models::texture::DdsImage {
    sfsim_models::texture::DdsImage {
        format: BcFormat::Bc1,
        width: 4,
        height: 4,
        mip_count: 3,
        srgb: false,
        mips: vec![vec![0; 8]; 3],
    }
}
