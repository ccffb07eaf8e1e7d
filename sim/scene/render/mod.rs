//! The ray-cast sampler: for the pixels a frame's [`SamplePattern`] picks, cast a ray, and
//! for every texture of the hit material compute the desired LOD (written to that
//! texture's MinMip feedback map) and the effective LOD after its MinMip clamp (what the
//! sample really reads; the gap is the visual-quality cost of missing tiles).

mod merge;
mod pattern_ahead;
mod recent;
mod reuse;
mod tiles;
mod trace;
mod twins;

use super::requests::{FirstWrites, TileSet};
use super::visibility::Visibility;
use super::{RayCamera, SamplePattern, Scene};
use merge::FeedbackSink;
use pattern_ahead::PatternAhead;
use reuse::ReuseState;
pub use reuse::TemporalReuse;
use serde::{Deserialize, Serialize};
use sfsim_models::gpu::{
    FeedbackArray, FeedbackLayout, Filter, FootprintRegions, Lod53, MinMipFeedbackSlice, MinMipMap,
    MipRegionUsedFeedback, PreparedSampler, ReadRegions, ResidencyCheck, SamplerDesc, SmallTailPolicy, TexelLocator,
};
use sfsim_models::texture::TileGrid;
use sfsim_models::ConfigError;
use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use trace::{Chunk, MaterialTexture, CHUNK};

/// The most chunks (bands of block rows) a frame is cut into.
const MAX_CHUNKS: u32 = 256;

/// Which mips are resident when no streaming engine runs (the engine drives the MinMip
/// maps itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Residency {
    /// Only the packed mip tail: MinMip maps hold the first packed mip (a texture just
    /// created, SPEC §5 step 1).
    #[default]
    TailOnly,
    /// Every mip resident: MinMip maps hold 0, effective LOD = desired LOD.
    All,
}

/// The feedback map format (D3D12 `DXGI_FORMAT_SAMPLER_FEEDBACK_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FeedbackKind {
    /// The finest LOD requested per region, 5.3 fixed point, atomic-min (the sample's).
    #[default]
    MinMip,
    /// One bit per (region, mip) the filter footprint used.
    MipRegionUsed,
}

/// Which feedback texels a sample writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FeedbackWrites {
    /// Every feedback texel any texel of the filter footprint overlaps (conservative).
    #[default]
    Footprint,
    /// Only the texel holding the sample's UV — the D3D12 spec's pseudo-code. With
    /// tile-sized regions it differs only where a footprint crosses a region border, and it
    /// skips building footprints: the fast, timing-oriented choice.
    Location,
}

/// Sampler-feedback settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FeedbackConfig {
    /// Feedback is written for one pixel in `one_in` (128, the sample's rate; a power of
    /// two, 1 = every pixel).
    pub one_in: u32,
    /// Mip region (mip-0 texels per feedback texel, powers of two); `None` = one feedback
    /// texel per 64 KiB tile of mip 0, the sample's choice.
    pub region: Option<(u32, u32)>,
    /// What small tail mips record (D3D12 leaves it to the hardware).
    pub small_tail: SmallTailPolicy,
    /// Feedback map format (MinMip).
    pub kind: FeedbackKind,
    /// Which texels a sample writes (Footprint).
    pub writes: FeedbackWrites,
    /// With `region: None`, one feedback texel per `tiles_per_texel` × `tiles_per_texel`
    /// tiles of mip 0 (1; 2 = the "coarser feedback" improvement, −75 % texels).
    pub tiles_per_texel: u32,
}

impl Default for FeedbackConfig {
    fn default() -> Self {
        FeedbackConfig {
            one_in: 128,
            region: None,
            small_tail: SmallTailPolicy::Exact,
            kind: FeedbackKind::MinMip,
            writes: FeedbackWrites::Footprint,
            tiles_per_texel: 1,
        }
    }
}

