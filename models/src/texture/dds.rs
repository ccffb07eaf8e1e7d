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
//! - [`DdsImage::read`] also takes the legacy FourCCs `DXT1`, `DXT2`/`DXT3`, `DXT4`/`DXT5`,
//!   `ATI1`/`BC4U`, `ATI2`/`BC5U` and the `TYPELESS` DXGI formats (read as UNORM). As the
//!   guide advises, it does not trust `dwFlags` or `dwPitchOrLinearSize` (writers get them
//!   wrong); `dwMipMapCount` 0 means one mip. Cube maps, volumes, arrays, signed formats
//!   (BC4/BC5 SNORM, BC6H SF16) and uncompressed formats are refused, as is a file whose size
//!   is not exactly header + mips. Every refusal is a [`DdsError`] naming the field and the
//!   value it had to have; no input panics.
//!
//! ```
//! use sfsim_models::texture::{BcFormat, DdsImage};
//! let image = DdsImage {
//!     format: BcFormat::Bc7, width: 8, height: 4, mip_count: 2, srgb: true,
//!     mips: vec![vec![0u8; 32], vec![0u8; 16]],
//! };
//! let file = image.write()?;
//! assert_eq!(file.len(), 4 + 124 + 20 + 48);
//! assert_eq!(DdsImage::read(&file)?, image);
//! # Ok::<(), sfsim_models::texture::DdsError>(())
//! ```

use super::{BcFormat, MAX_DIMENSION};

/// `"DDS "` little-endian.
const MAGIC: u32 = 0x2053_4444;
const HEADER_BYTES: usize = 124;
const PIXEL_FORMAT_BYTES: u32 = 32;
const DX10_BYTES: usize = 20;
/// Magic + `DDS_HEADER`.
const BASE_BYTES: usize = 4 + HEADER_BYTES;

// dwFlags
const DDSD_CAPS: u32 = 0x1;
const DDSD_HEIGHT: u32 = 0x2;
const DDSD_WIDTH: u32 = 0x4;
const DDSD_PIXELFORMAT: u32 = 0x1000;
const DDSD_MIPMAPCOUNT: u32 = 0x2_0000;
const DDSD_LINEARSIZE: u32 = 0x8_0000;
const DDSD_DEPTH: u32 = 0x80_0000;
// ddspf.dwFlags
const DDPF_FOURCC: u32 = 0x4;
// dwCaps, dwCaps2
const DDSCAPS_COMPLEX: u32 = 0x8;
const DDSCAPS_TEXTURE: u32 = 0x1000;
const DDSCAPS_MIPMAP: u32 = 0x40_0000;
const DDSCAPS2_CUBEMAP: u32 = 0x200;
const DDSCAPS2_VOLUME: u32 = 0x20_0000;
// DDS_HEADER_DXT10
const DIMENSION_TEXTURE2D: u32 = 3;
const MISC_TEXTURECUBE: u32 = 0x4;

const fn fourcc(code: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*code)
}

/// One 2D BC texture as a DDS file carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DdsImage {
    /// The block-compression format of every mip.
    pub format: BcFormat,
    /// Mip 0 width, texels.
    pub width: u32,
    /// Mip 0 height, texels.
    pub height: u32,
    /// Number of mips in `mips` (1 = mip 0 only).
    pub mip_count: u32,
    /// The data is sRGB-encoded (`*_UNORM_SRGB`); BC1, BC2, BC3 and BC7 only.
    pub srgb: bool,
    /// Blocks of each mip, mip 0 first, row-major, `format.surface_bytes(w >> l, h >> l)` each.
    pub mips: Vec<Vec<u8>>,
}

/// A DDS file that cannot be read, or an image that cannot be written as one.
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
    #[error("DDS {field} is {found:#x}; expected {expected}")]
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

    /// Mip 0 width or height is 0 or above [`MAX_DIMENSION`].
    #[error("DDS {axis} {value} is out of range; expected 1..={max} texels")]
    Dimension {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The dimension in the header (or image), texels.
        value: u32,
        /// The largest dimension accepted, texels.
        max: u32,
    },

    /// More mips than the chain down to 1x1 has (or none, when writing).
    #[error("DDS mip count {value} is out of range; expected 1..={max} for a {width}x{height} texture")]
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

    /// Bytes after the last mip: the header describes less data than the file holds.
    #[error("DDS file is {found} B; expected exactly {expected} B (header + mips)")]
    TrailingBytes {
        /// Bytes of the header plus every mip it describes.
        expected: u64,
        /// The file's length, bytes.
        found: u64,
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

    /// Writing: the format has no sRGB DXGI variant.
    #[error("{format:?} has no sRGB DXGI format; expected srgb = false (sRGB exists for BC1, BC2, BC3 and BC7)")]
    NoSrgb {
        /// The image's format (BC4, BC5 or BC6H).
        format: BcFormat,
    },
}

