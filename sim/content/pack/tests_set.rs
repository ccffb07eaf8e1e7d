//! The set container: layout (companions beside their member-0 tile, members of different
//! sizes), the reader's refusals, and hostile set files.

use super::format::table_hash;
use super::tests::{fast, mutate, packed_bc1, test_image};
use super::*;
use proptest::prelude::*;
use sfsim_models::texture::BcFormat;
use std::sync::OnceLock;

/// A set of three small packed textures: BC1 diffuse, BC5 normal (half-width tiles, so two
/// companions per diffuse tile and one more streamable mip), BC1 specular.
fn packed_trio(sizes: [u32; 3]) -> [PackedTexture; 3] {
    let formats = [BcFormat::Bc1, BcFormat::Bc5, BcFormat::Bc1];
    let mut out = formats.iter().zip(sizes).map(|(&f, s)| pack(&test_image(s, s), &fast(f), &|| {}).unwrap());
    [out.next().unwrap(), out.next().unwrap(), out.next().unwrap()]
}

fn packed_set() -> &'static ([PackedTexture; 3], Vec<u8>) {
    static SET: OnceLock<([PackedTexture; 3], Vec<u8>)> = OnceLock::new();
    SET.get_or_init(|| {
        let trio = packed_trio([512, 512, 512]);
        let bytes = pack_set(&trio).unwrap();
        (trio, bytes)
    })
}

/// Every stream once, 16-aligned, no overlap, the documented order, every member decoding to
/// exactly what it packed; returns the set.
fn check_set_layout(trio: &[PackedTexture; 3], bytes: Vec<u8>) -> SetContainer {
    let set = SetContainer::from_bytes(bytes).unwrap();
    let singles: Vec<Container> = trio.iter().map(|p| Container::from_bytes(p.container.clone()).unwrap()).collect();
    let order = set.order();
    let total: usize = singles.iter().map(|c| c.stream_count()).sum();
    let mut seen = std::collections::HashSet::new();
    assert!(order.iter().all(|s| seen.insert(*s)), "a stream placed twice");
    assert_eq!(seen.len(), total, "every stream placed");
    let mut end = 0u64;
    for &(k, j) in order {
        let e = set.members()[k].entries()[j];
        assert_eq!(e.relative_offset % 16, 0);
        assert_eq!(e.relative_offset, format::align(end), "member {k} stream {j} right after the previous stream");
        end = e.relative_offset + u64::from(e.compressed_size);
        // The stream's bytes are the single container's, at the new place.
        assert_eq!(set.members()[k].stream(j).unwrap().bytes, singles[k].stream(j).unwrap().bytes);
    }
    assert_eq!(set.header().data_bytes, format::align(end));
    assert_eq!(set.file_bytes(), set.header().data_offset + set.header().data_bytes);
    // Resident streams last.
    let first_resident = order.iter().position(|&(k, j)| set.members()[k].entries()[j].resident).unwrap();
    assert!(order[first_resident..].iter().all(|&(k, j)| set.members()[k].entries()[j].resident));
    for (k, (m, p)) in set.members().iter().zip(trio).enumerate() {
        assert_eq!(m.decode_layout().unwrap(), p.layout, "member {k}");
        let mut a = m.entries().to_vec();
        a.iter_mut().for_each(|e| e.relative_offset = 0);
        let mut b = singles[k].entries().to_vec();
        b.iter_mut().for_each(|e| e.relative_offset = 0);
        assert_eq!(a, b, "member {k}'s table is the single container's but for offsets");
        assert_eq!(m.header().data_offset, set.header().data_offset);
    }
    set
}

