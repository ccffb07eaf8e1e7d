//! Shapes the ray caster hits, each with a UV parameterization and its surface tangents
//! (∂P/∂u, ∂P/∂v) so that ray differentials can be turned into UV derivatives.

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    pub min: DVec3,
    pub max: DVec3,
}

impl Aabb {
    pub const EMPTY: Aabb = Aabb { min: DVec3::splat(f64::INFINITY), max: DVec3::splat(f64::NEG_INFINITY) };

    pub fn union(self, other: Aabb) -> Aabb {
        Aabb { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    pub fn center(&self) -> DVec3 {
        (self.min + self.max) * 0.5
    }

    /// Entry distance of a ray (with precomputed 1/direction) if it hits before `t_max`.
    pub fn hit(&self, origin: DVec3, inv_dir: DVec3, t_max: f64) -> Option<f64> {
        let t0 = (self.min - origin) * inv_dir;
        let t1 = (self.max - origin) * inv_dir;
        let near = t0.min(t1).max_element().max(0.0);
        let far = t0.max(t1).min_element().min(t_max);
        (near <= far).then_some(near)
    }
}

/// A primitive in world space.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// Axis-aligned cube; every face maps the whole texture (u along the face's first
    /// in-plane axis, v along the second).
    Cube { center: DVec3, half: f64 },
    /// Sphere with equirectangular UVs (u = longitude, v = latitude from the +Y pole).
    Sphere { center: DVec3, radius: f64 },
    /// Horizontal square at height `y`; UVs repeat `uv_repeat` times across it.
    Ground { center: DVec3, half: f64, uv_repeat: f64 },
}

/// Where a ray hit a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceHit {
    pub t: f64,
    pub position: DVec3,
    pub normal: DVec3,
    /// Texture coordinates (may exceed \[0, 1\] where the texture repeats).
    pub uv: (f64, f64),
    pub dpdu: DVec3,
    pub dpdv: DVec3,
    /// How `normal`, `dpdu` and `dpdv` lie in world space.
    pub frame: TangentFrame,
}

/// The orientation of a hit's normal and tangents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TangentFrame {
    /// Any orientation.
    General,
    /// Each along one world axis (indices 0..3, all different): cube faces and the
    /// ground. Ray differentials then need no least-squares fit.
    Axes { normal: u8, u: u8, v: u8 },
}

impl Shape {
    pub fn bounds(&self) -> Aabb {
        match *self {
            Shape::Cube { center, half } | Shape::Sphere { center, radius: half } => {
                Aabb { min: center - DVec3::splat(half), max: center + DVec3::splat(half) }
            }
            Shape::Ground { center, half, .. } => {
                Aabb { min: center - DVec3::new(half, 1e-6, half), max: center + DVec3::new(half, 1e-6, half) }
            }
        }
    }

    /// Distance of the nearest hit in (1e-9, t_max), without the surface details: the
    /// cheap test a BVH runs on every candidate. Equals `intersect(..).t`.
    pub fn hit_distance(&self, origin: DVec3, dir: DVec3, t_max: f64) -> Option<f64> {
        match *self {
            Shape::Cube { center, half } => cube_distance(center, half, origin, dir, t_max).map(|(t, _)| t),
            Shape::Sphere { center, radius } => sphere_distance(center, radius, origin, dir, t_max),
            Shape::Ground { center, half, .. } => ground_distance(center, half, origin, dir, t_max),
        }
    }

    /// As [`hit_distance`](Self::hit_distance), given the ray's precomputed `1 / dir` too
    /// (the visibility pass tests one ray against many boxes). Same value.
    pub fn hit_distance_inv(&self, origin: DVec3, dir: DVec3, inv_dir: DVec3, t_max: f64) -> Option<f64> {
        match *self {
            Shape::Cube { center, half } => cube_slab_distance(center, half, origin, inv_dir, t_max),
            _ => self.hit_distance(origin, dir, t_max),
        }
    }

