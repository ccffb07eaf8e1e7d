//! BCPack's whole decoder on raw bytes: header parsing (version, mode, method, stream
//! table) and whichever decoder the header names, stored method included. The first two
//! bytes are the expected output length in blocks of the header's mode (u16 mod 1025);
//! the rest is the stream.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_fuzz::{Bytes, BCPACK_MAX_BLOCKS};
use sfsim_models::codec::bcpack::{decode, decode_into, Header};

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let blocks = usize::from(b.u16()) % (BCPACK_MAX_BLOCKS as usize + 1);
    let src = b.rest();
    let block_bytes = Header::read(src).map(|h| h.mode.block_bytes()).unwrap_or(8);
    let expected = blocks * block_bytes;
    let out = decode(src, expected);
    let mut dst = vec![0u8; expected];
    let into = decode_into(src, &mut dst);
    match (&out, &into) {
        (Ok(out), Ok(_)) => assert_eq!(*out, dst),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("decode and decode_into disagree: {out:?} vs {into:?}"),
    }
});
