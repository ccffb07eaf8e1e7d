//! Streams written bit by bit from RFC 1951 (tests/writer.rs), so the decoder is checked
//! against the format itself, not against another library.

use super::data::{bc_like, text_like};
use super::writer::{dynamic_block, fixed_block, lz77, stored_block, zlib_wrap, BitWriter, Sym};
use crate::codec::zlib::{inflate, Inflated, ZlibError};

#[test]
fn stored_block_stream() {
    let data = bc_like(600, 1);
    let mut w = BitWriter::default();
    // Two stored blocks so the stream is longer than the data: the MDU must refuse it.
    stored_block(&mut w, &data[..2000], false);
    stored_block(&mut w, &data[2000..], true);
    let stream = zlib_wrap(&w.finish(), &data);
    assert_eq!(stream.len(), data.len() + 2 + 5 + 5 + 4);
    assert_eq!(
        inflate(&stream, data.len()),
        Err(ZlibError::NotSmaller { compressed: stream.len() as u64, declared: data.len() as u64 })
    );
    // The same data as a stored block followed by fixed-Huffman runs of 4000 zeros: now
    // the stream is smaller than its output and must decode exactly.
    let mut data2 = data.clone();
    data2.extend(std::iter::repeat_n(0u8, 4000));
    let mut w = BitWriter::default();
    stored_block(&mut w, &data, false);
    fixed_block(&mut w, &[Sym::Lit(0), Sym::Copy { len: 258, dist: 1 }], false);
    let mut syms = Vec::new();
    let mut left = 4000 - 259;
    while left > 0 {
        let len = left.min(258);
        if len >= 3 {
            syms.push(Sym::Copy { len: len as u16, dist: 1 });
        } else {
            syms.extend(std::iter::repeat_n(Sym::Lit(0), len));
        }
        left -= len;
    }
    fixed_block(&mut w, &syms, true);
    let stream = zlib_wrap(&w.finish(), &data2);
    assert!(stream.len() < data2.len());
    assert_eq!(inflate(&stream, data2.len()).unwrap(), data2);
}

#[test]
fn fixed_huffman_stream() {
    let data = text_like(5000, 2);
    let mut w = BitWriter::default();
    fixed_block(&mut w, &lz77(&data, 0, 4096), true);
    let stream = zlib_wrap(&w.finish(), &data);
    assert!(stream.len() < data.len() / 2, "{} B", stream.len());
    assert_eq!(inflate(&stream, data.len()).unwrap(), data);
}

#[test]
fn dynamic_huffman_stream() {
    let data = text_like(6000, 3);
    let mut w = BitWriter::default();
    dynamic_block(&mut w, &lz77(&data, 0, 4096), true);
    let stream = zlib_wrap(&w.finish(), &data);
    assert!(stream.len() < data.len() / 3, "{} B", stream.len());
    assert_eq!(inflate(&stream, data.len()).unwrap(), data);
}

#[test]
fn dynamic_huffman_with_literals_only_and_skewed_codes() {
    // No matches at all (one-sided distance code) and a very skewed literal distribution.
    let data: Vec<u8> = (0..3000u32).map(|i| if i % 17 == 0 { (i / 17) as u8 } else { b'a' }).collect();
    let syms: Vec<Sym> = data.iter().map(|&b| Sym::Lit(b)).collect();
    let mut w = BitWriter::default();
    dynamic_block(&mut w, &syms, true);
    let stream = zlib_wrap(&w.finish(), &data);
    assert_eq!(inflate(&stream, data.len()).unwrap(), data);
}

/// Stored, fixed and dynamic blocks in one stream, with matches that reach back across
/// block boundaries and as far as the full 32 KiB window.
#[test]
fn multi_block_stream_mixing_all_three_types_and_the_full_window() {
    let mut data = bc_like(4200, 4); // 33 600 B of BC-like history
    let far = data[..300].to_vec();
    data.extend_from_slice(&far); // a 300-byte match at distance 33 600 > 32 KiB: too far,
    let at = data.len();
    let exact = data[at - 32_768..at - 32_768 + 258].to_vec();
    data.extend_from_slice(&exact); // ... but this one is exactly 32 768 back
    data.extend(text_like(3000, 5));

    let mut w = BitWriter::default();
    stored_block(&mut w, &data[..20_000], false);
    let b2_end = 33_600;
    fixed_block(&mut w, &lz77(&data[..b2_end], 20_000, 64), false);
    // The far copy as literals (beyond the window), then one exact 32 KiB-distance match.
    let mut syms: Vec<Sym> = data[b2_end..at].iter().map(|&b| Sym::Lit(b)).collect();
    syms.push(Sym::Copy { len: 258, dist: 32_768 });
    let tail = lz77(&data[..], at + 258, 8192);
    syms.extend(tail);
    dynamic_block(&mut w, &syms, true);
    let stream = zlib_wrap(&w.finish(), &data);
    assert!(stream.len() < data.len());
    assert_eq!(inflate(&stream, data.len()).unwrap(), data);
}

#[test]
fn a_distance_beyond_the_output_so_far_is_invalid_not_a_panic() {
    let mut w = BitWriter::default();
    fixed_block(&mut w, &[Sym::Lit(1), Sym::Lit(2), Sym::Copy { len: 200, dist: 3 }], true);
    let mut data = vec![1u8, 2];
    data.extend(std::iter::repeat_n(0u8, 200));
    let stream = zlib_wrap(&w.finish(), &data);
    assert!(
        matches!(inflate(&stream, data.len()), Err(ZlibError::InvalidDeflate { .. })),
        "{:?}",
        inflate(&stream, data.len())
    );
}

#[test]
fn reserved_block_type_is_invalid_deflate() {
    let mut w = BitWriter::default();
    w.bits(1, 1);
    w.bits(3, 2); // BTYPE 11: reserved
    w.bits(0, 13);
    let stream = zlib_wrap(&w.finish(), &[0u8; 100]);
    let err = inflate(&stream, 100).unwrap_err();
    assert!(matches!(err, ZlibError::InvalidDeflate { offset: 2..=3, inflated: 0, .. }), "{err}");
}

/// A 220 KB stream that inflates to 33 MiB: the MDU stops one byte past its 32 MiB limit
/// and reports the output as "at least" that long.
#[test]
fn a_stream_past_the_32_mib_limit_is_reported_without_inflating_it_all() {
    let total = 33 << 20;
    let mut syms = vec![Sym::Lit(0)];
    let mut left = total - 1;
    while left > 0 {
        let len = if left >= 258 + 3 || left == 258 {
            258
        } else if left > 258 {
            left - 3
        } else {
            left
        };
        if len >= 3 {
            syms.push(Sym::Copy { len: len as u16, dist: 1 });
        } else {
            syms.extend(std::iter::repeat_n(Sym::Lit(0), len));
        }
        left -= len;
    }
    let mut w = BitWriter::default();
    fixed_block(&mut w, &syms, true);
    let deflate = w.finish();
    let stream = zlib_wrap(&deflate, &[]); // wrong Adler-32, never reached
    let declared = 1 << 20;
    let err = inflate(&stream, declared).unwrap_err();
    assert_eq!(
        err,
        ZlibError::OutputTooLong { declared: declared as u64, actual: Inflated::AtLeast((32 << 20) + 1) },
        "{err}"
    );
    assert!(err.to_string().contains("at least 33554433 B"), "{err}");
}
