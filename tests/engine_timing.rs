//! The engine in closed form: one tile's request → visible time, Timeout and RefCount
//! eviction at exactly their delays — expected values derived from the config defaults,
//! not literals — and extension points that return invalid results stop the run with an
//! error naming texture, tile and rule.

use sfsim::engine::{
    Completions, ContentModel, Engine, EngineConfig, EngineError, EvictionKind, EvictionPolicy, FrameWork, Policies,
    SyntheticContent, TileDb, TileId, TileStream, LATENCY_STAGES,
};
use sfsim::iopath::IoPath;
use sfsim::scenario::Hardware;
use sfsim::scene::{FeedbackRenderer, RenderConfig, Scene};
use sfsim_models::texture::{BcFormat, TileCoord, TILE_BYTES};
use sfsim_models::units::Time;

/// 60 frames per second.
const PERIOD: Time = Time(1_000_000_000_000 / 60);

/// One 1024² BC7 texture set: mip 2 is a single 256² tile, the tail starts at mip 3, so a
/// request for mip 2 touches exactly one tile.
fn scene() -> Scene {
    crate::common::one_bc7_set_scene()
}

const TILE: TileCoord = TileCoord { mip: 2, x: 0, y: 0 };

/// The engine, its IO path and renderer, driven frame by frame like the stream workload.
struct Rig<'s> {
    engine: Engine,
    io: IoPath,
    renderer: FeedbackRenderer<'s>,
    hw: Hardware,
}

