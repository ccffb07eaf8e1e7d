//! Packing DDS files as other tools write them: partial mip chains (the rest generated) and
//! BC2, from a DDS and from an image; any blocks round-trip, bad mip chains are refused.

use super::tests::{fast, test_image};
use super::*;
use crate::content::mipgen::{mip_chain, ColorSpace, Image};
use proptest::prelude::*;
use sfsim_models::codec::bc::{decode_surface, psnr};
use sfsim_models::texture::{BcFormat, DdsImage, TileMode};

/// `image` encoded as `format` with only its first `given` mips, as a DDS.
fn partial_dds(image: &Image, format: BcFormat, given: usize, srgb: bool) -> DdsImage {
    let color = if srgb { ColorSpace::Srgb } else { ColorSpace::Linear };
    let chain = mip_chain(image, color).unwrap();
    let mips = encode_mips(&chain[..given], format, &fast(format).encode).unwrap();
    DdsImage { format, width: image.width, height: image.height, mip_count: given as u32, srgb, mips }
}

#[test]
fn a_single_mip_bc7_dds_packs_with_the_rest_generated() {
    let image = test_image(256, 128);
    let dds = partial_dds(&image, BcFormat::Bc7, 1, true);
    let packed = pack_dds(&dds, &fast(BcFormat::Bc7), &|| {}).unwrap();
    let g = packed.summary.generated_mips.clone().expect("mips were generated");
    assert_eq!((g.given, g.generated, g.filtered.as_str()), (1, 8, "srgb"));
    assert_eq!(packed.summary.mips, 9);
    let text = packed.summary.to_string();
    assert!(
        text.contains("the DDS held 1 of 9 mips: mip 0 kept as it held them, mips 1..=8 generated from mip 0"),
        "{text}"
    );
    let c = Container::from_bytes(packed.container).unwrap();
    assert_eq!(c.mip_blocks(0).unwrap(), dds.mips[0], "the given mip is kept bit-exact");
    // Mip 1 is the packer's own filter over the decoded mip 0, BC7-encoded.
    let decoded0 = decode_surface(BcFormat::Bc7, 256, 128, &dds.mips[0]).unwrap();
    let want = &mip_chain(&Image { width: 256, height: 128, rgba: decoded0 }, ColorSpace::Srgb).unwrap()[1];
    let got = decode_surface(BcFormat::Bc7, 128, 64, &c.mip_blocks(1).unwrap()).unwrap();
    let p = psnr(&want.rgba, &got, 4).unwrap();
    assert!(p > 35.0, "mip 1 PSNR {p}");
    for level in 1..9 {
        assert!(!c.mip_blocks(level).unwrap().is_empty());
    }
}

#[test]
fn a_partial_chain_keeps_every_given_mip() {
    let image = test_image(128, 128);
    for (format, given) in [(BcFormat::Bc1, 3), (BcFormat::Bc4, 7), (BcFormat::Bc5, 2), (BcFormat::Bc2, 4)] {
        let dds = partial_dds(&image, format, given, false);
        let packed = pack_dds(&dds, &fast(format), &|| {}).unwrap();
        let g = packed.summary.generated_mips.clone().unwrap();
        assert_eq!((g.given, g.generated, g.filtered.as_str()), (given as u32, 8 - given as u32, "linear"));
        let c = Container::from_bytes(packed.container).unwrap();
        for (level, blocks) in dds.mips.iter().enumerate() {
            assert_eq!(&c.mip_blocks(level as u32).unwrap(), blocks, "{format:?} mip {level}");
        }
    }
    // A full chain generates nothing and says so in the JSON.
    let dds = partial_dds(&image, BcFormat::Bc1, 8, false);
    let packed = pack_dds(&dds, &fast(BcFormat::Bc1), &|| {}).unwrap();
    assert_eq!(packed.summary.generated_mips, None);
    assert!(packed.summary.to_json().contains("\"generated_mips\": null"));
}

#[test]
fn bc2_packs_from_an_image_and_from_a_dds() {
    let mut image = test_image(300, 200);
    for (i, px) in image.rgba.chunks_exact_mut(4).enumerate() {
        px[3] = (i % 256) as u8;
    }
    let packed = pack(&image, &fast(BcFormat::Bc2), &|| {}).unwrap();
    assert_eq!(packed.summary.format, "bc2");
    assert!(packed.summary.psnr.unwrap() > 25.0, "{:?}", packed.summary.psnr);
    let c = Container::from_bytes(packed.container.clone()).unwrap();
    assert_eq!(c.header().desc.format, BcFormat::Bc2);
    // Every stream was verified through the MDU (BCPack's generic BC2 model is among the
    // candidates; here Deflate wins); the layout decodes back.
    assert_eq!(c.decode_layout().unwrap(), packed.layout);
    // The exported DDS is BC2 and packs back to the same blocks.
    let dds = DdsImage::read(&export_dds(&c).unwrap()).unwrap().image;
    assert_eq!(dds.format, BcFormat::Bc2);
    let again = pack_dds(&dds, &fast(BcFormat::Bc2), &|| {}).unwrap();
    assert_eq!(again.layout, packed.layout);
}

#[test]
fn bc2_refuses_rdo_and_the_shuffle() {
    let image = test_image(64, 64);
    let rdo = PackOptions { rdo: Some(sfsim_models::codec::bc::RdoSettings::default()), ..fast(BcFormat::Bc2) };
    let e = pack(&image, &rdo, &|| {}).unwrap_err().to_string();
    assert!(e.contains("RDO does not support Bc2; expected BC1, BC3, BC4 or BC5"), "{e}");
    let rule = PackOptions { rdo_max_loss: Some(2.0), ..fast(BcFormat::Bc2) };
    let e = pack(&image, &rule, &|| {}).unwrap_err().to_string();
    assert!(e.contains("--rdo-max-loss with format bc2") && e.contains("bc1, bc3, bc4 or bc5"), "{e}");
    let shuffle = PackOptions { shuffle: ShuffleChoice::On, ..fast(BcFormat::Bc2) };
    let e = pack(&image, &shuffle, &|| {}).unwrap_err().to_string();
    assert!(e.contains("--shuffle on: Bc2 has no BC field shuffle"), "{e}");
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
