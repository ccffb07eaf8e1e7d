//! The streaming engine's parameters and policies (SPEC §5). The sample's behaviour is the
//! default; alternatives are policies chosen per scenario so they compare on one run.

use super::eviction::EvictionKind;
use super::feedback::FeedbackPolicyKind;
use super::load_order::LoadOrderKind;
use super::retry::RetryConfig;
use super::timeline::{Completions, GpuCosts};
use serde::{Deserialize, Serialize};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

/// Modeled CPU cost of each engine subsystem (the sample's CPU timers), per unit of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CpuCosts {
    /// Per feedback texel read back and scanned — every texel of every map, as the sample
    /// does — and compared with the tile database when it holds a request (2 ns).
    pub analysis_per_texel: Time,
    /// Per seen tile per sort pass, times log2 of the list length (5 ns).
    pub sort_per_tile: Time,
    /// Per DirectStorage request built and enqueued (1 µs).
    pub submit_per_request: Time,
    /// Per MinMip texel rewritten on the CPU copy (3 ns).
    pub minmip_per_texel: Time,
    /// `GpuAnalysis` only: per entry of the load/evict lists the GPU pass hands the CPU
    /// (20 ns).
    pub per_list_entry: Time,
    /// CPU speed in percent of the host the costs above were measured on (100): every cost
    /// is divided by it.
    pub speed_percent: u32,
    /// The feedback thread's budget per frame: a pass that ends later than this after its
    /// frame started counts as late (None: one frame period).
    pub frame_budget: Option<Time>,
}

impl Default for CpuCosts {
    fn default() -> Self {
        CpuCosts {
            analysis_per_texel: Time::from_ns(2),
            sort_per_tile: Time::from_ns(5),
            submit_per_request: Time::from_us(1),
            minmip_per_texel: Time::from_ns(3),
            per_list_entry: Time::from_ns(20),
            speed_percent: 100,
            frame_budget: None,
        }
    }
}

impl CpuCosts {
    /// `units` of work at `per_unit` each on a CPU of `speed_percent`.
    pub fn cost(&self, per_unit: Time, units: u64) -> Time {
        let ps = u128::from(per_unit.0) * u128::from(units) * 100 / u128::from(self.speed_percent.max(1));
        Time(ps.min(u128::from(u64::MAX)) as u64)
    }

    /// Range checks; fields are relative to `cpu`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(10..=1000).contains(&self.speed_percent) {
            return Err(ConfigError::new(
                "speed_percent",
                format!("{} is out of range; expected 10..=1000", self.speed_percent),
            ));
        }
        if let Some(b) = self.frame_budget.filter(|b| *b == Time::ZERO || *b > Time::from_secs(1)) {
            return Err(ConfigError::new("frame_budget", format!("{b} is out of range; expected (0s, 1s] or None")));
        }
        let limits = [
            ("analysis_per_texel", self.analysis_per_texel),
            ("sort_per_tile", self.sort_per_tile),
            ("submit_per_request", self.submit_per_request),
            ("minmip_per_texel", self.minmip_per_texel),
            ("per_list_entry", self.per_list_entry),
        ];
        for (field, value) in limits {
            if value > Time::from_ms(1) {
                return Err(ConfigError::new(field, format!("{value} is out of range; expected 0s..=1ms")));
            }
        }
        Ok(())
    }
}

/// The engine's parameters and policy selectors (scenario `workload.engine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Tile pool: one heap of 64 KiB slots (512 MiB).
    pub pool: Bytes,
    /// Feedback is read back this many frames after it was written (2).
    pub readback_frames: u32,
    /// When resident tiles give their slots back (the sample's `Timeout(after: "2s")`).
    pub eviction: EvictionKind,
    /// Which Seen Tiles are submitted first (the sample's `CoarsestFirst`).
    pub load_order: LoadOrderKind,
    /// How feedback is gathered (the sample's `PerTexture`).
    pub feedback: FeedbackPolicyKind,
    /// At most this many tile loads are submitted per frame (none).
    pub upload_cap: Option<u32>,
    /// UpdateTileMappings on the GPU copy queue: cost per call (20 µs) …
    pub mapping_call: Time,
    /// … plus per tile mapped or unmapped (0.5 µs).
    pub mapping_per_tile: Time,
    /// Modeled CPU cost per unit of work of each subsystem.
    pub cpu: CpuCosts,
    /// Modeled GPU cost of the frame's render, feedback resolve and MinMip copies.
    pub gpu: GpuCosts,
    /// How completions are noticed: once per frame (the sample's) or by a streaming thread.
    pub completions: Completions,
    /// How failed loads are retried (`hardware.faults`).
    pub retry: RetryConfig,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            pool: Bytes::mib(512),
            readback_frames: 2,
            eviction: EvictionKind::default(),
            load_order: LoadOrderKind::default(),
            feedback: FeedbackPolicyKind::default(),
            upload_cap: None,
            mapping_call: Time::from_us(20),
            mapping_per_tile: Time::from_ns(500),
            cpu: CpuCosts::default(),
            gpu: GpuCosts::default(),
            completions: Completions::default(),
            retry: RetryConfig::default(),
        }
    }
}

impl EngineConfig {
    /// 64 KiB slots in the pool.
    pub fn pool_slots(&self) -> u32 {
        (self.pool.0 / 65_536).min(u64::from(u32::MAX)) as u32
    }

    /// Range checks; fields are relative to `engine`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.pool < Bytes::kib(64) || self.pool > Bytes::gib(64) {
            return Err(ConfigError::new("pool", format!("{} is out of range; expected 64KiB..=64GiB", self.pool)));
        }
        if self.readback_frames > 16 {
            return Err(ConfigError::new(
                "readback_frames",
                format!("{} is out of range; expected 0..=16", self.readback_frames),
            ));
        }
        self.eviction.build().map_err(|e| e.within("eviction"))?;
        if self.upload_cap == Some(0) {
            return Err(ConfigError::new("upload_cap", "0 would never load a tile; expected ≥ 1 or None"));
        }
        if self.mapping_call > Time::from_ms(10) {
            return Err(ConfigError::new(
                "mapping_call",
                format!("{} is out of range; expected 0s..=10ms", self.mapping_call),
            ));
        }
        if self.mapping_per_tile > Time::from_ms(1) {
            return Err(ConfigError::new(
                "mapping_per_tile",
                format!("{} is out of range; expected 0s..=1ms", self.mapping_per_tile),
            ));
        }
        self.cpu.validate().map_err(|e| e.within("cpu"))?;
        self.retry.validate().map_err(|e| e.within("retry"))?;
        self.gpu.validate().map_err(|e| e.within("gpu"))
    }
}
