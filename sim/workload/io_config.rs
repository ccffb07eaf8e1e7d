//! The IO workload's scenario fields (`workload: Io((…))`) and their validation: what a
//! title enqueues, how often, how much it keeps in flight, and each field's valid range.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sfsim_models::nvme::{RequestOptions, SwizzleMode, BCPACK_MODE_MAX, MAX_ZLIB_OUTPUT};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;

/// Where requests read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum SourceKind {
    /// Streams in a file on the NVMe device, laid out back to back on 16-byte boundaries.
    #[default]
    File,
    /// In-memory decompression: the MDU only, no NVMe and no staging.
    Memory,
}

/// Uncompressed (destination) size of each request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamSize {
    Fixed(Bytes),
    /// Uniform in [min, max].
    Uniform {
        min: Bytes,
        max: Bytes,
    },
    /// One of the listed sizes, equally likely.
    Choice(Vec<Bytes>),
}

impl Default for StreamSize {
    fn default() -> Self {
        StreamSize::Fixed(Bytes::kib(64))
    }
}

impl StreamSize {
    fn bounds(&self) -> (Bytes, Bytes) {
        match self {
            StreamSize::Fixed(b) => (*b, *b),
            StreamSize::Uniform { min, max } => (*min, *max),
            StreamSize::Choice(list) => {
                (list.iter().copied().min().unwrap_or(Bytes::ZERO), list.iter().copied().max().unwrap_or(Bytes::ZERO))
            }
        }
    }

    pub(super) fn sample(&self, rng: &mut ChaCha8Rng) -> Bytes {
        match self {
            StreamSize::Fixed(b) => *b,
            StreamSize::Uniform { min, max } => Bytes(rng.gen_range(min.0..=max.0)),
            StreamSize::Choice(list) => list[rng.gen_range(0..list.len())],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IoWorkload {
    /// Where requests read from (File).
    pub source: SourceKind,
    /// Uncompressed size of each request (Fixed 64 KiB).
    pub stream: StreamSize,
    /// Uncompressed ÷ compressed size (2.0). Must be > 1 when zlib or BCPack is on and
    /// exactly 1 for uncompressed reads.
    pub ratio: f64,
    /// Each request's ratio is drawn uniformly from ratio × (1 ± ratio_spread) (0.1, 0..=0.5).
    pub ratio_spread: f64,
    /// DirectStorage request options (zlib on). When zlib and BCPack are both on, the
    /// IntermediateSize is the geometric mean of the compressed and uncompressed sizes.
    pub options: RequestOptions,
    /// The pages are perfectly compressible (written at the MDU's fill rate).
    pub fill: bool,
    /// The title enqueues every `cadence` (16.7 ms).
    pub cadence: Time,
    /// …until this many source (compressed) bytes are in flight (64 MiB).
    pub in_flight: Bytes,
    /// `SetStagingBuffer` calls during the run (none): from `at` on, the staging buffer has
    /// `size`; bytes already in it stay until the MDU consumes them.
    pub set_staging: Vec<StagingChange>,
}

/// One `SetStagingBuffer` call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagingChange {
    pub at: Time,
    pub size: Bytes,
}

impl Default for IoWorkload {
    fn default() -> Self {
        IoWorkload {
            source: SourceKind::File,
            stream: StreamSize::default(),
            ratio: 2.0,
            ratio_spread: 0.1,
            options: RequestOptions { zlib: true, bcpack_mode: 0, swizzle_mode: 0 },
            fill: false,
            cadence: Time(16_700_000_000),
            in_flight: Bytes::mib(64),
            set_staging: Vec::new(),
        }
    }
}

impl IoWorkload {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (min, max) = self.stream.bounds();
        if let StreamSize::Choice(list) = &self.stream {
            if list.is_empty() {
                return Err(ConfigError::new("stream", "Choice needs at least one size"));
            }
        }
        if min.0 == 0 || max > Bytes::mib(512) || min > max {
            return Err(ConfigError::new(
                "stream",
                format!("sizes {min}..={max} are out of range; expected 1B..=512MiB with min ≤ max"),
            ));
        }
        if self.options.bcpack_mode > u32::from(BCPACK_MODE_MAX) {
            return Err(ConfigError::new(
                "options.bcpack_mode",
                format!("{} is out of range; expected 0..=7", self.options.bcpack_mode),
            ));
        }
        if SwizzleMode::from_raw(self.options.swizzle_mode).is_none() {
            return Err(ConfigError::new(
                "options.swizzle_mode",
                format!("{} is out of range; expected 0..={}", self.options.swizzle_mode, SwizzleMode::MAX),
            ));
        }
        let compresses = self.options.decompresses();
        if !self.ratio.is_finite() || (compresses && !(self.ratio > 1.0 && self.ratio <= 10_000.0)) {
            return Err(ConfigError::new("ratio", format!("{} is out of range; expected > 1 and ≤ 10000 when zlib or BCPack is on (compressed < uncompressed)", self.ratio)));
        }
        if !compresses && self.ratio != 1.0 {
            return Err(ConfigError::new(
                "ratio",
                format!("{} must be 1 for uncompressed reads (no zlib, no BCPack)", self.ratio),
            ));
        }
        if !(0.0..=0.5).contains(&self.ratio_spread) {
            return Err(ConfigError::new(
                "ratio_spread",
                format!("{} is out of range; expected 0..=0.5", self.ratio_spread),
            ));
        }
        if compresses && self.ratio * (1.0 - self.ratio_spread) <= 1.0 {
            return Err(ConfigError::new(
                "ratio_spread",
                format!("ratio {} × (1 − {}) must stay > 1 so every stream shrinks", self.ratio, self.ratio_spread),
            ));
        }
        // The zlib output is at most the uncompressed size.
        if self.options.zlib && max > MAX_ZLIB_OUTPUT {
            return Err(ConfigError::new(
                "stream",
                format!("largest stream {max} exceeds the zlib stage's {MAX_ZLIB_OUTPUT} per request"),
            ));
        }
        if self.fill && !compresses {
            return Err(ConfigError::new("fill", "perfectly compressible pages need zlib or BCPack on"));
        }
        if self.cadence < Time::from_us(1) || self.cadence > Time::from_secs(10) {
            return Err(ConfigError::new("cadence", format!("{} is out of range; expected 1us..=10s", self.cadence)));
        }
        if self.in_flight.0 == 0 || self.in_flight > Bytes::gib(16) {
            return Err(ConfigError::new(
                "in_flight",
                format!("{} is out of range; expected 1B..=16GiB", self.in_flight),
            ));
        }
        Ok(())
    }
}
