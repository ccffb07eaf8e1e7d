//! Primary rays with ray differentials (Igehy 1999): for a pixel, the hit point, its UV and
//! the UV derivatives per pixel step in x and y — what a GPU's quad derivatives give a
//! pixel shader, and what the sampler turns into a LOD.

use super::bvh::Bvh;
use super::geometry::{cube_hit_at, Shape, SurfaceHit, TangentFrame};
use glam::DVec3;

/// A pinhole camera over a pixel grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayCamera {
    pub position: DVec3,
    pub forward: DVec3,
    pub right: DVec3,
    pub up: DVec3,
    /// tan(vertical fov / 2).
    pub tan_half_fov_y: f64,
    pub width: u32,
    pub height: u32,
}

/// One ray-cast pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelHit {
    pub object: u32,
    pub hit: SurfaceHit,
    /// ∂(u,v)/∂x and ∂(u,v)/∂y per pixel, in texture-coordinate units.
    pub duv_dx: (f64, f64),
    pub duv_dy: (f64, f64),
}

impl RayCamera {
    /// Camera from a position and orthonormal basis (forward = view direction).
    pub fn new(position: DVec3, forward: DVec3, up: DVec3, fov_y_deg: f64, width: u32, height: u32) -> RayCamera {
        let forward = forward.normalize();
        let right = forward.cross(up).normalize();
        let up = right.cross(forward);
        RayCamera { position, forward, right, up, tan_half_fov_y: (fov_y_deg.to_radians() * 0.5).tan(), width, height }
    }

    /// World units per pixel at unit distance: square pixels, so the same in x and y.
    pub(crate) fn pixel_step(&self) -> f64 {
        2.0 * self.tan_half_fov_y / f64::from(self.height)
    }

    /// The normalized ray through the centre of pixel (x, y) and its direction
    /// differentials per pixel step.
    #[inline]
    pub fn primary_ray(&self, x: u32, y: u32) -> PrimaryRay {
        let (dir, inv_len) = self.primary_ray_parts(x, y);
        self.with_differentials(RayDirection { dir, inv_dir: dir.recip(), inv_len })
    }

    /// [`primary_ray`](Self::primary_ray) without the differentials: what a visibility
    /// pass needs, at about half the memory.
    #[inline]
    pub fn primary_direction(&self, x: u32, y: u32) -> RayDirection {
        let r = self.primary_ray_parts(x, y);
        RayDirection { dir: r.0, inv_dir: r.0.recip(), inv_len: r.1 }
    }

    #[inline]
    fn primary_ray_parts(&self, x: u32, y: u32) -> (DVec3, f64) {
        let step = self.pixel_step();
        let sx = (f64::from(x) + 0.5 - f64::from(self.width) * 0.5) * step;
        let sy = (f64::from(self.height) * 0.5 - f64::from(y) - 0.5) * step;
        let d = self.forward + self.right * sx + self.up * sy;
        let inv_len = d.length_recip();
        (d * inv_len, inv_len)
    }

    /// The full primary ray from its direction part.
    #[inline]
    pub fn with_differentials(&self, r: RayDirection) -> PrimaryRay {
        let step = self.pixel_step();
        let dir = r.dir;
        // Derivative of d/|d| along d' (d' = right·step for x, −up·step for y):
        // (d' − dir·(dir·d')) / |d|.
        let norm_deriv = |dd: DVec3| (dd - dir * dir.dot(dd)) * r.inv_len;
        PrimaryRay {
            dir,
            inv_dir: r.inv_dir,
            ddir_dx: norm_deriv(self.right * step),
            ddir_dy: norm_deriv(-self.up * step),
        }
    }

    /// The pixel's hit from the object a visibility pass found nearest along `ray`.
    #[inline(always)]
    pub fn shade(&self, shapes: &[Shape], ray: &PrimaryRay, object: u32) -> Option<PixelHit> {
        let hit = shapes[object as usize].intersect_inv(self.position, ray.dir, ray.inv_dir, f64::INFINITY)?;
        let (duv_dx, duv_dy) = uv_derivatives(&hit, ray);
        Some(PixelHit { object, hit, duv_dx, duv_dy })
    }

    /// The UV and UV derivatives ([du/dx, dv/dx, du/dy, dv/dy]) of [`shade`](Self::shade)
    /// alone, from the distance `t` and `face` a visibility pass found
    /// ([`Shape::hit_distance_face_inv`]): small enough to stay in registers in a
    /// renderer's hot loop.
    #[inline(always)]
    pub fn shade_uv(
        &self,
        shapes: &[Shape],
        ray: &PrimaryRay,
        object: u32,
        t: f64,
        face: u8,
    ) -> Option<((f64, f64), [f64; 4])> {
        // Each shape finishes in its own arm: merging the arms' whole surface hits first
        // would send them through memory.
        let hit = match shapes[object as usize] {
            Shape::Cube { center, half } => {
                let hit = cube_hit_at(center, half, self.position, ray.dir, t, face.into());
                uv_and_derivatives(&hit, ray)
            }
            ref shape => {
                let hit = shape.intersect_at(self.position, ray.dir, ray.inv_dir, t, face)?;
                uv_and_derivatives(&hit, ray)
            }
        };
        Some(hit)
    }

