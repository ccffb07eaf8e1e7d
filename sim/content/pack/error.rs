//! The errors of reading a container and of packing one.

use sfsim_models::codec::bc::{BcError, RdoError};
use sfsim_models::mdu::MduError;
use sfsim_models::texture::{BcFormat, DdsError, RegionError, TextureError};

/// A container that cannot be read, or a stream of it that does not decode. Every variant
/// names the file; field errors name the field, the value found and the range expected.
#[derive(Debug, thiserror::Error)]
pub enum ContainerError {
    #[error("{file}: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}: truncated: the {what} needs {needed} B but the file has {found} B")]
    Truncated { file: String, what: String, needed: u64, found: u64 },
    #[error("{file}: {field} is {found}; expected {expected}")]
    Field { file: String, field: String, found: String, expected: String },
    #[error(
        "{file}: the header and stream table hash to {found:#018x} but the header records {expected:#018x} \
         (the file is corrupt)"
    )]
    TableHash { file: String, expected: u64, found: u64 },
    #[error("{file}: stream {index} is out of range; expected 0..{count}")]
    StreamIndex { file: String, index: usize, count: usize },
    #[error("{file}: stream {index} does not decode through the MDU: {source}")]
    Decode { file: String, index: usize, source: MduError },
    #[error(
        "{file}: stream {index} decodes to bytes that hash to {found:#018x}; the table records {expected:#018x} \
         (the stream is corrupt)"
    )]
    StreamHash { file: String, index: usize, expected: u64, found: u64 },
    #[error("{file}: mip {level} is out of range; expected 0..{levels}")]
    MipIndex { file: String, level: u32, levels: u32 },
}

/// Why an image could not be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error("cannot read {file}: {source}")]
    Read { file: String, source: std::io::Error },
    #[error("{file}: not a readable PNG, JPEG or TGA image: {reason}")]
    Image { file: String, reason: String },
    #[error("{0}")]
    Texture(#[from] TextureError),
    #[error("{0}")]
    Regions(#[from] RegionError),
    #[error("cannot generate mips: {0}")]
    Mipgen(#[from] super::super::mipgen::MipgenError),
    #[error("cannot BC-encode: {0}")]
    Encode(#[from] BcError),
    #[error("cannot RDO: {0}")]
    Rdo(#[from] RdoError),
    #[error("{file}: not a readable DDS: {source}")]
    Dds { file: String, source: DdsError },
    #[error("DDS format {format:?} is not one the packer takes; expected BC1, BC2, BC3, BC4, BC5 or BC7")]
    DdsFormat { format: BcFormat },
    #[error(
        "DDS mip count (dwMipMapCount) is {found}; expected 1..={expected} mips of a {width}x{height} texture, \
         as many as the image holds"
    )]
    DdsMipCount { found: u32, expected: u32, width: u32, height: u32 },
    #[error("mip {level} holds {found} B of blocks; expected {expected} B")]
    MipLength { level: u32, expected: u64, found: u64 },
    #[error("{option} {value} is not allowed here; expected {expected}")]
    Option { option: &'static str, value: String, expected: &'static str },
    #[error("stream {index} ({bytes} B): BCPack cannot encode it: {source}")]
    Bcpack { index: usize, bytes: u64, source: sfsim_models::codec::bcpack::BcpackError },
    #[error(
        "--shuffle on: {format:?} has no BC field shuffle; expected a format with one (BC1, BC3, BC4 or BC5), \
         or --shuffle off or auto"
    )]
    Shuffle { format: BcFormat },
    #[error("stream {index} ({bytes} B): cannot shuffle it: {source}")]
    Swizzle { index: usize, bytes: u64, source: sfsim_models::codec::swizzle::SwizzleError },
    #[error("stream {index} ({bytes} B) does not decode back through the MDU ({source}); this is a codec bug")]
    Verify { index: usize, bytes: u64, source: MduError },
    #[error("stream {index} ({bytes} B) decodes to different bytes; this is a codec bug")]
    Mismatch { index: usize, bytes: u64 },
    #[error("{0}")]
    Container(#[from] ContainerError),
}
