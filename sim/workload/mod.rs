//! Workloads that drive the hardware models. The IO workload is a title enqueuing
//! DirectStorage requests at a cadence; the streaming engine (a later workload) reuses the
//! same [`IoPath`](crate::iopath::IoPath).

pub mod attribution;
pub mod background;
pub mod cuts;
pub mod frame_rows;
pub mod io;
mod io_config;
pub mod io_records;
pub mod pool;
pub mod render;
pub mod stream;
mod stream_config;
mod stream_outcome;
mod throughput_bins;
pub mod title;
