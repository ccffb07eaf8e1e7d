//! The pack cache: the containers a packing point needs, each keyed by the input bytes'
//! hashes, the options and the sfsim version, packed only when the cache under the output
//! folder does not already hold a matching entry, and written so concurrent shards never
//! read half a file.

use super::pack::{options_for, PackPoint};
use super::pack_figures::PackFigures;
use super::spec::{PackSpec, SweepFile};
use crate::content::pack::{
    self, fnv1a64, load_input, parse_format, Input, Loaded, PackOptions, PackedTexture, MEMBER_KINDS,
};
use serde::{Deserialize, Serialize};
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};

/// The sidecar of a cached container: the full key text (checked on reuse, so a hash
/// collision can never hand back the wrong content) and its figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct CacheEntry {
    key: String,
    figures: PackFigures,
}

/// One container to make: inputs (one, or three for a set) with their options.
#[derive(Debug, Clone)]
pub struct PackJob {
    /// Indices into the sweep's `pack.inputs`.
    pub inputs: Vec<usize>,
    pub options: Vec<PackOptions>,
    /// The cache key text: sfsim version, input hashes, options.
    pub key: String,
    /// The container's file name in the cache (`<hash>.sfstex`).
    pub file_name: String,
}

/// A sweep's inputs, read once: their bytes' hashes and their formats.
pub struct Inputs {
    paths: Vec<PathBuf>,
    hashes: Vec<(u64, u64)>,
    formats: Vec<BcFormat>,
    dds: Vec<bool>,
    set: bool,
}

impl Inputs {
    /// Reads every input (relative to the sweep file) for its hash; an unreadable input or
    /// a bad format is an error at `pack.inputs[i]`.
    pub fn read(sweep: &SweepFile, spec: &PackSpec) -> Result<Inputs, super::spec::SpecError> {
        let dir = sweep.dir();
        let mut inputs = Inputs { paths: vec![], hashes: vec![], formats: vec![], dds: vec![], set: spec.set };
        for (i, input) in spec.inputs.iter().enumerate() {
            let field = format!("pack.inputs[{i}]");
            let path = dir.join(&input.path);
            let shown = input.path.display().to_string();
            let bytes = std::fs::read(&path)
                .map_err(|e| sweep.invalid(&field, Some(&shown), format!("cannot read {}: {e}", path.display())))?;
            let format = input
                .format
                .as_deref()
                .map(parse_format)
                .transpose()
                .map_err(|e| sweep.invalid(&field, Some(&shown), e))?;
            let dds = bytes.starts_with(b"DDS ");
            let format = if dds {
                let image = match load_input(&path) {
                    Ok(Loaded { input: Input::Dds(image), .. }) => image,
                    Ok(_) => {
                        return Err(sweep.invalid(&field, Some(&shown), "starts like a DDS but does not read as one"))
                    }
                    Err(e) => return Err(sweep.invalid(&field, Some(&shown), e.to_string())),
                };
                if format.is_some_and(|f| f != image.format) {
                    return Err(sweep.invalid(
                        &field,
                        Some(&shown),
                        format!(
                            "format is {format:?} but the DDS holds {:?}; omit it or make them match",
                            image.format
                        ),
                    ));
                }
                image.format
            } else {
                format.ok_or_else(|| sweep.invalid(&field, Some(&shown), "an image input needs `format` (bc1..bc7)"))?
            };
            inputs.hashes.push((fnv1a64(&bytes), bytes.len() as u64));
            inputs.paths.push(path);
            inputs.formats.push(format);
            inputs.dds.push(dds);
        }
        Ok(inputs)
    }

    /// The containers a packing point needs, in scenario order (one per input, or one per
    /// set of three).
    pub fn jobs(&self, point: &PackPoint) -> Result<Vec<PackJob>, String> {
        let forced = point.0.get("format").map(|f| parse_format(f).map_err(|e| format!("pack.format={f}: {e}")));
        let forced = forced.transpose()?;
        let group = if self.set { 3 } else { 1 };
        let mut jobs = Vec::new();
        for first in (0..self.paths.len()).step_by(group) {
            let inputs: Vec<usize> = (first..first + group).collect();
            let mut key = format!("sfsim {}\nset {}\n", env!("CARGO_PKG_VERSION"), self.set);
            let mut options = Vec::new();
            for &i in &inputs {
                // A DDS keeps its own format: a pack.format axis applies to images.
                let format = if self.dds[i] { self.formats[i] } else { forced.unwrap_or(self.formats[i]) };
                let o =
                    options_for(point, format, self.dds[i]).map_err(|e| format!("{}: {e}", self.paths[i].display()))?;
                let (hash, len) = self.hashes[i];
                key.push_str(&format!("input {hash:016x} {len}\noptions {o:?}\n"));
                options.push(o);
            }
            let file_name = format!("{:016x}.sfstex", fnv1a64(key.as_bytes()));
            jobs.push(PackJob { inputs, options, key, file_name });
        }
        Ok(jobs)
    }

    /// Packs `job` into `cache` unless a matching entry is there; returns its figures and
    /// whether it packed.
    pub fn ensure(&self, job: &PackJob, cache: &Path) -> anyhow::Result<(PackFigures, bool)> {
        let container = cache.join(&job.file_name);
        let sidecar = container.with_extension("json");
        if let Ok(text) = std::fs::read_to_string(&sidecar) {
            if let Ok(entry) = serde_json::from_str::<CacheEntry>(&text) {
                let size = std::fs::metadata(&container).map(|m| m.len()).ok();
                if entry.key == job.key && size == Some(entry.figures.file_bytes) {
                    return Ok((entry.figures, false));
                }
            }
        }
        let mut packed = Vec::new();
        for (&i, options) in job.inputs.iter().zip(&job.options) {
            let path = &self.paths[i];
            let Loaded { input, warnings } = load_input(path)?;
            for warning in &warnings {
                eprintln!("warning: {warning}");
            }
            let texture = match &input {
                Input::Image(image) => pack::pack(image, options, &|| {}),
                Input::Dds(dds) => pack::pack_dds(dds, options, &|| {}),
            }
            .map_err(|e| anyhow::anyhow!("{}: cannot pack: {e}", path.display()))?;
            packed.push(texture);
        }
        let bytes = if self.set {
            let members: &[PackedTexture; 3] = packed
                .as_slice()
                .try_into()
                .map_err(|_| anyhow::anyhow!("a set takes three inputs ({})", MEMBER_KINDS.join(", ")))?;
            pack::pack_set(members)?
        } else {
            packed[0].container.clone()
        };
        let figures = PackFigures::of(&packed.iter().collect::<Vec<_>>(), bytes.len() as u64);
        std::fs::create_dir_all(cache)?;
        // Write then rename, so that shards sharing a cache never read half a file.
        let temp = |p: &Path| p.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(temp(&container), &bytes)?;
        std::fs::rename(temp(&container), &container)?;
        let entry = CacheEntry { key: job.key.clone(), figures: figures.clone() };
        std::fs::write(temp(&sidecar), serde_json::to_string_pretty(&entry)? + "\n")?;
        std::fs::rename(temp(&sidecar), &sidecar)?;
        Ok((figures, true))
    }
}
