//! The sampler model: LOD, MinMip clamp and filter footprint for one sample.
//!
//! Per sample (D3D11.3 §7.18.11 and the D3D12 Sampler Feedback spec's SFS usage):
//! 1. LOD from the UV derivatives ([`isotropic_lod`](super::isotropic_lod) / [`anisotropic_lod`](super::anisotropic_lod)), plus the
//!    sampler's LOD bias, clamped to the texture's mips `[0, mip_count - 1]` (the
//!    MinLOD/MaxLOD clamp, with D3D's NaN-dropping min/max). That is the *desired* LOD, the
//!    value feedback records (computed without the MinMip clamp).
//! 2. The MinMip clamp at the same UV: filtered with the sampler's [`MinMipFilter`](super::MinMipFilter), or
//!    point sampled when it has none; 0 without a MinMip map.
//! 3. The *effective* LOD `max(desired, clamp)`: the clamp acts as the per-pixel MinLOD of
//!    `Sample(s, uv, offset, clamp)` and, like MinLOD in D3D, wins over MaxLOD; mip
//!    selection then stops at the last mip.
//! 4. The footprints: taps at the effective LOD (what the texture read touches) and at the
//!    desired LOD (what `WriteSamplerFeedback` traces, used for feedback writes).
//!
//! Filters (sfsim names → D3D12 filters): `Point` = MIN_MAG_MIP_POINT (one texel of the
//! nearest mip), `Bilinear` = MIN_MAG_LINEAR_MIP_POINT (a 2x2 quad of the nearest mip),
//! `Trilinear` = MIN_MAG_MIP_LINEAR (2x2 quads on floor(LOD) and the next mip),
//! `Anisotropic` = ANISOTROPIC (LINEAR mip selection, §7.18.10).
//!
//! Anisotropic probe model (sfsim's; D3D fixes the LOD and the line of anisotropy but not
//! the probe placement): `n = ceil(ratio)` probes, 1..=max_aniso, evenly spaced along the
//! major axis over its full length, centred on the sample: probe i at offset
//! `((i + 0.5) / n - 0.5) * major`. Each probe is a trilinear lookup at the LOD. This
//! follows EXT_texture_filter_anisotropic ("N locations ... sampled within the texture
//! footprint"); real GPUs place and weight probes in undocumented ways. When the MinMip
//! clamp raises the LOD, the same probes are read at the coarser LOD.

use super::error::GpuError;
use super::feedback::check_dim;
use super::footprint::{bilinear_tap, point_tap, Footprint, Tap};
use super::limits::full_mip_count;
use super::lod::Lod53;
use super::lod_select::{anisotropic_axes, isotropic_length, linear_mips, nearest_mip};
use super::minmip::MinMipMap;
use serde::{Deserialize, Serialize};

/// What one sample asks for and reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// LOD without the MinMip clamp, biased and clamped to `[0, mip_count - 1]`, mips: what
    /// feedback records.
    pub desired_lod: f32,
    /// MinMip clamp read at the sample's UV, mips (0 without a MinMip map).
    pub clamp: f32,
    /// `max(desired_lod, clamp)`, mips: the LOD the texture read uses. Can exceed
    /// `mip_count - 1` when the clamp does; the taps then read the last mip.
    pub effective_lod: f32,
    /// Ratio of anisotropy used (1 for non-anisotropic filters).
    pub anisotropy: f32,
    /// Texels the texture read touches (at `effective_lod`).
    pub footprint: Footprint,
    /// Texels the feedback write traces (at `desired_lod`): pass this to
    /// [`FeedbackLayout::write_min_mip`](super::FeedbackLayout::write_min_mip).
    pub feedback_footprint: Footprint,
}

/// Where the filter looks: the sample point, or probes along the major axis.
struct Probes {
    /// Probe centres, normalized UV.
    uvs: Vec<(f64, f64)>,
}

/// A sample's LODs without its footprints: all that feedback written at the sample
/// location (rather than over the footprint) needs, at a fraction of the cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lods {
    /// As [`Sample::desired_lod`].
    pub desired_lod: f32,
    /// As [`Sample::clamp`].
    pub clamp: f32,
    /// As [`Sample::effective_lod`].
    pub effective_lod: f32,
    /// As [`Sample::anisotropy`].
    pub anisotropy: f32,
    desired: f64,
    effective: f64,
    ratio: f64,
    /// Major axis of anisotropy, mip-0 texels (0 for other filters).
    major: (f64, f64),
}