/// Everything the sampler needs besides the scene and the camera.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RenderConfig {
    /// Render target width and height in pixels (1920 × 1080).
    pub resolution: (u32, u32),
    pub feedback: FeedbackConfig,
    /// The material sampler (anisotropic 16×, no bias, point-sampled MinMip clamp).
    pub sampler: SamplerDesc,
    pub residency: Residency,
    /// Approximate timing-only sampling (`None`, exact): trace each sample cell once every
    /// `frames` frames and reuse its feedback writes in between while the camera moves
    /// less than `max_motion` pixels (issue 17's separate, inexact mode; README
    /// "Approximate timing-only runs"). Needs a Stream workload with `mode: TimingOnly`
    /// and `feedback.writes: Location`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reuse: Option<TemporalReuse>,
    /// Whether each texture read also looks up its MinMip clamp to measure the effective
    /// LOD (the visual-quality statistics). Nothing else reads the effective LOD, so a
    /// timing-only run (the stream workload's `mode: TimingOnly`) turns it off; set
    /// through that mode, not in scenario files.
    #[serde(skip)]
    pub measure_quality: bool,
}

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            resolution: (1920, 1080),
            feedback: FeedbackConfig::default(),
            sampler: SamplerDesc::new(Filter::Anisotropic { max_aniso: 16 }),
            residency: Residency::TailOnly,
            reuse: None,
            measure_quality: true,
        }
    }
}

impl RenderConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (w, h) = self.resolution;
        if !(1..=16_384).contains(&w) || !(1..=16_384).contains(&h) {
            return Err(ConfigError::new("resolution", format!("({w}, {h}) is out of range; expected 1..=16384 each")));
        }
        if !matches!(self.feedback.tiles_per_texel, 1 | 2 | 4) {
            return Err(ConfigError::new(
                "feedback.tiles_per_texel",
                format!("{} is out of range; expected 1, 2 or 4", self.feedback.tiles_per_texel),
            ));
        }
        if SamplePattern::new(self.feedback.one_in).is_none() {
            return Err(ConfigError::new(
                "feedback.one_in",
                format!("{} must be a power of two in 1..=65536", self.feedback.one_in),
            ));
        }
        if let Some(reuse) = &self.reuse {
            reuse.validate().map_err(|e| e.within("reuse"))?;
        }
        self.sampler.validate().map_err(|e| ConfigError::new("sampler", e.to_string()))
    }

    /// Why `reuse` cannot run with these settings (it reuses location feedback values
    /// and nothing else), or `None` when it can or is off.
    pub fn reuse_conflict(&self) -> Option<String> {
        let reuse = self.reuse?;
        let problem = if self.measure_quality {
            "measures quality (a full Stream run, or a Render workload)"
        } else if self.feedback.writes != FeedbackWrites::Location {
            "writes feedback over the footprint"
        } else if self.feedback.kind != FeedbackKind::MinMip {
            "writes MipRegionUsed feedback"
        } else {
            return None;
        };
        Some(format!(
            "Some((frames: {}, max_motion: {})) is for Stream workloads with mode: TimingOnly and MinMip feedback \
             at the location (render.feedback.writes: Location), but this run {problem}; expected None",
            reuse.frames, reuse.max_motion
        ))
    }
}

/// What one frame's sampling saw.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameStats {
    /// Pixels sampled.
    pub samples: u64,
    /// Sampled pixels that hit an object.
    pub hits: u64,
    /// Texture samples (hits × textures per material).
    pub texture_samples: u64,
    /// Texture samples that wrote sampler feedback (their texture has a feedback map).
    pub feedback_writes: u64,
    /// Texture samples whose effective LOD was measured: all of them, or none when the
    /// quality measurement is off (`RenderConfig::measure_quality`).
    pub quality_samples: u64,
    /// Sum over measured texture samples of effective − desired LOD (mips).
    pub lod_deficit_sum: f64,
    /// Measured texture samples at least one mip blurrier than desired.
    pub blurry: u64,
    /// Measured texture samples whose read (the footprint at the effective LOD) touches a
    /// texel of a tile the texture's MinMip map does not have resident, with the
    /// configured sampler's MinMip clamp.
    pub nonresident_reads: u64,
    /// The same count on the same frame had the MinMip clamp been point sampled: equal to
    /// `nonresident_reads` when the sampler has no MinMip filter.
    pub nonresident_reads_point: u64,
    /// Measured texture samples per effective mip, `floor(effective LOD)` (15 and above in
    /// the last entry).
    pub reads_by_mip: [u64; READ_MIPS],
    /// Samples whose feedback writes were reused from an earlier frame instead of traced
    /// (`render.reuse`; counted in `samples`, `hits` and the writes as if traced).
    pub reused_samples: u64,
}

/// Entries of [`FrameStats::reads_by_mip`]: mips 0..=15.
pub const READ_MIPS: usize = 16;

