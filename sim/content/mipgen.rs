//! Mip generation for the packer: a full chain down to 1x1 from an RGBA8 image.
//!
//! Filter: a Kaiser-windowed sinc (radius 3 destination texels, α = 4 — NVIDIA Texture
//! Tools' mipmap filter), applied separably and polyphase: output texel `i` of an axis
//! `dst` long, taken from `src` texels, is centred on source position `(i + 0.5) · src/dst`
//! and weighs source texel `j` by `kaiser_sinc((j + 0.5 − centre) · dst/src)`, edges
//! clamped, weights normalised. That handles odd sizes exactly (a 5-texel row halves to 2
//! texels, each covering 2.5 source texels) where a 2×2 box would drop or double-count a
//! column, and it suppresses the aliasing a box lets through (on a 3-texel-period stripe a
//! box leaves a 75-level alias in mip 1, this filter 7 — measured by the tests). Its small
//! negative lobes can over/undershoot at hard edges; results are clamped to [0, 1].
//!
//! Each mip is filtered from the previous one (a cascade, as nvtt does), in f32, so no
//! rounding accumulates down the chain.
//!
//! Colour space: for sRGB content ([`ColorSpace::Srgb`], colour textures) R, G and B are
//! linearised before filtering and re-encoded after, so a black/white checkerboard averages
//! to linear 50 % grey (sRGB 188), not sRGB 128, which would darken every mip. Alpha is always
//! linear. [`ColorSpace::Linear`] (normal maps, masks, BC4/BC5 data) filters the stored values
//! as they are. Alpha is not premultiplied, and normals are not renormalised.

use rayon::prelude::*;

/// A row-major RGBA8 image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// How the colour channels are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColorSpace {
    /// RGB are sRGB-encoded; filtered in linear light.
    Srgb,
    /// Every channel is filtered as stored.
    Linear,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MipgenError {
    #[error("image {width}x{height} has a zero dimension; expected at least 1x1")]
    Empty { width: u32, height: u32 },
    #[error("RGBA8 image {width}x{height} needs {expected} B; found {found} B")]
    Length { width: u32, height: u32, expected: u64, found: u64 },
}

/// Filter radius in destination texels, and the Kaiser window's shape parameter.
const RADIUS: f64 = 3.0;
const ALPHA: f64 = 4.0;

/// The full chain for `base`: mip 0 (a copy of `base`) down to 1x1, mip `l` being
/// `max(1, width >> l)` x `max(1, height >> l)` texels as D3D sizes them.
pub fn mip_chain(base: &Image, color: ColorSpace) -> Result<Vec<Image>, MipgenError> {
    let (w, h) = (base.width, base.height);
    if w == 0 || h == 0 {
        return Err(MipgenError::Empty { width: w, height: h });
    }
    let expected = u64::from(w) * u64::from(h) * 4;
    if base.rgba.len() as u64 != expected {
        return Err(MipgenError::Length { width: w, height: h, expected, found: base.rgba.len() as u64 });
    }
    let levels = u32::BITS - w.max(h).leading_zeros();
    let decode = decode_table(color);
    let mut current: Vec<f32> = base.rgba.iter().enumerate().map(|(i, &v)| decode[i % 4][usize::from(v)]).collect();
    let mut chain = vec![base.clone()];
    let (mut cw, mut ch) = (w, h);
    for _ in 1..levels {
        let (nw, nh) = ((cw / 2).max(1), (ch / 2).max(1));
        current = resample(&current, (cw, ch), (nw, nh));
        chain.push(Image { width: nw, height: nh, rgba: encode(&current, color) });
        (cw, ch) = (nw, nh);
    }
    Ok(chain)
}

/// Per channel, the u8 → [0, 1] decode: the sRGB curve for RGB of sRGB content.
fn decode_table(color: ColorSpace) -> [[f32; 256]; 4] {
    let mut table = [[0f32; 256]; 4];
    for (c, channel) in table.iter_mut().enumerate() {
        for (v, out) in channel.iter_mut().enumerate() {
            let x = v as f64 / 255.0;
            *out = if color == ColorSpace::Srgb && c < 3 { srgb_to_linear(x) } else { x } as f32;
        }
    }
    table
}

