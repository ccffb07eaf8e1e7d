//! Checking loaded tiles of packed content through the functional MDU (`verify`).

use super::packed::PackedContent;
use sfsim_models::texture::TileCoord;
use std::collections::HashMap;

/// Counts verified tiles and mismatches over a run; never stops it.
///
/// A container stream is decoded once per run: virtual textures repeat their container's
/// tiles, and textures share containers, so most checked loads read a stream an earlier
/// check decoded. Decoding is a pure function of the stream's bytes, so such a load
/// takes the earlier verdict (an error keeps its message) and counts as a checked tile as
/// before. The verdicts kept are one per stream of the scene's containers, whatever the
/// run's length.
#[derive(Debug)]
pub struct Verifier {
    content: std::sync::Arc<PackedContent>,
    /// Each decoded stream's verdict: `None` if it decoded and hashed correctly, else the
    /// error.
    verdicts: HashMap<(usize, usize), Option<String>>,
    /// Streams decoded so far (at most one decode each).
    pub decoded_streams: u64,
    /// Tiles decoded and checked.
    pub verified: u64,
    /// Checked tiles that failed to decode or hash.
    pub mismatches: u64,
    /// The first mismatch, for the run's log.
    pub first_mismatch: Option<String>,
}

impl Verifier {
    /// Verifies loads of `content`.
    pub fn new(content: std::sync::Arc<PackedContent>) -> Verifier {
        Verifier {
            content,
            verdicts: HashMap::new(),
            decoded_streams: 0,
            verified: 0,
            mismatches: 0,
            first_mismatch: None,
        }
    }

    /// `content.verified_tiles` and `content.hash_mismatches`.
    pub fn push_stats(&self, s: &mut crate::stats::StatSet) {
        s.push(
            "content.verified_tiles",
            Some(self.verified as f64),
            "count",
            "loaded tiles decoded through the functional MDU and hash-checked",
        );
        s.push(
            "content.hash_mismatches",
            Some(self.mismatches as f64),
            "count",
            "verified tiles that failed to decode or whose hash differs from the container's",
        );
    }

    /// A tile's load completed: check it if the policy says so.
    pub fn tile_loaded(&mut self, texture: u32, tile: TileCoord) {
        if !self.content.should_verify(texture, tile) {
            return;
        }
        self.verified += 1;
        let content = &self.content;
        let decoded = &mut self.decoded_streams;
        let verdict = self.verdicts.entry(content.stream_key(texture, tile)).or_insert_with(|| {
            *decoded += 1;
            content.verify(texture, tile).err().map(|e| e.to_string())
        });
        if let Some(e) = verdict {
            self.mismatches += 1;
            if self.first_mismatch.is_none() {
                self.first_mismatch = Some(format!("texture {texture} tile {tile:?}: {e}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::pack::Container;
    use crate::engine::packed::tests::{container_bytes, virtual_texture};
    use crate::engine::packed::{PackedConfig, Verify};
    use std::collections::HashSet;

    /// Repeated virtual tiles are decoded once per container stream; every load still counts
    /// as a checked tile, and a corrupted stream as a mismatch at every load, with the message
    /// its own decode gives.
    #[test]
    fn the_verifier_decodes_each_stream_once_and_keeps_its_verdict() {
        let mut bytes = container_bytes(1024);
        let c = Container::from_bytes(bytes.clone()).unwrap();
        let first = c.stream(0).unwrap();
        bytes[(first.file_offset + first.bytes.len() as u64 / 2) as usize] ^= 0x5a;
        let corrupt = Container::from_bytes(bytes).unwrap();
        let cfg = PackedConfig { containers: vec!["a".into()], verify: Verify::All, ..PackedConfig::default() };
        let content = PackedContent::from_containers(&cfg, vec![corrupt], &[virtual_texture(8192)]).unwrap();
        let content = std::sync::Arc::new(content);
        let mut verifier = Verifier::new(content.clone());
        let tiles: Vec<TileCoord> =
            (0..64u32).flat_map(|y| (0..64u32).map(move |x| TileCoord { mip: 0, x, y })).collect();
        let (mut streams, mut bad) = (HashSet::new(), 0);
        let mut first_error = None;
        for &t in &tiles {
            verifier.tile_loaded(0, t);
            streams.insert(content.stream_key(0, t));
            if let Err(e) = content.verify(0, t) {
                bad += 1;
                first_error.get_or_insert(format!("texture 0 tile {t:?}: {e}"));
            }
        }
        assert_eq!(verifier.verified, tiles.len() as u64);
        assert_eq!(verifier.decoded_streams, streams.len() as u64);
        assert!(streams.len() < tiles.len() / 100, "{} streams for {} tiles", streams.len(), tiles.len());
        assert!(bad > 1 && verifier.mismatches == bad, "{} mismatches, {bad} bad loads", verifier.mismatches);
        assert_eq!(verifier.first_mismatch, first_error);
    }
}
