//! The soak: an hour of simulated streaming under load (`scenarios/stream/soak.ron`), to
//! show that nothing leaks. `--ignored` (about half an hour on one core):
//!
//! ```text
//! cargo test --release --test integration soak -- --ignored --nocapture
//! ```
//!
//! It checks, and prints:
//! - memory: resident set size sampled every simulated minute; from the 10-minute mark
//!   to the end it may grow only by what is still kept per frame (where its submission
//!   pass stopped, for the attribution; the GPU and streaming-thread spans trace.json
//!   draws) and per visible load (its latency and stage lengths, exact up to 2^22) plus
//!   32 MiB. frames.csv rows, the engine's final frame reports and finished tiles.csv
//!   records are spilled to files as they finish, request latencies
//!   past 2^22 go into a histogram, drive transfers and MDU jobs past trace.json's event
//!   limit are only counted, busy time is summed per frame as it goes;
//! - the engine's invariants every 900 frames (every pool slot held by exactly the tile
//!   that records it, MinMip maps consistent, lifecycle times in order);
//! - conservation at the end: tiles resident = loads made visible − evictions, tiles in
//!   flight = loads − loads made visible, pool slots used = their sum, staging bytes used
//!   within the buffer; pool, staging and in-flight tiles never above their capacity.

use crate::common::repo;
use sfsim::engine::Status;
use sfsim::scenario::{Scenario, Workload};
use sfsim::stats::EXACT_SAMPLES;
use sfsim::workload::io_records::TRACE_SPANS;
use sfsim::workload::stream;
use sfsim_models::units::Time;

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

#[test]
#[ignore = "an hour of simulated time: about half an hour; run with --ignored"]
fn an_hour_under_load_leaks_nothing() {
    let scenario = Scenario::load(&repo("scenarios/stream/soak.ron"), &[]).unwrap();
    assert_eq!(scenario.duration, Time::from_secs(3600));
    let Workload::Stream(cfg) = &scenario.workload else { panic!("a Stream workload") };
    let staging = scenario.hardware.staging.0;
    let mut rss: Vec<(u64, u64)> = Vec::new();
    let mut frames = 0u64;
    let mut peak = (0u32, 0u64, 0usize);
    let started = std::time::Instant::now();
    let outcome = stream::run(
        &scenario,
        cfg,
        &mut |now, _| {
            let minute = now.0 / Time::from_secs(60).0;
            if rss.last().is_none_or(|&(m, _)| m < minute) {
                rss.push((minute, resident_bytes()));
            }
        },
        &mut |engine, renderer| {
            frames += 1;
            peak.0 = peak.0.max(engine.pool_used());
            peak.1 = peak.1.max(engine.staging_used());
            peak.2 = peak.2.max(engine.tiles_in_flight());
            if frames.is_multiple_of(900) {
                engine.check_invariants(renderer).unwrap_or_else(|e| panic!("frame {frames}: {e}"));
            }
        },
    )
    .unwrap();
    rss.push((60, resident_bytes()));
    let engine = &outcome.engine;
    let stat = |name: &str| outcome.stats.get(name).unwrap_or_else(|| panic!("{name}")) as u64;
    let (loads, visible, evictions) = (stat("engine.loads"), stat("engine.tiles_loaded"), stat("engine.evictions"));

    let mut by_status = std::collections::BTreeMap::new();
    for t in 0..engine.texture_count() {
        for index in 0..engine.tiles().desc(t).standard_tile_count() {
            let status = engine.state(sfsim::engine::TileId { texture: t, index }).status;
            *by_status.entry(format!("{status:?}")).or_insert(0u64) += 1;
        }
    }
    let count = |s: Status| by_status.get(&format!("{s:?}")).copied().unwrap_or(0);
    let in_flight = count(Status::Loading) + count(Status::Complete);

    // What still grows with the run and is not a leak: per frame (its submission stop, the
    // trace's queue spans) and per visible load (its latency and seven stage lengths for
    // the exact percentiles). frames.csv rows, frame reports and tiles.csv records are no
    // longer in it.
    let spans = engine.queue_spans();
    let background_requests: f64 = (0..4).filter_map(|i| outcome.stats.get(&format!("background{i}.completed"))).sum();
    let records = std::mem::size_of_val(outcome.frames.stops())
        + (spans.mapping_calls.capacity() + spans.uploads.capacity() + spans.streaming_thread.capacity()) * 16
        + engine.tiles().records().summary().visible() as usize * 8 * 8;
    let kept = &outcome.trace_spans;
    println!(
        "soak: records: {} frames, {} tile loads; {} + {} left out transfers, {} + {} MDU jobs kept for trace.json; \
         {} requests ({}), {background_requests} background requests",
        outcome.frames.len(),
        engine.tiles().records().len(),
        kept.transfers.len(),
        kept.transfers_left_out,
        kept.jobs.len(),
        kept.jobs_left_out,
        outcome.request_latencies.len(),
        if outcome.request_latencies.exact() { "latencies exact" } else { "latencies binned" },
    );
    let at = |minute: u64| rss.iter().find(|&&(m, _)| m >= minute).map_or(0, |&(_, b)| b);
    let growth = at(60).saturating_sub(at(10));
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    println!(
        "soak: {frames} frames in {:.0} s wall; RSS {:.1} MiB at 1 min, {:.1} at 10 min, {:.1} at 60 min, peak {:.1}; \
         growth 10→60 min {:.1} MiB against {:.1} MiB still kept per frame and load",
        started.elapsed().as_secs_f64(),
        mib(at(1)),
        mib(at(10)),
        mib(at(60)),
        mib(rss.iter().map(|&(_, b)| b).max().unwrap_or(0)),
        mib(growth),
        mib(records as u64),
    );
    println!(
        "soak: loads {loads}, made visible {visible}, evictions {evictions}; tiles {by_status:?}; pool used {} of {} \
         (peak {}), staging peak {} of {staging} B, tiles in flight peak {}; nvme {:.0} MB/s",
        engine.pool_used(),
        engine.pool_capacity(),
        peak.0,
        peak.1,
        peak.2,
        outcome.stats.get("nvme.throughput").unwrap_or(0.0),
    );
    assert!(kept.transfers.len() <= TRACE_SPANS && kept.jobs.len() <= TRACE_SPANS);
    // The bounds must be exercised: more spans than trace.json keeps, and more background
    // requests than latencies kept exactly (the engine's own requests stay exact).
    assert!(kept.transfers_left_out > 0 && kept.jobs_left_out > 0, "the soak must pass trace.json's limit");
    assert!(background_requests > EXACT_SAMPLES as f64, "the soak must bin background latencies");
    assert!(loads > 100_000 && evictions > 50_000, "the soak must keep loading and evicting: {loads} / {evictions}");
    assert!(growth <= records as u64 + (32 << 20), "memory grew {growth} B beyond the {records} B still kept");
    assert_eq!(count(Status::Resident), visible - evictions, "resident = made visible − evicted");
    assert_eq!(in_flight, loads - visible, "in flight = loads − made visible");
    assert_eq!(u64::from(engine.pool_used()), count(Status::Resident) + in_flight, "pool slots = held tiles");
    assert!(peak.0 <= engine.pool_capacity() && peak.1 <= staging, "capacity exceeded: {peak:?}");
}
