//! Builds a [`Scene`] from its configuration: shapes, their texture sets, the textures.

use super::config::{vec3, ObjectGroup, SceneConfig};
use super::{Bvh, Shape};
use glam::DVec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sfsim_models::texture::TextureDesc;
use sfsim_models::ConfigError;

/// Which texture of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextureKind {
    Diffuse = 0,
    Normal = 1,
    Specular = 2,
}

/// A built scene, ready for ray casting.
#[derive(Debug, Clone)]
pub struct Scene {
    pub shapes: Vec<Shape>,
    /// Texture set of each shape.
    pub shape_set: Vec<u32>,
    pub bvh: Bvh,
    /// Every texture; texture id = set × 3 + kind.
    pub textures: Vec<TextureDesc>,
    pub sets: u32,
    pub layers: u32,
}

impl Scene {
    pub fn build(cfg: &SceneConfig) -> Result<Scene, ConfigError> {
        cfg.validate()?;
        let ts = cfg.texture_sets;
        let mut textures = Vec::with_capacity(ts.count as usize * 3);
        for _ in 0..ts.count {
            for format in [ts.diffuse, ts.normal, ts.specular] {
                let desc = TextureDesc::new(ts.size, ts.size, format, None)
                    .map_err(|e| ConfigError::new("texture_sets", e.to_string()))?;
                textures.push(desc);
            }
        }
        let mut shapes = Vec::new();
        let mut shape_set = Vec::new();
        let mut next_set = 0u32;
        let mut place = |shape: Shape, set: Option<u32>| {
            shapes.push(shape);
            shape_set.push(set.unwrap_or(next_set % ts.count));
            next_set += 1;
        };
        for group in &cfg.objects {
            match *group {
                ObjectGroup::CubeGrid { count, spacing, size } => {
                    let n = (f64::from(count).cbrt().ceil() as u32).max(1);
                    let offset = (f64::from(n) - 1.0) * spacing * 0.5;
                    for i in 0..count {
                        let (x, y, z) = (i % n, (i / n) % n, i / (n * n));
                        let center =
                            DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * spacing - DVec3::splat(offset);
                        place(Shape::Cube { center, half: size * 0.5 }, None);
                    }
                }
                ObjectGroup::Spheres { count, radius, spread, seed } => {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    for _ in 0..count {
                        let c = DVec3::new(
                            rng.gen_range(-spread..=spread),
                            rng.gen_range(-spread..=spread),
                            rng.gen_range(-spread..=spread),
                        );
                        place(Shape::Sphere { center: c, radius }, None);
                    }
                }
                ObjectGroup::Ground { half, height, uv_repeat } => {
                    place(Shape::Ground { center: DVec3::new(0.0, height, 0.0), half, uv_repeat }, None)
                }
                ObjectGroup::Cube { center, half, set } => place(Shape::Cube { center: vec3(center), half }, set),
                ObjectGroup::Sphere { center, radius, set } => {
                    place(Shape::Sphere { center: vec3(center), radius }, set)
                }
            }
        }
        let bvh = Bvh::build(&shapes);
        Ok(Scene { shapes, shape_set, bvh, textures, sets: ts.count, layers: cfg.layers })
    }

    pub fn texture_id(set: u32, kind: TextureKind) -> u32 {
        set * 3 + kind as u32
    }

    /// Every texture an object's material samples: its set and the next `layers − 1`,
    /// diffuse, normal and specular of each.
    pub fn textures_of(&self, shape: u32) -> impl Iterator<Item = u32> + '_ {
        let base = self.shape_set[shape as usize];
        (0..self.layers).flat_map(move |layer| {
            let set = (base + layer) % self.sets;
            [TextureKind::Diffuse, TextureKind::Normal, TextureKind::Specular].map(|k| Self::texture_id(set, k))
        })
    }

    /// Total virtual size of all textures (tiles × 64 KiB).
    pub fn virtual_bytes(&self) -> u64 {
        self.textures.iter().map(TextureDesc::virtual_bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_grid_is_64_cubes_and_about_10_gb() {
        let scene = Scene::build(&SceneConfig::default()).unwrap();
        assert_eq!(scene.shapes.len(), 64);
        assert_eq!(scene.textures.len(), 192);
        let gb = scene.virtual_bytes() as f64 / 1e9;
        assert!((10.0..12.0).contains(&gb), "{gb} GB");
        assert_eq!(scene.textures_of(5).collect::<Vec<_>>(), vec![15, 16, 17]);
    }

    #[test]
    fn layers_sample_the_next_sets() {
        let cfg = SceneConfig { layers: 3, ..SceneConfig::default() };
        let scene = Scene::build(&cfg).unwrap();
        assert_eq!(scene.textures_of(63).collect::<Vec<_>>(), vec![189, 190, 191, 0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn bad_values_name_the_field() {
        let cfg = SceneConfig {
            objects: vec![ObjectGroup::CubeGrid { count: 4, spacing: -1.0, size: 1.0 }],
            ..SceneConfig::default()
        };
        assert_eq!(Scene::build(&cfg).unwrap_err().field, "objects[0].spacing");
    }
}
