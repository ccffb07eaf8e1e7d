//! The BC field shuffle (`--shuffle`): on real textures it decodes bit-exactly through the
//! functional MDU, `auto` is never larger than `off` or `on`, and BC7 (no shuffle) refuses
//! `on`.

use super::tests::{fast, test_image};
use super::*;
use crate::content::mipgen::{mip_chain, Image};
use sfsim_models::texture::{BcFormat, TileMode};

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
