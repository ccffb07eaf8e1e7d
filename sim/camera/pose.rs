//! [`CameraPose`]: where the camera is, where it looks, and how wide it sees.
//!
//! ## Convention
//! World and camera frames are right-handed. The camera looks along its local **−Z**
//! axis, with local **+Y** up and local **+X** to the right (the OpenGL / glTF camera).
//! `orientation` rotates camera-local vectors into world space, so the world-space view
//! direction is `orientation * (0, 0, −1)`. Distances are in scene units (the reference
//! scene uses metres); the field of view is the full vertical angle in degrees.

use glam::{DMat3, DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// A camera in the world at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CameraPose {
    /// Centre of projection, world space (scene units).
    pub position: DVec3,
    /// Unit quaternion rotating camera-local vectors to world space (camera looks along
    /// its local −Z, +Y up).
    pub orientation: DQuat,
    /// Full vertical field of view, degrees (0 < fov < 180).
    pub fov_y_deg: f64,
}

impl CameraPose {
    /// A camera at `position` looking at `target`, rolled so that its up vector lies in
    /// the plane of the view direction and `up` (world space, need not be unit).
    ///
    /// Never panics: if `target` equals `position` the camera keeps the identity
    /// orientation (looking along world −Z); if the view direction is parallel to `up`
    /// (or `up` is zero) the world axis least parallel to the view direction is used as
    /// up instead. Use [`CameraPose::try_look_at`] to reject those cases.
    pub fn look_at(position: DVec3, target: DVec3, up: DVec3, fov_y_deg: f64) -> CameraPose {
        let orientation = look_rotation(target - position, up)
            .or_else(|| {
                let dir = target - position;
                let a = dir.abs();
                let fallback = if a.x <= a.y && a.x <= a.z {
                    DVec3::X
                } else if a.y <= a.z {
                    DVec3::Y
                } else {
                    DVec3::Z
                };
                look_rotation(dir, fallback)
            })
            .unwrap_or(DQuat::IDENTITY);
        CameraPose { position, orientation, fov_y_deg }
    }

    /// Like [`CameraPose::look_at`], but `None` when the view direction is zero or not
    /// finite, or parallel to `up`.
    pub fn try_look_at(position: DVec3, target: DVec3, up: DVec3, fov_y_deg: f64) -> Option<CameraPose> {
        look_rotation(target - position, up).map(|orientation| CameraPose { position, orientation, fov_y_deg })
    }

    /// World-space unit view direction (the camera's local −Z).
    pub fn forward(&self) -> DVec3 {
        self.orientation * DVec3::NEG_Z
    }

    /// World-space unit up direction (the camera's local +Y).
    pub fn up(&self) -> DVec3 {
        self.orientation * DVec3::Y
    }

    /// World-space unit right direction (the camera's local +X).
    pub fn right(&self) -> DVec3 {
        self.orientation * DVec3::X
    }

    /// World-space unit direction of the primary ray through normalized device
    /// coordinates `(x, y)` in [−1, 1]² (+x right, +y up), for an image `aspect` =
    /// width / height. `(0, 0)` gives [`CameraPose::forward`].
    pub fn ray_direction(&self, x: f64, y: f64, aspect: f64) -> DVec3 {
        let tan_half = (self.fov_y_deg.to_radians() * 0.5).tan();
        let local = DVec3::new(x * tan_half * aspect, y * tan_half, -1.0);
        (self.orientation * local).normalize_or_zero()
    }

    /// Interpolates between two poses at `s` in [0, 1]: position and field of view
    /// linearly, orientation by [`slerp_shortest`]. `s = 0` and `s = 1` return `a` and
    /// `b` exactly.
    pub fn interpolate(a: &CameraPose, b: &CameraPose, s: f64) -> CameraPose {
        if s <= 0.0 {
            return *a;
        }
        if s >= 1.0 {
            return *b;
        }
        CameraPose {
            position: a.position.lerp(b.position, s),
            orientation: slerp_shortest(a.orientation, b.orientation, s),
            fov_y_deg: a.fov_y_deg + (b.fov_y_deg - a.fov_y_deg) * s,
        }
    }
}

/// The rotation whose local −Z is `dir` and whose local +Y is as close to `up` as
/// possible; `None` if `dir` is zero / not finite or parallel to `up`.
fn look_rotation(dir: DVec3, up: DVec3) -> Option<DQuat> {
    let forward = dir.try_normalize()?;
    let side = forward.cross(up.try_normalize()?);
    // Reject near-parallel `up`, where the roll would be decided by rounding noise.
    if side.length() < 1e-9 {
        return None;
    }
    let right = side.normalize();
    let true_up = right.cross(forward);
    let q = DQuat::from_mat3(&DMat3::from_cols(right, true_up, -forward));
    Some(q.normalize())
}

/// Spherical linear interpolation along the shorter of the two arcs between unit
/// quaternions `a` and `b` (`b` is negated first when `a · b < 0`), at `s` in [0, 1].
/// Nearly equal rotations are blended linearly. The result is normalized.
pub fn slerp_shortest(a: DQuat, b: DQuat, s: f64) -> DQuat {
    let mut b = b;
    let mut dot = a.dot(b);
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    let (wa, wb) = if dot > 0.9995 {
        (1.0 - s, s)
    } else {
        let theta = dot.min(1.0).acos();
        let sin_theta = theta.sin();
        ((theta * (1.0 - s)).sin() / sin_theta, (theta * s).sin() / sin_theta)
    };
    (a * wa + b * wb).normalize()
}

