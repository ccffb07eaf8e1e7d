//! PNG pictures of one frame, like the SFS sample's debug views: the desired-LOD view, the
//! MinMip overlay (the resident mip each pixel is clamped to), and per-texture feedback and
//! MinMip map images. Every picture carries a legend of mip colours.

use crate::scene::{FeedbackRenderer, PixelLods};
use plotters::prelude::*;
use sfsim_models::gpu::Lod53;
use std::path::{Path, PathBuf};

/// One colour per mip (0 = finest), distinct and in a fixed order.
const MIP_COLOURS: [[u8; 3]; 16] = [
    [230, 25, 75],
    [245, 130, 48],
    [255, 225, 25],
    [210, 245, 60],
    [60, 180, 75],
    [70, 240, 240],
    [0, 130, 200],
    [145, 30, 180],
    [240, 50, 230],
    [250, 190, 212],
    [170, 110, 40],
    [255, 250, 200],
    [128, 0, 0],
    [170, 255, 195],
    [128, 128, 0],
    [0, 0, 128],
];
const NOTHING: [u8; 3] = [32, 32, 32];
const SWATCH_PITCH: u32 = 38;
const LEGEND_ROW: u32 = 18;

/// Legend height for a picture `width` pixels wide showing `mips` colours plus "none".
fn legend_height(width: u32, mips: u32) -> u32 {
    let per_row = ((width.saturating_sub(6)) / SWATCH_PITCH).max(1);
    let rows = (mips.min(16) + 1).div_ceil(per_row);
    24 + rows * LEGEND_ROW
}

fn mip_colour(lod: f32) -> [u8; 3] {
    if !lod.is_finite() || lod >= 31.0 {
        return NOTHING;
    }
    MIP_COLOURS[(lod.max(0.0) as usize).min(MIP_COLOURS.len() - 1)]
}

#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("cannot write {path}: {message}")]
    Write { path: PathBuf, message: String },
}

/// An RGB picture with a legend strip below it.
struct Picture {
    width: u32,
    height: u32,
    legend: u32,
    rgb: Vec<u8>,
}

impl Picture {
    fn new(width: u32, height: u32, mips: u32) -> Picture {
        let width = width.max(1);
        let legend = legend_height(width, mips);
        let mut rgb = vec![255u8; (width * (height + legend) * 3) as usize];
        for px in rgb[..(width * height * 3) as usize].chunks_mut(3) {
            px.copy_from_slice(&NOTHING);
        }
        Picture { width, height, legend, rgb }
    }

    fn set(&mut self, x: u32, y: u32, c: [u8; 3]) {
        let i = ((y * self.width + x) * 3) as usize;
        self.rgb[i..i + 3].copy_from_slice(&c);
    }

    fn save(mut self, path: &Path, title: &str, mips: u32) -> Result<PathBuf, PictureError> {
        let err = |message: String| PictureError::Write { path: path.to_path_buf(), message };
        crate::report::ensure_font();
        {
            let size = (self.width, self.height + self.legend);
            let root = BitMapBackend::with_buffer(&mut self.rgb, size).into_drawing_area();
            let (_, legend) = root.split_vertically(self.height);
            let font = ("sans-serif", 13).into_font().color(&BLACK);
            legend.draw_text(title, &font, (6, 4)).map_err(|e| err(e.to_string()))?;
            let per_row = ((self.width.saturating_sub(6)) / SWATCH_PITCH).max(1);
            let entries = (0..mips.min(16))
                .map(|m| (MIP_COLOURS[m as usize], m.to_string()))
                .chain([(NOTHING, "none".to_string())]);
            for (i, ([r, g, b], label)) in entries.enumerate() {
                let i = i as u32;
                let x = (6 + (i % per_row) * SWATCH_PITCH) as i32;
                let y = (22 + (i / per_row) * LEGEND_ROW) as i32;
                legend
                    .draw(&Rectangle::new([(x, y), (x + 14, y + 14)], RGBColor(r, g, b).filled()))
                    .map_err(|e| err(e.to_string()))?;
                legend.draw_text(&label, &font, (x + 16, y)).map_err(|e| err(e.to_string()))?;
            }
            root.present().map_err(|e| err(e.to_string()))?;
        }
        let image =
            image::RgbImage::from_raw(self.width, self.height + self.legend, self.rgb).expect("buffer matches size");
        image.save(path).map_err(|e| err(e.to_string()))?;
        Ok(path.to_path_buf())
    }
}

/// The two full-screen views from every pixel's LODs (of the first texture hit there).
pub fn write_views(
    dir: &Path,
    prefix: &str,
    width: u32,
    height: u32,
    pixels: &[PixelLods],
    mips: u32,
) -> Result<Vec<PathBuf>, PictureError> {
    let mut desired = Picture::new(width, height, mips);
    let mut overlay = Picture::new(width, height, mips);
    for p in pixels {
        desired.set(p.x, p.y, mip_colour(p.desired));
        overlay.set(p.x, p.y, mip_colour(p.effective.floor()));
    }
    Ok(vec![
        desired.save(
            &dir.join(format!("{prefix}_desired_lod.png")),
            "desired LOD (what feedback records), by mip",
            mips,
        )?,
        overlay.save(
            &dir.join(format!("{prefix}_minmip_overlay.png")),
            "MinMip overlay: mip actually sampled after the MinMip clamp",
            mips,
        )?,
    ])
}

/// Scale so that a small map is at least `min_px` pixels on its short side.
fn scale_for(w: u32, h: u32, min_px: u32) -> u32 {
    (min_px / w.min(h).max(1)).clamp(1, 64)
}

/// The feedback map and MinMip map of one texture, scaled up (nearest) with a legend.
pub fn write_maps(
    dir: &Path,
    prefix: &str,
    renderer: &FeedbackRenderer,
    texture: u32,
) -> Result<Vec<PathBuf>, PictureError> {
    let mips = renderer.scene().textures[texture as usize].mip_levels;
    let (fw, fh) = renderer.feedback_dims(texture);
    let s = scale_for(fw, fh, 256);
    let mut feedback = Picture::new(fw * s, fh * s, mips);
    for y in 0..fh * s {
        for x in 0..fw * s {
            let mip = renderer.requested_mip(texture, x / s, y / s);
            feedback.set(x, y, mip.map_or(NOTHING, |m| mip_colour(m as f32)));
        }
    }
    let mm = renderer.minmip(texture);
    let s = scale_for(mm.width(), mm.height(), 256);
    let mut minmip = Picture::new(mm.width() * s, mm.height() * s, mips);
    for y in 0..mm.height() * s {
        for x in 0..mm.width() * s {
            let v = mm.get(x / s, y / s).unwrap_or(Lod53::NONE);
            minmip.set(x, y, mip_colour(v.mip() as f32));
        }
    }
    Ok(vec![
        feedback.save(
            &dir.join(format!("{prefix}_feedback_tex{texture}.png")),
            &format!("texture {texture} feedback (requested mip)"),
            mips,
        )?,
        minmip.save(
            &dir.join(format!("{prefix}_minmip_tex{texture}.png")),
            &format!("texture {texture} MinMip (resident mip)"),
            mips,
        )?,
    ])
}