    /// As [`hit_distance_inv`](Self::hit_distance_inv), with the face hit: the axis of a
    /// cube's face (0 for the other shapes). [`intersect_at`](Self::intersect_at) finishes
    /// the hit from the two.
    #[inline]
    pub fn hit_distance_face_inv(&self, origin: DVec3, dir: DVec3, inv_dir: DVec3, t_max: f64) -> Option<(f64, u8)> {
        match *self {
            Shape::Cube { center, half } => {
                cube_distance_inv(center, half, origin, inv_dir, t_max).map(|(t, axis)| (t, axis as u8))
            }
            _ => self.hit_distance(origin, dir, t_max).map(|t| (t, 0)),
        }
    }

    /// The hit [`intersect_inv`](Self::intersect_inv) finds, given the distance and face
    /// [`hit_distance_face_inv`](Self::hit_distance_face_inv) found along the same ray: a
    /// cube skips its slab test and a sphere its quadratic (the ground intersects again).
    #[inline(always)]
    pub fn intersect_at(&self, origin: DVec3, dir: DVec3, inv_dir: DVec3, t: f64, face: u8) -> Option<SurfaceHit> {
        match *self {
            Shape::Cube { center, half } => Some(cube_hit_at(center, half, origin, dir, t, face.into())),
            Shape::Sphere { center, radius } => Some(sphere_hit_at(center, radius, origin, dir, t)),
            _ => self.intersect_inv(origin, dir, inv_dir, f64::INFINITY),
        }
    }

    /// Nearest hit in (1e-9, t_max).
    pub fn intersect(&self, origin: DVec3, dir: DVec3, t_max: f64) -> Option<SurfaceHit> {
        self.intersect_inv(origin, dir, dir.recip(), t_max)
    }

    /// As [`intersect`](Self::intersect), given `1 / dir` too. Same hit.
    #[inline(always)]
    pub fn intersect_inv(&self, origin: DVec3, dir: DVec3, inv_dir: DVec3, t_max: f64) -> Option<SurfaceHit> {
        match *self {
            Shape::Cube { center, half } => intersect_cube(center, half, origin, dir, inv_dir, t_max),
            Shape::Sphere { center, radius } => intersect_sphere(center, radius, origin, dir, t_max),
            Shape::Ground { center, half, uv_repeat } => intersect_ground(center, half, uv_repeat, origin, dir, t_max),
        }
    }
}

const EPS: f64 = 1e-9;

/// The slab test's distance alone (as [`cube_distance`]'s, with `inv` = 1 / dir).
fn cube_slab_distance(center: DVec3, half: f64, origin: DVec3, inv: DVec3, t_max: f64) -> Option<f64> {
    let local = origin - center;
    let t0 = (DVec3::splat(-half) - local) * inv;
    let t1 = (DVec3::splat(half) - local) * inv;
    let t_near = t0.min(t1).max_element();
    let t_far = t0.max(t1).min_element();
    if t_near > t_far || t_far < EPS || t_near > t_max {
        return None;
    }
    let t = if t_near > EPS { t_near } else { t_far };
    (t <= t_max).then_some(t)
}

/// Slab test: (distance, axis of the face hit).
fn cube_distance(center: DVec3, half: f64, origin: DVec3, dir: DVec3, t_max: f64) -> Option<(f64, usize)> {
    cube_distance_inv(center, half, origin, dir.recip(), t_max)
}

