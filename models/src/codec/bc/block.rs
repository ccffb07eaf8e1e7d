//! One 4x4 block of any BC format to 16 RGBA8 texels, plus BC6H to floats and the BC7 mode.
//!
//! BC1–BC5 are decoded by sfsim's own code (`color`, `alpha`) so their rounding is pinned to
//! one convention; BC6H and BC7, whose interpolation the format specifications define
//! bit-exactly in integers, come from `bcdec_rs`.

use super::{alpha, color, BcError};
use crate::texture::BcFormat;

/// Bytes of one decoded block: 16 texels, RGBA8, row-major (texel (x, y) at `(y * 4 + x) * 4`).
pub const BLOCK_RGBA_BYTES: usize = 64;

/// Decodes one block of `format` to RGBA8.
///
/// Channel layout follows D3D's UNORM views: BC4 gives (R, 0, 0, 255), BC5 (R, G, 0, 255);
/// BC6H (read as unsigned UF16) is clamped to [0, 1] and rounded to 8 bits with alpha 255
/// (use [`decode_bc6h_block`] for the HDR values). A BC7 block with the reserved mode 8 (first
/// byte 0) decodes to transparent black, as D3D specifies.
pub fn decode_block(format: BcFormat, block: &[u8]) -> Result<[u8; BLOCK_RGBA_BYTES], BcError> {
    let mut out = [0u8; BLOCK_RGBA_BYTES];
    let wrong_len = || BcError::BlockLength { format, expected: format.block_bytes() as usize, found: block.len() };
    match format {
        BcFormat::Bc1 | BcFormat::Bc4 => {
            let b: &[u8; 8] = block.try_into().map_err(|_| wrong_len())?;
            if format == BcFormat::Bc1 {
                color::decode(b, color::ColorMode::Bc1, &mut out);
            } else {
                fill_opaque_black(&mut out);
                alpha::decode_interpolated(b, 0, &mut out);
            }
        }
        _ => {
            let b: &[u8; 16] = block.try_into().map_err(|_| wrong_len())?;
            let (lo, hi) = halves(b);
            match format {
                BcFormat::Bc2 => {
                    color::decode(hi, color::ColorMode::FourColor, &mut out);
                    alpha::decode_explicit(lo, &mut out);
                }
                BcFormat::Bc3 => {
                    color::decode(hi, color::ColorMode::FourColor, &mut out);
                    alpha::decode_interpolated(lo, 3, &mut out);
                }
                BcFormat::Bc5 => {
                    fill_opaque_black(&mut out);
                    alpha::decode_interpolated(lo, 0, &mut out);
                    alpha::decode_interpolated(hi, 1, &mut out);
                }
                BcFormat::Bc6h => {
                    for (px, rgb) in out.chunks_exact_mut(4).zip(bc6h_floats(b, false)) {
                        let [r, g, b] = rgb.map(unorm8);
                        px.copy_from_slice(&[r, g, b, 255]);
                    }
                }
                // BC7 (BC1/BC4 are handled above).
                _ => bcdec_rs::bc7(b, &mut out, 16),
            }
        }
    }
    Ok(out)
}

/// Decodes one BC6H block to linear RGB floats (16 texels, row-major). `signed` selects
/// `BC6H_SF16` instead of `BC6H_UF16`. Reserved modes decode to zero, as D3D specifies.
pub fn decode_bc6h_block(block: &[u8], signed: bool) -> Result<[[f32; 3]; 16], BcError> {
    let b: &[u8; 16] = block.try_into().map_err(|_| BcError::BlockLength {
        format: BcFormat::Bc6h,
        expected: 16,
        found: block.len(),
    })?;
    Ok(bc6h_floats(b, signed))
}

/// The BC7 mode (0..=7) of a block: the number of zero bits before the first set bit, LSB
/// first. `None` for the reserved mode 8 (first byte 0) or an empty slice. Reads only the
/// first byte, so a caller can pass a whole 16-byte block or just its head.
pub fn bc7_block_mode(block: &[u8]) -> Option<u8> {
    match block.first() {
        Some(&b) if b != 0 => Some(b.trailing_zeros() as u8),
        _ => None,
    }
}

fn halves(b: &[u8; 16]) -> (&[u8; 8], &[u8; 8]) {
    let (lo, hi) = b.split_at(8);
    // Both halves are exactly 8 bytes of a 16-byte array.
    (lo.try_into().unwrap_or(&[0; 8]), hi.try_into().unwrap_or(&[0; 8]))
}

