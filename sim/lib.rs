//! # sfsim — a simulator of the Xbox Series X|S texture-streaming path
//!
//! sfsim co-simulates the NVMe drive behind a DirectStorage queue (2000 MB/s guaranteed
//! over every 250 ms window), the two-unit Memory Decompression Unit (zlib → BCPack →
//! swizzle), the GPU sampler writing 5.3 MinMip sampler feedback over ray-cast scenes and
//! recorded camera paths, and the Sampler Feedback Streaming engine that reads that
//! feedback and decides what to load and evict. Time is integer picoseconds; runs are
//! deterministic: the same scenario and seed give byte-identical `stats.json` (leaving
//! out the `host.*` wall-clock figures), on any number of threads.
//!
//! ## The layers
//! ```text
//!  scenario file (RON) ──► scenario::Scenario ──► run::run ──► workload::{io, pool, render, stream}
//!                                                                  │
//!        ┌─────────────────────────────────────────────────────────┤ owns the clock (kernel)
//!        ▼                                                         ▼
//!  scene + camera ──► FeedbackRenderer (sampler, feedback) ──► engine::Engine (SFS)
//!                                                                  │ requests
//!                                                                  ▼
//!                                iopath::IoPath: requests → IOs → staging → NVMe → MDU
//!                                                                  │
//!  sfsim-models (models): units, DirectStorage rules, drive, MDU, codecs, textures, GPU
//!  output / report: stats.json, frames.csv, tiles.csv, trace.json, signals.vcd, plots
//! ```
//! `models` knows nothing about frames, scenes or files: each model is a plain struct with
//! a functional side (bytes in → bytes out) and a self-timed side (`next_event`,
//! `advance`). `sim` owns time: a workload's event loop calls the models, the engine and
//! the sampler, and each component reports its own stats (`push_stats`).
//!
//! ## How a run flows
//! [`scenario::Scenario::load`] parses the file (errors carry file:line:col), applies
//! `--set` overrides and validates every field's range. [`run::run`] dispatches on the
//! workload: an IO run enqueues requests at a cadence (a content-pool run, `Workload::Pool`,
//! does the same over every stream of real `sfsim pack` containers until the last one
//! completes, [`workload::pool`]); a streaming run renders a frame,
//! hands its feedback to the engine, which analyses it `readback_frames` later, submits
//! loads through the IO path and maps them, and makes them visible through the MinMip map.
//! Inside a frame time passes: the GPU queue runs the render, the feedback resolve and the
//! UpdateTileMappings batches; the engine's feedback thread pays for analysis per texel
//! and submits each load when it gets there; completions are seen once per frame
//! (`PerFrame`) or by a streaming thread (`StreamingThread`). Each tile is its own
//! DirectStorage request; a texture set's tiles are submitted together
//! ([`iopath::IoPath::enqueue_all`]) and, laid out back to back in their file, read as one
//! IO. A streaming run may carry `background` IO titles beside the engine that share the
//! drive, staging buffer and MDU. After the run, each frame is charged to the resource its
//! tiles waited on most ([`workload::attribution`]: `engine.bottleneck.*`). See
//! docs/calibration.md. [`output`] writes what the run measured.
//!
//! ## Running a scenario
//! ```text
//! sfsim run scenarios/quickstart.ron                 # writes reports/out/quickstart/
//! sfsim run scenarios/io/saturate.ron --set workload.in_flight=16MiB --out /tmp/s16
//! sfsim sweep scenarios/io/saturate.ron --vary workload.in_flight=4MiB,16MiB,64MiB
//! sfsim sweep scenarios/sweeps/seed-rdo.ron          # a sweep file: axes over scenario
//!                                                    # fields and packing options
//! ```
//! A sweep ([`sweep`]) loads every point's scenario first (errors point at the axis),
//! packs each distinct packing point once into `<out>/pack-cache`, runs the points on
//! every core and writes `results.csv` (tidy), `sweep.csv`, `index.html`; `--shard K/N`
//! and `sfsim merge` spread it over machines with byte-identical results. [`regress`]
//! reruns the baselines in `reports/baselines/` and judges every stat against its
//! tolerance (`sfsim regress`, JUnit XML for a title's CI; docs/regress.md).
//! From Rust (see also `examples/run_from_rust.rs`):
//! ```
//! use sfsim::scenario::Scenario;
//! use sfsim::run::{run, RunOptions};
//! let text = r#"Scenario(name: "doc", duration: "500ms", workload: Io((in_flight: "64MiB")))"#;
//! let scenario = Scenario::from_text(text, "doc.ron".as_ref(), &[]).unwrap();
//! let result = run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap();
//! assert!(result.stats.get("nvme.throughput").unwrap() > 1900.0);
//! ```
//!
//! ## Add an eviction policy
//! A policy is a type implementing [`engine::EvictionPolicy`] (likewise
//! [`engine::LoadOrder`], [`engine::FeedbackPolicy`]). Outside the crate, put it in the
//! run's [`workload::stream::Components`] and call [`workload::stream::run_with`]; inside,
//! add one file under
//! `sim/engine/eviction/`, one [`engine::EvictionKind`] variant and one arm in its
//! `build` — the engine does not change. `examples/custom_eviction.rs` runs one on the
//! quickstart.
//! ```
//! use sfsim::engine::{EvictionPolicy, TileDb, TileId};
//! use sfsim::models::units::Time;
//! use sfsim::scenario::{Scenario, Workload};
//! use sfsim::workload::stream;
//!
//! /// Evicts every resident tile unseen for more than 100 ms, oldest first.
//! struct Impatient;
//!
//! impl EvictionPolicy for Impatient {
//!     fn name(&self) -> &'static str { "Impatient" }
//!     fn seen_horizon(&self) -> Time { Time::from_ms(100) }
//!     fn victims(&mut self, now: Time, db: &TileDb, resident: &[TileId]) -> Vec<TileId> {
//!         let mut old: Vec<(Time, TileId)> = resident.iter()
//!             .map(|&id| (db.state(id).last_seen, id))
//!             .filter(|(seen, _)| now.saturating_sub(*seen) > Time::from_ms(100))
//!             .collect();
//!         old.sort_unstable();
//!         old.into_iter().map(|(_, id)| id).collect()
//!     }
//! }
//!
//! let text = r#"Scenario(name: "doc", duration: "600ms", workload: Stream((
//!     scene: (objects: [CubeGrid(count: 4, spacing: 10.0, size: 6.0)],
//!             texture_sets: (count: 4, size: 2048)),
//!     camera: Generator(Orbit(center: (0.0, 0.0, 0.0), radius: 12.0, height: 3.0, period_s: 0.6)),
//!     render: (resolution: (256, 144)),
//! )))"#;
//! let scenario = Scenario::from_text(text, "doc.ron".as_ref(), &[]).unwrap();
//! let Workload::Stream(cfg) = &scenario.workload else { unreachable!() };
//! let mut components = stream::Components::from_scenario(&scenario, cfg).unwrap();
//! components.policies.eviction = Box::new(Impatient);
//! let run = stream::run_with(&scenario, cfg, components, &mut |_, _| {}, &mut |_, _| {}).unwrap();
//! assert!(run.stats.get("engine.evictions").unwrap() > 0.0);
//! ```
//!
//! ## Add a drive model
//! A drive is a type implementing [`models::nvme::NvmeModel`], self-timed like every
//! timing model: `submit` IOs, say when the next thing happens (`next_event`), `advance`
//! to a time and report the IOs that finished; an MDU implements [`models::mdu::MduModel`]
//! the same way. [`iopath::IoPath::with_models`] builds an IO path around any pair (its
//! documentation has a complete fixed-rate drive); hand it to a run with
//! [`workload::io::run_with`] or in a streaming run's `Components`. sfsim's own models
//! are built from the scenario's `hardware` section by `nvme::build_model` and
//! `mdu::build_model`: a new built-in model is one file beside them and one arm there.
//! Here, a drive that wraps sfsim's and allows one IO at a time:
//! ```
//! use sfsim::iopath::IoPath;
//! use sfsim::models::nvme::{self, DeviceStats, IoDone, NvmeModel, Transfer};
//! use sfsim::models::{mdu, units::{Bytes, Time}};
//! use sfsim::scenario::{Scenario, Workload};
//!
//! struct OneAtATime { inner: Box<dyn NvmeModel>, outstanding: usize }
//!
//! impl NvmeModel for OneAtATime {
//!     fn can_accept(&self) -> bool { self.outstanding == 0 && self.inner.can_accept() }
//!     fn submit(&mut self, now: Time, id: u64, bytes: Bytes) {
//!         self.outstanding += 1;
//!         self.inner.submit(now, id, bytes);
//!     }
//!     fn advance(&mut self, until: Time, done: &mut Vec<IoDone>) {
//!         let before = done.len();
//!         self.inner.advance(until, done);
//!         self.outstanding -= done.len() - before;
//!     }
//!     fn set_backlog(&mut self, now: Time, waiting: bool) { self.inner.set_backlog(now, waiting) }
//!     fn next_event(&self) -> Option<Time> { self.inner.next_event() }
//!     fn finish(&mut self, end: Time) { self.inner.finish(end) }
//!     fn stats(&self) -> DeviceStats { self.inner.stats() }
//!     fn window(&self) -> Time { self.inner.window() }
//!     fn drain_transfers(&mut self) -> std::vec::Drain<'_, Transfer> { self.inner.drain_transfers() }
//! }
//!
//! let text = r#"Scenario(name: "doc", duration: "500ms", workload: Io((in_flight: "64MiB")))"#;
//! let scenario = Scenario::from_text(text, "doc.ron".as_ref(), &[]).unwrap();
//! let Workload::Io(cfg) = &scenario.workload else { unreachable!() };
//! let hw = &scenario.hardware;
//! let drive = OneAtATime { inner: nvme::build_model(&hw.nvme, scenario.seed).unwrap(), outstanding: 0 };
//! let path = IoPath::with_models(Box::new(drive), mdu::build_model(&hw.mdu).unwrap(), hw.staging, hw.nvme.max_io)
//!     .unwrap();
//! let run = sfsim::workload::io::run_with(&scenario, cfg, path, &mut |_, _| {}).unwrap();
//! // 64 KiB IOs one at a time pay the access latency each: far below the 2000 MB/s guarantee.
//! let mb_s = run.stats.get("nvme.throughput").unwrap();
//! assert!(mb_s > 100.0 && mb_s < 1000.0, "{mb_s}");
//! ```
//!
//! ## Add a stat
//! Stats belong to the component that measures them: add a `s.push(name, value, unit,
//! description)` to its `push_stats` (the engine's are in `sim/engine/stats.rs`, the IO
//! path's in `sim/iopath.rs`), or implement `push_stats` on your policy. Names are API
//! (scripts and regression baselines read them): the golden lists in `tests/golden/`
//! must be updated in the same change (`SFSIM_UPDATE_GOLDEN=1 cargo test --test
//! integration stat_names`). A value the run could not measure is `None` (JSON `null`).
//! ```
//! use sfsim::stats::StatSet;
//! let mut s = StatSet::default();
//! s.push("engine.requests_merged", Some(12.0), "count", "adjacent reads merged into one IO");
//! s.push("nvme.window_min", None, "MB", "no full window was measured");
//! assert_eq!(s.get("engine.requests_merged"), Some(12.0));
//! assert!(s.to_json().contains(r#""unit": "count""#));
//! ```
//!
//! ## Modules
//! - [`scenario`]: the RON schema, `--set` overrides, validation with file:line:col errors.
//! - `kernel`: the event queue ordered by (time, insertion sequence) (internal; public
//!   with the `bench` feature).
//! - [`iopath`]: requests → IOs → staging → NVMe → MDU → title memory.
//! - [`engine`]: the SFS engine and its policies ([`engine::eviction`],
//!   [`engine::load_order`], [`engine::feedback`]), content models.
//! - [`scene`], [`camera`]: objects, texture sets, the ray-cast sampler; camera paths.
//! - [`workload`]: what drives the hardware: IO, render and stream runs.
//! - [`content`]: the XBTC-like packer, containers, the codec report.
//! - [`stats`], [`report`], [`output`]: stats.json, CSVs, traces, plots and index.html.
//! - The hardware models live in the `sfsim-models` crate, re-exported as [`models`].

pub mod camera;
pub mod content;
#[warn(missing_docs)]
pub mod engine;
#[warn(missing_docs)]
pub mod iopath;
// The kernel is an internal; the `bench` feature exposes it to the criterion benches.
#[cfg(feature = "bench")]
pub mod kernel;
#[cfg(not(feature = "bench"))]
#[allow(dead_code)]
pub(crate) mod kernel;
pub mod limits;
pub mod output;
pub mod regress;
pub mod report;
pub mod run;
pub mod scenario;
pub mod scene;
pub mod spill;
pub mod stats;
pub mod sweep;
pub mod workload;

pub use sfsim_models as models;