/// As [`cube_distance`] with `inv` = 1 / dir.
///
/// With every `inv` component finite no slab distance is NaN (that takes 0 × ∞), so the
/// NaN-ignoring `min`/`max` reduce to plain comparisons, one instruction each instead of a
/// NaN-checking sequence: the same values and face (tested against [`cube_distance_any`]).
/// Comparisons may pick the other of two zeros of opposite sign where `min`/`max` would
/// not, but a zero is never returned (hits lie beyond `EPS`), and only compared otherwise.
#[inline(always)]
fn cube_distance_inv(center: DVec3, half: f64, origin: DVec3, inv: DVec3, t_max: f64) -> Option<(f64, usize)> {
    if !inv.is_finite() {
        // A ray in a slab's plane: its distances to that slab are infinite or NaN.
        return cube_distance_any(center, half, origin, inv, t_max);
    }
    let local = origin - center;
    let t0 = (DVec3::splat(-half) - local) * inv;
    let t1 = (DVec3::splat(half) - local) * inv;
    let lesser = |a: f64, b: f64| if a < b { a } else { b };
    let greater = |a: f64, b: f64| if a > b { a } else { b };
    let near = [lesser(t0.x, t1.x), lesser(t0.y, t1.y), lesser(t0.z, t1.z)];
    let far = [greater(t0.x, t1.x), greater(t0.y, t1.y), greater(t0.z, t1.z)];
    let t_near = greater(near[0], greater(near[1], near[2]));
    let t_far = lesser(far[0], lesser(far[1], far[2]));
    if t_near > t_far || t_far < EPS || t_near > t_max {
        return None;
    }
    let (t, axis) = if t_near > EPS {
        // The last of equal greatest, as `max_by` picks.
        let axis = if near[2] >= greater(near[0], near[1]) { 2 } else { usize::from(near[1] >= near[0]) };
        (t_near, axis)
    } else {
        // Inside the cube: the exit face, the first of equal least, as `min_by` picks.
        let axis = if far[0] <= lesser(far[1], far[2]) {
            0
        } else if far[1] <= far[2] {
            1
        } else {
            2
        };
        (t_far, axis)
    };
    (t <= t_max).then_some((t, axis))
}

/// [`cube_distance_inv`] for any `inv`, infinite components included.
#[inline(never)]
fn cube_distance_any(center: DVec3, half: f64, origin: DVec3, inv: DVec3, t_max: f64) -> Option<(f64, usize)> {
    let local = origin - center;
    let t0 = (DVec3::splat(-half) - local) * inv;
    let t1 = (DVec3::splat(half) - local) * inv;
    let near = t0.min(t1);
    let far = t0.max(t1);
    let t_near = near.max_element();
    let t_far = far.min_element();
    if t_near > t_far || t_far < EPS || t_near > t_max {
        return None;
    }
    let (t, axis) = if t_near > EPS {
        (t_near, (0..3).max_by(|&a, &b| near[a].total_cmp(&near[b])).expect("three axes"))
    } else {
        // Inside the cube: the exit face.
        (t_far, (0..3).min_by(|&a, &b| far[a].total_cmp(&far[b])).expect("three axes"))
    };
    (t <= t_max).then_some((t, axis))
}

#[inline(always)]
pub(crate) fn intersect_cube(
    center: DVec3,
    half: f64,
    origin: DVec3,
    dir: DVec3,
    inv_dir: DVec3,
    t_max: f64,
) -> Option<SurfaceHit> {
    let (t, axis) = cube_distance_inv(center, half, origin, inv_dir, t_max)?;
    Some(cube_hit_at(center, half, origin, dir, t, axis))
}

/// The surface hit on a cube at distance `t` on the face across `axis` (from its slab test).
#[inline(always)]
pub(crate) fn cube_hit_at(center: DVec3, half: f64, origin: DVec3, dir: DVec3, t: f64, axis: usize) -> SurfaceHit {
    let local = origin - center;
    let p = local + dir * t;
    let sign = if p[axis] >= 0.0 { 1.0 } else { -1.0 };
    let mut normal = DVec3::ZERO;
    normal[axis] = sign;
    // The face's two in-plane axes, in a fixed order so UVs are continuous on a face.
    let (a, b) = match axis {
        0 => (2, 1),
        1 => (0, 2),
        _ => (0, 1),
    };
    let size = 2.0 * half;
    let uv = ((p[a] + half) / size, (half - p[b]) / size);
    let mut dpdu = DVec3::ZERO;
    dpdu[a] = size;
    let mut dpdv = DVec3::ZERO;
    dpdv[b] = -size;
    SurfaceHit {
        t,
        position: center + p,
        normal,
        uv,
        dpdu,
        dpdv,
        frame: TangentFrame::Axes { normal: axis as u8, u: a as u8, v: b as u8 },
    }
}