    /// Casts the ray through the centre of pixel (x, y).
    pub fn cast(&self, shapes: &[Shape], bvh: &Bvh, x: u32, y: u32) -> Option<PixelHit> {
        let ray = self.primary_ray(x, y);
        let (object, hit) = bvh.nearest(shapes, self.position, ray.dir)?;
        let (duv_dx, duv_dy) = uv_derivatives(&hit, &ray);
        Some(PixelHit { object, hit, duv_dx, duv_dy })
    }

    /// Where a world point lands on the screen (pixel coordinates, continuous: pixel
    /// (x, y)'s centre is (x + 0.5, y + 0.5)), or `None` when it is not in front of the
    /// camera.
    pub fn project(&self, point: DVec3) -> Option<(f64, f64)> {
        let rel = point - self.position;
        let z = rel.dot(self.forward);
        if z <= 1e-9 {
            return None;
        }
        let scale = 1.0 / (z * self.pixel_step());
        let x = rel.dot(self.right) * scale + f64::from(self.width) * 0.5;
        let y = f64::from(self.height) * 0.5 - rel.dot(self.up) * scale;
        Some((x, y))
    }
}

/// The direction part of a [`PrimaryRay`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayDirection {
    pub dir: DVec3,
    /// 1 / dir per component.
    pub inv_dir: DVec3,
    /// 1 / the length of the unnormalized direction (for the differentials).
    inv_len: f64,
}

/// A primary ray: its unit direction and how the direction changes per pixel in x and y.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrimaryRay {
    pub dir: DVec3,
    /// 1 / dir per component (±inf along an axis the ray is parallel to).
    pub inv_dir: DVec3,
    pub ddir_dx: DVec3,
    pub ddir_dy: DVec3,
}

/// Transfers the direction differentials to the hit plane and expresses them in (u, v):
/// (∂uv/∂x, ∂uv/∂y).
#[inline(always)]
pub(crate) fn uv_derivatives(hit: &SurfaceHit, ray: &PrimaryRay) -> ((f64, f64), (f64, f64)) {
    match hit.frame {
        TangentFrame::Axes { normal, u, v } => axis_uv_derivatives(hit, ray, normal.into(), u.into(), v.into()),
        TangentFrame::General => general_uv_derivatives(hit, ray),
    }
}

#[inline(always)]
fn uv_and_derivatives(hit: &SurfaceHit, ray: &PrimaryRay) -> ((f64, f64), [f64; 4]) {
    let (dx, dy) = uv_derivatives(hit, ray);
    (hit.uv, [dx.0, dx.1, dy.0, dy.1])
}

const NO_DERIVATIVES: ((f64, f64), (f64, f64)) = ((f64::INFINITY, f64::INFINITY), (f64::INFINITY, f64::INFINITY));

/// The general transfer: a least-squares fit of dp ≈ dpdu·du + dpdv·dv.
pub(crate) fn general_uv_derivatives(hit: &SurfaceHit, ray: &PrimaryRay) -> ((f64, f64), (f64, f64)) {
    let dn = ray.dir.dot(hit.normal);
    let (a, b, c) = (hit.dpdu.length_squared(), hit.dpdu.dot(hit.dpdv), hit.dpdv.length_squared());
    let det = a * c - b * b;
    if dn.abs() < 1e-12 || det.abs() < 1e-30 {
        return NO_DERIVATIVES;
    }
    // Two divisions per hit instead of six: this runs for every sampled pixel.
    let (inv_dn, inv_det) = (1.0 / dn, 1.0 / det);
    let transfer = |d_dir: DVec3| {
        let dp_unprojected = d_dir * hit.t;
        let dt = -dp_unprojected.dot(hit.normal) * inv_dn;
        let dp = dp_unprojected + ray.dir * dt;
        let (ru, rv) = (dp.dot(hit.dpdu), dp.dot(hit.dpdv));
        ((c * ru - b * rv) * inv_det, (a * rv - b * ru) * inv_det)
    };
    (transfer(ray.ddir_dx), transfer(ray.ddir_dy))
}

