//! What a frame's sampling saw: the counts and quality sums one frame (or chunk) adds.

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