impl FrameStats {
    /// Share of measured texture samples at least one mip blurrier than desired; `None`
    /// without any.
    pub fn blurry_share(&self) -> Option<f64> {
        (self.quality_samples > 0).then(|| self.blurry as f64 / self.quality_samples as f64)
    }

    /// Mean effective − desired LOD over measured texture samples (mips); `None` without any.
    pub fn mean_lod_deficit(&self) -> Option<f64> {
        (self.quality_samples > 0).then(|| self.lod_deficit_sum / self.quality_samples as f64)
    }

    /// Share of measured texture samples that touch a non-resident tile, with the
    /// configured MinMip clamp and with a point-sampled one; `None` without any.
    pub fn nonresident_shares(&self) -> Option<(f64, f64)> {
        (self.quality_samples > 0).then(|| {
            let n = self.quality_samples as f64;
            (self.nonresident_reads as f64 / n, self.nonresident_reads_point as f64 / n)
        })
    }

    /// `quality.lod_deficit.mean`, `quality.blurry_share` and the `quality.nonresident_*`
    /// stats over these counts (null without measured samples); `what` names the samples
    /// ("texture samples"), `note` is appended to the deficit's description.
    pub fn push_quality_stats(&self, s: &mut crate::stats::StatSet, what: &str, note: &str) {
        s.push(
            "quality.lod_deficit.mean",
            self.mean_lod_deficit(),
            "mips",
            format!("mean effective − desired LOD over {what}{note}"),
        );
        s.push(
            "quality.blurry_share",
            self.blurry_share(),
            "fraction",
            format!("{what} at least one mip blurrier than desired"),
        );
        let measured = self.quality_samples > 0;
        s.push(
            "quality.nonresident_reads",
            measured.then_some(self.nonresident_reads as f64),
            "count",
            format!("{what} whose filter footprint touches a tile the MinMip map has not resident"),
        );
        let shares = self.nonresident_shares();
        s.push(
            "quality.nonresident_share",
            shares.map(|(configured, _)| configured),
            "fraction",
            format!("{what} touching a non-resident tile, with the sampler's MinMip clamp"),
        );
        s.push(
            "quality.nonresident_share_point",
            shares.map(|(_, point)| point),
            "fraction",
            format!("{what} touching a non-resident tile had the MinMip clamp been point sampled"),
        );
    }

    /// `render.reused_share`: the share of samples whose feedback writes were reused
    /// (`render.reuse`).
    pub fn push_reuse_stats(&self, s: &mut crate::stats::StatSet) {
        s.push(
            "render.reused_share",
            (self.samples > 0).then(|| self.reused_samples as f64 / self.samples as f64),
            "fraction",
            "sampled pixels whose feedback writes were reused from an earlier frame (render.reuse) instead of traced",
        );
    }

    /// Adds another frame's (or chunk's) counts.
    pub fn accumulate(&mut self, other: &FrameStats) {
        self.samples += other.samples;
        self.hits += other.hits;
        self.texture_samples += other.texture_samples;
        self.feedback_writes += other.feedback_writes;
        self.quality_samples += other.quality_samples;
        self.lod_deficit_sum += other.lod_deficit_sum;
        self.blurry += other.blurry;
        self.nonresident_reads += other.nonresident_reads;
        self.nonresident_reads_point += other.nonresident_reads_point;
        self.reused_samples += other.reused_samples;
        for (a, b) in self.reads_by_mip.iter_mut().zip(&other.reads_by_mip) {
            *a += b;
        }
    }
}

/// One sampled pixel's view of the first texture of its material (for pictures).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelLods {
    pub x: u32,
    pub y: u32,
    pub texture: u32,
    pub desired: f32,
    pub effective: f32,
}

