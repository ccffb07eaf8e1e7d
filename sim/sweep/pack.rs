//! Packing in the loop: a sweep's `pack` section and `pack.*` axes give each point packing
//! options; content is packed once per distinct (inputs, options) and cached under the
//! output folder by a hash of the input bytes, the options and the sfsim version, so a
//! rerun — or a wider sweep over the same folder — packs nothing it already has.

use super::spec::{PackSpec, SweepFile};
use crate::content::pack::{
    self, fnv1a64, load_input, parse_bc7_modes, parse_format, Input, Loaded, PackOptions, PackedTexture, ShuffleChoice,
    MEMBER_KINDS,
};
use crate::stats::StatSet;
use serde::{Deserialize, Serialize};
use sfsim_models::codec::bc::{Bc7Quality, EncodeSettings, RdoSettings};
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::texture::{BcFormat, TileMode};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The packing options a sweep can set (`pack.<name>` axes, `pack.options`), with the
/// values each takes.
pub const OPTIONS: &[(&str, &str)] = &[
    ("format", "bc1, bc2, bc3, bc4, bc5 or bc7"),
    ("tilemode", "sfs, tile64k or mip"),
    ("mipstreams", "a mip count, or None for every standard mip"),
    ("zopfli", "true or false"),
    ("deflate", "libdeflate (level 12, the default), zlib (level 9, as XBTC) or zopfli"),
    ("bc7modes", "a hex mode mask 0x01..0xff (0x80 = mode 7 only), or None"),
    ("bc7quality", "fast, basic or slow"),
    ("rdo_lambda", "a λ ≥ 0, or None"),
    ("rdo_max_loss", "a PSNR loss budget 0 < loss ≤ 20 dB (e.g. 2dB), or None"),
    ("shuffle", "off, on or auto (BC1/3/4/5 field shuffle under Deflate)"),
    ("bcpack", "true, or false for Deflate only"),
];

/// One packing point: option name → value text (options not named keep their defaults).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PackPoint(pub BTreeMap<String, String>);

/// Whether `name` is a packing option, or the error naming the valid ones.
pub fn check_option(name: &str) -> Result<(), String> {
    if OPTIONS.iter().any(|(n, _)| *n == name) {
        Ok(())
    } else {
        let names: Vec<&str> = OPTIONS.iter().map(|(n, _)| *n).collect();
        Err(format!("pack.{name} is not a packing option; expected pack. followed by one of {}", names.join(", ")))
    }
}

fn optional(value: &str) -> Option<&str> {
    (value != "None").then_some(value)
}

