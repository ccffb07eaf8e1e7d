//! Where each stream of a set goes in the shared data section: every member-0 tile followed
//! by its companions in the other members, so the tiles a shared-per-set policy loads
//! together sit side by side. A pure function of the three tables, so the writer and the
//! reader compute the same placement and the reader can refuse a stream that is not there.

use super::format::StreamEntry;
use super::set::Slot;
use sfsim_models::texture::{TextureDesc, TileCoord};
use std::collections::HashMap;

/// The tiles of texture `to` that correspond to `tile` of texture `from` (same mip; when the
/// formats' 64 KiB tiles cover different texel rectangles, every `to` tile overlapping it).
/// The same rule as the engine's shared-per-set policy (`engine::analysis::companion_tiles`;
/// a unit test there checks the two agree).
pub fn companion_tiles(from: &TextureDesc, tile: TileCoord, to: &TextureDesc) -> Vec<TileCoord> {
    if tile.mip >= to.first_packed_mip() {
        return Vec::new();
    }
    if from.format.tile_texels() == to.format.tile_texels() {
        return vec![tile];
    }
    let (fw, fh) = from.format.tile_texels();
    let (tw, th) = to.format.tile_texels();
    let info = to.mip(tile.mip);
    let (x0, x1) = (tile.x * fw / tw, ((tile.x + 1) * fw - 1) / tw);
    let (y0, y1) = (tile.y * fh / th, ((tile.y + 1) * fh - 1) / th);
    let mut out = Vec::new();
    for y in y0..=y1.min(info.tiles_y.saturating_sub(1)) {
        for x in x0..=x1.min(info.tiles_x.saturating_sub(1)) {
            out.push(TileCoord { mip: tile.mip, x, y });
        }
    }
    out
}

/// The order of every stream of `members` in the shared data section: each streamable
/// member-0 stream in table order, right after it each other member's companion tiles
/// ([`companion_tiles`]) not placed yet (member 1's, then member 2's); then the other
/// members' streamable streams not placed yet, in table order; then every member's resident
/// streams (member 0's first). Every stream appears exactly once.
pub fn interleave(members: &[(TextureDesc, &[StreamEntry])]) -> Vec<Slot> {
    let mut placed: Vec<Vec<bool>> = members.iter().map(|(_, e)| vec![false; e.len()]).collect();
    let tiles: Vec<HashMap<TileCoord, usize>> = members
        .iter()
        .map(|(_, entries)| {
            entries
                .iter()
                .enumerate()
                .filter(|(_, e)| !e.resident)
                .filter_map(|(i, e)| e.tile.map(|t| (t, i)))
                .collect()
        })
        .collect();
    let mut order = Vec::with_capacity(members.iter().map(|(_, e)| e.len()).sum());
    let Some(((first, lead), rest)) = members.split_first().map(|(f, r)| ((f.0, f.1), r)) else {
        return order;
    };
    for (i, e) in lead.iter().enumerate() {
        if e.resident {
            continue;
        }
        order.push((0, i));
        placed[0][i] = true;
        let Some(tile) = e.tile else { continue };
        for (k, (desc, _)) in rest.iter().enumerate().map(|(k, m)| (k + 1, m)) {
            for c in companion_tiles(&first, tile, desc) {
                if let Some(&j) = tiles[k].get(&c) {
                    if !placed[k][j] {
                        placed[k][j] = true;
                        order.push((k, j));
                    }
                }
            }
        }
    }
    for (k, (_, entries)) in members.iter().enumerate().skip(1) {
        for (j, e) in entries.iter().enumerate() {
            if !e.resident && !placed[k][j] {
                order.push((k, j));
            }
        }
    }
    for (k, (_, entries)) in members.iter().enumerate() {
        order.extend(entries.iter().enumerate().filter(|(_, e)| e.resident).map(|(j, _)| (k, j)));
    }
    order
}

/// Relative offsets of every stream (`[member][stream]`) when `order` is laid out from 0,
/// each stream starting on a 16-byte boundary, and the data section's bytes.
pub fn placement(members: &[(TextureDesc, &[StreamEntry])], order: &[Slot]) -> (Vec<Vec<u64>>, u64) {
    let mut offsets: Vec<Vec<u64>> = members.iter().map(|(_, e)| vec![0; e.len()]).collect();
    let mut at = 0u64;
    for &(k, j) in order {
        offsets[k][j] = at;
        at = super::format::align(at + u64::from(members[k].1[j].compressed_size));
    }
    (offsets, at)
}
