//! Sampler feedback on a single textured quad against hand-computed LODs (SPEC §4).

use glam::DVec3;
use sfsim::models::gpu::{Filter, Lod53, SamplerDesc};
use sfsim::scene::{FeedbackConfig, FeedbackRenderer, RayCamera, RenderConfig, Residency, Scene};

/// The MinMip feedback map of the one-set scene is 4×4 texels of 256×256 mip-0 texels.
fn quad_scene() -> Scene {
    crate::common::one_bc7_set_scene()
}

fn config(resolution: u32) -> RenderConfig {
    RenderConfig {
        resolution: (resolution, resolution),
        feedback: FeedbackConfig { one_in: 1, ..FeedbackConfig::default() },
        sampler: SamplerDesc::new(Filter::Trilinear),
        residency: Residency::All,
        ..RenderConfig::default()
    }
}

#[test]
fn head_on_quad_records_the_closed_form_lod_everywhere_it_is_seen() {
    // Face at distance 5, 90° fov, 256 px: a pixel spans 2·5/256 world units = 5/256 of the
    // face's UV range, i.e. 1024·5/256 = 20 texels → LOD log2(20) = 4.32 → 5.3 value 34.
    let scene = quad_scene();
    let mut r = FeedbackRenderer::new(&scene, &config(256)).unwrap();
    r.clear_feedback();
    let camera = RayCamera::new(DVec3::new(0.0, 0.0, 6.0), -DVec3::Z, DVec3::Y, 90.0, 256, 256);
    r.render(&camera, 1, 0, None);
    let expected = Lod53::from_lod(20f32.log2());
    assert_eq!(expected, Lod53(34));
    let map = r.feedback(0);
    assert_eq!((map.width(), map.height()), (4, 4));
    for y in 0..4 {
        for x in 0..4 {
            assert_eq!(map.get(x, y), Some(expected), "texel ({x}, {y})");
        }
    }
    // The other faces were not seen, but they map the same texture: nothing else to check.
}

#[test]
fn partly_visible_quad_leaves_unsampled_texels_at_0xff() {
    // From 0.25 units in front of the face, the 90° view covers x, y in [−0.25, 0.25]: the
    // UV square [0.375, 0.625]², inside the middle 2×2 feedback texels and far from their
    // borders. Only those four are written; the side faces are edge-on and unseen.
    let scene = quad_scene();
    let mut r = FeedbackRenderer::new(&scene, &config(256)).unwrap();
    r.clear_feedback();
    let camera = RayCamera::new(DVec3::new(0.0, 0.0, 1.25), -DVec3::Z, DVec3::Y, 90.0, 256, 256);
    r.render(&camera, 1, 0, None);
    let map = r.feedback(0);
    // A pixel spans 0.5/256 world = 1/1024 of the face = 1 texel: LOD 0.
    for y in 0..4 {
        for x in 0..4 {
            let seen = (1..=2).contains(&x) && (1..=2).contains(&y);
            let expected = if seen { Lod53(0) } else { Lod53::NONE };
            assert_eq!(map.get(x, y), Some(expected), "texel ({x}, {y})");
        }
    }
}

#[test]
fn tilted_quad_matches_the_closed_form_and_min_semantics() {
    // Camera at distance D = 5 from the face centre, rotated by θ = 60° about Y. At the
    // centre pixel the isotropic LOD is log2(T·D·tan(45°)/(N·cos θ)) with T = 1024 and
    // N = 255 (odd, so pixel 127's centre is the image centre): log2(1024·5/(255·0.5)).
    let scene = quad_scene();
    let mut r = FeedbackRenderer::new(&scene, &config(255)).unwrap();
    r.clear_feedback();
    let theta = 60f64.to_radians();
    let eye = DVec3::new(5.0 * theta.sin(), 0.0, 1.0 + 5.0 * theta.cos());
    let camera = RayCamera::new(eye, DVec3::new(0.0, 0.0, 1.0) - eye, DVec3::Y, 90.0, 255, 255);
    let mut pixels = Vec::new();
    r.render(&camera, 1, 0, Some(&mut pixels));
    let centre = pixels.iter().find(|p| p.x == 127 && p.y == 127).expect("centre pixel sampled");
    let expected = (1024.0 * 5.0 / (255.0 * 0.5f64)).log2() as f32;
    assert!((centre.desired - expected).abs() < 1e-4, "{} vs {expected}", centre.desired);
    // Min semantics: the texel holding the centre records at most the centre's LOD, and
    // the far half of the face (larger u, further away) asks for coarser mips than the
    // near half.
    let map = r.feedback(0);
    let at_centre = map.get(2, 2).unwrap();
    assert!(at_centre <= Lod53::from_lod(centre.desired), "{at_centre:?}");
    let near = map.get(3, 1).unwrap();
    let far = map.get(0, 1).unwrap();
    assert!(near < far, "near {near:?} far {far:?}");
}

