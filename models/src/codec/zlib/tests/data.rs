//! Deterministic test inputs shaped like the MDU's real payloads.

use rand::{Rng, SeedableRng};

/// BC1-like blocks: endpoint pairs from a small palette (Deflate finds repeats) and random
/// index words (it cannot), like real BC tiles.
pub fn bc_like(blocks: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let palette: Vec<[u8; 4]> = (0..24).map(|_| rng.gen()).collect();
    let mut v = Vec::with_capacity(blocks * 8);
    for _ in 0..blocks {
        v.extend_from_slice(&palette[rng.gen_range(0..palette.len())]);
        v.extend_from_slice(&rng.gen::<[u8; 4]>());
    }
    v
}

/// Text-like bytes: words from a small vocabulary (long matches, skewed literals).
pub fn text_like(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let words = ["tile ", "mip ", "stream ", "zlib ", "block ", "64KiB ", "feedback ", "\n"];
    let mut v = Vec::with_capacity(len + 16);
    while v.len() < len {
        v.extend_from_slice(words[rng.gen_range(0..words.len())].as_bytes());
    }
    v.truncate(len);
    v
}

/// Reference Adler-32 (RFC 1950 §9), written from the RFC so no decoder grades itself.
pub fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65_521;
        b = (b + a) % 65_521;
    }
    b << 16 | a
}

#[test]
fn reference_adler_matches_rfc_example() {
    // "Wikipedia" is the standard worked example: 0x11E60398.
    assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    assert_eq!(adler32(&[]), 1);
}
