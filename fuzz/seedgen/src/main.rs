//! Writes small valid inputs for every fuzz target into `<corpus>/<target>/`, made from
//! the repository's real content: the BC tiles in models/tests-data/bcpack/, the textures
//! in scenarios/content/textures/ (cropped and packed as `sfsim pack` packs them), the
//! scenario, sweep and camera files. Usage: `sfsim-fuzz-seedgen <corpus dir>`.

// Built with the fuzz targets' flags (one build for both), whose coverage hooks live in
// libFuzzer: link it, though this binary has no fuzz target.
extern crate libfuzzer_sys;

use sfsim::content::mipgen::Image;
use sfsim::content::pack::{load_image, pack, pack_dds, pack_set, PackOptions, PackedTexture};
use sfsim_fuzz::{bcpack_seed, mdu_seed, repo_root};
use sfsim_models::codec::bc::{Bc7Quality, EncodeSettings};
use sfsim_models::codec::bcpack::{encode, encode_with, BcpackMode, Method, Profile};
use sfsim_models::codec::zlib::{deflate, Encoder};
use sfsim_models::mdu::{pack as mdu_pack, Encoding};
use sfsim_models::nvme::RequestOptions;
use sfsim_models::texture::{BcFormat, DdsImage, TileMode};
use std::path::{Path, PathBuf};

struct Corpus {
    root: PathBuf,
    bytes: usize,
}

impl Corpus {
    fn put(&mut self, target: &str, name: &str, data: &[u8]) {
        let dir = self.root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), data).unwrap();
        self.bytes += data.len();
    }
}

fn tile(name: &str) -> Vec<u8> {
    std::fs::read(repo_root().join("models/tests-data/bcpack").join(name)).unwrap()
}

/// The first `lines` lines of a text file.
fn head(path: &Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().take(lines).map(|l| format!("{l}\n")).collect()
}

fn crop(image: &Image, x0: u32, y0: u32, w: u32, h: u32) -> Image {
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in y0..y0 + h {
        let at = ((y * image.width + x0) * 4) as usize;
        rgba.extend_from_slice(&image.rgba[at..at + (w * 4) as usize]);
    }
    Image { width: w, height: h, rgba }
}

fn options(format: BcFormat, tile_mode: TileMode) -> PackOptions {
    let mut o = PackOptions::new(format);
    o.tile_mode = tile_mode;
    o.encode = EncodeSettings { bc7_quality: Bc7Quality::Fast, bc7_modes: None };
    o
}

