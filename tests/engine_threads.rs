//! The engine's CPU threads and GPU queues (SPEC §5): what the feedback analysis costs and
//! where it runs, how completions are polled, and the feedback budget's round robin.

use crate::common::stat;
use crate::engine::run_checked;
use sfsim::workload::stream::StreamOutcome;

#[test]
fn analysis_scans_every_map_texel_so_coarse_and_shared_maps_cut_it_as_the_sample_says() {
    let cpu = |policy: &str, formats: &[&str]| {
        let mut sets = vec!["duration=500ms", "workload.render.resolution=(320, 180)"];
        sets.extend_from_slice(formats);
        let policy = format!("workload.engine.feedback={policy}");
        sets.push(&policy);
        stat(&crate::common::run_file("scenarios/quickstart.ron", &sets), "cpu.analysis")
    };
    let cut = |policy: &str, formats: &[&str]| 1.0 - cpu(policy, formats) / cpu("PerTexture", formats);
    // The sample: coarser maps −75 % analysis work; one map per set −66 % when the set's
    // three maps are the same size (all BC7: 256×256 tiles) …
    let bc7 = ["workload.scene.texture_sets.diffuse=Bc7", "workload.scene.texture_sets.normal=Bc7"];
    let bc7 = [&bc7[..], &["workload.scene.texture_sets.specular=Bc7"]].concat();
    assert!((0.74..=0.76).contains(&cut("Coarse2x2", &bc7)), "Coarse2x2 cuts {}", cut("Coarse2x2", &bc7));
    assert!((0.66..=0.67).contains(&cut("SharedPerSet", &bc7)), "SharedPerSet cuts {}", cut("SharedPerSet", &bc7));
    // … and −75 % with the quickstart's BC1/BC5/BC1 sets, whose BC5 normal map (256×256
    // tiles) has twice the texels of the shared BC1 diffuse map (512×256 tiles).
    assert!((0.74..=0.76).contains(&cut("SharedPerSet", &[])), "SharedPerSet cuts {}", cut("SharedPerSet", &[]));
    // Per analysed frame: every texel of every map — 64 sets × (16×32 + 32×32 + 16×32).
    let o = run_checked("scenarios/quickstart.ron", &["duration=200ms", "workload.render.resolution=(320, 180)"]);
    let analysed: Vec<u64> =
        o.frames().unwrap().into_iter().map(|f| f.engine.texels_analysed).filter(|&t| t > 0).collect();
    assert_eq!(analysed.len(), o.frames.len() - 2, "every frame after the readback delay");
    assert!(analysed.iter().all(|&t| t == 64 * (512 + 1024 + 512)), "{analysed:?}");
}

#[test]
fn gpu_analysis_moves_the_scan_to_the_gpu_queue_and_the_cpu_pays_per_list_entry() {
    let run = |policy: &str| {
        let policy = format!("workload.engine.feedback={policy}");
        crate::common::run_file(
            "scenarios/quickstart.ron",
            &["duration=500ms", "workload.render.resolution=(320, 180)", &policy],
        )
    };
    let (cpu, gpu) = (run("PerTexture"), run("GpuAnalysis"));
    // Per analysed frame the GPU scans 64 × 2048 texels at the default 0.2 ns each.
    let analysed = 64.0 * 2048.0 * 0.2e-6;
    let gpu_added = stat(&gpu, "gpu.feedback") - stat(&cpu, "gpu.feedback");
    assert!((gpu_added - analysed).abs() < 1e-9, "GPU feedback time grew {gpu_added} ms/frame, expected {analysed}");
    assert!(stat(&gpu, "cpu.analysis") < 0.05 * stat(&cpu, "cpu.analysis"), "the CPU no longer scans texels");
    assert!(stat(&gpu, "cpu.analysis") > 0.0, "the CPU still pays for the lists");
}

/// Tile latencies modulo the frame period, in ms.
fn phases(o: &StreamOutcome) -> Vec<f64> {
    let period = o.frame_period.as_ms_f64();
    o.tile_latencies.iter().map(|t| t.as_ms_f64() % period).collect()
}

#[test]
fn per_frame_polling_quantises_latency_to_frames_and_a_streaming_thread_does_not() {
    let run = |completions: &str| {
        let set = format!("workload.engine.completions={completions}");
        run_checked("scenarios/quickstart.ron", &["duration=1s", "workload.render.resolution=(480, 270)", &set])
    };
    let (per_frame, streaming) = (run("PerFrame"), run("StreamingThread"));
    let period = per_frame.frame_period.as_ms_f64();
    // PerFrame: feedback is written and tiles become visible at render starts, which sit at
    // frame starts plus the small GPU queue delay (MinMip copies): whole frames ± < 0.5 ms.
    let near_frames = |p: f64| p < 0.5 || period - p < 0.5;
    assert!(phases(&per_frame).iter().all(|&p| near_frames(p)), "{:?}", phases(&per_frame));
    // StreamingThread: visible when the copy-queue upload lands, between frames.
    let off_grid = phases(&streaming).iter().filter(|&&p| !near_frames(p)).count();
    assert!(off_grid * 2 > streaming.tile_latencies.len(), "{off_grid} of {}", streaming.tile_latencies.len());
    let [p50, p95, p99] = ["p50", "p95", "p99"].map(|p| stat(&streaming.stats, &format!("tile.latency.{p}")));
    assert!(p50 < p95 && p95 <= p99, "{p50} {p95} {p99}");
    assert!(
        stat(&streaming.stats, "tile.latency.p50") < stat(&per_frame.stats, "tile.latency.p50"),
        "a streaming thread shows tiles sooner"
    );
}

#[test]
fn a_feedback_budget_resolves_maps_round_robin_within_its_gpu_time() {
    // 0.1 ms at 1 ns per texel: 100,000 texels of the 131,072 the 64 sets' maps hold.
    let o = run_checked(
        "scenarios/quickstart.ron",
        &["duration=500ms", "workload.render.resolution=(320, 180)", "workload.engine.gpu.feedback_budget=\"100us\""],
    );
    let full = run_checked("scenarios/quickstart.ron", &["duration=500ms", "workload.render.resolution=(320, 180)"]);
    let budget_ms = 0.1;
    for f in o.frames().unwrap() {
        assert!(
            f.engine.gpu_feedback.as_ms_f64() <= budget_ms + 1e-12,
            "frame {}: {:?}",
            f.frame,
            f.engine.gpu_feedback
        );
        assert!(f.engine.feedback_maps > 0 && f.engine.feedback_maps < 192, "{}", f.engine.feedback_maps);
    }
    let texels = |o: &StreamOutcome| o.frames().unwrap().into_iter().map(|f| f.engine.texels_analysed).sum::<u64>();
    assert!(texels(&o) < texels(&full), "fewer texels read back");
    // Round-robin: over the run every texture's map was resolved at least once.
    let maps: u64 = o.frames().unwrap().into_iter().map(|f| u64::from(f.engine.feedback_maps)).sum();
    assert!(maps >= 192, "{maps} maps over the run");
    assert!(stat(&o.stats, "gpu.feedback_maps") < 192.0);
    assert!(full.stats.get("gpu.feedback_maps").is_none(), "null without a budget");
}
