//! RDO by rule (`sfsim pack --rdo-max-loss 2dB`): per texture, the largest RDO λ whose PSNR
//! loss against the plain (no-RDO) encoding of the same mips stays within a budget.
//!
//! The loss is measured the way the packer reports PSNR: mip 0 decoded against the input image
//! over the format's channels (BC1: RGB). The baseline is the encoder's own blocks, no RDO
//! pass at all (the "λ = 0 is no loss" end of the search).
//!
//! Search ([`search`]): probe [`LAMBDA_START`]; while it is within budget grow λ ×[`GROWTH`]
//! up to [`LAMBDA_MAX`], otherwise shrink ÷[`GROWTH`] down to [`LAMBDA_MIN`] (if even that is
//! over budget, no RDO). That brackets the budget between a λ within it (`lo`) and one over it
//! (`hi`); bisect in log λ (geometric mean) until `hi / lo ≤` [`TOLERANCE`]. The answer is
//! `lo`, the largest λ probed that is within budget. On the BC1 textures this is 7–9 RDO
//! passes over mip 0 (the loss is mip 0's, and RDO treats each mip on its own), then one over
//! the other mips at the λ chosen. The search assumes the loss grows with λ, which holds on the measured textures
//! (docs/rdo.md); where it does not, `lo` is still a probed λ within the budget.

use super::error::PackError;
use super::packer::{pack_blocks, rdo_mips, PackOptions, PackedTexture};
use crate::content::mipgen::{ColorSpace, Image};
use serde::Serialize;
use sfsim_models::codec::bc::{decode_surface, format_channels, psnr, RdoSettings};
use sfsim_models::texture::{BcFormat, TextureDesc};

/// The first λ probed (a mild setting; docs/rdo.md's default is 40).
pub const LAMBDA_START: f32 = 16.0;
/// The smallest λ step: if it already loses more than the budget, the texture gets no RDO.
pub const LAMBDA_MIN: f32 = 1.0;
/// The largest λ probed.
pub const LAMBDA_MAX: f32 = 4096.0;
/// Bracketing factor per probe.
pub const GROWTH: f32 = 4.0;
/// Bisection stops when the bracket `hi / lo` is at most this (λ known to within 10 %).
pub const TOLERANCE: f32 = 1.1;
/// `--rdo-max-loss` must be in (0, MAX_LOSS_DB] dB.
pub const MAX_LOSS_DB: f64 = 20.0;

/// Parses `--rdo-max-loss`: `2dB`, `2 dB`, `2`, `0.5dB` (the unit is optional, any case);
/// 0 < loss ≤ 20 dB.
pub fn parse_max_loss(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let number = lower.strip_suffix("db").unwrap_or(&lower).trim();
    let value: f64 = number.parse().map_err(|_| {
        format!(
            "--rdo-max-loss `{s}` is not a PSNR loss; expected a number of dB, 0 < loss ≤ {MAX_LOSS_DB} dB (e.g. 2dB)"
        )
    })?;
    check_max_loss(value).map_err(|_| {
        format!("--rdo-max-loss `{s}` is out of range; expected 0 < loss ≤ {MAX_LOSS_DB} dB (e.g. 2dB)")
    })?;
    Ok(value)
}

fn check_max_loss(value: f64) -> Result<(), PackError> {
    if value.is_finite() && value > 0.0 && value <= MAX_LOSS_DB {
        Ok(())
    } else {
        Err(PackError::Option {
            option: "--rdo-max-loss",
            value: format!("{value} dB"),
            expected: "a PSNR loss in 0 < loss ≤ 20 dB",
        })
    }
}

/// One RDO pass of the search: its λ and PSNR loss (dB, positive = worse than no RDO).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Probe {
    pub lambda: f32,
    pub loss_db: f64,
}

/// The search's answer: the λ chosen (`None`: even [`LAMBDA_MIN`] is over budget) and every
/// probe in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    pub lambda: Option<f32>,
    pub probes: Vec<Probe>,
}