#[test]
fn mip_region_used_records_both_trilinear_mips() {
    // Same head-on view as above (LOD 4.32): a trilinear footprint reads mips 4 and 5, so
    // MipRegionUsed marks both, where MinMip records only the LOD.
    let scene = quad_scene();
    let mut cfg = config(256);
    cfg.feedback.kind = sfsim::scene::FeedbackKind::MipRegionUsed;
    let mut r = FeedbackRenderer::new(&scene, &cfg).unwrap();
    r.clear_feedback();
    let camera = RayCamera::new(DVec3::new(0.0, 0.0, 6.0), -DVec3::Z, DVec3::Y, 90.0, 256, 256);
    r.render(&camera, 1, 0, None);
    assert_eq!(r.requested_mip(0, 1, 1), Some(4));
    let used = r.region_used(0).unwrap();
    assert_eq!((used.used(1, 1, 4), used.used(1, 1, 5), used.used(1, 1, 3)), (Some(true), Some(true), Some(false)));
    assert_eq!(r.requested_texels(0), 16);
    // 1024² BC7 with 256² tiles: mips 0–2 are tiled (16, 4, 1 tiles), mip 3 on is the
    // packed tail, so requests for mips 4 and 5 need no standard tile.
    let mut tiles = std::collections::HashSet::new();
    tiles.extend(r.requested_tiles());
    assert!(tiles.is_empty(), "{tiles:?}");
}

#[test]
fn location_writes_match_footprint_writes_away_from_region_borders() {
    // The head-on quad at LOD 4.32: every footprint lies inside one 256×256 region, so
    // writing at the sample location records the same map as tracing the footprint.
    let scene = quad_scene();
    let camera = RayCamera::new(DVec3::new(0.0, 0.0, 6.0), -DVec3::Z, DVec3::Y, 90.0, 256, 256);
    let mut maps = Vec::new();
    for writes in [sfsim::scene::FeedbackWrites::Footprint, sfsim::scene::FeedbackWrites::Location] {
        let mut cfg = config(256);
        cfg.feedback.writes = writes;
        let mut r = FeedbackRenderer::new(&scene, &cfg).unwrap();
        r.clear_feedback();
        r.render(&camera, 1, 0, None);
        maps.push(r.feedback(0).texels().to_vec());
    }
    assert_eq!(maps[0], maps[1]);
    assert!(maps[1].iter().all(|&v| v == 34));
}

/// One cube with one texture set of `formats` (diffuse, normal, specular), 8192² each.
fn set_scene(formats: [sfsim::models::texture::BcFormat; 3]) -> Scene {
    use sfsim::scene::{ObjectGroup, SceneConfig, TextureSets};
    let [diffuse, normal, specular] = formats;
    let texture_sets = TextureSets { count: 1, size: 8192, diffuse, normal, specular };
    let objects = vec![ObjectGroup::Cube { center: (0.0, 0.0, 0.0), half: 1.0, set: None }];
    Scene::build(&SceneConfig { objects, texture_sets, layers: 1 }).unwrap()
}

#[test]
fn feedback_derived_from_a_finer_sibling_equals_its_own_walk() {
    // A BC1 tile is 512×256 texels, a BC5 one 256×256: in a BC1/BC5/BC1 set the renderer
    // shifts the normal map's footprint rectangles for the diffuse and specular maps
    // instead of walking their footprints. Their maps must equal those of an all-BC1 set
    // (walked), and the BC5 map that of an all-BC5 set, at a grazing anisotropic view
    // where footprints cross region borders.
    use sfsim::models::texture::BcFormat::{Bc1, Bc5};
    use sfsim::scene::{FeedbackKind, FeedbackWrites};
    let theta = 70f64.to_radians();
    let eye = DVec3::new(3.0 * theta.sin(), 0.3, 1.0 + 3.0 * theta.cos());
    let camera = RayCamera::new(eye, DVec3::new(-0.2, 0.1, 1.0) - eye, DVec3::Y, 90.0, 160, 160);
    for kind in [FeedbackKind::MinMip, FeedbackKind::MipRegionUsed] {
        let cfg = RenderConfig {
            resolution: (160, 160),
            feedback: FeedbackConfig {
                one_in: 1,
                kind,
                writes: FeedbackWrites::Footprint,
                ..FeedbackConfig::default()
            },
            sampler: SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 }),
            residency: Residency::All,
            ..RenderConfig::default()
        };
        let maps = |formats, texture: u32| {
            let scene = set_scene(formats);
            let mut r = FeedbackRenderer::new(&scene, &cfg).unwrap();
            r.clear_feedback();
            r.render(&camera, 1, 0, None);
            match kind {
                FeedbackKind::MinMip => r.feedback(texture).texels().to_vec(),
                FeedbackKind::MipRegionUsed => {
                    let used = r.region_used(texture).expect("a MipRegionUsed map");
                    let mut bits = Vec::new();
                    for mip in 0..used.mips() {
                        for y in 0..used.height() {
                            // Which mip was used, or 0xFF: several values, as a MinMip map.
                            bits.extend((0..used.width()).map(|x| match used.used(x, y, mip) {
                                Some(true) => mip as u8,
                                _ => 0xFF,
                            }));
                        }
                    }
                    bits
                }
            }
        };
        let same = |a: Vec<u8>, b: Vec<u8>, what: &str| {
            let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
            assert!(a.len() == b.len() && differ == 0, "{kind:?}, {what}: {differ} of {} texels differ", a.len());
        };
        let mixed = [Bc1, Bc5, Bc1];
        for texture in [0, 2] {
            let derived = maps(mixed, texture);
            let written: std::collections::BTreeSet<u8> = derived.iter().copied().collect();
            assert!(written.len() > 2, "{kind:?}: a view that writes several values: {written:?}");
            same(derived, maps([Bc1; 3], texture), &format!("BC1 texture {texture}"));
        }
        same(maps(mixed, 1), maps([Bc5; 3], 1), "the BC5 texture");
    }
}
