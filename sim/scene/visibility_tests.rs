//! Tests of `visibility.rs`.

use super::*;
use crate::scene::{Bvh, SamplePattern};
use rand::{Rng, SeedableRng};

fn random_scene(rng: &mut rand_chacha::ChaCha8Rng) -> Vec<Shape> {
    let mut shapes = crate::scene::test_scenes::cubes_and_spheres(rng, 120, 40.0, 4.0);
    shapes.push(Shape::Ground { center: DVec3::new(0.0, -45.0, 0.0), half: 200.0, uv_repeat: 4.0 });
    shapes
}

/// The pass finds exactly the BVH's nearest hit for every sample, from cameras inside
/// and outside the objects' spread, including boxes straddling the camera plane.
#[test]
fn matches_the_bvh_per_ray() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let (mut vis, mut found_hits) = (Visibility::default(), SampleHits::default());
    let pattern = SamplePattern::new(16).unwrap();
    for case in 0..12 {
        let shapes = random_scene(&mut rng);
        let bvh = Bvh::build(&shapes);
        let reach = if case % 2 == 0 { 30.0 } else { 90.0 };
        let position =
            DVec3::new(rng.gen_range(-reach..reach), rng.gen_range(-reach..reach), rng.gen_range(-reach..reach));
        let target = DVec3::new(rng.gen_range(-20.0..20.0), rng.gen_range(-20.0..20.0), rng.gen_range(-20.0..20.0));
        let forward = target - position;
        let camera = RayCamera::new(position, forward, DVec3::Y, rng.gen_range(30.0..100.0), 320, 200);
        let pixels = pattern.pixels(320, 200, 5, case);
        let grid = pattern.grid(320, 200);
        vis.run(&camera, &shapes, &pixels, grid, &mut found_hits);
        let mut hits = 0;
        for (i, &(x, y)) in pixels.iter().enumerate() {
            let ray = camera.primary_ray(x, y);
            let expected = bvh.nearest(&shapes, camera.position, ray.dir);
            let found = found_hits.nearest(i);
            match expected {
                None => assert_eq!(found, MISS, "case {case} pixel ({x}, {y})"),
                Some((object, hit)) => {
                    hits += 1;
                    let t = shapes[found as usize].hit_distance(camera.position, ray.dir, f64::INFINITY);
                    assert_eq!(t, Some(hit.t), "case {case} pixel ({x}, {y}): bvh object {object}, found {found}");
                }
            }
        }
        assert!(hits > 0, "case {case} saw nothing: the test would prove nothing");
    }
}

/// Resolving a frame band by band, as the renderer's chunks do, finds what resolving it
/// whole finds, for bands of any height (the frame's last band cut short included), each
/// band visiting only the objects listed for it.
#[test]
fn bands_resolve_like_the_whole_frame() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let pattern = SamplePattern::new(8).unwrap();
    let (mut vis, mut whole, mut band) = (Visibility::default(), SampleHits::default(), SampleHits::default());
    let mut hits = 0;
    for case in 0..6 {
        let shapes = random_scene(&mut rng);
        let position = DVec3::new(rng.gen_range(-60.0..60.0), rng.gen_range(-60.0..60.0), 70.0);
        let camera = RayCamera::new(position, -position, DVec3::Y, 70.0, 300, 190);
        let (pixels, grid) = (pattern.pixels(300, 190, 9, case), pattern.grid(300, 190));
        vis.run(&camera, &shapes, &pixels, grid, &mut whole);
        vis.prepare(&camera, &shapes, grid, 1 + case as u32 % 4);
        let mut next_sample = 0;
        for b in 0..vis.bands() {
            let samples = vis.resolve(&camera, &shapes, &pixels, b, None, &mut band);
            assert_eq!(samples, grid.samples_of_rows(vis.band_rows(b)));
            assert_eq!(samples.start, next_sample, "bands cover the frame in order");
            next_sample = samples.end;
            for i in samples {
                assert_eq!(band.nearest_hit(i), whole.nearest_hit(i), "case {case} sample {i}");
                let (ray, expected) = (band.ray(&camera, i), whole.ray(&camera, i));
                assert_eq!((ray.dir, ray.inv_dir), (expected.dir, expected.inv_dir));
                hits += usize::from(band.nearest(i) != MISS);
            }
        }
        assert_eq!(next_sample, pixels.len(), "bands cover the frame");
    }
    assert!(hits > 1000, "only {hits} hits: the test would prove little");
}