/// The desired LOD of a sample before any MinMip clamp (see [`PreparedSampler::desired`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DesiredLod {
    desired: f64,
    ratio: f64,
    major: (f64, f64),
}

impl DesiredLod {
    /// The desired LOD, mips: [`Lods::desired_lod`].
    #[inline]
    pub fn lod(&self) -> f32 {
        self.desired as f32
    }

    /// The effective LOD under a MinMip clamp of `clamp` mips: [`Lods::effective_lod`] of
    /// [`PreparedSampler::clamped`] when the clamp is point-sampled.
    #[inline]
    pub fn effective(&self, clamp: f32) -> f32 {
        self.desired.max(f64::from(clamp)) as f32
    }

    /// The LODs under a MinMip clamp of `clamp` mips, whatever computed it: what
    /// [`PreparedSampler::clamped`] returns when its clamp is `clamp` (e.g. the point-sampled
    /// clamp of a sampler that filters it, for a counterfactual).
    #[inline]
    pub fn with_clamp(&self, clamp: f32) -> Lods {
        let effective = self.desired.max(f64::from(clamp));
        Lods {
            desired_lod: self.desired as f32,
            clamp,
            effective_lod: effective as f32,
            anisotropy: self.ratio as f32,
            desired: self.desired,
            effective,
            ratio: self.ratio,
            major: self.major,
        }
    }
}

/// Samples a `tex_w x tex_h` texture of `mip_count` mips with `desc` at normalized `uv`.
///
/// `derivs` = `[du/dx, dv/dx, du/dy, dv/dy]`: normalized UV per pixel (the shader's
/// `ddx(uv)`, `ddy(uv)`); they are scaled by the texture size here. `minmip` is the
/// texture's MinMip map, if it has one.
///
/// Errors: invalid sampler (see [`SamplerDesc::validate`]); a texture edge outside
/// 1..=16384; `mip_count` outside 1..=the full chain; NaN or infinite `uv` or `derivs`.
pub fn sample(
    desc: &SamplerDesc,
    uv: (f64, f64),
    derivs: [f64; 4],
    tex_w: u32,
    tex_h: u32,
    mip_count: u32,
    minmip: Option<&MinMipMap>,
) -> Result<Sample, GpuError> {
    PreparedSampler::new(desc, tex_w, tex_h, mip_count)?.sample(uv, derivs, minmip)
}

/// The LOD part of [`sample`]: same checks, same values, no footprints.
pub fn sample_lods(
    desc: &SamplerDesc,
    uv: (f64, f64),
    derivs: [f64; 4],
    tex_w: u32,
    tex_h: u32,
    mip_count: u32,
    minmip: Option<&MinMipMap>,
) -> Result<Lods, GpuError> {
    PreparedSampler::new(desc, tex_w, tex_h, mip_count)?.lods(uv, derivs, minmip)
}

/// A sampler bound to one texture's size, its settings checked once: for hot loops that
/// sample the same texture many times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreparedSampler {
    desc: SamplerDesc,
    tex_w: u32,
    tex_h: u32,
    mip_count: u32,
    /// The size's part of every anisotropic probe line.
    probe_scale: ProbeScale,
}

impl PreparedSampler {
    /// Errors as [`sample`] does for the sampler and texture.
    pub fn new(desc: &SamplerDesc, tex_w: u32, tex_h: u32, mip_count: u32) -> Result<Self, GpuError> {
        desc.validate()?;
        check_dim("texture width", tex_w)?;
        check_dim("texture height", tex_h)?;
        let max = full_mip_count(tex_w, tex_h);
        if mip_count == 0 || mip_count > max {
            return Err(GpuError::MipCount { mip_count, max });
        }
        let probe_scale = ProbeScale::new((f64::from(tex_w), f64::from(tex_h)));
        Ok(PreparedSampler { desc: *desc, tex_w, tex_h, mip_count, probe_scale })
    }

    /// As [`sample_lods`]; only `uv` and `derivs` are checked here.
    pub fn lods(&self, uv: (f64, f64), derivs: [f64; 4], minmip: Option<&MinMipMap>) -> Result<Lods, GpuError> {
        let desired = self.desired(derivs)?;
        self.clamped(uv, &desired, minmip)
    }

