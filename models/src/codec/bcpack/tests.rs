//! Round trips and hostile-input tests across all modes.

use super::*;
use proptest::prelude::*;

fn round_trip(mode: BcpackMode, blocks: &[u8]) -> Vec<u8> {
    let packed = encode(mode, blocks).unwrap();
    let back = decode(&packed, blocks.len()).unwrap();
    assert_eq!(back, blocks, "{mode:?} round trip");
    packed
}

#[test]
fn empty_and_tiny_units_round_trip() {
    for mode in BcpackMode::ALL {
        round_trip(mode, &[]);
        round_trip(mode, &vec![0xA5; mode.block_bytes()]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn random_blocks_round_trip(mode in 1u32..=7, blocks in 0usize..300, seed in any::<u64>()) {
        let mode = BcpackMode::from_raw(mode).unwrap();
        let mut x = seed | 1;
        let data: Vec<u8> = (0..blocks * mode.block_bytes()).map(|_| { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x as u8 }).collect();
        round_trip(mode, &data);
    }
}