/// Finds the largest λ in [[`LAMBDA_MIN`], [`LAMBDA_MAX`]] with `loss_at(λ) ≤ max_loss`, to
/// within [`TOLERANCE`] (see the module doc). `loss_at` runs one RDO pass.
pub fn search<E>(max_loss: f64, mut loss_at: impl FnMut(f32) -> Result<f64, E>) -> Result<Search, E> {
    let mut probes = Vec::new();
    let mut within = |lambda: f32| -> Result<bool, E> {
        let loss_db = loss_at(lambda)?;
        probes.push(Probe { lambda, loss_db });
        // A NaN loss counts as over budget.
        Ok(loss_db <= max_loss)
    };
    let (mut lo, mut hi) = (None, None);
    if within(LAMBDA_START)? {
        lo = Some(LAMBDA_START);
        let mut lambda = LAMBDA_START;
        while lambda < LAMBDA_MAX {
            lambda = (lambda * GROWTH).min(LAMBDA_MAX);
            if within(lambda)? {
                lo = Some(lambda);
            } else {
                hi = Some(lambda);
                break;
            }
        }
    } else {
        hi = Some(LAMBDA_START);
        let mut lambda = LAMBDA_START;
        while lambda > LAMBDA_MIN {
            lambda = (lambda / GROWTH).max(LAMBDA_MIN);
            if within(lambda)? {
                lo = Some(lambda);
                break;
            }
            hi = Some(lambda);
        }
    }
    if let (Some(mut l), Some(mut h)) = (lo, hi) {
        while h / l > TOLERANCE {
            let mid = round2((l * h).sqrt());
            if mid <= l || mid >= h {
                break;
            }
            if within(mid)? {
                l = mid;
            } else {
                h = mid;
            }
        }
        lo = Some(l);
    }
    Ok(Search { lambda: lo, probes })
}

/// λ to 0.01, so the chosen value prints and re-runs exactly.
fn round2(x: f32) -> f32 {
    (x * 100.0).round() / 100.0
}

/// What the rule did, for the summary and `--summary-json` (`rdo_rule`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleReport {
    /// The budget (dB).
    pub max_loss_db: f64,
    /// The λ of the stream written; `null` when packed without RDO.
    pub lambda: Option<f32>,
    /// PSNR (dB) of mip 0 without RDO (the encoder's blocks) and of what was written.
    pub psnr_plain: f64,
    pub psnr_rdo: f64,
    /// psnr_plain − psnr_rdo (0 without RDO; negative when RDO raised PSNR).
    pub loss_db: f64,
    /// Compressed bytes (sum of every stream) without RDO and as written.
    pub bytes_plain: u64,
    pub bytes: u64,
    /// bytes_plain − bytes, and as % of bytes_plain.
    pub bytes_saved: u64,
    pub saved_percent: f64,
    /// Every RDO pass of the search, in order.
    pub probes: Vec<Probe>,
    /// Why there is no RDO, when `lambda` is `null`.
    pub note: Option<String>,
}

/// PSNR of mip 0 of `mips` against `image`, as the packer reports it.
pub(super) fn mip0_psnr(image: &Image, format: BcFormat, mips: &[Vec<u8>]) -> Result<f64, PackError> {
    let decoded = decode_surface(format, image.width, image.height, &mips[0])?;
    Ok(psnr(&image.rgba, &decoded, format_channels(format))?)
}

/// PSNR loss of `rdo` against `plain` (dB); an exact plain encoding loses everything to any
/// error, nothing to another exact one.
fn loss(plain: f64, rdo: f64) -> f64 {
    if plain.is_infinite() && rdo.is_infinite() {
        0.0
    } else {
        plain - rdo
    }
}

