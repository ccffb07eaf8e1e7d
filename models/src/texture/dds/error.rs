//! What reading or writing a DDS can say: a refusal ([`DdsError`]) or, for a file read
//! anyway, a warning the caller must show ([`DdsWarning`]).

use crate::texture::BcFormat;

/// A DDS file that cannot be read, or an image that cannot be written as one. The caller
/// adds the file name; every variant names the field (or part) and the value expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DdsError {
    /// The file ends before `what`.
    #[error("DDS file is {found} B; expected at least {expected} B to hold {what}")]
    Truncated {
        /// The part that does not fit, e.g. `"the magic and the 124-byte DDS_HEADER"`.
        what: String,
        /// Bytes the file needs to hold `what`.
        expected: u64,
        /// The file's length, bytes.
        found: u64,
    },

    /// A header field has a value no valid file has.
    #[error("DDS {field} is {found:#x} ({found}); expected {expected}")]
    Field {
        /// The header field's name in the DDS documentation, e.g. `"dwSize"`.
        field: &'static str,
        /// The value read.
        found: u32,
        /// The value(s) a valid file has, as text.
        expected: &'static str,
    },

    /// A valid DDS feature sfsim does not handle.
    #[error("DDS {what} is not supported; expected {expected}")]
    Unsupported {
        /// The feature found, with the field that says so (e.g. a cube map, a DXGI format).
        what: String,
        /// What sfsim handles instead.
        expected: &'static str,
    },

    /// Mip 0 width or height is 0 or above [`MAX_DIMENSION`](crate::texture::MAX_DIMENSION).
    #[error("DDS {axis} (dw{field}) {value} is out of range; expected 1..={max} texels (sfsim's cap per side)")]
    Dimension {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// `"Width"` or `"Height"`: the header field's name after `dw`.
        field: &'static str,
        /// The dimension in the header (or image), texels.
        value: u32,
        /// The largest dimension accepted, texels.
        max: u32,
    },

    /// More mips than the chain down to 1x1 has (or none, when writing).
    #[error(
        "DDS mip count (dwMipMapCount) {value} is out of range; expected 1..={max} for a {width}x{height} texture"
    )]
    MipCount {
        /// The mip count in the header (or image).
        value: u32,
        /// The full chain's length down to 1x1 for this size.
        max: u32,
        /// Mip 0's width, texels.
        width: u32,
        /// Mip 0's height, texels.
        height: u32,
    },

    /// Writing: `mip_count` and `mips` disagree.
    #[error("mip_count is {mip_count}; expected it to equal the {found} mips given")]
    MipList {
        /// The image's `mip_count`.
        mip_count: u32,
        /// The number of mips in the image's `mips`.
        found: usize,
    },

    /// Writing: one mip's bytes do not fit its size.
    #[error("mip {level} ({width}x{height} {format:?}) is {found} B; expected {expected} B")]
    MipLength {
        /// The mip level (0 = finest).
        level: u32,
        /// The mip's width, texels.
        width: u32,
        /// The mip's height, texels.
        height: u32,
        /// The image's format.
        format: BcFormat,
        /// Bytes of the mip's blocks: `format.surface_bytes(width, height)`.
        expected: u64,
        /// Bytes given for the mip.
        found: u64,
    },

    /// Writing a DX9 (legacy) header: the format has no FourCC.
    #[error("{format:?} has no legacy FourCC; expected BC1-BC5 for a DX9 header (BC6H and BC7 need the DX10 header)")]
    NoFourcc {
        /// The image's format (BC6H or BC7).
        format: BcFormat,
    },

    /// Writing: the format has no sRGB DXGI variant.
    #[error("{format:?} has no sRGB DXGI format; expected srgb = false (sRGB exists for BC1, BC2, BC3 and BC7)")]
    NoSrgb {
        /// The image's format (BC4, BC5 or BC6H).
        format: BcFormat,
    },
}

/// Something a file read anyway does not quite say right. Readers return these rather than
/// dropping them: the caller prints them (`warning: FILE: …`), so a file that other tools
/// accept is not refused, and nothing is ignored silently.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DdsWarning {
    /// Bytes after the last mip the header describes (padding some writers add, or a
    /// header whose mip count is lower than the data): ignored.
    #[error("{bytes} trailing bytes after the last mip ignored (header + {mips} mips end at {expected} B)")]
    TrailingBytes {
        /// Bytes ignored.
        bytes: u64,
        /// Where the last mip ends, bytes from the start of the file.
        expected: u64,
        /// Mips the header describes.
        mips: u32,
    },

    /// `arraySize` 0 in the DX10 header (Pillow writes it), read as one texture.
    #[error("DX10 arraySize is 0; read as 1 (one texture, not an array)")]
    ZeroArraySize,

    /// `resourceDimension` 0 (unknown) in the DX10 header, read as a 2D texture because
    /// the rest of the header describes one.
    #[error(
        "DX10 resourceDimension is 0 (unknown); read as TEXTURE2D ({width}x{height}, dwDepth {depth}, arraySize 1)"
    )]
    UnknownDimension {
        /// Mip 0 width, texels.
        width: u32,
        /// Mip 0 height, texels.
        height: u32,
        /// The header's `dwDepth` (0 or 1).
        depth: u32,
    },
}
