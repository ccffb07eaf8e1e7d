//! The codec comparison behind `sfsim codec-report`: real textures, BC-encoded, cut into
//! 64 KiB SFS tiles, each tile compressed every way the packer can (Deflate by three
//! encoders, sfsim's BCPack, BCPack then Deflate), plus the host decode speed of every MDU
//! stage on the same tiles beside libdeflate.

use anyhow::Context;
use rayon::prelude::*;
use sfsim_models::codec::bc::{encode_surface, surface_to_tiles, Bc7Modes, Bc7Quality, EncodeSettings};
use sfsim_models::codec::bcpack::{self, BcpackMode, Profile};
use sfsim_models::codec::swizzle;
use sfsim_models::codec::zlib::{deflate, Encoder, Inflater};
use sfsim_models::nvme::SwizzleMode;
use sfsim_models::texture::BcFormat;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One BC encoding the report compares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variant {
    pub name: &'static str,
    pub format: BcFormat,
    pub settings: EncodeSettings,
}

/// The three: BC1, BC7 with every mode, BC7 mode 7 only (XBTC `--bc7modes 0x80`).
pub fn standard_variants(quality: Bc7Quality) -> Vec<Variant> {
    vec![
        Variant { name: "BC1", format: BcFormat::Bc1, settings: EncodeSettings::default() },
        Variant {
            name: "BC7 all modes",
            format: BcFormat::Bc7,
            settings: EncodeSettings { bc7_quality: quality, bc7_modes: None },
        },
        Variant {
            name: "BC7 mode 7 only",
            format: BcFormat::Bc7,
            settings: EncodeSettings { bc7_quality: quality, bc7_modes: Some(Bc7Modes::MODE_7_ONLY) },
        },
    ]
}

/// Total compressed bytes per method over a variant's tiles.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sizes {
    pub bc: u64,
    pub zlib9: u64,
    pub libdeflate12: u64,
    pub zopfli: u64,
    pub bcpack: u64,
    /// BCPack's fast profile (static rANS; docs/bcpack.md method 3).
    pub bcpack_fast: u64,
    /// BCPack, then libdeflate-12 kept where it shrinks further (XBTC keeps the smaller).
    pub bcpack_deflate: u64,
}

/// Host decode speed of each stage over the same tiles, MB/s of output, single thread.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Speeds {
    /// sfsim's zlib stage on the zlib-9 streams.
    pub zlib_stage: f64,
    /// Bare libdeflate on the same streams.
    pub libdeflate: f64,
    pub bcpack: f64,
    pub bcpack_fast: f64,
    /// The format's shuffle (BC1 2+2+4; BC7 has none, so the Morton layout).
    pub swizzle: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VariantReport {
    pub variant: Variant,
    pub tiles: usize,
    pub sizes: Sizes,
    pub speeds: Speeds,
}

impl VariantReport {
    /// `bytes` as a percentage of the BC size.
    pub fn percent(&self, bytes: u64) -> f64 {
        100.0 * bytes as f64 / self.sizes.bc.max(1) as f64
    }

    /// How much smaller BCPack+Deflate is than the best Deflate-only encoder, percent.
    pub fn bcpack_gain(&self) -> f64 {
        let best = self.sizes.zlib9.min(self.sizes.libdeflate12).min(self.sizes.zopfli);
        100.0 * (1.0 - self.sizes.bcpack_deflate as f64 / best.max(1) as f64)
    }
}

/// The PNG/JPG files of a folder, sorted, or the file itself.
pub fn texture_files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("cannot read the texture folder {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("png")))
        .collect();
    files.sort();
    if files.is_empty() {
        anyhow::bail!("{}: no .png textures in this folder", path.display());
    }
    Ok(files)
}

/// BC-encodes every texture's mip 0 as `variant` and cuts it into 64 KiB tiles.
pub fn tiles_of(files: &[PathBuf], variant: &Variant) -> anyhow::Result<Vec<Vec<u8>>> {
    let mut tiles = Vec::new();
    for file in files {
        let image = crate::content::pack::load_image(file)?;
        let (w, h) = (image.width, image.height);
        let blocks = encode_surface(variant.format, w, h, &image.rgba, &variant.settings)
            .with_context(|| format!("{}: cannot encode as {}", file.display(), variant.name))?;
        tiles.extend(surface_to_tiles(variant.format, w, h, &blocks).with_context(|| file.display().to_string())?);
    }
    Ok(tiles)
}