/// Per-texture feedback maps (slices of arrays of equal size) and MinMip maps.
pub struct FeedbackRenderer<'s> {
    scene: &'s Scene,
    cfg: RenderConfig,
    pattern: SamplePattern,
    layouts: Vec<FeedbackLayout>,
    /// Timing only with MinMip feedback at the location: a texture read yields only the
    /// value it writes (see `trace`).
    feedback_value_only: bool,
    /// Each layout's sample-location lookup, its constants worked out once.
    locators: Vec<TexelLocator>,
    /// Per texture, its footprints' feedback rectangles (feedback over the footprint).
    footprint_regions: Vec<FootprintRegions>,
    arrays: Vec<FeedbackArray>,
    /// (array, slice) of each texture's feedback map.
    slots: Vec<(usize, u32)>,
    /// MipRegionUsed maps, one per texture, when that is the feedback format.
    region_used: Vec<MipRegionUsedFeedback>,
    minmip: Vec<MinMipMap>,
    /// Textures whose samples write feedback (all by default).
    writes_feedback: Vec<bool>,
    /// Per texture, what decides whether its feedback is another's (see `twins`).
    twin_keys: Vec<twins::TwinKey>,
    /// Per texture, the lower texture whose MinMip feedback it mirrors after each frame's
    /// merge instead of writing its own (`None`: it writes its own): the twin relations
    /// that have held without a break since the last clear (see `twins::refresh_twins`).
    twin_of: Vec<Option<u32>>,
    /// The twins the textures that write feedback now would make.
    twin_candidates: Vec<Option<u32>>,
    /// Per texture, where its MinMip feedback goes (`None`: it writes none).
    minmip_targets: Vec<Option<merge::MinMipTarget>>,
    /// Each texture's sampler, checked once.
    samplers: Vec<PreparedSampler>,
    /// Each texture's tile shape and packed tail, to test reads against its MinMip map.
    residency: Vec<ResidencyCheck>,
    /// Per texture: the MinMip covers of its reads, for the quality check.
    read_regions: Vec<ReadRegions>,
    /// Per texture: whether an unclamped read's covers are its feedback rectangles.
    feedback_covers_reads: Vec<bool>,
    /// Per shape, its material's textures (the scene's `textures_of`, with classes).
    materials: Vec<Vec<MaterialTexture>>,
    /// Each texture's requested tiles, filled and drained by `requested_tiles`.
    tile_sets: Vec<TileSet>,
    /// With MinMip feedback: per texture, the texels (x | y << 16)
    /// first written since the clear, so finding the requested tiles reads only those.
    first_writes: Option<Vec<FirstWrites>>,
    /// Textures whose feedback maps were written since the last clear (without first-write
    /// lists; with them, a texture was written when its list is not empty).
    written: Vec<bool>,
    /// Per-frame buffers, kept so that a frame allocates nothing once warm.
    frame: FrameBuffers,
    /// With `reuse`: which cells were traced when, and what they wrote.
    reuse: Option<ReuseState>,
    /// On several cores, the next frame's sample pattern, drawn by a worker meanwhile.
    pattern_ahead: PatternAhead,
    /// `requested_tiles`' scratch: where each texture's tiles are in its output.
    tile_ranges: Vec<std::ops::Range<usize>>,
}

#[derive(Default)]
struct FrameBuffers {
    pixels: Vec<(u32, u32)>,
    visibility: Visibility,
    /// Chunk buffers: one per chunk of the frame on several cores (a worker fills one while
    /// the calling thread merges another), one in all on one core.
    traced: Vec<Mutex<Chunk>>,
}

