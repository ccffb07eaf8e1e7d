//! DXGI format numbers and legacy FourCCs ↔ [`BcFormat`] (+ sRGB).

use super::DdsError;
use crate::texture::BcFormat;

pub(super) const fn fourcc(code: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*code)
}

const EXPECTED_FORMATS: &str =
    "a BC1-BC7 UNORM, UNORM_SRGB or TYPELESS DXGI format (70-78, 79-80, 82-83, 94-95, 97-99)";

/// DXGI_FORMAT -> (format, sRGB). TYPELESS reads as UNORM.
pub(super) fn from_dxgi(dxgi: u32) -> Result<(BcFormat, bool), DdsError> {
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
        _ => {
            return Err(DdsError::Unsupported {
                what: format!("DXGI format (dxgiFormat) {dxgi}"),
                expected: EXPECTED_FORMATS,
            })
        }
    })
}

pub(super) fn to_dxgi(format: BcFormat, srgb: bool) -> Result<u32, DdsError> {
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

/// A legacy FourCC. `DXT2` / `DXT4` (premultiplied alpha) read as BC2 / BC3: the blocks are
/// the same, only the alpha's meaning differs, which packing does not touch.
pub(super) fn from_fourcc(code: u32) -> Result<BcFormat, DdsError> {
    Ok(match &code.to_le_bytes() {
        b"DXT1" => BcFormat::Bc1,
        b"DXT2" | b"DXT3" => BcFormat::Bc2,
        b"DXT4" | b"DXT5" => BcFormat::Bc3,
        b"ATI1" | b"BC4U" => BcFormat::Bc4,
        b"ATI2" | b"BC5U" => BcFormat::Bc5,
        bytes => {
            let shown: String = bytes.iter().map(|&b| if b.is_ascii_graphic() { b as char } else { '?' }).collect();
            return Err(DdsError::Unsupported {
                what: format!("FourCC (ddspf.dwFourCC) {code:#010x} (\"{shown}\")"),
                expected: "DX10, DXT1, DXT2, DXT3, DXT4, DXT5, ATI1, BC4U, ATI2 or BC5U",
            });
        }
    })
}

/// The FourCC a DX9 header names `format` by (the ones texconv `-dx9` writes).
pub(super) fn to_fourcc(format: BcFormat) -> Result<u32, DdsError> {
    Ok(fourcc(match format {
        BcFormat::Bc1 => b"DXT1",
        BcFormat::Bc2 => b"DXT3",
        BcFormat::Bc3 => b"DXT5",
        BcFormat::Bc4 => b"ATI1",
        BcFormat::Bc5 => b"ATI2",
        BcFormat::Bc6h | BcFormat::Bc7 => return Err(DdsError::NoFourcc { format }),
    }))
}