/// Compresses and decodes `tiles` every way; zopfli runs on every `zopfli_every`-th tile
/// and is scaled to the whole set (it is ~50× slower than libdeflate-12 and within 0.2 %).
pub fn measure(variant: Variant, tiles: &[Vec<u8>], zopfli_every: usize) -> anyhow::Result<VariantReport> {
    let mode = BcpackMode::from_format(variant.format);
    let zopfli_every = zopfli_every.max(1);
    struct Tile {
        zlib9: Vec<u8>,
        libdeflate12: u64,
        zopfli: Option<(u64, u64)>,
        bcpack: Vec<u8>,
        bcpack_fast: Vec<u8>,
        bcpack_deflate: u64,
    }
    let per_tile: Vec<Tile> = tiles
        .par_iter()
        .enumerate()
        .map(|(i, tile)| -> anyhow::Result<Tile> {
            let zlib9 = deflate(tile, Encoder::ZLIB_BEST);
            let libdeflate12 = deflate(tile, Encoder::LIBDEFLATE_BEST).len() as u64;
            let zopfli = (i % zopfli_every == 0).then(|| {
                (deflate(tile, Encoder::ZOPFLI).len() as u64, deflate(tile, Encoder::LIBDEFLATE_BEST).len() as u64)
            });
            let bcpack = bcpack::encode(mode, tile)?;
            let bcpack_fast = bcpack::encode_with(mode, tile, mode.default_row_blocks(), Profile::Fast)?;
            let after = deflate(&bcpack, Encoder::LIBDEFLATE_BEST).len();
            Ok(Tile {
                zlib9,
                libdeflate12,
                zopfli,
                bcpack_deflate: after.min(bcpack.len()) as u64,
                bcpack,
                bcpack_fast,
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let mut sizes = Sizes { bc: tiles.iter().map(|t| t.len() as u64).sum(), ..Sizes::default() };
    let (mut zopfli_part, mut reference_part) = (0u64, 0u64);
    for t in &per_tile {
        sizes.zlib9 += t.zlib9.len() as u64;
        sizes.libdeflate12 += t.libdeflate12;
        sizes.bcpack += t.bcpack.len() as u64;
        sizes.bcpack_fast += t.bcpack_fast.len() as u64;
        sizes.bcpack_deflate += t.bcpack_deflate;
        if let Some((z, reference)) = t.zopfli {
            zopfli_part += z;
            reference_part += reference;
        }
    }
    sizes.zopfli = (sizes.libdeflate12 as f64 * zopfli_part as f64 / reference_part.max(1) as f64).round() as u64;

    let output_mb = sizes.bc as f64 / 1e6;
    let mut inflater = Inflater::new();
    let mut out = vec![0u8; tiles.first().map_or(0, Vec::len)];
    let zlib_stage = time_mb_per_s(output_mb, || {
        for t in &per_tile {
            inflater.inflate_into(&t.zlib9, &mut out).expect("own stream inflates");
        }
    });
    let mut libdeflate = libdeflater::Decompressor::new();
    let libdeflate_speed = time_mb_per_s(output_mb, || {
        for t in &per_tile {
            libdeflate.zlib_decompress(&t.zlib9, &mut out).expect("own stream inflates");
        }
    });
    let bcpack_speed = time_mb_per_s(output_mb, || {
        for t in &per_tile {
            bcpack::decode_into(&t.bcpack, &mut out).expect("own stream decodes");
        }
    });
    let bcpack_fast_speed = time_mb_per_s(output_mb, || {
        for t in &per_tile {
            bcpack::decode_into(&t.bcpack_fast, &mut out).expect("own stream decodes");
        }
    });
    let shuffle = match variant.format.block_bytes() {
        8 => SwizzleMode::Bc1Shuffle,
        _ => SwizzleMode::LinearToMorton,
    };
    let swizzle_speed = time_mb_per_s(output_mb, || {
        for t in tiles {
            swizzle::apply_into(shuffle, variant.format.block_bytes(), t, &mut out).expect("whole tiles");
        }
    });
    Ok(VariantReport {
        variant,
        tiles: tiles.len(),
        sizes,
        speeds: Speeds {
            zlib_stage,
            libdeflate: libdeflate_speed,
            bcpack: bcpack_speed,
            bcpack_fast: bcpack_fast_speed,
            swizzle: swizzle_speed,
        },
    })
}

/// Compressed size of a texture's mip 0 cut into streams of `stream_bytes` (linear block
/// rows, as `tile64k`/`mip` regions store it), as % of the BC size: (libdeflate-12 only,
/// BCPack then libdeflate-12 with the smaller kept per stream).
pub fn stream_size_point(blocks: &[u8], row_blocks: u32, variant: &Variant, stream_bytes: usize) -> (f64, f64) {
    let mode = BcpackMode::from_format(variant.format);
    let (deflate_only, with_bcpack): (u64, u64) = blocks
        .par_chunks(stream_bytes)
        .map(|chunk| {
            let d = deflate(chunk, Encoder::LIBDEFLATE_BEST).len() as u64;
            let b = bcpack::encode_with_row(mode, chunk, row_blocks)
                .map_or(chunk.len(), |p| p.len().min(deflate(&p, Encoder::LIBDEFLATE_BEST).len()))
                as u64;
            (d, b)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let total = blocks.len().max(1) as f64;
    (100.0 * deflate_only as f64 / total, 100.0 * with_bcpack as f64 / total)
}

/// The stream-size curve of one texture: BC-encode its mip 0 as `variant`, then
/// [`stream_size_point`] for each size.
pub fn stream_size_curve(file: &Path, variant: &Variant, sizes: &[usize]) -> anyhow::Result<Vec<(usize, f64, f64)>> {
    let image = crate::content::pack::load_image(file)?;
    let (w, h) = (image.width, image.height);
    let blocks = encode_surface(variant.format, w, h, &image.rgba, &variant.settings)
        .with_context(|| format!("{}: cannot encode as {}", file.display(), variant.name))?;
    let row_blocks = w.div_ceil(4);
    Ok(sizes
        .iter()
        .map(|&size| {
            let (d, b) = stream_size_point(&blocks, row_blocks, variant, size);
            (size, d, b)
        })
        .collect())
}

/// Median of three timed passes of `pass`, as MB/s of `output_mb`.
fn time_mb_per_s(output_mb: f64, mut pass: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..3)
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    output_mb / times[1].max(1e-9)
}

/// The report as a Markdown table.
pub fn markdown(reports: &[VariantReport]) -> String {
    let mut s = String::new();
    s.push_str("Size per 64 KiB SFS tile, as % of the BC size (smaller is better):\n\n");
    s.push_str(
        "| encoding | tiles | zlib-9 | libdeflate-12 | zopfli | BCPack | BCPack+Deflate | gain vs best Deflate ",
    );
    s.push_str("| BCPack fast |\n|---|---|---|---|---|---|---|---|---|\n");
    for r in reports {
        let z = r.sizes;
        s.push_str(&format!(
            "| {} | {} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % |\n",
            r.variant.name,
            r.tiles,
            r.percent(z.zlib9),
            r.percent(z.libdeflate12),
            r.percent(z.zopfli),
            r.percent(z.bcpack),
            r.percent(z.bcpack_deflate),
            r.bcpack_gain(),
            r.percent(z.bcpack_fast)
        ));
    }
    s.push_str("\nHost decode speed per stage on the same tiles, MB/s of output, one thread:\n\n");
    s.push_str("| encoding | zlib stage | libdeflate | BCPack | BCPack fast | swizzle |\n|---|---|---|---|---|---|\n");
    for r in reports {
        let v = r.speeds;
        let swizzle = if r.variant.format.block_bytes() == 8 { "BC1 shuffle" } else { "Morton" };
        s.push_str(&format!(
            "| {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} ({swizzle}) |\n",
            r.variant.name, v.zlib_stage, v.libdeflate, v.bcpack, v.bcpack_fast, v.swizzle
        ));
    }
    s
}
