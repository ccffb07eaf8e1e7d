//! sfsim's packed-texture container and the packer behind `sfsim pack` (an XBTC-like tool,
//! SPEC §3; the file format is docs/container.md, version 1).
//!
//! Packing: an image (PNG/JPEG/TGA, [`load_image`]) gets a full mip chain
//! ([`mipgen`](crate::content::mipgen): Kaiser filter, sRGB-aware), is BC-encoded, laid out
//! and cut into regions by tile mode and mip-stream count
//! ([`PackRegions`](sfsim_models::texture::PackRegions)), and each region is compressed
//! three ways (Deflate only, BCPack only, BCPack then Deflate), the smallest kept, raw when
//! nothing shrinks; with [`ShuffleChoice`] (`--shuffle`) the Deflate-only candidate may be
//! taken over the format's BC field shuffle, undone by the MDU's swizzle stage. Regions
//! compress in parallel. Every stream is decoded back through the
//! functional MDU before it is written.
//!
//! Reading: [`Container::open`] / [`Container::from_bytes`] validate the whole header and
//! table (every field against its range, the table against the regions the header implies,
//! a table hash); [`Container::stream`] gives a stream's MDU request and bytes,
//! [`Container::decode_stream`] decodes it and checks its FNV-1a hash, so a tile that arrives
//! corrupted is detected. Nothing panics on a hostile file.
//!
//! Sets ([`SetContainer`], [`pack_set`]): a diffuse/normal/specular trio in one file, the
//! members' tables as above and their streams interleaved by tile position in one shared data
//! section, so the tiles a shared-per-set policy loads together are adjacent.
//!
//! Inspecting ([`TextureFile`], [`compare`], [`export_dds`]): any container, DDS or image as
//! RGBA8 mips, PSNR/RMSE between two of them, a container back out as a DDS.
//!
//! ```no_run
//! use sfsim::content::pack::{load_image, pack, Container, PackOptions};
//! use sfsim_models::texture::BcFormat;
//! let image = load_image("albedo.png".as_ref())?;
//! let packed = pack(&image, &PackOptions::new(BcFormat::Bc7), &|| {})?;
//! let container = Container::from_bytes(packed.container)?;
//! let tile = container.decode_stream(0)?; // 64 KiB of BC7 blocks
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod compress;
mod error;
mod format;
mod format_parse;
mod from_dds;
mod hash;
mod input;
mod inspect;
mod options;
mod packer;
mod rdo_rule;
mod reader;
mod set;
mod set_layout;
mod set_reader;
mod summary;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_dds;
#[cfg(test)]
mod tests_rdo;
#[cfg(test)]
mod tests_set;
#[cfg(test)]
mod tests_shuffle;

pub use compress::{compress, shuffle_mode, CodecPath, Compressed, ShuffleChoice};
pub use error::{ContainerError, PackError};
pub use format::{Header, StreamEntry, ENTRY_BYTES, HEADER_BYTES, MAGIC, VERSION};
pub use from_dds::{pack_dds, PACKABLE_DDS_FORMATS};
pub use hash::fnv1a64;
pub use input::{load_image, load_input, Input, Loaded};
pub use inspect::{
    compare, compare_channels, export_dds, export_dds_legacy, ChannelError, Comparison, InspectError, TextureFile,
};
pub use options::{parse_bc7_modes, parse_format};
pub use packer::{encode_mips, layout_bytes, pack, rdo_mips, PackOptions, PackedTexture};
pub use rdo_rule::{
    parse_max_loss, search as rdo_rule_search, Probe, RuleReport, Search, GROWTH, LAMBDA_MAX, LAMBDA_MIN, LAMBDA_START,
    MAX_LOSS_DB, TOLERANCE,
};
pub use reader::{Container, Stream};
pub use set::{
    pack_set, write_set, SetHeader, Slot, LAYOUT_INTERLEAVED, MEMBER_KINDS, SET_HEADER_BYTES, SET_MAGIC, SET_MEMBERS,
    SET_VERSION,
};
pub use set_layout::{companion_tiles, interleave, placement};
pub use set_reader::{parse_set, PackedFile, SetContainer};
pub use summary::{GeneratedMips, PathTotals, Summary, Timing};
