//! # sfsim — a simulator of the Xbox Series X|S texture-streaming path
//!
//! sfsim co-simulates the NVMe device and DirectStorage queue (2000 MB/s guaranteed over
//! every 250 ms window), the two-unit Memory Decompression Unit (zlib → BCPack → swizzle)
//! and, in later stages, the GPU sampler, sampler feedback and the Sampler Feedback
//! Streaming engine. Time is integer picoseconds; runs are deterministic: the same scenario
//! and seed give byte-identical `stats.json` (leaving out the `host.*` wall-clock figures).
//!
//! ## Running a scenario
//! ```text
//! sfsim run scenarios/quickstart.ron                 # writes reports/out/quickstart/
//! sfsim run scenarios/io/saturate.ron --set workload.in_flight=16MiB --out /tmp/s16
//! sfsim sweep scenarios/io/saturate.ron --vary workload.in_flight=4MiB,16MiB,64MiB
//! ```
//! From Rust:
//! ```
//! use sfsim::scenario::Scenario;
//! use sfsim::run::{run, RunOptions};
//! let text = r#"Scenario(name: "doc", duration: "500ms", workload: Io((in_flight: "64MiB")))"#;
//! let scenario = Scenario::from_text(text, "doc.ron".as_ref(), &[]).unwrap();
//! let result = run(&scenario, RunOptions { host_stats: false }, &mut |_, _| {}).unwrap();
//! assert!(result.stats.get("nvme.throughput").unwrap() > 1900.0);
//! ```
//!
//! ## Modules
//! - [`scenario`]: the RON schema, `--set` overrides, validation with file:line:col errors.
//! - `kernel`: the event queue ordered by (time, insertion sequence) (internal; public
//!   with the `bench` feature).
//! - [`iopath`]: requests → IOs → staging → NVMe → MDU → title memory.
//! - [`workload`]: what drives the hardware (the IO workload today).
//! - [`stats`], [`report`], [`output`]: stats.json, CSVs, plots and index.html.
//! - The hardware models live in the `sfsim-models` crate, re-exported as [`models`].

pub mod camera;
pub mod content;
pub mod engine;
pub mod iopath;
// The kernel is an internal; the `bench` feature exposes it to the criterion benches.
#[cfg(feature = "bench")]
pub mod kernel;
#[cfg(not(feature = "bench"))]
#[allow(dead_code)]
pub(crate) mod kernel;
pub mod output;
pub mod report;
pub mod run;
pub mod scenario;
pub mod scene;
pub mod stats;
pub mod workload;

pub use sfsim_models as models;
