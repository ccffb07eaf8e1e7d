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
use super::format_parse::{parse_block, Check, DataSection, Le};
use super::reader::Container;
use super::PackedTexture;
use sfsim_models::nvme::STREAM_ALIGNMENT;
use sfsim_models::texture::{PackRegions, TextureDesc, TileCoord};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

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
const SET_HASH_AT: usize = 56;

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

/// The tiles of texture `to` that correspond to `tile` of texture `from` (same mip; when the
/// formats' 64 KiB tiles cover different texel rectangles, every `to` tile overlapping it).
/// The same rule as the engine's shared-per-set policy (`engine::analysis::companion_tiles`;
/// a unit test there checks the two agree).
pub fn companion_tiles(from: &TextureDesc, tile: TileCoord, to: &TextureDesc) -> Vec<TileCoord> {
    if tile.mip >= to.first_packed_mip() {
        return Vec::new();
    }
    if from.format.tile_texels() == to.format.tile_texels() {
        return vec![tile];
    }
    let (fw, fh) = from.format.tile_texels();
    let (tw, th) = to.format.tile_texels();
    let info = to.mip(tile.mip);
    let (x0, x1) = (tile.x * fw / tw, ((tile.x + 1) * fw - 1) / tw);
    let (y0, y1) = (tile.y * fh / th, ((tile.y + 1) * fh - 1) / th);
    let mut out = Vec::new();
    for y in y0..=y1.min(info.tiles_y.saturating_sub(1)) {
        for x in x0..=x1.min(info.tiles_x.saturating_sub(1)) {
            out.push(TileCoord { mip: tile.mip, x, y });
        }
    }
    out
}

/// The order of every stream of `members` in the shared data section: each streamable
/// member-0 stream in table order, right after it each other member's companion tiles
/// ([`companion_tiles`]) not placed yet (member 1's, then member 2's); then the other
/// members' streamable streams not placed yet, in table order; then every member's resident
/// streams (member 0's first). Every stream appears exactly once.
pub fn interleave(members: &[(TextureDesc, &[StreamEntry])]) -> Vec<Slot> {
    let mut placed: Vec<Vec<bool>> = members.iter().map(|(_, e)| vec![false; e.len()]).collect();
    let tiles: Vec<HashMap<TileCoord, usize>> = members
        .iter()
        .map(|(_, entries)| {
            entries
                .iter()
                .enumerate()
                .filter(|(_, e)| !e.resident)
                .filter_map(|(i, e)| e.tile.map(|t| (t, i)))
                .collect()
        })
        .collect();
    let mut order = Vec::with_capacity(members.iter().map(|(_, e)| e.len()).sum());
    let Some(((first, lead), rest)) = members.split_first().map(|(f, r)| ((f.0, f.1), r)) else {
        return order;
    };
    for (i, e) in lead.iter().enumerate() {
        if e.resident {
            continue;
        }
        order.push((0, i));
        placed[0][i] = true;
        let Some(tile) = e.tile else { continue };
        for (k, (desc, _)) in rest.iter().enumerate().map(|(k, m)| (k + 1, m)) {
            for c in companion_tiles(&first, tile, desc) {
                if let Some(&j) = tiles[k].get(&c) {
                    if !placed[k][j] {
                        placed[k][j] = true;
                        order.push((k, j));
                    }
                }
            }
        }
    }
    for (k, (_, entries)) in members.iter().enumerate().skip(1) {
        for (j, e) in entries.iter().enumerate() {
            if !e.resident && !placed[k][j] {
                order.push((k, j));
            }
        }
    }
    for (k, (_, entries)) in members.iter().enumerate() {
        order.extend(entries.iter().enumerate().filter(|(_, e)| e.resident).map(|(j, _)| (k, j)));
    }
    order
}

/// Relative offsets of every stream (`[member][stream]`) when `order` is laid out from 0,
/// each stream starting on a 16-byte boundary, and the data section's bytes.
pub fn placement(members: &[(TextureDesc, &[StreamEntry])], order: &[Slot]) -> (Vec<Vec<u64>>, u64) {
    let mut offsets: Vec<Vec<u64>> = members.iter().map(|(_, e)| vec![0; e.len()]).collect();
    let mut at = 0u64;
    for &(k, j) in order {
        offsets[k][j] = at;
        at = super::format::align(at + u64::from(members[k].1[j].compressed_size));
    }
    (offsets, at)
}

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

