//! Sweep files: tables and report, shards merged byte for byte, packing in the loop with
//! its cache, and located errors before any run.

use crate::common::{repo, sfsim};
use sfsim::sweep::{execute, Plan, Settings};
use std::path::{Path, PathBuf};

fn no_progress(_: &str, _: usize, _: usize) {}

/// Every file under `dir`, relative, sorted, with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push((path.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_sweep_file_writes_tidy_results_tables_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = sfsim()
        .args(["sweep", "--jobs", "2", "--out"])
        .arg(&out)
        .arg(repo("scenarios/sweeps/ci-small.ron"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // sweep.csv: one row per point (4 in-flight sizes × 2 stream sizes), the metrics.
    let wide = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(wide.lines().count(), 9, "{wide}");
    assert!(wide.starts_with("workload.in_flight,stream,nvme.throughput,request.throughput,request.latency.p99\n"));
    assert!(wide.contains("\n4MiB,\"Fixed(\"\"64KiB\"\")\",") && wide.contains("\n32MiB,\"Fixed(\"\"256KiB\"\")\","));
    // results.csv: one row per point and stat, every axis a column.
    let tidy = sfsim::report::table::read_csv(&out.join("results.csv")).unwrap();
    assert_eq!(tidy.header, ["point", "workload.in_flight", "stream", "stat", "value", "unit"]);
    let stats = std::fs::read_to_string(out.join("points/0000/stats.json")).unwrap();
    let per_point = stats.matches("\"unit\"").count();
    assert_eq!(tidy.rows.len(), 8 * per_point);
    // Throughput follows in-flight bytes (4 MiB every 16.7 ms caps at ~250 MB/s).
    let nvme: Vec<f64> =
        tidy.rows.iter().filter(|r| r[3] == "nvme.throughput").map(|r| r[4].parse().unwrap()).collect();
    assert!(nvme[0] < 300.0 && nvme[6] > 1800.0, "{nvme:?}");
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("nvme_throughput_vs_workload_in_flight.png") && html.contains("<h2>Points</h2>"));
    assert!(out.join("nvme_throughput_vs_workload_in_flight.svg").exists());
}

#[test]
fn shards_merged_equal_the_unsharded_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let plan = Plan::load(&repo("scenarios/sweeps/ci-small.ron")).unwrap();
    let local = dir.path().join("local");
    execute(&plan, &Settings { out: local.clone(), jobs: 2, shard: None }, &no_progress).unwrap();
    let mut shards = Vec::new();
    for k in 1..=3 {
        // Shards run anywhere (here one folder deeper than the merge): paths are rebased.
        let out = dir.path().join("elsewhere").join(format!("shard-{k}"));
        let done = execute(&plan, &Settings { out: out.clone(), jobs: 1, shard: Some((k, 3)) }, &no_progress).unwrap();
        assert!(done.points_run == 2 || done.points_run == 3, "8 points over 3 shards");
        shards.push(out);
    }
    let merged = dir.path().join("merged");
    sfsim::sweep::output::merge(&shards, &merged).unwrap();
    assert_eq!(tree(&local), tree(&merged));
    // A missing shard is named, not papered over.
    let err = sfsim::sweep::output::merge(&shards[..2], &dir.path().join("partial")).unwrap_err().to_string();
    assert!(err.contains("are in no shard given") && err.contains("needs all 3"), "{err}");
}

/// A 512² crop of a real texture: two BC1 tiles at mip 0, small enough to pack in a test.
fn crop(from: &str, to: &Path) {
    let image = image::open(repo(from)).unwrap();
    image.crop_imm(256, 256, 512, 512).save(to).unwrap();
}

#[test]
fn packing_points_are_packed_once_and_cached_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    crop("scenarios/content/textures/ldr-rgba-diffuse.png", &dir.path().join("diffuse.png"));
    let write = |lambdas: &str| {
        let text = format!(
            r#"Sweep(
    name: "cache",
    base: "{}",
    set: ["duration=200ms", "workload.scene.texture_sets.count=4", "workload.scene.texture_sets.normal=Bc1"],
    pack: (inputs: [(path: "diffuse.png", format: "bc1")]),
    axes: [
        (path: "pack.rdo_lambda", values: [{lambdas}]),
        (path: "workload.engine.pool", values: ["64MiB", "128MiB"]),
    ],
    metrics: ["pack.size_percent", "pack.psnr_mean", "nvme.throughput"],
)"#,
            repo("scenarios/quickstart-packed.ron").display()
        );
        let file = dir.path().join("cache.ron");
        std::fs::write(&file, text).unwrap();
        Plan::load(&file).unwrap()
    };
    let out = dir.path().join("out");
    let settings = Settings { out: out.clone(), jobs: 2, shard: None };
    let first = execute(&write("\"None\", 40"), &settings, &no_progress).unwrap();
    // Two packing points (λ), each used by two pool sizes: packed once each.
    assert_eq!((first.points_run, first.containers_packed, first.containers_reused), (4, 2, 0));
    let results = std::fs::read(out.join("results.csv")).unwrap();
    let again = execute(&write("\"None\", 40"), &settings, &no_progress).unwrap();
    assert_eq!((again.containers_packed, again.containers_reused), (0, 2), "a rerun packs nothing");
    assert_eq!(std::fs::read(out.join("results.csv")).unwrap(), results, "and gives the same results");
    let wider = execute(&write("\"None\", 40, 80"), &settings, &no_progress).unwrap();
    assert_eq!((wider.containers_packed, wider.containers_reused), (1, 2), "a wider sweep packs only what is new");
    // RDO shrinks the content: the packing stats are part of each point's stats.
    let table = sfsim::report::table::read_csv(&out.join("results.csv")).unwrap();
    let size: Vec<f64> =
        table.rows.iter().filter(|r| r[3] == "pack.size_percent").map(|r| r[4].parse().unwrap()).collect();
    assert_eq!(size.len(), 6);
    assert!(size[2] < size[0] && size[4] < size[2], "size % by λ None, 40, 80: {size:?}");
    assert!(table.rows.iter().any(|r| r[3] == "content.verified_tiles"), "the points ran on the packed content");
}