#[test]
fn set_layout_places_companions_right_after_their_member0_tile() {
    let (trio, bytes) = packed_set();
    let set = check_set_layout(trio, bytes.clone());
    let m = set.members();
    let tile_index = |k: usize, t: sfsim_models::texture::TileCoord| {
        m[k].entries().iter().position(|e| e.tile == Some(t) && !e.resident).unwrap()
    };
    let mut checked = 0;
    for (i, e) in m[0].entries().iter().enumerate() {
        let Some(t) = e.tile else { continue };
        let at = set.order().iter().position(|&s| s == (0, i)).unwrap();
        // BC5 tiles are 256 wide, BC1's 512: member 1's companions are (2x, y) and (2x+1, y).
        let want = [
            (1, tile_index(1, sfsim_models::texture::TileCoord { x: 2 * t.x, ..t })),
            (1, tile_index(1, sfsim_models::texture::TileCoord { x: 2 * t.x + 1, ..t })),
            (2, tile_index(2, t)),
        ];
        assert_eq!(&set.order()[at + 1..at + 4], &want, "tile {t:?}");
        assert_eq!(companion_tiles(&m[0].header().desc, t, &m[1].header().desc).len(), 2, "two BC5 tiles per BC1 tile");
        let end = m[0].entries()[i].relative_offset + u64::from(e.compressed_size);
        assert_eq!(m[1].entries()[want[0].1].relative_offset, format::align(end), "adjacent");
        checked += 1;
    }
    assert_eq!(checked, 2, "512² BC1: two mip-0 tiles");
    // BC5's mip 1 (256², one tile) has no BC1 counterpart: after member 0's last tile group.
    let lone = tile_index(1, sfsim_models::texture::TileCoord { mip: 1, x: 0, y: 0 });
    let at = set.order().iter().position(|&s| s == (1, lone)).unwrap();
    let last0 = set.order().iter().rposition(|&(k, j)| k == 0 && !m[0].entries()[j].resident).unwrap();
    assert!(at > last0 + 3, "a member tile with no member-0 companion goes after member 0's last");
}

#[test]
fn set_layout_holds_members_of_different_sizes() {
    // Member 1 twice the size, member 2 a quarter: companions by tile position, the rest
    // after member 0's streams, every stream once.
    let trio = packed_trio([512, 1024, 256]);
    let bytes = pack_set(&trio).unwrap();
    let set = check_set_layout(&trio, bytes);
    assert_eq!(set.members()[1].header().desc.width, 1024);
}

/// Recomputes the member and set hashes after an edit of `bytes` (a set file).
fn rehash_set(bytes: &mut [u8]) {
    let le = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let data_off = le(16) as usize;
    let members: Vec<usize> = (0..3).map(|k| le(32 + 8 * k) as usize).collect();
    for (k, &at) in members.iter().enumerate() {
        let end = if k < 2 { members[k + 1] } else { data_off };
        let hash = table_hash(&bytes[at..end]);
        bytes[at + 56..at + 64].copy_from_slice(&hash.to_le_bytes());
    }
    let hash = format::hash_skipping(&bytes[..data_off], 56);
    bytes[56..64].copy_from_slice(&hash.to_le_bytes());
}

fn set_error(bytes: Vec<u8>) -> String {
    SetContainer::parse("s.sfsset", bytes).unwrap_err().to_string()
}

#[test]
fn bad_set_fields_are_named_with_their_range() {
    let good = &packed_set().1;
    let set = SetContainer::from_bytes(good.clone()).unwrap();
    let m1 = set.header().member_offsets[1] as usize;
    let entry = |member: usize, i: usize, off: usize| member + HEADER_BYTES + i * ENTRY_BYTES + off;
    let edit = |at: usize, value: &[u8]| {
        let mut b = good.clone();
        b[at..at + value.len()].copy_from_slice(value);
        rehash_set(&mut b);
        b
    };
    // Offsets are checked before any hash, so this edit needs no rehash.
    let raw_edit = |at: usize, value: &[u8]| {
        let mut b = good.clone();
        b[at..at + value.len()].copy_from_slice(value);
        b
    };
    // Swap the places of member 1's first two streams: each field valid, the layout not.
    let (o0, o1) = (set.members()[1].entries()[0].relative_offset, set.members()[1].entries()[1].relative_offset);
    let mut swapped = edit(entry(m1, 0, 0), &o1.to_le_bytes());
    swapped[entry(m1, 1, 0)..entry(m1, 1, 8)].copy_from_slice(&o0.to_le_bytes());
    rehash_set(&mut swapped);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (edit(8, &2u16.to_le_bytes()), "set version is 2; expected 1"),
        (edit(10, &32u16.to_le_bytes()), "set header size is 32; expected 64"),
        (edit(12, &[2]), "member count is 2; expected 3"),
        (edit(13, &[0]), "layout is 0; expected 1 (interleaved by tile position)"),
        (
            raw_edit(40, &7u64.to_le_bytes()),
            &*Box::leak(format!("member 1 offset is 7; expected {m1}").into_boxed_str()),
        ),
        (edit(m1 + 14, &[9]), "member 1 format is 9; expected 1..=7"),
        (edit(m1 + 32, &5u64.to_le_bytes()), "member 1 data offset is 5; expected"),
        (edit(m1 + 40, &5u64.to_le_bytes()), "member 1 data size is 5; expected"),
        (edit(entry(m1, 2, 16), &1000u32.to_le_bytes()), "member 1 stream 2 UncompressedSize is 1000; expected 65536"),
        (
            edit(entry(m1, 1, 0), &8u64.to_le_bytes()),
            "member 1 stream 1 RelativeOffset is 8; expected a multiple of 16",
        ),
        (swapped, "member 1 stream 0 RelativeOffset is"),
    ];
    for (bytes, expected) in cases {
        let e = set_error(bytes);
        assert!(e.starts_with("s.sfsset: ") && e.contains(expected), "{e}\n  expected: {expected}");
    }
}

