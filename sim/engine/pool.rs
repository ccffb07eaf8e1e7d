//! The tile pool: one heap of 64 KiB slots (SPEC §5: 512 MB by default), handed to tiles
//! as they start loading and given back when they are evicted.

use super::error::EngineError;
use super::tiles::TileId;

pub(super) struct TilePool {
    /// Free slots; the next one handed out is the last.
    free: Vec<u32>,
    owner: Vec<Option<TileId>>,
}

impl TilePool {
    pub fn new(slots: u32) -> TilePool {
        TilePool { free: (0..slots).rev().collect(), owner: vec![None; slots as usize] }
    }

    pub fn capacity(&self) -> u32 {
        self.owner.len() as u32
    }

    pub fn used(&self) -> u32 {
        self.capacity() - self.free.len() as u32
    }

    pub fn free(&self) -> usize {
        self.free.len()
    }

    pub fn owner(&self, slot: u32) -> Option<TileId> {
        self.owner.get(slot as usize).copied().flatten()
    }

    /// A free slot for `tile`; the caller checked [`free`](Self::free).
    pub fn take(&mut self, tile: TileId) -> Result<u32, EngineError> {
        let slot = self.free.pop().ok_or(EngineError::PoolAccounting { tile, rule: "no free slot after reserving" })?;
        self.owner[slot as usize] = Some(tile);
        Ok(slot)
    }

    /// Gives back the slot `tile` holds.
    pub fn give_back(&mut self, slot: u32, tile: TileId) -> Result<(), EngineError> {
        if self.owner(slot) != Some(tile) {
            return Err(EngineError::PoolAccounting { tile, rule: "freed a slot it does not hold" });
        }
        self.owner[slot as usize] = None;
        self.free.push(slot);
        Ok(())
    }
}
