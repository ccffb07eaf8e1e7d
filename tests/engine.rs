//! The streaming engine against SPEC §5: conservation and lifecycle, the MinMip map,
//! bottlenecks, steady state, eviction under stress, determinism.

use crate::common::{repo, stat};
use sfsim::run::{run, Outcome, RunOptions};
use sfsim::scenario::{Override, Scenario};
use sfsim::workload::stream::{self, StreamOutcome};

fn load(file: &str, sets: &[&str]) -> Scenario {
    let overrides: Vec<Override> = sets.iter().map(|s| s.parse().unwrap()).collect();
    Scenario::load(&repo(file), &overrides).unwrap()
}

/// Runs a stream scenario checking every invariant after every frame.
pub(crate) fn run_checked(file: &str, sets: &[&str]) -> StreamOutcome {
    let scenario = load(file, sets);
    let sfsim::scenario::Workload::Stream(cfg) = &scenario.workload else { panic!("{file} is not a Stream scenario") };
    let mut frames = 0;
    let outcome = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |engine, renderer| {
        frames += 1;
        if let Err(e) = engine.check_invariants(renderer) {
            panic!("frame {frames}: {e}");
        }
    })
    .unwrap();
    assert!(frames > 0);
    outcome
}

#[test]
fn every_load_passes_io_mdu_and_mapping_once_and_the_minmip_map_has_no_holes() {
    let o = run_checked("scenarios/quickstart.ron", &[]);
    let e = &o.engine;
    assert!(e.loads() > 100, "the quickstart must stream: {} loads", e.loads());
    let visible = e.records().unwrap().into_iter().filter(|r| r.visible.is_some()).count() as u64;
    let decompressed = e.records().unwrap().into_iter().filter(|r| r.decompressed.is_some()).count() as u64;
    // Each load is one DirectStorage request (besides one packed-tail request per texture
    // at creation); every visible tile was read, decompressed and mapped exactly once for
    // its load (one record per load).
    assert_eq!(e.tail_requests(), e.texture_count());
    assert_eq!(o.request_latencies.len() - u64::from(e.tail_requests()) + e.tiles_in_flight() as u64, e.loads());
    assert!(e.tails_loaded_at().is_some(), "every packed tail was read through the IO path");
    assert!(visible <= decompressed && decompressed <= e.loads());
    for r in e.records().unwrap().into_iter().filter(|r| r.visible.is_some()) {
        assert!(r.submitted.is_some() && r.read.is_some() && r.decompressed.is_some() && r.mapped.is_some(), "{r:?}");
    }
}

#[test]
fn shared_and_coarse_feedback_and_other_policies_keep_the_invariants() {
    for sets in [
        &["workload.engine.feedback=SharedPerSet", "duration=1500ms"][..],
        &["workload.engine.feedback=Coarse2x2", "duration=1500ms"],
        &["workload.engine.load_order=RecencyFirst", "workload.engine.upload_cap=4", "duration=1500ms"],
        &["workload.engine.pool=16MiB", "duration=1500ms"],
        &["workload.render.feedback.kind=MipRegionUsed", "duration=1500ms"],
        &["workload.render.feedback.writes=Location", "duration=1500ms"],
        &["workload.render.feedback.writes=Location", "workload.render.feedback.kind=MipRegionUsed", "duration=1500ms"],
    ] {
        let o = run_checked("scenarios/quickstart.ron", sets);
        assert!(o.engine.loads() > 0, "{sets:?}");
    }
}

#[test]
fn refcount_eviction_keeps_the_invariants_and_evicts_after_its_delay() {
    let scenario = load("scenarios/quickstart.ron", &["workload.engine.eviction=RefCount(frames: 30)", "duration=2s"]);
    let sfsim::scenario::Workload::Stream(cfg) = &scenario.workload else { panic!("stream") };
    let o = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |e, r| e.check_invariants(r).unwrap()).unwrap();
    assert!(o.engine.evictions() > 0, "the roller-coaster leaves tiles behind");
    // No tile goes before 30 analysed frames without a reference: 0.5 s at 60 fps.
    for r in o.engine.records().unwrap().into_iter().filter(|r| r.evicted.is_some()) {
        let held = r.evicted.unwrap().saturating_sub(r.visible.unwrap());
        assert!(held.as_secs_f64() >= 0.49, "{r:?} evicted after {held}");
    }
}

