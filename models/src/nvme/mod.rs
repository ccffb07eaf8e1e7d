//! NVMe + DirectStorage: request rules (SPEC §1), the device with its windowed bandwidth
//! guarantee, IO splitting, and the staging buffer.
//!
//! The drive is swappable: the DirectStorage path drives any [`NvmeModel`];
//! [`build_model`] makes sfsim's own, [`NvmeDevice`], from an [`NvmeConfig`].

mod config;
mod device;
mod lost;
mod model;
mod report;
mod request;
mod staging;
mod stalls;
mod window;

pub use config::{NvmeConfig, StallProfile};
pub use device::{NvmeDevice, THROTTLE_PERIOD};
pub use model::{build_model, NvmeModel};
pub use report::{DeviceStats, IoDone, IoStatus, Transfer};
pub use request::{
    Piece, Pieces, Request, RequestError, RequestOptions, Source, SwizzleMode, BCPACK_MODE_MAX, MAX_REQUEST_BYTES,
    MAX_ZLIB_OUTPUT, STREAM_ALIGNMENT,
};
pub use staging::StagingBuffer;
pub use window::WindowTracker;
