//! BCPack's whole decoder on raw bytes: header parsing (version, mode, method, stream
//! table) and whichever decoder the header names, stored method included. The expected
//! length is the header's own when it declares at most 32 blocks (else 32 blocks' worth,
//! which the length check refuses), so decoding stays fast.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_fuzz::BCPACK_MAX_BLOCKS;
use sfsim_models::codec::bcpack::{decode, decode_into, Header};

fuzz_target!(|data: &[u8]| {
    let expected = match Header::read(data) {
        Ok(h) if h.block_count <= BCPACK_MAX_BLOCKS => h.output_bytes() as usize,
        Ok(h) => BCPACK_MAX_BLOCKS as usize * h.mode.block_bytes(),
        Err(_) => 0,
    };
    let mut dst = vec![0u8; expected];
    if decode_into(data, &mut dst).is_ok() {
        assert_eq!(decode(data, expected).expect("decode refused what decode_into accepted"), dst);
    }
});
