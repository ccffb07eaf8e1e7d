//! DDS files holding one 2D block-compressed texture and its mip chain: the interchange
//! format of `sfsim pack` (a BC-encoded DDS keeps its blocks) and `sfsim export`.
//!
//! Layout (Microsoft "DDS programming guide", `DDS_HEADER`, `DDS_HEADER_DXT10`): the magic
//! `"DDS "`, a 124-byte `DDS_HEADER` with a 32-byte `DDS_PIXELFORMAT` inside, then — when the
//! pixel format's FourCC is `"DX10"` — a 20-byte `DDS_HEADER_DXT10` naming a DXGI format, then
//! each mip's blocks, largest first, tightly packed (mip `l` is `max(1, dim >> l)` texels,
//! rounded up to whole 4x4 blocks).
//!
//! - [`DdsImage::write`] always writes the DX10 header (the only way to say BC4–BC7 and sRGB)
//!   with the field values DirectXTex's texconv writes: `dwFlags = CAPS | HEIGHT | WIDTH |
//!   PIXELFORMAT | MIPMAPCOUNT | LINEARSIZE` (0x000A_1007), `dwPitchOrLinearSize` = bytes
//!   of mip 0, `dwCaps = TEXTURE` plus `COMPLEX | MIPMAP` when there is more than one mip,
//!   `resourceDimension = TEXTURE2D`, `arraySize = 1`, alpha mode unknown.
//! - [`DdsImage::write_legacy`] writes the DX9 header instead (texconv's `-dx9`: FourCC, no
//!   DX10 header, no sRGB) for BC1–BC5, for readers that know no more.
//! - [`DdsImage::read`] reads DDS files as other tools write them: the legacy FourCCs
//!   `DXT1`, `DXT2`/`DXT3`, `DXT4`/`DXT5`, `ATI1`/`BC4U`, `ATI2`/`BC5U`, the `TYPELESS`
//!   DXGI formats (read as UNORM), any mip count from 1 to the full chain (`dwMipMapCount` 0
//!   means one mip), `resourceDimension` 0 (unknown) when the header has no depth (read as
//!   2D), `arraySize` 0 (as Pillow writes it; read as 1) and bytes after the last mip
//!   (ignored). As the guide advises, it does not trust
//!   `dwFlags` or `dwPitchOrLinearSize` (writers get them wrong). What it accepts but a
//!   strict reader would not comes back as a [`DdsWarning`] in [`DdsRead`], for the caller
//!   to print. Cube maps, volumes, arrays, signed formats (BC4/BC5 SNORM, BC6H SF16),
//!   uncompressed formats, sides above [`MAX_DIMENSION`](crate::texture::MAX_DIMENSION)
//!   and files shorter than header + mips are refused, each with a [`DdsError`] naming the
//!   field, its value and what it had to be. The mips' size is checked against the file's
//!   before anything is allocated; no input panics.
//!
//! ```
//! use sfsim_models::texture::{BcFormat, DdsImage};
//! let image = DdsImage {
//!     format: BcFormat::Bc7, width: 8, height: 4, mip_count: 2, srgb: true,
//!     mips: vec![vec![0u8; 32], vec![0u8; 16]],
//! };
//! let mut file = image.write()?;
//! assert_eq!(file.len(), 4 + 124 + 20 + 48);
//! assert_eq!(DdsImage::read(&file)?.image, image);
//! file.extend_from_slice(&[0; 5]); // padding some writers add
//! let read = DdsImage::read(&file)?;
//! assert_eq!(read.image, image);
//! assert_eq!(read.warnings[0].to_string(), "5 trailing bytes after the last mip ignored (header + 2 mips end at 196 B)");
//! # Ok::<(), sfsim_models::texture::DdsError>(())
//! ```

mod codes;
mod error;
mod layout;
mod read;
#[cfg(test)]
mod tests;
mod write;

use super::BcFormat;
pub use error::{DdsError, DdsWarning};

/// One 2D BC texture as a DDS file carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DdsImage {
    /// The block-compression format of every mip.
    pub format: BcFormat,
    /// Mip 0 width, texels.
    pub width: u32,
    /// Mip 0 height, texels.
    pub height: u32,
    /// Number of mips in `mips` (1 = mip 0 only); may be less than the full chain.
    pub mip_count: u32,
    /// The data is sRGB-encoded (`*_UNORM_SRGB`); BC1, BC2, BC3 and BC7 only.
    pub srgb: bool,
    /// Blocks of each mip, mip 0 first, row-major, `format.surface_bytes(w >> l, h >> l)` each.
    pub mips: Vec<Vec<u8>>,
}

/// A file [`DdsImage::read`] accepted: the image, and what the caller must warn about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DdsRead {
    /// The texture as the file holds it (mips as given, trailing bytes left out).
    pub image: DdsImage,
    /// In the order found; empty for a file written exactly to the guide.
    pub warnings: Vec<DdsWarning>,
}

impl DdsImage {
    /// (width, height) of mip `level`: `max(1, dim >> level)`.
    pub fn mip_size(&self, level: u32) -> (u32, u32) {
        layout::mip_size(self.width, self.height, level)
    }

    /// Mips of the full chain down to 1x1 for this image's size.
    pub fn full_chain(&self) -> u32 {
        layout::max_mips(self.width, self.height)
    }

    /// Parses a DDS file (see the module docs for what is accepted and what is warned about).
    pub fn read(file: &[u8]) -> Result<DdsRead, DdsError> {
        read::read(file)
    }

    /// Serialises as a DX10 DDS file (see the module docs for the exact header fields).
    pub fn write(&self) -> Result<Vec<u8>, DdsError> {
        write::write(self)
    }

    /// Serialises with a legacy DX9 header (FourCC `DXT1`, `DXT3`, `DXT5`, `ATI1`, `ATI2`;
    /// texconv's `-dx9`) for readers that know no DX10 header or no `_SRGB` BC1–BC3 format
    /// (Pillow 13). The header cannot say sRGB, so `srgb` is dropped; BC6H and BC7 are refused.
    pub fn write_legacy(&self) -> Result<Vec<u8>, DdsError> {
        write::write_legacy(self)
    }
}
