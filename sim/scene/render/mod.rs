//! The ray-cast sampler: for the pixels a frame's [`SamplePattern`] picks, cast a ray, and
//! for every texture of the hit material compute the desired LOD (written to that
//! texture's MinMip feedback map) and the effective LOD after its MinMip clamp (what the
//! sample really reads; the gap is the visual-quality cost of missing tiles).

mod config;
mod frame_stats;
mod materials;
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
pub use config::{FeedbackConfig, FeedbackKind, FeedbackWrites, RenderConfig, Residency};
pub use frame_stats::{FrameStats, PixelLods, READ_MIPS};
use materials::{MaterialTexture, TextureClasses};
use merge::FeedbackSink;
use pattern_ahead::PatternAhead;
use reuse::ReuseState;
pub use reuse::TemporalReuse;
use sfsim_models::gpu::{
    FeedbackArray, FeedbackLayout, FootprintRegions, Lod53, MinMipFeedbackSlice, MinMipMap, MipRegionUsedFeedback,
    PreparedSampler, ReadRegions, ResidencyCheck, TexelLocator,
};
use sfsim_models::texture::TileGrid;
use sfsim_models::ConfigError;
use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use trace::{Chunk, CHUNK};

/// The most chunks (bands of block rows) a frame is cut into.
const MAX_CHUNKS: u32 = 256;

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
        let footprint_regions: Vec<FootprintRegions> =
            samplers.iter().zip(&layouts).map(|(s, l)| FootprintRegions::new(s, l)).collect();
        let classes = TextureClasses::new(&samplers, &layouts, &minmip);
        let materials = classes.materials(scene, &footprint_regions);
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
            (0..scene.textures.len()).map(|t| (classes.sampler[t], classes.layout[t], classes.minmip[t])).collect();
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