    /// The part of [`lods`](Self::lods) that depends only on the derivatives, the sampler
    /// and the texture size: textures with equal `PreparedSampler`s share it, so a
    /// material's textures of one size compute it once.
    #[inline]
    pub fn desired(&self, derivs: [f64; 4]) -> Result<DesiredLod, GpuError> {
        let (length, ratio, major) = self.lod_length(derivs)?;
        // D3D: clampedLOD = max(MinLOD, min(MaxLOD, LOD + bias)); f64::min/max drop a NaN
        // operand exactly like D3D's min/max, so NaN cannot reach mip selection.
        let max_lod = f64::from(self.mip_count - 1);
        let desired = (length.log2() + f64::from(self.desc.lod_bias)).min(max_lod).max(0.0);
        Ok(DesiredLod { desired, ratio, major })
    }

    /// The MinMip feedback value of the desired LOD, `Lod53::from_lod(desired.lod())`:
    /// without LOD bias, worked out from the LOD's length with no logarithm
    /// ([`lod53_of_length`](super::lod53_of_length)). Same errors as
    /// [`desired`](Self::desired).
    #[inline]
    pub fn desired_lod53(&self, derivs: [f64; 4]) -> Result<Lod53, GpuError> {
        self.desired_length(derivs).map(|l| self.lod53_of(l))
    }

    /// The first half of [`desired_lod53`](Self::desired_lod53): the length, mip-0 texels,
    /// whose `log2` is the unbiased LOD. Same errors as [`desired`](Self::desired).
    #[inline]
    pub fn desired_length(&self, derivs: [f64; 4]) -> Result<f64, GpuError> {
        self.lod_length(derivs).map(|(length, _, _)| length)
    }

    /// The second half of [`desired_lod53`](Self::desired_lod53): the 5.3 desired LOD of a
    /// [`desired_length`](Self::desired_length).
    #[inline]
    pub fn lod53_of(&self, length: f64) -> Lod53 {
        let max_lod = f64::from(self.mip_count - 1);
        if self.desc.lod_bias != 0.0 {
            let desired = (length.log2() + f64::from(self.desc.lod_bias)).min(max_lod).max(0.0);
            return Lod53::from_lod(desired as f32);
        }
        super::lod53_of_length(length, max_lod)
    }

    /// The length, mip-0 texels, whose `log2` is the unbiased LOD, with the ratio and major
    /// axis of anisotropy.
    #[inline]
    fn lod_length(&self, derivs: [f64; 4]) -> Result<(f64, f64, (f64, f64)), GpuError> {
        if derivs.iter().any(|d| !d.is_finite()) {
            return Err(GpuError::NonFinite("uv derivatives"));
        }
        let (w, h) = (f64::from(self.tex_w), f64::from(self.tex_h));
        let dx = (derivs[0] * w, derivs[1] * h);
        let dy = (derivs[2] * w, derivs[3] * h);
        Ok(match self.desc.filter {
            Filter::Anisotropic { max_aniso } => anisotropic_axes(dx, dy, max_aniso),
            _ => (isotropic_length(dx, dy), 1.0, (0.0, 0.0)),
        })
    }

    /// The LODs at `uv` given the [`desired`](Self::desired) part (from this sampler or an
    /// equal one) and the texture's MinMip map.
    #[inline]
    pub fn clamped(&self, uv: (f64, f64), d: &DesiredLod, minmip: Option<&MinMipMap>) -> Result<Lods, GpuError> {
        if !uv.0.is_finite() || !uv.1.is_finite() {
            return Err(GpuError::NonFinite("uv"));
        }
        let clamp = match minmip {
            None => 0.0,
            Some(map) => match &self.desc.minmip {
                Some(filter) => map.clamp_filtered(filter, uv.0, uv.1),
                None => map.clamp_point(uv.0, uv.1),
            }
            .ok_or(GpuError::NonFinite("uv"))?,
        };
        Ok(d.with_clamp(clamp))
    }

    /// As [`sample`].
    pub fn sample(&self, uv: (f64, f64), derivs: [f64; 4], minmip: Option<&MinMipMap>) -> Result<Sample, GpuError> {
        let l = self.lods(uv, derivs, minmip)?;
        Ok(self.sample_with(uv, &l))
    }

