//! The set container (docs/container.md, "Set container", version 1): a texture set's three
//! member containers — diffuse, normal, specular — in one file. Each member keeps its
//! version 1 header and stream table (checked by the same parser as a container's), and all
//! their streams share ONE data section, interleaved by tile position: every member-0 tile
//! is followed by the members 1 and 2 tiles that are its companions, so the tiles a
//! shared-per-set feedback policy loads together are adjacent in the file and a drive can
//! serve them as one read.
//!
//! The placement is a pure function of the three tables ([`interleave`]); the writer uses it
//! to lay the data out and the reader recomputes it and refuses any stream that is not where
//! it says, so a valid set file holds every stream exactly once, 16-byte aligned, with no gaps
//! beyond the alignment padding.

use super::error::{ContainerError, PackError};
use super::format::{data_offset, hash_skipping, Header, StreamEntry};
use super::reader::Container;
use super::set_layout::{interleave, placement};
use super::PackedTexture;
use sfsim_models::texture::TextureDesc;

/// A set container's first eight bytes.
pub const SET_MAGIC: [u8; 8] = *b"SFSIMSET";
/// The set format version this code writes and reads.
pub const SET_VERSION: u16 = 1;
/// Set header bytes (version 1).
pub const SET_HEADER_BYTES: usize = 64;
/// Members of a set: diffuse, normal, specular.
pub const SET_MEMBERS: usize = 3;
/// What each member is, by index (the scene's texture order within a set).
pub const MEMBER_KINDS: [&str; SET_MEMBERS] = ["diffuse", "normal", "specular"];
/// The set header's `layout` code: streams interleaved by tile position, resident last.
pub const LAYOUT_INTERLEAVED: u8 = 1;
/// Where the set hash sits in the set header.
pub(super) const SET_HASH_AT: usize = 56;

/// The set header's fields (see docs/container.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetHeader {
    /// Offset of the shared data section from the start of the file.
    pub data_offset: u64,
    /// Bytes of the shared data section.
    pub data_bytes: u64,
    /// Where each member's header (and then its table) starts.
    pub member_offsets: [u64; SET_MEMBERS],
}

/// A stream of a set: (member, stream index in that member's table).
pub type Slot = (usize, usize);

/// Writes the set container of `members` (diffuse, normal, specular): their streams
/// re-placed by [`interleave`], their headers pointing at the shared data section.
pub fn write_set(members: &[&Container; SET_MEMBERS]) -> Result<Vec<u8>, ContainerError> {
    let views: Vec<(TextureDesc, &[StreamEntry])> = members.iter().map(|c| (c.header().desc, c.entries())).collect();
    let order = interleave(&views);
    let (offsets, data_bytes) = placement(&views, &order);
    let mut member_offsets = [0u64; SET_MEMBERS];
    let mut at = SET_HEADER_BYTES as u64;
    for (k, c) in members.iter().enumerate() {
        member_offsets[k] = at;
        at += data_offset(c.stream_count());
    }
    let header = SetHeader { data_offset: at, data_bytes, member_offsets };
    let mut out = Vec::with_capacity((header.data_offset + data_bytes) as usize);
    out.extend_from_slice(&SET_MAGIC);
    out.extend_from_slice(&SET_VERSION.to_le_bytes());
    out.extend_from_slice(&(SET_HEADER_BYTES as u16).to_le_bytes());
    out.push(SET_MEMBERS as u8);
    out.push(LAYOUT_INTERLEAVED);
    out.extend_from_slice(&[0; 2]);
    out.extend_from_slice(&header.data_offset.to_le_bytes());
    out.extend_from_slice(&header.data_bytes.to_le_bytes());
    for o in member_offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    debug_assert_eq!(out.len(), SET_HASH_AT);
    out.extend_from_slice(&[0; 8]);
    for (k, c) in members.iter().enumerate() {
        let h = Header { data_offset: header.data_offset, data_bytes, ..*c.header() };
        let mut entries = c.entries().to_vec();
        for (e, &o) in entries.iter_mut().zip(&offsets[k]) {
            e.relative_offset = o;
        }
        out.extend_from_slice(&super::format::write_block(&h, &entries));
    }
    debug_assert_eq!(out.len() as u64, header.data_offset);
    let hash = hash_skipping(&out, SET_HASH_AT);
    out[SET_HASH_AT..SET_HASH_AT + 8].copy_from_slice(&hash.to_le_bytes());
    for &(k, j) in &order {
        out.resize((header.data_offset + offsets[k][j]) as usize, 0);
        out.extend_from_slice(members[k].stream(j)?.bytes);
    }
    out.resize((header.data_offset + data_bytes) as usize, 0);
    Ok(out)
}

/// Packs three packed textures (diffuse, normal, specular) into a set container's bytes.
pub fn pack_set(members: &[PackedTexture; SET_MEMBERS]) -> Result<Vec<u8>, PackError> {
    let containers = members
        .iter()
        .enumerate()
        .map(|(k, m)| Container::parse(&format!("member {k} ({})", MEMBER_KINDS[k]), m.container.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(write_set(&[&containers[0], &containers[1], &containers[2]])?)
}
