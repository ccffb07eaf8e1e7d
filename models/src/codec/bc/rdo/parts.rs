//! Block parts: where each field of a block lives and how its palette decodes.

use super::super::alpha;
use super::super::color::{self, ColorMode};
use super::RdoError;
use crate::texture::BcFormat;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// RGB565 endpoints (4 B) + 2-bit indices (4 B), decoded with `ColorMode`.
    Color(ColorMode),
    /// 8-bit endpoints (2 B) + 3-bit indices (6 B) of RGBA channel `channel`.
    Alpha { channel: usize },
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Part {
    /// Byte offset of the part inside its block.
    pub offset: usize,
    pub kind: Kind,
}

pub(super) fn parts(format: BcFormat) -> Result<&'static [Part], RdoError> {
    const BC1: [Part; 1] = [Part { offset: 0, kind: Kind::Color(ColorMode::Bc1) }];
    const BC3: [Part; 2] = [
        Part { offset: 0, kind: Kind::Alpha { channel: 3 } },
        Part { offset: 8, kind: Kind::Color(ColorMode::FourColor) },
    ];
    const BC4: [Part; 1] = [Part { offset: 0, kind: Kind::Alpha { channel: 0 } }];
    const BC5: [Part; 2] =
        [Part { offset: 0, kind: Kind::Alpha { channel: 0 } }, Part { offset: 8, kind: Kind::Alpha { channel: 1 } }];
    match format {
        BcFormat::Bc1 => Ok(&BC1),
        BcFormat::Bc3 => Ok(&BC3),
        BcFormat::Bc4 => Ok(&BC4),
        BcFormat::Bc5 => Ok(&BC5),
        BcFormat::Bc2 | BcFormat::Bc6h | BcFormat::Bc7 => Err(RdoError::Unsupported { format }),
    }
}

impl Kind {
    /// Bytes of the endpoint field; the index field is the rest of the 8-byte part.
    pub(super) fn endpoint_bytes(self) -> usize {
        match self {
            Kind::Color(_) => 4,
            Kind::Alpha { .. } => 2,
        }
    }

    pub(super) fn index_bits(self) -> u32 {
        match self {
            Kind::Color(_) => 2,
            Kind::Alpha { .. } => 3,
        }
    }

    /// The part's palette as RGBA (alpha parts put their value in R).
    pub(super) fn palette(self, endpoints: u64) -> Palette {
        let mut out = [[0i32; 4]; 8];
        match self {
            Kind::Color(mode) => {
                let p = color::palette(endpoints as u16, (endpoints >> 16) as u16, mode);
                for (o, c) in out.iter_mut().zip(p) {
                    *o = c.map(i32::from);
                }
                Palette { rgba: out, len: 4 }
            }
            Kind::Alpha { .. } => {
                for (o, v) in out.iter_mut().zip(alpha::palette(endpoints as u8, (endpoints >> 8) as u8)) {
                    *o = [i32::from(v), 0, 0, 255];
                }
                Palette { rgba: out, len: 8 }
            }
        }
    }
}

/// A decoded palette: `len` (4 or 8) RGBA entries.
#[derive(Debug, Clone, Copy)]
pub(super) struct Palette {
    pub rgba: [[i32; 4]; 8],
    pub len: usize,
}

/// Little-endian value of `bytes` (at most 8).
pub(super) fn read_le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |v, &b| (v << 8) | u64::from(b))
}

pub(super) fn write_le(bytes: &mut [u8], value: u64) {
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (value >> (8 * i)) as u8;
    }
}
