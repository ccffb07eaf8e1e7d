//! Writing a DDS file: the DX10 header with the field values texconv writes, or (for readers
//! that know only DX9 files) the legacy FourCC header texconv's `-dx9` writes.

use super::codes::{fourcc, to_dxgi, to_fourcc};
use super::layout::*;
use super::{DdsError, DdsImage};
use crate::texture::MAX_DIMENSION;

pub(super) fn write(image: &DdsImage) -> Result<Vec<u8>, DdsError> {
    let (format, width, height) = (image.format, image.width, image.height);
    for (axis, field, value) in [("width", "Width", width), ("height", "Height", height)] {
        if value == 0 || value > MAX_DIMENSION {
            return Err(DdsError::Dimension { axis, field, value, max: MAX_DIMENSION });
        }
    }
    let max = max_mips(width, height);
    if image.mip_count == 0 || image.mip_count > max {
        return Err(DdsError::MipCount { value: image.mip_count, max, width, height });
    }
    if image.mips.len() != image.mip_count as usize {
        return Err(DdsError::MipList { mip_count: image.mip_count, found: image.mips.len() });
    }
    for (level, mip) in (0..).zip(&image.mips) {
        let expected = mip_bytes(format, width, height, level);
        if mip.len() as u64 != expected {
            let (width, height) = mip_size(width, height, level);
            return Err(DdsError::MipLength { level, width, height, format, expected, found: mip.len() as u64 });
        }
    }
    let dxgi = to_dxgi(format, image.srgb)?;
    let data: usize = image.mips.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(BASE_BYTES + DX10_BYTES + data);
    let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
    put(MAGIC);
    put(HEADER_BYTES as u32);
    put(DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT | DDSD_MIPMAPCOUNT | DDSD_LINEARSIZE);
    put(height);
    put(width);
    put(mip_bytes(format, width, height, 0) as u32); // dwPitchOrLinearSize: at most 256 MiB
    put(0); // dwDepth
    put(image.mip_count);
    (0..11).for_each(|_| put(0)); // dwReserved1
                                  // DDS_PIXELFORMAT: FourCC "DX10", no RGB masks.
    [PIXEL_FORMAT_BYTES, DDPF_FOURCC, fourcc(b"DX10"), 0, 0, 0, 0, 0].into_iter().for_each(&mut put);
    let mip_caps = if image.mip_count > 1 { DDSCAPS_COMPLEX | DDSCAPS_MIPMAP } else { 0 };
    put(DDSCAPS_TEXTURE | mip_caps);
    (0..4).for_each(|_| put(0)); // dwCaps2..4, dwReserved2
                                 // DDS_HEADER_DXT10: format, TEXTURE2D, no misc flags, one array slice, alpha mode unknown.
    [dxgi, DIMENSION_TEXTURE2D, 0, 1, 0].into_iter().for_each(&mut put);
    for mip in &image.mips {
        out.extend_from_slice(mip);
    }
    Ok(out)
}

/// The same file with a legacy FourCC in place of the DX10 header: `DXT1`, `DXT3`, `DXT5`,
/// `ATI1`, `ATI2`. It cannot say sRGB (readers take the data as UNORM), and BC6H / BC7 have
/// no FourCC.
pub(super) fn write_legacy(image: &DdsImage) -> Result<Vec<u8>, DdsError> {
    let code = to_fourcc(image.format)?;
    let mut out = write(&DdsImage { srgb: false, ..image.clone() })?;
    out[84..88].copy_from_slice(&code.to_le_bytes());
    out.drain(BASE_BYTES..BASE_BYTES + DX10_BYTES);
    Ok(out)
}