/// One member as parsed: its header, table and regions.
type Parsed = (Header, Vec<StreamEntry>, PackRegions);

/// Parses and validates a set container's header, the three member headers and tables
/// (every field as a container's, plus the shared data section) and the placement of every
/// stream. Errors name the file, the member, the field, the value and what was expected.
pub fn parse_set(file: &str, bytes: &[u8]) -> Result<(SetHeader, Vec<Parsed>, Vec<Slot>), ContainerError> {
    let check = Check { file, prefix: String::new() };
    if bytes.len() < SET_MAGIC.len() || bytes[..SET_MAGIC.len()] != SET_MAGIC {
        let found: String = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(check.field("magic", format!("0x{found}"), "\"SFSIMSET\" (an sfsim set container)"));
    }
    if bytes.len() < SET_HEADER_BYTES {
        return Err(check.truncated("set header", SET_HEADER_BYTES as u64, bytes.len()));
    }
    let h = Le(&bytes[..SET_HEADER_BYTES]);
    if h.u16(8) != SET_VERSION {
        return Err(check.field("set version", h.u16(8), format!("{SET_VERSION}")));
    }
    if h.u16(10) as usize != SET_HEADER_BYTES {
        return Err(check.field("set header size", h.u16(10), format!("{SET_HEADER_BYTES} for version {SET_VERSION}")));
    }
    if h.u8(12) as usize != SET_MEMBERS {
        return Err(check.field("member count", h.u8(12), format!("{SET_MEMBERS} (diffuse, normal, specular)")));
    }
    if h.u8(13) != LAYOUT_INTERLEAVED {
        return Err(check.field("layout", h.u8(13), format!("{LAYOUT_INTERLEAVED} (interleaved by tile position)")));
    }
    if h.u16(14) != 0 {
        return Err(check.field("reserved set header bytes 14..16", h.u16(14), "0"));
    }
    let (data_off, data_bytes) = (h.u64(16), h.u64(24));
    let len = bytes.len() as u64;
    match data_off.checked_add(data_bytes) {
        Some(end) if end == len => {}
        Some(end) if end > len && data_off <= len => return Err(check.truncated("data section", end, bytes.len())),
        _ if data_off > len => return Err(check.truncated("member tables", data_off, bytes.len())),
        _ => {
            return Err(check.field(
                "data size",
                data_bytes,
                format!("{} (the file's {len} B minus the {data_off} B data offset)", len - data_off),
            ))
        }
    }
    let mut members = Vec::with_capacity(SET_MEMBERS);
    let mut member_offsets = [0u64; SET_MEMBERS];
    let mut expected = SET_HEADER_BYTES as u64;
    for (k, slot) in member_offsets.iter_mut().enumerate() {
        let stored = h.u64(32 + 8 * k);
        let what =
            if k == 0 { "the end of the set header".to_string() } else { format!("where member {} ends", k - 1) };
        if stored != expected {
            return Err(check.field(format!("member {k} offset"), stored, format!("{expected} ({what})")));
        }
        *slot = stored;
        let member = Check { file, prefix: format!("member {k} ") };
        // `expected` ≤ the data offset ≤ the file's length, so it fits in usize.
        let shared = DataSection::Shared { offset: data_off, bytes: data_bytes };
        let parsed = parse_block(&member, bytes, expected as usize, shared)?;
        expected += data_offset(parsed.1.len());
        if expected > data_off {
            return Err(check.field(
                "data offset",
                data_off,
                format!("at least {expected} (where member {k}'s table ends)"),
            ));
        }
        members.push(parsed);
    }
    if data_off != expected {
        return Err(check.field("data offset", data_off, format!("{expected} (where member 2's table ends)")));
    }
    let stored = h.u64(SET_HASH_AT);
    let found = hash_skipping(&bytes[..data_off as usize], SET_HASH_AT);
    if stored != found {
        return Err(ContainerError::TableHash { file: file.to_string(), expected: stored, found });
    }
    let views: Vec<(TextureDesc, &[StreamEntry])> = members.iter().map(|(h, e, _)| (h.desc, e.as_slice())).collect();
    let order = interleave(&views);
    let (offsets, end) = placement(&views, &order);
    let mut previous: Option<Slot> = None;
    for &(k, j) in &order {
        let found = members[k].1[j].relative_offset;
        if found != offsets[k][j] {
            let after = previous.map_or("the start of the data section".to_string(), |(pk, pj)| {
                format!("right after member {pk} stream {pj}, aligned to {STREAM_ALIGNMENT}")
            });
            return Err(check.field(
                format!("member {k} stream {j} RelativeOffset"),
                found,
                format!("{} (its place in the set-interleaved layout: {after})", offsets[k][j]),
            ));
        }
        previous = Some((k, j));
    }
    if data_bytes != end {
        return Err(check.field("data size", data_bytes, format!("{end} (where the last stream ends, aligned)")));
    }
    Ok((SetHeader { data_offset: data_off, data_bytes, member_offsets }, members, order))
}

