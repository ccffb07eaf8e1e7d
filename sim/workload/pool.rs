//! The content-pool workload: reads every selected stream of a set of packed-texture
//! containers (`sfsim pack` output, single-texture `SFSIMTEX` or set `SFSIMSET` files)
//! through DirectStorage → NVMe → MDU at full rate, with each stream's real
//! `CompressedSize` / `InflatedSize` / `UncompressedSize` and request options, and reports
//! the read rate (compressed bytes from the drive) and the to-memory rate (uncompressed bytes
//! delivered). This is how packing options (RDO, BC7 mode mask, tile mode, …) become
//! throughput figures.
//!
//! Each stream is one request read from its file: container `i`'s streams sit in file window
//! `i << 40` at their offset in the file, so reads of different files are never adjacent.
//! The title is the IO workload's ([`Title`]): every `cadence` it enqueues until `in_flight`
//! source bytes are outstanding, here over a fixed list read `passes` times. The run ends
//! when the last request completes (at the latest at the scenario's `duration`), and the
//! throughputs are over that elapsed time.

use super::io::{drive, IoOutcome, Plan, RunError};
use super::title::{Requests, Title};
use crate::content::pack::{Container, PackedFile};
use crate::iopath::IoPath;
use crate::scenario::Scenario;
use crate::stats::{StatSet, LATENCY_POINTS};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use sfsim_models::nvme::{Request, Source};
use sfsim_models::units::{Bytes, Time};
use sfsim_models::ConfigError;
use std::path::Path;

/// Most containers in one pool.
pub const MAX_CONTAINERS: usize = 4096;
/// Container `i`'s streams are read at `i << WINDOW_SHIFT` + their offset in the file.
pub const WINDOW_SHIFT: u32 = 40;

/// The order the selected streams are read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PoolOrder {
    /// Containers in list order, each one's streams in file order (by offset in the file;
    /// for a set container, its interleaved layout).
    #[default]
    Sequential,
    /// One permutation of the whole selection, seeded by the scenario's `seed`, read in
    /// that order on every pass.
    Shuffled,
}

/// Which streams of the containers are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PoolStreams {
    /// Every stream.
    #[default]
    All,
    /// Every stream not flagged resident (skips the packed tail and non-streamed mips).
    Streamable,
    /// Streams whose uncompressed size is within [min, max] (1B..=1GiB, min ≤ max).
    Sized { min: Bytes, max: Bytes },
}

impl PoolStreams {
    fn keeps(&self, uncompressed: u64, resident: bool) -> bool {
        match self {
            PoolStreams::All => true,
            PoolStreams::Streamable => !resident,
            PoolStreams::Sized { min, max } => (min.0..=max.0).contains(&uncompressed),
        }
    }
}

/// The scenario's `workload: Pool((…))`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PoolWorkload {
    /// Container files (`sfsim pack` output, single-texture or set), relative to the
    /// scenario file's folder; 1..=4096 entries, no default.
    pub containers: Vec<String>,
    /// The order streams are read in (Sequential).
    pub order: PoolOrder,
    /// Which streams are read (All); the selection must not be empty.
    pub streams: PoolStreams,
    /// The title keeps this many source (compressed) bytes in flight (64 MiB, 1B..=16GiB).
    pub in_flight: Bytes,
    /// …enqueueing every `cadence` (16.7 ms, 1us..=10s).
    pub cadence: Time,
    /// How many times the whole selection is read (1, 1..=1000).
    pub passes: u32,
}

impl Default for PoolWorkload {
    fn default() -> Self {
        PoolWorkload {
            containers: Vec::new(),
            order: PoolOrder::Sequential,
            streams: PoolStreams::All,
            in_flight: Bytes::mib(64),
            cadence: Time(16_700_000_000),
            passes: 1,
        }
    }
}

