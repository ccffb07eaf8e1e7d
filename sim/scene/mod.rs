//! Scenes: objects with texture-set materials, a BVH, and a ray-cast sampler that finds,
//! for chosen pixels, the hit, its UV and UV derivatives (ray differentials).

mod build;
pub mod bvh;
mod config;
pub mod geometry;
pub mod pattern;
pub mod raycast;
mod render;
mod requests;
#[cfg(test)]
mod test_scenes;
pub mod visibility;

pub use build::{Scene, TextureKind};
pub use bvh::Bvh;
pub use config::{ObjectGroup, SceneConfig, TextureSets};
pub use geometry::{Aabb, Shape, SurfaceHit};
pub use pattern::SamplePattern;
pub use raycast::{PixelHit, PrimaryRay, RayCamera, RayDirection};
pub use render::{
    FeedbackConfig, FeedbackKind, FeedbackRenderer, FeedbackWrites, FrameStats, PixelLods, RenderConfig, Residency,
    TemporalReuse, READ_MIPS,
};
