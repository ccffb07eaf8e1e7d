//! RGBA8 to BC1, BC2, BC3, BC4, BC5 and BC7 with intel_tex_2 (Intel's ISPC Texture Compressor,
//! prebuilt kernels; needs libstdc++, linked by models/build.rs). BC2, which intel_tex_2 has
//! no kernel for, is BC3's colour half (a BC1 block always read in four-colour mode, as
//! BC2's is) beside explicit 4-bit alpha rounded to the nearest of its 16 levels.
//!
//! The ISPC kernels only take whole 4x4 blocks and trust the caller's buffer sizes, so every
//! call goes through here: sizes are checked, a surface whose width or height is not a
//! multiple of 4 is edge-padded (the last column / row repeated, so edge blocks are not
//! pulled towards black), and BC4 / BC5 get the tightly packed R / RG planes their kernels
//! read.

use super::bc7_modes::{self, Bc7Modes, Bc7Quality};
use super::surface::block_grid;
use super::BcError;
use crate::texture::BcFormat;
use intel_tex_2::{bc1, bc3, bc4, bc5, bc7, RSurface, RgSurface, RgbaSurface};

/// Encoder knobs. BC1, BC3, BC4 and BC5 have none in intel_tex_2; they apply to BC7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EncodeSettings {
    /// BC7 effort preset.
    pub bc7_quality: Bc7Quality,
    /// BC7 modes the encoder may use; `None` = the preset's own choice.
    pub bc7_modes: Option<Bc7Modes>,
}

/// Encodes a `width` x `height` RGBA8 image (row-major, `width * height * 4` bytes) as
/// `format` blocks in row-major order, `format.surface_bytes(width, height)` bytes.
///
/// What is encoded: BC1 the RGB channels as an opaque block (alpha is ignored); BC3 RGBA;
/// BC2 RGBA (colour from BC3's encoder, alpha quantised to 4 bits: `round(a · 15 / 255)`, no
/// dithering); BC4 the R channel; BC5 R and G; BC7 RGBA, with intel's opaque presets when every
/// texel has alpha 255 and its alpha presets otherwise. BC6H is not supported.
pub fn encode_surface(
    format: BcFormat,
    width: u32,
    height: u32,
    rgba: &[u8],
    settings: &EncodeSettings,
) -> Result<Vec<u8>, BcError> {
    let (blocks_x, blocks_y) = block_grid(width, height)?;
    let expected = u64::from(width) * u64::from(height) * 4;
    if rgba.len() as u64 != expected {
        return Err(BcError::ImageLength { width, height, expected, found: rgba.len() as u64 });
    }
    let (pw, ph) = (blocks_x * 4, blocks_y * 4);
    let mut out = vec![0u8; format.surface_bytes(width, height) as usize];
    match format {
        BcFormat::Bc1 | BcFormat::Bc2 | BcFormat::Bc3 | BcFormat::Bc7 => {
            let padded;
            let data = if (pw, ph) == (width, height) {
                rgba
            } else {
                padded = pad(rgba, width, height, pw, ph, &[0, 1, 2, 3]);
                &padded[..]
            };
            let surface = RgbaSurface { data, width: pw, height: ph, stride: pw * 4 };
            match format {
                BcFormat::Bc1 => {
                    bc1::compress_blocks_into(&surface, &mut out);
                    force_opaque_bc1(&mut out);
                }
                BcFormat::Bc3 => bc3::compress_blocks_into(&surface, &mut out),
                BcFormat::Bc2 => {
                    // BC3's colour half is exactly BC2's (both four-colour only), so only the
                    // alpha half is replaced.
                    bc3::compress_blocks_into(&surface, &mut out);
                    explicit_alpha(data, pw, &mut out);
                }
                _ => {
                    let alpha = rgba.chunks_exact(4).any(|p| p[3] != 255);
                    let s = bc7_modes::settings(settings.bc7_quality, alpha, settings.bc7_modes);
                    bc7::compress_blocks_into(&s, &surface, &mut out);
                }
            }
        }
        BcFormat::Bc4 => {
            let data = pad(rgba, width, height, pw, ph, &[0]);
            bc4::compress_blocks_into(&RSurface { data: &data, width: pw, height: ph, stride: pw }, &mut out);
        }
        BcFormat::Bc5 => {
            let data = pad(rgba, width, height, pw, ph, &[0, 1]);
            bc5::compress_blocks_into(&RgSurface { data: &data, width: pw, height: ph, stride: pw * 2 }, &mut out);
        }
        BcFormat::Bc6h => return Err(BcError::EncodeUnsupported { format }),
    }
    Ok(out)
}

