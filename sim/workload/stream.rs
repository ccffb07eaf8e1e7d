//! The streaming workload: the SFS engine co-simulated with the IO path (NVMe → MDU) and
//! the ray-cast sampler over a camera path. One kernel orders frames, IO wake-ups and
//! UpdateTileMappings completions.

use crate::camera::CameraSource;
use crate::engine::{
    Bottleneck, ContentConfig, ContentModel, Engine, EngineConfig, FrameReport, PackedContent, SyntheticContent,
    Verifier,
};
use crate::iopath::{Completed, IoPath};
use crate::kernel::Kernel;
use crate::scenario::Scenario;
use crate::scene::{FeedbackRenderer, FrameStats, RenderConfig, Scene, SceneConfig, TextureKind};
use crate::stats::{percentile, StatSet, LATENCY_POINTS};
use crate::workload::render::{ray_camera, RenderError, RenderWorkload};
use serde::{Deserialize, Serialize};
use sfsim_models::mdu::JobDone;
use sfsim_models::nvme::Transfer;
use sfsim_models::texture::TileCoord;
use sfsim_models::units::Time;
use sfsim_models::ConfigError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StreamWorkload {
    pub scene: SceneConfig,
    pub camera: CameraSource,
    /// Frames per second (60).
    pub frame_rate: u32,
    pub render: RenderConfig,
    pub engine: EngineConfig,
    /// Per-tile compressed sizes and options: a synthetic model or real containers.
    pub content: ContentConfig,
    /// Full (default) or timing-only simulation.
    pub mode: StreamMode,
}

/// How much a streaming run computes besides its timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum StreamMode {
    /// Everything: timing, the visual-quality measurement (effective LOD after the MinMip
    /// clamp, `quality.*` stats) and, for packed content, verification of loaded tiles.
    #[default]
    Full,
    /// Only what decides when tiles are requested, loaded and visible: the sampler still
    /// computes every desired LOD and writes feedback, but reads no MinMip clamp, and packed
    /// tiles are not decoded to verify them. Every stat but `quality.*` (null here) and
    /// `content.*` (absent) is byte-identical to a full run's.
    TimingOnly,
}

impl Default for StreamWorkload {
    fn default() -> Self {
        let r = RenderWorkload::default();
        StreamWorkload {
            scene: r.scene,
            camera: r.camera,
            frame_rate: r.frame_rate,
            render: r.render,
            engine: EngineConfig::default(),
            content: ContentConfig::Synthetic(SyntheticContent::default()),
            mode: StreamMode::Full,
        }
    }
}

impl StreamWorkload {
    /// The render part, for the sampler helpers shared with the render workload.
    pub fn as_render(&self) -> RenderWorkload {
        RenderWorkload {
            scene: self.scene.clone(),
            camera: self.camera.clone(),
            frame_rate: self.frame_rate,
            render: self.render,
        }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.as_render().validate()?;
        self.engine.validate().map_err(|e| e.within("engine"))?;
        self.content.validate().map_err(|e| e.within("content"))
    }

    /// The render config with the engine's feedback policy applied.
    fn effective_render(&self) -> RenderConfig {
        let mut r = self.render;
        if self.engine.feedback == crate::engine::FeedbackPolicy::Coarse2x2 {
            r.feedback.tiles_per_texel = 2;
        }
        r.measure_quality = self.mode == StreamMode::Full;
        r
    }
}

/// One row of frames.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamFrame {
    pub frame: u64,
    pub time: Time,
    pub sampler: FrameStats,
    pub engine: FrameReport,
    pub tiles_in_flight: u64,
    pub pool_used: u32,
    pub staging_used: u64,
    pub io_waiting: u64,
    pub nvme_bytes: u64,
    pub mdu_in: u64,
    pub mdu_out: u64,
}

impl StreamOutcome {
    /// Tile coordinates of a database id.
    pub fn engine_tile_coord(&self, id: crate::engine::TileId) -> TileCoord {
        self.engine.tile_coord(id)
    }
}