#[test]
fn sample_grid_stays_within_the_hardware_bounds() {
    let scenario = load("scenarios/stream/sample-grid.ron", &["duration=3s", "workload.render.resolution=(960, 540)"]);
    let r = run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap();
    let s = &r.stats;
    assert!(stat(s, "nvme.throughput") <= 2400.0);
    assert!(stat(s, "mdu.input_throughput") <= 3.2 && stat(s, "mdu.output_throughput") <= 8.0);
    let Outcome::Stream(o) = &r.outcome else { panic!("stream outcome") };
    let period = o.frame_period.as_secs_f64();
    // Per frame, the drive never moves more than peak × frame time (plus one 64 KiB IO
    // that straddles a frame boundary).
    for f in o.frames().unwrap() {
        assert!(f.nvme_bytes as f64 <= 2.4e9 * period + 65_536.0, "frame {}: {} B", f.frame, f.nvme_bytes);
    }
    assert!(stat(s, "engine.loads") > 0.0);
    assert!(stat(s, "scene.virtual_size") > 10.0);
}

#[test]
fn a_starved_pool_is_named_as_the_bottleneck() {
    let s = sfsim::run::run(
        &load(
            "scenarios/stream/pool-starved.ron",
            &["duration=4s", "workload.render.resolution=(960, 540)", "workload.engine.pool=8MiB"],
        ),
        RunOptions { host_stats: false },
        &mut |_, _| {},
    )
    .unwrap()
    .stats;
    assert!(stat(&s, "engine.bottleneck.pool") > 0.2, "pool bottleneck share {}", stat(&s, "engine.bottleneck.pool"));
    assert!(stat(&s, "pool.occupancy.max") > 0.99);
}

#[test]
fn a_static_camera_reaches_a_steady_state_with_no_loads() {
    // An orbit that takes 30 years per lap: the camera does not move.
    let scenario = load(
        "scenarios/quickstart.ron",
        &[
            "workload.camera=Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 22.0, height: 6.0, period_s: 1e9))",
            "duration=3s",
        ],
    );
    let sfsim::scenario::Workload::Stream(cfg) = &scenario.workload else { panic!("stream") };
    let o = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |e, r| e.check_invariants(r).unwrap()).unwrap();
    assert!(o.engine.loads() > 50, "it must load what it sees first: {}", o.engine.loads());
    let tail: Vec<_> = o.frames().unwrap().into_iter().filter(|f| f.time.as_secs_f64() > 1.0).collect();
    assert!(
        tail.iter().all(|f| f.engine.loads == 0 && f.engine.evictions == 0 && f.tiles_in_flight == 0),
        "steady state after 1 s"
    );
    assert_eq!(tail.last().unwrap().sampler.blurry, 0, "every sample gets the mip it wants");
}

#[test]
fn paint_mixer_keeps_evicting_and_reloading() {
    let o = run_checked("scenarios/stream/paint-mixer.ron", &["duration=3s"]);
    // Once the pool has filled (≈ 1.5 s), the two alternating views keep reclaiming each
    // other's standby tiles: evictions and loads in a large share of frames.
    let late: Vec<_> = o.frames().unwrap().into_iter().filter(|f| f.time.as_secs_f64() > 1.5).collect();
    let evicting = late.iter().filter(|f| f.engine.evictions > 0).count();
    let loading = late.iter().filter(|f| f.engine.loads > 0).count();
    assert!(evicting * 4 > late.len(), "evictions in {evicting} of {} late frames", late.len());
    assert!(loading * 2 > late.len(), "loads in {loading} of {} late frames", late.len());
    // Tiles come back: more loads than distinct tiles ever loaded.
    let distinct: std::collections::HashSet<_> =
        o.engine.records().unwrap().into_iter().filter(|r| r.submitted.is_some()).map(|r| r.tile).collect();
    assert!(o.engine.loads() as usize > distinct.len(), "{} loads of {} tiles", o.engine.loads(), distinct.len());
}

#[test]
fn streaming_stats_are_byte_identical_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    for i in 0..2 {
        let out = dir.path().join(format!("s{i}"));
        let status = crate::common::sfsim()
            .args(["run", "-q", "--no-host-stats", "--set", "duration=1s", "--out"])
            .arg(&out)
            .arg(repo("scenarios/quickstart.ron"))
            .status()
            .unwrap();
        assert!(status.success());
        bytes.push((std::fs::read(out.join("stats.json")).unwrap(), std::fs::read(out.join("tiles.csv")).unwrap()));
        for f in [
            "frames.csv",
            "tiles.csv",
            "trace.json",
            "signals.vcd",
            "throughput.png",
            "tile_latency.png",
            "occupancy.png",
            "lod_deficit.png",
            "index.html",
        ] {
            assert!(out.join(f).exists(), "{f} missing");
        }
    }
    assert_eq!(bytes[0], bytes[1]);
}