impl DdsImage {
    /// (width, height) of mip `level`: `max(1, dim >> level)`.
    pub fn mip_size(&self, level: u32) -> (u32, u32) {
        mip_size(self.width, self.height, level)
    }

    /// Parses a DDS file.
    pub fn read(file: &[u8]) -> Result<DdsImage, DdsError> {
        let u32_at = |at: usize| u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]]);
        let truncated = |what: &str, expected: usize| DdsError::Truncated {
            what: what.to_string(),
            expected: expected as u64,
            found: file.len() as u64,
        };
        if file.len() < BASE_BYTES {
            return Err(truncated("the magic and the 124-byte DDS_HEADER", BASE_BYTES));
        }
        field("magic", u32_at(0), MAGIC, "0x20534444 (\"DDS \")")?;
        field("dwSize", u32_at(4), HEADER_BYTES as u32, "124")?;
        field("ddspf.dwSize", u32_at(76), PIXEL_FORMAT_BYTES, "32")?;
        let (flags, height, width, mips) = (u32_at(8), u32_at(12), u32_at(16), u32_at(28));
        let (pf_flags, code, caps2) = (u32_at(80), u32_at(84), u32_at(112));
        if caps2 & DDSCAPS2_CUBEMAP != 0 {
            return Err(unsupported("cube map (dwCaps2 has DDSCAPS2_CUBEMAP)", "a 2D texture"));
        }
        if caps2 & DDSCAPS2_VOLUME != 0 || (flags & DDSD_DEPTH != 0 && u32_at(24) > 1) {
            return Err(unsupported("volume texture (dwCaps2 / dwDepth)", "a 2D texture"));
        }
        if pf_flags & DDPF_FOURCC == 0 {
            return Err(DdsError::Unsupported {
                what: format!("uncompressed pixel format (ddspf.dwFlags {pf_flags:#x} lacks DDPF_FOURCC)"),
                expected: "a block-compressed FourCC or DX10 format",
            });
        }
        let (format, srgb, data_at) = if code == fourcc(b"DX10") {
            let end = BASE_BYTES + DX10_BYTES;
            if file.len() < end {
                return Err(truncated("the DDS_HEADER_DXT10 that FourCC \"DX10\" announces", end));
            }
            field("resourceDimension", u32_at(132), DIMENSION_TEXTURE2D, "3 (D3D10_RESOURCE_DIMENSION_TEXTURE2D)")?;
            if u32_at(136) & MISC_TEXTURECUBE != 0 {
                return Err(unsupported("cube map (miscFlag has TEXTURECUBE)", "a 2D texture"));
            }
            field("arraySize", u32_at(140), 1, "1 (texture arrays are not supported)")?;
            let (format, srgb) = from_dxgi(u32_at(128))?;
            (format, srgb, end)
        } else {
            (from_fourcc(code)?, false, BASE_BYTES)
        };
        for (axis, value) in [("width", width), ("height", height)] {
            if value == 0 || value > MAX_DIMENSION {
                return Err(DdsError::Dimension { axis, value, max: MAX_DIMENSION });
            }
        }
        let mip_count = mips.max(1);
        let max = max_mips(width, height);
        if mip_count > max {
            return Err(DdsError::MipCount { value: mip_count, max, width, height });
        }
        let total: u64 = (0..mip_count).map(|l| mip_bytes(format, width, height, l)).sum();
        let expected = data_at as u64 + total;
        if (file.len() as u64) < expected {
            return Err(DdsError::Truncated {
                what: format!("{mip_count} mips of a {width}x{height} {format:?} texture"),
                expected,
                found: file.len() as u64,
            });
        }
        if file.len() as u64 > expected {
            return Err(DdsError::TrailingBytes { expected, found: file.len() as u64 });
        }
        let mut at = data_at;
        let mips = (0..mip_count)
            .map(|l| {
                let len = mip_bytes(format, width, height, l) as usize;
                at += len;
                file[at - len..at].to_vec()
            })
            .collect();
        Ok(DdsImage { format, width, height, mip_count, srgb, mips })
    }

    /// Serialises as a DX10 DDS file (see the module docs for the exact header fields).
    pub fn write(&self) -> Result<Vec<u8>, DdsError> {
        let (format, width, height) = (self.format, self.width, self.height);
        for (axis, value) in [("width", width), ("height", height)] {
            if value == 0 || value > MAX_DIMENSION {
                return Err(DdsError::Dimension { axis, value, max: MAX_DIMENSION });
            }
        }
        let max = max_mips(width, height);
        if self.mip_count == 0 || self.mip_count > max {
            return Err(DdsError::MipCount { value: self.mip_count, max, width, height });
        }
        if self.mips.len() != self.mip_count as usize {
            return Err(DdsError::MipList { mip_count: self.mip_count, found: self.mips.len() });
        }
        for (level, mip) in (0..).zip(&self.mips) {
            let expected = mip_bytes(format, width, height, level);
            if mip.len() as u64 != expected {
                let (width, height) = mip_size(width, height, level);
                return Err(DdsError::MipLength { level, width, height, format, expected, found: mip.len() as u64 });
            }
        }
        let dxgi = to_dxgi(format, self.srgb)?;
        let data: usize = self.mips.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(BASE_BYTES + DX10_BYTES + data);
        let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
        put(MAGIC);
        put(HEADER_BYTES as u32);
        put(DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | DDSD_MIPMAPCOUNT | DDSD_LINEARSIZE);
        put(height);
        put(width);
        put(mip_bytes(format, width, height, 0) as u32); // dwPitchOrLinearSize: at most 128 MiB
        put(0); // dwDepth
        put(self.mip_count);
        (0..11).for_each(|_| put(0)); // dwReserved1
                                      // DDS_PIXELFORMAT: FourCC "DX10", no RGB masks.
        [PIXEL_FORMAT_BYTES, DDPF_FOURCC, fourcc(b"DX10"), 0, 0, 0, 0, 0].into_iter().for_each(&mut put);
        let mip_caps = if self.mip_count > 1 { DDSCAPS_COMPLEX | DDSCAPS_MIPMAP } else { 0 };
        put(DDSCAPS_TEXTURE | mip_caps);
        (0..4).for_each(|_| put(0)); // dwCaps2..4, dwReserved2
                                     // DDS_HEADER_DXT10: format, TEXTURE2D, no misc flags, one array slice, alpha mode unknown.
        [dxgi, DIMENSION_TEXTURE2D, 0, 1, 0].into_iter().for_each(&mut put);
        for mip in &self.mips {
            out.extend_from_slice(mip);
        }
        Ok(out)
    }
}

