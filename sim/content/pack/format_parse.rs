//! Reading a container's header and stream table back, trusting none of it: every field is
//! checked against its range and the table against the regions the header implies, so a
//! corrupt or hostile file is refused with an error naming the field, never a panic. Set
//! containers parse their members' blocks with the same code.

use super::error::ContainerError;
use super::format::{
    data_offset, format_code, table_hash, Header, StreamEntry, ENTRY_BYTES, ENTRY_RESIDENT, ENTRY_TILE, FLAG_SRGB,
    HEADER_BYTES, MAGIC, TABLE_HASH_AT, VERSION,
};
use sfsim_models::codec::bcpack::BcpackMode;
use sfsim_models::nvme::{RequestOptions, MAX_ZLIB_OUTPUT, STREAM_ALIGNMENT};
use sfsim_models::texture::{BcFormat, PackRegions, Region, TextureDesc, TileMode, MAX_DIMENSION};

/// Little-endian reads at fixed offsets of a slice already checked to be long enough.
pub(super) struct Le<'a>(pub(super) &'a [u8]);

impl Le<'_> {
    pub(super) fn u8(&self, at: usize) -> u8 {
        self.0[at]
    }
    pub(super) fn u16(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.0[at], self.0[at + 1]])
    }
    pub(super) fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.0[at..at + 4].try_into().unwrap_or([0; 4]))
    }
    pub(super) fn u64(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.0[at..at + 8].try_into().unwrap_or([0; 8]))
    }
}

/// Builds field errors for one file; `prefix` names the part of the file the fields are in
/// (`""` for a container, `"member 1 "` inside a set container).
pub(super) struct Check<'a> {
    pub(super) file: &'a str,
    pub(super) prefix: String,
}

impl Check<'_> {
    pub(super) fn field(
        &self,
        field: impl Into<String>,
        found: impl ToString,
        expected: impl Into<String>,
    ) -> ContainerError {
        ContainerError::Field {
            file: self.file.to_string(),
            field: format!("{}{}", self.prefix, field.into()),
            found: found.to_string(),
            expected: expected.into(),
        }
    }

    pub(super) fn truncated(&self, what: &str, needed: u64, found: usize) -> ContainerError {
        ContainerError::Truncated {
            file: self.file.to_string(),
            what: format!("{}{what}", self.prefix),
            needed,
            found: found as u64,
        }
    }
}

/// Where the data section a header and table describe lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DataSection {
    /// A container's own: right after the table, to the end of the file, streams in table
    /// order.
    Own,
    /// A set container's shared section (`offset` from the file start, `bytes` long); the
    /// set checks the order of the members' streams in it.
    Shared { offset: u64, bytes: u64 },
}

/// Parses and validates everything but the stream bytes: the header, the table, and that
/// the table is exactly the regions the header's texture, tile mode and mip streams give.
pub fn parse(file: &str, bytes: &[u8]) -> Result<(Header, Vec<StreamEntry>, PackRegions), ContainerError> {
    parse_block(&Check { file, prefix: String::new() }, bytes, 0, DataSection::Own)
}

