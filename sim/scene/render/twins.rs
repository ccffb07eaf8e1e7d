//! Textures whose MinMip feedback maps always end a frame equal: written once, copied.
//!
//! A texture set's diffuse and specular maps are often the same size and format, so they
//! share a sampler, a feedback layout and a MinMip map size, and they belong to the same
//! materials. Every hit then reads both with the same UV and derivatives and writes the
//! same feedback to both maps, in the same order: the second texture's maps and first-write
//! list are the first's. Such a *twin* skips its writes in the merge, and after the frame's
//! merge it takes the texels its first texture's list names (every texel that holds a
//! request: the rest are clear in both maps) and the list itself.

use super::FeedbackRenderer;
use sfsim_models::texture::TileCoord;
use std::collections::HashMap;

/// What makes two textures' feedback writes equal hit for hit: per texture, its sampler,
/// feedback layout and MinMip map size classes, and the shapes whose material reads it.
pub(super) fn twin_keys(classes: &[(u32, u32, u32)], shapes_of: Vec<Vec<u32>>) -> Vec<TwinKey> {
    classes.iter().zip(shapes_of).map(|(&classes, shapes)| TwinKey { classes, shapes }).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct TwinKey {
    classes: (u32, u32, u32),
    shapes: Vec<u32>,
}

/// Per texture, the lower texture whose feedback it mirrors (`None`: it writes its own),
/// among the textures that write feedback. A texture no material reads has no twin.
pub(super) fn twins(keys: &[TwinKey], writes: &[bool]) -> Vec<Option<u32>> {
    let mut first: HashMap<&TwinKey, u32> = HashMap::new();
    keys.iter()
        .zip(writes)
        .enumerate()
        .map(|(t, (key, &writes))| {
            if !writes || key.shapes.is_empty() {
                return None;
            }
            let first = *first.entry(key).or_insert(t as u32);
            (first != t as u32).then_some(first)
        })
        .collect()
}

impl FeedbackRenderer<'_> {
    /// Works out the twins the textures that write feedback make now. A twin relation is
    /// in force only if it has held since the last clear: a texture becoming another's
    /// twin between clears has its own writes since then in its map and list, which
    /// mirroring would lose, so it keeps writing its own until the next clear; one that
    /// stops being a twin writes its own at once, on top of the mirrored texels (equal to
    /// its own), and stays out until the next clear.
    pub(super) fn refresh_twins(&mut self) {
        self.twin_candidates = match self.first_writes {
            Some(_) => twins(&self.twin_keys, &self.writes_feedback),
            None => vec![None; self.slots.len()],
        };
        self.twin_of.resize(self.twin_candidates.len(), None);
        for (held, &candidate) in self.twin_of.iter_mut().zip(&self.twin_candidates) {
            if *held != candidate {
                *held = None;
            }
        }
    }

    /// The maps are clear: every candidate twin relation is in force from now.
    pub(super) fn twins_cleared(&mut self) {
        self.twin_of.clone_from(&self.twin_candidates);
    }

    /// Gives every twin the feedback its first texture's reads wrote: the texels the first
    /// texture's first-write list names, and the list. Its own texels outside the list are
    /// clear, as the first texture's are, since the last clear.
    pub(super) fn mirror_twins(&mut self) {
        let Some(lists) = self.first_writes.as_mut() else { return };
        for (twin, first) in self.twin_of.iter().enumerate() {
            let Some(first) = first.map(|f| f as usize) else { continue };
            // A twin comes after its first texture: both lists, one of them mutable.
            let (lower, upper) = lists.split_at_mut(twin);
            let (from, to) = (&lower[first], &mut upper[0]);
            let ((from_array, from_slice), (to_array, to_slice)) = (self.slots[first], self.slots[twin]);
            for &xy in from.texels() {
                let (x, y) = (xy & 0xFFFF, xy >> 16);
                let value = self.arrays[from_array].slice(from_slice).and_then(|s| s.get(x, y));
                if let Some(value) = value {
                    let _ = self.arrays[to_array].write_min_previous(to_slice, x, y, value);
                }
            }
            to.copy_from(from);
        }
    }
}

