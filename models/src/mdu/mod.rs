//! The Memory Decompression Unit. Functional side ([`decode`], [`pack`]): a request's bytes
//! through zlib → BCPack → swizzle, exactly. Timing side: `units` identical units, each a pipeline of
//! zlib → BCPack → swizzle stages. Stages run in sequence without slowing each other, so a
//! job's service time is the set-up cost plus the slower of its input (compressed bytes at
//! `input`) and its output (bytes written to title memory at `output`). Uncompressed moves
//! skip every stage but still pass through at the same limits. Jobs wait in one FIFO and
//! start on the lowest-numbered free unit.
//!
//! The timing model is swappable: the DirectStorage path drives any [`MduModel`];
//! [`build_model`] makes sfsim's own, [`Mdu`], from an [`MduConfig`].

mod config;
mod error;
mod functional;
mod model;
mod pool;

pub use config::MduConfig;
pub use error::MduError;
pub use functional::{decode, decode_into, infer_request, pack, Encoding, MduRequest, Packed};
pub use model::{build_model, MduModel};
pub use pool::{Job, JobDone, Mdu, Stages, UnitStats};
