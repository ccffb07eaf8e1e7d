//! The sample's Resident Tiles list, with O(1) insertion and removal.
//!
//! A loaded scene can hold tens of thousands of resident tiles, and every load that
//! reclaims a slot removes one; finding and shifting it out of an ordered list made
//! eviction the engine's largest cost. The list is therefore unordered — removal swaps the
//! last entry into the hole — and every policy sorts what it needs by its own keys
//! (each ending in the unique [`TileId`]), so the order never reaches a result.

use super::tiles::{TileDb, TileId};

/// Marks a tile that is not in the list.
const NOT_LISTED: u32 = u32::MAX;

pub(super) struct ResidentList {
    ids: Vec<TileId>,
    /// Per texture, per dense tile index: the tile's position in `ids`, or [`NOT_LISTED`].
    position: Vec<Vec<u32>>,
    /// Listed tiles per mip (index 15 gathers mips ≥ 15), kept as tiles come and go
    /// because the report reads it every frame.
    per_mip: [u64; 16],
}

impl ResidentList {
    /// An empty list for the tiles of `db`'s textures.
    pub fn new(db: &TileDb) -> ResidentList {
        let position =
            (0..db.texture_count()).map(|t| vec![NOT_LISTED; db.desc(t).standard_tile_count() as usize]).collect();
        ResidentList { ids: Vec::new(), position, per_mip: [0; 16] }
    }

    /// Every resident tile, in no particular order.
    pub fn ids(&self) -> &[TileId] {
        &self.ids
    }

    /// Listed tiles per mip (index 15 gathers mips ≥ 15), as [`TileDb::residency_per_mip`].
    pub fn per_mip(&self) -> Vec<u64> {
        self.per_mip.to_vec()
    }

    /// Adds a tile of `db` that is not listed yet (listing one twice is an engine bug:
    /// debug-asserted).
    pub fn push(&mut self, db: &TileDb, id: TileId) {
        self.per_mip[(db.coord(id).mip as usize).min(15)] += 1;
        let at = &mut self.position[id.texture as usize][id.index as usize];
        debug_assert_eq!(*at, NOT_LISTED, "{id:?} listed twice");
        *at = self.ids.len() as u32;
        self.ids.push(id);
    }

    /// Removes a tile of `db`; returns whether it was listed.
    pub fn remove(&mut self, db: &TileDb, id: TileId) -> bool {
        let at = std::mem::replace(&mut self.position[id.texture as usize][id.index as usize], NOT_LISTED);
        if at == NOT_LISTED {
            return false;
        }
        self.per_mip[(db.coord(id).mip as usize).min(15)] -= 1;
        self.ids.swap_remove(at as usize);
        if let Some(&moved) = self.ids.get(at as usize) {
            self.position[moved.texture as usize][moved.index as usize] = at;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::texture::{BcFormat, TextureDesc};

    fn db() -> TileDb {
        TileDb::new(&[
            TextureDesc::new(1024, 1024, BcFormat::Bc1, None).unwrap(),
            TextureDesc::new(512, 512, BcFormat::Bc7, None).unwrap(),
        ])
    }

    #[test]
    fn removal_keeps_every_other_tile_findable() {
        let db = db();
        let mut list = ResidentList::new(&db);
        let ids: Vec<TileId> = (0..2).flat_map(|texture| (0..5).map(move |index| TileId { texture, index })).collect();
        for &id in &ids {
            list.push(&db, id);
        }
        for (k, &id) in ids.iter().enumerate().filter(|(k, _)| k % 3 != 1) {
            assert!(list.remove(&db, id), "tile {k} was listed");
            assert!(!list.remove(&db, id), "tile {k} is removed once");
        }
        let mut left: Vec<TileId> = list.ids().to_vec();
        left.sort_unstable();
        let expected: Vec<TileId> = ids.iter().enumerate().filter(|(k, _)| k % 3 == 1).map(|(_, &id)| id).collect();
        assert_eq!(left, expected);
        // Positions still point at the right entries after the swaps.
        assert_eq!(list.per_mip(), db.residency_per_mip(list.ids()));
        for &id in &expected {
            assert!(list.remove(&db, id));
        }
        assert!(list.ids().is_empty());
        assert_eq!(list.per_mip(), vec![0; 16]);
    }
}
