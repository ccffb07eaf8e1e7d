//! Reading a container: open and validate it once, then hand out streams as MDU requests
//! with their bytes, or decode them through the functional MDU and check their hashes.

use super::error::ContainerError;
use super::format::{self, Header, StreamEntry};
use super::hash::fnv1a64;
use rayon::prelude::*;
use sfsim_models::codec::bc::tiles_to_surface;
use sfsim_models::mdu::{decode, MduRequest};
use sfsim_models::texture::{MipLayout, PackRegions, TILE_BYTES};
use std::path::Path;
use std::sync::Arc;

/// A validated container held in memory: a whole `SFSIMTEX` file, or one member of a set
/// container (then `bytes` is the whole set file, shared with the other members, and the
/// header's data offset is the set's shared data section).
#[derive(Debug, Clone)]
pub struct Container {
    name: String,
    bytes: Arc<Vec<u8>>,
    header: Header,
    entries: Vec<StreamEntry>,
    regions: PackRegions,
}

/// One stream as the engine would issue it: the request and its source bytes.
#[derive(Debug, Clone, Copy)]
pub struct Stream<'a> {
    pub entry: &'a StreamEntry,
    pub request: MduRequest,
    /// The stream's bytes in the file (`CompressedSize` of them).
    pub bytes: &'a [u8],
    /// Offset of `bytes` from the start of the file (16-byte aligned).
    pub file_offset: u64,
}

impl Container {
    /// Reads and validates `path`; errors name the file.
    pub fn open(path: &Path) -> Result<Container, ContainerError> {
        let name = path.display().to_string();
        let bytes = crate::limits::read(path, crate::limits::InputKind::Container)
            .map_err(|source| ContainerError::Io { file: name.clone(), source })?;
        Container::parse(&name, bytes)
    }

    /// Validates a container already in memory (errors call it `<memory>`).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Container, ContainerError> {
        Container::parse("<memory>", bytes)
    }

    /// Validates `bytes`, naming them `name` in errors.
    pub fn parse(name: &str, bytes: Vec<u8>) -> Result<Container, ContainerError> {
        let (header, entries, regions) = format::parse(name, &bytes)?;
        Ok(Container { name: name.to_string(), bytes: Arc::new(bytes), header, entries, regions })
    }

    /// A container over `bytes` whose header and table were parsed and checked elsewhere (a
    /// set member: the set parser checked every stream lies in the shared data section).
    pub(super) fn from_parts(
        name: String,
        bytes: Arc<Vec<u8>>,
        header: Header,
        entries: Vec<StreamEntry>,
        regions: PackRegions,
    ) -> Container {
        Container { name, bytes, header, entries, regions }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn entries(&self) -> &[StreamEntry] {
        &self.entries
    }

    /// The layout and regions the header describes (entry `i` is region `i`).
    pub fn regions(&self) -> &PackRegions {
        &self.regions
    }

    pub fn stream_count(&self) -> usize {
        self.entries.len()
    }

    /// Bytes of the whole file (for a set member, the whole set file).
    pub fn file_bytes(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Stream `index`: its entry, the MDU request that decodes it and its bytes.
    pub fn stream(&self, index: usize) -> Result<Stream<'_>, ContainerError> {
        let entry = self.entries.get(index).ok_or_else(|| ContainerError::StreamIndex {
            file: self.name.clone(),
            index,
            count: self.entries.len(),
        })?;
        let both = entry.options.zlib && entry.options.bcpack();
        let request = MduRequest {
            options: entry.options,
            // DirectStorage's rule: IntermediateSize is set only when both stages run.
            intermediate_size: if both { u64::from(entry.inflated_size) } else { 0 },
            destination_size: u64::from(entry.uncompressed_size),
            block_bytes: self.header.desc.format.block_bytes(),
        };
        // The parser checked every stream lies inside the data section.
        let file_offset = self.header.data_offset + entry.relative_offset;
        let start = file_offset as usize;
        let bytes = &self.bytes[start..start + entry.compressed_size as usize];
        Ok(Stream { entry, request, bytes, file_offset })
    }

    /// Decodes stream `index` through the functional MDU and checks its hash.
    pub fn decode_stream(&self, index: usize) -> Result<Vec<u8>, ContainerError> {
        let stream = self.stream(index)?;
        let out = decode(&stream.request, stream.bytes).map_err(|source| ContainerError::Decode {
            file: self.name.clone(),
            index,
            source,
        })?;
        let found = fnv1a64(&out);
        if found != stream.entry.hash {
            return Err(ContainerError::StreamHash {
                file: self.name.clone(),
                index,
                expected: stream.entry.hash,
                found,
            });
        }
        Ok(out)
    }

    /// Decodes every stream (in parallel) into the texture's whole layout.
    pub fn decode_layout(&self) -> Result<Vec<u8>, ContainerError> {
        let parts: Vec<Vec<u8>> =
            (0..self.entries.len()).into_par_iter().map(|i| self.decode_stream(i)).collect::<Result<_, _>>()?;
        Ok(parts.concat())
    }

    /// Mip `level`'s blocks, row-major over the whole mip (untiled when stored as tiles),
    /// decoded from only the streams that hold it.
    pub fn mip_blocks(&self, level: u32) -> Result<Vec<u8>, ContainerError> {
        let levels = self.regions.mips.len() as u32;
        let mip = *self.regions.mips.get(level as usize).ok_or_else(|| ContainerError::MipIndex {
            file: self.name.clone(),
            level,
            levels,
        })?;
        let mut bytes = Vec::with_capacity(mip.bytes as usize);
        for (index, region) in self.regions.regions.iter().enumerate() {
            let (start, end) =
                (region.offset.max(mip.offset), (region.offset + region.bytes).min(mip.offset + mip.bytes));
            if start < end {
                let stream = self.decode_stream(index)?;
                bytes.extend_from_slice(&stream[(start - region.offset) as usize..(end - region.offset) as usize]);
            }
        }
        let format = self.header.desc.format;
        match mip.layout {
            MipLayout::Linear => Ok(bytes),
            MipLayout::Tiled => {
                let tiles: Vec<&[u8]> = bytes.chunks(TILE_BYTES as usize).collect();
                // The parser checked the layout, so the tiles are whole and complete.
                tiles_to_surface(format, mip.width, mip.height, &tiles).map_err(|e| ContainerError::Field {
                    file: self.name.clone(),
                    field: format!("mip {level} tiles"),
                    found: e.to_string(),
                    expected: "whole 64 KiB tiles".to_string(),
                })
            }
        }
    }
}