impl PoolWorkload {
    /// Range checks that need no file (the containers are read when the run starts).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.containers.is_empty() || self.containers.len() > MAX_CONTAINERS {
            return Err(ConfigError::new(
                "containers",
                format!("has {} entries; expected 1..={MAX_CONTAINERS} container files", self.containers.len()),
            ));
        }
        if let Some(i) = self.containers.iter().position(|c| c.trim().is_empty()) {
            return Err(ConfigError::new(format!("containers[{i}]"), "is empty; expected a container file path"));
        }
        if let PoolStreams::Sized { min, max } = self.streams {
            if min.0 == 0 || max > Bytes::gib(1) || min > max {
                return Err(ConfigError::new(
                    "streams",
                    format!("Sized({min}..={max}) is out of range; expected 1B..=1GiB with min ≤ max"),
                ));
            }
        }
        if self.in_flight.0 == 0 || self.in_flight > Bytes::gib(16) {
            return Err(ConfigError::new(
                "in_flight",
                format!("{} is out of range; expected 1B..=16GiB", self.in_flight),
            ));
        }
        if self.cadence < Time::from_us(1) || self.cadence > Time::from_secs(10) {
            return Err(ConfigError::new("cadence", format!("{} is out of range; expected 1us..=10s", self.cadence)));
        }
        if !(1..=1000).contains(&self.passes) {
            return Err(ConfigError::new("passes", format!("{} is out of range; expected 1..=1000", self.passes)));
        }
        Ok(())
    }
}

/// One selected stream and the request that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStream {
    /// Index into `containers`.
    pub container: usize,
    /// Member of a set container (0 for a single-texture container).
    pub member: usize,
    /// Index in that (member) container's stream table.
    pub index: usize,
    pub request: Request,
}

/// The selection, in file order (container by container).
#[derive(Debug, Clone)]
pub struct Pool {
    pub streams: Vec<PoolStream>,
    /// Streams in the containers before the `streams` filter.
    pub total_streams: usize,
}

fn field(i: usize) -> String {
    format!("workload.containers[{i}]")
}

/// The requests of container `i` (already open) that `cfg.streams` keeps, in file order.
fn container_streams(
    i: usize,
    members: &[Container],
    file_bytes: u64,
    cfg: &PoolWorkload,
) -> Result<(Vec<PoolStream>, usize), ConfigError> {
    if file_bytes >= 1 << WINDOW_SHIFT {
        return Err(ConfigError::new(field(i), format!("is {file_bytes} B; expected under 1 TiB")));
    }
    let window = (i as u64) << WINDOW_SHIFT;
    let (mut kept, mut total) = (Vec::new(), 0);
    for (member, c) in members.iter().enumerate() {
        total += c.stream_count();
        for index in 0..c.stream_count() {
            let s = c.stream(index).map_err(|e| ConfigError::new(field(i), e.to_string()))?;
            if !cfg.streams.keeps(s.request.destination_size, s.entry.resident) {
                continue;
            }
            // `Container::stream` applies DirectStorage's IntermediateSize rule.
            let request = Request {
                source: Source::File { offset: window + s.file_offset },
                source_size: Bytes(u64::from(s.entry.compressed_size)),
                intermediate_size: Bytes(s.request.intermediate_size),
                destination_size: Bytes(s.request.destination_size),
                options: s.request.options,
                fill: false,
            };
            request.validate().map_err(|e| {
                ConfigError::new(
                    field(i),
                    format!("{} stream {index}: not a valid DirectStorage request: {e}", c.name()),
                )
            })?;
            kept.push(PoolStream { container: i, member, index, request });
        }
    }
    kept.sort_by_key(|s| match s.request.source {
        Source::File { offset } => offset,
        Source::Memory => 0,
    });
    Ok((kept, total))
}

/// Opens every container (paths relative to `base_dir`) and selects its streams; errors name
/// the field (`workload.containers[i]`, `workload.streams`) and the file.
pub fn load(cfg: &PoolWorkload, base_dir: &Path) -> Result<Pool, ConfigError> {
    cfg.validate().map_err(|e| e.within("workload"))?;
    let (mut streams, mut total_streams) = (Vec::new(), 0);
    for (i, name) in cfg.containers.iter().enumerate() {
        // One file in memory at a time: only the requests are kept.
        let file = PackedFile::open(&base_dir.join(name)).map_err(|e| ConfigError::new(field(i), e.to_string()))?;
        let (kept, total) = match &file {
            PackedFile::Texture(c) => container_streams(i, std::slice::from_ref(c), c.file_bytes(), cfg)?,
            PackedFile::Set(set) => container_streams(i, set.members(), set.file_bytes(), cfg)?,
        };
        streams.extend(kept);
        total_streams += total;
    }
    if streams.is_empty() {
        return Err(ConfigError::new(
            "workload.streams",
            format!(
                "{:?} selects none of the {total_streams} streams in {} container(s); expected a selection of at least \
                 one stream",
                cfg.streams,
                cfg.containers.len()
            ),
        ));
    }
    Ok(Pool { streams, total_streams })
}