/// Copies `channels` of each texel of a `width` x `height` RGBA8 image into a tightly packed
/// `pw` x `ph` image, repeating the last column and row into the padding.
fn pad(rgba: &[u8], width: u32, height: u32, pw: u32, ph: u32, channels: &[usize]) -> Vec<u8> {
    let (w, pw, ph) = (width as usize, pw as usize, ph as usize);
    let mut out = Vec::with_capacity(pw * ph * channels.len());
    for y in 0..ph {
        let row = &rgba[y.min(height as usize - 1) * w * 4..][..w * 4];
        for x in 0..pw {
            let px = &row[x.min(w - 1) * 4..][..4];
            out.extend(channels.iter().map(|&c| px[c]));
        }
    }
    out
}

/// Writes each block's first 8 bytes as BC2's explicit alpha: texel `k` (row-major in the
/// block) in bits `4k..4k + 4`, the nearest of the levels `0, 17, …, 255` to its alpha.
/// `rgba` is the padded `pw`-wide image the blocks were encoded from.
fn explicit_alpha(rgba: &[u8], pw: u32, blocks: &mut [u8]) {
    let blocks_x = (pw / 4) as usize;
    for (index, block) in blocks.chunks_exact_mut(16).enumerate() {
        let (bx, by) = (index % blocks_x, index / blocks_x);
        let mut bits = 0u64;
        for k in 0..16 {
            let (x, y) = (bx * 4 + k % 4, by * 4 + k / 4);
            let alpha = u32::from(rgba[(y * pw as usize + x) * 4 + 3]);
            bits |= u64::from((alpha * 15 + 127) / 255) << (4 * k);
        }
        block[..8].copy_from_slice(&bits.to_le_bytes());
    }
}

