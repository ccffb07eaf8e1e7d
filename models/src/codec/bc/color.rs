//! The BC1 colour block, also the colour half of BC2 and BC3: two RGB565 endpoints and
//! sixteen 2-bit palette indices.
//!
//! Rounding convention (see docs/bc.md): every palette entry is the exact real-valued
//! interpolation of the endpoints, with an endpoint channel `c` of an `n`-bit field standing
//! for `c * 255 / (2^n - 1)`, rounded to the nearest integer with halves rounded up. This is
//! bcdec's integer formula (`((2*r0 + r1) * 351 + 61) >> 7` etc.), written here in a form
//! whose exactness can be read off directly.

/// How the palette is built when `color0 <= color1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ColorMode {
    /// BC1: `color0 > color1` selects four opaque colours; otherwise three colours plus
    /// transparent black at index 3 (the "BC1A" punch-through mode).
    Bc1,
    /// BC2/BC3: always four colours, whatever the endpoint order (D3D10 and later).
    FourColor,
}

/// Nearest integer to `num / den`, halves rounded up.
const fn round_div(num: u32, den: u32) -> u32 {
    (2 * num + den) / (2 * den)
}

/// One 8-bit channel of `w0 * a + w1 * b` over `(w0 + w1)`, where `a`, `b` are raw endpoint
/// fields of a channel whose largest value is `max` (31 or 63).
const fn mix(a: u32, b: u32, w0: u32, w1: u32, max: u32) -> u8 {
    // At most (2 * 63) * 255 * 2 + 189: no overflow, result <= 255.
    round_div((w0 * a + w1 * b) * 255, (w0 + w1) * max) as u8
}

/// The four palette entries (RGBA8) of a colour block with endpoints `c0`, `c1` (RGB565).
pub(super) fn palette(c0: u16, c1: u16, mode: ColorMode) -> [[u8; 4]; 4] {
    let split = |c: u16| (u32::from(c >> 11) & 31, u32::from(c >> 5) & 63, u32::from(c) & 31);
    let (r0, g0, b0) = split(c0);
    let (r1, g1, b1) = split(c1);
    let lerp = |w0: u32, w1: u32| [mix(r0, r1, w0, w1, 31), mix(g0, g1, w0, w1, 63), mix(b0, b1, w0, w1, 31), 255];
    if c0 > c1 || mode == ColorMode::FourColor {
        [lerp(1, 0), lerp(0, 1), lerp(2, 1), lerp(1, 2)]
    } else {
        [lerp(1, 0), lerp(0, 1), lerp(1, 1), [0, 0, 0, 0]]
    }
}

