//! Spill files: where a streaming run puts the rows it is done with (frames.csv rows,
//! finished tiles.csv records) so that its memory does not grow with simulated time.
//!
//! A spill file is anonymous ([`tempfile::tempfile_in`]): the name is removed as the file
//! is created, so nothing is left behind however the process ends. It lives in the run's
//! output folder when the caller names one (`sfsim run`), else in the system's temporary
//! folder (library use through [`crate::run::run`], sweeps, benches).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A spill file could not be created, written or read back.
#[derive(Debug, thiserror::Error)]
#[error("spill file in {}: {source}", place.display())]
pub struct SpillError {
    /// The folder the anonymous file lives in.
    pub place: PathBuf,
    pub source: std::io::Error,
}

/// An anonymous file written and read at byte offsets.
#[derive(Debug)]
pub struct SpillFile {
    file: File,
    place: PathBuf,
    len: u64,
}

impl SpillFile {
    /// A new empty spill file in `dir`, or in the system's temporary folder.
    pub fn create(dir: Option<&Path>) -> Result<SpillFile, SpillError> {
        let place = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
        match tempfile::tempfile_in(&place) {
            Ok(file) => Ok(SpillFile { file, place, len: 0 }),
            Err(source) => Err(SpillError { place, source }),
        }
    }

    fn fail(&self, source: std::io::Error) -> SpillError {
        SpillError { place: self.place.clone(), source }
    }

    /// Writes `bytes` at `offset` (past the end, the gap reads as zeros).
    pub fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SpillError> {
        let mut f = &self.file;
        f.seek(SeekFrom::Start(offset)).and_then(|_| f.write_all(bytes)).map_err(|e| self.fail(e))?;
        self.len = self.len.max(offset + bytes.len() as u64);
        Ok(())
    }

    /// Appends `bytes` at the end.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), SpillError> {
        self.write_at(self.len, bytes)
    }

    /// Fills `buf` from `offset`; bytes past the end read as zeros.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), SpillError> {
        let stored = self.len.saturating_sub(offset).min(buf.len() as u64) as usize;
        let (head, tail) = buf.split_at_mut(stored);
        tail.fill(0);
        if stored > 0 {
            let mut f = &self.file;
            f.seek(SeekFrom::Start(offset)).and_then(|_| f.read_exact(head)).map_err(|e| self.fail(e))?;
        }
        Ok(())
    }

    /// Bytes written so far (up to the furthest write).
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Little-endian fields into a row's bytes.
#[derive(Default)]
pub(crate) struct Encoder(pub Vec<u8>);

impl Encoder {
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
}

/// Fields back out of a row's bytes, in the order they were encoded.
pub(crate) struct Decoder<'a>(pub &'a [u8]);

impl Decoder<'_> {
    pub fn u64(&mut self) -> u64 {
        let (head, rest) = self.0.split_at(8);
        self.0 = rest;
        u64::from_le_bytes(head.try_into().unwrap_or([0; 8]))
    }
    pub fn u32(&mut self) -> u32 {
        let (head, rest) = self.0.split_at(4);
        self.0 = rest;
        u32::from_le_bytes(head.try_into().unwrap_or([0; 4]))
    }
    pub fn f64(&mut self) -> f64 {
        f64::from_bits(self.u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_at_offsets_read_back_and_gaps_are_zero() {
        let mut s = SpillFile::create(None).expect("temp file");
        s.write_at(10, b"abc").expect("write");
        s.append(b"de").expect("append");
        assert_eq!(s.len(), 15);
        let mut buf = [9u8; 20];
        s.read_at(0, &mut buf).expect("read");
        assert_eq!(&buf[..10], &[0; 10]);
        assert_eq!(&buf[10..15], b"abcde");
        assert_eq!(&buf[15..], &[0; 5], "past the end reads as zeros");
    }

    #[test]
    fn a_missing_folder_is_named() {
        let e = SpillFile::create(Some(Path::new("/nonexistent/sfsim-spill"))).expect_err("no folder");
        assert!(e.to_string().contains("/nonexistent/sfsim-spill"), "{e}");
    }
}
