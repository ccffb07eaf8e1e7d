//! Coarser feedback maps (an improvement the sample names): one texel per 2×2 tiles of mip
//! 0, so analysis reads a quarter of the texels; a request covers the 2×2 tiles.

use super::FeedbackPolicy;

/// One feedback texel per 2×2 mip-0 tiles.
pub struct Coarse2x2;

impl FeedbackPolicy for Coarse2x2 {
    fn name(&self) -> &'static str {
        "Coarse2x2"
    }

    fn tiles_per_texel(&self) -> u32 {
        2
    }
}
