//! The streaming engine on packed containers (issue 6, part 5): timing from the real
//! per-stream sizes, tiles verified through the functional MDU, corruption reported as
//! mismatches, clear errors for missing or mismatched containers, determinism.

use crate::common::{lexical, repo, stat};
use sfsim::content::mipgen::Image;
use sfsim::content::pack::{pack, PackOptions};
use sfsim::engine::{ContentConfig, ContentModel, PackedContent};
use sfsim::scenario::{Scenario, Workload};
use sfsim::workload::stream::{self, StreamOutcome};
use sfsim_models::texture::BcFormat;
use std::path::Path;

/// A 512² image with gradients and texture, so streams both shrink and differ in size.
fn image(seed: u32) -> Image {
    let (w, h) = (512u32, 512u32);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let n = (x.wrapping_mul(2654435761) ^ y.wrapping_mul(40503) ^ seed).wrapping_mul(2246822519) >> 28;
            rgba.extend_from_slice(&[(x / 2) as u8 ^ (n as u8), (y / 2) as u8, ((x + y + seed) / 4) as u8, 255]);
        }
    }
    Image { width: w, height: h, rgba }
}

/// Writes diffuse (BC1), normal (BC5) and specular (BC1) containers into `dir`.
fn write_containers(dir: &Path) {
    for (name, format, seed) in [
        ("diffuse.sfstex", BcFormat::Bc1, 1),
        ("normal.sfstex", BcFormat::Bc5, 2),
        ("specular.sfstex", BcFormat::Bc1, 3),
    ] {
        let packed = pack(&image(seed), &PackOptions::new(format), &|| {}).unwrap();
        std::fs::write(dir.join(name), packed.container).unwrap();
    }
}

/// The quickstart's scene and path on the containers in `dir`, 1.5 s.
fn scenario(dir: &Path, containers: &[&str], verify: &str) -> Scenario {
    let camera = repo("scenarios/cameras/rollercoaster.csv");
    let list: Vec<String> = containers.iter().map(|c| format!("{c:?}")).collect();
    let text = format!(
        r#"Scenario(
    name: "packed-test",
    duration: "1500ms",
    workload: Stream((
        scene: (
            objects: [CubeGrid(count: 64, spacing: 10.0, size: 6.0)],
            texture_sets: (count: 64, size: 8192, diffuse: Bc1, normal: Bc5, specular: Bc1),
        ),
        camera: Recorded({camera:?}),
        render: (resolution: (480, 270), feedback: (one_in: 128)),
        engine: (pool: "256MiB"),
        content: Packed((containers: [{}], verify: {verify})),
    )),
)"#,
        list.join(", ")
    );
    Scenario::from_text(&text, &dir.join("packed.ron"), &[]).unwrap()
}

const THREE: [&str; 3] = ["diffuse.sfstex", "normal.sfstex", "specular.sfstex"];

fn run(s: &Scenario) -> Result<StreamOutcome, String> {
    let Workload::Stream(cfg) = &s.workload else { unreachable!() };
    stream::run(s, cfg, &mut |_, _| {}, &mut |_, _| {}).map_err(|e| e.to_string())
}

#[test]
fn verify_all_checks_every_loaded_tile_and_finds_no_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    let o = run(&scenario(dir.path(), &THREE, "All")).unwrap();
    let loaded = o.engine.records().unwrap().into_iter().filter(|r| r.decompressed.is_some()).count() as f64;
    assert!(loaded > 50.0, "the run must stream: {loaded} tiles loaded");
    assert_eq!(stat(&o.stats, "content.verified_tiles"), loaded, "verify: All checks every completed tile");
    assert_eq!(stat(&o.stats, "content.hash_mismatches"), 0.0);
}