/// [`general_uv_derivatives`] for a frame along the world axes, with the terms that are
/// products of exact zeros left out. Adding a zero is exact, so the result is the same
/// (up to the sign of a zero derivative) at a third of the arithmetic.
#[inline(always)]
fn axis_uv_derivatives(hit: &SurfaceHit, ray: &PrimaryRay, n: usize, u: usize, v: usize) -> ((f64, f64), (f64, f64)) {
    let (n_sign, pu, pv) = (hit.normal[n], hit.dpdu[u], hit.dpdv[v]);
    let dn = ray.dir[n] * n_sign;
    let (a, c) = (pu * pu, pv * pv);
    let det = a * c;
    if dn.abs() < 1e-12 || det.abs() < 1e-30 {
        return NO_DERIVATIVES;
    }
    let (inv_dn, inv_det) = (1.0 / dn, 1.0 / det);
    // The ray's direction and the surface's terms, read once for both differentials.
    let axes = AxisTransfer { t: hit.t, n_sign, inv_dn, dir_u: ray.dir[u], dir_v: ray.dir[v], a, c, pu, pv, inv_det };
    let pick = |d: DVec3| (d[n], d[u], d[v]);
    (axes.transfer(pick(ray.ddir_dx)), axes.transfer(pick(ray.ddir_dy)))
}

/// The per-hit terms of [`axis_uv_derivatives`]' transfer of a direction differential.
struct AxisTransfer {
    t: f64,
    n_sign: f64,
    inv_dn: f64,
    dir_u: f64,
    dir_v: f64,
    a: f64,
    c: f64,
    pu: f64,
    pv: f64,
    inv_det: f64,
}

impl AxisTransfer {
    /// The UV derivative for a direction differential with components (`n`, `u`, `v`).
    #[inline(always)]
    fn transfer(&self, (d_n, d_u, d_v): (f64, f64, f64)) -> (f64, f64) {
        let dt = -(d_n * self.t * self.n_sign) * self.inv_dn;
        let dp_u = d_u * self.t + self.dir_u * dt;
        let dp_v = d_v * self.t + self.dir_v * dt;
        ((self.c * (dp_u * self.pu)) * self.inv_det, (self.a * (dp_v * self.pv)) * self.inv_det)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_quad_derivative_is_closed_form() {
        // A 2×2 cube face at distance 4, 90° fov, 512 px high: one pixel spans
        // 2·tan(45°)·4/512 = 1/64 world units = 1/128 of the face → du/dx = 1/128.
        let shapes = [Shape::Cube { center: DVec3::ZERO, half: 1.0 }];
        let bvh = Bvh::build(&shapes);
        let cam = RayCamera::new(DVec3::new(0.0, 0.0, 5.0), -DVec3::Z, DVec3::Y, 90.0, 512, 512);
        let hit = cam.cast(&shapes, &bvh, 256, 256).unwrap();
        assert!((hit.duv_dx.0 - 1.0 / 128.0).abs() < 1e-6, "{:?}", hit.duv_dx);
        assert!(hit.duv_dx.1.abs() < 1e-9);
        assert!((hit.duv_dy.1 - 1.0 / 128.0).abs() < 1e-6, "{:?}", hit.duv_dy);
    }

    /// The axis-frame shortcut gives the general fit's values, bit for bit, on cube faces
    /// and the ground seen from random places.
    #[test]
    fn axis_frame_derivatives_equal_the_general_fit() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let shapes = [
            Shape::Cube { center: DVec3::new(1.0, -2.0, 0.5), half: 3.0 },
            Shape::Ground { center: DVec3::new(0.0, -10.0, 0.0), half: 80.0, uv_repeat: 6.0 },
        ];
        let mut hits = 0;
        for _ in 0..2000 {
            let p = DVec3::new(rng.gen_range(-30.0..30.0), rng.gen_range(-8.0..30.0), rng.gen_range(-30.0..30.0));
            let target = DVec3::new(rng.gen_range(-5.0..5.0), rng.gen_range(-12.0..5.0), rng.gen_range(-5.0..5.0));
            let cam = RayCamera::new(p, target - p, DVec3::Y, rng.gen_range(20.0..100.0), 640, 360);
            let ray = cam.primary_ray(rng.gen_range(0..640), rng.gen_range(0..360));
            for shape in &shapes {
                let Some(hit) = shape.intersect(p, ray.dir, f64::INFINITY) else { continue };
                assert!(matches!(hit.frame, TangentFrame::Axes { .. }));
                assert_eq!(uv_derivatives(&hit, &ray), general_uv_derivatives(&hit, &ray), "{hit:?}");
                hits += 1;
            }
        }
        assert!(hits > 500, "only {hits} hits: the comparison proves little");
    }

    #[test]
    fn grazing_ground_stretches_v() {
        let shapes = [Shape::Ground { center: DVec3::ZERO, half: 100.0, uv_repeat: 1.0 }];
        let bvh = Bvh::build(&shapes);
        let forward = DVec3::new(0.0, -0.2, -1.0);
        let cam = RayCamera::new(DVec3::new(0.0, 1.0, 0.0), forward, DVec3::Y, 60.0, 640, 480);
        let hit = cam.cast(&shapes, &bvh, 320, 200).unwrap();
        // Looking along −Z at a grazing angle: the footprint is much longer in v than in u.
        assert!(hit.duv_dy.1.abs() > 3.0 * hit.duv_dx.0.abs(), "{:?} {:?}", hit.duv_dx, hit.duv_dy);
    }
}
