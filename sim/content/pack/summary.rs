//! What `sfsim pack` reports: streams by codec path, bytes, ratio, time — printed as a table
//! and written as JSON by `--summary-json` (`streams` is the stream count).

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Streams and bytes of one codec path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PathTotals {
    pub streams: usize,
    pub uncompressed_bytes: u64,
    pub compressed_bytes: u64,
}

/// Wall-clock seconds per packing phase (host time; not a simulated quantity).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Timing {
    pub mipgen: f64,
    /// BC encode, plus the RDO pass when it runs.
    pub encode: f64,
    pub compress: f64,
    pub total: f64,
}

/// A DDS input with a partial mip chain: the mips `sfsim pack` made for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneratedMips {
    /// Mips the DDS held, kept as they were (mips `0..given`).
    pub given: u32,
    /// Mips generated (`given..given + generated`): the last given mip decoded, filtered
    /// down by the packer's mipgen, BC-encoded with the packer's encoder.
    pub generated: u32,
    /// The colour space filtered in: `srgb` (the DDS's DXGI format is `_SRGB`) or `linear`.
    pub filtered: String,
}

impl fmt::Display for GeneratedMips {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = |first: u32, last: u32| {
            if first == last {
                format!("mip {first}")
            } else {
                format!("mips {first}..={last}")
            }
        };
        let (given, last) = (self.given, self.given + self.generated - 1);
        let light = if self.filtered == "srgb" { "in linear light (sRGB data)" } else { "as stored (linear data)" };
        write!(
            f,
            "the DDS held {given} of {} mips: {} kept as it held them, {} generated from mip {} (decoded, \
             filtered {light}, BC-encoded)",
            given + self.generated,
            range(0, given - 1),
            range(given, last),
            given - 1,
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub input: String,
    pub output: String,
    /// `image` (encoded here) or `dds` (blocks kept as the DDS had them).
    pub source: String,
    /// `bc1` .. `bc7`.
    pub format: String,
    pub srgb: bool,
    pub width: u32,
    pub height: u32,
    pub mips: u32,
    pub tilemode: String,
    pub mipstreams: u32,
    pub bc7modes: Option<String>,
    pub deflate: String,
    /// `--rdo-lambda`, when the RDO pass ran.
    pub rdo_lambda: Option<f32>,
    /// `--rdo-max-loss`: the λ the rule chose, both PSNRs, the loss, the bytes saved and
    /// every probe of the search (`null` without the option).
    pub rdo_rule: Option<super::rdo_rule::RuleReport>,
    /// `--shuffle`: `off`, `on` or `auto`.
    pub shuffle: String,
    /// Streams stored shuffled (swizzle mode ≠ 0; always Deflate-only) and their bytes.
    pub shuffled_streams: usize,
    pub shuffled_compressed_bytes: u64,
    /// PSNR (dB) of the packed mip 0 against the input image over `psnr_channels` channels
    /// (`null` for a DDS input, which has no original; infinite — also `null` — when exact).
    pub psnr: Option<f64>,
    pub psnr_channels: Option<usize>,
    /// A DDS with a partial mip chain: what was kept and what generated (`null` otherwise).
    pub generated_mips: Option<GeneratedMips>,
    /// Stream count (streamable + resident).
    pub streams: usize,
    pub resident_streams: usize,
    /// Sum of every stream's UncompressedSize: the texture's BC data (tile padding included).
    pub uncompressed_bytes: u64,
    /// Sum of every stream's CompressedSize.
    pub compressed_bytes: u64,
    pub file_bytes: u64,
    /// uncompressed_bytes / compressed_bytes.
    pub ratio: f64,
    /// Keyed `raw`, `deflate`, `bcpack`, `bcpack_deflate`.
    pub paths: BTreeMap<&'static str, PathTotals>,
    pub seconds: Timing,
}

impl Summary {
    pub fn to_json(&self) -> String {
        // A struct of plain numbers and strings always serialises.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = if self.srgb { "sRGB" } else { "linear" };
        writeln!(
            f,
            "{} → {}: {}x{} {} ({colour}), {} mips, tile mode {}, {} streamable mips",
            self.input,
            self.output,
            self.width,
            self.height,
            self.format.to_uppercase(),
            self.mips,
            self.tilemode,
            self.mipstreams
        )?;
        writeln!(
            f,
            "{} streams ({} streamable, {} always resident), Deflate = {}",
            self.streams,
            self.streams - self.resident_streams,
            self.resident_streams,
            self.deflate
        )?;
        writeln!(f, "{:<16} {:>8} {:>14} {:>14} {:>8}", "codec path", "streams", "BC bytes", "packed bytes", "ratio")?;
        let rows = [
            ("raw", "raw"),
            ("deflate", "Deflate only"),
            ("bcpack", "BCPack only"),
            ("bcpack_deflate", "BCPack+Deflate"),
        ];
        for (key, label) in rows {
            let t = self.paths.get(key).copied().unwrap_or_default();
            writeln!(
                f,
                "{label:<16} {:>8} {:>14} {:>14} {:>8}",
                t.streams,
                t.uncompressed_bytes,
                t.compressed_bytes,
                ratio(t)
            )?;
        }
        let total = PathTotals {
            streams: self.streams,
            uncompressed_bytes: self.uncompressed_bytes,
            compressed_bytes: self.compressed_bytes,
        };
        writeln!(
            f,
            "{:<16} {:>8} {:>14} {:>14} {:>8}",
            "total",
            total.streams,
            total.uncompressed_bytes,
            total.compressed_bytes,
            ratio(total)
        )?;
        if self.shuffle != "off" {
            writeln!(
                f,
                "shuffle {}: {} of {} streams shuffled (Deflate only over the BC field planes), {} B",
                self.shuffle, self.shuffled_streams, self.streams, self.shuffled_compressed_bytes
            )?;
        }
        match (self.psnr, self.psnr_channels) {
            (Some(psnr), Some(channels)) => {
                let rdo = self.rdo_lambda.map_or(String::new(), |l| format!(", RDO λ = {l}"));
                writeln!(f, "PSNR of mip 0 vs the input: {psnr:.2} dB over {} channels{rdo}", channels)?
            }
            _ => match &self.generated_mips {
                Some(g) => writeln!(f, "{g}")?,
                None => writeln!(f, "blocks kept exactly as the DDS held them")?,
            },
        }
        if let Some(r) = &self.rdo_rule {
            write!(f, "RDO by rule (max loss {} dB, {} RDO passes): ", r.max_loss_db, r.probes.len())?;
            match r.lambda {
                Some(lambda) => writeln!(
                    f,
                    "λ = {lambda}; PSNR {:.2} dB without RDO → {:.2} dB, loss {:.2} dB; {} → {} B, {} B ({:.1} %) saved",
                    r.psnr_plain, r.psnr_rdo, r.loss_db, r.bytes_plain, r.bytes, r.bytes_saved, r.saved_percent
                )?,
                None => writeln!(f, "{}", r.note.as_deref().unwrap_or("packed without RDO"))?,
            }
        }
        let encode = if self.rdo_rule.is_some() {
            "BC encode + RDO search"
        } else if self.rdo_lambda.is_some() {
            "BC encode + RDO"
        } else {
            "BC encode"
        };
        write!(
            f,
            "file {} B; mips {:.2} s, {encode} {:.2} s, compress {:.2} s, total {:.2} s",
            self.file_bytes, self.seconds.mipgen, self.seconds.encode, self.seconds.compress, self.seconds.total
        )
    }
}

fn ratio(t: PathTotals) -> String {
    if t.streams == 0 {
        "-".to_string()
    } else {
        format!("{:.3}:1", t.uncompressed_bytes as f64 / t.compressed_bytes.max(1) as f64)
    }
}
