//! Reading the image to pack: PNG, JPEG or TGA (detected from the bytes, not the name), to
//! RGBA8.

use super::error::PackError;
use crate::content::mipgen::Image;
use std::path::Path;

/// Loads `path` as RGBA8. Errors name the file: missing/unreadable, or not an image the
/// packer reads.
pub fn load_image(path: &Path) -> Result<Image, PackError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| PackError::Read { file: file.clone(), source })?;
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PackError::Image { file: file.clone(), reason: e.to_string() })?;
    if reader.format().is_none() {
        // TGA has no magic number: fall back to the extension.
        let tga = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("tga"));
        if !tga {
            return Err(PackError::Image { file, reason: "the file's bytes match no supported format".to_string() });
        }
        let decoded =
            image::load_from_memory_with_format(reader.into_inner().into_inner().as_slice(), image::ImageFormat::Tga)
                .map_err(|e| PackError::Image { file: file.clone(), reason: e.to_string() })?;
        let rgba = decoded.to_rgba8();
        return Ok(Image { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() });
    }
    let decoded = reader.decode().map_err(|e| PackError::Image { file: file.clone(), reason: e.to_string() })?;
    let rgba = decoded.to_rgba8();
    Ok(Image { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() })
}