pub struct StreamOutcome {
    pub stats: StatSet,
    pub frames: Vec<StreamFrame>,
    pub engine: Engine,
    pub pool_capacity: u32,
    pub frame_period: Time,
    pub request_latencies: Vec<Time>,
    pub tile_latencies: Vec<Time>,
    pub transfers: Vec<Transfer>,
    pub jobs: Vec<JobDone>,
    pub events: u64,
    /// Packed content's verification counts (None for synthetic content).
    pub verifier: Option<Verifier>,
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Frame(u64),
    Wake,
}

/// Runs the engine for the scenario's duration. `check` is called after every frame with
/// the engine and renderer (tests verify invariants there).
pub fn run(
    scenario: &Scenario,
    cfg: &StreamWorkload,
    progress: &mut dyn FnMut(Time, Time),
    check: &mut dyn FnMut(&Engine, &FeedbackRenderer),
) -> Result<StreamOutcome, RenderError> {
    let scene = Scene::build(&cfg.scene).map_err(|e| e.within("workload.scene"))?;
    let render = cfg.as_render();
    let path = cfg.camera.open(&scenario.base_dir, f64::from(cfg.frame_rate))?;
    let mut renderer =
        FeedbackRenderer::new(&scene, &cfg.effective_render()).map_err(|e| e.within("workload.render"))?;
    if cfg.engine.feedback == crate::engine::FeedbackPolicy::SharedPerSet {
        renderer.set_feedback_textures(|t| t % 3 == TextureKind::Diffuse as u32);
    }
    let mut io = IoPath::new(&scenario.hardware, scenario.seed)?;
    let (content, mut verifier): (Box<dyn ContentModel>, Option<Verifier>) = match &cfg.content {
        ContentConfig::Synthetic(s) => (Box::new(*s), None),
        ContentConfig::Packed(p) => {
            let packed = std::sync::Arc::new(
                PackedContent::open(p, &scenario.base_dir, &scene.textures).map_err(|e| e.within("workload"))?,
            );
            let verifier = (cfg.mode == StreamMode::Full).then(|| Verifier::new(packed.clone()));
            (Box::new(packed), verifier)
        }
    };
    let mut engine = Engine::new(&cfg.engine, &scene, scenario.hardware.staging, content);
    engine.init_minmip(&mut renderer);
    engine.load_tails(Time::ZERO, &mut io);

    let frames = render.frame_count(scenario.duration);
    let mut kernel = Kernel::new();
    if frames > 0 {
        kernel.schedule(Time::ZERO, Event::Frame(0));
    }
    let mut wake_at: Option<Time> = None;
    let mut rows = Vec::with_capacity(frames as usize);
    let mut completed: Vec<Completed> = Vec::new();
    let mut request_latencies = Vec::new();
    let (mut transfers, mut jobs) = (Vec::new(), Vec::new());
    let (mut nvme_bytes, mut mdu_in, mut mdu_out) = (0u64, 0u64, 0u64);
    let mut totals = FrameStats::default();

    while let Some((now, event)) = kernel.pop() {
        if let Event::Wake = event {
            if wake_at == Some(now) {
                wake_at = None;
            }
        }
        io.process(now, &mut completed);
        for c in completed.drain(..) {
            request_latencies.push(c.done - c.enqueued);
            let tiles = engine.io_completed(&c);
            // Host work on the loaded bytes: simulated time does not move.
            if let Some(v) = verifier.as_mut() {
                for id in tiles {
                    v.tile_loaded(id.texture, engine.tile_coord(id));
                }
            }
        }
        engine.mappings_done(now);
        if let Event::Frame(n) = event {
            progress(now, scenario.duration);
            let mut report = FrameReport::default();
            engine.begin_frame(now, &mut renderer, &mut io, &mut report);
            renderer.clear_feedback();
            let camera = ray_camera(path.as_ref(), &render, n);
            let sampler = renderer.render(&camera, scenario.seed, n, None);
            engine.end_frame(now, renderer.requested_tiles(), &mut io, &mut renderer, &mut report);
            for t in io.drain_transfers() {
                nvme_bytes += t.bytes;
                transfers.push(t);
            }
            for j in io.drain_jobs() {
                mdu_in += j.input.0;
                mdu_out += j.output.0;
                jobs.push(j);
            }
            totals.accumulate(&sampler);
            rows.push(StreamFrame {
                frame: n,
                time: now,
                sampler,
                engine: report,
                tiles_in_flight: engine.tiles_in_flight() as u64,
                pool_used: engine.pool_used(),
                staging_used: engine.staging_used(),
                io_waiting: io.waiting_ios() as u64,
                nvme_bytes: std::mem::take(&mut nvme_bytes),
                mdu_in: std::mem::take(&mut mdu_in),
                mdu_out: std::mem::take(&mut mdu_out),
            });
            check(&engine, &renderer);
            if n + 1 < frames {
                kernel.schedule(render.frame_time(n + 1), Event::Frame(n + 1));
            }
        }
        let next = [io.next_wake(), engine.next_mapping_event()].into_iter().flatten().min();
        if let Some(next) = next.filter(|&t| t < scenario.duration) {
            if wake_at.is_none_or(|w| next < w) {
                kernel.schedule(next, Event::Wake);
                wake_at = Some(next);
            }
        }
    }
    for t in io.drain_transfers() {
        transfers.push(t);
    }
    jobs.extend(io.drain_jobs());
    io.finish(scenario.duration);

    let frame_period = render.frame_time(1);
    let mut tile_latencies: Vec<Time> =
        engine.records.iter().filter_map(|r| r.visible.map(|v| v.saturating_sub(r.requested))).collect();
    tile_latencies.sort_unstable();
    request_latencies.sort_unstable();
    let mut stats =
        collect(scenario, &scene, &engine, &io, &rows, &totals, &request_latencies, &tile_latencies, frame_period);
    if let Some(v) = &verifier {
        stats.push(
            "content.verified_tiles",
            Some(v.verified as f64),
            "count",
            "loaded tiles decoded through the functional MDU and hash-checked",
        );
        stats.push(
            "content.hash_mismatches",
            Some(v.mismatches as f64),
            "count",
            "verified tiles that failed to decode or whose hash differs from the container's",
        );
    }
    let pool_capacity = engine.pool_capacity();
    Ok(StreamOutcome {
        stats,
        frames: rows,
        engine,
        pool_capacity,
        frame_period,
        request_latencies,
        tile_latencies,
        transfers,
        jobs,
        events: kernel.processed(),
        verifier,
    })
}

