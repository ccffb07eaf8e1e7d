//! The streaming workload: the SFS engine co-simulated with the IO path (NVMe → MDU) and
//! the ray-cast sampler over a camera path. One kernel orders frames, IO wake-ups and
//! UpdateTileMappings completions.

use crate::engine::{
    ContentConfig, ContentModel, CorruptCheck, Engine, FrameReport, FrameWork, PackedContent, Policies, Verifier,
};
use crate::iopath::{Completed, IoPath};
use crate::kernel::Kernel;
use crate::scenario::Scenario;
use crate::scene::{FeedbackRenderer, FrameStats, Scene};
use crate::stats::{StatSet, LATENCY_POINTS};
use crate::workload::attribution::{self, Resource};
use crate::workload::background::Background;
use crate::workload::cuts::CutTracker;
use crate::workload::frame_rows::FrameRows;
use crate::workload::io_records::IoRecords;
use crate::workload::render::{ray_camera, RenderError};
use sfsim_models::nvme::IoStatus;
use sfsim_models::units::Time;

pub use super::stream_config::{StreamMode, StreamWorkload};

pub use super::stream_outcome::{StreamError, StreamFrame, StreamOutcome};

/// Mips with their own frames.csv columns: 16K textures have standard tiles up to mip 6
/// (BC1) or 6 (BC7); coarser mips are in the packed tail.
pub const MIP_COLUMNS: usize = 8;

fn by_mip(per_mip: &[u64]) -> [u64; MIP_COLUMNS] {
    let mut out = [0u64; MIP_COLUMNS];
    for (mip, &n) in per_mip.iter().enumerate() {
        out[mip.min(MIP_COLUMNS - 1)] += n;
    }
    out
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Frame(u64),
    Wake,
    /// Background title `i` enqueues.
    Background(usize),
}

/// The swappable components of a streaming run: the engine's policies and the IO path
/// (drive and MDU models). [`Components::from_scenario`] builds the ones the scenario
/// names; replace any field with your own before [`run_with`].
pub struct Components {
    /// Eviction, load order and feedback policies.
    pub policies: Policies,
    /// DirectStorage queue, staging buffer, drive and MDU.
    pub io: IoPath,
}

impl Components {
    /// The policies the scenario's selectors name and the IO path of its `hardware`.
    pub fn from_scenario(scenario: &Scenario, cfg: &StreamWorkload) -> Result<Components, StreamError> {
        Ok(Components {
            policies: Policies::from_config(&cfg.engine).map_err(|e| e.within("workload.engine"))?,
            io: IoPath::new(&scenario.hardware, scenario.seed)?,
        })
    }
}

/// Runs the engine for the scenario's duration with the components it names. `check` is
/// called after every frame with the engine and renderer (tests verify invariants there).
pub fn run(
    scenario: &Scenario,
    cfg: &StreamWorkload,
    progress: &mut dyn FnMut(Time, Time),
    check: &mut dyn FnMut(&Engine, &FeedbackRenderer),
) -> Result<StreamOutcome, StreamError> {
    run_with(scenario, cfg, Components::from_scenario(scenario, cfg)?, progress, check)
}

/// [`run_spilling`] with spill files in the system's temporary folder.
pub fn run_with(
    scenario: &Scenario,
    cfg: &StreamWorkload,
    components: Components,
    progress: &mut dyn FnMut(Time, Time),
    check: &mut dyn FnMut(&Engine, &FeedbackRenderer),
) -> Result<StreamOutcome, StreamError> {
    run_spilling(scenario, cfg, components, None, progress, check)
}

