use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Override, Scenario};
use sfsim::stats::StatSet;
use std::path::{Path, PathBuf};

pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs a scenario file from the repository with `path=value` overrides.
pub fn run_file(file: &str, sets: &[&str]) -> StatSet {
    let overrides: Vec<Override> = sets.iter().map(|s| s.parse().expect("valid override")).collect();
    let scenario = Scenario::load(&repo(file), &overrides).expect("scenario loads");
    run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).expect("run succeeds").stats
}

pub fn stat(stats: &StatSet, name: &str) -> f64 {
    stats.get(name).unwrap_or_else(|| panic!("stat {name} missing or null"))
}

pub fn sfsim() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_sfsim"))
}

/// `sfsim run -q ARGS... --out OUT FILE` (a repository scenario), which must succeed; its
/// stats.json.
pub fn run_cli(args: &[&str], out: &Path, file: &str) -> serde_json::Value {
    let status = sfsim().arg("run").arg("-q").args(args).arg("--out").arg(out).arg(repo(file)).status().unwrap();
    assert!(status.success(), "sfsim run {args:?} {file} failed");
    serde_json::from_slice(&std::fs::read(out.join("stats.json")).unwrap()).unwrap()
}

/// One 2×2 cube (its +Z face is a quad) with one 1024² BC7 texture set: 256×256 tiles, so
/// mip 0 is 4×4 tiles, mip 2 a single tile and the packed tail starts at mip 3.
pub fn one_bc7_set_scene() -> sfsim::scene::Scene {
    use sfsim::models::texture::BcFormat;
    use sfsim::scene::{ObjectGroup, Scene, SceneConfig, TextureSets};
    Scene::build(&SceneConfig {
        objects: vec![ObjectGroup::Cube { center: (0.0, 0.0, 0.0), half: 1.0, set: None }],
        texture_sets: TextureSets {
            count: 1,
            size: 1024,
            diffuse: BcFormat::Bc7,
            normal: BcFormat::Bc7,
            specular: BcFormat::Bc7,
        },
        layers: 1,
    })
    .unwrap()
}

/// `path` with "." dropped and ".." folded, lexically (to compare rebased paths).
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