#[allow(clippy::too_many_arguments)]
fn collect(
    scenario: &Scenario,
    scene: &Scene,
    engine: &Engine,
    io: &IoPath,
    rows: &[StreamFrame],
    totals: &FrameStats,
    request_latencies: &[Time],
    tile_latencies: &[Time],
    frame_period: Time,
) -> StatSet {
    let n = rows.len().max(1) as f64;
    let mut s = StatSet::default();
    io.push_throughput_stats(&mut s, scenario.duration);

    s.push_percentiles_ms("request.latency", request_latencies, &LATENCY_POINTS, |n| {
        format!("DirectStorage request latency {n}: enqueue → data in the pool")
    });
    s.push_percentiles_ms("tile.latency", tile_latencies, &LATENCY_POINTS[..3], |n| {
        format!("tile latency {n}: frame whose feedback first asked for it → visible")
    });
    s.push(
        "tile.latency_frames.p95",
        percentile(tile_latencies, 95).map(|t| t.0 as f64 / frame_period.0 as f64),
        "frames",
        "tile latency p95 in frames",
    );
    s.push("engine.loads", Some(engine.total_loads as f64), "count", "DirectStorage tile loads submitted");
    s.push(
        "engine.tail_bytes",
        Some(engine.tail_bytes as f64 / 1e6),
        "MB",
        "compressed packed mip tails read at texture creation",
    );
    s.push(
        "engine.tails_loaded_at",
        engine.tails_loaded_at.map(|t| t.as_ms_f64()),
        "ms",
        "when the last packed mip tail reached memory",
    );
    s.push("engine.evictions", Some(engine.total_evictions as f64), "count", "tiles evicted (unmapped and freed)");
    s.push(
        "engine.tiles_loaded",
        Some(engine.records.iter().filter(|r| r.visible.is_some()).count() as f64),
        "count",
        "tile loads that became visible",
    );
    s.push(
        "engine.tiles_in_flight.max",
        Some(rows.iter().map(|r| r.tiles_in_flight).max().unwrap_or(0) as f64),
        "tiles",
        "most tiles between submission and completion at a frame start",
    );
    s.push(
        "engine.tiles_in_flight.mean",
        Some(rows.iter().map(|r| r.tiles_in_flight as f64).sum::<f64>() / n),
        "tiles",
        "tiles in flight, mean over frames",
    );
    s.push("pool.capacity", Some(f64::from(engine.pool_capacity())), "tiles", "64 KiB slots in the tile pool");
    s.push(
        "pool.occupancy.max",
        Some(rows.iter().map(|r| r.pool_used).max().unwrap_or(0) as f64 / f64::from(engine.pool_capacity()).max(1.0)),
        "fraction",
        "highest share of pool slots in use",
    );
    s.push(
        "pool.occupancy.final",
        Some(f64::from(engine.pool_used()) / f64::from(engine.pool_capacity()).max(1.0)),
        "fraction",
        "share of pool slots in use at the end",
    );
    s.push(
        "scene.virtual_size",
        Some(scene.virtual_bytes() as f64 / 1e9),
        "GB",
        "total virtual size of all textures (tiles × 64 KiB)",
    );
    for b in [Bottleneck::Nothing, Bottleneck::Staging, Bottleneck::Pool, Bottleneck::UploadCap] {
        let count = rows.iter().filter(|r| r.engine.bottleneck == Some(b)).count();
        s.push(
            &format!("engine.bottleneck.{}", b.name()),
            Some(count as f64 / n),
            "fraction",
            format!("share of frames whose next load was stopped by: {}", b.name()),
        );
    }
    let cpu = |f: fn(&FrameReport) -> Time| rows.iter().map(|r| f(&r.engine).as_ms_f64()).sum::<f64>() / n;
    s.push(
        "cpu.analysis",
        Some(cpu(|r| r.cpu_analysis)),
        "ms/frame",
        "modeled CPU time of feedback analysis per frame",
    );
    s.push("cpu.sort", Some(cpu(|r| r.cpu_sort)), "ms/frame", "modeled CPU time of sorting Seen Tiles per frame");
    s.push(
        "cpu.submit",
        Some(cpu(|r| r.cpu_submit)),
        "ms/frame",
        "modeled CPU time of building DirectStorage requests per frame",
    );
    s.push("cpu.minmip", Some(cpu(|r| r.cpu_minmip)), "ms/frame", "modeled CPU time of MinMip updates per frame");
    s.push(
        "quality.lod_deficit.mean",
        totals.mean_lod_deficit(),
        "mips",
        "mean effective − desired LOD over sampled texture reads",
    );
    s.push(
        "quality.blurry_share",
        totals.blurry_share(),
        "fraction",
        "sampled texture reads at least one mip blurrier than desired",
    );
    for (mip, count) in engine.residency_per_mip().iter().enumerate().filter(|(_, c)| **c > 0) {
        s.push(
            &format!("residency.mip{mip}"),
            Some(*count as f64),
            "tiles",
            format!("tiles of mip {mip} resident at the end"),
        );
    }
    for (mip, count) in engine.access_per_mip.iter().enumerate().filter(|(_, c)| **c > 0) {
        s.push(
            &format!("access.mip{mip}"),
            Some(*count as f64),
            "requests",
            format!("feedback requests for mip {mip} tiles (parents included)"),
        );
    }
    s
}