/// [`run`] with components supplied by the caller (e.g. a policy or drive model written
/// outside the crate); the scenario's selectors and `hardware` are used only through
/// whatever [`Components::from_scenario`] built. Finished frames.csv rows and tiles.csv
/// records are spilled to anonymous files in `spill_dir` (the system's temporary folder
/// when None), so memory does not grow with the run's length.
pub fn run_spilling(
    scenario: &Scenario,
    cfg: &StreamWorkload,
    components: Components,
    spill_dir: Option<std::path::PathBuf>,
    progress: &mut dyn FnMut(Time, Time),
    check: &mut dyn FnMut(&Engine, &FeedbackRenderer),
) -> Result<StreamOutcome, StreamError> {
    let Components { policies, mut io } = components;
    let scene = Scene::build(&cfg.scene).map_err(|e| e.within("workload.scene"))?;
    let render = cfg.as_render();
    let path = cfg.camera.open(&scenario.base_dir, f64::from(cfg.frame_rate)).map_err(RenderError::from)?;
    let mut renderer =
        FeedbackRenderer::new(&scene, &cfg.effective_render(&policies)).map_err(|e| e.within("workload.render"))?;
    renderer.set_feedback_textures(|t| policies.feedback.has_feedback_map(t));
    let mut corrupt: Option<CorruptCheck> = None;
    let (content, mut verifier): (Box<dyn ContentModel>, Option<Verifier>) = match &cfg.content {
        ContentConfig::Synthetic(s) => (Box::new(s.files(&scene.textures)), None),
        ContentConfig::Packed(p) => {
            let packed = std::sync::Arc::new(
                PackedContent::open(p, &scenario.base_dir, &scene.textures).map_err(|e| e.within("workload"))?,
            );
            let full = cfg.mode == StreamMode::Full;
            let verifier = full.then(|| Verifier::new(packed.clone()));
            if full && scenario.hardware.faults.corrupt_rate.is_on() {
                corrupt = Some(CorruptCheck::new(packed.clone()));
            }
            (Box::new(packed), verifier)
        }
    };
    let frame_period = render.frame_time(1);
    let mut engine =
        Engine::new(&cfg.engine, &scene.textures, scenario.hardware.staging, content, policies, frame_period);
    engine.set_report_retries(scenario.hardware.faults.any());
    engine.set_spill_dir(spill_dir.clone());
    engine.init_minmip(&mut renderer);
    engine.load_tails(Time::ZERO, &mut io)?;

    let frames = render.frame_count(scenario.duration);
    let (width, height) = cfg.render.resolution;
    let pixels_per_frame = u64::from(width) * u64::from(height);
    let mut kernel = Kernel::new();
    if frames > 0 {
        kernel.schedule(Time::ZERO, Event::Frame(0));
    }
    let mut background = Background::new(&cfg.background, scenario.seed);
    for i in 0..background.len() {
        kernel.schedule(Time::ZERO, Event::Background(i));
    }
    let mut wake_at: Option<Time> = None;
    let mut rows = FrameRows::new(spill_dir);
    let mut completed: Vec<Completed> = Vec::new();
    let mut records = IoRecords::new((0..frames).map(|n| render.frame_time(n)).collect());
    let (mut nvme_bytes, mut mdu_in, mut mdu_out) = (0u64, 0u64, 0u64);
    let mut totals = FrameStats::default();
    let mut cuts = CutTracker::default();
    let mut requested_so_far = [0u64; MIP_COLUMNS];

    while let Some((now, event)) = kernel.pop() {
        match event {
            Event::Wake if wake_at == Some(now) => wake_at = None,
            Event::Background(i) => {
                let next = background.tick(i, now, &mut io)?;
                if next < scenario.duration {
                    kernel.schedule(next, Event::Background(i));
                }
            }
            _ => {}
        }
        io.process(now, &mut completed);
        for c in completed.drain(..) {
            if background.claim(&c) {
                continue;
            }
            records.request_latencies.push(c.done - c.enqueued);
            if c.status == IoStatus::Corrupt {
                if let (Some(check), Some(id)) = (corrupt.as_mut(), engine.tile_of_request(c.tag)) {
                    check.corrupt_loaded(id.texture, engine.tile_coord(id));
                }
            }
            let tiles = engine.io_completed(&c);
            // Host work on the loaded bytes: simulated time does not move.
            if let Some(v) = verifier.as_mut() {
                for id in tiles {
                    v.tile_loaded(id.texture, engine.tile_coord(id));
                }
            }
        }
        engine.advance(now, &mut io, &mut renderer)?;
        if let Event::Frame(n) = event {
            progress(now, scenario.duration);
            engine.begin_frame(now, &mut renderer)?;
            renderer.clear_feedback();
            let camera = ray_camera(path.as_ref(), &render, n);
            let sampler = renderer.render(&camera, scenario.seed, n, None);
            cuts.frame(camera.position, &sampler);
            let work = FrameWork { pixels: pixels_per_frame, feedback_writes: sampler.feedback_writes };
            engine.end_frame(now, work, renderer.requested_tiles(), &renderer)?;
            // Feedback due this frame is analysed at once if the feedback thread is free.
            engine.advance(now, &mut io, &mut renderer)?;
            for t in io.drain_transfers() {
                nvme_bytes += t.bytes;
                records.transfer(t);
            }
            for j in io.drain_jobs() {
                mdu_in += j.input.0;
                mdu_out += j.output.0;
                records.job(j);
            }
            totals.accumulate(&sampler);
            rows.push(&StreamFrame {
                frame: n,
                time: now,
                sampler,
                // Filled in at the end: the frame's pass may outlast the frame.
                engine: FrameReport::default(),
                tiles_in_flight: engine.tiles_in_flight() as u64,
                pool_used: engine.pool_used(),
                staging_used: engine.staging_used(),
                io_waiting: io.waiting_ios() as u64,
                nvme_bytes: std::mem::take(&mut nvme_bytes),
                mdu_in: std::mem::take(&mut mdu_in),
                mdu_out: std::mem::take(&mut mdu_out),
                resident_by_mip: by_mip(&engine.residency_per_mip()),
                requested_by_mip: {
                    let now_seen = by_mip(engine.access_per_mip());
                    let delta = std::array::from_fn(|m| now_seen[m] - requested_so_far[m]);
                    requested_so_far = now_seen;
                    delta
                },
                bottleneck: Resource::None,
            });
            engine.take_final_reports(&mut |r| rows.push_report(r));
            if let Some(e) = rows.take_error().or_else(|| engine.take_spill_error()) {
                return Err(e.into());
            }
            check(&engine, &renderer);
            if n + 1 < frames {
                kernel.schedule(render.frame_time(n + 1), Event::Frame(n + 1));
            }
        }
        let next = [io.next_wake(), engine.next_event()].into_iter().flatten().min();
        if let Some(next) = next.filter(|&t| t < scenario.duration) {
            if wake_at.is_none_or(|w| next < w) {
                kernel.schedule(next, Event::Wake);
                wake_at = Some(next);
            }
        }
    }
    for t in io.drain_transfers() {
        records.transfer(t);
    }
    for j in io.drain_jobs() {
        records.job(j);
    }
    io.finish(scenario.duration);
    engine.finish_records();
    engine.finish_reports(&mut |r| rows.push_report(r));
    if let Some(e) = engine.take_spill_error().or_else(|| rows.take_error()) {
        return Err(e.into());
    }
    debug_assert_eq!(rows.len(), records.starts().len());
    let mut spill_error = None;
    let loads = engine.tile_db().records().read().map_while(|r| r.map_err(|e| spill_error = Some(e)).ok());
    let bottlenecks = attribution::attribute(
        &attribution::RunShape {
            starts: records.starts(),
            stops: rows.stops(),
            drive_busy: records.drive_busy(),
            mdu_busy: records.mdu_busy(),
            mdu_units: scenario.hardware.mdu.units,
            frame_period,
            readback_frames: cfg.engine.readback_frames,
        },
        loads,
    );
    if let Some(e) = spill_error {
        return Err(e.into());
    }

    // Each component reports its own stats; the order is stats.json's.
    let mut stats = StatSet::default();
    io.push_throughput_stats(&mut stats, scenario.duration);
    stats.push_latency_percentiles_ms("request.latency", &mut records.request_latencies, &LATENCY_POINTS, |n| {
        format!("DirectStorage request latency {n}: enqueue → data in the pool")
    });
    io.push_io_counts(&mut stats);
    io.push_fault_stats(&mut stats, scenario.duration);
    engine.push_stats(&mut stats, frame_period);
    push_bottleneck_stats(&mut stats, &bottlenecks);
    totals.push_quality_stats(&mut stats, "sampled texture reads", "");
    if cfg.render.reuse.is_some() {
        totals.push_reuse_stats(&mut stats);
    }
    cuts.push_stats(&mut stats, frame_period);
    engine.push_mip_stats(&mut stats);
    background.push_stats(&mut stats, scenario.duration);
    if let Some(v) = &verifier {
        v.push_stats(&mut stats);
    }
    if let Some(c) = &corrupt {
        c.push_stats(&mut stats);
    }
    rows.set_bottlenecks(bottlenecks);
    Ok(StreamOutcome {
        stats,
        frames: rows,
        pool_capacity: engine.pool_capacity(),
        tile_latencies: engine.tile_latencies(),
        engine,
        frame_period,
        request_latencies: records.request_latencies,
        trace_spans: records.trace,
        events: kernel.processed(),
        verifier,
    })
}

/// `engine.bottleneck.<resource>`: the share of frames each resource held tiles back most.
fn push_bottleneck_stats(s: &mut StatSet, per_frame: &[Resource]) {
    for (r, share) in Resource::ALL.iter().zip(attribution::shares(per_frame)) {
        s.push(
            &format!("engine.bottleneck.{}", r.name()),
            share,
            "fraction",
            format!("share of frames whose tiles waited most on: {} (shares sum to 1)", r.name()),
        );
    }
}
