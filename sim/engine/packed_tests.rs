//! Tests of `packed.rs`.

use super::*;
use crate::content::mipgen::Image;
use crate::content::pack::{pack, PackOptions};

pub(in crate::engine) fn container_bytes(size: u32) -> Vec<u8> {
    let rgba = (0..size * size * 4).map(|i| (((i / 4) % 251) ^ ((i / 4 / size) % 7)) as u8).collect();
    pack(&Image { width: size, height: size, rgba }, &PackOptions::new(BcFormat::Bc1), &|| {}).unwrap().container
}

fn container(size: u32) -> Container {
    Container::from_bytes(container_bytes(size)).unwrap()
}

pub(in crate::engine) fn virtual_texture(size: u32) -> TextureDesc {
    TextureDesc::new(size, size, BcFormat::Bc1, None).unwrap()
}

#[test]
fn virtual_tiles_repeat_the_container_by_the_documented_rule() {
    let c = container(1024);
    let entries: HashMap<TileCoord, u32> =
        c.entries().iter().filter_map(|e| e.tile.map(|t| (t, e.compressed_size))).collect();
    let last = entries.keys().map(|t| t.mip).max().unwrap();
    let grid = |m: u32| {
        let k = entries.keys().filter(|t| t.mip == m);
        (k.clone().map(|t| t.x).max().unwrap() + 1, k.map(|t| t.y).max().unwrap() + 1)
    };
    let desc = virtual_texture(8192);
    let cfg = PackedConfig { containers: vec!["a".into()], verify: Verify::All, ..PackedConfig::default() };
    let p = PackedContent::from_containers(&cfg, vec![c.clone()], &[desc]).unwrap();
    // 8192 = 1024 << 3: virtual mip m reads container mip m − 3, clamped.
    let mut checked = 0;
    for m in 0..desc.first_packed_mip() {
        let cm = m.saturating_sub(3).min(last);
        let (tx, ty) = grid(cm);
        let info = desc.mip(m);
        for (x, y) in [(0, 0), (info.tiles_x - 1, info.tiles_y - 1), (info.tiles_x / 2, info.tiles_y / 3)] {
            let s = p.stream(0, BcFormat::Bc1, TileCoord { mip: m, x, y });
            let want = entries[&TileCoord { mip: cm, x: x % tx, y: y % ty }];
            assert_eq!(s.compressed.0, u64::from(want), "mip {m} ({x}, {y})");
            assert_eq!(s.uncompressed.0, TILE_BYTES);
            assert!(p.verify(0, TileCoord { mip: m, x, y }).is_ok());
            checked += 1;
        }
    }
    assert!(checked >= 9);
    let tail = p.stream(0, BcFormat::Bc1, TileCoord { mip: desc.first_packed_mip(), x: 0, y: 0 });
    assert!(tail.compressed.0 > 0 && tail.compressed.0 <= TILE_BYTES);
}

#[test]
fn sample_checks_about_one_tile_in_sample_every() {
    let cfg = PackedConfig { containers: vec!["a".into()], ..PackedConfig::default() };
    let p = PackedContent::from_containers(&cfg, vec![container(512)], &[virtual_texture(8192)]).unwrap();
    let n = (0..64u32)
        .flat_map(|y| (0..64u32).map(move |x| TileCoord { mip: 0, x, y }))
        .filter(|t| p.should_verify(0, *t))
        .count();
    assert!((4096 / 32..4096 / 8).contains(&n), "{n} of 4096 sampled");
}

#[test]
fn a_container_of_another_format_is_refused_naming_both() {
    let desc = TextureDesc::new(4096, 4096, BcFormat::Bc7, None).unwrap();
    let cfg = PackedConfig { containers: vec!["a".into()], ..PackedConfig::default() };
    let e = PackedContent::from_containers(&cfg, vec![container(1024)], &[desc]).unwrap_err();
    assert_eq!(e.field, "content.containers[0]");
    assert!(e.message.contains("Bc1") && e.message.contains("Bc7"), "{e}");
}