#[test]
fn shared_feedback_per_set_loads_sets_in_fewer_ios_at_the_same_quality() {
    let run_with = |sets: &[&str]| {
        let scenario = load("scenarios/quickstart.ron", &[sets, &["duration=2s"]].concat());
        run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap().stats
    };
    let own = run_with(&["workload.engine.feedback=PerTexture"]);
    let shared = run_with(&["workload.engine.feedback=SharedPerSet", "workload.content.layout=SetInterleaved"]);
    // Each tile is its own request; a set's three, adjacent in its file, are one IO.
    assert!(stat(&shared, "nvme.ios") < 0.5 * stat(&own, "nvme.ios"));
    assert!(stat(&shared, "nvme.merged_reads") > 0.5 * stat(&shared, "engine.tiles_loaded"));
    assert!(stat(&shared, "engine.tiles_loaded") > 0.8 * stat(&own, "engine.tiles_loaded"));
    // Each texture gets its own coarser parents, so normal maps (other tile shape, other
    // packed tail) are as sharp as with their own feedback.
    let (q_own, q_shared) = (stat(&own, "quality.lod_deficit.mean"), stat(&shared, "quality.lod_deficit.mean"));
    assert!(q_shared < 2.0 * q_own + 0.02, "LOD deficit {q_shared} shared vs {q_own} own");
    // Analysis reads a third of the feedback texels.
    assert!(stat(&shared, "cpu.analysis") < 0.5 * stat(&own, "cpu.analysis"));
}

#[test]
fn a_timing_only_run_has_the_full_runs_timing_and_no_quality() {
    for writes in ["Footprint", "Location"] {
        let run_in = |mode: &str| {
            let sets = [
                format!("workload.mode={mode}"),
                format!("workload.render.feedback.writes={writes}"),
                "duration=1500ms".to_string(),
            ];
            let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
            run(&load("scenarios/quickstart.ron", &sets), RunOptions { host_stats: false }, &mut |_, _| {})
                .unwrap()
                .outcome
        };
        let (Outcome::Stream(full), Outcome::Stream(timing)) = (run_in("Full"), run_in("TimingOnly")) else {
            panic!("quickstart is a Stream scenario")
        };
        let (full_stats, timing_stats) =
            (full.stats.iter().collect::<Vec<_>>(), timing.stats.iter().collect::<Vec<_>>());
        assert_eq!(full_stats.len(), timing_stats.len());
        for (f, t) in full_stats.iter().zip(&timing_stats) {
            assert_eq!(f.name, t.name);
            if f.name.starts_with("quality.") {
                // Time-to-sharp is null without a cut that got sharp, even in a full run.
                let measured = f.value.is_some() || f.name.starts_with("quality.time_to_sharp");
                assert!(measured && t.value.is_none(), "{writes}: {} {:?} vs {:?}", f.name, f.value, t.value);
            } else {
                assert_eq!(f.value, t.value, "{writes}: {}", f.name);
            }
        }
        assert!(full.frames().unwrap().into_iter().zip(timing.frames().unwrap()).all(|(f, t)| f.engine == t.engine
            && f.sampler.texture_samples == t.sampler.texture_samples
            && t.sampler.quality_samples == 0));
    }
}

#[test]
fn the_thread_count_does_not_change_a_streaming_run() {
    for writes in ["Footprint", "Location"] {
        let set = format!("workload.render.feedback.writes={writes}");
        let scenario = load("scenarios/quickstart.ron", &[&set, "duration=1s"]);
        let stats_with = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap().stats.to_json())
        };
        assert_eq!(stats_with(1), stats_with(3), "{writes}");
    }
}

#[test]
fn a_timing_only_report_says_so_and_leaves_quality_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let args = ["--no-host-stats", "--set", "duration=500ms", "--set", "workload.mode=TimingOnly"];
    let stats = crate::common::run_cli(&args, &out, "scenarios/quickstart.ron");
    assert!(stats["quality.lod_deficit.mean"]["value"].is_null());
    assert!(stats["engine.loads"]["value"].as_f64().unwrap() > 0.0);
    let frames = std::fs::read_to_string(out.join("frames.csv")).unwrap();
    let header: Vec<&str> = frames.lines().next().unwrap().split(',').collect();
    let quality: Vec<usize> = ["lod_deficit_mean", "blurry_share"]
        .iter()
        .map(|name| header.iter().position(|h| h == name).unwrap())
        .collect();
    for line in frames.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        assert!(quality.iter().all(|&i| cells[i].is_empty()), "quality columns are empty: {line}");
    }
    assert!(!out.join("lod_deficit.png").exists());
    assert!(std::fs::read_to_string(out.join("index.html")).unwrap().contains("timing only"));
}

