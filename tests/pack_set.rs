//! `sfsim pack --set` end to end: a real diffuse/normal/specular trio packed into one set
//! container whose members decode to exactly their blocks, and the refusals that name the
//! member and option.

use crate::common::{repo, sfsim};
use crate::pack::{json, pack};
use sfsim::content::mipgen::mip_chain;
use sfsim::content::pack::{encode_mips, load_image, PackOptions};
use sfsim_models::codec::bc::EncodeSettings;
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};

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
