//! Single-channel blocks: the interpolated 8-byte block of BC4, BC5 (twice) and BC3's alpha
//! half, and BC2's explicit 4-bit alpha.
//!
//! The interpolated block uses the same convention as the colour block (see docs/bc.md):
//! exact real-valued interpolation, nearest integer, halves up. BC3's alpha half and a BC4
//! block decode identically here, as the formats define; bcdec decodes BC3 alpha with
//! `(6*a0 + a1 + 1) / 7` (a floor) but BC4 with rounding, which is why sfsim does not take
//! BC3 alpha from bcdec.

/// Nearest integer to `num / den`, halves rounded up (no halves occur for /5 and /7).
const fn round_div(num: u32, den: u32) -> u32 {
    (2 * num + den) / (2 * den)
}

/// The eight values an interpolated block can select, for endpoints `e0`, `e1` (UNORM).
pub(super) fn palette(e0: u8, e1: u8) -> [u8; 8] {
    let (a, b) = (u32::from(e0), u32::from(e1));
    let mut p = [e0, e1, 0, 0, 0, 0, 0, 0];
    if e0 > e1 {
        // Six interpolated values: index i in 2..8 is ((8 - i) * e0 + (i - 1) * e1) / 7.
        for (i, v) in p.iter_mut().enumerate().skip(2) {
            let i = i as u32;
            *v = round_div((8 - i) * a + (i - 1) * b, 7) as u8;
        }
    } else {
        // Four interpolated values at 2..6, then the two extremes 0 and 255.
        for (i, v) in p.iter_mut().enumerate().take(6).skip(2) {
            let i = i as u32;
            *v = round_div((6 - i) * a + (i - 1) * b, 5) as u8;
        }
        p[6] = 0;
        p[7] = 255;
    }
    p
}

/// Decodes an interpolated 8-byte block into channel `channel` (0..4) of every texel of `out`
/// (16 texels RGBA8, row-major); the other channels are left alone.
pub(super) fn decode_interpolated(block: &[u8; 8], channel: usize, out: &mut [u8; 64]) {
    let values = palette(block[0], block[1]);
    let bits = u64::from_le_bytes(*block) >> 16;
    for (texel, px) in out.chunks_exact_mut(4).enumerate() {
        px[channel] = values[((bits >> (3 * texel)) & 7) as usize];
    }
}

/// Decodes BC2's explicit alpha (sixteen 4-bit values, texel 0 in the low nibble) into the
/// alpha channel of `out`. `a * 17` is the exact UNORM4 -> UNORM8 conversion.
pub(super) fn decode_explicit(block: &[u8; 8], out: &mut [u8; 64]) {
    let bits = u64::from_le_bytes(*block);
    for (texel, px) in out.chunks_exact_mut(4).enumerate() {
        px[3] = ((bits >> (4 * texel)) & 15) as u8 * 17;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn expected(e0: u8, e1: u8, w0: u32, w1: u32) -> u8 {
        let v = (f64::from(w0) * f64::from(e0) + f64::from(w1) * f64::from(e1)) / f64::from(w0 + w1);
        (v + 0.5).floor() as u8
    }

    /// A block with endpoints `e0`, `e1` and texel `k` using index `k % 8`.
    fn block(e0: u8, e1: u8) -> [u8; 8] {
        let mut bits = 0u64;
        for k in 0..16u64 {
            bits |= (k % 8) << (3 * k);
        }
        let mut b = (bits << 16).to_le_bytes();
        b[0] = e0;
        b[1] = e1;
        b
    }

    #[test]
    fn eight_value_mode_by_hand() {
        let mut out = [0u8; 64];
        decode_interpolated(&block(200, 10), 0, &mut out);
        let red: Vec<u8> = out.chunks(4).map(|p| p[0]).take(8).collect();
        // (6*200 + 10)/7 = 172.86 -> 173, (5*200 + 20)/7 = 145.71 -> 146, (800 + 30)/7 = 118.57
        // -> 119, (600 + 40)/7 = 91.43 -> 91, (400 + 50)/7 = 64.29 -> 64, (200 + 60)/7 = 37.14 -> 37.
        assert_eq!(red, vec![200, 10, 173, 146, 119, 91, 64, 37]);
        // Other channels untouched.
        assert!(out.chunks(4).all(|p| p[1..] == [0, 0, 0]));
    }

    #[test]
    fn six_value_mode_has_zero_and_full() {
        let mut out = [0u8; 64];
        decode_interpolated(&block(10, 200), 3, &mut out);
        let alpha: Vec<u8> = out.chunks(4).map(|p| p[3]).take(8).collect();
        // (4*10 + 200)/5 = 48, (30 + 400)/5 = 86, (20 + 600)/5 = 124, (10 + 800)/5 = 162.
        assert_eq!(alpha, vec![10, 200, 48, 86, 124, 162, 0, 255]);
    }

    #[test]
    fn explicit_alpha_by_hand() {
        let mut out = [0u8; 64];
        let bits: u64 = 0xF0_u64 | (0x7 << 60);
        decode_explicit(&bits.to_le_bytes(), &mut out);
        assert_eq!(out[3], 0);
        assert_eq!(out[7], 255);
        assert_eq!(out[63], 7 * 17);
    }

    #[test]
    fn every_endpoint_pair_matches_the_convention() {
        for e0 in 0..=255u8 {
            for e1 in 0..=255u8 {
                let p = palette(e0, e1);
                if e0 > e1 {
                    for i in 2..8u32 {
                        assert_eq!(p[i as usize], expected(e0, e1, 8 - i, i - 1));
                    }
                } else {
                    for i in 2..6u32 {
                        assert_eq!(p[i as usize], expected(e0, e1, 6 - i, i - 1));
                    }
                }
            }
        }
    }

    proptest! {
        /// bcdec's BC4 (16-bit fixed-point weights) is the same convention.
        #[test]
        fn agrees_with_bcdec_bc4(bytes in any::<[u8; 8]>()) {
            let mut ours = [0u8; 64];
            decode_interpolated(&bytes, 0, &mut ours);
            let mut theirs = [0u8; 16];
            bcdec_rs::bc4(&bytes, &mut theirs, 4, false);
            let red: Vec<u8> = ours.chunks(4).map(|p| p[0]).collect();
            prop_assert_eq!(red, theirs.to_vec());
        }
    }
}
