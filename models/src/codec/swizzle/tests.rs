//! Whole-API tests: exact inverses for every mode (proptest), the documented layouts on
//! whole tiles, and refusals of malformed input.

use super::*;
use proptest::prelude::*;

const ALL: [SwizzleMode; 7] = [
    SwizzleMode::None,
    SwizzleMode::Bc1Shuffle,
    SwizzleMode::Bc3Shuffle,
    SwizzleMode::Bc4Shuffle,
    SwizzleMode::Bc5Shuffle,
    SwizzleMode::LinearToMorton,
    SwizzleMode::MortonToLinear,
];

/// The block size a mode needs, or both for the format-agnostic ones.
fn block_sizes(mode: SwizzleMode) -> &'static [u32] {
    match mode {
        SwizzleMode::Bc1Shuffle | SwizzleMode::Bc4Shuffle => &[8],
        SwizzleMode::Bc3Shuffle | SwizzleMode::Bc5Shuffle => &[16],
        _ => &[8, 16],
    }
}

fn is_layout(mode: SwizzleMode) -> bool {
    matches!(mode, SwizzleMode::LinearToMorton | SwizzleMode::MortonToLinear)
}

/// (mode, block bytes, data) with a length the mode accepts: up to 3 units (the last
/// one partial for shuffles), whole tiles for layouts.
fn valid_input() -> impl Strategy<Value = (SwizzleMode, u32, Vec<u8>)> {
    (0..ALL.len(), any::<bool>(), 0usize..3, 0usize..8192, any::<u64>()).prop_map(|(m, pick, units, extra, seed)| {
        let mode = ALL[m];
        let sizes = block_sizes(mode);
        let b = sizes[usize::from(pick) % sizes.len()];
        let len = if is_layout(mode) {
            (units + 1) * UNIT_BYTES
        } else {
            units * UNIT_BYTES + extra / b as usize * b as usize
        };
        let mut x = seed | 1;
        let data = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        (mode, b, data)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn apply_and_unapply_are_exact_inverses((mode, b, data) in valid_input()) {
        let packed = unapply(mode, b, &data).unwrap();
        prop_assert_eq!(packed.len(), data.len());
        prop_assert!(apply(mode, b, &packed).unwrap() == data);
        let out = apply(mode, b, &data).unwrap();
        prop_assert!(unapply(mode, b, &out).unwrap() == data);
        let mut into = vec![0; data.len()];
        apply_into(mode, b, &data, &mut into).unwrap();
        prop_assert!(into == out);
    }

    /// Permutations keep every byte: the sorted contents match.
    #[test]
    fn swizzles_permute_bytes((mode, b, data) in valid_input()) {
        let mut a = apply(mode, b, &data).unwrap();
        let mut d = data.clone();
        a.sort_unstable();
        d.sort_unstable();
        prop_assert!(a == d);
    }

    #[test]
    fn arbitrary_sizes_never_panic(m in 0..ALL.len(), b in 0u32..40, len in 0usize..200_000) {
        let data = vec![0x5a; len];
        let _ = apply(ALL[m], b, &data);
        let _ = unapply(ALL[m], b, &data);
    }
}

/// On a full tile, block (x, y) of the linear layout lands at its Morton index.
#[test]
fn linear_to_morton_moves_each_block_to_its_z_order_slot() {
    for (b, width) in [(8usize, 128usize), (16, 64)] {
        // Each block holds its own linear index in its first two bytes.
        let mut tile = vec![0u8; UNIT_BYTES];
        for (i, blk) in tile.chunks_exact_mut(b).enumerate() {
            blk[..2].copy_from_slice(&(i as u16).to_le_bytes());
        }
        let z = apply(SwizzleMode::LinearToMorton, b as u32, &tile).unwrap();
        for (m, blk) in z.chunks_exact(b).enumerate() {
            let i = usize::from(u16::from_le_bytes([blk[0], blk[1]]));
            assert_eq!(morton::morton_index(i % width, i / width), m);
        }
        // MortonToLinear in the MDU's direction undoes it.
        assert_eq!(apply(SwizzleMode::MortonToLinear, b as u32, &z).unwrap(), tile);
        assert_eq!(unapply(SwizzleMode::MortonToLinear, b as u32, &tile).unwrap(), z);
    }
}

/// BC3 on a full unit: the first plane is every block's alpha0, the fifth every colour1.
#[test]
fn bc3_planes_on_a_full_unit() {
    let n = UNIT_BYTES / 16;
    let blocks: Vec<u8> = (0..UNIT_BYTES).map(|i| ((i / 16) as u8).wrapping_mul(31) ^ (i % 16) as u8).collect();
    let p = unapply(SwizzleMode::Bc3Shuffle, 16, &blocks).unwrap();
    for i in 0..n {
        assert_eq!(p[i], blocks[16 * i], "alpha0 of block {i}");
        assert_eq!(p[n + i], blocks[16 * i + 1], "alpha1 of block {i}");
        assert_eq!(p[2 * n + 6 * i..2 * n + 6 * i + 6], blocks[16 * i + 2..16 * i + 8]);
        assert_eq!(p[8 * n + 2 * i..8 * n + 2 * i + 2], blocks[16 * i + 8..16 * i + 10]);
        assert_eq!(p[10 * n + 2 * i..10 * n + 2 * i + 2], blocks[16 * i + 10..16 * i + 12]);
        assert_eq!(p[12 * n + 4 * i..12 * n + 4 * i + 4], blocks[16 * i + 12..16 * i + 16]);
    }
}

#[test]
fn malformed_input_is_refused_with_the_sizes() {
    let e = apply(SwizzleMode::Bc1Shuffle, 8, &[0; 20]).unwrap_err();
    assert_eq!(e, SwizzleError::NotWholeBlocks { len: 20, block_bytes: 8, remainder: 4 });
    assert_eq!(e.to_string(), "20 B is not a whole number of 8-byte BC blocks (4 B left over)");
    assert_eq!(
        apply(SwizzleMode::Bc1Shuffle, 16, &[0; 32]),
        Err(SwizzleError::ModeBlockMismatch { mode: SwizzleMode::Bc1Shuffle, expected: 8, found: 16 })
    );
    assert_eq!(apply(SwizzleMode::Bc5Shuffle, 12, &[0; 24]), Err(SwizzleError::BadBlockSize { block_bytes: 12 }));
    let e = apply(SwizzleMode::LinearToMorton, 16, &vec![0; UNIT_BYTES + 16]).unwrap_err();
    assert_eq!(e, SwizzleError::NotWholeTiles { mode: SwizzleMode::LinearToMorton, len: UNIT_BYTES as u64 + 16 });
    assert!(e.to_string().contains("1 tile(s) + 16 B"), "{e}");
    let mut small = [0u8; 8];
    assert_eq!(
        apply_into(SwizzleMode::None, 8, &[0; 16], &mut small),
        Err(SwizzleError::OutputSize { expected: 16, found: 8 })
    );
    assert_eq!(apply(SwizzleMode::Bc4Shuffle, 8, &[]), Ok(vec![]));
}
