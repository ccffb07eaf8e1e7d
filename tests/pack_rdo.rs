//! RDO by rule (`sfsim pack --rdo-max-loss`) end to end on the real textures: the loss
//! stays within budget and beats the best fixed λ, and the CLI reports and refuses.

use crate::common::repo;
use crate::pack::{assert_pack_fails, json, pack};
use sfsim::content::mipgen::{mip_chain, Image};
use sfsim::content::pack::{encode_mips, load_image, Container, PackOptions};
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};

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