fn fill_opaque_black(out: &mut [u8; BLOCK_RGBA_BYTES]) {
    for px in out.chunks_exact_mut(4) {
        px.copy_from_slice(&[0, 0, 0, 255]);
    }
}

fn bc6h_floats(b: &[u8; 16], signed: bool) -> [[f32; 3]; 16] {
    let mut flat = [0f32; 48];
    bcdec_rs::bc6h_float(b, &mut flat, 12, signed);
    let mut out = [[0f32; 3]; 16];
    for (texel, rgb) in out.iter_mut().zip(flat.chunks_exact(3)) {
        texel.copy_from_slice(rgb);
    }
    out
}

/// [0, 1] float to UNORM8, nearest; NaN and negatives to 0, above 1 to 255.
fn unorm8(v: f32) -> u8 {
    if v.is_nan() {
        0
    } else {
        (v.clamp(0.0, 1.0) * 255.0).round() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wrong_block_length_is_an_error_naming_both_sizes() {
        let err = decode_block(BcFormat::Bc7, &[0u8; 8]).unwrap_err();
        assert_eq!(err, BcError::BlockLength { format: BcFormat::Bc7, expected: 16, found: 8 });
        assert_eq!(err.to_string(), "Bc7 block is 8 B; expected 16 B");
        assert!(decode_block(BcFormat::Bc1, &[0u8; 16]).is_err());
        assert!(decode_bc6h_block(&[0u8; 15], false).is_err());
    }

    #[test]
    fn bc4_and_bc5_fill_unused_channels_like_d3d() {
        let out = decode_block(BcFormat::Bc4, &[77, 77, 0, 0, 0, 0, 0, 0]).unwrap();
        assert!(out.chunks(4).all(|p| p == [77, 0, 0, 255]));
        let mut b = [0u8; 16];
        b[0..2].copy_from_slice(&[10, 10]);
        b[8..10].copy_from_slice(&[200, 200]);
        let out = decode_block(BcFormat::Bc5, &b).unwrap();
        assert!(out.chunks(4).all(|p| p == [10, 200, 0, 255]));
    }

    #[test]
    fn bc3_alpha_decodes_like_bc4() {
        let alpha_half = [200u8, 10, 0b1010_1100, 0x3F, 0x12, 0x9A, 0xFF, 0x00];
        let mut b3 = [0u8; 16];
        b3[..8].copy_from_slice(&alpha_half);
        let bc3 = decode_block(BcFormat::Bc3, &b3).unwrap();
        let bc4 = decode_block(BcFormat::Bc4, &alpha_half).unwrap();
        for (p3, p4) in bc3.chunks(4).zip(bc4.chunks(4)) {
            assert_eq!(p3[3], p4[0]);
        }
    }

    #[test]
    fn bc2_uses_explicit_alpha_and_four_colors() {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&0x0123_4567_89AB_CDEFu64.to_le_bytes());
        // c0 = 0 < c1 = 0xFFFF would be BC1's three-colour mode; BC2 stays four-colour.
        b[10..12].copy_from_slice(&0xFFFFu16.to_le_bytes());
        b[12..16].copy_from_slice(&[0xFF; 4]);
        let out = decode_block(BcFormat::Bc2, &b).unwrap();
        // Index 3 = (c0 + 2*c1)/3 = 170 on every channel, not transparent black.
        assert_eq!(&out[0..3], &[170, 170, 170]);
        let alphas: Vec<u8> = out.chunks(4).map(|p| p[3]).collect();
        let want: Vec<u8> = (0..16).map(|k| ((0x0123_4567_89AB_CDEFu64 >> (4 * k)) & 15) as u8 * 17).collect();
        assert_eq!(alphas, want);
    }

    #[test]
    fn bc2_block_decodes_as_computed_by_hand() {
        // Alpha nibbles 0..15 in texel order; colour c0 = pure blue 0x001F < c1 = pure red
        // 0xF800 (BC1 would take three-colour mode), index rows 0, 1, 2, 3.
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&0xFEDC_BA98_7654_3210u64.to_le_bytes());
        b[8..12].copy_from_slice(&[0x1F, 0x00, 0x00, 0xF8]);
        b[12..16].copy_from_slice(&[0x00, 0x55, 0xAA, 0xFF]);
        let out = decode_block(BcFormat::Bc2, &b).unwrap();
        // Palette: c0, c1, (2·c0 + c1)/3, (c0 + 2·c1)/3 — exact thirds of 255.
        let rows = [[0, 0, 255], [255, 0, 0], [85, 0, 170], [170, 0, 85]];
        for (k, px) in out.chunks(4).enumerate() {
            let [r, g, b] = rows[k / 4];
            assert_eq!(px, [r, g, b, k as u8 * 17], "texel {k}");
        }
    }

    #[test]
    fn bc7_mode_bits() {
        for mode in 0..8u8 {
            let mut b = [0xA5u8; 16];
            b[0] = (1u8 << mode) | 0x80;
            assert_eq!(bc7_block_mode(&b), Some(mode));
        }
        assert_eq!(bc7_block_mode(&[0u8; 16]), None);
        assert_eq!(bc7_block_mode(&[]), None);
    }

    #[test]
    fn bc7_reserved_mode_is_transparent_black() {
        let out = decode_block(BcFormat::Bc7, &[0u8; 16]).unwrap();
        assert_eq!(out, [0u8; 64]);
    }

    #[test]
    fn bc7_mode6_by_hand() {
        // Mode 6: 7 mode bits (1 << 6), then R0 R1 G0 G1 B0 B1 A0 A1 (7 bits each), P0, P1,
        // then 16 indices of 4 bits (texel 0's MSB implied 0, so 3 bits).
        let mut bits: u128 = 1 << 6;
        let mut pos = 7;
        let mut put = |v: u128, n: u32| {
            bits |= v << pos;
            pos += n;
        };
        // Endpoint 0 = (127, 0, 64, 127) with p-bit 1 -> 8-bit (255, 1, 129, 255);
        // endpoint 1 = (0, 127, 64, 127) with p-bit 0 -> (0, 254, 128, 254).
        for (e0, e1) in [(127, 0), (0, 127), (64, 64), (127, 127)] {
            put(e0, 7);
            put(e1, 7);
        }
        put(1, 1);
        put(0, 1);
        put(0, 3); // texel 0: index 0
        put(15, 4); // texel 1: index 15
        put(8, 4); // texel 2: index 8, weight 34
        let out = decode_block(BcFormat::Bc7, &bits.to_le_bytes()).unwrap();
        assert_eq!(&out[0..4], &[255, 1, 129, 255]);
        assert_eq!(&out[4..8], &[0, 254, 128, 254]);
        // ((64 - 34) * e0 + 34 * e1 + 32) >> 6, the BC7 spec's interpolation.
        let lerp = |a: u32, b: u32| (((64 - 34) * a + 34 * b + 32) >> 6) as u8;
        assert_eq!(&out[8..12], &[lerp(255, 0), lerp(1, 254), lerp(129, 128), lerp(255, 254)]);
    }

    #[test]
    fn bc6h_constant_block_is_finite_and_ldr_clamps() {
        // Mode 11 (5 bits 00011), 10-bit endpoints all max: UF16 0xFFFF unquantized -> 65504.
        let mut bits: u128 = 0b00011;
        bits |= ((1u128 << 60) - 1) << 5;
        let floats = decode_bc6h_block(&bits.to_le_bytes(), false).unwrap();
        assert!(floats.iter().flatten().all(|v| v.is_finite() && *v > 1.0));
        let ldr = decode_block(BcFormat::Bc6h, &bits.to_le_bytes()).unwrap();
        assert_eq!(&ldr[0..4], &[255, 255, 255, 255]);
        assert_eq!(decode_block(BcFormat::Bc6h, &[0u8; 16]).unwrap()[0..4], [0, 0, 0, 255]);
    }

    #[test]
    fn bc6h_reserved_mode_is_zero() {
        // Mode bits 10011 (read LSB first as 2 + 3 bits) are reserved; the rest all ones.
        let mut b = [0xFFu8; 16];
        b[0] = 0b1111_0011;
        assert_eq!(b[0] & 0x1F, 0b10011);
        assert!(decode_bc6h_block(&b, false).unwrap().iter().flatten().all(|v| *v == 0.0));
        assert!(decode_block(BcFormat::Bc6h, &b).unwrap().chunks(4).all(|p| p == [0, 0, 0, 255]));
    }

    /// What any block of `format` must decode to, whatever its bytes.
    fn check_invariants(format: BcFormat, b: &[u8], out: &[u8; 64]) -> Result<(), TestCaseError> {
        for px in out.chunks(4) {
            match format {
                BcFormat::Bc1 => prop_assert!(px[3] == 255 || px == [0, 0, 0, 0]),
                BcFormat::Bc2 => prop_assert_eq!(px[3] % 17, 0),
                BcFormat::Bc4 => prop_assert_eq!(&px[1..], &[0, 0, 255]),
                BcFormat::Bc5 => prop_assert_eq!(&px[2..], &[0, 255]),
                BcFormat::Bc6h => prop_assert_eq!(px[3], 255),
                BcFormat::Bc7 => match bc7_block_mode(b) {
                    None => prop_assert_eq!(px, [0, 0, 0, 0]),
                    Some(m) if m < 4 => prop_assert_eq!(px[3], 255),
                    Some(_) => {}
                },
                BcFormat::Bc3 => {}
            }
        }
        if format == BcFormat::Bc3 {
            // The colour half is always four-colour: never transparent black from index 3.
            let mut colour_only = [0u8; 64];
            let hi: &[u8; 8] = b[8..].try_into().unwrap();
            color::decode(hi, color::ColorMode::FourColor, &mut colour_only);
            for (px, c) in out.chunks(4).zip(colour_only.chunks(4)) {
                prop_assert_eq!(&px[..3], &c[..3]);
                prop_assert_eq!(c[3], 255);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        #[test]
        fn random_blocks_never_panic(bytes in any::<[u8; 16]>()) {
            for format in BcFormat::all() {
                let b = &bytes[..format.block_bytes() as usize];
                check_invariants(format, b, &decode_block(format, b).unwrap())?;
            }
            for signed in [false, true] {
                let f = decode_bc6h_block(&bytes, signed).unwrap();
                prop_assert!(f.iter().flatten().all(|v| !v.is_nan()));
            }
            let _ = bc7_block_mode(&bytes);
        }

        /// Random bytes hit BC7 mode 0 half the time and mode 7 one time in 256; force each
        /// mode so every mode's field parsing sees random partitions, endpoints and indices.
        #[test]
        fn every_bc7_mode_with_random_fields_decodes(mode in 0u8..8, bytes in any::<[u8; 16]>()) {
            let mut b = bytes;
            b[0] = (b[0] << mode << 1) | (1 << mode);
            prop_assert_eq!(bc7_block_mode(&b), Some(mode));
            let out = decode_block(BcFormat::Bc7, &b).unwrap();
            // Modes 0-3 have no alpha: opaque.
            if mode < 4 {
                prop_assert!(out.chunks(4).all(|p| p[3] == 255));
            }
        }

        /// An encoder-made block with one or two bits flipped still decodes, and keeps the
        /// format's structural invariants.
        #[test]
        fn mutated_encoded_blocks_decode(
            texels in any::<[u8; 64]>(), bits in any::<[u8; 2]>(), format_idx in 0usize..7,
        ) {
            let format = BcFormat::all()[format_idx];
            let n = format.block_bytes() as usize;
            let settings = super::super::EncodeSettings::default();
            let mut b = match super::super::encode_surface(format, 4, 4, &texels, &settings) {
                Ok(b) => b,
                // BC2 / BC6H have no encoder: start from the texels' bytes.
                Err(_) => texels[..n].to_vec(),
            };
            prop_assert_eq!(b.len(), n);
            for bit in bits {
                let bit = bit as usize % (n * 8);
                b[bit / 8] ^= 1 << (bit % 8);
            }
            check_invariants(format, &b, &decode_block(format, &b).unwrap())?;
        }

        #[test]
        fn wrong_lengths_are_errors_not_panics(len in 0usize..40) {
            for format in BcFormat::all() {
                let bytes = vec![0xA7u8; len];
                let ok = decode_block(format, &bytes).is_ok();
                prop_assert_eq!(ok, len == format.block_bytes() as usize);
            }
        }

        #[test]
        fn bc1_alpha_is_opaque_unless_three_color_index_3(bytes in any::<[u8; 8]>()) {
            let out = decode_block(BcFormat::Bc1, &bytes).unwrap();
            let c0 = u16::from_le_bytes([bytes[0], bytes[1]]);
            let c1 = u16::from_le_bytes([bytes[2], bytes[3]]);
            let idx = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
            for (k, px) in out.chunks(4).enumerate() {
                let transparent = c0 <= c1 && (idx >> (2 * k)) & 3 == 3;
                prop_assert_eq!(px[3], if transparent { 0 } else { 255 });
            }
        }

        #[test]
        fn bc7_reserved_mode_is_transparent_black_for_any_tail(tail in any::<[u8; 15]>()) {
            let mut bytes = [0u8; 16];
            bytes[1..].copy_from_slice(&tail);
            prop_assert_eq!(bc7_block_mode(&bytes), None);
            prop_assert_eq!(decode_block(BcFormat::Bc7, &bytes).unwrap(), [0u8; 64]);
        }
    }
}
