//! Parsing a DDS file (see the module docs of `dds` for what is accepted and why).

use super::codes::{fourcc, from_dxgi, from_fourcc};
use super::layout::*;
use super::{DdsError, DdsImage, DdsRead, DdsWarning};
use crate::texture::MAX_DIMENSION;

/// Reads a little-endian u32 at `at`; the caller has checked the length.
fn u32_at(file: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]])
}

pub(super) fn read(file: &[u8]) -> Result<DdsRead, DdsError> {
    let truncated = |what: &str, expected: usize| DdsError::Truncated {
        what: what.to_string(),
        expected: expected as u64,
        found: file.len() as u64,
    };
    if file.len() < BASE_BYTES {
        return Err(truncated("the magic and the 124-byte DDS_HEADER", BASE_BYTES));
    }
    let at = |offset: usize| u32_at(file, offset);
    field("magic", at(0), MAGIC, "0x20534444 (\"DDS \")")?;
    field("dwSize", at(4), HEADER_BYTES as u32, "124")?;
    field("ddspf.dwSize", at(76), PIXEL_FORMAT_BYTES, "32")?;
    let (flags, height, width, depth, mips) = (at(8), at(12), at(16), at(24), at(28));
    let (pf_flags, code, caps2) = (at(80), at(84), at(112));
    let mut warnings = Vec::new();
    if caps2 & DDSCAPS2_CUBEMAP != 0 {
        return Err(unsupported("cube map (dwCaps2 has DDSCAPS2_CUBEMAP)", "a 2D texture"));
    }
    if caps2 & DDSCAPS2_VOLUME != 0 || (flags & DDSD_DEPTH != 0 && depth > 1) {
        return Err(unsupported(&format!("volume texture (dwCaps2 {caps2:#x}, dwDepth {depth})"), "a 2D texture"));
    }
    if pf_flags & DDPF_FOURCC == 0 {
        return Err(DdsError::Unsupported {
            what: format!("uncompressed pixel format (ddspf.dwFlags {pf_flags:#x} lacks DDPF_FOURCC)"),
            expected: "a block-compressed FourCC or DX10 format",
        });
    }
    // Dimensions before the DX10 header's checks, which need them to judge dimension 0.
    for (axis, field, value) in [("width", "Width", width), ("height", "Height", height)] {
        if value == 0 || value > MAX_DIMENSION {
            return Err(DdsError::Dimension { axis, field, value, max: MAX_DIMENSION });
        }
    }
    let (format, srgb, data_at) = if code == fourcc(b"DX10") {
        let end = BASE_BYTES + DX10_BYTES;
        if file.len() < end {
            return Err(truncated("the DDS_HEADER_DXT10 that FourCC \"DX10\" announces", end));
        }
        if at(136) & MISC_TEXTURECUBE != 0 {
            return Err(unsupported("cube map (miscFlag has TEXTURECUBE)", "a 2D texture"));
        }
        let array_size = at(140);
        // Pillow (13.0) writes 0 here for every DDS it saves; DirectXTex would refuse it, but
        // with no other slice count in the header it can only mean one texture.
        if array_size == 0 {
            warnings.push(DdsWarning::ZeroArraySize);
        }
        if array_size > 1 {
            return Err(unsupported(&format!("texture array (arraySize {array_size})"), "arraySize 1"));
        }
        match at(132) {
            DIMENSION_TEXTURE2D => {}
            // Some writers leave the dimension unknown. The rest of the header decides: with
            // no depth (cube maps and arrays are refused above) it can only be a 2D texture
            // (a 1D one is its height-1 case, laid out identically).
            DIMENSION_UNKNOWN if depth <= 1 => warnings.push(DdsWarning::UnknownDimension { width, height, depth }),
            DIMENSION_UNKNOWN => {
                return Err(unsupported(
                    &format!("resourceDimension 0 (unknown) with dwDepth {depth}, a volume texture"),
                    "a 2D texture (dwDepth 0 or 1)",
                ))
            }
            DIMENSION_TEXTURE1D => {
                return Err(unsupported("1D texture (resourceDimension 2)", "resourceDimension 3 (TEXTURE2D)"))
            }
            DIMENSION_TEXTURE3D => {
                return Err(unsupported("volume texture (resourceDimension 4)", "resourceDimension 3 (TEXTURE2D)"))
            }
            found => {
                return Err(DdsError::Field {
                    field: "resourceDimension",
                    found,
                    expected: "3 (TEXTURE2D) or 0 (unknown, read as 2D); 2 and 4 are 1D and 3D",
                })
            }
        }
        let (format, srgb) = from_dxgi(at(128))?;
        (format, srgb, end)
    } else {
        (from_fourcc(code)?, false, BASE_BYTES)
    };
    let mip_count = mips.max(1);
    let max = max_mips(width, height);
    if mip_count > max {
        return Err(DdsError::MipCount { value: mip_count, max, width, height });
    }
    // The chain's size comes from the (capped) header alone and is checked against the file
    // before anything is allocated, so a lying header costs nothing.
    let total: u64 = (0..mip_count).map(|l| mip_bytes(format, width, height, l)).sum();
    let expected = data_at as u64 + total;
    if (file.len() as u64) < expected {
        return Err(DdsError::Truncated {
            what: format!("{mip_count} mips of a {width}x{height} {format:?} texture (dwMipMapCount {mips})"),
            expected,
            found: file.len() as u64,
        });
    }
    if file.len() as u64 > expected {
        warnings.push(DdsWarning::TrailingBytes { bytes: file.len() as u64 - expected, expected, mips: mip_count });
    }
    let mut offset = data_at;
    let mips = (0..mip_count)
        .map(|l| {
            let len = mip_bytes(format, width, height, l) as usize;
            offset += len;
            file[offset - len..offset].to_vec()
        })
        .collect();
    Ok(DdsRead { image: DdsImage { format, width, height, mip_count, srgb, mips }, warnings })
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
