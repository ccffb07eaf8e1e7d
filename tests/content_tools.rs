//! The content tools end to end: `sfsim pack --rdo-lambda` and DDS input, `sfsim export`
//! (PNG and DDS), `sfsim compare` and `sfsim view`, and their refusals.

use crate::common::{repo, sfsim};
use sfsim::content::mipgen::{mip_chain, ColorSpace, Image};
use sfsim::content::pack::{encode_mips, load_image, Container};
use sfsim_models::codec::bc::{decode_surface, psnr, EncodeSettings};
use sfsim_models::texture::{BcFormat, DdsImage};
use std::path::{Path, PathBuf};

fn run(verb: &str, args: &[&str]) -> std::process::Output {
    sfsim().arg(verb).args(args).output().unwrap()
}

fn ok(verb: &str, args: &[&str]) -> String {
    let o = run(verb, args);
    assert!(o.status.success(), "{verb} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit 2 and every expected piece in stderr, no panic.
fn fails(verb: &str, args: &[&str], expected: &[&str]) {
    let o = run(verb, args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{verb} {args:?}: {stderr}");
    for e in expected {
        assert!(stderr.contains(e), "{verb} {args:?}: `{e}` not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The overall PSNR row of `sfsim compare`'s table (the last line), `inf` when identical.
fn overall_psnr(stdout: &str) -> f64 {
    let last = stdout.lines().last().unwrap();
    let field = last.split_whitespace().nth(1).unwrap();
    if field == "identical" {
        f64::INFINITY
    } else {
        field.parse().unwrap_or_else(|_| panic!("no PSNR in `{last}`"))
    }
}

/// A 256x192 image with smooth gradients and edges, as PNG.
fn generated(dir: &Path, name: &str, width: u32, height: u32) -> PathBuf {
    let img = image::RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([
            (x * 255 / width) as u8,
            (y * 255 / height) as u8,
            if (x / 32 + y / 32) % 2 == 0 { 40 } else { 200 },
            255,
        ])
    });
    let path = dir.join(name);
    img.save(&path).unwrap();
    path
}

/// Pack a real 1024² texture as BC1, export it as DDS and PNG: the DDS holds exactly the
/// container's blocks, the PNG exactly the BC decode of mip 0, and `compare` reports the same
/// PSNR for PNG-vs-original as for container-vs-original, matching an independent measure.
#[test]
fn pack_export_compare_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let original = repo("scenarios/content/textures/ldr-rgba-specgloss.png");
    let (packed, dds, png, summary) =
        (dir.path().join("t.sfstex"), dir.path().join("t.dds"), dir.path().join("t.png"), dir.path().join("t.json"));
    ok("pack", &[s(&original), "--format", "bc1", "-o", s(&packed), "--summary-json", s(&summary)]);
    let c = Container::open(&packed).unwrap();

    ok("export", &[s(&packed), "-o", s(&dds)]);
    let read = DdsImage::read(&std::fs::read(&dds).unwrap()).unwrap();
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let d = read.image;
    assert_eq!((d.format, d.width, d.height, d.mip_count, d.srgb), (BcFormat::Bc1, 1024, 1024, 11, true));
    for level in 0..11 {
        assert_eq!(d.mips[level as usize], c.mip_blocks(level).unwrap(), "mip {level}");
    }

    ok("export", &[s(&packed), "-o", s(&png)]);
    let exported = image::open(&png).unwrap().to_rgba8();
    let decoded = decode_surface(BcFormat::Bc1, 1024, 1024, &c.mip_blocks(0).unwrap()).unwrap();
    assert_eq!(exported.as_raw(), &decoded);

    let source = load_image(&original).unwrap();
    let expected = psnr(&source.rgba, &decoded, 3).unwrap();
    assert!(expected > 32.0, "BC1 of the specgloss map: {expected} dB");
    let png_vs = overall_psnr(&ok("compare", &[s(&png), s(&original)]));
    let container_vs = overall_psnr(&ok("compare", &[s(&packed), s(&original)]));
    let dds_vs = overall_psnr(&ok("compare", &[s(&dds), s(&original)]));
    // The table prints two decimals; the PNG has alpha 255 but BC1 counts RGB only.
    assert!((container_vs - expected).abs() < 0.006, "{container_vs} vs {expected}");
    assert_eq!(container_vs, dds_vs);
    assert!((png_vs - container_vs).abs() < 0.006 || png_vs < container_vs, "{png_vs} {container_vs}");
    assert_eq!(overall_psnr(&ok("compare", &[s(&packed), s(&dds)])), f64::INFINITY);
    // The summary's PSNR is the same measure.
    let reported = json(&summary)["psnr"].as_f64().unwrap();
    assert!((reported - expected).abs() < 1e-9, "{reported} vs {expected}");

    // A lower mip: the image's mip is made by the packer's own filter, so it compares well.
    let mip3 = overall_psnr(&ok("compare", &[s(&packed), s(&original), "--mip", "3"]));
    assert!(mip3 > 30.0, "mip 3: {mip3} dB");
}

/// RDO at the default λ (40) on a real BC1 texture: a smaller container at ≤ 2 dB loss.
/// Measured on this texture: 9.8 % smaller (the packer keeps BCPack+Deflate, which gains less
/// from RDO than Deflate alone, docs/rdo.md), PSNR 34.81 → 34.96 dB (RDO's refit gains).
#[test]
fn rdo_pack_is_smaller_at_small_loss() {
    let dir = tempfile::tempdir().unwrap();
    let original = repo("scenarios/content/textures/ldr-rgba-diffuse.png");
    let (plain, rdo) = (dir.path().join("plain.sfstex"), dir.path().join("rdo.sfstex"));
    let (plain_json, rdo_json) = (dir.path().join("plain.json"), dir.path().join("rdo.json"));
    ok("pack", &[s(&original), "--format", "bc1", "-o", s(&plain), "--summary-json", s(&plain_json)]);
    let out = ok(
        "pack",
        &[s(&original), "--format", "bc1", "--rdo-lambda", "40", "-o", s(&rdo), "--summary-json", s(&rdo_json)],
    );
    assert!(out.contains("RDO λ = 40"), "{out}");
    let (p, r) = (json(&plain_json), json(&rdo_json));
    assert_eq!(r["rdo_lambda"].as_f64(), Some(40.0));
    let (pb, rb) = (p["compressed_bytes"].as_f64().unwrap(), r["compressed_bytes"].as_f64().unwrap());
    let saving = 1.0 - rb / pb;
    let plain_db = overall_psnr(&ok("compare", &[s(&plain), s(&original)]));
    let rdo_db = overall_psnr(&ok("compare", &[s(&rdo), s(&original)]));
    let between = overall_psnr(&ok("compare", &[s(&rdo), s(&plain)]));
    println!(
        "rdo λ 40: {pb} → {rb} B ({:.1} % smaller), {plain_db} → {rdo_db} dB, rdo vs plain {between} dB",
        saving * 100.0
    );
    assert!(saving >= 0.05, "RDO saves only {:.1} %", saving * 100.0);
    assert!(plain_db - rdo_db <= 2.0, "loss {plain_db} → {rdo_db}");
    assert!(between.is_finite() && between > 30.0, "RDO changed blocks, a little: {between}");
    assert!((r["psnr"].as_f64().unwrap() - rdo_db).abs() < 0.006);
}

/// A BC-encoded DDS is packed with its blocks bit-exactly; --format may be omitted.
#[test]
fn dds_input_keeps_blocks_bit_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let png = generated(dir.path(), "g.png", 256, 192);
    let image = load_image(&png).unwrap();
    for (format, srgb) in [(BcFormat::Bc1, true), (BcFormat::Bc5, false), (BcFormat::Bc7, true)] {
        let color = if srgb { ColorSpace::Srgb } else { ColorSpace::Linear };
        let chain = mip_chain(&image, color).unwrap();
        let settings = EncodeSettings { bc7_quality: sfsim_models::codec::bc::Bc7Quality::Fast, bc7_modes: None };
        let mips = encode_mips(&chain, format, &settings).unwrap();
        let dds = DdsImage { format, width: 256, height: 192, mip_count: mips.len() as u32, srgb, mips };
        let dds_path = dir.path().join("in.dds");
        std::fs::write(&dds_path, dds.write().unwrap()).unwrap();
        let out = dir.path().join("dds.sfstex");
        let json_path = dir.path().join("dds.json");
        let stdout = ok("pack", &[s(&dds_path), "-o", s(&out), "--summary-json", s(&json_path)]);
        assert!(stdout.contains("blocks kept exactly"), "{stdout}");
        let c = Container::open(&out).unwrap();
        assert_eq!((c.header().desc.format, c.header().srgb), (format, srgb));
        for (level, blocks) in dds.mips.iter().enumerate() {
            assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks, "{format:?} mip {level}");
        }
        let j = json(&json_path);
        assert_eq!(j["source"], "dds");
        assert!(j["psnr"].is_null());
        // Exporting gives the same file back.
        let back = dir.path().join("back.dds");
        ok("export", &[s(&out), "-o", s(&back)]);
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&dds_path).unwrap(), "{format:?}");
    }
}