    /// The [`Sample`] of the LODs `l` that [`lods`](Self::lods) (or
    /// [`clamped`](Self::clamped)) returned for `uv` from this sampler: [`sample`](Self::sample)
    /// is `lods` then this.
    pub fn sample_with(&self, uv: (f64, f64), l: &Lods) -> Sample {
        let probes = self.probes(uv, l);
        let dims = (self.tex_w, self.tex_h, self.mip_count);
        let feedback_footprint = footprint(self.desc.filter, &probes, l.desired, dims);
        // Unclamped samples read exactly what feedback traces: reuse it.
        let read_footprint = if l.effective == l.desired {
            feedback_footprint.clone()
        } else {
            footprint(self.desc.filter, &probes, l.effective, dims)
        };
        Sample {
            desired_lod: l.desired_lod,
            clamp: l.clamp,
            effective_lod: l.effective_lod,
            anisotropy: l.anisotropy,
            footprint: read_footprint,
            feedback_footprint,
        }
    }

    /// The texels the texture read of LODs `l` at `uv` touches: [`Sample::footprint`]
    /// without the feedback footprint.
    pub fn read_footprint(&self, uv: (f64, f64), l: &Lods) -> Footprint {
        let probes = self.probes(uv, l);
        footprint(self.desc.filter, &probes, l.effective, (self.tex_w, self.tex_h, self.mip_count))
    }

    /// The finest mip the texture read of LODs `l` touches (every tap of
    /// [`read_footprint`](Self::read_footprint) is at this mip or the next).
    pub fn finest_read_mip(&self, l: &Lods) -> u32 {
        self.finest_mip_at(l.effective)
    }

    /// [`finest_read_mip`](Self::finest_read_mip) of `d.with_clamp(clamp)`, without the
    /// rest of its [`Lods`]: for a residency check before the whole read is worked out.
    #[inline]
    pub fn finest_read_mip_clamped(&self, d: &DesiredLod, clamp: f32) -> u32 {
        self.finest_mip_at(d.desired.max(f64::from(clamp)))
    }

    #[inline]
    fn finest_mip_at(&self, effective: f64) -> u32 {
        match self.desc.filter {
            Filter::Point | Filter::Bilinear => nearest_mip(effective, self.mip_count),
            Filter::Trilinear | Filter::Anisotropic { .. } => linear_mips(effective, self.mip_count).0,
        }
    }

    /// Where the filter looks for the sample at `uv` with LODs `l`.
    fn probes(&self, uv: (f64, f64), l: &Lods) -> Probes {
        match self.desc.filter {
            Filter::Anisotropic { max_aniso } => aniso_probes(uv, l.ratio, l.major, max_aniso, &self.probe_scale),
            _ => Probes { uvs: vec![uv] },
        }
    }
}

impl Lods {
    /// Whether the MinMip clamp raised the LOD: when not, the read's footprint is the
    /// feedback footprint.
    pub fn is_clamped(&self) -> bool {
        self.effective != self.desired
    }
}

/// `ceil(ratio)` probe centres (1..=max_aniso) spread over the major axis (texels of mip
/// 0), converted back to UV.
fn aniso_probes(uv: (f64, f64), ratio: f64, major: (f64, f64), max_aniso: u32, scale: &ProbeScale) -> Probes {
    let line = ProbeLine::scaled(uv, ratio, major, max_aniso, scale);
    Probes { uvs: (0..line.len()).map(|i| line.at(i)).collect() }
}

/// The taps `filter` reads at `lod` (>= 0) for every probe.
fn footprint(filter: Filter, probes: &Probes, lod: f64, dims: (u32, u32, u32)) -> Footprint {
    let (tex_w, tex_h, mip_count) = dims;
    let mut taps: Vec<Tap> = Vec::with_capacity(probes.uvs.len() * 2);
    for &uv in &probes.uvs {
        match filter {
            Filter::Point => taps.push(point_tap(uv, nearest_mip(lod, mip_count), tex_w, tex_h)),
            Filter::Bilinear => taps.push(bilinear_tap(uv, nearest_mip(lod, mip_count), tex_w, tex_h)),
            Filter::Trilinear | Filter::Anisotropic { .. } => {
                let (first, second) = linear_mips(lod, mip_count);
                taps.push(bilinear_tap(uv, first, tex_w, tex_h));
                if let Some(mip) = second {
                    taps.push(bilinear_tap(uv, mip, tex_w, tex_h));
                }
            }
        }
    }
    Footprint::from_taps(taps)
}

mod axis_runs;
mod coarser_regions;
mod desc;
mod mip_taps;
mod probes;
mod read_regions;
mod region_writes;
mod regions;
pub use coarser_regions::CoarserRegions;
pub use desc::{Filter, SamplerDesc};
use probes::{ProbeLine, ProbeScale};
pub use read_regions::ReadRegions;
pub use regions::{FootprintRegions, MipRegions, RegionRuns};
#[cfg(test)]
mod tests;
