//! Tests of `geometry.rs`.

use super::*;

#[test]
fn cube_front_face_uv_and_tangents() {
    let cube = Shape::Cube { center: DVec3::ZERO, half: 1.0 };
    let hit = cube.intersect(DVec3::new(0.5, 0.5, 5.0), -DVec3::Z, f64::INFINITY).unwrap();
    assert!((hit.t - 4.0).abs() < 1e-12);
    assert_eq!(hit.normal, DVec3::Z);
    assert!((hit.uv.0 - 0.75).abs() < 1e-12 && (hit.uv.1 - 0.25).abs() < 1e-12, "{:?}", hit.uv);
    assert_eq!(hit.dpdu, DVec3::new(2.0, 0.0, 0.0));
}

#[test]
fn sphere_hit_is_on_the_surface() {
    let s = Shape::Sphere { center: DVec3::new(0.0, 0.0, -10.0), radius: 2.0 };
    let hit = s.intersect(DVec3::ZERO, -DVec3::Z, f64::INFINITY).unwrap();
    assert!((hit.t - 8.0).abs() < 1e-12);
    assert!(((hit.position - DVec3::new(0.0, 0.0, -10.0)).length() - 2.0).abs() < 1e-12);
    // Tangents are perpendicular to the normal.
    assert!(hit.dpdu.dot(hit.normal).abs() < 1e-9 && hit.dpdv.dot(hit.normal).abs() < 1e-9);
}

#[test]
fn ground_repeats_uvs() {
    let g = Shape::Ground { center: DVec3::ZERO, half: 10.0, uv_repeat: 4.0 };
    let hit = g.intersect(DVec3::new(10.0 - 1e-9, 5.0, 10.0 - 1e-9), -DVec3::Y, 100.0).unwrap();
    assert!((hit.uv.0 - 4.0).abs() < 1e-6);
    assert!(g.intersect(DVec3::new(11.0, 5.0, 0.0), -DVec3::Y, 100.0).is_none());
}

#[test]
fn aabb_slab_test() {
    let b = Aabb { min: DVec3::splat(-1.0), max: DVec3::splat(1.0) };
    assert_eq!(b.hit(DVec3::new(0.0, 0.0, 5.0), (-DVec3::Z).recip(), 100.0), Some(4.0));
    assert_eq!(b.hit(DVec3::new(3.0, 0.0, 5.0), (-DVec3::Z).recip(), 100.0), None);
}

proptest::proptest! {
    /// The comparison slab test finds the distance and face of the NaN-ignoring one,
    /// bit for bit: rays in a slab's plane (zero components), origins on a face's plane
    /// or inside, diagonal rays whose slab distances tie (through edges and corners),
    /// and every `t_max`.
    #[test]
    fn slab_test_by_comparisons_equals_the_nan_ignoring_one(
        offset in proptest::array::uniform3(-9.0f64..9.0),
        on_plane in proptest::array::uniform3(0usize..3),
        dir in proptest::array::uniform3(-1.0f64..1.0),
        zeros in proptest::array::uniform3(proptest::bool::weighted(0.2)),
        tied in 0usize..6,
        t_max in proptest::prop_oneof![proptest::strategy::Just(f64::INFINITY), 0.0f64..20.0],
    ) {
        let (center, half) = (DVec3::new(1.0, -2.0, 0.5), 3.0);
        // Some coordinates exactly on the cube's faces' planes.
        let mut origin = center + DVec3::from(offset);
        for (axis, &plane) in on_plane.iter().enumerate() {
            if plane > 0 {
                origin[axis] = center[axis] + if plane == 1 { half } else { -half };
            }
        }
        let mut dir = DVec3::from(dir);
        if let Some(&(a, b)) = [(0, 1), (1, 2), (0, 2)].get(tied) {
            // Equal offsets and direction components on two axes: their distances tie.
            origin[b] = center[b] + (origin[a] - center[a]);
            dir[b] = dir[a];
        }
        for (axis, &zero) in zeros.iter().enumerate() {
            if zero {
                dir[axis] = 0.0;
            }
        }
        proptest::prop_assume!(dir.length() > 1e-3);
        let inv = dir.normalize().recip();
        let fast = cube_distance_inv(center, half, origin, inv, t_max);
        proptest::prop_assert_eq!(fast.map(|(t, axis)| (t.to_bits(), axis)),
            cube_distance_any(center, half, origin, inv, t_max).map(|(t, axis)| (t.to_bits(), axis)));
    }

    /// A hit finished from the distance and face of the visibility pass's test is the
    /// hit a full intersection finds, bit for bit, including rays from inside a cube,
    /// along axes and through edges.
    #[test]
    fn hit_at_the_tested_distance_and_face_equals_the_full_intersection(
        origin in proptest::array::uniform3(-12.0f64..12.0),
        dir in proptest::array::uniform3(-1.0f64..1.0),
        axis_aligned in proptest::bool::ANY,
        shape in 0usize..3,
    ) {
        let mut dir = DVec3::from(dir);
        if axis_aligned {
            dir = DVec3::new(dir.x, 0.0, 0.0);
        }
        proptest::prop_assume!(dir.length() > 1e-3);
        let dir = dir.normalize();
        let (origin, inv) = (DVec3::from(origin), dir.recip());
        let shape = [
            Shape::Cube { center: DVec3::new(1.0, -2.0, 0.5), half: 3.0 },
            Shape::Sphere { center: DVec3::ZERO, radius: 4.0 },
            Shape::Ground { center: DVec3::ZERO, half: 8.0, uv_repeat: 2.0 },
        ][shape];
        let full = shape.intersect_inv(origin, dir, inv, f64::INFINITY);
        let tested = shape.hit_distance_face_inv(origin, dir, inv, f64::INFINITY);
        proptest::prop_assert_eq!(tested.map(|(t, _)| t), shape.hit_distance_inv(origin, dir, inv, f64::INFINITY));
        let finished = tested.and_then(|(t, face)| shape.intersect_at(origin, dir, inv, t, face));
        proptest::prop_assert_eq!(finished, full);
    }
}
