//! The enqueue-time rules, one error per rule.

use super::*;

fn zlib_request(src: u64, dst: u64) -> Request {
    Request {
        source: Source::File { offset: 0 },
        source_size: Bytes(src),
        intermediate_size: Bytes(0),
        destination_size: Bytes(dst),
        options: RequestOptions { zlib: true, ..Default::default() },
        fill: false,
    }
}

#[test]
fn valid_requests_pass() {
    zlib_request(32 * 1024, 64 * 1024).validate().unwrap();
    let mut both = zlib_request(30_000, 65_536);
    both.options.bcpack_mode = 1;
    both.intermediate_size = Bytes(50_000);
    both.validate().unwrap();
    let copy = Request { options: RequestOptions::default(), ..zlib_request(4096, 4096) };
    copy.validate().unwrap();
}

#[test]
fn each_rule_has_its_own_error() {
    let mut r = zlib_request(32, 64);
    r.source = Source::File { offset: 70_000 + 8 };
    assert_eq!(r.validate(), Err(RequestError::MisalignedOffset { offset: 70_008 }));

    let r = zlib_request(600 << 20, 600 << 20);
    assert!(matches!(r.validate(), Err(RequestError::TooLarge { .. })));

    // A plain read of 768 MiB is valid (1 GiB counts source + destination only for
    // decompression requests); one over 1 GiB is not.
    let read = |size: u64| Request { options: RequestOptions::default(), ..zlib_request(size, size) };
    read(768 << 20).validate().unwrap();
    read(1 << 30).validate().unwrap();
    assert_eq!(read((1 << 30) + 16).validate(), Err(RequestError::ReadTooLarge { size: Bytes((1 << 30) + 16) }));

    let r = zlib_request(64, 64);
    assert!(matches!(r.validate(), Err(RequestError::NotSmaller { .. })));

    let r = zlib_request(1 << 20, 33 << 20);
    assert!(matches!(r.validate(), Err(RequestError::ZlibOutputTooLarge { .. })));

    let mut r = zlib_request(100, 400);
    r.options.bcpack_mode = 1;
    assert_eq!(r.validate(), Err(RequestError::IntermediateSizeMissing));
    r.intermediate_size = Bytes(500);
    assert!(matches!(r.validate(), Err(RequestError::IntermediateSizeOutOfRange { .. })));

    let mut r = zlib_request(100, 400);
    r.intermediate_size = Bytes(200);
    assert!(matches!(r.validate(), Err(RequestError::IntermediateSizeUnexpected { .. })));

    let mut r = zlib_request(100, 400);
    r.options.bcpack_mode = 8;
    assert_eq!(r.validate(), Err(RequestError::BcpackModeOutOfRange { mode: 8 }));

    let mut r = zlib_request(100, 400);
    r.options.swizzle_mode = 70_000;
    assert_eq!(r.validate(), Err(RequestError::SwizzleModeOutOfRange { mode: 70_000 }));

    let r = Request { options: RequestOptions::default(), ..zlib_request(100, 400) };
    assert!(matches!(r.validate(), Err(RequestError::SizeMismatch { .. })));

    let r = zlib_request(0, 400);
    assert!(matches!(r.validate(), Err(RequestError::Empty { .. })));
}

#[test]
fn error_messages_name_the_values() {
    let mut r = zlib_request(32, 64);
    r.source = Source::File { offset: 70_000 + 8 };
    let msg = r.validate().unwrap_err().to_string();
    assert!(msg.contains("70008") && msg.contains("16-byte"), "{msg}");
}

#[test]
fn split_at_512k_keeps_exact_totals() {
    let r = zlib_request(520 * 1024, 1040 * 1024);
    let pieces = r.split(Bytes::kib(512));
    assert_eq!(pieces.len(), 2);
    assert_eq!(pieces[0].source_bytes, Bytes::kib(512));
    assert_eq!(pieces[1].source_bytes, Bytes::kib(8));
    let dst: u64 = pieces.iter().map(|p| p.destination_bytes.0).sum();
    assert_eq!(dst, 1040 * 1024);
    assert_eq!(pieces[1].source_offset, 512 * 1024);
    assert_eq!(zlib_request(512 * 1024, 1 << 20).split(Bytes::kib(512)).len(), 1);
}

#[test]
fn split_shares_the_intermediate_like_the_destination() {
    let r = Request {
        source: Source::File { offset: 0 },
        source_size: Bytes(3 << 20),
        intermediate_size: Bytes(5 << 20),
        destination_size: Bytes(8 << 20),
        options: RequestOptions { zlib: true, bcpack_mode: 7, swizzle_mode: 0 },
        fill: false,
    };
    let pieces = r.split(Bytes::kib(512));
    assert_eq!(pieces.len(), 6);
    assert!(pieces.iter().all(|p| p.intermediate_bytes.0.abs_diff((5 << 20) / 6) <= 1));
    let mid: u64 = pieces.iter().map(|p| p.intermediate_bytes.0).sum();
    assert_eq!(mid, 5 << 20);
}
