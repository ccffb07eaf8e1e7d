//! `sfsim pack` end to end: the SPEC's stream counts, every stream decoding through the
//! functional MDU to the BC data that was packed, the summary JSON, and clear refusals.

use crate::common::{repo, sfsim};
use sfsim::content::mipgen::{mip_chain, Image};
use sfsim::content::pack::{encode_mips, load_image, Container, PackOptions};
use sfsim_models::codec::bc::EncodeSettings;
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};

pub(crate) fn pack(args: &[&str]) -> std::process::Output {
    sfsim().arg("pack").args(args).output().unwrap()
}

pub(crate) fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A 2048² image of flat 64-texel cells, written as PNG: the stream counts depend only on
/// size and format, so the content is chosen to keep the BC7 encoder and Deflate quick.
fn generated_2048(dir: &Path) -> PathBuf {
    let img = image::RgbImage::from_fn(2048, 2048, |x, y| {
        let (cx, cy) = ((x / 64) as u8, (y / 64) as u8);
        image::Rgb([cx.wrapping_mul(8), cy.wrapping_mul(8), (cx ^ cy).wrapping_mul(16)])
    });
    let path = dir.join("gen2048.png");
    img.save(&path).unwrap();
    path
}

#[test]
fn stream_counts_match_the_spec_for_2048_bc7() {
    let dir = tempfile::tempdir().unwrap();
    let input = generated_2048(dir.path());
    let out = dir.path().join("t.sfstex");
    let summary = dir.path().join("s.json");
    for (extra, streams, resident) in [
        (&[][..], 86, 1),
        (&["--mipstreams", "1"][..], 65, 1),
        (&["--tilemode", "tile64k"][..], 5, 1),
        (&["--tilemode", "tile64k", "--mipstreams", "2"][..], 3, 1),
    ] {
        // Mode 6 only: the counts do not depend on the modes, and it is the quickest to encode.
        let mut args = vec![input.to_str().unwrap(), "--format", "bc7", "--bc7quality", "fast", "--bc7modes", "0x40"];
        args.push("-o");
        args.extend([out.to_str().unwrap(), "--summary-json", summary.to_str().unwrap()]);
        args.extend(extra);
        let o = pack(&args);
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
        let s = json(&summary);
        assert_eq!(s["streams"], streams, "{extra:?}");
        assert_eq!(s["resident_streams"], resident, "{extra:?}");
        let c = Container::open(&out).unwrap();
        assert_eq!(c.stream_count(), streams, "{extra:?}");
        assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("{streams} streams")));
    }
}