#[test]
fn nvme_bytes_are_the_containers_stream_sizes() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    let s = scenario(dir.path(), &THREE, "None");
    let o = run(&s).unwrap();
    let Workload::Stream(cfg) = &s.workload else { unreachable!() };
    let ContentConfig::Packed(p) = &cfg.content else { unreachable!() };
    let scene = sfsim::scene::Scene::build(&cfg.scene).unwrap();
    let content = PackedContent::open(p, dir.path(), &scene.textures).unwrap();
    let size = |r: &sfsim::engine::TileRecord| {
        let t = r.tile.texture;
        content.stream(t, scene.textures[t as usize].format, o.engine.tile_coord(r.tile)).compressed.0
    };
    // Bytes of loads whose read finished ≤ bytes the drive moved ≤ bytes of every submitted load.
    let read: u64 = o.engine.records().unwrap().into_iter().filter(|r| r.read.is_some()).map(|r| size(&r)).sum();
    let submitted: u64 =
        o.engine.records().unwrap().into_iter().filter(|r| r.submitted.is_some()).map(|r| size(&r)).sum();
    assert_eq!(o.trace_spans.transfers_left_out, 0);
    let nvme: u64 = o.trace_spans.transfers.iter().map(|t| t.bytes).sum::<u64>() - o.engine.tail_bytes();
    assert!(read > 0 && read <= nvme && nvme <= submitted, "{read} ≤ {nvme} ≤ {submitted}");
    assert_eq!(stat(&o.stats, "engine.loads"), o.engine.loads() as f64);
    assert!(o.stats.iter().all(|s| s.name != "content.verified_tiles" || s.value == Some(0.0)));
}

#[test]
fn a_corrupted_stream_is_reported_as_mismatches_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    // Flip one byte in the middle of every stream of the diffuse container.
    let path = dir.path().join("diffuse.sfstex");
    let container = sfsim::content::pack::Container::open(&path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    for i in 0..container.stream_count() {
        let s = container.stream(i).unwrap();
        bytes[(s.file_offset + s.bytes.len() as u64 / 2) as usize] ^= 0x5a;
    }
    std::fs::write(&path, bytes).unwrap();
    let o = run(&scenario(dir.path(), &THREE, "All")).unwrap();
    let (verified, bad) = (stat(&o.stats, "content.verified_tiles"), stat(&o.stats, "content.hash_mismatches"));
    let diffuse =
        o.engine.records().unwrap().into_iter().filter(|r| r.decompressed.is_some() && r.tile.texture % 3 == 0).count();
    assert!(diffuse > 0 && bad == diffuse as f64, "{bad} mismatches, {diffuse} diffuse tiles loaded");
    assert!(bad < verified, "normal and specular tiles still verify: {bad} of {verified}");
}

#[test]
fn missing_or_mismatched_containers_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    let e = run(&scenario(dir.path(), &["diffuse.sfstex", "gone.sfstex", "specular.sfstex"], "Sample")).err().unwrap();
    assert!(e.contains("workload.content.containers[1]") && e.contains("gone.sfstex"), "{e}");
    // The normal textures are BC5; a BC1 container in their slot is refused.
    let e =
        run(&scenario(dir.path(), &["diffuse.sfstex", "specular.sfstex", "specular.sfstex"], "Sample")).err().unwrap();
    assert!(e.contains("workload.content.containers[1]") && e.contains("Bc1") && e.contains("Bc5"), "{e}");
    let e = Scenario::from_text(
        r#"Scenario(name: "t", workload: Stream((content: Packed((containers: [])))))"#,
        Path::new("x.ron"),
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("workload.content.containers") && e.contains("at least one"), "{e}");
}

#[test]
fn packed_runs_are_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    let s = scenario(dir.path(), &THREE, "Sample");
    let (a, b) = (run(&s).unwrap(), run(&s).unwrap());
    assert!(stat(&a.stats, "content.verified_tiles") > 0.0);
    assert_eq!(format!("{:?}", a.stats), format!("{:?}", b.stats));
}

#[test]
fn the_packed_scenarios_parse_and_resolve() {
    for file in ["scenarios/quickstart-packed.ron", "scenarios/stream/sample-grid-packed.ron"] {
        let s = Scenario::load(&repo(file), &[]).unwrap();
        let Workload::Stream(cfg) = &s.workload else { panic!("{file}") };
        let ContentConfig::Packed(p) = &cfg.content else { panic!("{file} is not packed") };
        assert_eq!(p.containers.len(), 3);
        let out = repo("reports/out/x");
        let back = Scenario::from_text(&s.to_resolved_ron(&out), &out.join("resolved.ron"), &[]).unwrap();
        let Workload::Stream(b) = &back.workload else { unreachable!() };
        let ContentConfig::Packed(q) = &b.content else { unreachable!() };
        for (c, d) in p.containers.iter().zip(&q.containers) {
            assert_eq!(lexical(&s.base_dir.join(c)), lexical(&out.join(d)), "{c:?} → {d:?}");
        }
    }
}