impl<'s> Rig<'s> {
    fn new(scene: &'s Scene, cfg: EngineConfig, policies: Policies) -> Rig<'s> {
        let hw = Hardware::default();
        let mut io = IoPath::new(&hw, 1).unwrap();
        let renderer = FeedbackRenderer::new(scene, &RenderConfig::default()).unwrap();
        let mut engine = Engine::new(
            &cfg,
            &scene.textures,
            hw.staging,
            Box::new(SyntheticContent::default().files(&scene.textures)),
            policies,
            PERIOD,
        );
        engine.load_tails(Time::ZERO, &mut io).unwrap();
        Rig { engine, io, renderer, hw }
    }

    /// Handles every IO and engine event up to and including `t`.
    fn advance_to(&mut self, t: Time) {
        let mut done = Vec::new();
        loop {
            let next = [self.io.next_wake(), self.engine.next_event()].into_iter().flatten().min();
            let now = next.filter(|&n| n <= t).unwrap_or(t);
            self.io.process(now, &mut done);
            for c in done.drain(..) {
                self.engine.io_completed(&c);
            }
            self.engine.advance(now, &mut self.io, &mut self.renderer).unwrap();
            if now == t {
                break;
            }
        }
    }

    /// Frame `n`, whose feedback asks for `requested`; the render costs only the GPU's fixed
    /// per-frame time (no pixels, no feedback writes).
    fn frame(&mut self, n: u64, requested: &[(u32, TileCoord)]) -> Result<(), EngineError> {
        let now = Time(PERIOD.0 * n);
        self.advance_to(now);
        self.engine.begin_frame(now, &mut self.renderer)?;
        self.engine.end_frame(now, FrameWork::default(), requested.to_vec(), &self.renderer)?;
        self.engine.advance(now, &mut self.io, &mut self.renderer)
    }

    /// Frames `from..to`, asking for [`TILE`] in `asked` and nothing otherwise.
    fn frames(&mut self, from: u64, to: u64, asked: std::ops::RangeInclusive<u64>) {
        for n in from..to {
            let requested = if asked.contains(&n) { vec![(0, TILE)] } else { Vec::new() };
            self.frame(n, &requested).unwrap();
        }
    }
}

/// The first frame time ≥ `t`.
fn frame_at_or_after(t: Time) -> Time {
    Time(t.0.div_ceil(PERIOD.0) * PERIOD.0)
}

/// One tile's life on the frame timeline, every stage from the config's closed form, for
/// both ways of noticing completions.
fn one_tile_through_every_stage(completions: Completions) {
    let scene = scene();
    let cfg = EngineConfig { completions, ..EngineConfig::default() };
    let mut rig = Rig::new(&scene, cfg, Policies::from_config(&cfg).unwrap());
    let asked = 10; // long after the packed tails arrived
    rig.frames(0, 20, asked..=asked);
    let record = rig.engine.records().unwrap().into_iter().find(|r| rig.engine.tile_coord(r.tile) == TILE).unwrap();

    let stream: TileStream = SyntheticContent::default().files(&[]).stream(0, BcFormat::Bc7, TILE);
    let (nvme, mdu, cpu, gpu) = (&rig.hw.nvme, &rig.hw.mdu, &cfg.cpu, &cfg.gpu);
    let texels: u64 = (0..3)
        .map(|t| {
            let (w, h) = rig.renderer.feedback_dims(t);
            u64::from(w) * u64::from(h)
        })
        .sum();
    let frame_start = |n: u64| Time(PERIOD.0 * n);
    // Nothing is visible or evicted in frame `asked`: its render starts at the frame start.
    let requested = frame_start(asked);
    // Feedback is back two frames later; the feedback thread analyses every texel of the
    // three maps (one Seen tile: nothing to sort), then submits the one load.
    let analysed = frame_start(asked + u64::from(cfg.readback_frames));
    let submitted = analysed + Time(cpu.analysis_per_texel.0 * texels);
    let read = submitted + nvme.per_io + nvme.peak.time_for(stream.compressed) + nvme.latency;
    let decompressed =
        read + mdu.setup + mdu.input.time_for(stream.compressed).max(mdu.output.time_for(stream.uncompressed));
    // The pass ends one submission cost later; its UpdateTileMappings call queues behind
    // that frame's render and feedback resolve on the GPU queue.
    let pass_end = submitted + cpu.submit_per_request;
    let gpu_free = analysed + gpu.frame + Time(gpu.resolve_per_texel.0 * texels);
    let mapped = pass_end.max(gpu_free) + cfg.mapping_call + cfg.mapping_per_tile;
    let ready = decompressed.max(mapped);
    // The MinMip map of texture 0 is rewritten on the CPU and copied to the GPU.
    let (mw, mh) = rig.engine.minmip_dims(0);
    let minmip_texels = u64::from(mw) * u64::from(mh);
    let update = Time(cpu.minmip_per_texel.0 * minmip_texels);
    let copy = Time(gpu.minmip_copy_per_texel.0 * minmip_texels);
    let visible = match completions {
        // Polled at the next frame start; the copy heads that frame's command list.
        Completions::PerFrame => frame_at_or_after(ready) + update + copy,
        // The streaming thread updates at once and uploads on the copy queue.
        Completions::StreamingThread => ready + update + copy,
    };
    assert_eq!(stream.uncompressed.0, TILE_BYTES);
    assert_eq!(record.requested, requested);
    assert_eq!(record.analysed, Some(analysed));
    assert_eq!(record.submitted, Some(submitted));
    assert_eq!(record.issued, Some(submitted), "the drive was idle");
    assert_eq!(record.read, Some(read));
    assert_eq!(record.decompressed, Some(decompressed));
    assert_eq!(record.mapped, Some(mapped));
    assert_eq!(record.visible, Some(visible));
    assert_eq!(rig.engine.loads(), 1);
    // The latency split into its stages, each from the same closed form.
    let stage = |name: &str| {
        let s = LATENCY_STAGES.iter().find(|s| s.name == name).unwrap();
        (s.length)(&record).unwrap()
    };
    assert_eq!(stage("readback"), analysed - requested);
    assert_eq!(stage("cpu_wait"), submitted - analysed);
    assert_eq!(stage("io_queue"), Time::ZERO);
    assert_eq!(stage("drive"), read - submitted);
    assert_eq!(stage("mdu"), decompressed - read);
    assert_eq!(stage("mapping"), mapped.saturating_sub(decompressed));
    assert_eq!(stage("visibility"), visible - ready);
    let sum = LATENCY_STAGES.iter().map(|s| (s.length)(&record).unwrap().0).sum::<u64>();
    assert_eq!(Time(sum), visible - requested);
}

#[test]
fn one_tile_per_frame_polling_is_visible_at_a_render_start() {
    one_tile_through_every_stage(Completions::PerFrame);
}

#[test]
fn one_tile_with_a_streaming_thread_is_visible_when_its_upload_lands() {
    one_tile_through_every_stage(Completions::StreamingThread);
}

#[test]
fn timeout_evicts_at_the_first_frame_more_than_after_past_the_last_analysis_of_it() {
    let scene = scene();
    let after = EvictionKind::default();
    let EvictionKind::Timeout { after: timeout } = after else { panic!("the default is Timeout") };
    let cfg = EngineConfig { eviction: after, ..EngineConfig::default() };
    let mut rig = Rig::new(&scene, cfg, Policies::from_config(&cfg).unwrap());
    let last = 30;
    // Its expiry timestamp is refreshed when frame `last`'s feedback is analysed, at the
    // start of frame last + readback_frames (the feedback thread is idle).
    let expected = last + u64::from(cfg.readback_frames) + timeout.0 / PERIOD.0 + 1;
    rig.frames(0, expected + 5, 10..=last);
    let record = rig.engine.records().unwrap().into_iter().find(|r| rig.engine.tile_coord(r.tile) == TILE).unwrap();
    assert!(record.visible.is_some());
    assert_eq!(record.evicted, Some(Time(PERIOD.0 * expected)), "evicted after {timeout} unseen");
    assert_eq!(rig.engine.evictions(), 1);
}

#[test]
fn refcount_evicts_after_exactly_its_unreferenced_frames() {
    let scene = scene();
    let frames = 30;
    let eviction = EvictionKind::RefCount { frames, seen_horizon: Time::from_secs(1) };
    let cfg = EngineConfig { eviction, ..EngineConfig::default() };
    let mut rig = Rig::new(&scene, cfg, Policies::from_config(&cfg).unwrap());
    let last = 20;
    // The analysis at frame f reads frame f − readback's feedback; the count passes
    // `frames` at the analysis of frame last + readback + frames + 1; eviction is at the
    // next frame start.
    let expected = last + u64::from(cfg.readback_frames) + u64::from(frames) + 2;
    rig.frames(0, expected + 5, 10..=last);
    let record = rig.engine.records().unwrap().into_iter().find(|r| rig.engine.tile_coord(r.tile) == TILE).unwrap();
    assert!(record.visible.is_some());
    assert_eq!(record.evicted, Some(Time(PERIOD.0 * expected)));
}

/// A policy that names a tile that is not resident.
struct EvictsAbsentTiles;

impl EvictionPolicy for EvictsAbsentTiles {
    fn name(&self) -> &'static str {
        "EvictsAbsentTiles"
    }
    fn seen_horizon(&self) -> Time {
        Time::from_secs(1)
    }
    fn victims(&mut self, _now: Time, db: &TileDb, _resident: &[TileId]) -> Vec<TileId> {
        vec![db.id(1, TileCoord { mip: 0, x: 1, y: 1 })]
    }
}

