//! What stops a streaming run: an extension point (content model or policy) that returned
//! something the engine cannot use. Each variant names the texture, tile and rule.

use super::tiles::TileId;
use sfsim_models::nvme::RequestError;
use sfsim_models::texture::TileCoord;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The content model gave a stream that breaks a DirectStorage rule: fix the content
    /// model (or the container it reads).
    #[error("content model: texture {texture} tile {tile:?} ({what}): invalid DirectStorage request: {source}")]
    InvalidRequest { texture: u32, tile: TileCoord, what: &'static str, source: RequestError },
    /// A policy named a tile it may not act on: fix the policy.
    #[error("{policy} policy: tile {tile:?} (texture {}, mip {mip}): {rule}", tile.texture)]
    Policy { policy: &'static str, tile: TileId, mip: u32, rule: String },
    /// The pool's slot accounting broke: an engine bug, reported instead of corrupting state.
    #[error("tile pool: tile {tile:?}: {rule}")]
    PoolAccounting { tile: TileId, rule: &'static str },
}
