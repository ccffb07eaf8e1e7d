//! Feedback policies: which textures have feedback maps, how coarse the maps are, and
//! which textures one feedback request applies to (SPEC §5's named improvements: coarser
//! maps, one map shared by a diffuse/normal/specular set with the set's tiles in one IO).
//!
//! [`FeedbackPolicyKind`] is the scenario's selector; [`FeedbackPolicyKind::build`] makes
//! the [`FeedbackPolicy`]. One file per implementation. In a streaming run the policy
//! alone sets the feedback map resolution (`render.feedback.tiles_per_texel` stays 1).

mod coarse;
mod gpu_analysis;
mod per_texture;
mod shared_per_set;

pub use coarse::Coarse2x2;
pub use gpu_analysis::GpuAnalysis;
pub use per_texture::PerTexture;
pub use shared_per_set::SharedPerSet;

use serde::{Deserialize, Serialize};

/// The textures one feedback request applies to: the texture whose map recorded it first
/// (when it is a member), then the rest of its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureGroup {
    members: [u32; 3],
    len: usize,
}

impl TextureGroup {
    /// Just `texture`.
    pub fn single(texture: u32) -> Self {
        TextureGroup { members: [texture, 0, 0], len: 1 }
    }

    /// Up to three textures, in order (more are ignored).
    pub fn of(members: &[u32]) -> Self {
        let mut m = [0; 3];
        let len = members.len().min(3);
        m[..len].copy_from_slice(&members[..len]);
        TextureGroup { members: m, len }
    }

    /// The members in order.
    pub fn as_slice(&self) -> &[u32] {
        &self.members[..self.len]
    }
}

/// How feedback is gathered and what one request covers.
pub trait FeedbackPolicy: Send {
    /// The name used in errors and stats.
    fn name(&self) -> &'static str;

    /// Mip-0 tiles per feedback texel along each axis (1: one texel per 64 KiB tile, the
    /// sample's; 2: a quarter of the texels to analyse). 1, 2 or 4.
    fn tiles_per_texel(&self) -> u32 {
        1
    }

    /// Whether the sampler writes a feedback map for `texture`.
    fn has_feedback_map(&self, _texture: u32) -> bool {
        true
    }

    /// The textures a request read from `texture`'s map applies to, of `textures` in the
    /// scene (texture `t` belongs to set `t / 3`: diffuse, normal, specular).
    fn group(&self, texture: u32, _textures: u32) -> TextureGroup {
        TextureGroup::single(texture)
    }

    /// Whether a tile's load also carries its group's Seen tiles at the same position in
    /// one DirectStorage request.
    fn loads_group_together(&self) -> bool {
        false
    }

    /// Whether a GPU compute pass scans the maps and hands the CPU load/evict lists (the
    /// sample's named improvement): the scan costs GPU time per texel
    /// (`engine.gpu.analysis_per_texel`), the CPU pays per list entry
    /// (`engine.cpu.per_list_entry`).
    fn analysis_on_gpu(&self) -> bool {
        false
    }
}

/// The scenario's feedback selector; the default is the sample's `PerTexture`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FeedbackPolicyKind {
    /// One feedback map per texture, one texel per 64 KiB tile of mip 0 (the sample's).
    #[default]
    PerTexture,
    /// One feedback texel per 2×2 tiles: −75 % analysis work, coarser requests.
    Coarse2x2,
    /// One feedback map per diffuse/normal/specular set (the diffuse's), −66 % analysis;
    /// the set's three tiles at a position load as one IO.
    SharedPerSet,
    /// The sample's maps, scanned on the GPU: a compute pass per texel on the direct queue
    /// produces the lists, and the CPU pays only per list entry.
    GpuAnalysis,
}

impl FeedbackPolicyKind {
    /// The policy this selector names.
    pub fn build(&self) -> Box<dyn FeedbackPolicy> {
        match self {
            FeedbackPolicyKind::PerTexture => Box::new(PerTexture),
            FeedbackPolicyKind::Coarse2x2 => Box::new(Coarse2x2),
            FeedbackPolicyKind::SharedPerSet => Box::new(SharedPerSet),
            FeedbackPolicyKind::GpuAnalysis => Box::new(GpuAnalysis),
        }
    }
}
