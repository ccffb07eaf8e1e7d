//! Image quality: RMSE and PSNR between two RGBA8 images of the same size.
//!
//! `channels` picks the leading channels of each texel that count: 1 = R, 2 = RG, 3 = RGB,
//! 4 = RGBA. The mean squared error is taken over every counted sample (texels x channels),
//! PSNR is `10 * log10(255^2 / MSE)` in dB, and identical images give `f64::INFINITY` (a
//! perfect score that still sorts above every finite one). [`format_channels`] says which
//! channels a BC format carries, so a BC4 image is judged on R alone and BC1 on RGB.

use super::BcError;
use crate::texture::BcFormat;

/// The leading RGBA channels `format` stores, as decoded by
/// [`decode_block`](super::decode_block): R for BC4, RG for BC5, RGB for BC1 (sfsim encodes BC1
/// opaque) and BC6H, RGBA for BC2, BC3 and BC7.
pub fn format_channels(format: BcFormat) -> usize {
    match format {
        BcFormat::Bc4 => 1,
        BcFormat::Bc5 => 2,
        BcFormat::Bc1 | BcFormat::Bc6h => 3,
        BcFormat::Bc2 | BcFormat::Bc3 | BcFormat::Bc7 => 4,
    }
}

/// Root mean squared error over the first `channels` channels, in 8-bit levels (0..=255).
pub fn rmse(a: &[u8], b: &[u8], channels: usize) -> Result<f64, BcError> {
    Ok(mse(a, b, channels)?.sqrt())
}

/// Peak signal-to-noise ratio in dB (peak 255) over the first `channels` channels;
/// `f64::INFINITY` when the counted channels are identical.
pub fn psnr(a: &[u8], b: &[u8], channels: usize) -> Result<f64, BcError> {
    let mse = mse(a, b, channels)?;
    Ok(if mse == 0.0 { f64::INFINITY } else { 10.0 * (255.0 * 255.0 / mse).log10() })
}

fn mse(a: &[u8], b: &[u8], channels: usize) -> Result<f64, BcError> {
    if a.len() != b.len() {
        return Err(BcError::MetricLength { a: a.len(), b: b.len() });
    }
    if a.is_empty() || !a.len().is_multiple_of(4) {
        return Err(BcError::MetricImage { len: a.len() });
    }
    if !(1..=4).contains(&channels) {
        return Err(BcError::MetricChannels { channels });
    }
    // Exact integer sum: at most 2^28 texels * 4 * 255^2 < 2^46.
    let sum: u64 = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .map(|(pa, pb)| {
            pa[..channels].iter().zip(&pb[..channels]).map(|(&x, &y)| u64::from(x.abs_diff(y)).pow(2)).sum::<u64>()
        })
        .sum();
    let samples = (a.len() / 4 * channels) as f64;
    Ok(sum as f64 / samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn identical_images_are_infinite_psnr_and_zero_rmse() {
        let img = [1u8, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(psnr(&img, &img, 4), Ok(f64::INFINITY));
        assert_eq!(rmse(&img, &img, 4), Ok(0.0));
    }

    #[test]
    fn known_values() {
        // Two texels; RGB differ by (3, 4, 0) and (0, 0, 5): MSE = (9 + 16 + 25) / 6.
        let a = [10u8, 10, 10, 0, 20, 20, 20, 0];
        let b = [13u8, 14, 10, 255, 20, 20, 25, 99];
        let mse: f64 = 50.0 / 6.0;
        assert!((rmse(&a, &b, 3).unwrap() - mse.sqrt()).abs() < 1e-12);
        assert!((psnr(&a, &b, 3).unwrap() - 10.0 * (65025.0 / mse).log10()).abs() < 1e-12);
        // Alpha counts only with 4 channels; R alone differs by 3 in one texel of two.
        assert!((rmse(&a, &b, 1).unwrap() - 4.5f64.sqrt()).abs() < 1e-12);
        assert!(psnr(&a, &b, 4).unwrap() < psnr(&a, &b, 3).unwrap());
        // Maximal error: every sample 0 vs 255 -> 0 dB.
        assert_eq!(psnr(&[0; 4], &[255; 4], 4), Ok(0.0));
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert_eq!(psnr(&[0; 4], &[0; 8], 3), Err(BcError::MetricLength { a: 4, b: 8 }));
        assert_eq!(psnr(&[], &[], 3), Err(BcError::MetricImage { len: 0 }));
        assert_eq!(rmse(&[0; 6], &[0; 6], 3), Err(BcError::MetricImage { len: 6 }));
        assert_eq!(psnr(&[0; 4], &[0; 4], 0), Err(BcError::MetricChannels { channels: 0 }));
        assert_eq!(psnr(&[0; 4], &[0; 4], 5), Err(BcError::MetricChannels { channels: 5 }));
    }

    #[test]
    fn format_channels_match_decoded_layout() {
        assert_eq!(BcFormat::all().map(format_channels), [3, 4, 4, 1, 2, 3, 4]);
    }

    proptest! {
        #[test]
        fn symmetric_and_bounded(a in proptest::collection::vec(any::<u8>(), 4..64), seed in any::<u8>(), ch in 1usize..=4) {
            let n = a.len() / 4 * 4;
            let a = &a[..n];
            let b: Vec<u8> = a.iter().map(|v| v.wrapping_add(seed)).collect();
            let r = rmse(a, &b, ch).unwrap();
            prop_assert_eq!(r, rmse(&b, a, ch).unwrap());
            prop_assert!((0.0..=255.0).contains(&r));
            let p = psnr(a, &b, ch).unwrap();
            prop_assert!(p >= 0.0);
            prop_assert_eq!(p.is_infinite(), seed == 0);
        }
    }
}