/// [`parse`] of the header and table starting at `at` of `bytes` (the whole file), whose
/// streams lie in `data`.
pub(super) fn parse_block(
    check: &Check,
    bytes: &[u8],
    at: usize,
    data: DataSection,
) -> Result<(Header, Vec<StreamEntry>, PackRegions), ContainerError> {
    let rest = bytes.get(at..).unwrap_or(&[]);
    if rest.len() < MAGIC.len() || rest[..MAGIC.len()] != MAGIC {
        let found: String = rest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(check.field("magic", format!("0x{found}"), "\"SFSIMTEX\" (an sfsim packed texture)"));
    }
    if rest.len() < HEADER_BYTES {
        return Err(check.truncated("header", (at + HEADER_BYTES) as u64, bytes.len()));
    }
    let h = Le(&rest[..HEADER_BYTES]);
    let version = h.u16(8);
    if version != VERSION {
        return Err(check.field("header version", version, format!("{VERSION}")));
    }
    if h.u16(10) as usize != HEADER_BYTES {
        return Err(check.field("header size", h.u16(10), format!("{HEADER_BYTES} for version {VERSION}")));
    }
    if h.u16(12) as usize != ENTRY_BYTES {
        return Err(check.field("stream entry size", h.u16(12), format!("{ENTRY_BYTES} for version {VERSION}")));
    }
    let format = BcpackMode::from_raw(u32::from(h.u8(14)))
        .map_err(|_| check.field("format", h.u8(14), "1..=7 (BC1..BC5, BC6H, BC7)"))?
        .format();
    let tile_mode = TileMode::from_code(h.u8(15))
        .ok_or_else(|| check.field("tile mode", h.u8(15), "0 (sfs), 1 (tile64k) or 2 (mip)"))?;
    let (width, height, mips) = (h.u32(16), h.u32(20), u32::from(h.u8(24)));
    for (field, value) in [("width", width), ("height", height)] {
        if value == 0 || value > MAX_DIMENSION {
            return Err(check.field(field, value, format!("1..={MAX_DIMENSION} texels")));
        }
    }
    let full = TextureDesc::full_mip_count(width, height);
    if mips != full {
        return Err(check.field("mip count", mips, format!("{full} (the full chain of a {width}x{height} texture)")));
    }
    let desc = TextureDesc::new(width, height, format, Some(mips))
        .map_err(|e| check.field("texture", "invalid", e.to_string()))?;
    let mip_streams = u32::from(h.u8(25));
    let regions = PackRegions::new(&desc, tile_mode, Some(mip_streams)).map_err(|_| {
        check.field("mip streams", mip_streams, format!("0..={} for this texture", desc.first_packed_mip()))
    })?;
    let flags = h.u8(26);
    if flags & !FLAG_SRGB != 0 {
        return Err(check.field("flags", format!("{flags:#04x}"), "only bit 0 (sRGB) set"));
    }
    if h.u8(27) != 0 {
        return Err(check.field("reserved header byte 27", h.u8(27), "0"));
    }
    let srgb = flags & FLAG_SRGB != 0;
    let stream_count = h.u32(28);
    if stream_count as usize != regions.regions.len() {
        return Err(check.field(
            "stream count",
            stream_count,
            format!("{} ({} tile mode, {mip_streams} streamable mips)", regions.regions.len(), tile_mode),
        ));
    }
    let table_end = at as u64 + data_offset(regions.regions.len());
    let (expected_offset, why) = match data {
        DataSection::Own => (table_end, format!("header + {stream_count} entries")),
        DataSection::Shared { offset, .. } => (offset, "the set's shared data section".to_string()),
    };
    let data_off = h.u64(32);
    if data_off != expected_offset {
        return Err(check.field("data offset", data_off, format!("{expected_offset} ({why})")));
    }
    if (bytes.len() as u64) < table_end {
        return Err(check.truncated("stream table", table_end, bytes.len()));
    }
    let data_bytes = h.u64(40);
    let file_end = data_off.checked_add(data_bytes);
    if let DataSection::Shared { bytes: shared, .. } = data {
        if data_bytes != shared {
            return Err(check.field("data size", data_bytes, format!("{shared} (the set's shared data section)")));
        }
    } else if file_end != Some(bytes.len() as u64) {
        if file_end.is_some_and(|end| end > bytes.len() as u64) {
            return Err(check.truncated("data section", file_end.unwrap_or(u64::MAX), bytes.len()));
        }
        return Err(check.field(
            "data size",
            data_bytes,
            format!(
                "{} (the file's {} B minus the {} B data offset)",
                bytes.len() as u64 - data_off,
                bytes.len(),
                data_off
            ),
        ));
    }
    let layout_bytes = h.u64(48);
    if layout_bytes != regions.total_bytes() {
        return Err(check.field(
            "layout size",
            layout_bytes,
            format!("{} (the texture's BC data)", regions.total_bytes()),
        ));
    }
    let header =
        Header { desc, tile_mode, mip_streams, srgb, stream_count, data_offset: data_off, data_bytes, layout_bytes };
    let mut entries = Vec::with_capacity(regions.regions.len());
    let mut data_end = 0u64;
    for (index, region) in regions.regions.iter().enumerate() {
        let e = at + HEADER_BYTES + index * ENTRY_BYTES;
        let entry = parse_entry(check, index, &Le(&bytes[e..e + ENTRY_BYTES]), format, region, data_end, data_bytes)?;
        // A shared section's order is the set's to check; a container's is table order.
        if data == DataSection::Own {
            data_end = entry.relative_offset + u64::from(entry.compressed_size);
        }
        entries.push(entry);
    }
    let stored = h.u64(TABLE_HASH_AT);
    let found = table_hash(&bytes[at..table_end as usize]);
    if stored != found {
        let file = match check.prefix.trim_end() {
            "" => check.file.to_string(),
            part => format!("{} {part}", check.file),
        };
        return Err(ContainerError::TableHash { file, expected: stored, found });
    }
    Ok((header, entries, regions))
}

