//! Packing option values as command lines and sweep files write them.

use sfsim_models::codec::bc::Bc7Modes;
use sfsim_models::texture::BcFormat;

/// The format named by `s` (bc1, bc2, bc3, bc4, bc5, bc7).
pub fn parse_format(s: &str) -> Result<BcFormat, String> {
    Ok(match s.trim().to_ascii_lowercase().as_str() {
        "bc1" => BcFormat::Bc1,
        "bc2" => BcFormat::Bc2,
        "bc3" => BcFormat::Bc3,
        "bc4" => BcFormat::Bc4,
        "bc5" => BcFormat::Bc5,
        "bc7" => BcFormat::Bc7,
        _ => return Err(format!("`{s}` is not a format the packer encodes; expected bc1, bc2, bc3, bc4, bc5 or bc7")),
    })
}

/// A BC7 mode mask written as hex (`0x80`).
pub fn parse_bc7_modes(s: &str) -> Result<Bc7Modes, String> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    let mask = u8::from_str_radix(digits, 16)
        .map_err(|_| format!("`{s}` is not a BC7 mode mask; expected a hex byte 0x01..0xff, e.g. 0x80 = mode 7"))?;
    Bc7Modes::new(mask).map_err(|e| e.to_string())
}
