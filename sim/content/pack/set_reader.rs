//! Reading a set container back: its header, the three member blocks (through the same
//! parser as a single container's) and the placement of every stream all validated before
//! anything is served, then the members handed out as containers over the one file's bytes.
//! Also the entry point that tells a set file from a single texture by its magic.

use super::error::ContainerError;
use super::format::{data_offset, hash_skipping, Header, StreamEntry};
use super::format_parse::{parse_block, Check, DataSection, Le};
use super::reader::Container;
use super::set::{
    SetHeader, Slot, LAYOUT_INTERLEAVED, MEMBER_KINDS, SET_HASH_AT, SET_HEADER_BYTES, SET_MAGIC, SET_MEMBERS,
    SET_VERSION,
};
use super::set_layout::{interleave, placement};
use sfsim_models::nvme::STREAM_ALIGNMENT;
use sfsim_models::texture::{PackRegions, TextureDesc};
use std::path::Path;
use std::sync::Arc;

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
