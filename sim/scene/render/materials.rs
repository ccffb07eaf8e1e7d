//! A material's textures with the classes of textures they share work with (equal
//! samplers, feedback layouts, MinMip map sizes), worked out once per scene.

use crate::scene::Scene;
use sfsim_models::gpu::{CoarserRegions, FeedbackLayout, FootprintRegions, MinMipMap, PreparedSampler};

/// A texture of a material, with the classes of textures it shares work with.
#[derive(Debug, Clone, Copy)]
pub(super) struct MaterialTexture {
    pub texture: u32,
    /// Lowest texture id with an equal sampler (same desired LOD for equal derivatives).
    pub sampler_class: u32,
    /// Lowest texture id with an equal feedback layout (same texel for equal UVs).
    pub layout_class: u32,
    /// Lowest texture id whose MinMip map has the same size (same texel for equal UVs).
    pub minmip_class: u32,
    /// Lowest texture id with an equal sampler and feedback layout (same feedback
    /// rectangles for equal UVs and derivatives).
    pub regions_class: u32,
    /// A texture of the same material whose feedback rectangles this one's follow from.
    pub regions_from: Option<FinerRegions>,
}

/// The texture of a material with the finest feedback regions of a sampler class, and how
/// another's rectangles follow from its.
#[derive(Debug, Clone, Copy)]
pub(super) struct FinerRegions {
    pub texture: u32,
    pub regions_class: u32,
    pub coarsen: CoarserRegions,
}

/// Points each texture of a material at the material's texture with the finest feedback
/// regions its own rectangles follow from ([`FootprintRegions::coarser_than`]), if any.
fn link_finer_regions(material: &mut [MaterialTexture], footprints: &[FootprintRegions]) {
    let footprint = |m: &MaterialTexture| &footprints[m.texture as usize];
    let finer_than = |coarse: &MaterialTexture, fine: &MaterialTexture| {
        let derives = coarse.regions_class != fine.regions_class;
        derives.then(|| footprint(coarse).coarser_than(footprint(fine))).flatten()
    };
    for i in 0..material.len() {
        let finest = material.iter().find_map(|fine| {
            let coarsen = finer_than(&material[i], fine)?;
            let has_finer = material.iter().any(|g| finer_than(fine, g).is_some());
            (!has_finer).then_some(FinerRegions { texture: fine.texture, regions_class: fine.regions_class, coarsen })
        });
        material[i].regions_from = finest;
    }
}

/// Per texture, the lowest texture id of each class it is in.
pub(super) struct TextureClasses {
    pub sampler: Vec<u32>,
    pub layout: Vec<u32>,
    pub minmip: Vec<u32>,
    pub regions: Vec<u32>,
}

impl TextureClasses {
    pub fn new(samplers: &[PreparedSampler], layouts: &[FeedbackLayout], minmip: &[MinMipMap]) -> TextureClasses {
        TextureClasses {
            sampler: classes(samplers),
            layout: classes(layouts),
            minmip: classes(&minmip.iter().map(|m| (m.width(), m.height())).collect::<Vec<_>>()),
            regions: classes(&samplers.iter().zip(layouts).collect::<Vec<_>>()),
        }
    }

    /// Each shape's material textures, with their classes and the finer-region sibling
    /// each one's feedback rectangles follow from.
    pub fn materials(&self, scene: &Scene, footprint_regions: &[FootprintRegions]) -> Vec<Vec<MaterialTexture>> {
        (0..scene.shapes.len() as u32)
            .map(|shape| {
                let mut textures: Vec<MaterialTexture> = scene
                    .textures_of(shape)
                    .map(|texture| MaterialTexture {
                        texture,
                        sampler_class: self.sampler[texture as usize],
                        layout_class: self.layout[texture as usize],
                        minmip_class: self.minmip[texture as usize],
                        regions_class: self.regions[texture as usize],
                        regions_from: None,
                    })
                    .collect();
                link_finer_regions(&mut textures, footprint_regions);
                textures
            })
            .collect()
    }
}

/// For each item, the index of the first item equal to it (few distinct values: the search
/// runs over those only).
fn classes<T: PartialEq>(items: &[T]) -> Vec<u32> {
    let mut firsts: Vec<usize> = Vec::new();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let first = firsts.iter().copied().find(|&f| items[f] == *item).unwrap_or_else(|| {
                firsts.push(i);
                i
            });
            first as u32
        })
        .collect()
}