fn srgb_to_linear(x: f64) -> f64 {
    if x <= 0.04045 {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(x: f64) -> f64 {
    if x <= 0.003_130_8 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

fn encode(texels: &[f32], color: ColorSpace) -> Vec<u8> {
    texels
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let v = f64::from(v).clamp(0.0, 1.0);
            let v = if color == ColorSpace::Srgb && i % 4 < 3 { linear_to_srgb(v) } else { v };
            (v * 255.0).round() as u8
        })
        .collect()
}

/// Zeroth-order modified Bessel function of the first kind (power series; converges fast
/// for the window's arguments, 0..=α).
fn bessel_i0(x: f64) -> f64 {
    let (mut sum, mut term, mut k) = (1.0, 1.0, 1.0);
    while term > 1e-12 * sum {
        term *= (x / (2.0 * k)) * (x / (2.0 * k));
        sum += term;
        k += 1.0;
    }
    sum
}

/// The Kaiser-windowed sinc at `x` destination texels from the centre.
fn kaiser_sinc(x: f64) -> f64 {
    if x.abs() >= RADIUS {
        return 0.0;
    }
    let sinc = if x == 0.0 { 1.0 } else { (std::f64::consts::PI * x).sin() / (std::f64::consts::PI * x) };
    let t = x / RADIUS;
    sinc * bessel_i0(ALPHA * (1.0 - t * t).sqrt()) / bessel_i0(ALPHA)
}

/// For each of `dst` output texels, its (source index, weight) taps over `src` texels.
fn taps(src: u32, dst: u32) -> Vec<Vec<(usize, f32)>> {
    let scale = f64::from(src) / f64::from(dst);
    let support = RADIUS * scale.max(1.0);
    (0..dst)
        .map(|i| {
            let centre = (f64::from(i) + 0.5) * scale;
            let first = (centre - support).floor() as i64;
            let last = (centre + support).ceil() as i64;
            let mut taps: Vec<(usize, f64)> = Vec::new();
            for j in first..=last {
                let w = kaiser_sinc((j as f64 + 0.5 - centre) / scale.max(1.0));
                if w == 0.0 {
                    continue;
                }
                let index = j.clamp(0, i64::from(src) - 1) as usize;
                match taps.iter_mut().find(|(k, _)| *k == index) {
                    Some(tap) => tap.1 += w,
                    None => taps.push((index, w)),
                }
            }
            let total: f64 = taps.iter().map(|t| t.1).sum();
            taps.into_iter().map(|(k, w)| (k, (w / total) as f32)).collect()
        })
        .collect()
}

/// Resamples an RGBA f32 image from `from` to `to` texels: rows first, then columns.
fn resample(texels: &[f32], from: (u32, u32), to: (u32, u32)) -> Vec<f32> {
    let (sw, sh) = (from.0 as usize, from.1 as usize);
    let (dw, dh) = (to.0 as usize, to.1 as usize);
    let across = taps(from.0, to.0);
    let mut rows = vec![0f32; dw * sh * 4];
    rows.par_chunks_mut(dw * 4).enumerate().for_each(|(y, out)| {
        let row = &texels[y * sw * 4..][..sw * 4];
        for (x, taps) in across.iter().enumerate() {
            let mut acc = [0f32; 4];
            for &(j, w) in taps {
                for c in 0..4 {
                    acc[c] += row[j * 4 + c] * w;
                }
            }
            out[x * 4..x * 4 + 4].copy_from_slice(&acc);
        }
    });
    let down = taps(from.1, to.1);
    let mut out = vec![0f32; dw * dh * 4];
    out.par_chunks_mut(dw * 4).zip(down.par_iter()).for_each(|(out_row, taps)| {
        for &(j, w) in taps {
            let row = &rows[j * dw * 4..][..dw * 4];
            for (o, &v) in out_row.iter_mut().zip(row) {
                *o += v * w;
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn image(width: u32, height: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Image {
        let rgba = (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).flat_map(|(x, y)| f(x, y)).collect();
        Image { width, height, rgba }
    }

    #[test]
    fn chain_sizes_follow_d3d_down_to_1x1() {
        let img = image(13, 5, |x, y| [x as u8, y as u8, 0, 255]);
        let dims: Vec<(u32, u32)> =
            mip_chain(&img, ColorSpace::Linear).unwrap().iter().map(|m| (m.width, m.height)).collect();
        assert_eq!(dims, vec![(13, 5), (6, 2), (3, 1), (1, 1)]);
        let chain = mip_chain(&image(1, 1, |_, _| [1, 2, 3, 4]), ColorSpace::Srgb).unwrap();
        assert_eq!(chain.len(), 1);
    }

    #[test]
    fn flat_images_stay_flat_in_both_colour_spaces() {
        for v in [0u8, 1, 17, 128, 200, 254, 255] {
            for color in [ColorSpace::Srgb, ColorSpace::Linear] {
                let img = image(9, 7, |_, _| [v, v, v, 255 - v]);
                for mip in mip_chain(&img, color).unwrap() {
                    assert!(mip.rgba.chunks(4).all(|p| p == [v, v, v, 255 - v]), "{v} {color:?} {}", mip.width);
                }
            }
        }
    }

    #[test]
    fn srgb_averages_in_linear_light_and_alpha_stays_linear() {
        // A fine checkerboard: half the texels black, half white, alpha likewise.
        let img = image(64, 64, |x, y| if (x + y) % 2 == 0 { [255, 255, 255, 255] } else { [0, 0, 0, 0] });
        let centre = |color| {
            let mip1 = &mip_chain(&img, color).unwrap()[1];
            let p = &mip1.rgba[((16 * 32 + 16) * 4)..][..4];
            [p[0], p[3]]
        };
        // Linear 0.5 is sRGB 0.7354 → 188; linear filtering of the stored values gives 128.
        let [srgb, alpha] = centre(ColorSpace::Srgb);
        assert!(srgb.abs_diff(188) <= 2 && alpha.abs_diff(128) <= 2, "sRGB {srgb}, alpha {alpha}");
        let [lin, alpha] = centre(ColorSpace::Linear);
        assert!(lin.abs_diff(128) <= 2 && alpha.abs_diff(128) <= 2, "linear {lin}, alpha {alpha}");
    }

    /// A 3-texel-period stripe is above mip 1's Nyquist rate: a 2×2 box keeps half its
    /// amplitude as aliasing; the Kaiser filter must remove most of it.
    #[test]
    fn aliasing_is_suppressed_better_than_a_box() {
        let wave = |x: u32| (128.0 + 100.0 * (2.0 * std::f64::consts::PI * f64::from(x) / 3.0).cos()).round() as u8;
        let img = image(96, 8, |x, _| [wave(x), 0, 0, 255]);
        let mip1 = &mip_chain(&img, ColorSpace::Linear).unwrap()[1];
        let row: Vec<f64> = (8..40).map(|x| f64::from(mip1.rgba[(2 * 48 + x) * 4])).collect();
        let box_row: Vec<f64> =
            (8..40).map(|x| (f64::from(wave(2 * x as u32)) + f64::from(wave(2 * x as u32 + 1))) / 2.0).collect();
        let spread =
            |v: &[f64]| v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min);
        assert!(spread(&box_row) > 70.0, "box keeps the alias: {}", spread(&box_row));
        let (kaiser, boxed) = (spread(&row), spread(&box_row));
        assert!(kaiser < boxed / 4.0, "kaiser {kaiser} vs box {boxed}");
    }

    #[test]
    fn odd_sizes_keep_the_mean() {
        let img = image(5, 3, |x, y| [(x * 60) as u8, (y * 120) as u8, 77, 255]);
        let chain = mip_chain(&img, ColorSpace::Linear).unwrap();
        let mean = |m: &Image, c: usize| {
            m.rgba.chunks(4).map(|p| f64::from(p[c])).sum::<f64>() / f64::from(m.width * m.height)
        };
        for c in 0..3 {
            assert!((mean(&chain[1], c) - mean(&chain[0], c)).abs() < 12.0, "channel {c}");
        }
        // The right edge is bright, the left dark: mip 1 (2x1) must keep that order.
        assert!(chain[1].rgba[0] < chain[1].rgba[4]);
    }

    #[test]
    fn bad_images_are_errors() {
        let e = mip_chain(&Image { width: 4, height: 4, rgba: vec![0; 63] }, ColorSpace::Srgb).unwrap_err();
        assert_eq!(e, MipgenError::Length { width: 4, height: 4, expected: 64, found: 63 });
        assert!(e.to_string().contains("needs 64 B; found 63 B"));
        assert!(mip_chain(&Image { width: 0, height: 4, rgba: vec![] }, ColorSpace::Srgb).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Any image, any size: a full chain, every mip at its D3D size in whole RGBA8 texels.
        #[test]
        fn any_image_gives_a_well_formed_chain(w in 1u32..40, h in 1u32..40, seed in any::<u32>(), srgb in any::<bool>()) {
            let img = image(w, h, |x, y| {
                let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503) ^ seed).to_le_bytes();
                [v[0], v[1], v[2], v[3]]
            });
            let color = if srgb { ColorSpace::Srgb } else { ColorSpace::Linear };
            let chain = mip_chain(&img, color).unwrap();
            prop_assert_eq!(chain.len() as u32, u32::BITS - w.max(h).leading_zeros());
            for (l, m) in chain.iter().enumerate() {
                prop_assert_eq!((m.width, m.height), ((w >> l).max(1), (h >> l).max(1)));
                prop_assert_eq!(m.rgba.len() as u32, m.width * m.height * 4);
            }
        }
    }
}