fn field(name: &'static str, found: u32, want: u32, expected: &'static str) -> Result<(), DdsError> {
    if found == want {
        Ok(())
    } else {
        Err(DdsError::Field { field: name, found, expected })
    }
}

fn unsupported(what: &str, expected: &'static str) -> DdsError {
    DdsError::Unsupported { what: what.to_string(), expected }
}

fn mip_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    ((width >> level.min(31)).max(1), (height >> level.min(31)).max(1))
}

fn mip_bytes(format: BcFormat, width: u32, height: u32, level: u32) -> u64 {
    let (w, h) = mip_size(width, height, level);
    format.surface_bytes(w, h)
}

/// Mips in the full chain down to 1x1.
fn max_mips(width: u32, height: u32) -> u32 {
    u32::BITS - width.max(height).max(1).leading_zeros()
}

const EXPECTED_FORMATS: &str =
    "a BC1-BC7 UNORM, UNORM_SRGB or TYPELESS DXGI format (70-78, 79-80, 82-83, 94-95, 97-99)";

/// DXGI_FORMAT -> (format, sRGB). TYPELESS reads as UNORM.
fn from_dxgi(dxgi: u32) -> Result<(BcFormat, bool), DdsError> {
    Ok(match dxgi {
        70 | 71 => (BcFormat::Bc1, false),
        72 => (BcFormat::Bc1, true),
        73 | 74 => (BcFormat::Bc2, false),
        75 => (BcFormat::Bc2, true),
        76 | 77 => (BcFormat::Bc3, false),
        78 => (BcFormat::Bc3, true),
        79 | 80 => (BcFormat::Bc4, false),
        82 | 83 => (BcFormat::Bc5, false),
        94 | 95 => (BcFormat::Bc6h, false),
        97 | 98 => (BcFormat::Bc7, false),
        99 => (BcFormat::Bc7, true),
        81 | 84 | 96 => {
            let name = match dxgi {
                81 => "BC4_SNORM",
                84 => "BC5_SNORM",
                _ => "BC6H_SF16",
            };
            return Err(DdsError::Unsupported {
                what: format!("DXGI format {dxgi} ({name}, signed)"),
                expected: EXPECTED_FORMATS,
            });
        }
        _ => return Err(DdsError::Unsupported { what: format!("DXGI format {dxgi}"), expected: EXPECTED_FORMATS }),
    })
}

