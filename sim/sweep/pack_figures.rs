//! What packed content measures, for the sweep's `pack.*` stats: sizes, stream counts,
//! BCPack's share, PSNR and RDO λ of a point's containers, deterministic so cached and
//! freshly packed content report the same.

use crate::content::pack::PackedTexture;
use crate::stats::StatSet;
use serde::{Deserialize, Serialize};

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
    pub(super) fn of(textures: &[&PackedTexture], file_bytes: u64) -> PackFigures {
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

/// Sums the figures of a point's containers.
pub fn total(parts: &[PackFigures]) -> PackFigures {
    let mut all = PackFigures::default();
    for p in parts {
        all.add(p);
    }
    all
}