fn sphere_distance(center: DVec3, radius: f64, origin: DVec3, dir: DVec3, t_max: f64) -> Option<f64> {
    let oc = origin - center;
    let a = dir.length_squared();
    let half_b = oc.dot(dir);
    let c = oc.length_squared() - radius * radius;
    let disc = half_b * half_b - a * c;
    if disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    let mut t = (-half_b - sq) / a;
    if t <= EPS {
        t = (-half_b + sq) / a;
    }
    (t > EPS && t <= t_max).then_some(t)
}

fn intersect_sphere(center: DVec3, radius: f64, origin: DVec3, dir: DVec3, t_max: f64) -> Option<SurfaceHit> {
    let t = sphere_distance(center, radius, origin, dir, t_max)?;
    Some(sphere_hit_at(center, radius, origin, dir, t))
}

/// The sphere's surface hit at distance `t` along the ray, `t` being [`sphere_distance`]'s
/// (which does not depend on `t_max`): shading finishes the visibility pass's hit with it.
fn sphere_hit_at(center: DVec3, radius: f64, origin: DVec3, dir: DVec3, t: f64) -> SurfaceHit {
    let oc = origin - center;
    let n = (oc + dir * t) / radius;
    let phi = n.z.atan2(n.x); // longitude, −π..π
    let theta = n.y.clamp(-1.0, 1.0).acos(); // from +Y, 0..π
    let tau = std::f64::consts::TAU;
    let uv = ((phi + std::f64::consts::PI) / tau, theta / std::f64::consts::PI);
    // ∂P/∂u = 2π r (−sinφ sinθ, 0, cosφ sinθ); ∂P/∂v = π r (cosφ cosθ, −sinθ, sinφ cosθ).
    let (sin_t, cos_t) = theta.sin_cos();
    let (sin_p, cos_p) = phi.sin_cos();
    let dpdu = DVec3::new(-sin_p * sin_t, 0.0, cos_p * sin_t) * (tau * radius);
    let dpdv = DVec3::new(cos_p * cos_t, -sin_t, sin_p * cos_t) * (std::f64::consts::PI * radius);
    SurfaceHit { t, position: center + n * radius, normal: n, uv, dpdu, dpdv, frame: TangentFrame::General }
}

fn ground_distance(center: DVec3, half: f64, origin: DVec3, dir: DVec3, t_max: f64) -> Option<f64> {
    if dir.y.abs() < 1e-12 {
        return None;
    }
    let t = (center.y - origin.y) / dir.y;
    if t <= EPS || t > t_max {
        return None;
    }
    let local = origin + dir * t - center;
    (local.x.abs() <= half && local.z.abs() <= half).then_some(t)
}

fn intersect_ground(
    center: DVec3,
    half: f64,
    repeat: f64,
    origin: DVec3,
    dir: DVec3,
    t_max: f64,
) -> Option<SurfaceHit> {
    let t = ground_distance(center, half, origin, dir, t_max)?;
    let p = origin + dir * t;
    let local = p - center;
    let size = 2.0 * half;
    let uv = ((local.x + half) / size * repeat, (local.z + half) / size * repeat);
    let normal = if origin.y >= center.y { DVec3::Y } else { -DVec3::Y };
    let (dpdu, dpdv) = (DVec3::X * (size / repeat), DVec3::Z * (size / repeat));
    Some(SurfaceHit { t, position: p, normal, uv, dpdu, dpdv, frame: TangentFrame::Axes { normal: 1, u: 0, v: 2 } })
}

#[cfg(test)]
#[path = "geometry_tests.rs"]
mod tests;
