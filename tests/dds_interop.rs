//! DDS files between sfsim and another reader/writer, Python's Pillow: what `sfsim export`
//! writes opens in Pillow with the texels sfsim decodes, and what Pillow writes (one mip,
//! FourCC DXT1/DXT3/DXT5 or DX10 TYPELESS BC2/BC3/BC5) packs with `sfsim pack`.
//!
//! Pillow is installed with `pip install pillow` when missing; only if that fails are the
//! tests skipped, with a message saying so.

use crate::common::sfsim;
use sfsim::content::pack::Container;
use sfsim_models::codec::bc::decode_surface;
use sfsim_models::texture::{BcFormat, DdsImage};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// Pillow's version, installing it if needed; `None` (after saying why) when neither works.
fn pillow() -> Option<&'static str> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    let version = || {
        let out = Command::new("python3").args(["-c", "import PIL; print(PIL.__version__)"]).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    VERSION
        .get_or_init(|| {
            if let Some(v) = version() {
                return Some(v);
            }
            let pip = Command::new("python3").args(["-m", "pip", "install", "--quiet", "pillow"]).status();
            match (pip, version()) {
                (_, Some(v)) => Some(v),
                (status, None) => {
                    eprintln!("SKIPPED: Pillow is not installed and `pip install pillow` failed ({status:?})");
                    None
                }
            }
        })
        .as_deref()
}