/// A set sharing one feedback map loads each tile as its own request with its own MDU
/// stages: a raw (incompressible) specular beside compressed diffuse/normal tiles loads
/// with them, and every tile still verifies.
#[test]
fn shared_feedback_loads_each_tile_with_its_own_stages() {
    let dir = tempfile::tempdir().unwrap();
    write_containers(dir.path());
    // Noise does not shrink: every specular stream is stored raw.
    let mut state = 7u32;
    let noise: Vec<u8> = (0..512 * 512 * 4)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect();
    let packed =
        pack(&Image { width: 512, height: 512, rgba: noise }, &PackOptions::new(BcFormat::Bc1), &|| {}).unwrap();
    std::fs::write(dir.path().join("specular.sfstex"), packed.container).unwrap();
    let mut s = scenario(dir.path(), &THREE, "All");
    let Workload::Stream(cfg) = &mut s.workload else { unreachable!() };
    cfg.engine.feedback = sfsim::engine::FeedbackPolicyKind::SharedPerSet;
    let o = run(&s).unwrap();
    assert!(stat(&o.stats, "content.verified_tiles") > 50.0);
    assert_eq!(stat(&o.stats, "content.hash_mismatches"), 0.0);
}

/// Writes the three containers of `write_containers` as one set container, `set.sfsset`.
fn write_set_container(dir: &Path) {
    write_containers(dir);
    let members = THREE.map(|name| sfsim::content::pack::Container::open(&dir.join(name)).unwrap());
    let bytes = sfsim::content::pack::write_set(&[&members[0], &members[1], &members[2]]).unwrap();
    std::fs::write(dir.join("set.sfsset"), bytes).unwrap();
}

fn align16(n: u64) -> u64 {
    n.div_ceil(16) * 16
}

/// A set container under shared-per-set feedback: every loaded tile verifies through the
/// functional MDU, and a tile position's three streams are adjacent in the set's file
/// window: normal right after diffuse, specular right after the normal companions.
#[test]
fn a_set_container_streams_shared_per_set_with_adjacent_companions() {
    let dir = tempfile::tempdir().unwrap();
    write_set_container(dir.path());
    let mut s = scenario(dir.path(), &["set.sfsset"], "All");
    let Workload::Stream(cfg) = &mut s.workload else { unreachable!() };
    cfg.engine.feedback = sfsim::engine::FeedbackPolicyKind::SharedPerSet;
    let o = run(&s).unwrap();
    let loaded = o.engine.records().unwrap().into_iter().filter(|r| r.decompressed.is_some()).count() as f64;
    assert!(loaded > 50.0, "the run must stream: {loaded} tiles loaded");
    assert_eq!(stat(&o.stats, "content.verified_tiles"), loaded);
    assert_eq!(stat(&o.stats, "content.hash_mismatches"), 0.0);
    // Every texture set took tiles from the set container (all three kinds loaded).
    for kind in 0..3 {
        assert!(o
            .engine
            .records()
            .unwrap()
            .into_iter()
            .any(|r| r.decompressed.is_some() && r.tile.texture % 3 == kind));
    }

    let Workload::Stream(cfg) = &s.workload else { unreachable!() };
    let ContentConfig::Packed(p) = &cfg.content else { unreachable!() };
    let scene = sfsim::scene::Scene::build(&cfg.scene).unwrap();
    let content = PackedContent::open(p, dir.path(), &scene.textures).unwrap();
    let mut checked = 0;
    for set in [0u32, 1, 37, 63] {
        let (d, n, sp) = (3 * set, 3 * set + 1, 3 * set + 2);
        let desc = |t: u32| scene.textures[t as usize];
        let stream = |t: u32, tile| content.stream(t, desc(t).format, tile);
        for mip in 0..desc(d).first_packed_mip() {
            let info = desc(d).mip(mip);
            for (x, y) in [(0, 0), (info.tiles_x - 1, info.tiles_y - 1), (info.tiles_x / 2, info.tiles_y / 3)] {
                let tile = sfsim::models::texture::TileCoord { mip, x, y };
                let a = stream(d, tile);
                assert_eq!(a.offset >> 32, u64::from(set), "the set's file window");
                let companions = sfsim::content::pack::companion_tiles(&desc(d), tile, &desc(n));
                assert_eq!(companions.len(), 2, "BC5 tiles are half as wide as BC1's");
                let first = stream(n, companions[0]);
                assert_eq!(
                    first.offset,
                    align16(a.offset + a.compressed.0),
                    "set {set} {tile:?}: normal follows diffuse"
                );
                let second = stream(n, companions[1]);
                assert_eq!(second.offset, align16(first.offset + first.compressed.0), "set {set} {tile:?}");
                let spec = stream(sp, tile);
                assert_eq!(spec.offset, align16(second.offset + second.compressed.0), "set {set} {tile:?}: specular");
                checked += 1;
            }
        }
    }
    assert!(checked >= 4 * 12, "{checked} positions checked");
}