#[test]
fn tile_latency_stages_add_up_to_the_latency() {
    let o = run_checked("scenarios/quickstart.ron", &["duration=1500ms"]);
    let visible: Vec<_> = o.engine.records().unwrap().into_iter().filter(|r| r.visible.is_some()).collect();
    assert!(!visible.is_empty());
    for r in &visible {
        let sum: u64 = sfsim::engine::LATENCY_STAGES.iter().map(|s| (s.length)(r).unwrap().0).sum();
        assert_eq!(sum, (r.visible.unwrap() - r.requested).0, "{r:?}");
    }
    let mean_latency = o.tile_latencies.iter().map(|t| t.as_ms_f64()).sum::<f64>() / o.tile_latencies.len() as f64;
    let stage_means: f64 =
        sfsim::engine::LATENCY_STAGES.iter().map(|s| stat(&o.stats, &format!("tile.stage.{}.mean", s.name))).sum();
    assert!((stage_means - mean_latency).abs() < 1e-6 * mean_latency, "{stage_means} vs {mean_latency}");
}

#[test]
fn camera_cuts_are_found_and_each_gets_sharp_again() {
    let camera = "workload.camera=Generator(PaintMixer(orbit: (center: (0.0, 0.0, 0.0), radius: 30.0, height: 10.0, \
                  period_s: 30.0), coaster: (center: (0.0, 0.0, 0.0), radius: 26.0, amplitude: 10.0, period_s: 30.0, \
                  seed: 1), switch_every_frames: 30))";
    let o = run_checked("scenarios/quickstart.ron", &["duration=2s", "workload.render.resolution=(320, 180)", camera]);
    // 120 frames switching every 30: cuts at frames 30, 60, 90.
    assert_eq!(stat(&o.stats, "camera.cuts"), 3.0);
    let t = stat(&o.stats, "quality.time_to_sharp.mean");
    let period = o.frame_period.as_ms_f64();
    assert!(t >= period && t < 30.0 * period, "time to sharp {t} ms");
    // Whole frames: sharpness is judged per rendered frame.
    let max = stat(&o.stats, "quality.time_to_sharp.max") / period;
    assert!((max - max.round()).abs() < 1e-6, "{max} frames");
    assert_eq!(stat(&o.stats, "quality.cuts_never_sharp"), 0.0);
}

#[test]
fn trace_json_has_the_gpu_queues_and_engine_threads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let status = crate::common::sfsim()
        .args(["run", "-q", "--no-host-stats", "--set", "duration=1s", "--set"])
        .arg("workload.engine.completions=StreamingThread")
        .arg("--out")
        .arg(&out)
        .arg(repo("scenarios/quickstart.ron"))
        .status()
        .unwrap();
    assert!(status.success());
    let trace: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("trace.json")).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let count = |name: &str| events.iter().filter(|e| e["name"] == name && e["ph"] == "X").count();
    for name in ["UpdateTileMappings", "MinMip upload", "MinMip update"] {
        assert!(count(name) > 10, "{name}: {} spans", count(name));
    }
    assert!(count("render 0") == 1 && count("pass 3") == 1);
}

/// Issue acceptance on the loaded path (about 150 s in release on 2 cores, so ignored;
/// `cargo test --release --test integration engine::city_flythrough -- --ignored`).
#[test]
#[ignore]
fn city_flythrough_saturates_the_drive_in_bursts_and_names_it() {
    let scenario = load("scenarios/stream/city-flythrough.ron", &[]);
    let sfsim::scenario::Workload::Stream(cfg) = &scenario.workload else { unreachable!() };
    let o = stream::run(&scenario, cfg, &mut |_, _| {}, &mut |_, _| {}).unwrap();
    let s = &o.stats;
    assert!(stat(s, "nvme.window_min") >= 500.0, "window_min {}", stat(s, "nvme.window_min"));
    let bursts: Vec<f64> = o
        .frames()
        .unwrap()
        .into_iter()
        .filter(|f| f.io_waiting > 0)
        .map(|f| f.nvme_bytes as f64 / 1e6 / o.frame_period.as_secs_f64())
        .collect();
    let burst_rate = bursts.iter().sum::<f64>() / bursts.len() as f64;
    assert!(burst_rate >= 1800.0, "mean NVMe rate over {} burst frames: {burst_rate} MB/s", bursts.len());
    let largest = s
        .iter()
        .filter(|x| x.name.starts_with("engine.bottleneck."))
        .max_by(|a, b| a.value.unwrap_or(0.0).total_cmp(&b.value.unwrap_or(0.0)))
        .unwrap();
    assert_eq!(largest.name, "engine.bottleneck.drive");
}
