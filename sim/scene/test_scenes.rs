//! Random scenes for the scene module's tests.

use super::Shape;
use glam::DVec3;
use rand::Rng;

/// `count` objects, cubes and spheres alternately, centred anywhere in ±`spread` on each
/// axis, of half-size or radius in 0.5..`max_size`.
pub(crate) fn cubes_and_spheres(rng: &mut impl Rng, count: usize, spread: f64, max_size: f64) -> Vec<Shape> {
    (0..count)
        .map(|i| {
            let c = DVec3::new(
                rng.gen_range(-spread..spread),
                rng.gen_range(-spread..spread),
                rng.gen_range(-spread..spread),
            );
            if i % 2 == 0 {
                Shape::Cube { center: c, half: rng.gen_range(0.5..max_size) }
            } else {
                Shape::Sphere { center: c, radius: rng.gen_range(0.5..max_size) }
            }
        })
        .collect()
}