fn to_dxgi(format: BcFormat, srgb: bool) -> Result<u32, DdsError> {
    let (unorm, srgb_code) = match format {
        BcFormat::Bc1 => (71, Some(72)),
        BcFormat::Bc2 => (74, Some(75)),
        BcFormat::Bc3 => (77, Some(78)),
        BcFormat::Bc4 => (80, None),
        BcFormat::Bc5 => (83, None),
        BcFormat::Bc6h => (95, None),
        BcFormat::Bc7 => (98, Some(99)),
    };
    match (srgb, srgb_code) {
        (false, _) => Ok(unorm),
        (true, Some(code)) => Ok(code),
        (true, None) => Err(DdsError::NoSrgb { format }),
    }
}

fn from_fourcc(code: u32) -> Result<BcFormat, DdsError> {
    Ok(match &code.to_le_bytes() {
        b"DXT1" => BcFormat::Bc1,
        b"DXT2" | b"DXT3" => BcFormat::Bc2,
        b"DXT4" | b"DXT5" => BcFormat::Bc3,
        b"ATI1" | b"BC4U" => BcFormat::Bc4,
        b"ATI2" | b"BC5U" => BcFormat::Bc5,
        bytes => {
            let shown: String = bytes.iter().map(|&b| if b.is_ascii_graphic() { b as char } else { '?' }).collect();
            return Err(DdsError::Unsupported {
                what: format!("FourCC {code:#010x} (\"{shown}\")"),
                expected: "DX10, DXT1, DXT2, DXT3, DXT4, DXT5, ATI1, BC4U, ATI2 or BC5U",
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A deterministic, non-constant image of `format` with a full or partial mip chain.
    fn image(format: BcFormat, width: u32, height: u32, mip_count: u32, srgb: bool) -> DdsImage {
        let mips = (0..mip_count)
            .map(|l| {
                let n = mip_bytes(format, width, height, l) as usize;
                (0..n).map(|i| (i * 31 + l as usize * 7) as u8).collect()
            })
            .collect();
        DdsImage { format, width, height, mip_count, srgb, mips }
    }

    fn u32_at(file: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(file[at..at + 4].try_into().unwrap())
    }

    fn set_u32(file: &mut [u8], at: usize, v: u32) {
        file[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// A legacy (no DX10 header) file as older tools write it: FourCC, LINEARSIZE, mips.
    fn legacy(code: &[u8; 4], format: BcFormat, width: u32, height: u32, mip_count: u32) -> Vec<u8> {
        let dx10 = image(format, width, height, mip_count, false).write().unwrap();
        let mut file = dx10[..BASE_BYTES].to_vec();
        set_u32(&mut file, 84, fourcc(code));
        file.extend_from_slice(&dx10[BASE_BYTES + DX10_BYTES..]);
        file
    }

    #[test]
    fn every_format_round_trips_with_mips() {
        for format in BcFormat::all() {
            for srgb in [false, true] {
                if srgb && to_dxgi(format, true).is_err() {
                    continue;
                }
                for (w, h, mips) in [(1, 1, 1), (13, 7, 4), (64, 16, 7), (256, 256, 9), (5, 300, 3)] {
                    let img = image(format, w, h, mips, srgb);
                    let file = img.write().unwrap();
                    assert_eq!(DdsImage::read(&file).unwrap(), img, "{format:?} srgb {srgb} {w}x{h} {mips}");
                }
            }
        }
    }

    #[test]
    fn header_fields_are_the_ones_texconv_writes() {
        let img = image(BcFormat::Bc1, 256, 128, 1, false);
        let file = img.write().unwrap();
        assert_eq!(&file[0..4], b"DDS ");
        assert_eq!(u32_at(&file, 4), 124);
        assert_eq!(u32_at(&file, 8), 0x000A_1007, "dwFlags");
        assert_eq!((u32_at(&file, 12), u32_at(&file, 16)), (128, 256), "dwHeight, dwWidth");
        assert_eq!(u32_at(&file, 20), 64 * 32 * 8, "dwPitchOrLinearSize = bytes of mip 0");
        assert_eq!((u32_at(&file, 24), u32_at(&file, 28)), (0, 1), "dwDepth, dwMipMapCount");
        assert!(file[32..76].iter().all(|&b| b == 0), "dwReserved1");
        assert_eq!((u32_at(&file, 76), u32_at(&file, 80)), (32, 0x4), "ddspf size, DDPF_FOURCC");
        assert_eq!(&file[84..88], b"DX10");
        assert!(file[88..108].iter().all(|&b| b == 0), "RGB bit count and masks");
        assert_eq!(u32_at(&file, 108), 0x1000, "dwCaps = DDSCAPS_TEXTURE");
        assert!(file[112..128].iter().all(|&b| b == 0), "dwCaps2..4, dwReserved2");
        let dx10: Vec<u32> = (0..5).map(|i| u32_at(&file, 128 + 4 * i)).collect();
        assert_eq!(dx10, vec![71, 3, 0, 1, 0], "BC1_UNORM, TEXTURE2D, misc 0, arraySize 1, alpha unknown");
        assert_eq!(file.len(), 148 + 64 * 32 * 8);

        let file = image(BcFormat::Bc7, 300, 200, 9, true).write().unwrap();
        assert_eq!(u32_at(&file, 20), 75 * 50 * 16);
        assert_eq!(u32_at(&file, 28), 9);
        assert_eq!(u32_at(&file, 108), 0x0040_1008, "TEXTURE | COMPLEX | MIPMAP");
        assert_eq!(u32_at(&file, 128), 99, "BC7_UNORM_SRGB");
        let dxgi: Vec<u32> =
            BcFormat::all().into_iter().map(|f| u32_at(&image(f, 4, 4, 1, false).write().unwrap(), 128)).collect();
        assert_eq!(dxgi, vec![71, 74, 77, 80, 83, 95, 98]);
    }

    #[test]
    fn legacy_fourccs_read() {
        for (code, format) in [
            (b"DXT1", BcFormat::Bc1),
            (b"DXT3", BcFormat::Bc2),
            (b"DXT5", BcFormat::Bc3),
            (b"ATI1", BcFormat::Bc4),
            (b"BC4U", BcFormat::Bc4),
            (b"ATI2", BcFormat::Bc5),
            (b"BC5U", BcFormat::Bc5),
        ] {
            let want = image(format, 40, 24, 3, false);
            let file = legacy(code, format, 40, 24, 3);
            assert_eq!(DdsImage::read(&file).unwrap(), want, "{}", String::from_utf8_lossy(code));
        }
        // Writers that leave dwMipMapCount 0 and the flags empty still mean one mip.
        let mut file = legacy(b"DXT1", BcFormat::Bc1, 8, 8, 1);
        set_u32(&mut file, 28, 0);
        set_u32(&mut file, 8, 0);
        assert_eq!(DdsImage::read(&file).unwrap().mip_count, 1);
    }

    #[test]
    fn typeless_reads_as_unorm() {
        let mut file = image(BcFormat::Bc3, 8, 8, 1, false).write().unwrap();
        set_u32(&mut file, 128, 76);
        let img = DdsImage::read(&file).unwrap();
        assert_eq!((img.format, img.srgb), (BcFormat::Bc3, false));
    }

    #[test]
    fn corrupt_and_unsupported_files_name_the_field() {
        let good = image(BcFormat::Bc1, 16, 16, 2, false).write().unwrap();
        let with = |at: usize, v: u32| {
            let mut f = good.clone();
            set_u32(&mut f, at, v);
            DdsImage::read(&f).unwrap_err()
        };
        assert_eq!(with(0, 0x1234).to_string(), "DDS magic is 0x1234; expected 0x20534444 (\"DDS \")");
        assert!(matches!(with(4, 128), DdsError::Field { field: "dwSize", found: 128, .. }));
        assert!(matches!(with(76, 0), DdsError::Field { field: "ddspf.dwSize", found: 0, .. }));
        assert!(matches!(with(132, 4), DdsError::Field { field: "resourceDimension", found: 4, .. }));
        assert!(matches!(with(140, 6), DdsError::Field { field: "arraySize", found: 6, .. }));
        assert!(matches!(with(136, MISC_TEXTURECUBE), DdsError::Unsupported { .. }));
        assert!(matches!(with(112, DDSCAPS2_CUBEMAP), DdsError::Unsupported { .. }));
        assert!(matches!(with(112, DDSCAPS2_VOLUME), DdsError::Unsupported { .. }));
        assert!(matches!(with(80, 0x40), DdsError::Unsupported { .. }), "RGB pixel format");
        assert!(with(128, 28).to_string().contains("DXGI format 28"));
        assert!(with(128, 81).to_string().contains("BC4_SNORM"));
        assert!(with(128, 84).to_string().contains("BC5_SNORM"));
        assert!(with(84, fourcc(b"BC4S")).to_string().contains("\"BC4S\""));
        assert_eq!(with(16, 0), DdsError::Dimension { axis: "width", value: 0, max: MAX_DIMENSION });
        assert_eq!(with(12, 20_000), DdsError::Dimension { axis: "height", value: 20_000, max: MAX_DIMENSION });
        assert_eq!(with(28, 6), DdsError::MipCount { value: 6, max: 5, width: 16, height: 16 });
        // A mip count one lower leaves the last mip's bytes over.
        assert_eq!(with(28, 1), DdsError::TrailingBytes { expected: 148 + 128, found: 148 + 128 + 32 });
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(DdsImage::read(&long), Err(DdsError::TrailingBytes { .. })));
    }

    #[test]
    fn every_truncation_is_an_error() {
        let file = image(BcFormat::Bc5, 12, 12, 3, false).write().unwrap();
        for len in 0..file.len() {
            let err = DdsImage::read(&file[..len]).unwrap_err();
            assert!(matches!(err, DdsError::Truncated { .. }), "{len}: {err}");
        }
        let err = DdsImage::read(&file[..150]).unwrap_err();
        assert_eq!(err.to_string(), "DDS file is 150 B; expected at least 372 B to hold 3 mips of a 12x12 Bc5 texture");
    }

    #[test]
    fn writer_refuses_inconsistent_images() {
        let mut img = image(BcFormat::Bc4, 16, 8, 2, false);
        img.srgb = true;
        assert_eq!(img.write(), Err(DdsError::NoSrgb { format: BcFormat::Bc4 }));
        img.srgb = false;
        img.mip_count = 3;
        assert_eq!(img.write(), Err(DdsError::MipList { mip_count: 3, found: 2 }));
        img.mip_count = 6;
        assert!(matches!(img.write(), Err(DdsError::MipCount { value: 6, max: 5, .. })));
        img.mip_count = 2;
        img.mips[1].pop();
        assert_eq!(
            img.write(),
            Err(DdsError::MipLength { level: 1, width: 8, height: 4, format: BcFormat::Bc4, expected: 16, found: 15 })
        );
        img.width = 0;
        assert!(matches!(img.write(), Err(DdsError::Dimension { axis: "width", .. })));
    }

    proptest! {
        #[test]
        fn mutated_files_never_panic(
            fmt in 0usize..7, w in 1u32..70, h in 1u32..70, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
            cut in any::<usize>(),
        ) {
            let format = BcFormat::all()[fmt];
            let mips = max_mips(w, h);
            let mut file = image(format, w, h, mips, false).write().unwrap();
            // Mostly hit the header, where the decisions are.
            for (at, v) in edits {
                let at = if at % 4 == 0 { at % file.len() } else { at % 148.min(file.len()) };
                file[at] = v;
            }
            if cut % 3 == 0 {
                file.truncate(cut % (file.len() + 1));
            }
            if let Ok(img) = DdsImage::read(&file) {
                // Whatever was accepted is self-consistent and writes back.
                prop_assert_eq!(img.mips.len(), img.mip_count as usize);
                prop_assert_eq!(DdsImage::read(&img.write().unwrap()).unwrap(), img);
            }
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), dx10 in any::<bool>()) {
            let mut file = bytes;
            if file.len() >= 88 {
                file[0..4].copy_from_slice(b"DDS ");
                set_u32(&mut file, 4, 124);
                set_u32(&mut file, 76, 32);
                if dx10 {
                    file[84..88].copy_from_slice(b"DX10");
                }
            }
            let _ = DdsImage::read(&file);
        }
    }
}
