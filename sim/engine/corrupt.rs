//! Corrupt payloads on packed content (`hardware.faults.corrupt_rate`): the drive's fault
//! says the bytes arrived damaged; this check shows the damage is caught the way the real
//! path would catch it. The tile's stream is copied with bytes flipped at seeded places and
//! run through the functional MDU: a zlib or BCPack stream mostly fails to decode, and what
//! decodes anyway fails the container's tile hash. Synthetic content has no bytes, so
//! there the fault's status alone stands for the rejection.

use super::packed::PackedContent;
use crate::content::pack::fnv1a64;
use crate::stats::StatSet;
use sfsim_models::mdu::decode;
use sfsim_models::texture::TileCoord;
use std::sync::Arc;

/// How the corrupt payloads of a run were caught (`content.corrupt.*`).
pub struct CorruptCheck {
    content: Arc<PackedContent>,
    /// Rejected by the functional MDU's decode.
    pub by_decode: u64,
    /// Decoded, then rejected by the tile hash.
    pub by_hash: u64,
    /// Neither caught it (a flip that changed nothing the hash sees; never expected).
    pub escaped: u64,
}

/// Bytes per flipped byte: enough flips that any stage meets one.
const BYTES_PER_FLIP: usize = 4096;

impl CorruptCheck {
    /// Checks corrupt loads of `content`.
    pub fn new(content: Arc<PackedContent>) -> CorruptCheck {
        CorruptCheck { content, by_decode: 0, by_hash: 0, escaped: 0 }
    }

    /// A load of `tile` of `texture` arrived corrupt: flip its bytes and see what catches it.
    pub fn corrupt_loaded(&mut self, texture: u32, tile: TileCoord) {
        let (container, index) = self.content.stream_of(texture, tile);
        let Ok(stream) = container.stream(index) else {
            self.by_decode += 1;
            return;
        };
        let mut bytes = stream.bytes.to_vec();
        if bytes.is_empty() {
            self.by_decode += 1;
            return;
        }
        // Seeded by the tile, so the same load flips the same bytes in every run.
        let mut x =
            (u64::from(texture) << 40) ^ (u64::from(tile.mip) << 32) ^ (u64::from(tile.x) << 16) ^ u64::from(tile.y);
        for _ in 0..bytes.len().div_ceil(BYTES_PER_FLIP) {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let at = (x >> 33) as usize % bytes.len();
            bytes[at] ^= 0xA5;
        }
        match decode(&stream.request, &bytes) {
            Err(_) => self.by_decode += 1,
            Ok(out) if fnv1a64(&out) != stream.entry.hash => self.by_hash += 1,
            Ok(_) => self.escaped += 1,
        }
    }

    /// `content.corrupt.by_decode`, `.by_hash`, `.escaped`.
    pub fn push_stats(&self, s: &mut StatSet) {
        s.push(
            "content.corrupt.by_decode",
            Some(self.by_decode as f64),
            "count",
            "corrupt tile payloads the functional MDU refused to decode",
        );
        s.push(
            "content.corrupt.by_hash",
            Some(self.by_hash as f64),
            "count",
            "corrupt tile payloads that decoded but failed the container's tile hash",
        );
        s.push(
            "content.corrupt.escaped",
            Some(self.escaped as f64),
            "count",
            "corrupt tile payloads neither check caught (the engine rejects them anyway)",
        );
    }
}