/// The packer's options for one input of `format` at `point`; errors name the option,
/// its value and what it takes.
pub fn options_for(point: &PackPoint, format: BcFormat, dds: bool) -> Result<PackOptions, String> {
    let mut options = PackOptions::new(format);
    let bad = |name: &str, value: &str, why: String| format!("pack.{name}={value}: {why}");
    let rdo_formats = matches!(format, BcFormat::Bc1 | BcFormat::Bc3 | BcFormat::Bc4 | BcFormat::Bc5);
    for (name, value) in &point.0 {
        let v = value.as_str();
        match name.as_str() {
            "format" => {}
            "tilemode" => options.tile_mode = v.parse::<TileMode>().map_err(|e| bad(name, v, e.to_string()))?,
            "mipstreams" => {
                options.mip_streams = optional(v)
                    .map(|n| n.parse::<u32>().map_err(|_| bad(name, v, "expected a mip count or None".into())))
                    .transpose()?
            }
            "deflate" => {
                options.deflate = match v {
                    "libdeflate" => Encoder::LIBDEFLATE_BEST,
                    "zlib" => Encoder::ZLIB_BEST,
                    "zopfli" => Encoder::ZOPFLI,
                    _ => return Err(bad(name, v, "expected libdeflate, zlib or zopfli".into())),
                };
            }
            "bcpack" => {
                options.bcpack = v.parse::<bool>().map_err(|_| bad(name, v, "expected true or false".into()))?;
            }
            "zopfli" => {
                let on = v.parse::<bool>().map_err(|_| bad(name, v, "expected true or false".into()))?;
                options.deflate = if on { Encoder::ZOPFLI } else { Encoder::LIBDEFLATE_BEST };
            }
            "bc7modes" => {
                let modes = optional(v).map(parse_bc7_modes).transpose().map_err(|e| bad(name, v, e))?;
                if modes.is_some() && format != BcFormat::Bc7 {
                    return Err(bad(name, v, format!("applies to bc7 only; this input is {format:?}")));
                }
                options.encode = EncodeSettings { bc7_modes: modes, ..options.encode };
            }
            "bc7quality" => {
                let quality = v.parse::<Bc7Quality>().map_err(|e| bad(name, v, e))?;
                options.encode = EncodeSettings { bc7_quality: quality, ..options.encode };
            }
            "rdo_lambda" => {
                if let Some(text) = optional(v) {
                    let lambda: f32 = text.parse().map_err(|_| bad(name, v, "expected a λ ≥ 0 or None".into()))?;
                    if !(lambda.is_finite() && lambda >= 0.0) {
                        return Err(bad(name, v, "out of range; expected a finite λ ≥ 0".into()));
                    }
                    if !rdo_formats {
                        return Err(bad(
                            name,
                            v,
                            format!("applies to bc1, bc3, bc4 and bc5; this input is {format:?}"),
                        ));
                    }
                    options.rdo = Some(RdoSettings { lambda, ..RdoSettings::default() });
                }
            }
            "rdo_max_loss" => {
                if let Some(text) = optional(v) {
                    options.rdo_max_loss = Some(pack::parse_max_loss(text).map_err(|e| bad(name, v, e))?);
                    if !rdo_formats {
                        return Err(bad(
                            name,
                            v,
                            format!("applies to bc1, bc3, bc4 and bc5; this input is {format:?}"),
                        ));
                    }
                }
            }
            "shuffle" => {
                options.shuffle = v.parse::<ShuffleChoice>().map_err(|e| bad(name, v, e))?;
                if options.shuffle == ShuffleChoice::On && pack::shuffle_mode(format).is_none() {
                    return Err(bad(name, v, format!("{format:?} has no field shuffle; expected off or auto for it")));
                }
            }
            other => return Err(check_option(other).err().unwrap_or_default()),
        }
    }
    if options.rdo.is_some() && options.rdo_max_loss.is_some() {
        return Err("pack.rdo_lambda and pack.rdo_max_loss are exclusive: set the other to None".into());
    }
    if dds && (options.rdo.is_some() || options.rdo_max_loss.is_some() || options.encode.bc7_modes.is_some()) {
        return Err("RDO and BC7 modes need an image input; a DDS's blocks are packed as they are".into());
    }
    Ok(options)
}

/// What one cached container holds, for the sweep's `pack.*` stats. Deterministic: no
/// host times, no absolute paths.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PackFigures {
    pub textures: u64,
    pub streams: u64,
    pub resident_streams: u64,
    pub uncompressed_bytes: u64,
    pub compressed_bytes: u64,
    pub file_bytes: u64,
    /// Streams BCPack decodes (BCPack alone or under Deflate).
    pub bcpack_streams: u64,
    /// Mip-0 PSNR of each texture against its input, dB (`None` for a DDS or exact).
    pub psnr: Vec<Option<f64>>,
    /// λ of each texture's RDO pass (fixed or chosen by the rule).
    pub rdo_lambda: Vec<f64>,
}

impl PackFigures {
    fn of(textures: &[&PackedTexture], file_bytes: u64) -> PackFigures {
        let mut f = PackFigures { file_bytes, ..Default::default() };
        for t in textures {
            let s = &t.summary;
            f.textures += 1;
            f.streams += s.streams as u64;
            f.resident_streams += s.resident_streams as u64;
            f.uncompressed_bytes += s.uncompressed_bytes;
            f.compressed_bytes += s.compressed_bytes;
            f.bcpack_streams += ["bcpack", "bcpack_deflate"]
                .iter()
                .filter_map(|k| s.paths.get(k))
                .map(|p| p.streams as u64)
                .sum::<u64>();
            f.psnr.push(s.psnr);
            if let Some(lambda) =
                s.rdo_rule.as_ref().map(|r| r.lambda.map_or(0.0, f64::from)).or(s.rdo_lambda.map(f64::from))
            {
                f.rdo_lambda.push(lambda);
            }
        }
        f
    }

    fn add(&mut self, o: &PackFigures) {
        self.textures += o.textures;
        self.streams += o.streams;
        self.resident_streams += o.resident_streams;
        self.uncompressed_bytes += o.uncompressed_bytes;
        self.compressed_bytes += o.compressed_bytes;
        self.file_bytes += o.file_bytes;
        self.bcpack_streams += o.bcpack_streams;
        self.psnr.extend(&o.psnr);
        self.rdo_lambda.extend(&o.rdo_lambda);
    }

