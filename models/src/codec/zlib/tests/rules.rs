//! Each MDU rule, broken on purpose, gives its own error with the offending values.

use super::data::{adler32, bc_like};
use crate::codec::zlib::header::with_fcheck;
use crate::codec::zlib::{deflate, inflate, inflate_into, Encoder, Inflated, ZlibError};
use crate::nvme::MAX_ZLIB_OUTPUT;

fn sample() -> (Vec<u8>, Vec<u8>) {
    let data = bc_like(1024, 21);
    let stream = deflate(&data, Encoder::ZLIB_BEST);
    assert!(stream.len() < data.len());
    (data, stream)
}

#[test]
fn exact_declared_length_decodes() {
    let (data, stream) = sample();
    assert_eq!(inflate(&stream, data.len()).unwrap(), data);
    let mut out = vec![0; data.len()];
    inflate_into(&stream, &mut out).unwrap();
    assert_eq!(out, data);
}

#[test]
fn declared_too_long_or_too_short() {
    let (data, stream) = sample();
    let n = data.len() as u64;
    let e = inflate(&stream, data.len() + 1).unwrap_err();
    assert_eq!(e, ZlibError::OutputTooShort { declared: n + 1, actual: n });
    assert_eq!(
        e.to_string(),
        format!("zlib stream inflates to {n} B, fewer than the {} B the request declared", n + 1)
    );
    let e = inflate(&stream, data.len() - 100).unwrap_err();
    assert_eq!(e, ZlibError::OutputTooLong { declared: n - 100, actual: Inflated::Exactly(n) });
    assert_eq!(
        e.to_string(),
        format!("zlib stream inflates to {n} B, more than the {} B the request declared", n - 100)
    );
}

#[test]
fn size_limits_are_checked_before_decoding() {
    let (_, stream) = sample();
    let over = MAX_ZLIB_OUTPUT.0 as usize + 1;
    assert_eq!(inflate(&stream, over), Err(ZlibError::DeclaredTooLarge { declared: over as u64, limit: 32 << 20 }));
    assert_eq!(
        inflate(&stream, stream.len()),
        Err(ZlibError::NotSmaller { compressed: stream.len() as u64, declared: stream.len() as u64 })
    );
    assert_eq!(inflate(&[], 0), Err(ZlibError::NotSmaller { compressed: 0, declared: 0 }));
    assert_eq!(inflate(&[0x78], 10), Err(ZlibError::MissingHeader { len: 1 }));
    // Exactly 32 MiB is allowed.
    let big = vec![3u8; MAX_ZLIB_OUTPUT.0 as usize];
    let s = deflate(&big, Encoder::libdeflate(1).unwrap());
    assert!(inflate(&s, big.len()).unwrap() == big);
}

#[test]
fn bad_adler_names_both_sums() {
    let (data, mut stream) = sample();
    let last = stream.len() - 1;
    stream[last] ^= 0x01;
    let computed = adler32(&data);
    assert_eq!(inflate(&stream, data.len()), Err(ZlibError::BadAdler { stored: computed ^ 1, computed }));
}

#[test]
fn trailing_bytes_after_the_trailer() {
    let (data, mut stream) = sample();
    let len = stream.len() as u64;
    stream.extend_from_slice(&[0, 0, 0]);
    assert_eq!(inflate(&stream, data.len()), Err(ZlibError::TrailingBytes { count: 3, end: len, len: len + 3 }));
    // Even bytes that repeat the Adler-32 are trailing bytes.
    let (_, mut stream) = sample();
    let trailer = stream[stream.len() - 4..].to_vec();
    stream.extend_from_slice(&trailer);
    assert!(matches!(inflate(&stream, data.len()), Err(ZlibError::TrailingBytes { count: 4, .. })));
}

#[test]
fn truncation_inside_deflate_and_inside_the_trailer() {
    let (data, stream) = sample();
    let n = stream.len() as u64;
    for cut in 1..=4u64 {
        let s = &stream[..(n - cut) as usize];
        assert_eq!(
            inflate(s, data.len()),
            Err(ZlibError::TruncatedTrailer { len: n - cut, missing: cut }),
            "cut {cut}"
        );
    }
    let s = &stream[..stream.len() / 2];
    assert!(matches!(inflate(s, data.len()), Err(ZlibError::TruncatedDeflate { .. })), "{:?}", inflate(s, data.len()));
    // Cut inside the Deflate data with the declared size reached exactly at the cut.
    let s = &stream[..stream.len() - 5];
    assert!(
        matches!(inflate(s, data.len()), Err(ZlibError::TruncatedDeflate { .. } | ZlibError::TruncatedTrailer { .. })),
        "{:?}",
        inflate(s, data.len())
    );
}

#[test]
fn header_faults_surface_through_inflate() {
    let (data, stream) = sample();
    let mut s = stream.clone();
    s[1] ^= 1;
    assert!(matches!(inflate(&s, data.len()), Err(ZlibError::BadHeaderCheck { .. })));
    let mut s = stream.clone();
    let h = with_fcheck(s[0], s[1] | 0x20); // FDICT set
    s[..2].copy_from_slice(&h);
    assert!(matches!(inflate(&s, data.len()), Err(ZlibError::PresetDictionary { .. })));
}