#[test]
fn truncated_and_corrupt_sets_are_caught() {
    let good = &packed_set().1;
    let e = set_error(good[..40].to_vec());
    assert!(e.contains("truncated: the set header needs 64 B but the file has 40 B"), "{e}");
    let e = set_error(good[..300].to_vec());
    assert!(e.starts_with("s.sfsset: truncated:"), "{e}");
    let e = set_error(good[..good.len() - 1].to_vec());
    assert!(e.contains("truncated: the data section"), "{e}");
    let mut long = good.clone();
    long.extend_from_slice(&[0; 16]);
    let e = set_error(long);
    assert!(e.contains("data size is") && e.contains("expected"), "{e}");
    let e = set_error(packed_bc1().container.clone());
    assert!(e.contains("magic") && e.contains("SFSIMSET"), "{e}");
    // A flipped hash byte in member 1's table: that member's table hash catches it.
    let set = SetContainer::from_bytes(good.clone()).unwrap();
    let m1 = set.header().member_offsets[1] as usize;
    let mut bytes = good.clone();
    bytes[m1 + HEADER_BYTES + 32] ^= 1;
    let e = set_error(bytes);
    assert!(e.starts_with("s.sfsset member 1: ") && e.contains("corrupt"), "{e}");
    // A member table rehashed but the set hash not: the set hash catches it.
    let mut bytes = good.clone();
    bytes[m1 + HEADER_BYTES + 32] ^= 1;
    let hash = table_hash(&bytes[m1..set.header().member_offsets[2] as usize]);
    bytes[m1 + 56..m1 + 64].copy_from_slice(&hash.to_le_bytes());
    let e = set_error(bytes);
    assert!(e.starts_with("s.sfsset: ") && e.contains("corrupt"), "{e}");
    // A flipped stream byte: that member's stream fails, the others decode.
    let s = set.members()[2].stream(0).unwrap();
    let mut bytes = good.clone();
    bytes[(s.file_offset + s.bytes.len() as u64 / 2) as usize] ^= 0x40;
    let set = SetContainer::from_bytes(bytes).unwrap();
    assert!(set.members()[0].decode_layout().is_ok() && set.members()[1].decode_layout().is_ok());
    let e = set.members()[2].decode_stream(0).unwrap_err().to_string();
    assert!(e.contains("member 2 (specular): stream 0"), "{e}");
    // Either kind through PackedFile; anything else names both magics.
    assert!(matches!(PackedFile::parse("x", good.clone()).unwrap(), PackedFile::Set(_)));
    assert!(matches!(PackedFile::parse("x", packed_bc1().container.clone()).unwrap(), PackedFile::Texture(_)));
    let e = PackedFile::parse("x", b"DDS 1234".to_vec()).unwrap_err().to_string();
    assert!(e.contains("SFSIMTEX") && e.contains("SFSIMSET"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Flipped bytes anywhere and any truncation of a set file: never a panic, and whatever
    /// decodes with every hash intact is exactly the packed data.
    #[test]
    fn mutated_sets_never_panic(
        flips in proptest::collection::vec((any::<usize>(), 1u8..), 0..4),
        cut in any::<usize>(),
        truncate in any::<bool>(),
    ) {
        let (trio, good) = packed_set();
        let bytes = mutate(good.clone(), &flips, cut, truncate);
        if let Ok(set) = SetContainer::from_bytes(bytes) {
            for (m, p) in set.members().iter().zip(trio) {
                if let Ok(layout) = m.decode_layout() {
                    prop_assert_eq!(layout, p.layout.clone());
                }
            }
        }
    }
}
