//! A sampler's description (`render.sampler`): its filter, LOD bias and MinMip filter,
//! validated against D3D's limits.

use super::super::error::GpuError;
use super::super::limits::{MAX_ANISOTROPY, MIP_LOD_BIAS_MAX, MIP_LOD_BIAS_MIN};
use super::super::minmip_filter::MinMipFilter;
use serde::{Deserialize, Serialize};

/// Texture filter of a sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Filter {
    /// One texel of the nearest mip (D3D12 MIN_MAG_MIP_POINT).
    Point,
    /// A 2x2 quad of the nearest mip (D3D12 MIN_MAG_LINEAR_MIP_POINT).
    Bilinear,
    /// 2x2 quads on the two mips around the LOD (D3D12 MIN_MAG_MIP_LINEAR).
    Trilinear,
    /// Trilinear probes along the major axis (D3D12 ANISOTROPIC).
    Anisotropic {
        /// Largest ratio of anisotropy (probes), 1..=16.
        max_aniso: u32,
    },
}

/// Sampler state relevant to streaming.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerDesc {
    /// Texture filter.
    pub filter: Filter,
    /// Added to the computed LOD before clamping, mips (D3D12 `MipLODBias`,
    /// -16.0..=15.99).
    #[serde(default)]
    pub lod_bias: f32,
    /// MinMip filter flag and settings; `None` point-samples the MinMip map.
    #[serde(default)]
    pub minmip: Option<MinMipFilter>,
}

impl SamplerDesc {
    /// A sampler with `filter`, no LOD bias and point-sampled MinMip clamp.
    pub fn new(filter: Filter) -> SamplerDesc {
        SamplerDesc { filter, lod_bias: 0.0, minmip: None }
    }

    /// Checks the D3D12 ranges: `max_aniso` in 1..=16, `lod_bias` finite in -16.0..=15.99.
    pub fn validate(&self) -> Result<(), GpuError> {
        if let Filter::Anisotropic { max_aniso } = self.filter {
            if max_aniso == 0 || max_aniso > MAX_ANISOTROPY {
                return Err(GpuError::MaxAniso(max_aniso));
            }
        }
        if !(MIP_LOD_BIAS_MIN..=MIP_LOD_BIAS_MAX).contains(&self.lod_bias) {
            return Err(GpuError::LodBias(self.lod_bias));
        }
        Ok(())
    }
}
