//! Integration tests of the `sfsim` package: one binary, one module per topic.

mod bottleneck;
mod browser;
mod camera;
mod catalogue;
mod cli;
mod codecs;
mod common;
mod content_tools;
mod determinism;
mod engine;
mod engine_timing;
mod feedback;
mod feedback_rate;
mod io_curves;
mod io_scenarios;
mod mixed_io;
mod nonresident;
mod pack;
mod packed_engine;
mod plot_cmd;
mod pool;
mod regress;
mod scenario_errors;
mod set_io;
mod stat_names;
mod sweep;