/// Packs `mips` (the encoder's blocks of `chain`, whose mip 0 is `image`) with the λ the rule
/// chooses for `max_loss`; the stream written is the probe's own blocks, not a re-encode.
/// Returns the packed texture (its summary's `rdo_rule` filled in) and its mip-0 PSNR.
pub(super) fn pack_by_rule(
    image: &Image,
    chain: &[Image],
    mips: &[Vec<u8>],
    options: &PackOptions,
    max_loss: f64,
    on_stream: &(dyn Fn() + Sync),
) -> Result<(PackedTexture, f64), PackError> {
    let format = options.format;
    if options.rdo.is_some() {
        return Err(PackError::Option {
            option: "--rdo-max-loss",
            value: "together with --rdo-lambda".to_string(),
            expected: "one of them: --rdo-lambda fixes λ, --rdo-max-loss chooses it",
        });
    }
    if !matches!(format, BcFormat::Bc1 | BcFormat::Bc3 | BcFormat::Bc4 | BcFormat::Bc5) {
        return Err(PackError::Option {
            option: "--rdo-max-loss",
            value: format!("with format {}", format!("{format:?}").to_ascii_lowercase()),
            expected: "bc1, bc3, bc4 or bc5 (the formats RDO takes)",
        });
    }
    check_max_loss(max_loss)?;
    let psnr_plain = mip0_psnr(image, format, mips)?;
    let mut best: Option<(f32, Vec<Vec<u8>>, f64)> = None;
    let settings = |lambda| RdoSettings { lambda, ..RdoSettings::default() };
    // The loss is mip 0's, and RDO treats each mip on its own: a probe passes over mip 0
    // only, and the other mips get the pass once, at the λ chosen.
    let (chain0, chain_rest) = chain.split_at(chain.len().min(1));
    let (mips0, mips_rest) = mips.split_at(mips.len().min(1));
    let found = search(max_loss, |lambda| -> Result<f64, PackError> {
        let rdo = rdo_mips(chain0, mips0, format, &settings(lambda))?;
        let p = mip0_psnr(image, format, &rdo)?;
        let l = loss(psnr_plain, p);
        if l <= max_loss && best.as_ref().is_none_or(|(b, _, _)| lambda > *b) {
            best = Some((lambda, rdo, p));
        }
        Ok(l)
    })?;
    if let Some((lambda, rdo, _)) = best.as_mut() {
        rdo.extend(rdo_mips(chain_rest, mips_rest, format, &settings(*lambda))?);
    }
    let desc = TextureDesc::new(image.width, image.height, format, None)?;
    let srgb = options.color == ColorSpace::Srgb;
    let plain_options = PackOptions { rdo: None, rdo_max_loss: None, ..*options };
    // The largest λ probed within budget is the search's answer (see `search`).
    debug_assert_eq!(best.as_ref().map(|b| b.0), found.lambda);
    let (mut packed, bytes_plain, psnr_rdo, lambda, note) = match best {
        Some((lambda, rdo, p)) => {
            let plain = pack_blocks(&desc, mips, &plain_options, srgb, &|| {})?;
            let bytes_plain = plain.summary.compressed_bytes;
            let rdo_options = PackOptions { rdo: Some(settings(lambda)), rdo_max_loss: None, ..*options };
            let packed = pack_blocks(&desc, &rdo, &rdo_options, srgb, on_stream)?;
            if packed.summary.compressed_bytes <= bytes_plain {
                (packed, bytes_plain, p, Some(lambda), None)
            } else {
                let note = format!("RDO at λ = {lambda} does not shrink the streams; packed without RDO");
                (plain, bytes_plain, psnr_plain, None, Some(note))
            }
        }
        None => {
            let plain = pack_blocks(&desc, mips, &plain_options, srgb, on_stream)?;
            let bytes_plain = plain.summary.compressed_bytes;
            let note =
                format!("even λ = {LAMBDA_MIN} (the smallest step) loses more than {max_loss} dB; packed without RDO");
            (plain, bytes_plain, psnr_plain, None, Some(note))
        }
    };
    let bytes = packed.summary.compressed_bytes;
    let bytes_saved = bytes_plain.saturating_sub(bytes);
    packed.summary.rdo_rule = Some(RuleReport {
        max_loss_db: max_loss,
        lambda,
        psnr_plain,
        psnr_rdo,
        loss_db: loss(psnr_plain, psnr_rdo),
        bytes_plain,
        bytes,
        bytes_saved,
        saved_percent: 100.0 * bytes_saved as f64 / bytes_plain.max(1) as f64,
        probes: found.probes,
        note,
    });
    Ok((packed, psnr_rdo))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loss that grows like the measured BC1 curves: 2 dB near λ = 160.
    fn smooth(lambda: f32) -> Result<f64, ()> {
        Ok(f64::from(lambda) / 80.0)
    }

    #[test]
    fn finds_the_largest_lambda_within_budget_to_tolerance() {
        let s = search(2.0, smooth).unwrap();
        let l = s.lambda.unwrap();
        assert!(smooth(l).unwrap() <= 2.0, "λ {l}");
        // The true boundary is 160: the answer is within the tolerance below it.
        assert!(l <= 160.0 && l * TOLERANCE > 160.0, "λ {l}");
        assert!(s.probes.len() <= 10, "{} probes: {:?}", s.probes.len(), s.probes);
        assert_eq!(s.probes[0].lambda, LAMBDA_START);
        // Every probe within budget is at most the answer: it is the largest λ probed.
        assert!(s.probes.iter().filter(|p| p.loss_db <= 2.0).all(|p| p.lambda <= l));
    }

    #[test]
    fn shrinks_below_the_start_and_gives_up_below_the_smallest_step() {
        // 2 dB at λ = 6: below the start.
        let s = search(2.0, |l: f32| Ok::<_, ()>(f64::from(l) / 3.0)).unwrap();
        let l = s.lambda.unwrap();
        assert!(l <= 6.0 && l * TOLERANCE > 6.0, "λ {l}");
        // Even λ = 1 loses 5 dB: no RDO, after probing 16, 4 and 1.
        let s = search(2.0, |l: f32| Ok::<_, ()>(5.0 + f64::from(l))).unwrap();
        assert_eq!(s.lambda, None);
        assert_eq!(s.probes.iter().map(|p| p.lambda).collect::<Vec<_>>(), [16.0, 4.0, 1.0]);
        // NaN counts as over budget.
        assert_eq!(search(2.0, |_| Ok::<_, ()>(f64::NAN)).unwrap().lambda, None);
    }

    #[test]
    fn stops_at_the_cap_and_passes_errors_on() {
        let s = search(2.0, |_| Ok::<_, ()>(0.1)).unwrap();
        assert_eq!(s.lambda, Some(LAMBDA_MAX));
        assert_eq!(s.probes.iter().map(|p| p.lambda).collect::<Vec<_>>(), [16.0, 64.0, 256.0, 1024.0, 4096.0]);
        assert_eq!(search(2.0, |_| Err::<f64, _>("boom")), Err("boom"));
    }

    #[test]
    fn a_non_monotone_loss_still_answers_a_probe_within_budget() {
        let wobbly = |l: f32| Ok::<_, ()>(if (100.0..120.0).contains(&l) { 9.0 } else { f64::from(l) / 80.0 });
        let s = search(2.0, wobbly).unwrap();
        let l = s.lambda.unwrap();
        assert!(wobbly(l).unwrap() <= 2.0 && s.probes.iter().any(|p| p.lambda == l));
    }

    #[test]
    fn parses_losses_and_refuses_out_of_range() {
        for (s, v) in [("2dB", 2.0), ("2 dB", 2.0), ("2", 2.0), ("0.5dB", 0.5), (" 20 DB ", 20.0), ("1.5db", 1.5)] {
            assert_eq!(parse_max_loss(s), Ok(v), "{s}");
        }
        for s in ["0", "0dB", "-1dB", "30dB", "20.01", "inf", "nan", "", "dB", "2 dBm", "two"] {
            let e = parse_max_loss(s).unwrap_err();
            assert!(e.contains("--rdo-max-loss") && e.contains(&format!("`{s}`")) && e.contains("20 dB"), "{s}: {e}");
        }
    }
}
