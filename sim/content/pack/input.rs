//! Reading the input to pack: PNG, JPEG or TGA (detected from the bytes, not the name), to
//! RGBA8; or a BC-encoded DDS, whose blocks are kept ([`load_input`]), with the reader's
//! warnings for the caller to print.

use super::error::PackError;
use crate::content::mipgen::Image;
use sfsim_models::texture::DdsImage;
use std::path::Path;

/// What `sfsim pack` was given.
#[derive(Debug, Clone)]
pub enum Input {
    /// Texels to mip, encode (and maybe RDO).
    Image(Image),
    /// Blocks to pack as they are.
    Dds(DdsImage),
}

/// An input and what reading it warned about.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub input: Input,
    /// `FILE: message` lines (a DDS read despite trailing bytes, an unknown dimension…),
    /// for the caller to print as `warning: …` on stderr; empty for a clean file.
    pub warnings: Vec<String>,
}

/// `"DDS "`: the only way to tell a DDS, as TGA has no magic either.
const DDS_MAGIC: &[u8; 4] = b"DDS ";

/// Loads `path` as a DDS when its bytes start with the DDS magic or its name ends in `.dds`
/// (so a DDS with a broken magic is told so, not called an unreadable image), else as an
/// image ([`load_image`]). Errors name the file.
pub fn load_input(path: &Path) -> Result<Loaded, PackError> {
    let file = path.display().to_string();
    let bytes = crate::limits::read(path, crate::limits::InputKind::Dds)
        .map_err(|source| PackError::Read { file: file.clone(), source })?;
    let dds_name = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("dds"));
    if bytes.starts_with(DDS_MAGIC) || dds_name {
        let read = DdsImage::read(&bytes).map_err(|source| PackError::Dds { file: file.clone(), source })?;
        let warnings = read.warnings.iter().map(|w| format!("{file}: {w}")).collect();
        return Ok(Loaded { input: Input::Dds(read.image), warnings });
    }
    Ok(Loaded { input: Input::Image(load_image_bytes(path, bytes)?), warnings: Vec::new() })
}

/// Loads `path` as RGBA8. Errors name the file: missing/unreadable, or not an image the
/// packer reads.
pub fn load_image(path: &Path) -> Result<Image, PackError> {
    let file = path.display().to_string();
    let bytes = crate::limits::read(path, crate::limits::InputKind::Image)
        .map_err(|source| PackError::Read { file: file.clone(), source })?;
    load_image_bytes(path, bytes)
}

fn load_image_bytes(path: &Path, bytes: Vec<u8>) -> Result<Image, PackError> {
    let file = path.display().to_string();
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PackError::Image { file: file.clone(), reason: e.to_string() })?;
    // A few bytes can declare a gigapixel image: the decoder checks the limits first.
    reader.limits(crate::limits::image_limits());
    if reader.format().is_none() {
        // TGA has no magic number: fall back to the extension.
        let tga = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("tga"));
        if !tga {
            return Err(PackError::Image { file, reason: "the file's bytes match no supported format".to_string() });
        }
        reader.set_format(image::ImageFormat::Tga);
        let decoded = reader.decode().map_err(|e| PackError::Image { file: file.clone(), reason: decode_reason(e) })?;
        let rgba = decoded.to_rgba8();
        return Ok(Image { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() });
    }
    let decoded = reader.decode().map_err(|e| PackError::Image { file: file.clone(), reason: decode_reason(e) })?;
    let rgba = decoded.to_rgba8();
    Ok(Image { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() })
}

/// The decoder's message, with sfsim's limits spelled out when they are what stopped it.
fn decode_reason(e: image::ImageError) -> String {
    match e {
        image::ImageError::Limits(_) => format!(
            "the image is larger than sfsim decodes: at most {0}×{0} texels and 2 GiB decoded",
            crate::limits::MAX_IMAGE_SIDE
        ),
        other => other.to_string(),
    }
}