/// Decodes an 8-byte colour block into `out` (16 texels RGBA8, row-major), all four channels.
pub(super) fn decode(block: &[u8; 8], mode: ColorMode, out: &mut [u8; 64]) {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let colors = palette(c0, c1, mode);
    let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    for (texel, px) in out.chunks_exact_mut(4).enumerate() {
        px.copy_from_slice(&colors[((indices >> (2 * texel)) & 3) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The convention, written independently of `mix`: real-valued interpolation in f64,
    /// then floor(x + 0.5). (No value lands within f64 error of a half except exact halves,
    /// which f64 represents exactly.)
    fn expected(a: u32, b: u32, w0: u32, w1: u32, max: u32) -> u8 {
        let ea = f64::from(a) * 255.0 / f64::from(max);
        let eb = f64::from(b) * 255.0 / f64::from(max);
        let v = (f64::from(w0) * ea + f64::from(w1) * eb) / f64::from(w0 + w1);
        (v + 0.5).floor() as u8
    }

    fn rgb565(r: u16, g: u16, b: u16) -> u16 {
        (r << 11) | (g << 5) | b
    }

    fn block(c0: u16, c1: u16, indices: u32) -> [u8; 8] {
        let mut b = [0u8; 8];
        b[0..2].copy_from_slice(&c0.to_le_bytes());
        b[2..4].copy_from_slice(&c1.to_le_bytes());
        b[4..8].copy_from_slice(&indices.to_le_bytes());
        b
    }

    #[test]
    fn four_color_block_by_hand() {
        // c0 = (31, 0, 3) > c1 = (3, 63, 0): four-colour mode. Texels 0..3 use indices 0..3.
        let (c0, c1) = (rgb565(31, 0, 3), rgb565(3, 63, 0));
        assert!(c0 > c1);
        let mut out = [0u8; 64];
        decode(&block(c0, c1, 0b11_10_01_00), ColorMode::Bc1, &mut out);
        // Endpoint 3/31*255 = 24.68 -> 25 (bit replication would give 24).
        assert_eq!(&out[0..4], &[255, 0, 25, 255]);
        assert_eq!(&out[4..8], &[25, 255, 0, 255]);
        // (2*31 + 3)/3 * 255/31 = 178.23 -> 178; (2*0 + 63)/3 * 255/63 = 85; (2*3)/3*255/31 = 16.45 -> 16.
        assert_eq!(&out[8..12], &[178, 85, 16, 255]);
        // (31 + 2*3)/3 * 255/31 = 101.45 -> 101; 126/3*255/63 = 170; 3/3*255/31 = 8.23 -> 8.
        assert_eq!(&out[12..16], &[101, 170, 8, 255]);
        for ch in 0..3 {
            let (a, b) = ([31, 0, 3][ch], [3, 63, 0][ch]);
            let max = if ch == 1 { 63 } else { 31 };
            assert_eq!(out[8 + ch], expected(a, b, 2, 1, max));
            assert_eq!(out[12 + ch], expected(a, b, 1, 2, max));
        }
        // Remaining texels are index 0.
        assert!(out[16..].chunks(4).all(|p| p == [255, 0, 25, 255]));
    }

    #[test]
    fn three_color_mode_and_transparent_black_when_c0_not_greater() {
        // c0 = (1, 10, 30) < c1 = (30, 20, 2): three colours + transparent black.
        let (c0, c1) = (rgb565(1, 10, 30), rgb565(30, 20, 2));
        assert!(c0 < c1);
        let mut out = [0u8; 64];
        decode(&block(c0, c1, 0b11_10_01_00), ColorMode::Bc1, &mut out);
        // Midpoint: (1+30)/2*255/31 = 127.5 -> 128 (half rounds up); (10+20)/2*255/63 = 60.71
        // -> 61; (30+2)/2*255/31 = 131.6 -> 132.
        assert_eq!(&out[8..12], &[128, 61, 132, 255]);
        assert_eq!(&out[12..16], &[0, 0, 0, 0]);
        // Equal endpoints are also the three-colour mode.
        decode(&block(c0, c0, 0b11), ColorMode::Bc1, &mut out);
        assert_eq!(&out[0..4], &[0, 0, 0, 0]);
    }

    #[test]
    fn bc3_colour_half_is_always_four_color() {
        let (c0, c1) = (rgb565(1, 10, 30), rgb565(30, 20, 2));
        let mut out = [0u8; 64];
        decode(&block(c0, c1, 0b11_10), ColorMode::FourColor, &mut out);
        // Index 2 = (2*c0 + c1)/3, index 3 = (c0 + 2*c1)/3, both opaque.
        let want2 = [expected(1, 30, 2, 1, 31), expected(10, 20, 2, 1, 63), expected(30, 2, 2, 1, 31), 255];
        let want3 = [expected(1, 30, 1, 2, 31), expected(10, 20, 1, 2, 63), expected(30, 2, 1, 2, 31), 255];
        assert_eq!(&out[0..4], &want2);
        assert_eq!(&out[4..8], &want3);
    }

    #[test]
    fn every_endpoint_pair_matches_the_convention() {
        for max in [31u32, 63] {
            for a in 0..=max {
                for b in 0..=max {
                    for (w0, w1) in [(1, 0), (2, 1), (1, 2), (1, 1)] {
                        assert_eq!(mix(a, b, w0, w1, max), expected(a, b, w0, w1, max), "{a} {b} {w0}:{w1} /{max}");
                    }
                }
            }
        }
    }

    proptest! {
        /// bcdec's magic-number formulas are the same convention, bit for bit.
        #[test]
        fn agrees_with_bcdec(bytes in any::<[u8; 8]>()) {
            let mut ours = [0u8; 64];
            decode(&bytes, ColorMode::Bc1, &mut ours);
            let mut theirs = [0u8; 64];
            bcdec_rs::bc1(&bytes, &mut theirs, 16);
            prop_assert_eq!(ours, theirs);
        }
    }
}