/// The angle (radians, in [0, π]) of the rotation taking `a` to `b`; `q` and `−q` count
/// as the same rotation.
pub fn rotation_angle(a: DQuat, b: DQuat) -> f64 {
    // atan2 of the relative rotation's vector and scalar parts stays accurate for tiny
    // angles, where acos(a · b) would lose half the digits.
    let d = a.conjugate() * b;
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// Validates a field of view in degrees: finite and in (0, 180).
pub(crate) fn check_fov(fov_y_deg: f64) -> Result<(), String> {
    if fov_y_deg.is_finite() && fov_y_deg > 0.0 && fov_y_deg < 180.0 {
        Ok(())
    } else {
        Err(format!("field of view {fov_y_deg} degrees is out of range; expected 0 < fov_y_deg < 180"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn close(a: DVec3, b: DVec3) -> bool {
        (a - b).length() < 1e-12
    }

    #[test]
    fn look_at_points_minus_z_at_the_target_with_up_up() {
        let p = CameraPose::look_at(DVec3::new(0.0, 1.0, -5.0), DVec3::ZERO, DVec3::Y, 60.0);
        let want = (DVec3::ZERO - p.position).normalize();
        assert!(close(p.forward(), want));
        assert!(p.up().y > 0.0 && p.up().dot(p.forward()).abs() < 1e-12);
        assert!(close(p.right(), p.forward().cross(p.up())));
        // Right-handed: right × up = back (= −forward).
        assert!(close(p.right().cross(p.up()), -p.forward()));
        assert!((p.orientation.length() - 1.0).abs() < 1e-15);
        // The identity camera looks down world −Z.
        let id = CameraPose::look_at(DVec3::ZERO, DVec3::NEG_Z, DVec3::Y, 60.0);
        assert!((id.orientation.dot(DQuat::IDENTITY).abs() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn degenerate_look_at_does_not_panic() {
        let up = CameraPose::look_at(DVec3::ZERO, DVec3::Y, DVec3::Y, 60.0);
        assert!(close(up.forward(), DVec3::Y));
        let same = CameraPose::look_at(DVec3::ONE, DVec3::ONE, DVec3::Y, 60.0);
        assert_eq!(same.orientation, DQuat::IDENTITY);
        let nan = CameraPose::look_at(DVec3::ZERO, DVec3::splat(f64::NAN), DVec3::Y, 60.0);
        assert_eq!(nan.orientation, DQuat::IDENTITY);
        assert!(CameraPose::try_look_at(DVec3::ZERO, DVec3::Y, DVec3::Y, 60.0).is_none());
        assert!(CameraPose::try_look_at(DVec3::ZERO, DVec3::ZERO, DVec3::Y, 60.0).is_none());
    }

    #[test]
    fn slerp_takes_the_short_arc() {
        let a = DQuat::from_rotation_y(0.0);
        // 350° about Y is the same rotation as −10°: the short way is 10°, not 350°.
        let b = DQuat::from_rotation_y(350f64.to_radians());
        assert!(b.w < 0.0, "b is in the far hemisphere");
        let mid = slerp_shortest(a, b, 0.5);
        let want = DQuat::from_rotation_y(-5f64.to_radians());
        assert!(rotation_angle(mid, want) < 1e-12, "{mid:?}");
        // Every intermediate step stays within the 10° arc.
        for i in 0..=10 {
            let q = slerp_shortest(a, b, f64::from(i) / 10.0);
            assert!(rotation_angle(a, q) <= 10f64.to_radians() + 1e-12);
        }
        // A half-turn-plus interpolates at constant angular rate.
        let c = DQuat::from_rotation_z(0.75 * PI);
        let q = slerp_shortest(a, c, 0.25);
        assert!((rotation_angle(a, q) - 0.75 * PI * 0.25).abs() < 1e-12);
    }

    #[test]
    fn interpolate_hits_the_ends_exactly() {
        let a = CameraPose::look_at(DVec3::ZERO, DVec3::X, DVec3::Y, 50.0);
        let b = CameraPose::look_at(DVec3::ONE, DVec3::Z, DVec3::Y, 70.0);
        assert_eq!(CameraPose::interpolate(&a, &b, 0.0), a);
        assert_eq!(CameraPose::interpolate(&a, &b, 1.0), b);
        let m = CameraPose::interpolate(&a, &b, 0.5);
        assert_eq!(m.fov_y_deg, 60.0);
        assert!(close(m.position, DVec3::splat(0.5)));
    }

    #[test]
    fn ray_direction_spans_the_vertical_fov() {
        let p = CameraPose::look_at(DVec3::ZERO, DVec3::NEG_Z, DVec3::Y, 90.0);
        assert!(close(p.ray_direction(0.0, 0.0, 1.0), p.forward()));
        let top = p.ray_direction(0.0, 1.0, 16.0 / 9.0);
        assert!((top.angle_between(p.forward()) - PI / 4.0).abs() < 1e-12);
        assert!(top.y > 0.0);
    }
}