/// A DDS with a full mip chain whose blocks are taken, in order, from a real tile.
fn dds(format: BcFormat, width: u32, height: u32, srgb: bool, tile: &[u8]) -> Vec<u8> {
    let mip_count = 32 - width.max(height).leading_zeros();
    let mut at = 0;
    let mips = (0..mip_count)
        .map(|l| {
            let n = format.surface_bytes((width >> l).max(1), (height >> l).max(1)) as usize;
            at += n;
            tile[at - n..at].to_vec()
        })
        .collect();
    DdsImage { format, width, height, mip_count, srgb, mips }.write().unwrap()
}

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).expect("usage: sfsim-fuzz-seedgen <corpus dir>"));
    let mut c = Corpus { root, bytes: 0 };
    let bc1 = tile("bc1-diffuse.bin");
    let bc5 = tile("bc5-normal.bin");
    let bc7 = tile("bc7-diffuse.bin");
    let bc7m7 = tile("bc7m7-diffuse.bin");

    // zlib: real tile prefixes through several encoders; u32 declared size first.
    for (t, data) in [("bc1", &bc1), ("bc5", &bc5), ("bc7", &bc7)] {
        for len in [256usize, 2048, 8192] {
            for (e, encoder) in
                [("z9", Encoder::ZLIB_BEST), ("z1", Encoder::zlib(1).unwrap()), ("ld12", Encoder::LIBDEFLATE_BEST)]
            {
                let mut seed = (len as u32).to_le_bytes().to_vec();
                seed.extend_from_slice(&deflate(&data[..len], encoder));
                c.put("zlib_decode", &format!("{t}-{len}-{e}"), &seed);
            }
        }
    }

    // BCPack decoders: the first blocks of a real tile of a fitting block size.
    let source = |mode: BcpackMode| -> &[u8] {
        match mode {
            BcpackMode::Bc1 | BcpackMode::Bc4 => &bc1,
            BcpackMode::Bc3 | BcpackMode::Bc5 => &bc5,
            BcpackMode::Bc7 => &bc7,
            _ => &bc7m7,
        }
    };
    for mode in BcpackMode::ALL {
        let bb = mode.block_bytes();
        for (profile, method, tag) in
            [(Profile::Small, Method::Modelled, "small"), (Profile::Fast, Method::Fast, "fast")]
        {
            for (blocks, row) in
                [(8usize, 3u32), (16, 4), (32, 8), (32, 32), (24, 40), (256, mode.default_row_blocks())]
            {
                let stream = encode_with(mode, &source(mode)[..blocks * bb], row, profile).unwrap();
                let name = format!("{}-{blocks}", format!("{mode:?}").to_lowercase());
                if blocks <= 32 {
                    c.put("bcpack_decode", &format!("{tag}-{name}-r{row}"), &stream);
                }
                if sfsim_models::codec::bcpack::Header::read(&stream).unwrap().method != method {
                    continue; // stored fallback, or no fast model for this mode
                }
                let target = format!("bcpack_{tag}_{}", format!("{mode:?}").to_lowercase());
                if let Some(seed) = bcpack_seed(&stream) {
                    c.put(&target, &format!("{name}-r{row}"), &seed);
                }
            }
        }
    }
    c.put("bcpack_decode", "stored-bc1-3", &encode(BcpackMode::Bc1, &[0x11; 24]).unwrap());

    // Swizzle: every mode over real bytes, short units and whole tiles (layout in lib.rs).
    for mode in 0u8..7 {
        for (bb, sel, n) in [(0u8, 0u8, 4096u16), (1, 0, 1024), (0, 3, 0), (1, 7, 512)] {
            let mut seed = vec![mode, bb, sel];
            seed.extend_from_slice(&n.to_le_bytes());
            seed.extend_from_slice(&bc1[..509]);
            c.put("swizzle", &format!("m{mode}-b{bb}-s{sel}-{n}"), &seed);
        }
    }

    // MDU functional decode: requests `pack` made for every kind of stage combination.
    let combos: [(bool, u32, u32, u32, &[u8], usize); 10] = [
        (true, 0, 0, 8, &bc1, 4096),
        (false, 1, 0, 8, &bc1, 2048),
        (true, 1, 0, 8, &bc1, 8192),
        (true, 0, 1, 8, &bc1, 4096),
        (true, 5, 4, 16, &bc5, 4096),
        (true, 7, 0, 16, &bc7, 4096),
        (false, 7, 0, 16, &bc7, 1024),
        (true, 4, 3, 8, &bc1, 2048),
        (true, 0, 5, 8, &bc1, 65_536),
        (false, 0, 0, 16, &bc7, 512),
    ];
    for (i, &(zlib, bcpack_mode, swizzle_mode, bb, data, len)) in combos.iter().enumerate() {
        let options = RequestOptions { zlib, bcpack_mode, swizzle_mode };
        // A BCPack stream may not deflate smaller (the MDU's rule): no seed then.
        let Ok(packed) = mdu_pack(options, bb, &data[..len], Encoding::default()) else { continue };
        c.put(
            "mdu_decode",
            &format!("{i}-z{}-b{bcpack_mode}-s{swizzle_mode}", zlib as u8),
            &mdu_seed(&packed.request, &packed.bytes),
        );
    }

    // Containers and DDS: crops of the real textures, packed as `sfsim pack` packs them.
    let textures = repo_root().join("scenarios/content/textures");
    let diffuse = load_image(&textures.join("ldr-rgb-diffuse.png")).unwrap();
    let normal = load_image(&textures.join("ldr-xy-normal1.png")).unwrap();
    let spec = load_image(&textures.join("ldr-rgba-specgloss.png")).unwrap();
    let packs: Vec<(&str, PackedTexture)> = vec![
        (
            "bc1-64-sfs",
            pack(&crop(&diffuse, 512, 512, 64, 64), &options(BcFormat::Bc1, TileMode::Sfs), &|| {}).unwrap(),
        ),
        ("bc7-64-mip", pack(&crop(&diffuse, 0, 0, 64, 64), &options(BcFormat::Bc7, TileMode::Mip), &|| {}).unwrap()),
        (
            "bc5-128-tile64k",
            pack(&crop(&normal, 0, 0, 128, 128), &options(BcFormat::Bc5, TileMode::Tile64k), &|| {}).unwrap(),
        ),
        ("bc4-32-sfs", pack(&crop(&spec, 64, 64, 32, 32), &options(BcFormat::Bc4, TileMode::Sfs), &|| {}).unwrap()),
        (
            "bc1-512x256-sfs",
            pack(&crop(&diffuse, 256, 256, 512, 256), &options(BcFormat::Bc1, TileMode::Sfs), &|| {}).unwrap(),
        ),
    ];
    for (name, p) in &packs {
        c.put("container", name, &p.container);
    }
    let trio = [
        pack(&crop(&diffuse, 128, 128, 64, 64), &options(BcFormat::Bc1, TileMode::Sfs), &|| {}).unwrap(),
        pack(&crop(&normal, 128, 128, 64, 64), &options(BcFormat::Bc5, TileMode::Sfs), &|| {}).unwrap(),
        pack(&crop(&spec, 128, 128, 64, 64), &options(BcFormat::Bc1, TileMode::Sfs), &|| {}).unwrap(),
    ];
    c.put("container", "set-64", &pack_set(&trio).unwrap());
    let dds_bc1 = dds(BcFormat::Bc1, 64, 64, true, &bc1);
    let from_dds =
        pack_dds(&DdsImage::read(&dds_bc1).unwrap().image, &options(BcFormat::Bc1, TileMode::Sfs), &|| {}).unwrap();
    c.put("container", "bc1-64-from-dds", &from_dds.container);

    c.put("dds", "bc1-64-srgb", &dds_bc1);
    c.put("dds", "bc5-32", &dds(BcFormat::Bc5, 32, 32, false, &bc5));
    c.put("dds", "bc7-16x8-srgb", &dds(BcFormat::Bc7, 16, 8, true, &bc7));
    c.put("dds", "bc4-8", &dds(BcFormat::Bc4, 8, 8, false, &bc1));
    c.put("dds", "bc3-4x16", &dds(BcFormat::Bc3, 4, 16, false, &bc5));
    c.put("dds", "bc6h-8", &dds(BcFormat::Bc6h, 8, 8, false, &bc7m7));
    c.put("dds", "bc2-4", &dds(BcFormat::Bc2, 4, 4, false, &bc7m7));

    // Text parsers: the repository's own files (long recordings cut to their first lines).
    let scenarios = repo_root().join("scenarios");
    for dir in ["", "io", "render", "stream"] {
        for entry in std::fs::read_dir(scenarios.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                let name = format!("{dir}-{}", path.file_name().unwrap().to_string_lossy());
                c.put("scenario", &name, &std::fs::read(&path).unwrap());
            }
        }
    }
    let mut with_set = std::fs::read(scenarios.join("io/quick.ron")).unwrap();
    with_set.extend_from_slice(b"\0workload.in_flight=16MiB\0hardware.nvme.queue_depth=8");
    c.put("scenario", "with-overrides", &with_set);
    for entry in std::fs::read_dir(scenarios.join("sweeps")).unwrap() {
        let path = entry.unwrap().path();
        c.put("sweep", &path.file_name().unwrap().to_string_lossy(), &std::fs::read(&path).unwrap());
    }
    let cameras = scenarios.join("cameras");
    for f in ["orbit.csv", "paint-mixer.csv", "rollercoaster.csv"] {
        c.put("camera_csv", f, head(&cameras.join(f), 40).as_bytes());
    }
    c.put("camera_tum", "handheld.tum", head(&cameras.join("handheld.tum"), 40).as_bytes());
    c.put("camera_keys", "flyby.keys.ron", &std::fs::read(cameras.join("flyby.keys.ron")).unwrap());
    for f in ["orbit.gen.ron", "paint-mixer.gen.ron", "rollercoaster.gen.ron"] {
        c.put("camera_gen", f, &std::fs::read(cameras.join(f)).unwrap());
    }
    println!("seed corpus: {} bytes under {}", c.bytes, c.root.display());
}