impl FeedbackRenderer<'_> {
    /// The texture whose requested tiles are texture `tex`'s: its feedback twin's first,
    /// when the two also share a tile grid and tile shape (then the same feedback texels
    /// request the same tiles).
    pub(super) fn tiles_twin_of(&self, tex: usize) -> Option<usize> {
        let first = self.twin_of[tex]? as usize;
        let textures = &self.scene.textures;
        let same_tiles = self.tile_sets[first].grid() == self.tile_sets[tex].grid()
            && textures[first].format.tile_texels() == textures[tex].format.tile_texels();
        same_tiles.then_some(first)
    }
}

/// Appends the tiles `out[from]` again, as texture `texture`'s.
pub(super) fn copy_tiles(out: &mut Vec<(u32, TileCoord)>, from: std::ops::Range<usize>, texture: u32) {
    let start = out.len();
    out.extend_from_within(from);
    out[start..].iter_mut().for_each(|(t, _)| *t = texture);
}

#[cfg(test)]
mod tests {
    use super::super::{FeedbackWrites, RenderConfig, Residency};
    use super::*;
    use crate::scene::{ObjectGroup, RayCamera, Scene, SceneConfig, TextureSets};
    use glam::DVec3;
    use sfsim_models::texture::BcFormat::{Bc1, Bc5};

    /// Every texture's feedback map, first-write list and requested tiles.
    fn outputs(r: &FeedbackRenderer<'_>) -> Vec<(Vec<u8>, Vec<u32>)> {
        let lists = r.first_writes.clone().expect("MinMip feedback");
        (0..r.scene().textures.len() as u32)
            .map(|t| (r.feedback(t).texels().to_vec(), lists[t as usize].texels().to_vec()))
            .collect()
    }

    /// Twins end every frame with the maps, first-write lists and requested tiles that
    /// writing each map gives: frames that accumulate, a clear, footprint and location
    /// writes, full and timing-only reads, two layers (a texture in several materials).
    #[test]
    fn mirrored_feedback_equals_each_map_written() {
        let sets = TextureSets { count: 3, size: 4096, diffuse: Bc1, normal: Bc5, specular: Bc1 };
        let objects = vec![ObjectGroup::CubeGrid { count: 8, spacing: 4.0, size: 2.5 }];
        let scene = Scene::build(&SceneConfig { objects, texture_sets: sets, layers: 2 }).unwrap();
        let cameras =
            [(DVec3::new(9.0, 3.0, 7.0), 0u64), (DVec3::new(-6.0, 5.0, 8.0), 1), (DVec3::new(2.0, -7.0, 9.0), 2)];
        for (writes, measure_quality) in
            [(FeedbackWrites::Footprint, true), (FeedbackWrites::Location, true), (FeedbackWrites::Location, false)]
        {
            let mut cfg =
                RenderConfig { resolution: (320, 180), residency: Residency::TailOnly, ..RenderConfig::default() };
            cfg.feedback.one_in = 4;
            cfg.feedback.writes = writes;
            cfg.measure_quality = measure_quality;
            let mut mirrored = FeedbackRenderer::new(&scene, &cfg).unwrap();
            let mut written = FeedbackRenderer::new(&scene, &cfg).unwrap();
            let twins = mirrored.twin_of.iter().filter(|t| t.is_some()).count();
            assert_eq!(twins, 3, "each set's specular mirrors its diffuse");
            writing_every_map(&mut written);
            for (frame, &(eye, seed)) in cameras.iter().enumerate() {
                if frame == 2 {
                    mirrored.clear_feedback();
                    written.clear_feedback();
                }
                let camera = RayCamera::new(eye, -eye, DVec3::Y, 70.0, 320, 180);
                let stats = (
                    mirrored.render(&camera, seed, frame as u64, None),
                    written.render(&camera, seed, frame as u64, None),
                );
                assert_eq!(stats.0.feedback_writes, stats.1.feedback_writes);
                assert!(stats.0.feedback_writes > 100, "{writes:?}: the view must write feedback");
                assert!(outputs(&mirrored) == outputs(&written), "{writes:?}, frame {frame}");
                assert_eq!(mirrored.requested_tiles(), written.requested_tiles(), "{writes:?}, frame {frame}");
            }
        }
    }