fn python(script: &str, args: &[&Path]) -> String {
    let out = Command::new("python3").arg("-c").arg(script).args(args).output().unwrap();
    assert!(out.status.success(), "python: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn run_ok(args: &[&str]) -> std::process::Output {
    let out = sfsim().args(args).output().unwrap();
    assert!(out.status.success(), "sfsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A 200x136 RGBA PNG (not a multiple of 4 high, so edge blocks are partial): gradients,
/// a checker and an alpha ramp.
fn test_png(dir: &Path) -> std::path::PathBuf {
    let (w, h) = (200u32, 136u32);
    let img = image::RgbaImage::from_fn(w, h, |x, y| {
        let check = if (x / 8 + y / 8) % 2 == 0 { 40 } else { 0 };
        image::Rgba([(x * 255 / w) as u8, (y * 255 / h + check).min(255) as u8, 128, (x + y) as u8])
    });
    let path = dir.join("in.png");
    img.save(&path).unwrap();
    path
}

/// Opens `dds` in Pillow: (format, mode, width, height), and mip 0 as RGBA in `png`.
const PILLOW_OPEN: &str = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nim.load()\n\
    print(im.format, im.mode, im.size[0], im.size[1])\nim.convert('RGBA').save(sys.argv[2])";

#[test]
fn exported_dds_opens_in_pillow_with_sfsims_texels() {
    let Some(version) = pillow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let png = test_png(dir.path());
    // (format, pack flags, export header, channels Pillow decodes): Pillow 13 reads no
    // BC1-BC3 _SRGB DXGI format, so sRGB BC1-BC3 export with the DX9 header (which drops the
    // sRGB flag); linear BC1-BC3 and every BC4/BC5/BC7 open from the default DX10 header.
    let cases: [(&str, &[&str], &str, &[usize]); 9] = [
        ("bc1", &[], "dx9", &[0, 1, 2]),
        ("bc1", &["--linear"], "dx10", &[0, 1, 2]),
        ("bc2", &[], "dx9", &[0, 1, 2, 3]),
        ("bc2", &["--linear"], "dx10", &[0, 1, 2, 3]),
        ("bc3", &[], "dx9", &[0, 1, 2, 3]),
        ("bc3", &["--linear"], "dx10", &[0, 1, 2, 3]),
        ("bc4", &[], "dx10", &[0]),
        ("bc5", &[], "dx10", &[0, 1]),
        ("bc7", &[], "dx10", &[0, 1, 2, 3]),
    ];
    for (format, flags, header, channels) in cases {
        let (packed, dds, back) = (dir.path().join("t.sfstex"), dir.path().join("t.dds"), dir.path().join("t.png"));
        let mut args = vec!["pack", s(&png), "--format", format, "-o", s(&packed)];
        args.extend_from_slice(flags);
        run_ok(&args);
        run_ok(&["export", s(&packed), "-o", s(&dds), "--dds-header", header]);
        let info = python(PILLOW_OPEN, &[&dds, &back]);
        let c = Container::open(&packed).unwrap();
        let desc = c.header().desc;
        assert!(info.starts_with("DDS ") && info.ends_with(" 200 136"), "{format}: Pillow says {info}");
        let ours = decode_surface(desc.format, 200, 136, &c.mip_blocks(0).unwrap()).unwrap();
        let theirs = image::open(&back).unwrap().to_rgba8().into_raw();
        let max = ours
            .chunks(4)
            .zip(theirs.chunks(4))
            .flat_map(|(a, b)| channels.iter().map(move |&k| a[k].abs_diff(b[k])))
            .max()
            .unwrap();
        // BC7 is specified bit-exactly; BC1-BC5 interpolation rounding is not, and Pillow's
        // differs from sfsim's (docs/bc.md) by 1 at most (measured with Pillow 13.0.0).
        let tolerance = if desc.format == BcFormat::Bc7 { 0 } else { 1 };
        eprintln!("Pillow {version} {format} {flags:?} {header}: {info}, max |Δ| {max} over channels {channels:?}");
        assert!(max <= tolerance, "{format} {header}: Pillow's texels differ from sfsim's by up to {max}");
    }
}

/// Saves in.png as `pixel_format` DDS with Pillow (mode RGB for BC5, which Pillow requires).
const PILLOW_SAVE: &str = "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\n\
    im = im.convert('RGB') if sys.argv[3] == 'BC5' else im.convert('RGBA')\n\
    im.save(sys.argv[2], pixel_format=sys.argv[3])";

#[test]
fn dds_files_pillow_writes_pack() {
    if pillow().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let png = test_png(dir.path());
    for (pixel_format, format) in [
        ("DXT1", BcFormat::Bc1),
        ("DXT3", BcFormat::Bc2),
        ("DXT5", BcFormat::Bc3),
        ("BC2", BcFormat::Bc2),
        ("BC3", BcFormat::Bc3),
        ("BC5", BcFormat::Bc5),
    ] {
        let (dds, packed) = (dir.path().join("p.dds"), dir.path().join("p.sfstex"));
        let out =
            Command::new("python3").arg("-c").arg(PILLOW_SAVE).args([s(&png), s(&dds), pixel_format]).output().unwrap();
        assert!(out.status.success(), "Pillow save {pixel_format}: {}", String::from_utf8_lossy(&out.stderr));
        let read = DdsImage::read(&std::fs::read(&dds).unwrap()).unwrap();
        assert_eq!((read.image.format, read.image.mip_count), (format, 1), "{pixel_format}");
        let out = run_ok(&["pack", s(&dds), "-o", s(&packed)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("note: ")
                && stderr.contains("the DDS held 1 of 8 mips")
                && stderr.contains("mips 1..=7 generated"),
            "{pixel_format}: {stderr}"
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("the DDS held 1 of 8 mips"), "{pixel_format}: the summary says it too: {stdout}");
        let c = Container::open(&packed).unwrap();
        assert_eq!(c.header().desc.format, format);
        assert_eq!(c.header().desc.mip_levels, 8);
        assert_eq!(c.mip_blocks(0).unwrap(), read.image.mips[0], "{pixel_format}: Pillow's blocks kept");
    }
}

#[test]
fn pack_warns_about_trailing_bytes_and_an_unknown_dimension() {
    let dir = tempfile::tempdir().unwrap();
    let image = DdsImage {
        format: BcFormat::Bc7,
        width: 64,
        height: 64,
        mip_count: 7,
        srgb: true,
        mips: (0..7)
            .map(|l| vec![0x40; BcFormat::Bc7.surface_bytes((64 >> l).max(1), (64 >> l).max(1)) as usize])
            .collect(),
    };
    let mut file = image.write().unwrap();
    file[132..136].copy_from_slice(&0u32.to_le_bytes()); // resourceDimension unknown
    file.extend_from_slice(&[0; 123]);
    let (dds, packed) = (dir.path().join("x.dds"), dir.path().join("x.sfstex"));
    std::fs::write(&dds, &file).unwrap();
    let out = run_ok(&["pack", s(&dds), "-o", s(&packed)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("warning: {}: 123 trailing bytes after the last mip ignored", dds.display())),
        "{stderr}"
    );
    assert!(stderr.contains("resourceDimension is 0 (unknown); read as TEXTURE2D"), "{stderr}");
    let c = Container::open(&packed).unwrap();
    for level in 0..7 {
        assert_eq!(c.mip_blocks(level).unwrap(), image.mips[level as usize]);
    }
}
