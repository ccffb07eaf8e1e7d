//! The content-pool workload: every stream of real containers read through DirectStorage →
//! NVMe → MDU, checked in closed form (totals, per-stream completions, throughputs over the
//! elapsed time), its stream selections, its errors, and that a smaller-compressed packing of
//! the same texture delivers to memory faster when the drive is the bottleneck.

use crate::common::{lexical, repo};
use crate::stat_names::check_golden;
use sfsim::content::mipgen::{mip_chain, Image};
use sfsim::content::pack::{load_image, pack, write_set, Container, PackOptions, StreamEntry};
use sfsim::models::codec::bc::RdoSettings;
use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Scenario, Workload};
use sfsim::stats::StatSet;
use sfsim::workload::pool::{self, PoolOutcome};
use sfsim_models::texture::BcFormat;
use std::path::Path;

/// A Khronos texture from scenarios/content/textures, downscaled by the packer's own mip
/// filter to `side` texels wide (keeps packing cheap at the test profile).
fn khronos(name: &str, side: u32, options: &PackOptions) -> Image {
    let image = load_image(&repo(&format!("scenarios/content/textures/{name}"))).unwrap();
    mip_chain(&image, options.color).unwrap().into_iter().find(|m| m.width <= side).unwrap()
}

fn pack_to(dir: &Path, file: &str, name: &str, side: u32, options: PackOptions) -> Container {
    let packed = pack(&khronos(name, side, &options), &options, &|| {}).unwrap();
    std::fs::write(dir.join(file), &packed.container).unwrap();
    Container::open(&dir.join(file)).unwrap()
}

/// `diffuse.sfstex` (BC1, 512²) and `set.sfsset` (the Khronos trio at 256² as one set
/// container): every entry of both, the set's three members' tables concatenated.
fn write_pool(dir: &Path) -> Vec<StreamEntry> {
    let diffuse = pack_to(dir, "diffuse.sfstex", "ldr-rgba-diffuse.png", 512, PackOptions::new(BcFormat::Bc1));
    let members = [
        pack_to(dir, "d.sfstex", "ldr-rgba-diffuse.png", 256, PackOptions::new(BcFormat::Bc1)),
        pack_to(dir, "n.sfstex", "ldr-xy-normal1.png", 256, PackOptions::new(BcFormat::Bc5)),
        pack_to(dir, "s.sfstex", "ldr-rgba-specgloss.png", 256, PackOptions::new(BcFormat::Bc1)),
    ];
    std::fs::write(dir.join("set.sfsset"), write_set(&[&members[0], &members[1], &members[2]]).unwrap()).unwrap();
    let mut entries = diffuse.entries().to_vec();
    for m in &members {
        entries.extend_from_slice(m.entries());
    }
    entries
}

/// A pool scenario in `dir` (a stall-free drive) with `workload` fields after `containers`.
fn scenario(dir: &Path, containers: &[&str], fields: &str) -> Result<Scenario, String> {
    scenario_on(dir, "nvme: (stalls: None)", containers, fields)
}

/// [`scenario`] on the given `hardware` fields.
fn scenario_on(dir: &Path, hardware: &str, containers: &[&str], fields: &str) -> Result<Scenario, String> {
    let list: Vec<String> = containers.iter().map(|c| format!("{c:?}")).collect();
    let text = format!(
        r#"Scenario(
    name: "pool-test",
    duration: "60s",
    hardware: ({hardware}),
    workload: Pool((
        containers: [{}],
        {fields}
    )),
)"#,
        list.join(", ")
    );
    Scenario::from_text(&text, &dir.join("pool.ron"), &[]).map_err(|e| e.to_string())
}

fn run_pool(s: &Scenario) -> Result<PoolOutcome, String> {
    let Workload::Pool(cfg) = &s.workload else { unreachable!() };
    pool::run(s, cfg, &mut |_, _| {}).map_err(|e| e.to_string())
}