    /// The reference: a renderer whose textures never mirror (no key can match).
    fn writing_every_map(r: &mut FeedbackRenderer<'_>) {
        r.twin_keys.iter_mut().for_each(|k| k.shapes.clear());
        r.refresh_twins();
        r.twins_cleared();
        assert!(r.twin_of.iter().all(Option::is_none));
    }

    /// Textures that start or stop writing between clears (a feedback budget's round
    /// robin) while frames accumulate: a texture that becomes a twin keeps writing its own
    /// until the next clear, one that stops being one writes its own at once.
    #[test]
    fn twins_that_change_between_clears_equal_each_map_written() {
        let sets = TextureSets { count: 2, size: 4096, diffuse: Bc1, normal: Bc5, specular: Bc1 };
        let objects = vec![ObjectGroup::CubeGrid { count: 8, spacing: 4.0, size: 2.5 }];
        let scene = Scene::build(&SceneConfig { objects, texture_sets: sets, layers: 1 }).unwrap();
        let mut cfg = RenderConfig { resolution: (320, 180), ..RenderConfig::default() };
        cfg.feedback.one_in = 4;
        let (mut mirrored, mut written) =
            (FeedbackRenderer::new(&scene, &cfg).unwrap(), FeedbackRenderer::new(&scene, &cfg).unwrap());
        writing_every_map(&mut written);
        let all = |_: u32| true;
        let no_diffuse = |t: u32| !t.is_multiple_of(3);
        // (which textures write, clear first): twins formed, dropped, re-formed between clears.
        let frames: [(&dyn Fn(u32) -> bool, bool); 5] =
            [(&all, false), (&no_diffuse, false), (&all, false), (&all, true), (&no_diffuse, false)];
        let mut seen = Vec::new();
        for (frame, (writes, clear)) in frames.into_iter().enumerate() {
            for r in [&mut mirrored, &mut written] {
                r.set_feedback_textures(writes);
                if clear {
                    r.clear_feedback();
                }
            }
            writing_every_map(&mut written);
            // Close-ups of different parts of one face: frames write different texels.
            let eye = [DVec3::new(1.6, 1.6, 4.5), DVec3::new(2.5, 2.5, 4.5)][frame % 2];
            let camera = RayCamera::new(eye, -DVec3::Z, DVec3::Y, 30.0, 320, 180);
            mirrored.render(&camera, 1, frame as u64, None);
            written.render(&camera, 1, frame as u64, None);
            assert!(outputs(&mirrored) == outputs(&written), "frame {frame}");
            assert_eq!(mirrored.requested_tiles(), written.requested_tiles(), "frame {frame}");
            seen.push(outputs(&written).iter().skip(2).step_by(3).map(|(_, list)| list.len()).sum::<usize>());
        }
        // The views must add texels from frame to frame, or dropping some proves nothing.
        assert!(seen[0] > 0 && seen[1] > seen[0] && seen[2] == seen[1], "the speculars' first writes: {seen:?}");
    }

    fn key(classes: (u32, u32, u32), shapes: &[u32]) -> TwinKey {
        TwinKey { classes, shapes: shapes.to_vec() }
    }

    #[test]
    fn only_writing_textures_with_equal_classes_and_shapes_are_twins() {
        let keys = [
            key((0, 0, 0), &[0, 1]), // diffuse
            key((1, 1, 1), &[0, 1]), // normal: another layout
            key((0, 0, 0), &[0, 1]), // specular: the diffuse's twin
            key((0, 0, 0), &[1]),    // read by another set of shapes
            key((0, 0, 0), &[]),     // read by no material
            key((0, 0, 0), &[]),
            key((0, 0, 0), &[0, 1]), // writes no feedback
        ];
        let writes = [true, true, true, true, true, true, false];
        assert_eq!(twins(&keys, &writes), vec![None, None, Some(0), None, None, None, None]);
        // The first texture not writing: the next one leads.
        let writes = [false, true, true, true, true, true, true];
        assert_eq!(twins(&keys, &writes), vec![None, None, None, None, None, None, Some(2)]);
    }
}
