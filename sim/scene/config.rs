//! The scene part of a scenario: which objects, which texture sets, how many layers.

use glam::DVec3;
use serde::{Deserialize, Serialize};
use sfsim_models::texture::BcFormat;
use sfsim_models::ConfigError;

/// A group of objects placed in the scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ObjectGroup {
    /// The SFS sample's grid: `count` cubes of edge `size` on a cubic lattice with
    /// `spacing` between centres, centred at the origin.
    CubeGrid { count: u32, spacing: f64, size: f64 },
    /// Spheres scattered (seeded) in a cube of half-size `spread` around the origin, like
    /// Intel's demo.
    Spheres { count: u32, radius: f64, spread: f64, seed: u64 },
    /// A large ground plane for grazing angles, textured `uv_repeat` times across.
    Ground { half: f64, height: f64, uv_repeat: f64 },
    /// One cube; `set` picks its texture set (default: next in turn).
    Cube { center: (f64, f64, f64), half: f64, set: Option<u32> },
    /// One sphere.
    Sphere { center: (f64, f64, f64), radius: f64, set: Option<u32> },
}

/// The texture sets (materials): each a diffuse, a normal and a specular texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TextureSets {
    /// Number of sets (64, the sample's reference content).
    pub count: u32,
    /// Width and height of every texture in texels (8192).
    pub size: u32,
    /// Formats (BC1 diffuse, BC5 normal, BC1 specular: 64 sets = 11.5 GB (10.7 GiB) virtual, the sample's
    /// "~10 GB").
    pub diffuse: BcFormat,
    pub normal: BcFormat,
    pub specular: BcFormat,
}

impl Default for TextureSets {
    fn default() -> Self {
        TextureSets { count: 64, size: 8192, diffuse: BcFormat::Bc1, normal: BcFormat::Bc5, specular: BcFormat::Bc1 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SceneConfig {
    /// Objects (the sample's 64-cube grid).
    pub objects: Vec<ObjectGroup>,
    pub texture_sets: TextureSets,
    /// Texture-set layers each material samples (1..=3): layer k of an object using set s
    /// samples set (s + k) mod count at the same UVs, all three textures of it.
    pub layers: u32,
}

impl Default for SceneConfig {
    fn default() -> Self {
        SceneConfig {
            objects: vec![ObjectGroup::CubeGrid { count: 64, spacing: 10.0, size: 6.0 }],
            texture_sets: TextureSets::default(),
            layers: 1,
        }
    }
}

fn positive(field: &str, value: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value > 0.0 && value <= 1e6 {
        Ok(())
    } else {
        Err(ConfigError::new(field, format!("{value} is out of range; expected > 0 and ≤ 1e6")))
    }
}

impl SceneConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let sets = &self.texture_sets;
        if sets.count == 0 || sets.count > 4096 {
            return Err(ConfigError::new(
                "texture_sets.count",
                format!("{} is out of range; expected 1..=4096", sets.count),
            ));
        }
        if !(8..=16_384).contains(&sets.size) || !sets.size.is_power_of_two() {
            return Err(ConfigError::new(
                "texture_sets.size",
                format!("{} is out of range; expected a power of two in 8..=16384 texels (tile and MinMip arithmetic assumes halving mips)", sets.size),
            ));
        }
        if !(1..=3).contains(&self.layers) {
            return Err(ConfigError::new("layers", format!("{} is out of range; expected 1..=3", self.layers)));
        }
        if self.objects.is_empty() {
            return Err(ConfigError::new("objects", "the scene needs at least one object group"));
        }
        for (i, group) in self.objects.iter().enumerate() {
            let field = |name: &str| format!("objects[{i}].{name}");
            match *group {
                ObjectGroup::CubeGrid { count, spacing, size } => {
                    if count == 0 || count > 1_000_000 {
                        return Err(ConfigError::new(
                            field("count"),
                            format!("{count} is out of range; expected 1..=1000000"),
                        ));
                    }
                    positive(&field("spacing"), spacing)?;
                    positive(&field("size"), size)?;
                }
                ObjectGroup::Spheres { count, radius, spread, .. } => {
                    if count == 0 || count > 1_000_000 {
                        return Err(ConfigError::new(
                            field("count"),
                            format!("{count} is out of range; expected 1..=1000000"),
                        ));
                    }
                    positive(&field("radius"), radius)?;
                    positive(&field("spread"), spread)?;
                }
                ObjectGroup::Ground { half, height, uv_repeat } => {
                    positive(&field("half"), half)?;
                    positive(&field("uv_repeat"), uv_repeat)?;
                    if !height.is_finite() {
                        return Err(ConfigError::new(field("height"), "must be a finite number"));
                    }
                }
                ObjectGroup::Cube { center, half: size, set } | ObjectGroup::Sphere { center, radius: size, set } => {
                    positive(&field("size"), size)?;
                    if ![center.0, center.1, center.2].iter().all(|c| c.is_finite()) {
                        return Err(ConfigError::new(field("center"), "must be finite"));
                    }
                    if let Some(s) = set {
                        if s >= sets.count {
                            return Err(ConfigError::new(
                                field("set"),
                                format!("{s} is out of range; expected 0..{}", sets.count),
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

pub(super) fn vec3(t: (f64, f64, f64)) -> DVec3 {
    DVec3::new(t.0, t.1, t.2)
}