fn stat(stats: &StatSet, name: &str) -> f64 {
    stats.get(name).unwrap_or_else(|| panic!("stat {name} missing or null"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

const BOTH: [&str; 2] = ["diffuse.sfstex", "set.sfsset"];

#[test]
fn every_stream_completes_passes_times_and_the_totals_are_the_containers() {
    let dir = tempfile::tempdir().unwrap();
    let entries = write_pool(dir.path());
    let passes = 3u32;
    let s = scenario(dir.path(), &BOTH, &format!(r#"in_flight: "16GiB", passes: {passes},"#)).unwrap();
    let o = run_pool(&s).unwrap();
    let st = &o.io.stats;
    assert_eq!(o.pool.streams.len(), entries.len());
    assert_eq!(o.pool.total_streams, entries.len());
    assert!(o.completions.iter().all(|&c| c == passes), "{:?}", o.completions);
    let n = entries.len() as f64;
    let p = f64::from(passes);
    let src: f64 = entries.iter().map(|e| f64::from(e.compressed_size)).sum::<f64>() * p;
    let dst: f64 = entries.iter().map(|e| f64::from(e.uncompressed_size)).sum::<f64>() * p;
    assert_eq!(stat(st, "pool.streams"), n);
    assert_eq!(stat(st, "pool.passes"), p);
    assert_eq!(stat(st, "pool.completed"), n * p);
    assert_eq!(stat(st, "pool.source_bytes"), src);
    assert_eq!(stat(st, "pool.destination_bytes"), dst);
    assert!(dst > src, "the containers compress");
    let secs = stat(st, "pool.elapsed") / 1e3;
    assert!(secs > 0.0 && secs < 1.0, "{secs}");
    assert!(close(stat(st, "pool.read_throughput"), src / 1e6 / secs));
    assert!(close(stat(st, "pool.to_memory_throughput"), dst / 1e6 / secs));
    assert!(close(stat(st, "pool.ratio"), dst / src));
    assert!(close(stat(st, "pool.mean_stream"), dst / p / n / 1024.0));
    // The IO path's stats are over the same elapsed time: the drive read exactly the bytes.
    assert!(close(stat(st, "nvme.throughput"), src / 1e6 / secs));
    // The run ends at the last completion.
    let max = stat(st, "request.latency.max");
    assert!(max <= stat(st, "pool.elapsed") + 1e-9);
}

#[test]
fn sized_and_streamable_select_exactly_the_matching_streams() {
    let dir = tempfile::tempdir().unwrap();
    let entries = write_pool(dir.path());
    let tiles: Vec<&StreamEntry> = entries.iter().filter(|e| e.uncompressed_size == 64 * 1024).collect();
    let small: Vec<&StreamEntry> = entries.iter().filter(|e| e.uncompressed_size < 64 * 1024).collect();
    assert!(!tiles.is_empty() && !small.is_empty());
    let totals = |fields: &str| {
        let o = run_pool(&scenario(dir.path(), &BOTH, fields).unwrap()).unwrap();
        (stat(&o.io.stats, "pool.streams"), stat(&o.io.stats, "pool.source_bytes"))
    };
    let sum = |v: &[&StreamEntry]| v.iter().map(|e| f64::from(e.compressed_size)).sum::<f64>();
    assert_eq!(totals(r#"streams: Sized(min: "64KiB", max: "64KiB"),"#), (tiles.len() as f64, sum(&tiles)));
    assert_eq!(totals(r#"streams: Sized(min: "1B", max: "65535B"),"#), (small.len() as f64, sum(&small)));
    let streamable: Vec<&StreamEntry> = entries.iter().filter(|e| !e.resident).collect();
    assert!(streamable.len() < entries.len());
    assert_eq!(totals("streams: Streamable,"), (streamable.len() as f64, sum(&streamable)));
}

#[test]
fn shuffled_reads_the_same_bytes_in_another_order() {
    let dir = tempfile::tempdir().unwrap();
    write_pool(dir.path());
    let get = |order: &str| {
        let s = scenario(dir.path(), &BOTH, &format!(r#"order: {order}, passes: 2, in_flight: "1MiB","#)).unwrap();
        run_pool(&s).unwrap()
    };
    let (seq, shuf) = (get("Sequential"), get("Shuffled"));
    for name in ["pool.streams", "pool.completed", "pool.source_bytes", "pool.destination_bytes", "mdu.jobs"] {
        assert_eq!(stat(&seq.io.stats, name), stat(&shuf.io.stats, name), "{name}");
    }
    assert_eq!(seq.completions, shuf.completions);
    // Deterministic: the same seed shuffles the same way.
    assert_eq!(stat(&get("Shuffled").io.stats, "pool.elapsed"), stat(&shuf.io.stats, "pool.elapsed"));
}

#[test]
fn bad_input_is_a_clear_error_naming_the_field_and_file() {
    let dir = tempfile::tempdir().unwrap();
    write_pool(dir.path());
    let e = run_pool(&scenario(dir.path(), &["diffuse.sfstex", "missing.sfstex"], "").unwrap()).err().unwrap();
    assert!(e.contains("workload.containers[1]") && e.contains("missing.sfstex"), "{e}");
    std::fs::write(dir.path().join("corrupt.sfstex"), b"SFSIMTEX but not really").unwrap();
    let e = run_pool(&scenario(dir.path(), &["corrupt.sfstex"], "").unwrap()).err().unwrap();
    assert!(e.contains("workload.containers[0]") && e.contains("corrupt.sfstex"), "{e}");
    let e = run_pool(&scenario(dir.path(), &BOTH, r#"streams: Sized(min: "1B", max: "2B"),"#).unwrap()).err().unwrap();
    assert!(e.contains("workload.streams") && e.contains("selects none"), "{e}");
    for (fields, field, range) in [
        (r#"in_flight: "0B","#, "workload.in_flight", "1B..=16GiB"),
        (r#"in_flight: "17GiB","#, "workload.in_flight", "1B..=16GiB"),
        ("passes: 0,", "workload.passes", "1..=1000"),
        ("passes: 1001,", "workload.passes", "1..=1000"),
        (r#"cadence: "11s","#, "workload.cadence", "1us..=10s"),
        (r#"streams: Sized(min: "2MiB", max: "1MiB"),"#, "workload.streams", "min ≤ max"),
    ] {
        let e = scenario(dir.path(), &BOTH, fields).unwrap_err();
        assert!(e.contains(field) && e.contains(range), "{fields}: {e}");
    }
    let e = scenario(dir.path(), &[], "").unwrap_err();
    assert!(e.contains("workload.containers") && e.contains("1..=4096"), "{e}");
}

/// With the drive the bottleneck (an MDU of 8 units, so the decompressors keep up with the
/// drive's peak rate), the same texture packed with RDO reads fewer bytes for the same
/// uncompressed bytes, so it finishes sooner and delivers to memory faster: to-memory MB/s
/// is the read rate times the ratio.
#[test]
fn a_smaller_compressed_packing_delivers_faster_when_drive_bound() {
    let dir = tempfile::tempdir().unwrap();
    let plain = PackOptions::new(BcFormat::Bc1);
    let rdo = PackOptions { rdo: Some(RdoSettings { lambda: 200.0, ..RdoSettings::default() }), ..plain };
    pack_to(dir.path(), "plain.sfstex", "ldr-rgba-diffuse.png", 512, plain);
    pack_to(dir.path(), "rdo.sfstex", "ldr-rgba-diffuse.png", 512, rdo);
    let get = |file: &str| {
        let fields = r#"passes: 1000, streams: Streamable, in_flight: "16GiB","#;
        let s = scenario_on(dir.path(), "nvme: (stalls: None), mdu: (units: 8)", &[file], fields).unwrap();
        run(&s, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap().stats
    };
    let (a, b) = (get("plain.sfstex"), get("rdo.sfstex"));
    assert_eq!(stat(&a, "pool.destination_bytes"), stat(&b, "pool.destination_bytes"));
    assert!(stat(&b, "pool.source_bytes") < 0.95 * stat(&a, "pool.source_bytes"), "RDO shrinks the streams");
    for s in [&a, &b] {
        assert!(stat(s, "nvme.busy") > 0.95, "drive-bound: {}", stat(s, "nvme.busy"));
    }
    // Both read at about the drive's rate (the drive, not the MDU, sets the pace).
    let (ra, rb) = (stat(&a, "pool.read_throughput"), stat(&b, "pool.read_throughput"));
    assert!(rb > 0.95 * ra && ra > 0.9 * 2400.0, "read {ra} vs {rb} MB/s");
    let (ta, tb) = (stat(&a, "pool.to_memory_throughput"), stat(&b, "pool.to_memory_throughput"));
    assert!(tb > ta, "RDO {tb} MB/s vs plain {ta} MB/s to memory");
    assert!(stat(&b, "pool.elapsed") < stat(&a, "pool.elapsed"));
}

#[test]
fn pool_stats_keep_their_names_and_units() {
    let dir = tempfile::tempdir().unwrap();
    write_pool(dir.path());
    let s = scenario(dir.path(), &BOTH, "").unwrap();
    let stats = run(&s, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap().stats;
    check_golden("stats-pool.txt", stats.iter().map(|s| format!("{} [{}]\n", s.name, s.unit)).collect());
}

#[test]
fn the_content_pool_scenario_parses_and_resolves_its_paths() {
    let file = repo("scenarios/io/content-pool.ron");
    let s = Scenario::load(&file, &[]).unwrap();
    let Workload::Pool(cfg) = &s.workload else { panic!("a Pool workload") };
    assert_eq!(cfg.containers.len(), 3);
    let out = repo("reports/out/content-pool");
    let resolved = s.to_resolved_ron(&out);
    let back = Scenario::from_text(&resolved, &out.join("resolved.ron"), &[]).unwrap();
    let Workload::Pool(again) = &back.workload else { unreachable!() };
    for (a, b) in cfg.containers.iter().zip(&again.containers) {
        assert_eq!(lexical(&s.base_dir.join(a)), lexical(&out.join(b)), "{a} vs {b}");
    }
}