    /// The point's packing stats (`pack.*`).
    pub fn push_stats(&self, s: &mut StatSet) {
        let (u, c) = (self.uncompressed_bytes as f64, self.compressed_bytes as f64);
        s.push("pack.textures", Some(self.textures as f64), "count", "textures packed for this point");
        s.push("pack.streams", Some(self.streams as f64), "count", "streams in the point's containers");
        s.push("pack.uncompressed_bytes", Some(u), "B", "sum of every stream's UncompressedSize (the BC data)");
        s.push("pack.compressed_bytes", Some(c), "B", "sum of every stream's CompressedSize (what the drive reads)");
        s.push("pack.file_bytes", Some(self.file_bytes as f64), "B", "container file sizes");
        s.push("pack.size_percent", (u > 0.0).then(|| 100.0 * c / u), "%", "compressed size as % of the BC data");
        s.push("pack.ratio", (c > 0.0).then(|| u / c), "x", "BC data ÷ compressed size");
        let streams = self.streams.max(1) as f64;
        s.push("pack.mean_stream", Some(u / streams / 1024.0), "KiB", "mean uncompressed stream size");
        s.push("pack.mean_compressed_stream", Some(c / streams / 1024.0), "KiB", "mean compressed stream size");
        s.push(
            "pack.bcpack_share",
            Some(self.bcpack_streams as f64 / streams),
            "fraction",
            "streams decoded by BCPack",
        );
        let psnr: Vec<f64> = self.psnr.iter().flatten().copied().collect();
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        s.push("pack.psnr_mean", mean(&psnr), "dB", "mean mip-0 PSNR against the inputs (images only)");
        s.push("pack.psnr_min", psnr.iter().copied().reduce(f64::min), "dB", "lowest mip-0 PSNR against the inputs");
        s.push("pack.rdo_lambda_mean", mean(&self.rdo_lambda), "λ", "mean RDO λ over the textures that ran RDO");
    }
}

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

/// Sums the figures of a point's containers.
pub fn total(parts: &[PackFigures]) -> PackFigures {
    let mut all = PackFigures::default();
    for p in parts {
        all.add(p);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfsim_models::codec::bc::Bc7Modes;

    fn point(pairs: &[(&str, &str)]) -> PackPoint {
        PackPoint(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
    }

    #[test]
    fn every_option_reaches_the_packer_and_bad_values_name_the_option() {
        let o = options_for(
            &point(&[
                ("tilemode", "mip"),
                ("mipstreams", "2"),
                ("deflate", "zlib"),
                ("bcpack", "false"),
                ("rdo_lambda", "40"),
                ("shuffle", "auto"),
            ]),
            BcFormat::Bc1,
            false,
        )
        .unwrap();
        assert_eq!(
            (o.tile_mode, o.mip_streams, o.deflate, o.bcpack),
            (TileMode::Mip, Some(2), Encoder::ZLIB_BEST, false)
        );
        assert_eq!((o.rdo.map(|r| r.lambda), o.shuffle), (Some(40.0), ShuffleChoice::Auto));
        let o = options_for(&point(&[("bc7modes", "0x80"), ("zopfli", "true")]), BcFormat::Bc7, false).unwrap();
        assert_eq!((o.encode.bc7_modes, o.deflate), (Some(Bc7Modes::MODE_7_ONLY), Encoder::ZOPFLI));
        let err = |pairs: &[(&str, &str)], format| options_for(&point(pairs), format, false).unwrap_err();
        assert!(err(&[("deflate", "gzip")], BcFormat::Bc1).starts_with("pack.deflate=gzip: expected libdeflate"));
        assert!(err(&[("bc7modes", "0x80")], BcFormat::Bc1).contains("applies to bc7 only"));
        assert!(err(&[("rdo_lambda", "40")], BcFormat::Bc7).contains("applies to bc1, bc3, bc4 and bc5"));
        assert!(err(&[("rdo_lambda", "40"), ("rdo_max_loss", "2dB")], BcFormat::Bc1).contains("exclusive"));
        assert!(err(&[("shuffle", "on")], BcFormat::Bc7).contains("has no field shuffle"));
        assert!(err(&[("tilemode", "huge")], BcFormat::Bc1).starts_with("pack.tilemode=huge"));
        assert!(options_for(&point(&[("rdo_lambda", "40")]), BcFormat::Bc1, true).unwrap_err().contains("DDS"));
    }
}
