//! The container's bytes: header and stream-table layout, and writing them
//! (docs/container.md is the normative description; this file implements version 1 of it,
//! and `format_parse.rs` reads it back with every field checked).

pub use super::format_parse::parse;
use super::hash::Fnv64;
use sfsim_models::codec::bcpack::BcpackMode;
use sfsim_models::nvme::{RequestOptions, STREAM_ALIGNMENT};
use sfsim_models::texture::{BcFormat, TextureDesc, TileCoord, TileMode};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"SFSIMTEX";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Header bytes (version 1).
pub const HEADER_BYTES: usize = 64;
/// Bytes of one stream-table entry (version 1); a multiple of 16 so entries stay aligned.
pub const ENTRY_BYTES: usize = 48;
/// Where the table hash sits in the header; the hash covers every header byte before it.
pub(super) const TABLE_HASH_AT: usize = 56;

pub(super) const FLAG_SRGB: u8 = 1;
pub(super) const ENTRY_RESIDENT: u8 = 1;
pub(super) const ENTRY_TILE: u8 = 2;

/// The header's fields (see docs/container.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub desc: TextureDesc,
    pub tile_mode: TileMode,
    /// Streamable mips (`--mipstreams`).
    pub mip_streams: u32,
    /// Colour channels are sRGB-encoded (the DXGI `_SRGB` format variant).
    pub srgb: bool,
    pub stream_count: u32,
    /// Offset of the data section from the start of the file.
    pub data_offset: u64,
    /// Bytes of the data section (streams and their alignment padding).
    pub data_bytes: u64,
    /// Sum of every stream's `UncompressedSize`: the texture's layout bytes.
    pub layout_bytes: u64,
}

/// One stream-table entry: where the stream is, what the MDU does with it, what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamEntry {
    /// Offset of the stream from the start of the data section; a multiple of 16.
    pub relative_offset: u64,
    /// Bytes stored in the file.
    pub compressed_size: u32,
    /// Bytes after the zlib stage (= `compressed_size` when zlib is not applied).
    pub inflated_size: u32,
    /// Bytes after BCPack (= `inflated_size` when BCPack is not applied): what lands in
    /// memory; 64 KiB for an SFS tile.
    pub uncompressed_size: u32,
    pub options: RequestOptions,
    /// Offset of the stream's bytes in the texture's layout (see `PackRegions`).
    pub layout_offset: u64,
    /// FNV-1a 64 of the uncompressed bytes.
    pub hash: u64,
    /// Mips the stream holds bytes of: `first_mip..first_mip + mip_count`.
    pub first_mip: u32,
    pub mip_count: u32,
    /// Loaded at texture creation and never evicted.
    pub resident: bool,
    /// The SFS tile this stream is, if it is one.
    pub tile: Option<TileCoord>,
}

impl StreamEntry {
    /// True when the data section holds nothing but the bytes themselves.
    pub fn is_raw(&self) -> bool {
        !self.options.zlib && self.options.bcpack_mode == 0
    }
}

pub fn format_code(format: BcFormat) -> u8 {
    BcpackMode::from_format(format) as u8
}

/// `n` rounded up to the stream alignment (16 B).
pub fn align(n: u64) -> u64 {
    n.div_ceil(STREAM_ALIGNMENT) * STREAM_ALIGNMENT
}

/// Data-section offset for `streams` entries (always 16-aligned since entries are 48 B).
pub fn data_offset(streams: usize) -> u64 {
    align((HEADER_BYTES + streams * ENTRY_BYTES) as u64)
}

/// Serialises a header and its stream table (`64 + 48 × entries` bytes, the table hash
/// filled in): the start of a container, or one member block of a set container.
pub fn write_block(header: &Header, entries: &[StreamEntry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + entries.len() * ENTRY_BYTES);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(HEADER_BYTES as u16).to_le_bytes());
    out.extend_from_slice(&(ENTRY_BYTES as u16).to_le_bytes());
    out.push(format_code(header.desc.format));
    out.push(header.tile_mode.code());
    out.extend_from_slice(&header.desc.width.to_le_bytes());
    out.extend_from_slice(&header.desc.height.to_le_bytes());
    out.push(header.desc.mip_levels as u8);
    out.push(header.mip_streams as u8);
    out.push(if header.srgb { FLAG_SRGB } else { 0 });
    out.push(0);
    out.extend_from_slice(&header.stream_count.to_le_bytes());
    out.extend_from_slice(&header.data_offset.to_le_bytes());
    out.extend_from_slice(&header.data_bytes.to_le_bytes());
    out.extend_from_slice(&header.layout_bytes.to_le_bytes());
    debug_assert_eq!(out.len(), TABLE_HASH_AT);
    out.extend_from_slice(&[0; 8]);
    for e in entries {
        out.extend_from_slice(&e.relative_offset.to_le_bytes());
        out.extend_from_slice(&e.compressed_size.to_le_bytes());
        out.extend_from_slice(&e.inflated_size.to_le_bytes());
        out.extend_from_slice(&e.uncompressed_size.to_le_bytes());
        out.push(u8::from(e.options.zlib));
        out.push(e.options.bcpack_mode as u8);
        out.extend_from_slice(&(e.options.swizzle_mode as u16).to_le_bytes());
        out.extend_from_slice(&e.layout_offset.to_le_bytes());
        out.extend_from_slice(&e.hash.to_le_bytes());
        out.push(e.first_mip as u8);
        out.push(e.mip_count as u8);
        let flags = if e.resident { ENTRY_RESIDENT } else { 0 } | if e.tile.is_some() { ENTRY_TILE } else { 0 };
        out.push(flags);
        out.push(0);
        let (x, y) = e.tile.map_or((0, 0), |t| (t.x as u16, t.y as u16));
        out.extend_from_slice(&x.to_le_bytes());
        out.extend_from_slice(&y.to_le_bytes());
    }
    let hash = table_hash(&out);
    out[TABLE_HASH_AT..TABLE_HASH_AT + 8].copy_from_slice(&hash.to_le_bytes());
    out
}

/// Serialises a whole container: header, table, then each stream at its entry's offset,
/// zero-padded to 16 bytes. `entries[i].relative_offset` must already be set (see
/// [`place_streams`]).
pub fn write(header: &Header, entries: &[StreamEntry], streams: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity((header.data_offset + header.data_bytes) as usize);
    out.extend_from_slice(&write_block(header, entries));
    out.resize(header.data_offset as usize, 0);
    for (e, s) in entries.iter().zip(streams) {
        out.resize((header.data_offset + e.relative_offset) as usize, 0);
        out.extend_from_slice(s);
    }
    out.resize((header.data_offset + header.data_bytes) as usize, 0);
    out
}

/// Gives each entry its 16-aligned offset, in table order, and returns the data bytes.
pub fn place_streams(entries: &mut [StreamEntry]) -> u64 {
    let mut at = 0;
    for e in entries {
        e.relative_offset = at;
        at = align(at + u64::from(e.compressed_size));
    }
    at
}

/// The table hash of `bytes` = header (hash field zeroed) followed by the table.
pub fn table_hash(bytes: &[u8]) -> u64 {
    hash_skipping(bytes, TABLE_HASH_AT)
}

/// FNV-1a 64 of `bytes` with the eight bytes at `at` (the hash field itself) read as zero.
pub(super) fn hash_skipping(bytes: &[u8], at: usize) -> u64 {
    let mut h = Fnv64::default();
    h.update(&bytes[..at]);
    h.update(&[0; 8]);
    h.update(&bytes[at + 8..]);
    h.finish()
}
