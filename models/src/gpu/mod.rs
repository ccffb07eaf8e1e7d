//! GPU side of the streaming path: 5.3 LOD values, sampler feedback maps, MinMip maps and
//! the MinMip filter, and the sampler's LOD / footprint model (SPEC §4, DESIGN.md).
//!
//! - [`Lod53`]: unsigned 5.3 fixed point (LOD x 8); 0xFF = "nothing requested";
//!   [`lod53_of_length`] encodes a LOD from its length's exponent and mantissa.
//! - [`MinMipFeedback`], [`FeedbackArray`]: MinMip feedback maps (atomic-min writes,
//!   cleared to 0xFF), equal-size maps as slices of one allocation for bulk clears.
//! - [`MipRegionUsedFeedback`]: the other D3D12 feedback format, one bit per region and mip.
//! - [`FeedbackLayout`]: texture ↔ feedback-map geometry (mip region rules) and the write of
//!   one sample's footprint, with the spec's small-tail-mip latitude ([`SmallTailPolicy`]).
//! - [`MinMipMap`]: finest resident mip per mip-0 tile; point-sampled clamp (baseline) and
//!   the continuous MinMip filter ([`MinMipFilter`], [`Slope`], [`Offset`]).
//! - [`ResidencyCheck`]: whether a read's [`Footprint`] touches a tile the MinMip map does
//!   not have resident (the hazard the MinMip clamp and filter prevent).
//! - [`sample`]: LOD from UV derivatives per D3D11.3 §7.18.11, the MinMip clamp, and the
//!   [`Footprint`] of taps each filter reads.
//!
//! Sizes are plain numbers (texels); this module does not depend on `texture`.
//! Sources: the D3D12 Sampler Feedback spec (microsoft.github.io/DirectX-Specs), the
//! D3D11.3 functional spec §7.18 (texture sampling), SPEC.md §3–4 and DESIGN.md.

mod error;
mod feedback;
mod feedback_write;
mod footprint;
mod limits;
mod lod;
mod lod_fixed;
mod lod_select;
mod minmip;
mod minmip_filter;
mod region_used;
mod residency_check;
mod sampler;

pub use error::GpuError;
pub use feedback::{FeedbackArray, MinMipFeedback, MinMipFeedbackSlice, MinMipFeedbackSliceMut};
pub use feedback_write::{FeedbackLayout, RegionRect, SmallTailPolicy, TexelLocator};
pub use footprint::{Footprint, Tap};
pub use limits::{
    full_mip_count, mip_dim, MAX_ANISOTROPY, MAX_ARRAY_SLICES, MAX_MIP_COUNT, MAX_TEXTURE_DIM, MIP_LOD_BIAS_MAX,
    MIP_LOD_BIAS_MIN,
};
pub use lod::Lod53;
pub use lod_fixed::lod53_of_length;
pub use lod_select::{anisotropic_lod, isotropic_lod, linear_mips, nearest_mip, AnisoLod};
pub use minmip::MinMipMap;
pub use minmip_filter::{MinMipFilter, Offset, Slope};
pub use region_used::MipRegionUsedFeedback;
pub use residency_check::ResidencyCheck;
pub use sampler::{
    sample, sample_lods, CoarserRegions, DesiredLod, Filter, FootprintRegions, Lods, MipRegions, PreparedSampler,
    ReadRegions, RegionRuns, Sample, SamplerDesc,
};