/// Runs `sfsim sweep` on a sweep file written from `text` and returns its error output.
fn sweep_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.ron");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let output = sfsim().arg("sweep").arg(&file).arg("--out").arg(&out).output().unwrap();
    assert!(!output.status.success());
    assert!(!out.join("points").exists(), "nothing ran");
    String::from_utf8_lossy(&output.stderr).replace(&file.display().to_string(), "bad.ron")
}

#[test]
fn bad_sweep_files_get_located_errors_before_any_run() {
    let base = repo("scenarios/io/quick.ron").display().to_string();
    let head = format!("Sweep(\n    name: \"bad\",\n    base: \"{base}\",\n");
    let cases = [
        (format!("{head}    axes: [\n        (path: \"workload.in_fligh\", values: [\"4MiB\"]),\n    ],\n)"), "bad.ron:5:16: axes[0]: workload.in_fligh=4MiB"),
        (format!("{head}    axes: [\n        (path: \"workload.in_flight\", values: [\"4MiB\", \"lots\"]),\n    ],\n)"), "bad.ron:5:16: axes[0]: workload.in_flight=lots"),
        (format!("{head}    axes: [\n        (path: \"workload.in_flight\", range: (from: \"4MiB\", to: \"3ms\", steps: 3)),\n    ],\n)"), "bad.ron:5:16: axes[0].range: axis \"workload.in_flight\": from \"4MiB\" and to \"3ms\" must be"),
        (format!("{head}    axes: [\n        (path: \"pack.rdo_lambda\", values: [40]),\n    ],\n)"), "bad.ron:5:16: axes[0].path: axis \"pack.rdo_lambda\" sets a packing option, but the sweep has no `pack` section"),
        (format!("{head}    axes: [\n        (path: \"workload.in_flight\", values: [\"4MiB\"], range: (from: 1, to: 2, steps: 2)),\n    ],\n)"), "exactly one of"),
        (format!("{head}    axis: [],\n)"), "bad.ron:4:"),
        (format!("{head}    axes: [],\n)"), "0 axes; expected 1..=8"),
        (format!("{head}    axes: [(path: \"workload.in_flight\", values: [\"4MiB\"])],\n    plots: [(x: \"in_flight\", y: [\"nvme.throughput\"])],\n)"), "plots[0].x: \"in_flight\" is not an axis; the axes are workload.in_flight"),
    ];
    for (text, expected) in cases {
        let err = sweep_error(&text);
        assert!(err.contains(expected), "expected {expected:?} in:\n{err}\nfor:\n{text}");
    }
    // A packing option that does not exist names the valid ones.
    let pack = format!(
        "{head}    pack: (inputs: [(path: \"{}\", format: \"bc1\")]),\n    axes: [(path: \"pack.lambda\", values: [1])],\n)",
        repo("scenarios/content/textures/ldr-rgba-diffuse.png").display()
    );
    let err = sweep_error(&pack);
    assert!(err.contains("pack.lambda is not a packing option") && err.contains("rdo_lambda"), "{err}");
}

#[test]
fn also_and_with_move_more_fields_with_an_axis() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("linked.ron");
    let text = format!(
        r#"Sweep(
    name: "linked",
    base: "{}",
    set: ["duration=100ms"],
    axes: [(path: "hardware.nvme.guaranteed", values: ["1000MB/s", "3000MB/s"],
            with: [(path: "hardware.nvme.peak", values: ["1200MB/s", "3600MB/s"])]),
           (path: "hardware.nvme.latency", values: ["50us", "90us"], also: ["hardware.mdu.setup"])],
)"#,
        repo("scenarios/io/quick.ron").display()
    );
    std::fs::write(&file, text).unwrap();
    let plan = Plan::load(&file).unwrap();
    let hardware = |i: usize| plan.points[i].scenario.hardware.clone();
    let drive = |i: usize| (hardware(i).nvme.guaranteed.to_string(), hardware(i).nvme.peak.to_string());
    assert_eq!(plan.points.len(), 4);
    assert_eq!(drive(0), ("1GB/s".into(), "1.2GB/s".into()));
    assert_eq!(drive(3), ("3GB/s".into(), "3.6GB/s".into()));
    let times = |i: usize| (hardware(i).nvme.latency.to_string(), hardware(i).mdu.setup.to_string());
    assert_eq!((times(0), times(1)), (("50us".into(), "50us".into()), ("90us".into(), "90us".into())));
    let short = text_with(&file, "\"1200MB/s\", \"3600MB/s\"", "\"1200MB/s\"");
    let err = Plan::load(&short).err().expect("a short `with` list is refused").to_string();
    assert!(err.contains("with[0]") && err.contains("lists 1 values; expected one per value"), "{err}");
}

/// A copy of `file` with `from` replaced by `to`.
fn text_with(file: &Path, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(file).unwrap().replace(from, to);
    let copy = file.with_extension("edited.ron");
    std::fs::write(&copy, text).unwrap();
    copy
}

#[test]
fn shard_flags_are_checked() {
    for bad in ["0/4", "5/4", "x", "1/0"] {
        let output =
            sfsim().args(["sweep", "--shard", bad]).arg(repo("scenarios/sweeps/ci-small.ron")).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success() && err.contains("expected K/N with 1 ≤ K ≤ N"), "{bad}: {err}");
    }
}
