//! One feedback map per diffuse/normal/specular set (an improvement the sample names): only
//! the diffuse is recorded, −66 % analysis work; a request applies to the set's three
//! textures and their tiles at one position load together in one IO.

use super::{FeedbackPolicy, TextureGroup};

/// One feedback map per texture set; the set's tiles load together.
pub struct SharedPerSet;

impl FeedbackPolicy for SharedPerSet {
    fn name(&self) -> &'static str {
        "SharedPerSet"
    }

    fn has_feedback_map(&self, texture: u32) -> bool {
        texture.is_multiple_of(3)
    }

    fn group(&self, texture: u32, textures: u32) -> TextureGroup {
        let first = texture / 3 * 3;
        let members = textures.saturating_sub(first).min(3);
        TextureGroup::of(&[first, first + 1, first + 2][..members as usize])
    }

    fn loads_group_together(&self) -> bool {
        true
    }
}
