//! Property tests: any data round-trips through every encoder; random and damaged streams
//! never panic, and whatever they decode to has the declared length.

use super::data::bc_like;
use crate::codec::zlib::{deflate, inflate, Encoder, Inflater, ZlibError};
use proptest::prelude::*;

fn encoder() -> impl Strategy<Value = Encoder> {
    prop_oneof![
        (0u32..=9).prop_map(|l| Encoder::zlib(l).unwrap()),
        (1u32..=12).prop_map(|l| Encoder::libdeflate(l).unwrap()),
        Just(Encoder::zopfli(1).unwrap()),
    ]
}

/// Random bytes with some structure, so that both compressible and incompressible
/// inputs occur.
fn data() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..3000),
        proptest::collection::vec(0u8..4, 0..6000),
        (1usize..700, any::<u64>()).prop_map(|(blocks, seed)| bc_like(blocks, seed)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn round_trip(data in data(), enc in encoder()) {
        let s = deflate(&data, enc);
        match inflate(&s, data.len()) {
            Ok(out) => prop_assert!(out == data),
            Err(ZlibError::NotSmaller { .. }) => prop_assert!(s.len() >= data.len()),
            Err(e) => prop_assert!(false, "{enc}: {e}"),
        }
    }

    #[test]
    fn random_bytes_never_panic(src in proptest::collection::vec(any::<u8>(), 0..2000), declared in 0usize..8192) {
        let _ = inflate(&src, declared);
    }

    #[test]
    fn random_bodies_behind_a_valid_header_never_panic(
        body in proptest::collection::vec(any::<u8>(), 0..2000), declared in 0usize..8192,
    ) {
        let mut src = vec![0x78, 0x9c];
        src.extend(body);
        let _ = Inflater::new().inflate(&src, declared);
    }

    #[test]
    fn mutated_streams_never_panic(
        seed in any::<u64>(), flips in proptest::collection::vec(any::<usize>(), 1..6), enc in encoder(),
    ) {
        let data = bc_like(400, seed);
        let mut s = deflate(&data, enc);
        for f in flips {
            let bit = f % (s.len() * 8);
            s[bit / 8] ^= 1 << (bit % 8);
        }
        // A surviving stream decodes to the declared length (by construction of the API);
        // the Adler-32 makes that rare, but not impossible.
        if let Ok(out) = inflate(&s, data.len()) {
            prop_assert_eq!(out.len(), data.len());
        }
    }

    #[test]
    fn truncated_or_extended_streams_are_always_refused(
        seed in any::<u64>(), cut in 1usize..200, extra in proptest::collection::vec(any::<u8>(), 1..8),
    ) {
        let data = bc_like(400, seed);
        let s = deflate(&data, Encoder::ZLIB_BEST);
        let cut = cut.min(s.len());
        prop_assert!(inflate(&s[..s.len() - cut], data.len()).is_err());
        let mut longer = s.clone();
        longer.extend(&extra);
        let refused = matches!(
            inflate(&longer, data.len()),
            Err(ZlibError::TrailingBytes { .. } | ZlibError::NotSmaller { .. })
        );
        prop_assert!(refused);
    }
}
