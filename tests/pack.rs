//! `sfsim pack` end to end: the SPEC's stream counts, every stream decoding through the
//! functional MDU to the BC data that was packed, the summary JSON, and clear refusals.

use crate::common::{repo, sfsim};
use sfsim::content::mipgen::{mip_chain, Image};
use sfsim::content::pack::{encode_mips, load_image, Container, PackOptions};
use sfsim_models::codec::bc::EncodeSettings;
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};

fn pack(args: &[&str]) -> std::process::Output {
    sfsim().arg("pack").args(args).output().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
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

/// The real Khronos trio as BC DDS files with full mip chains (diffuse BC1 sRGB, normal BC5,
/// specular BC1 sRGB), made the way the packer makes mips: the CLI then packs their blocks as
/// they are.
fn real_trio_dds(dir: &Path) -> Vec<(PathBuf, Vec<Vec<u8>>)> {
    [
        ("ldr-rgba-diffuse.png", BcFormat::Bc1),
        ("ldr-xy-normal1.png", BcFormat::Bc5),
        ("ldr-rgba-specgloss.png", BcFormat::Bc1),
    ]
    .iter()
    .map(|&(name, format)| {
        let image = load_image(&repo(&format!("scenarios/content/textures/{name}"))).unwrap();
        let options = PackOptions::new(format);
        let mips = encode_mips(&mip_chain(&image, options.color).unwrap(), format, &EncodeSettings::default()).unwrap();
        let dds = sfsim_models::texture::DdsImage {
            format,
            width: image.width,
            height: image.height,
            mip_count: mips.len() as u32,
            srgb: format == BcFormat::Bc1,
            mips: mips.clone(),
        };
        let path = dir.join(name.replace(".png", ".dds"));
        std::fs::write(&path, dds.write().unwrap()).unwrap();
        (path, mips)
    })
    .collect()
}

/// `sfsim pack --set` on a real trio: one set container whose members decode to exactly the
/// DDS blocks, every stream placed once with companions adjacent, the summary JSON and
/// `sfsim inspect` describing it; a corrupted set is refused naming the file and field.
#[test]
fn pack_set_packs_a_real_trio_into_one_interleaved_file() {
    use sfsim::content::pack::{companion_tiles, SetContainer};
    let dir = tempfile::tempdir().unwrap();
    let trio = real_trio_dds(dir.path());
    let (out, summary) = (dir.path().join("set.sfsset"), dir.path().join("set.json"));
    let p = |i: usize| trio[i].0.to_str().unwrap();
    let o =
        pack(&["--set", p(0), p(1), p(2), "-o", out.to_str().unwrap(), "--summary-json", summary.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("set container") && stdout.contains("set-interleaved"), "{stdout}");
    let set = SetContainer::open(&out).unwrap();
    for (k, (m, (_, mips))) in set.members().iter().zip(&trio).enumerate() {
        for (level, blocks) in mips.iter().enumerate() {
            assert_eq!(&m.mip_blocks(level as u32).unwrap(), blocks, "member {k} mip {level}");
        }
    }
    let formats: Vec<BcFormat> = set.members().iter().map(|m| m.header().desc.format).collect();
    assert_eq!(formats, [BcFormat::Bc1, BcFormat::Bc5, BcFormat::Bc1], "formats from the DDS files");
    let total: usize = set.members().iter().map(|m| m.stream_count()).sum();
    assert_eq!(set.order().len(), total);
    // Every member-0 tile is followed by its companions, each at the aligned end of the last.
    let m = set.members();
    for (at, &(k, j)) in set.order().iter().enumerate() {
        let Some(tile) = (k == 0).then(|| m[0].entries()[j].tile).flatten() else { continue };
        let mut end = m[0].entries()[j].relative_offset + u64::from(m[0].entries()[j].compressed_size);
        let mut next = at + 1;
        for member in 1..3 {
            for c in companion_tiles(&m[0].header().desc, tile, &m[member].header().desc) {
                let (nk, nj) = set.order()[next];
                let e = m[nk].entries()[nj];
                assert_eq!((nk, e.tile), (member, Some(c)), "after member 0 {tile:?}");
                assert_eq!(e.relative_offset, end.div_ceil(16) * 16);
                end = e.relative_offset + u64::from(e.compressed_size);
                next += 1;
            }
        }
    }
    let s = json(&summary);
    assert_eq!(s["kind"], "set");
    assert_eq!(s["file_bytes"].as_u64().unwrap(), set.file_bytes());
    assert_eq!(s["members"].as_array().unwrap().len(), 3);
    assert_eq!(s["members"][1]["format"], "bc5");
    assert_eq!(s["streams"].as_u64().unwrap() as usize, total);

    let o = sfsim().args(["inspect", out.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for want in ["set container", "member 0 (diffuse): bc1", "member 1 (normal): bc5", "member 2 (specular): bc1"] {
        assert!(text.contains(want), "`{want}` not in {text}");
    }
    assert!(text.contains("set-interleaved") && text.contains("example, tile position mip 0 (0, 0)"), "{text}");
    let e0 = m[0].entries()[0];
    let (start, end) = (set.header().data_offset, set.header().data_offset + u64::from(e0.compressed_size));
    assert!(text.contains(&format!("member 0 (diffuse) stream 0 tile (0, 0): {start}..{end}")), "{text}");

    // A corrupted member field: `sfsim inspect` exits 2 naming the file, member and field.
    let mut bytes = std::fs::read(&out).unwrap();
    let m1 = set.header().member_offsets[1] as usize;
    bytes[m1 + 14] = 9;
    let bad = dir.path().join("bad.sfsset");
    std::fs::write(&bad, &bytes).unwrap();
    let o = sfsim().args(["inspect", bad.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.sfsset") && stderr.contains("member 1 format is 9; expected 1..=7"), "{stderr}");
    // compare/view/export take one texture, and say so.
    let o = sfsim().args(["view", out.to_str().unwrap(), "-o", dir.path().join("v.png").to_str().unwrap()]).output();
    let stderr = String::from_utf8_lossy(&o.unwrap().stderr).to_string();
    assert!(stderr.contains("is a set container"), "{stderr}");
}

#[test]
fn pack_set_refusals_name_the_member_and_option() {
    let dir = tempfile::tempdir().unwrap();
    let tex = |n: &str| repo(&format!("scenarios/content/textures/{n}")).to_str().unwrap().to_string();
    let (d, n) = (tex("ldr-rgba-diffuse.png"), tex("ldr-xy-normal1.png"));
    let out = dir.path().join("o.sfsset").to_str().unwrap().to_string();
    let missing = dir.path().join("missing.png").to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--set", &d, &n, "--format", "bc1"], vec!["--set"]),
        (vec!["--set", &d, &n, &missing, "--format", "bc1"], vec!["member 2 (specular)", "missing.png", "cannot read"]),
        (vec!["--set", &d, &n, &d, "--format", "bc1,bc5"], vec!["names 2 formats; expected one, or three"]),
        (vec![&d, "--format", "bc1,bc5,bc1"], vec!["a list of three is for --set"]),
        (vec!["--set", &d, &n, &d], vec!["member 0 (diffuse)", "--format is required"]),
        (vec![&d, "--set", &d, &n, &d, "--format", "bc1"], vec!["cannot be used with"]),
    ];
    for (mut args, expected) in cases {
        args.extend(["-o", &out]);
        let o = pack(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        for e in expected {
            assert!(stderr.contains(e), "{args:?}: `{e}` not in: {stderr}");
        }
    }
    assert!(!Path::new(&out).exists(), "nothing is written on error");
}

/// The real textures of scenarios/content/textures, downscaled by the packer's own mip filter
/// to `side` texels wide (linear light for colour, plain for the normal map) so the RDO search
/// stays quick at the test profile. Name, image, options (BC1).
fn real_bc1_textures(side: u32) -> Vec<(String, sfsim::content::mipgen::Image, PackOptions)> {
    use sfsim::content::mipgen::ColorSpace;
    let dir = repo("scenarios/content/textures");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 4, "{paths:?}");
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let mut options = PackOptions::new(BcFormat::Bc1);
            if name.contains("normal") {
                options.color = ColorSpace::Linear;
            }
            let chain = mip_chain(&load_image(&path).unwrap(), options.color).unwrap();
            let image = chain.into_iter().find(|m| m.width <= side).unwrap();
            (name, image, options)
        })
        .collect()
}

const RULE_SIDE: u32 = 256;

/// `--rdo-max-loss 2dB` on every real texture: the loss of what is written (mip 0 decoded
/// back from the container) stays within 2 dB of the plain encoding, the streams are no larger
/// than without RDO, and the summary's numbers are the container's. Then against one fixed λ
/// (the largest of a grid that keeps every texture within 2 dB): the per-texture rule is no
/// larger in total, and smaller on at least one texture.
#[test]
fn rdo_max_loss_stays_within_budget_and_beats_the_best_fixed_lambda() {
    use sfsim::content::pack::{pack as pack_image, rdo_mips};
    use sfsim_models::codec::bc::{decode_surface, psnr, RdoSettings};
    let mip0_psnr = |image: &Image, blocks: &[u8]| {
        psnr(&image.rgba, &decode_surface(BcFormat::Bc1, image.width, image.height, blocks).unwrap(), 3).unwrap()
    };
    let textures = real_bc1_textures(RULE_SIDE);
    let grid = [5.0f32, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0, 1280.0];
    let mut rule_rows = Vec::new();
    let mut grid_ok = vec![true; grid.len()];
    for (name, image, options) in &textures {
        let plain = pack_image(image, options, &|| {}).unwrap();
        let p0 = plain.summary.psnr.unwrap();
        let ruled = pack_image(image, &PackOptions { rdo_max_loss: Some(2.0), ..*options }, &|| {}).unwrap();
        let r = ruled.summary.rdo_rule.clone().unwrap();
        // What is in the file is what the report describes (no re-encode drift).
        let c = Container::from_bytes(ruled.container.clone()).unwrap();
        let written = mip0_psnr(image, &c.mip_blocks(0).unwrap());
        assert_eq!(written, r.psnr_rdo, "{name}");
        assert_eq!(ruled.summary.psnr, Some(written), "{name}");
        assert_eq!(r.psnr_plain, p0, "{name}");
        assert!(p0 - written <= 2.0 && r.loss_db <= 2.0, "{name}: {p0} → {written} dB");
        assert_eq!(r.bytes_plain, plain.summary.compressed_bytes, "{name}");
        assert_eq!(r.bytes, ruled.summary.compressed_bytes, "{name}");
        assert!(r.bytes <= r.bytes_plain, "{name}: {r:?}");
        assert!(r.probes.len() <= 10, "{name}: {} probes", r.probes.len());
        assert_eq!(ruled.summary.rdo_lambda, r.lambda, "{name}");
        // The fixed-λ grid: the loss of each λ on this texture.
        let chain = mip_chain(image, options.color).unwrap();
        let mips = encode_mips(&chain, BcFormat::Bc1, &options.encode).unwrap();
        for (ok, &lambda) in grid_ok.iter_mut().zip(&grid) {
            let settings = RdoSettings { lambda, ..RdoSettings::default() };
            let rdo = rdo_mips(&chain, &mips, BcFormat::Bc1, &settings).unwrap();
            *ok &= p0 - mip0_psnr(image, &rdo[0]) <= 2.0;
        }
        rule_rows.push((name.clone(), r));
    }
    let fixed = grid.iter().zip(&grid_ok).filter(|(_, ok)| **ok).map(|(l, _)| *l).next_back();
    let fixed = fixed.expect("some λ of the grid keeps every texture within 2 dB");
    let (mut rule_total, mut fixed_total, mut smaller) = (0u64, 0u64, 0);
    eprintln!("{RULE_SIDE}² BC1, --rdo-max-loss 2dB vs the best fixed λ = {fixed} of {grid:?}");
    eprintln!("| texture | λ chosen | PSNR plain → rule dB | loss dB | bytes plain | rule | saved | fixed λ bytes | fixed loss dB |");
    for ((name, image, options), (_, r)) in textures.iter().zip(&rule_rows) {
        let settings = RdoSettings { lambda: fixed, ..RdoSettings::default() };
        let f = pack_image(image, &PackOptions { rdo: Some(settings), ..*options }, &|| {}).unwrap();
        let fixed_loss = r.psnr_plain - f.summary.psnr.unwrap();
        assert!(fixed_loss <= 2.0, "{name}: fixed λ {fixed} loses {fixed_loss} dB");
        eprintln!(
            "| {name} | {:?} | {:.2} → {:.2} | {:.2} | {} | {} | {:.1} % | {} | {fixed_loss:.2} |",
            r.lambda,
            r.psnr_plain,
            r.psnr_rdo,
            r.loss_db,
            r.bytes_plain,
            r.bytes,
            r.saved_percent,
            f.summary.compressed_bytes
        );
        rule_total += r.bytes;
        fixed_total += f.summary.compressed_bytes;
        smaller += usize::from(r.bytes < f.summary.compressed_bytes);
    }
    eprintln!("total: rule {rule_total} B, fixed λ = {fixed} {fixed_total} B");
    assert!(rule_total <= fixed_total, "rule {rule_total} B > fixed λ = {fixed} {fixed_total} B");
    assert!(smaller >= 1, "the rule is smaller than fixed λ = {fixed} on no texture");
}

/// `--rdo-max-loss` through the CLI: the report in the output and the JSON; and its refusals.
#[test]
fn rdo_max_loss_cli_reports_and_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let (_, image, _) = real_bc1_textures(128).into_iter().find(|(n, _, _)| n.contains("normal")).unwrap();
    let input = dir.path().join("normal128.png");
    image::RgbaImage::from_raw(image.width, image.height, image.rgba.clone()).unwrap().save(&input).unwrap();
    let input = input.to_str().unwrap();
    let (out, summary) = (dir.path().join("o.sfstex"), dir.path().join("s.json"));
    let (out, summary) = (out.to_str().unwrap(), summary.to_str().unwrap());
    for loss in ["2dB", "2 dB", "2", "0.5dB"] {
        let o =
            pack(&[input, "--format", "bc1", "--linear", "--rdo-max-loss", loss, "-o", out, "--summary-json", summary]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{loss}: {}", String::from_utf8_lossy(&o.stderr));
        let r = &json(Path::new(summary))["rdo_rule"];
        let budget = if loss.starts_with('0') { 0.5 } else { 2.0 };
        assert_eq!(r["max_loss_db"], budget, "{loss}");
        assert!(r["loss_db"].as_f64().unwrap() <= budget, "{loss}: {r}");
        assert!(r["bytes"].as_u64().unwrap() <= r["bytes_plain"].as_u64().unwrap(), "{r}");
        for key in ["lambda", "psnr_plain", "psnr_rdo", "bytes_saved", "saved_percent", "probes"] {
            assert!(r.get(key).is_some(), "{key} missing: {r}");
        }
        assert!(stdout.contains(&format!("RDO by rule (max loss {budget} dB")), "{stdout}");
        if let Some(lambda) = r["lambda"].as_f64() {
            assert!(stdout.contains(&format!("λ = {lambda}")), "{stdout}");
        }
    }
    let cases: [(&[&str], &[&str]); 6] = [
        (&["--rdo-max-loss", "0"], &["--rdo-max-loss", "`0`", "0 < loss ≤ 20 dB"]),
        (&["--rdo-max-loss", "-1dB"], &["--rdo-max-loss", "`-1dB`", "0 < loss ≤ 20 dB"]),
        (&["--rdo-max-loss", "30dB"], &["--rdo-max-loss", "`30dB`", "0 < loss ≤ 20 dB"]),
        (&["--rdo-max-loss", "lots"], &["--rdo-max-loss", "`lots`", "not a PSNR loss"]),
        (&["--rdo-max-loss", "2dB", "--rdo-lambda", "40"], &["--rdo-max-loss", "--rdo-lambda", "cannot be used with"]),
        (&["--rdo-max-loss", "2dB", "--format", "bc7"], &["--rdo-max-loss applies to bc1, bc3, bc4 and bc5", "bc7"]),
    ];
    for (extra, expected) in cases {
        let mut args = vec![input, "-o", out];
        if !extra.contains(&"--format") {
            args.extend(["--format", "bc1"]);
        }
        args.extend(extra);
        assert_pack_fails(&args, expected);
    }
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
fn assert_pack_fails(args: &[&str], expected: &[&str]) {
    let o = pack(args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
    for e in expected {
        assert!(stderr.contains(e), "{args:?}: `{e}` not in: {stderr}");
    }
}
