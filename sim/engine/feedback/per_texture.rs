//! The sample's feedback: every texture has its own map with one texel per 64 KiB tile of
//! mip 0, and a request names one tile of that texture.

use super::FeedbackPolicy;

/// One feedback map per texture, one texel per tile.
pub struct PerTexture;

impl FeedbackPolicy for PerTexture {
    fn name(&self) -> &'static str {
        "PerTexture"
    }
}