/// A validated set container held in memory: its three members read as containers over the
/// one file's bytes (a member's [`Container::stream`] gives the stream's offset in the set
/// file).
#[derive(Debug, Clone)]
pub struct SetContainer {
    name: String,
    header: SetHeader,
    members: Vec<Container>,
    order: Vec<Slot>,
}

impl SetContainer {
    /// Reads and validates `path`; errors name the file.
    pub fn open(path: &Path) -> Result<SetContainer, ContainerError> {
        let name = path.display().to_string();
        let bytes = crate::limits::read(path, crate::limits::InputKind::Container)
            .map_err(|source| ContainerError::Io { file: name.clone(), source })?;
        SetContainer::parse(&name, bytes)
    }

    /// Validates a set container already in memory (errors call it `<memory>`).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<SetContainer, ContainerError> {
        SetContainer::parse("<memory>", bytes)
    }

    /// Validates `bytes`, naming them `name` in errors; members are named
    /// `"{name} member {k} ({kind})"`.
    pub fn parse(name: &str, bytes: Vec<u8>) -> Result<SetContainer, ContainerError> {
        let (header, parsed, order) = parse_set(name, &bytes)?;
        let bytes = Arc::new(bytes);
        let members = parsed
            .into_iter()
            .enumerate()
            .map(|(k, (h, entries, regions))| {
                let member = format!("{name} member {k} ({})", MEMBER_KINDS[k]);
                Container::from_parts(member, Arc::clone(&bytes), h, entries, regions)
            })
            .collect();
        Ok(SetContainer { name: name.to_string(), header, members, order })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn header(&self) -> &SetHeader {
        &self.header
    }

    /// Diffuse, normal, specular.
    pub fn members(&self) -> &[Container] {
        &self.members
    }

    /// Every stream in data-section order.
    pub fn order(&self) -> &[Slot] {
        &self.order
    }

    /// Bytes of the whole file.
    pub fn file_bytes(&self) -> u64 {
        self.header.data_offset + self.header.data_bytes
    }
}

/// Either kind of file `sfsim pack` writes.
#[derive(Debug, Clone)]
pub enum PackedFile {
    /// One texture (`SFSIMTEX`).
    Texture(Container),
    /// A texture set (`SFSIMSET`).
    Set(SetContainer),
}

impl PackedFile {
    /// Reads `path` and validates it as whichever kind its magic says.
    pub fn open(path: &Path) -> Result<PackedFile, ContainerError> {
        let name = path.display().to_string();
        let bytes = crate::limits::read(path, crate::limits::InputKind::Container)
            .map_err(|source| ContainerError::Io { file: name.clone(), source })?;
        PackedFile::parse(&name, bytes)
    }

    /// Validates `bytes` as a container or a set container, naming them `name` in errors.
    pub fn parse(name: &str, bytes: Vec<u8>) -> Result<PackedFile, ContainerError> {
        if bytes.starts_with(&SET_MAGIC) {
            return Ok(PackedFile::Set(SetContainer::parse(name, bytes)?));
        }
        if !bytes.starts_with(&super::format::MAGIC) {
            let found: String = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
            return Err(ContainerError::Field {
                file: name.to_string(),
                field: "magic".to_string(),
                found: format!("0x{found}"),
                expected: "\"SFSIMTEX\" (an sfsim packed texture) or \"SFSIMSET\" (an sfsim set container)".to_string(),
            });
        }
        Ok(PackedFile::Texture(Container::parse(name, bytes)?))
    }

    pub fn name(&self) -> &str {
        match self {
            PackedFile::Texture(c) => c.name(),
            PackedFile::Set(s) => s.name(),
        }
    }
}