impl<'s> FeedbackRenderer<'s> {
    pub fn new(scene: &'s Scene, cfg: &RenderConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        if let Some(conflict) = cfg.reuse_conflict() {
            return Err(ConfigError::new("reuse", conflict));
        }
        let pattern = SamplePattern::new(cfg.feedback.one_in).expect("validated");
        let mut layouts = Vec::with_capacity(scene.textures.len());
        let mut minmip = Vec::with_capacity(scene.textures.len());
        let mut by_size: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
        for (id, desc) in scene.textures.iter().enumerate() {
            let region = match cfg.feedback.region {
                Some(r) => r,
                None => {
                    let (w, h) =
                        desc.tile_mip_region().map_err(|e| ConfigError::new("feedback.region", e.to_string()))?;
                    (w * cfg.feedback.tiles_per_texel, h * cfg.feedback.tiles_per_texel)
                }
            };
            desc.feedback_map_dims(region).map_err(|e| ConfigError::new("feedback.region", e.to_string()))?;
            let layout = FeedbackLayout::new(desc.width, desc.height, desc.mip_levels, region.0, region.1)
                .map_err(|e| ConfigError::new("feedback.region", e.to_string()))?;
            by_size.entry((layout.map_width(), layout.map_height())).or_default().push(id as u32);
            layouts.push(layout);
            let (mw, mh) = desc.min_mip_map_dims();
            let fill = match cfg.residency {
                Residency::TailOnly => Lod53::from_mip(desc.first_packed_mip()).unwrap_or(Lod53::NONE),
                Residency::All => Lod53::ZERO,
            };
            minmip.push(MinMipMap::new(mw, mh, fill).map_err(|e| ConfigError::new("texture_sets", e.to_string()))?);
        }
        let mut arrays = Vec::new();
        let mut slots = vec![(0usize, 0u32); scene.textures.len()];
        // Maps of one size share arrays of at most D3D12's slice limit (a scene may have more
        // textures of a size than one array holds).
        for ((w, h), ids) in by_size {
            for chunk in ids.chunks(sfsim_models::gpu::MAX_ARRAY_SLICES as usize) {
                let array = FeedbackArray::new(w, h, chunk.len() as u32)
                    .map_err(|e| ConfigError::new("feedback", e.to_string()))?;
                for (slice, id) in chunk.iter().enumerate() {
                    slots[*id as usize] = (arrays.len(), slice as u32);
                }
                arrays.push(array);
            }
        }
        let region_used = match cfg.feedback.kind {
            FeedbackKind::MinMip => Vec::new(),
            FeedbackKind::MipRegionUsed => layouts
                .iter()
                .map(|l| MipRegionUsedFeedback::new(l.map_width(), l.map_height(), l.mip_count()))
                .collect::<Result<_, _>>()
                .map_err(|e| ConfigError::new("feedback", e.to_string()))?,
        };
        let writes_feedback = vec![true; scene.textures.len()];
        let samplers = scene
            .textures
            .iter()
            .map(|d| PreparedSampler::new(&cfg.sampler, d.width, d.height, d.mip_levels))
            .collect::<Result<_, _>>()
            .map_err(|e| ConfigError::new("sampler", e.to_string()))?;
        let written = vec![false; scene.textures.len()];
        let samplers: Vec<PreparedSampler> = samplers;
        let residency = scene
            .textures
            .iter()
            .map(|d| ResidencyCheck::new(d.format.tile_texels(), d.first_packed_mip()))
            .collect::<Result<_, _>>()
            .map_err(|e| ConfigError::new("texture_sets", e.to_string()))?;
        let sampler_class = classes(&samplers);
        let layout_class = classes(&layouts);
        let minmip_class = classes(&minmip.iter().map(|m: &MinMipMap| (m.width(), m.height())).collect::<Vec<_>>());
        let regions_class = classes(&samplers.iter().zip(&layouts).collect::<Vec<_>>());
        let footprint_regions: Vec<FootprintRegions> =
            samplers.iter().zip(&layouts).map(|(s, l)| FootprintRegions::new(s, l)).collect();
        let materials = (0..scene.shapes.len() as u32)
            .map(|shape| {
                let mut textures: Vec<MaterialTexture> = scene
                    .textures_of(shape)
                    .map(|texture| MaterialTexture {
                        texture,
                        sampler_class: sampler_class[texture as usize],
                        layout_class: layout_class[texture as usize],
                        minmip_class: minmip_class[texture as usize],
                        regions_class: regions_class[texture as usize],
                        regions_from: None,
                    })
                    .collect();
                trace::link_finer_regions(&mut textures, &footprint_regions);
                textures
            })
            .collect();
        let mut shapes_of = vec![Vec::new(); scene.textures.len()];
        for shape in 0..scene.shapes.len() as u32 {
            for texture in scene.textures_of(shape) {
                let shapes: &mut Vec<u32> = &mut shapes_of[texture as usize];
                if shapes.last() != Some(&shape) {
                    shapes.push(shape);
                }
            }
        }
        let texture_classes: Vec<_> =
            (0..scene.textures.len()).map(|t| (sampler_class[t], layout_class[t], minmip_class[t])).collect();
        let twin_keys = twins::twin_keys(&texture_classes, shapes_of);
        let first_writes = (cfg.feedback.kind == FeedbackKind::MinMip).then(|| {
            layouts.iter().map(|l| FirstWrites::new(l.map_width() as usize * l.map_height() as usize)).collect()
        });
        let read_regions = samplers
            .iter()
            .zip(&residency)
            .zip(&minmip)
            .map(|((s, c), m)| ReadRegions::new(s, c, (m.width(), m.height())))
            .collect::<Vec<_>>();
        let feedback_covers_reads =
            read_regions.iter().zip(&footprint_regions).map(|(r, f)| r.covers_are_feedback_regions(f)).collect();
        let mut renderer = FeedbackRenderer {
            scene,
            cfg: *cfg,
            pattern,
            feedback_value_only: !cfg.measure_quality
                && (cfg.feedback.kind, cfg.feedback.writes) == (FeedbackKind::MinMip, FeedbackWrites::Location),
            locators: layouts.iter().map(FeedbackLayout::locator).collect(),
            footprint_regions,
            feedback_covers_reads,
            layouts,
            arrays,
            slots,
            region_used,
            minmip,
            minmip_targets: Vec::new(),
            writes_feedback,
            twin_keys,
            twin_of: Vec::new(),
            twin_candidates: Vec::new(),
            read_regions,
            samplers,
            residency,
            materials,
            first_writes,
            tile_sets: scene.textures.iter().map(|d| TileSet::new(TileGrid::new(d))).collect(),
            written,
            frame: FrameBuffers::default(),
            reuse: cfg.reuse.map(ReuseState::new),
            pattern_ahead: PatternAhead::default(),
            tile_ranges: Vec::new(),
        };
        renderer.refresh_minmip_targets();
        // Every map starts clear.
        renderer.twins_cleared();
        Ok(renderer)
    }

    pub fn scene(&self) -> &Scene {
        self.scene
    }

    pub fn config(&self) -> &RenderConfig {
        &self.cfg
    }

    /// Clears every feedback map to 0xFF ("nothing requested"), one fill per array.
    pub fn clear_feedback(&mut self) {
        match self.first_writes.as_mut() {
            // Every texel holding a request was a first write this frame: clearing those
            // alone leaves the maps as a full clear would, for the texels a frame touched
            // rather than every texel of every map (a scene of many textures writes few).
            Some(lists) => {
                for (tex, list) in lists.iter_mut().enumerate() {
                    let (a, slice) = self.slots[tex];
                    for &xy in list.texels() {
                        self.arrays[a].clear_texel(slice, xy & 0xFFFF, xy >> 16);
                    }
                    list.clear();
                }
            }
            None => self.arrays.iter_mut().for_each(FeedbackArray::clear_all),
        }
        for m in &mut self.region_used {
            m.clear();
        }
        self.written.iter_mut().for_each(|w| *w = false);
        self.twins_cleared();
    }

    /// Feedback map size of a texture (feedback texels).
    pub fn feedback_dims(&self, texture: u32) -> (u32, u32) {
        let l = &self.layouts[texture as usize];
        (l.map_width(), l.map_height())
    }

    /// Finest mip the feedback asks for at a feedback texel, whatever the format.
    pub fn requested_mip(&self, texture: u32, x: u32, y: u32) -> Option<u32> {
        match self.cfg.feedback.kind {
            FeedbackKind::MinMip => self.feedback(texture).get(x, y).filter(|v| !v.is_none()).map(Lod53::mip),
            FeedbackKind::MipRegionUsed => self.region_used[texture as usize].finest_used(x, y),
        }
    }

    /// Chooses which textures write feedback (e.g. only each set's diffuse when one map is
    /// shared by the set); the others are still sampled for quality statistics.
    pub fn set_feedback_textures(&mut self, writes: impl Fn(u32) -> bool) {
        for (i, w) in self.writes_feedback.iter_mut().enumerate() {
            *w = writes(i as u32);
        }
        self.refresh_minmip_targets();
    }

    /// Whether the sampler writes feedback for `texture` (see
    /// [`set_feedback_textures`](Self::set_feedback_textures)).
    pub fn writes_feedback(&self, texture: u32) -> bool {
        self.writes_feedback.get(texture as usize).copied().unwrap_or(false)
    }

    /// The MipRegionUsed map of a texture, when that is the feedback format.
    pub fn region_used(&self, texture: u32) -> Option<&MipRegionUsedFeedback> {
        self.region_used.get(texture as usize)
    }

    /// Feedback texels of a texture with any request.
    pub fn requested_texels(&self, texture: u32) -> usize {
        match self.cfg.feedback.kind {
            FeedbackKind::MinMip => self.feedback(texture).requested_count(),
            FeedbackKind::MipRegionUsed => {
                let m = &self.region_used[texture as usize];
                (0..m.height())
                    .flat_map(|y| (0..m.width()).map(move |x| (x, y)))
                    .filter(|&(x, y)| m.finest_used(x, y).is_some())
                    .count()
            }
        }
    }

    pub fn feedback(&self, texture: u32) -> MinMipFeedbackSlice<'_> {
        let (a, s) = self.slots[texture as usize];
        self.arrays[a].slice(s).expect("slot exists")
    }

    pub fn layout(&self, texture: u32) -> &FeedbackLayout {
        &self.layouts[texture as usize]
    }

    pub fn minmip(&self, texture: u32) -> &MinMipMap {
        &self.minmip[texture as usize]
    }

    pub fn minmip_mut(&mut self, texture: u32) -> &mut MinMipMap {
        &mut self.minmip[texture as usize]
    }

    /// Samples the frame's pixels from `camera`, writing feedback (without clearing it
    /// first, so frames can accumulate). `pixels` receives each sampled pixel's LODs for
    /// the first texture of its material, if given.
    pub fn render(
        &mut self,
        camera: &RayCamera,
        seed: u64,
        frame: u64,
        mut pixels: Option<&mut Vec<PixelLods>>,
    ) -> FrameStats {
        let (w, h) = self.cfg.resolution;
        let beside_pool = rayon::current_num_threads() > 1 && rayon::current_thread_index().is_none();
        if beside_pool {
            // Wake a worker now with an empty job, so it is up when the chunks are handed
            // out after the set-up below: a sleeping worker took 80-250 µs to start on the
            // 2-core VM, and an awake one spins a little while before sleeping again.
            rayon::spawn(|| {});
        }
        let mut bufs = std::mem::take(&mut self.frame);
        self.pattern_ahead.take_or_draw(self.pattern, (w, h), seed, frame, &mut bufs.pixels);
        let grid = self.pattern.grid(w, h);
        // Chunks are bands of whole block rows, about CHUNK samples each (a chunk resolves
        // its own rows' visibility), and at most MAX_CHUNKS of them: an object is listed
        // once per band it reaches, so the bands' lists stay within the objects ×
        // MAX_CHUNKS however fine the sampling.
        let band_rows = (CHUNK as u32 / grid.blocks_x.max(1)).max(grid.blocks_y.div_ceil(MAX_CHUNKS));
        bufs.visibility.prepare(camera, &self.scene.shapes, grid, band_rows);
        let chunks = bufs.visibility.bands();
        let mut reuse = self.reuse.take();
        let plan = reuse.as_mut().map(|r| r.plan(camera, frame, bufs.visibility.nearest_distance(), chunks));
        let reuse_of = |c: usize| Some((plan?, &reuse.as_ref()?.chunks[c]));
        let mut stats = FrameStats::default();
        // What merging writes leaves the renderer for the frame, so that shading (which
        // only reads the renderer) can run beside the merge.
        let mut sink = FeedbackSink::take_from(self);
        if rayon::current_num_threads() == 1 {
            // One core: trace and merge each chunk in turn, so one chunk buffer serves the
            // frame and its samples are merged while still in cache. Same order, same result.
            bufs.traced.resize_with(1, Default::default);
            let chunk = bufs.traced[0].get_mut().unwrap_or_else(PoisonError::into_inner);
            for c in 0..chunks {
                self.trace_chunk(camera, &bufs.visibility, &bufs.pixels, c, reuse_of(c), chunk);
                self.merge_chunk(&mut sink, chunk, &bufs.pixels, &mut stats, pixels.as_deref_mut());
            }
        } else {
            bufs.traced.resize_with(chunks, Default::default);
            self.trace_and_merge(camera, &mut bufs, &reuse_of, &mut sink, &mut stats, pixels);
        }
        if let Some(r) = reuse.as_mut() {
            r.samples += stats.samples;
            r.reused_samples += stats.reused_samples;
        }
        self.reuse = reuse;
        sink.put_back(self);
        if beside_pool {
            // This frame's pixels are not read again: the buffer takes the next frame's.
            let pixels = std::mem::take(&mut bufs.pixels);
            self.pattern_ahead.start(self.pattern, (w, h), seed, frame.wrapping_add(1), pixels);
        }
        self.mirror_twins();
        self.frame = bufs;
        stats
    }
}

/// For each item, the index of the first item equal to it (few distinct values: the search
/// runs over those only).
fn classes<T: PartialEq>(items: &[T]) -> Vec<u32> {
    let mut firsts: Vec<usize> = Vec::new();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let first = firsts.iter().copied().find(|&f| items[f] == *item).unwrap_or_else(|| {
                firsts.push(i);
                i
            });
            first as u32
        })
        .collect()
}
