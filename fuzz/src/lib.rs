//! Shared helpers of the fuzz targets: a byte reader that never fails (an exhausted input
//! reads as zeros) and the input layouts of the targets that build a structured input
//! (a BCPack header, an MDU request) from the fuzzer's bytes.
//!
//! The layouts are documented here because `seedgen` writes seeds in them.

use sfsim_models::codec::bcpack::{self, BcpackError, BcpackMode, Method};
use sfsim_models::mdu::MduRequest;
use sfsim_models::nvme::RequestOptions;

/// Reads little-endian integers off the front of the fuzzer's input.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// Up to `n` bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// Most blocks a BCPack decoder target decodes: the modelled decoders run every block
/// whatever the input (an overrun reads zeros and is refused at the end), so this keeps an
/// execution in microseconds. 32 blocks with rows of 1..=40 blocks still cover the
/// neighbour prediction across rows, partial last rows and single-row units.
pub const BCPACK_MAX_BLOCKS: u32 = 32;
/// Widest row a BCPack decoder target uses (more than [`BCPACK_MAX_BLOCKS`]: a unit
/// narrower than its row).
pub const BCPACK_MAX_ROW: u32 = 40;

/// Streams the header of `mode` and `method` must list, as the header parser says.
pub fn bcpack_stream_count(mode: BcpackMode, method: Method) -> usize {
    let probe = [bcpack::FORMAT_VERSION, mode as u8, method as u8, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    match bcpack::Header::read(&probe) {
        Err(BcpackError::StreamCount { expected, .. }) => expected,
        other => panic!("probe header for {mode:?} {method:?}: {other:?}"),
    }
}

/// The BCPack decoder targets' input → a BCPack stream of `mode` and `method` with a valid
/// header around fuzzed payloads, and its output length:
///
/// ```text
/// u8 row_blocks - 1 (mod 40), u8 block count (mod 33), u32 Adler-32,
/// (streams - 1) × u16 stream length (clamped to what is left), then the payloads
/// (the last stream takes the rest)
/// ```
pub fn bcpack_stream(mode: BcpackMode, method: Method, data: &[u8]) -> (Vec<u8>, usize) {
    let streams = bcpack_stream_count(mode, method);
    let mut b = Bytes(data);
    let row = u32::from(b.u8()) % BCPACK_MAX_ROW + 1;
    let blocks = u32::from(b.u8()) % (BCPACK_MAX_BLOCKS + 1);
    let checksum = b.u32();
    let mut lens: Vec<usize> = (0..streams - 1).map(|_| usize::from(b.u16())).collect();
    let payload = b.rest();
    let mut left = payload.len();
    for len in &mut lens {
        *len = (*len).min(left);
        left -= *len;
    }
    lens.push(left);
    let mut out = vec![bcpack::FORMAT_VERSION, mode as u8, method as u8, streams as u8];
    out.extend_from_slice(&(row as u16).to_le_bytes());
    out.extend_from_slice(&blocks.to_le_bytes());
    out.extend_from_slice(&checksum.to_le_bytes());
    for len in &lens {
        out.extend_from_slice(&(*len as u32).to_le_bytes());
    }
    out.extend_from_slice(payload);
    (out, blocks as usize * mode.block_bytes())
}

/// The inverse of [`bcpack_stream`] for a real stream (seeds): its header rewritten as the
/// target's prefix. `None` when the stream does not fit the target's limits.
pub fn bcpack_seed(stream: &[u8]) -> Option<Vec<u8>> {
    let h = bcpack::Header::read(stream).ok()?;
    if h.block_count > BCPACK_MAX_BLOCKS || h.row_blocks > BCPACK_MAX_ROW {
        return None;
    }
    let lens = h.stream_lens();
    let mut out = vec![(h.row_blocks - 1) as u8, h.block_count as u8];
    out.extend_from_slice(&h.checksum.to_le_bytes());
    for &len in &lens[..lens.len() - 1] {
        out.extend_from_slice(&u16::try_from(len).ok()?.to_le_bytes());
    }
    out.extend_from_slice(&stream[h.len()..]);
    Some(out)
}

/// Runs one BCPack decoder on the fuzzer's input; what `decode_into` accepts, `decode`
/// returns the same, with the header's mode and method.
pub fn fuzz_bcpack(mode: BcpackMode, method: Method, data: &[u8]) {
    let (stream, expected) = bcpack_stream(mode, method, data);
    let mut dst = vec![0u8; expected];
    if let Ok(header) = bcpack::decode_into(&stream, &mut dst) {
        assert_eq!((header.mode, header.method), (mode, method));
        assert_eq!(bcpack::decode(&stream, expected).expect("decode refused what decode_into accepted"), dst);
    }
}

/// Largest destination or intermediate size the MDU target declares (256 KiB, four tiles):
/// the point is hostile bytes, not a caller asking for a 1 GiB buffer.
pub const MDU_MAX_SIZE: u64 = 256 << 10;

/// The MDU target's input → a request and its source bytes:
///
/// ```text
/// u8 flags (bit 0 zlib), u8 bcpack_mode (mod 9), u8 swizzle_mode (mod 8),
/// u8 block_bytes selector (0 → 8, 1 → 16, else the byte itself),
/// u32 intermediate size (mod 256 KiB + 1), u32 destination size (mod 256 KiB + 1), source
/// ```
pub fn mdu_request(data: &[u8]) -> (MduRequest, &[u8]) {
    let mut b = Bytes(data);
    let zlib = b.u8() & 1 == 1;
    let bcpack_mode = u32::from(b.u8() % 9);
    let swizzle_mode = u32::from(b.u8() % 8);
    let block_bytes = match b.u8() {
        0 => 8,
        1 => 16,
        x => u32::from(x),
    };
    let intermediate_size = u64::from(b.u32()) % (MDU_MAX_SIZE + 1);
    let destination_size = u64::from(b.u32()) % (MDU_MAX_SIZE + 1);
    let request = MduRequest {
        options: RequestOptions { zlib, bcpack_mode, swizzle_mode },
        intermediate_size,
        destination_size,
        block_bytes,
    };
    (request, b.rest())
}

/// The inverse of [`mdu_request`] (seeds).
pub fn mdu_seed(request: &MduRequest, src: &[u8]) -> Vec<u8> {
    let mut out = vec![
        request.options.zlib as u8,
        request.options.bcpack_mode as u8,
        request.options.swizzle_mode as u8,
        match request.block_bytes {
            8 => 0,
            16 => 1,
            x => x as u8,
        },
    ];
    out.extend_from_slice(&(request.intermediate_size as u32).to_le_bytes());
    out.extend_from_slice(&(request.destination_size as u32).to_le_bytes());
    out.extend_from_slice(src);
    out
}

/// The zlib target's input: u32 declared size (mod 128 KiB + 1), then the stream.
pub const ZLIB_MAX_DECLARED: u32 = 128 << 10;

/// The swizzle target's input:
///
/// ```text
/// u8 mode (mod 8: 0..=6 are modes, 7 is not), u8 block_bytes selector (0 → 8, 1 → 16,
/// else the byte), u8 length selector, u16 length, then the content (repeated to length)
/// ```
///
/// Length selector bits 0 and 1 not both set: the length is the u16 (mod 8193); both set:
/// one whole 64 KiB unit (selector bit 2: two) plus the u16 (mod 4097) bytes, so the
/// Morton layouts' whole-tile paths and a shuffle's short trailing unit are reached.
pub fn swizzle_input(data: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut b = Bytes(data);
    let mode = u32::from(b.u8() % 8);
    let block_bytes = match b.u8() {
        0 => 8,
        1 => 16,
        x => u32::from(x),
    };
    let sel = b.u8();
    let n = usize::from(b.u16());
    let len = if sel & 3 != 3 { n % 8193 } else { (1 + usize::from(sel >> 2 & 1)) * 65_536 + n % 4097 };
    let content = b.rest();
    let mut bytes = Vec::with_capacity(len);
    if content.is_empty() {
        bytes.resize(len, 0);
    }
    while bytes.len() < len {
        let n = content.len().min(len - bytes.len());
        bytes.extend_from_slice(&content[..n]);
    }
    (mode, block_bytes, bytes)
}

/// The repository root (the fuzz crate sits in `fuzz/`): parsers that resolve paths
/// relative to their file are given a file name inside it.
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A camera path's poses at times and frames a run could ask for, and some it should not
/// (negative, non-finite, huge): the `CameraPath` contract is a valid pose for each.
pub fn poses(path: &dyn sfsim::camera::CameraPath) {
    let _ = path.duration();
    for (t, frame) in
        [(0.0, 0), (0.5, 1), (1.0 / 60.0, 7), (-1.0, 0), (1e12, u64::MAX), (f64::NAN, 3), (f64::INFINITY, 1 << 40)]
    {
        let pose = path.pose_at(t, frame);
        let _ = (pose.forward(), pose.up(), pose.right());
    }
}
