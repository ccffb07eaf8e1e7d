//! Hardware and format models of the Xbox Series X|S texture-streaming path.
//!
//! Each model is a plain struct with a functional side (exact bytes) and a timing side
//! (given `now`, when does this finish). The models know nothing about frames, scenes or
//! files; the `sfsim` crate owns time and drives them.
//!
//! - [`units`]: `Time` (integer picoseconds), `Bytes`, `Rate`, parsed from `"250ms"`,
//!   `"2000MB/s"`, `"64KiB"`.
//! - [`nvme`]: DirectStorage request rules, the NVMe device with its 2000 MB/s per 250 ms
//!   guarantee, IO splitting, the staging buffer.
//! - [`mdu`]: the two-unit Memory Decompression Unit's timing.
//! - [`hardware`]: [`Hardware`], the NVMe, staging and MDU configuration as one section.
//! - [`texture`]: BC formats, 64 KiB tile shapes, mip chains, the packed tail, tile
//!   addressing, MinMip and feedback map sizes.
//! - [`codec`]: the MDU's functional stages (zlib, BCPack stand-in, swizzle) and BC formats.
//! - [`faults`]: fault injection on the DirectStorage path (`hardware.faults`).
//! - [`gpu`]: 5.3 LOD values, sampler feedback maps, MinMip maps and filter, the sampler.

#[warn(missing_docs)]
pub mod codec;
#[warn(missing_docs)]
pub mod config;
#[warn(missing_docs)]
pub mod faults;
#[warn(missing_docs)]
pub mod gpu;
#[warn(missing_docs)]
pub mod hardware;
#[warn(missing_docs)]
pub mod mdu;
#[warn(missing_docs)]
pub mod nvme;
#[warn(missing_docs)]
pub mod texture;
#[warn(missing_docs)]
pub mod units;

mod fifo;
mod time_per_byte;

pub use config::ConfigError;
pub use hardware::Hardware;