/// intel's BC1 kernel orders endpoints `c0 >= c1`; for a flat block they come out equal,
/// which is BC1's three-colour mode, where index 3 means transparent black. The kernel's
/// indices for such a block come from a 0/0 projection, so pin them to 0 (the one colour):
/// an opaque encoder must never emit a transparent texel.
fn force_opaque_bc1(blocks: &mut [u8]) {
    for b in blocks.chunks_exact_mut(8) {
        if b[0..2] == b[2..4] {
            b[4..8].fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{bc7_block_mode, decode_surface, psnr};
    use super::*;
    use proptest::prelude::*;

    /// Smooth gradients with deterministic noise: the kind of content BC encoders are tuned
    /// for, plus enough detail that formats separate.
    fn test_image(w: u32, h: u32, noise: u32, alpha: bool) -> Vec<u8> {
        let mut state = 0x9E37_79B9u32;
        let mut out = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let n = |shift: u32| (state >> shift) % (2 * noise + 1);
                let base = |v: u32| v as i32 - noise as i32;
                let fx = x * 255 / w.max(2).saturating_sub(1).max(1);
                let fy = y * 255 / h.max(2).saturating_sub(1).max(1);
                let r = (fx as i32 + base(n(0))).clamp(0, 255) as u8;
                let g = (fy as i32 + base(n(8))).clamp(0, 255) as u8;
                let b = ((fx + fy) as i32 / 2 + base(n(16))).clamp(0, 255) as u8;
                let a = if alpha { (255 - fy as i32 / 2 + base(n(24))).clamp(0, 255) as u8 } else { 255 };
                out.extend_from_slice(&[r, g, b, a]);
            }
        }
        out
    }

    fn round_trip_psnr(format: BcFormat, w: u32, h: u32, img: &[u8], s: &EncodeSettings, channels: usize) -> f64 {
        let blocks = encode_surface(format, w, h, img, s).unwrap();
        assert_eq!(blocks.len() as u64, format.surface_bytes(w, h));
        let decoded = decode_surface(format, w, h, &blocks).unwrap();
        psnr(img, &decoded, channels).unwrap()
    }

    #[test]
    fn encode_decode_psnr_thresholds() {
        let (w, h) = (64, 64);
        let img = test_image(w, h, 6, false);
        let s = EncodeSettings::default();
        let bc1 = round_trip_psnr(BcFormat::Bc1, w, h, &img, &s, 3);
        let bc7 = round_trip_psnr(BcFormat::Bc7, w, h, &img, &s, 3);
        let bc4 = round_trip_psnr(BcFormat::Bc4, w, h, &img, &s, 1);
        let bc5 = round_trip_psnr(BcFormat::Bc5, w, h, &img, &s, 2);
        let bc3 = round_trip_psnr(BcFormat::Bc3, w, h, &img, &s, 4);
        // Measured (x86-64, intel_tex_2 0.5): BC1 35.9, BC3 37.1, BC7 40.6, BC4/BC5 50.0 dB.
        assert!(bc1 > 33.0, "BC1 {bc1:.2} dB");
        assert!(bc3 > 33.0, "BC3 {bc3:.2} dB");
        assert!(bc7 > bc1 + 3.0, "BC7 {bc7:.2} dB vs BC1 {bc1:.2} dB");
        assert!(bc4 > 45.0, "BC4 {bc4:.2} dB");
        assert!(bc5 > 45.0, "BC5 {bc5:.2} dB");
        let alpha = test_image(w, h, 6, true);
        let bc7a = round_trip_psnr(BcFormat::Bc7, w, h, &alpha, &s, 4);
        let bc3a = round_trip_psnr(BcFormat::Bc3, w, h, &alpha, &s, 4);
        assert!(bc7a > 33.0 && bc3a > 30.0, "BC7 {bc7a:.2} dB, BC3 {bc3a:.2} dB with alpha");
    }

    #[test]
    fn presets_are_ordered_and_mode7_only_sits_between_bc1_and_bc7() {
        let (w, h) = (32, 32);
        let img = test_image(w, h, 12, false);
        let p = |quality, modes| {
            round_trip_psnr(BcFormat::Bc7, w, h, &img, &EncodeSettings { bc7_quality: quality, bc7_modes: modes }, 3)
        };
        let (fast, slow) = (p(Bc7Quality::Fast, None), p(Bc7Quality::Slow, None));
        assert!(slow >= fast - 0.05, "slow {slow:.2} dB vs fast {fast:.2} dB");
        let mode7 = p(Bc7Quality::Basic, Some(Bc7Modes::MODE_7_ONLY));
        let bc1 = round_trip_psnr(BcFormat::Bc1, w, h, &img, &EncodeSettings::default(), 3);
        assert!(bc1 < mode7 && mode7 < slow, "BC1 {bc1:.2} < mode 7 {mode7:.2} < BC7 slow {slow:.2} dB");
    }

    #[test]
    fn mode7_only_output_is_only_mode7_blocks() {
        let (w, h) = (48, 40);
        for alpha in [false, true] {
            let img = test_image(w, h, 10, alpha);
            for quality in [Bc7Quality::Fast, Bc7Quality::Basic, Bc7Quality::Slow] {
                let s = EncodeSettings { bc7_quality: quality, bc7_modes: Some(Bc7Modes::MODE_7_ONLY) };
                let blocks = encode_surface(BcFormat::Bc7, w, h, &img, &s).unwrap();
                assert!(blocks.chunks(16).all(|b| bc7_block_mode(b) == Some(7)), "{quality:?} alpha {alpha}");
            }
        }
    }

    #[test]
    fn default_presets_use_several_modes() {
        // Guards the mode-7 test against a parser that always says 7.
        let img = test_image(64, 64, 20, false);
        let blocks = encode_surface(BcFormat::Bc7, 64, 64, &img, &EncodeSettings::default()).unwrap();
        let mut seen = [false; 8];
        for b in blocks.chunks(16) {
            seen[bc7_block_mode(b).unwrap() as usize] = true;
        }
        assert!(seen.iter().filter(|s| **s).count() >= 2, "{seen:?}");
    }

    #[test]
    fn sizes_not_multiple_of_four_are_edge_padded() {
        // A 5x3 image whose last column is bright: edge padding keeps the padded texels bright,
        // so the decoded edge stays close (zero padding would drag the block towards black).
        let (w, h) = (5, 3);
        let mut img = vec![0u8; (w * h * 4) as usize];
        for y in 0..h {
            for x in 0..w {
                let v = if x == 4 { 250 } else { 40 };
                img[((y * w + x) * 4) as usize..][..4].copy_from_slice(&[v, v, v, 255]);
            }
        }
        for format in [BcFormat::Bc1, BcFormat::Bc2, BcFormat::Bc3, BcFormat::Bc4, BcFormat::Bc5, BcFormat::Bc7] {
            let blocks = encode_surface(format, w, h, &img, &EncodeSettings::default()).unwrap();
            assert_eq!(blocks.len(), 2 * format.block_bytes() as usize);
            let dec = decode_surface(format, w, h, &blocks).unwrap();
            for y in 0..h as usize {
                let edge = dec[(y * 5 + 4) * 4];
                assert!(edge >= 240, "{format:?} edge texel {edge}");
            }
        }
    }

    #[test]
    fn bc2_is_bc3_colour_with_explicit_alpha() {
        // Every alpha value 0..=255 once (16x16), colour a gradient, on a size with padding.
        let (w, h) = (16, 16);
        let mut img = test_image(w, h, 10, false);
        for (i, px) in img.chunks_exact_mut(4).enumerate() {
            px[3] = i as u8;
        }
        let s = EncodeSettings::default();
        let bc2 = encode_surface(BcFormat::Bc2, w, h, &img, &s).unwrap();
        let bc3 = encode_surface(BcFormat::Bc3, w, h, &img, &s).unwrap();
        for (b2, b3) in bc2.chunks(16).zip(bc3.chunks(16)) {
            assert_eq!(b2[8..], b3[8..], "the colour half is BC3's");
        }
        let dec = decode_surface(BcFormat::Bc2, w, h, &bc2).unwrap();
        for (i, px) in dec.chunks(4).enumerate() {
            let nearest = (0..16u8).map(|q| q * 17).min_by_key(|&v| v.abs_diff(i as u8)).unwrap();
            assert_eq!(px[3], nearest, "alpha {i}");
        }
        let (p2, p3) =
            (round_trip_psnr(BcFormat::Bc2, w, h, &img, &s, 3), round_trip_psnr(BcFormat::Bc3, w, h, &img, &s, 3));
        assert_eq!(p2, p3, "the same colour as BC3");
        // Odd sizes: the padded alpha does not leak into the real texels.
        let img = test_image(5, 3, 0, true);
        let dec = decode_surface(BcFormat::Bc2, 5, 3, &encode_surface(BcFormat::Bc2, 5, 3, &img, &s).unwrap()).unwrap();
        for (p, q) in img.chunks(4).zip(dec.chunks(4)) {
            assert!(p[3].abs_diff(q[3]) <= 8, "{} vs {}", p[3], q[3]);
        }
    }

    #[test]
    fn flat_images_encode_exactly_enough_and_bc1_stays_opaque() {
        for v in [0u8, 1, 127, 128, 254, 255] {
            let img = vec![v; 8 * 8 * 4];
            let blocks = encode_surface(BcFormat::Bc1, 8, 8, &img, &EncodeSettings::default()).unwrap();
            let dec = decode_surface(BcFormat::Bc1, 8, 8, &blocks).unwrap();
            for px in dec.chunks(4) {
                assert_eq!(px[3], 255, "value {v}");
                assert!(px[0].abs_diff(v) <= 5, "value {v} -> {}", px[0]);
            }
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let s = EncodeSettings::default();
        assert_eq!(
            encode_surface(BcFormat::Bc7, 4, 4, &[0; 60], &s),
            Err(BcError::ImageLength { width: 4, height: 4, expected: 64, found: 60 })
        );
        assert!(matches!(encode_surface(BcFormat::Bc1, 0, 4, &[], &s), Err(BcError::Dimension { .. })));
        let format = BcFormat::Bc6h;
        assert_eq!(encode_surface(format, 4, 4, &[0; 64], &s), Err(BcError::EncodeUnsupported { format }));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any expressible mask: every block uses an allowed mode, on odd sizes, with and
        /// without alpha.
        #[test]
        fn every_block_uses_an_allowed_mode(
            mask in any::<u8>(), w in 1u32..20, h in 1u32..20, alpha in any::<bool>(), q in 0usize..3,
        ) {
            let Ok(modes) = Bc7Modes::new(mask) else { return Ok(()) };
            let img = test_image(w, h, 30, alpha);
            let quality = [Bc7Quality::Fast, Bc7Quality::Basic, Bc7Quality::Slow][q];
            let s = EncodeSettings { bc7_quality: quality, bc7_modes: Some(modes) };
            let blocks = encode_surface(BcFormat::Bc7, w, h, &img, &s).unwrap();
            for b in blocks.chunks(16) {
                let mode = bc7_block_mode(b);
                prop_assert!(mode.is_some_and(|m| modes.contains(m)), "mode {:?} with mask {:#04x}", mode, mask);
            }
        }

        /// Encode then decode returns an image of the input's size for every format and size.
        #[test]
        fn round_trip_keeps_size(w in 1u32..24, h in 1u32..24, f in 0usize..5, seed in any::<u32>()) {
            let format = [BcFormat::Bc1, BcFormat::Bc3, BcFormat::Bc4, BcFormat::Bc5, BcFormat::Bc7][f];
            let img: Vec<u8> = (0..w * h * 4).map(|i| (i.wrapping_mul(2_654_435_761) ^ seed) as u8).collect();
            let blocks = encode_surface(format, w, h, &img, &EncodeSettings::default()).unwrap();
            prop_assert_eq!(blocks.len() as u64, format.surface_bytes(w, h));
            prop_assert_eq!(decode_surface(format, w, h, &blocks).unwrap().len(), img.len());
        }
    }
}
