//! What stops a streaming run: an extension point (content model or policy) that returned
//! something the engine cannot use. Each variant names the texture, tile and rule.

use super::tiles::TileId;
use sfsim_models::nvme::RequestError;
use sfsim_models::texture::TileCoord;

/// Why the engine stopped a run.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The content model gave a stream that breaks a DirectStorage rule: fix the content
    /// model (or the container it reads).
    #[error("content model: texture {texture} tile {tile:?} ({what}): invalid DirectStorage request: {source}")]
    InvalidRequest {
        /// Texture of the (first) tile of the request.
        texture: u32,
        /// Its tile.
        tile: TileCoord,
        /// What the request loads: "packed tail" or "tile load".
        what: &'static str,
        /// The rule it breaks.
        source: RequestError,
    },
    /// A policy named a tile it may not act on: fix the policy.
    #[error("{policy} policy: tile {tile:?} (texture {}, mip {mip}): {rule}", tile.texture)]
    Policy {
        /// The policy's name.
        policy: &'static str,
        /// The tile it named.
        tile: TileId,
        /// The tile's mip.
        mip: u32,
        /// What was wrong with it.
        rule: String,
    },
    /// The pool's slot accounting broke: an engine bug, reported instead of corrupting state.
    #[error("tile pool: tile {tile:?}: {rule}")]
    PoolAccounting {
        /// The tile whose slot was wrong.
        tile: TileId,
        /// What was wrong.
        rule: &'static str,
    },
    /// `end_frame` was called without a `begin_frame` before it: fix the caller's loop.
    #[error("engine: end_frame called before any begin_frame")]
    FrameOrder,
}
