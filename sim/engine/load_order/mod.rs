//! Load orders: which Seen Tiles are submitted first when staging memory and pool slots
//! run short (SPEC §5 step 4).
//!
//! [`LoadOrderKind`] is the scenario's selector; [`LoadOrderKind::build`] makes the
//! [`LoadOrder`]. One file per implementation.

mod coarsest_first;
mod recency_first;

pub use coarsest_first::CoarsestFirst;
pub use recency_first::RecencyFirst;

use super::tiles::TileId;
use serde::{Deserialize, Serialize};
use sfsim_models::units::Time;

/// What a load order may sort a Seen tile by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenTile {
    /// The tile.
    pub id: TileId,
    /// Its mip (larger is coarser).
    pub mip: u32,
    /// Frame time of the latest feedback that asked for it.
    pub last_seen: Time,
    /// Frame time of the feedback that first asked for it.
    pub requested: Time,
}

/// Orders Seen Tiles for submission.
pub trait LoadOrder: Send {
    /// The name used in errors and stats.
    fn name(&self) -> &'static str;

    /// Sorts `seen` into submission order. The order must be total (end ties with the
    /// unique `id`) so that runs stay deterministic.
    fn sort(&self, seen: &mut [SeenTile]);
}

/// The scenario's load-order selector; the default is the sample's `CoarsestFirst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum LoadOrderKind {
    /// The sample's: coarsest mip first, then oldest request.
    #[default]
    CoarsestFirst,
    /// Most recently seen first, then coarsest.
    RecencyFirst,
}

impl LoadOrderKind {
    /// The load order this selector names.
    pub fn build(&self) -> Box<dyn LoadOrder> {
        match self {
            LoadOrderKind::CoarsestFirst => Box::new(CoarsestFirst),
            LoadOrderKind::RecencyFirst => Box::new(RecencyFirst),
        }
    }
}