fn parse_entry(
    check: &Check,
    index: usize,
    e: &Le,
    format: BcFormat,
    region: &Region,
    previous_end: u64,
    data_bytes: u64,
) -> Result<StreamEntry, ContainerError> {
    let name = |field: &str| format!("stream {index} {field}");
    let relative_offset = e.u64(0);
    let (compressed, inflated, uncompressed) = (e.u32(8), e.u32(12), e.u32(16));
    let (zlib, bcpack_mode, swizzle_mode) = (e.u8(20), u32::from(e.u8(21)), u32::from(e.u16(22)));
    let (layout_offset, hash) = (e.u64(24), e.u64(32));
    let (first_mip, mip_count, flags) = (u32::from(e.u8(40)), u32::from(e.u8(41)), e.u8(42));
    let tile_xy = (u32::from(e.u16(44)), u32::from(e.u16(46)));

    if !relative_offset.is_multiple_of(STREAM_ALIGNMENT) || relative_offset < previous_end {
        return Err(check.field(
            name("RelativeOffset"),
            relative_offset,
            format!("a multiple of {STREAM_ALIGNMENT}, at or after {previous_end} (where the previous stream ends)"),
        ));
    }
    // A stream that starts at or past the end is the offset's fault, not the size's.
    if relative_offset >= data_bytes {
        return Err(check.field(
            name("RelativeOffset"),
            relative_offset,
            format!("below {data_bytes} (the data section's size), a multiple of {STREAM_ALIGNMENT}, at or after {previous_end}"),
        ));
    }
    let end = relative_offset.saturating_add(u64::from(compressed));
    if compressed == 0 || end > data_bytes {
        return Err(check.field(
            name("CompressedSize"),
            compressed,
            format!("1..={} (the data section ends at {data_bytes})", data_bytes.saturating_sub(relative_offset)),
        ));
    }
    if u64::from(uncompressed) != region.bytes {
        return Err(check.field(
            name("UncompressedSize"),
            uncompressed,
            format!("{} (its region's size)", region.bytes),
        ));
    }
    if zlib > 1 {
        return Err(check.field(name("zlib flag"), zlib, "0 or 1"));
    }
    let zlib = zlib == 1;
    // zlib applied ⇔ CompressedSize ≠ InflatedSize, and then the stream must shrink.
    if zlib != (compressed != inflated) || (zlib && compressed >= inflated) {
        let expected = if zlib {
            format!("more than CompressedSize {compressed} (zlib applied)")
        } else {
            format!("{compressed} = CompressedSize (zlib not applied)")
        };
        return Err(check.field(name("InflatedSize"), inflated, expected));
    }
    if u64::from(inflated) > MAX_ZLIB_OUTPUT.0 {
        return Err(check.field(
            name("InflatedSize"),
            inflated,
            format!("at most {} (the MDU's zlib limit)", MAX_ZLIB_OUTPUT.0),
        ));
    }
    let mode = u32::from(format_code(format));
    if bcpack_mode != 0 && bcpack_mode != mode {
        return Err(check.field(name("BcpackMode"), bcpack_mode, format!("0 or {mode} ({format:?})")));
    }
    let bcpack = bcpack_mode != 0;
    // BCPack applied ⇔ InflatedSize ≠ UncompressedSize, and then it must shrink.
    if bcpack != (inflated != uncompressed) || (bcpack && inflated >= uncompressed) {
        let expected = if bcpack {
            format!("less than UncompressedSize {uncompressed} (BCPack applied)")
        } else {
            format!("{uncompressed} = UncompressedSize (BCPack not applied)")
        };
        let field = if zlib { "InflatedSize" } else { "CompressedSize" };
        return Err(check.field(name(field), inflated, expected));
    }
    // No swizzle, or the format's own BC field shuffle (the packer's `--shuffle`); a layout
    // swizzle or another format's shuffle would not give back the blocks.
    let shuffle = super::compress::shuffle_mode(format);
    if swizzle_mode != 0 && Some(swizzle_mode) != shuffle.map(|m| m as u32) {
        let expected = match shuffle {
            Some(m) => format!("0 (none) or {} ({m:?}, {format:?}'s field shuffle)", m as u32),
            None => format!("0 ({format:?} has no field shuffle)"),
        };
        return Err(check.field(name("SwizzleMode"), swizzle_mode, expected));
    }
    if layout_offset != region.offset {
        return Err(check.field(
            name("layout offset"),
            layout_offset,
            format!("{} (its region's offset)", region.offset),
        ));
    }
    if first_mip != region.mips.start || mip_count != region.mips.len() as u32 {
        return Err(check.field(
            name("mips"),
            format!("{first_mip}..{}", first_mip + mip_count),
            format!("{}..{} (its region's mips)", region.mips.start, region.mips.end),
        ));
    }
    let expected_flags =
        if region.resident { ENTRY_RESIDENT } else { 0 } | if region.tile.is_some() { ENTRY_TILE } else { 0 };
    if flags != expected_flags || e.u8(43) != 0 {
        return Err(check.field(
            name("flags"),
            format!("{flags:#04x}, reserved {}", e.u8(43)),
            format!("{expected_flags:#04x}, reserved 0 (resident {}, tile {})", region.resident, region.tile.is_some()),
        ));
    }
    let tile = region.tile;
    let expected_xy = tile.map_or((0, 0), |t| (t.x, t.y));
    if tile_xy != expected_xy {
        return Err(check.field(
            name("tile"),
            format!("({}, {})", tile_xy.0, tile_xy.1),
            format!("({}, {}) (its region's tile)", expected_xy.0, expected_xy.1),
        ));
    }
    Ok(StreamEntry {
        relative_offset,
        compressed_size: compressed,
        inflated_size: inflated,
        uncompressed_size: uncompressed,
        options: RequestOptions { zlib, bcpack_mode, swizzle_mode },
        layout_offset,
        hash,
        first_mip,
        mip_count,
        resident: region.resident,
        tile,
    })
}