#[test]
fn view_writes_a_png_of_the_mip() {
    let dir = tempfile::tempdir().unwrap();
    let png = generated(dir.path(), "g.png", 256, 192);
    let packed = dir.path().join("g.sfstex");
    ok("pack", &[s(&png), "--format", "bc4", "-o", s(&packed)]);
    let view = dir.path().join("v.png");
    ok("view", &[s(&packed), "-o", s(&view), "--mip", "2"]);
    let v = image::open(&view).unwrap().to_rgba8();
    assert_eq!(v.dimensions(), (64, 48));
    // BC4 is shown grey: R = G = B, and R follows the image's horizontal gradient.
    assert!(v.pixels().all(|p| p[0] == p[1] && p[1] == p[2]));
    assert!(v.get_pixel(60, 20)[0] > v.get_pixel(3, 20)[0] + 150);
}

#[test]
fn bad_inputs_exit_2_naming_file_field_and_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    let png = generated(dir.path(), "g.png", 256, 192);
    let small = generated(dir.path(), "small.png", 128, 96);
    let packed = d("g.sfstex");
    ok("pack", &[s(&png), "--format", "bc1", "-o", s(&packed)]);
    let out_png = d("o.png");

    // Wrong mip: 256x192 has 9 mips.
    fails(
        "view",
        &[s(&packed), "-o", s(&out_png), "--mip", "9"],
        &["g.sfstex", "mip 9 is out of range; expected 0..9"],
    );
    fails("export", &[s(&packed), "-o", s(&out_png), "--mip", "12"], &["mip 12", "expected 0..9"]);
    fails("compare", &[s(&packed), s(&png), "--mip", "20"], &["mip 20", "expected 0..9"]);
    fails("export", &[s(&packed), "-o", s(&d("o.dds")), "--mip", "1"], &["--mip 1", "PNG output only"]);
    fails("export", &[s(&packed), "-o", s(&d("o.jpg"))], &["o.jpg", "expected .png or .dds"]);
    fails("export", &[s(&png), "-o", s(&out_png)], &["g.png", "not a container"]);
    assert!(!out_png.exists(), "nothing is written on error");

    // Size mismatch.
    fails("compare", &[s(&packed), s(&small)], &["g.sfstex is 256x192", "small.png is 128x96", "same size"]);

    // Truncated container.
    let bytes = std::fs::read(&packed).unwrap();
    let cut = d("cut.sfstex");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    for (verb, args) in [("compare", vec![s(&cut), s(&png)]), ("export", vec![s(&cut), "-o", s(&out_png)])] {
        fails(verb, &args, &["cut.sfstex", "truncated"]);
    }
    fails("compare", &[s(&d("missing.dds")), s(&png)], &["missing.dds", "cannot read"]);

    // RDO: not for BC7, not on a DDS; λ must be finite and ≥ 0.
    fails("pack", &[s(&png), "--format", "bc7", "--rdo-lambda", "10", "-o", s(&d("x"))], &["--rdo-lambda", "bc7"]);
    fails("pack", &[s(&png), "--format", "bc1", "--rdo-lambda", "-1", "-o", s(&d("x"))], &["--rdo-lambda", "≥ 0"]);
    fails("pack", &[s(&png), "-o", s(&d("x"))], &["g.png", "--format is required"]);

    // DDS inputs: wrong --format, unsupported format, RDO (partial chains pack: tests/pack.rs).
    let bc1 = |mips: u32, format: BcFormat| DdsImage {
        format,
        width: 64,
        height: 32,
        mip_count: mips,
        srgb: false,
        mips: (0..mips)
            .map(|l| vec![0x5a; format.surface_bytes((64 >> l).max(1), (32 >> l).max(1)) as usize])
            .collect(),
    };
    let dds = d("in.dds");
    std::fs::write(&dds, bc1(7, BcFormat::Bc1).write().unwrap()).unwrap();
    fails("pack", &[s(&dds), "--format", "bc3", "-o", s(&d("x"))], &["in.dds", "--format is bc3", "DDS holds bc1"]);
    fails("pack", &[s(&dds), "--rdo-lambda", "5", "-o", s(&d("x"))], &["in.dds", "--rdo-lambda", "original texels"]);
    std::fs::write(&dds, bc1(7, BcFormat::Bc6h).write().unwrap()).unwrap();
    fails("pack", &[s(&dds), "-o", s(&d("x"))], &["in.dds", "Bc6h", "expected BC1, BC2, BC3, BC4, BC5 or BC7"]);
    std::fs::write(&dds, b"DDS \x7c\0\0\0").unwrap();
    fails("pack", &[s(&dds), "-o", s(&d("x"))], &["in.dds", "not a readable DDS"]);
    assert!(!d("x").exists());
}

/// An image's lower mips in `compare` come from the packer's filter: identical images compare
/// identical at every mip.
#[test]
fn identical_images_compare_identical() {
    let dir = tempfile::tempdir().unwrap();
    let a = generated(dir.path(), "a.png", 96, 64);
    let img = Image { width: 96, height: 64, rgba: image::open(&a).unwrap().to_rgba8().into_raw() };
    image::save_buffer(dir.path().join("b.tga"), &img.rgba, 96, 64, image::ExtendedColorType::Rgba8).unwrap();
    let out = ok("compare", &[s(&a), s(&dir.path().join("b.tga")), "--mip", "2"]);
    assert!(out.contains("24x16"), "{out}");
    assert_eq!(overall_psnr(&out), f64::INFINITY);
    assert_eq!(out.lines().filter(|l| l.contains("identical")).count(), 5, "R, G, B, A and overall: {out}");
}