#[test]
fn a_policy_naming_a_tile_that_is_not_resident_is_an_error_naming_it() {
    let scene = scene();
    let cfg = EngineConfig::default();
    let policies = Policies { eviction: Box::new(EvictsAbsentTiles), ..Policies::from_config(&cfg).unwrap() };
    let mut rig = Rig::new(&scene, cfg, policies);
    let err = rig.frame(0, &[]).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, EngineError::Policy { .. }), "{err:?}");
    assert!(
        text.contains("EvictsAbsentTiles") && text.contains("texture 1") && text.contains("not Resident"),
        "{text}"
    );
}

/// A content model whose streams do not shrink (a DirectStorage rule for zlib).
struct IncompressibleButZlib;

impl ContentModel for IncompressibleButZlib {
    fn stream(&self, texture: u32, format: BcFormat, tile: TileCoord) -> TileStream {
        let good = SyntheticContent::default().files(&[]).stream(texture, format, tile);
        TileStream { compressed: good.uncompressed, intermediate: sfsim_models::units::Bytes(0), ..good }
    }
}

#[test]
fn a_content_model_making_an_invalid_request_is_an_error_naming_texture_and_tile() {
    let scene = scene();
    let cfg = EngineConfig::default();
    let hw = Hardware::default();
    let mut io = IoPath::new(&hw, 1).unwrap();
    let mut engine = Engine::new(
        &cfg,
        &scene.textures,
        hw.staging,
        Box::new(IncompressibleButZlib),
        Policies::from_config(&cfg).unwrap(),
        PERIOD,
    );
    let err = engine.load_tails(Time::ZERO, &mut io).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, EngineError::InvalidRequest { texture: 0, .. }), "{err:?}");
    assert!(text.contains("texture 0") && text.contains("packed tail") && text.contains("mip: 3"), "{text}");
}

/// A feedback policy whose group names a texture the scene does not have.
struct GroupsWithAStranger;

impl sfsim::engine::FeedbackPolicy for GroupsWithAStranger {
    fn name(&self) -> &'static str {
        "GroupsWithAStranger"
    }
    fn group(&self, texture: u32, _textures: u32) -> sfsim::engine::TextureGroup {
        sfsim::engine::TextureGroup::of(&[texture, 99])
    }
}

#[test]
fn a_feedback_group_naming_a_texture_outside_the_scene_is_an_error() {
    let scene = scene();
    let cfg = EngineConfig::default();
    let policies = Policies { feedback: Box::new(GroupsWithAStranger), ..Policies::from_config(&cfg).unwrap() };
    let mut rig = Rig::new(&scene, cfg, policies);
    rig.frame(0, &[(0, TILE)]).unwrap();
    rig.frame(1, &[]).unwrap();
    let err = rig.frame(2, &[]).unwrap_err().to_string();
    assert!(err.contains("GroupsWithAStranger") && err.contains("texture 99") && err.contains("0..=2"), "{err}");
}