/// Verification of set members is the same as of single containers: corrupt the diffuse
/// member's streams in the set file and exactly the diffuse tiles mismatch.
#[test]
fn a_corrupted_set_member_is_reported_as_mismatches() {
    let dir = tempfile::tempdir().unwrap();
    write_set_container(dir.path());
    let path = dir.path().join("set.sfsset");
    let set = sfsim::content::pack::SetContainer::open(&path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let diffuse = &set.members()[0];
    for i in 0..diffuse.stream_count() {
        let s = diffuse.stream(i).unwrap();
        bytes[(s.file_offset + s.bytes.len() as u64 / 2) as usize] ^= 0x5a;
    }
    std::fs::write(&path, bytes).unwrap();
    let o = run(&scenario(dir.path(), &["set.sfsset"], "All")).unwrap();
    let (verified, bad) = (stat(&o.stats, "content.verified_tiles"), stat(&o.stats, "content.hash_mismatches"));
    let diffuse =
        o.engine.records().unwrap().into_iter().filter(|r| r.decompressed.is_some() && r.tile.texture % 3 == 0).count();
    assert!(diffuse > 0 && bad == diffuse as f64, "{bad} mismatches, {diffuse} diffuse tiles loaded");
    assert!(bad < verified);
}

#[test]
fn mixing_set_and_single_containers_is_refused_naming_the_entry() {
    let dir = tempfile::tempdir().unwrap();
    write_set_container(dir.path());
    let e = run(&scenario(dir.path(), &["set.sfsset", "diffuse.sfstex"], "Sample")).err().unwrap();
    assert!(e.contains("workload.content.containers[1]") && e.contains("diffuse.sfstex"), "{e}");
    assert!(e.contains("single-texture container") && e.contains("set container"), "{e}");
    let e = run(&scenario(dir.path(), &["diffuse.sfstex", "set.sfsset", "specular.sfstex"], "Sample")).err().unwrap();
    assert!(e.contains("workload.content.containers[1]") && e.contains("set.sfsset"), "{e}");
    // A set whose normal member is BC1: refused naming the entry, the member and both formats.
    let c = |name: &str| sfsim::content::pack::Container::open(&dir.path().join(name)).unwrap();
    let (d, s) = (c("diffuse.sfstex"), c("specular.sfstex"));
    let bytes = sfsim::content::pack::write_set(&[&d, &s, &s]).unwrap();
    std::fs::write(dir.path().join("bad.sfsset"), bytes).unwrap();
    let e = run(&scenario(dir.path(), &["set.sfsset", "bad.sfsset"], "Sample")).err().unwrap();
    assert!(e.contains("workload.content.containers[1]") && e.contains("member 1 (normal)"), "{e}");
    assert!(e.contains("Bc1") && e.contains("Bc5"), "{e}");
}
