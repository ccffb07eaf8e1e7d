//! The streaming engine's parameters and policies (SPEC §5). The sample's behaviour is the
//! default; alternatives are policies chosen per scenario so they compare on one run.

use serde::{Deserialize, Serialize};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

/// When resident tiles are given back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Eviction {
    /// The sample's: tiles unseen for longer than `after` expire (2 s).
    Timeout { after: Time },
    /// Intel's sample: a tile whose feedback reference count stayed 0 for `frames`
    /// consecutive frames is evicted.
    RefCount { frames: u32 },
    /// RTXTS style: tiles unseen for `after` move to a standby list, still mapped and
    /// reusable if seen again; they are really freed only when the pool needs the slot
    /// (least recently seen first).
    Standby { after: Time },
}

/// Order in which seen tiles are loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoadOrder {
    /// The sample's: coarsest mip first, then oldest request.
    CoarsestFirst,
    /// Most recently seen first, then coarsest.
    RecencyFirst,
}

/// How feedback is gathered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FeedbackPolicy {
    /// One feedback map per texture, one texel per 64 KiB tile of mip 0 (the sample's).
    PerTexture,
    /// One feedback texel per 2×2 tiles: −75 % analysis work, coarser requests.
    Coarse2x2,
    /// One feedback map per diffuse/normal/specular set (the diffuse's), −66 % analysis;
    /// the set's three tiles at a position load as one IO.
    SharedPerSet,
}

/// Modeled CPU cost of each engine subsystem (the sample's CPU timers), per unit of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CpuCosts {
    /// Per feedback texel read back and compared with the tile database (2 ns).
    pub analysis_per_texel: Time,
    /// Per seen tile per sort pass, times log2 of the list length (5 ns).
    pub sort_per_tile: Time,
    /// Per DirectStorage request built and enqueued (1 µs).
    pub submit_per_request: Time,
    /// Per MinMip texel rewritten on the CPU copy (3 ns).
    pub minmip_per_texel: Time,
}

impl Default for CpuCosts {
    fn default() -> Self {
        CpuCosts {
            analysis_per_texel: Time::from_ns(2),
            sort_per_tile: Time::from_ns(5),
            submit_per_request: Time::from_us(1),
            minmip_per_texel: Time::from_ns(3),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Tile pool: one heap of 64 KiB slots (512 MiB).
    pub pool: Bytes,
    /// Feedback is read back this many frames after it was written (2).
    pub readback_frames: u32,
    pub eviction: Eviction,
    pub load_order: LoadOrder,
    pub feedback: FeedbackPolicy,
    /// At most this many tile loads are submitted per frame (none).
    pub upload_cap: Option<u32>,
    /// UpdateTileMappings on the GPU copy queue: cost per call (20 µs) …
    pub mapping_call: Time,
    /// … plus per tile mapped or unmapped (0.5 µs).
    pub mapping_per_tile: Time,
    pub cpu: CpuCosts,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            pool: Bytes::mib(512),
            readback_frames: 2,
            eviction: Eviction::Timeout { after: Time::from_secs(2) },
            load_order: LoadOrder::CoarsestFirst,
            feedback: FeedbackPolicy::PerTexture,
            upload_cap: None,
            mapping_call: Time::from_us(20),
            mapping_per_tile: Time::from_ns(500),
            cpu: CpuCosts::default(),
        }
    }
}

impl EngineConfig {
    /// 64 KiB slots in the pool.
    pub fn pool_slots(&self) -> u32 {
        (self.pool.0 / 65_536).min(u64::from(u32::MAX)) as u32
    }

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
        match self.eviction {
            Eviction::Timeout { after } | Eviction::Standby { after }
                if after.0 == 0 || after > Time::from_secs(3600) =>
            {
                return Err(ConfigError::new("eviction", format!("after {after} is out of range; expected (0s, 1h]")));
            }
            Eviction::RefCount { frames } if frames > 100_000 => {
                return Err(ConfigError::new(
                    "eviction",
                    format!("frames {frames} is out of range; expected 0..=100000"),
                ));
            }
            _ => {}
        }
        if self.upload_cap == Some(0) {
            return Err(ConfigError::new("upload_cap", "0 would never load a tile; expected ≥ 1 or None"));
        }
        if self.mapping_call > Time::from_ms(10) || self.mapping_per_tile > Time::from_ms(1) {
            return Err(ConfigError::new(
                "mapping_call",
                "mapping costs out of range; expected ≤ 10ms per call, ≤ 1ms per tile",
            ));
        }
        Ok(())
    }
}