/// Resolving only some phases of cells (`render.reuse`) finds, for each of those cells,
/// what resolving every cell finds, and leaves every other cell a miss: one phase (every
/// 2nd, 4th or 8th block of a row) and several.
#[test]
fn cell_phases_resolve_like_the_whole_frame_where_resolved() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let pattern = SamplePattern::new(8).unwrap();
    let (mut vis, mut whole, mut band) = (Visibility::default(), SampleHits::default(), SampleHits::default());
    let (mut resolved_hits, mut left_out) = (0, 0);
    for (case, (phases, mask)) in
        [(2, 0b01), (2, 0b10), (4, 0b0100), (4, 0b1010), (8, 0b1000_0001)].into_iter().enumerate()
    {
        let cells = CellPhases { phases, mask };
        let shapes = random_scene(&mut rng);
        let position = DVec3::new(rng.gen_range(-60.0..60.0), rng.gen_range(-60.0..60.0), 70.0);
        let camera = RayCamera::new(position, -position, DVec3::Y, 70.0, 300, 190);
        let (pixels, grid) = (pattern.pixels(300, 190, 9, case as u64), pattern.grid(300, 190));
        vis.run(&camera, &shapes, &pixels, grid, &mut whole);
        vis.prepare(&camera, &shapes, grid, 1 + case as u32 % 3);
        for b in 0..vis.bands() {
            for i in vis.resolve(&camera, &shapes, &pixels, b, Some(cells), &mut band) {
                let (bx, by) = (i as u32 % grid.blocks_x, i as u32 / grid.blocks_x);
                if cells.has(cells.phase(bx, by)) {
                    assert_eq!(band.nearest_hit(i), whole.nearest_hit(i), "case {case} sample {i}");
                    resolved_hits += usize::from(whole.nearest(i) != MISS);
                } else {
                    assert_eq!(band.nearest(i), MISS, "case {case} sample {i} was resolved");
                    left_out += usize::from(whole.nearest(i) != MISS);
                }
            }
        }
    }
    assert!(resolved_hits > 300 && left_out > 300, "{resolved_hits} / {left_out} hits: the test would prove little");
}

/// A camera flying through a dense grid (boxes beside and behind it straddle the camera
/// plane, so their visible part is clipped): still exactly the BVH's nearest hits, and
/// the clipped boxes cover far less than the whole screen.
#[test]
fn boxes_across_the_camera_plane_are_clipped_but_hit_as_before() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let shapes: Vec<Shape> = (0..343)
        .map(|i| {
            let c = DVec3::new(f64::from(i % 7) * 4.0, f64::from(i / 7 % 7) * 4.0, f64::from(i / 49) * 4.0);
            Shape::Cube { center: c - DVec3::splat(12.0), half: rng.gen_range(0.5..1.8) }
        })
        .collect();
    let bvh = Bvh::build(&shapes);
    let pattern = SamplePattern::new(4).unwrap();
    let (mut vis, mut found_hits) = (Visibility::default(), SampleHits::default());
    let mut clipped = 0;
    for case in 0..16 {
        let position = DVec3::new(rng.gen_range(-10.0..10.0), rng.gen_range(-10.0..10.0), rng.gen_range(-10.0..10.0));
        let forward = DVec3::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
        let camera = RayCamera::new(position, forward, DVec3::Y, rng.gen_range(40.0..110.0), 240, 160);
        let grid = pattern.grid(240, 160);
        for s in &shapes {
            let b = s.bounds();
            let corners_behind = (0..8).any(|c: u32| {
                let p = DVec3::new(
                    if c & 1 == 0 { b.min.x } else { b.max.x },
                    if c & 2 == 0 { b.min.y } else { b.max.y },
                    if c & 4 == 0 { b.min.z } else { b.max.z },
                );
                camera.project(p).is_none()
            });
            let whole = BlockRect { x0: 0, y0: 0, x1: grid.blocks_x - 1, y1: grid.blocks_y - 1 };
            if corners_behind && screen_blocks(&camera, b, grid).is_some_and(|r| r != whole) {
                clipped += 1;
            }
        }
        let pixels = pattern.pixels(240, 160, 3, case);
        vis.run(&camera, &shapes, &pixels, grid, &mut found_hits);
        for (i, &(x, y)) in pixels.iter().enumerate() {
            let ray = camera.primary_ray(x, y);
            let expected = bvh.nearest(&shapes, camera.position, ray.dir).map(|(_, hit)| hit.t);
            let found = found_hits.nearest(i);
            let t = (found != MISS)
                .then(|| shapes[found as usize].hit_distance(camera.position, ray.dir, f64::INFINITY))
                .flatten();
            assert_eq!(t, expected, "case {case} pixel ({x}, {y})");
        }
    }
    assert!(clipped > 20, "only {clipped} boxes were clipped: the test would prove little");
}