/// What a pool run measured: the IO run's outcome, and how often each stream completed.
pub struct PoolOutcome {
    pub io: IoOutcome,
    pub pool: Pool,
    /// Completions of `pool.streams[i]` (`passes` each when the run finished).
    pub completions: Vec<u32>,
}

/// Opens the containers and runs the pool on the scenario's hardware.
pub fn run(
    scenario: &Scenario,
    cfg: &PoolWorkload,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<PoolOutcome, RunError> {
    let pool = load(cfg, &scenario.base_dir)?;
    run_with(scenario, cfg, pool, IoPath::new(&scenario.hardware, scenario.seed)?, progress)
}

/// [`run`] on a selection and IO path the caller built.
pub fn run_with(
    scenario: &Scenario,
    cfg: &PoolWorkload,
    pool: Pool,
    path: IoPath,
    progress: &mut dyn FnMut(Time, Time),
) -> Result<PoolOutcome, RunError> {
    let n = pool.streams.len();
    let mut order: Vec<usize> = (0..n).collect();
    if cfg.order == PoolOrder::Shuffled {
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(scenario.seed ^ 0x706f_6f6c));
    }
    let list = pool.streams.iter().map(|s| s.request).collect();
    let requests = Requests::List { list, order: order.clone(), passes: cfg.passes, next: 0 };
    // Tags are enqueue indices: tag t read stream order[t % n].
    let mut title = Title::with_requests(requests, cfg.in_flight, 0);
    let mut completions = vec![0u32; n];
    let plan = Plan { cadence: cfg.cadence, set_staging: &[], until_done: true };
    let mut ran = drive(scenario, &mut title, &plan, path, progress, &mut |c| {
        completions[order[(c.tag % n as u64) as usize]] += 1;
    })?;

    let elapsed = ran.end;
    let secs = elapsed.as_secs_f64().max(1e-12);
    let mut s = StatSet::default();
    ran.path.push_stats(&mut s, elapsed);
    let (src, dst) = (ran.src_done as f64, ran.dest_done as f64);
    let mean_stream = pool.streams.iter().map(|p| p.request.destination_size.0 as f64).sum::<f64>() / n as f64;
    s.push("pool.streams", Some(n as f64), "count", "streams selected (read once per pass)");
    s.push("pool.passes", Some(f64::from(cfg.passes)), "count", "times the selection is read");
    s.push("pool.completed", Some(ran.latencies.len() as f64), "count", "requests whose data reached title memory");
    s.push("pool.elapsed", Some(elapsed.as_ms_f64()), "ms", "time from 0 to the last completion (or the duration)");
    s.push("pool.source_bytes", Some(src), "B", "compressed bytes of completed requests (read from the drive)");
    s.push("pool.destination_bytes", Some(dst), "B", "uncompressed bytes of completed requests (written to memory)");
    s.push("pool.read_throughput", Some(src / 1e6 / secs), "MB/s", "pool.source_bytes over pool.elapsed");
    s.push("pool.to_memory_throughput", Some(dst / 1e6 / secs), "MB/s", "pool.destination_bytes over pool.elapsed");
    s.push("pool.ratio", (src > 0.0).then(|| dst / src), "x", "destination ÷ source bytes of completed requests");
    s.push("pool.mean_stream", Some(mean_stream / 1024.0), "KiB", "mean uncompressed size of a selected stream");
    s.push_latency_percentiles_ms("request.latency", &mut ran.latencies, &LATENCY_POINTS, |p| {
        format!("request latency {p}: enqueue → data in title memory")
    });
    Ok(PoolOutcome { io: ran.into_outcome(s), pool, completions })
}
