//! RDO through the packer: a fixed λ and the loss-budget rule (`--rdo-max-loss`), what they
//! report, the formats and inputs they refuse, and that banding by tile rows changes nothing.

use super::tests::{fast, test_image};
use super::*;
use sfsim_models::codec::bc::EncodeSettings;
use sfsim_models::texture::BcFormat;

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