/// A real 1024² texture through the CLI: every stream decodes through the functional MDU (and
/// its hash) and every mip is exactly the BC1 data an independent encode of the same mips
/// gives; the JSON summary adds up.
#[test]
fn every_stream_decodes_to_the_packed_bc_data() {
    let dir = tempfile::tempdir().unwrap();
    let input = repo("scenarios/content/textures/ldr-rgba-specgloss.png");
    let (out, summary) = (dir.path().join("spec.sfstex"), dir.path().join("spec.json"));
    let o = pack(&[
        input.to_str().unwrap(),
        "--format",
        "bc1",
        "-o",
        out.to_str().unwrap(),
        "--summary-json",
        summary.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c = Container::open(&out).unwrap();
    for i in 0..c.stream_count() {
        let s = c.stream(i).unwrap();
        let bytes = c.decode_stream(i).unwrap();
        assert_eq!(bytes.len() as u64, s.request.destination_size);
    }
    let options = PackOptions::new(BcFormat::Bc1);
    let chain = mip_chain(&load_image(&input).unwrap(), options.color).unwrap();
    let mips = encode_mips(&chain, BcFormat::Bc1, &EncodeSettings::default()).unwrap();
    assert_eq!(mips.len(), 11);
    for (level, blocks) in mips.iter().enumerate() {
        assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks, "mip {level}");
    }
    let o = sfsim().args(["inspect", out.to_str().unwrap(), "--streams"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && text.contains("texture container") && text.contains("11 streams (1 resident)"),
        "{text}"
    );
    assert!(
        text.contains("layout: sequential") && text.lines().filter(|l| l.contains("tile 0:")).count() == 8,
        "{text}"
    );
    let s = json(&summary);
    // 1024² BC1: mip 0 = 2x4 tiles of 512x256, mip 1 = 1x2, then the tail: 11 streams.
    assert_eq!(s["streams"], 11);
    assert_eq!(s["file_bytes"].as_u64().unwrap(), c.file_bytes());
    let paths = s["paths"].as_object().unwrap();
    let sum = |key: &str| paths.values().map(|p| p[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum("streams"), 11);
    assert_eq!(sum("compressed_bytes"), s["compressed_bytes"].as_u64().unwrap());
    let ratio = s["uncompressed_bytes"].as_f64().unwrap() / s["compressed_bytes"].as_f64().unwrap();
    assert!((ratio - s["ratio"].as_f64().unwrap()).abs() < 1e-9 && ratio > 1.2, "ratio {ratio}");
}

#[test]
fn jpeg_and_tga_inputs_pack() {
    let dir = tempfile::tempdir().unwrap();
    let img = image::RgbImage::from_fn(96, 80, |x, y| image::Rgb([x as u8 * 2, y as u8 * 3, 90]));
    for name in ["in.jpg", "in.tga"] {
        let path = dir.path().join(name);
        img.save(&path).unwrap();
        let out = dir.path().join("o.sfstex");
        let o = pack(&[path.to_str().unwrap(), "--format", "bc4", "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let c = Container::open(&out).unwrap();
        assert_eq!((c.header().desc.width, c.header().desc.height), (96, 80));
        assert!(!c.header().srgb, "BC4 is linear by default");
        c.decode_layout().unwrap();
    }
}

#[test]
fn bad_inputs_exit_2_naming_the_file_field_and_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let tex = repo("scenarios/content/textures/ldr-xy-normal1.png");
    let tex = tex.to_str().unwrap();
    std::fs::write(d("notes.png"), "just some text").unwrap();
    let out = d("o.sfstex");
    let cases: Vec<(Vec<String>, Vec<&str>)> = vec![
        (vec![d("missing.png"), "--format".into(), "bc1".into()], vec!["missing.png", "cannot read"]),
        (vec![d("notes.png"), "--format".into(), "bc1".into()], vec!["notes.png", "not a readable PNG, JPEG or TGA"]),
        (vec![tex.into(), "--format".into(), "bc6h".into()], vec!["bc6h", "expected bc1, bc2, bc3, bc4, bc5 or bc7"]),
        (
            vec![tex.into(), "--format".into(), "bc1".into(), "--mipstreams".into(), "3".into()],
            vec!["ldr-xy-normal1.png", "--mipstreams", "mip streams 3 is out of range; expected 0..=2"],
        ),
        (vec![tex.into(), "--format".into(), "bc5".into(), "--srgb".into()], vec!["--srgb", "linear"]),
        (
            vec![tex.into(), "--format".into(), "bc1".into(), "--bc7modes".into(), "0x80".into()],
            vec!["--bc7modes applies to --format bc7 only"],
        ),
        (
            vec![tex.into(), "--format".into(), "bc7".into(), "--bc7modes".into(), "0x10".into()],
            vec!["0x10", "modes 4 and 5"],
        ),
        (
            vec![tex.into(), "--format".into(), "bc7".into(), "--tilemode".into(), "linear".into()],
            vec!["sfs, tile64k or mip"],
        ),
    ];
    for (mut args, expected) in cases {
        args.extend(["-o".to_string(), out.clone()]);
        let o = sfsim().arg("pack").args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        for e in expected {
            assert!(stderr.contains(e), "{args:?}: `{e}` not in: {stderr}");
        }
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert!(!Path::new(&out).exists(), "nothing is written on error");
}

#[test]
fn truncated_and_corrupt_containers_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let img = Image { width: 64, height: 64, rgba: (0..64 * 64 * 4).map(|i| (i % 251) as u8).collect() };
    let packed = sfsim::content::pack::pack(&img, &PackOptions::new(BcFormat::Bc7), &|| {}).unwrap();
    let path = dir.path().join("cut.sfstex");
    for cut in [0, 10, 63, 70, packed.container.len() - 1] {
        std::fs::write(&path, &packed.container[..cut]).unwrap();
        let e = Container::open(&path).unwrap_err().to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains("truncated") || e.contains("magic"), "cut {cut}: {e}");
    }
    let mut bytes = packed.container.clone();
    bytes.push(0);
    std::fs::write(&path, &bytes).unwrap();
    let e = Container::open(&path).unwrap_err().to_string();
    assert!(e.contains("data size is") && e.contains("expected"), "{e}");
}

/// `--shuffle` through the CLI: `on` and `auto` on a real diffuse (BC1, 512²) and on a BC DDS
/// (it only reorders the DDS's blocks), the JSON reporting the choice and the shuffled
/// streams, the container decoding to the blocks; and the refusals (exit 2).
#[test]
fn shuffle_cli_packs_images_and_dds_and_refuses_bad_values() {
    let dir = tempfile::tempdir().unwrap();
    let image = load_image(&repo("scenarios/content/textures/ldr-rgba-diffuse.png")).unwrap();
    let options = PackOptions::new(BcFormat::Bc1);
    let chain = mip_chain(&image, options.color).unwrap();
    let small: Vec<Image> = chain.into_iter().filter(|m| m.width <= 512).collect();
    let input = dir.path().join("diffuse512.png");
    image::RgbaImage::from_raw(small[0].width, small[0].height, small[0].rgba.clone()).unwrap().save(&input).unwrap();
    let mips = encode_mips(&small, BcFormat::Bc1, &EncodeSettings::default()).unwrap();
    let dds = sfsim_models::texture::DdsImage {
        format: BcFormat::Bc1,
        width: small[0].width,
        height: small[0].height,
        mip_count: mips.len() as u32,
        srgb: true,
        mips: mips.clone(),
    };
    let dds_path = dir.path().join("diffuse512.dds");
    std::fs::write(&dds_path, dds.write().unwrap()).unwrap();
    let (out, summary) = (dir.path().join("o.sfstex"), dir.path().join("s.json"));
    let (out, summary) = (out.to_str().unwrap(), summary.to_str().unwrap());
    for input in [input.to_str().unwrap(), dds_path.to_str().unwrap()] {
        for shuffle in ["on", "auto"] {
            let mut args = vec![input, "--shuffle", shuffle, "-o", out, "--summary-json", summary];
            if input.ends_with(".png") {
                args.extend(["--format", "bc1"]);
            }
            let o = pack(&args);
            assert!(o.status.success(), "{input} {shuffle}: {}", String::from_utf8_lossy(&o.stderr));
            let s = json(Path::new(summary));
            assert_eq!(s["shuffle"], shuffle);
            let shuffled = s["shuffled_streams"].as_u64().unwrap();
            let stdout = String::from_utf8_lossy(&o.stdout);
            assert!(stdout.contains(&format!("shuffle {shuffle}: {shuffled} of")), "{stdout}");
            let c = Container::open(Path::new(out)).unwrap();
            let count = c.entries().iter().filter(|e| e.options.swizzle_mode == 1).count() as u64;
            assert_eq!(count, shuffled, "{input} {shuffle}");
            if shuffle == "on" {
                assert!(shuffled > 0, "{input}: nothing shuffled");
            }
            if input.ends_with(".dds") {
                for (level, blocks) in mips.iter().enumerate() {
                    assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks, "{shuffle} mip {level}");
                }
            } else {
                c.decode_layout().unwrap();
            }
        }
    }
    let png = input.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 2] = [
        (&["--format", "bc1", "--shuffle", "sometimes"], &["--shuffle", "`sometimes`", "expected off, on or auto"]),
        (&["--format", "bc7", "--shuffle", "on"], &["--shuffle on applies to bc1, bc3, bc4 and bc5", "bc7"]),
    ];
    for (extra, expected) in cases {
        let mut args = vec![png, "-o", out];
        args.extend(extra);
        assert_pack_fails(&args, expected);
    }
}

/// `sfsim pack ARGS` exits 2 and its error contains every `expected` text.
pub(crate) fn assert_pack_fails(args: &[&str], expected: &[&str]) {
    let o = pack(args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    for e in expected {
        assert!(stderr.contains(e), "{args:?}: `{e}` not in: {stderr}");
    }
}
