//! Size limits on what sfsim reads, so that no input — `/dev/zero`, a 50 GB file named by
//! mistake, a corrupt header — can take unbounded memory or time.
//!
//! Every file a user names is read through [`read`] or [`read_to_string`] with the
//! [`InputKind`] that sets its cap. The caps are far above any real input of that kind
//! (the largest shipped camera path is 0.3 MB, the largest container 30 MB) and are
//! named in the error, so a user who really has a larger file knows what stops it.

use std::io::Read;
use std::path::Path;

const MIB: u64 = 1 << 20;

/// What a file is, which sets how large it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A scenario (`.ron`): 4 MiB.
    Scenario,
    /// A sweep file: 4 MiB.
    Sweep,
    /// A regression baseline or a run's stats.json: 64 MiB.
    Stats,
    /// A camera path (CSV, TUM, keyframes, generator): 512 MiB — an hour at 1000 fps.
    CameraPath,
    /// A CSV table for `sfsim plot`: 64 MiB.
    Table,
    /// A PNG/JPEG/TGA image: 1 GiB.
    Image,
    /// A DDS texture: 4 GiB (a 16384² BC7 texture with mips is 341 MiB).
    Dds,
    /// A packed container or set container: 4 GiB.
    Container,
    /// One MDU stream for `sfsim mdu`: 64 MiB (a request is at most 32 MiB).
    Stream,
}

impl InputKind {
    /// The largest file of this kind sfsim reads, in bytes.
    pub const fn cap(self) -> u64 {
        match self {
            InputKind::Scenario | InputKind::Sweep => 4 * MIB,
            InputKind::Stats | InputKind::Table | InputKind::Stream => 64 * MIB,
            InputKind::CameraPath => 512 * MIB,
            InputKind::Image => 1024 * MIB,
            InputKind::Dds | InputKind::Container => 4096 * MIB,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            InputKind::Scenario => "scenario files",
            InputKind::Sweep => "sweep files",
            InputKind::Stats => "stats and baseline files",
            InputKind::CameraPath => "camera paths",
            InputKind::Table => "CSV tables",
            InputKind::Image => "images",
            InputKind::Dds => "DDS textures",
            InputKind::Container => "packed containers",
            InputKind::Stream => "MDU streams",
        }
    }

    /// `size`: the file's length when the file system knows it (not for a pipe or device).
    fn too_large(self, size: Option<u64>) -> std::io::Error {
        let what = size.map_or("the file is".to_string(), |n| format!("the file's {n} bytes are"));
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{what} over the {} MiB limit for {}", self.cap() / MIB, self.describe()),
        )
    }
}

/// Reads a whole file of `kind`, refusing it (an `InvalidData` error naming the limit) once
/// it passes the kind's cap — before reading it when its size is known, and after cap + 1
/// bytes when it is not (a pipe, a device).
pub fn read(path: &Path, kind: InputKind) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "is a folder, not a file"));
    }
    if meta.is_file() && meta.len() > kind.cap() {
        return Err(kind.too_large(Some(meta.len())));
    }
    let mut bytes = Vec::with_capacity(if meta.is_file() { meta.len() as usize } else { 0 });
    file.take(kind.cap() + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > kind.cap() {
        return Err(kind.too_large(None));
    }
    Ok(bytes)
}

/// [`read`], then UTF-8 (an `InvalidData` error naming the first bad byte's offset).
pub fn read_to_string(path: &Path, kind: InputKind) -> std::io::Result<String> {
    String::from_utf8(read(path, kind)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {} is not valid UTF-8)", e.utf8_error().valid_up_to()),
        )
    })
}

/// Decoder limits for images: the packer's largest texture side and an allocation cap, so a
/// small file declaring a huge image fails before anything is allocated.
pub fn image_limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(2048 * MIB);
    limits
}

/// The largest image side sfsim packs or compares (D3D12's maximum 2D texture size).
pub const MAX_IMAGE_SIDE: u32 = 16_384;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_that_never_ends_is_refused_after_the_cap() {
        let err = read(Path::new("/dev/zero"), InputKind::Scenario).unwrap_err().to_string();
        assert!(err.contains("the file is over the 4 MiB limit for scenario files"), "{err}");
    }

    #[test]
    fn a_large_file_is_refused_by_its_size_and_a_small_one_read() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.ron");
        std::fs::File::create(&big).unwrap().set_len(InputKind::Scenario.cap() + 1).unwrap();
        let err = read(&big, InputKind::Scenario).unwrap_err().to_string();
        assert!(err.contains("4194305 bytes are over"), "{err}");
        std::fs::write(dir.path().join("ok.ron"), "x").unwrap();
        assert_eq!(read_to_string(&dir.path().join("ok.ron"), InputKind::Scenario).unwrap(), "x");
    }

    #[test]
    fn folders_and_binary_text_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read(dir.path(), InputKind::Scenario).unwrap_err().to_string().contains("folder"));
        std::fs::write(dir.path().join("b.ron"), [b'a', 0xff]).unwrap();
        let err = read_to_string(&dir.path().join("b.ron"), InputKind::Scenario).unwrap_err().to_string();
        assert!(err.contains("byte 1"), "{err}");
    }
}
