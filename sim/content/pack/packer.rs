//! Packing one image: mips → BC encode → optional RDO → layout → regions → each region
//! compressed three ways in parallel → one container. A BC-encoded DDS skips straight to the
//! layout with its own blocks (`from_dds.rs`, [`pack_dds`](super::pack_dds)).

use super::compress::{compress, CodecPath, ShuffleChoice};
use super::error::PackError;
use super::format::{self, Header, StreamEntry};
use super::hash::fnv1a64;
use super::rdo_rule::{mip0_psnr, pack_by_rule};
use super::summary::{PathTotals, Summary, Timing};
use crate::content::mipgen::{mip_chain, ColorSpace, Image};
use rayon::prelude::*;
use sfsim_models::codec::bc::{encode_surface, format_channels, rdo, surface_to_tiles, EncodeSettings, RdoSettings};
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::mdu::decode;
use sfsim_models::texture::{BcFormat, MipLayout, PackRegions, TextureDesc, TileMode, BLOCK_DIM};
use std::time::Instant;

/// Everything `sfsim pack` lets you choose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PackOptions {
    pub format: BcFormat,
    pub tile_mode: TileMode,
    /// Streamable mips; `None` = every standard mip.
    pub mip_streams: Option<u32>,
    /// The Deflate encoder (libdeflate-12 by default, zopfli for `--usezopfli`).
    pub deflate: Encoder,
    pub encode: EncodeSettings,
    pub color: ColorSpace,
    /// The RDO post-pass (`--rdo-lambda`), BC1/BC3/BC4/BC5 only; `None` keeps the encoder's
    /// blocks.
    pub rdo: Option<RdoSettings>,
    /// RDO by rule (`--rdo-max-loss`, dB): per texture the largest λ whose mip-0 PSNR loss
    /// against the plain encoding stays within this (see `rdo_rule`); excludes `rdo`.
    pub rdo_max_loss: Option<f64>,
    /// `--shuffle`: Deflate-only streams over the format's BC field shuffle (`On`), per
    /// region whichever is smaller (`Auto`), or never (`Off`, the default); see `compress`.
    pub shuffle: ShuffleChoice,
    /// Try the BCPack candidates (`true`); `false` is a Deflate-only pipeline
    /// (`--no-bcpack`), the seed's "Deflate only" packing scenario.
    pub bcpack: bool,
}

impl PackOptions {
    /// The defaults for `format`: SFS tiles, every standard mip streamable, libdeflate-12,
    /// sRGB for the colour formats (BC1, BC3, BC7) and linear for BC4/BC5.
    pub fn new(format: BcFormat) -> PackOptions {
        let color = match format {
            BcFormat::Bc4 | BcFormat::Bc5 | BcFormat::Bc6h => ColorSpace::Linear,
            _ => ColorSpace::Srgb,
        };
        PackOptions {
            format,
            tile_mode: TileMode::Sfs,
            mip_streams: None,
            deflate: Encoder::LIBDEFLATE_BEST,
            encode: EncodeSettings::default(),
            color,
            rdo: None,
            rdo_max_loss: None,
            shuffle: ShuffleChoice::Off,
            bcpack: true,
        }
    }
}

/// A packed texture: the container file's bytes, the layout it encodes, and the summary.
#[derive(Debug, Clone)]
pub struct PackedTexture {
    pub container: Vec<u8>,
    /// The BC data the streams decode to, in layout order (the source of truth for tests).
    pub layout: Vec<u8>,
    pub summary: Summary,
}

/// Texel rows per encode job: mips are cut into bands so the single-threaded BC encoder runs
/// on every core. A multiple of 4, so bands hold whole block rows and only the last band
/// meets the image's bottom edge — the blocks come out as a whole-mip encode would (BC7
/// picks intel's alpha presets per band, by whether the band has a non-opaque texel).
const BAND_ROWS: u32 = 64;

/// BC-encodes every mip of `chain` as `format`: row-major blocks per mip.
pub fn encode_mips(chain: &[Image], format: BcFormat, settings: &EncodeSettings) -> Result<Vec<Vec<u8>>, PackError> {
    let jobs: Vec<(usize, u32)> = chain
        .iter()
        .enumerate()
        .flat_map(|(level, m)| (0..m.height.div_ceil(BAND_ROWS)).map(move |band| (level, band)))
        .collect();
    let bands: Vec<Vec<u8>> = jobs
        .par_iter()
        .map(|&(level, band)| {
            let m = &chain[level];
            let y0 = band * BAND_ROWS;
            let rows = BAND_ROWS.min(m.height - y0);
            let row_bytes = m.width as usize * 4;
            let texels = &m.rgba[y0 as usize * row_bytes..(y0 + rows) as usize * row_bytes];
            encode_surface(format, m.width, rows, texels, settings)
        })
        .collect::<Result<_, _>>()?;
    let mut mips = vec![Vec::new(); chain.len()];
    for (&(level, _), band) in jobs.iter().zip(bands) {
        mips[level].extend_from_slice(&band);
    }
    Ok(mips)
}

/// Runs RDO over every mip of `mips` (blocks of `chain`, as [`encode_mips`] made them).
/// Mips are cut into bands of whole 64 KiB tile rows: RDO only copies from earlier blocks of
/// the same tile, so the bands come out exactly as a whole-mip pass would, on every core.
pub fn rdo_mips(
    chain: &[Image],
    mips: &[Vec<u8>],
    format: BcFormat,
    settings: &RdoSettings,
) -> Result<Vec<Vec<u8>>, PackError> {
    let band_rows = format.tile_texels().1;
    let jobs: Vec<(usize, u32)> = chain
        .iter()
        .enumerate()
        .flat_map(|(level, m)| (0..m.height.div_ceil(band_rows)).map(move |band| (level, band)))
        .collect();
    let bands: Vec<Vec<u8>> = jobs
        .par_iter()
        .map(|&(level, band)| {
            let m = &chain[level];
            let y0 = band * band_rows;
            let rows = band_rows.min(m.height - y0);
            let row_bytes = m.width as usize * 4;
            let texels = &m.rgba[y0 as usize * row_bytes..(y0 + rows) as usize * row_bytes];
            let block_row_bytes = format.surface_bytes(m.width, BLOCK_DIM) as usize;
            let first = (y0 / BLOCK_DIM) as usize * block_row_bytes;
            let len = format.surface_bytes(m.width, rows) as usize;
            let blocks = mips[level].get(first..first + len).ok_or(PackError::MipLength {
                level: level as u32,
                expected: format.surface_bytes(m.width, m.height),
                found: mips[level].len() as u64,
            })?;
            Ok(rdo(format, m.width, rows, texels, blocks, settings)?)
        })
        .collect::<Result<_, PackError>>()?;
    let mut out = vec![Vec::new(); chain.len()];
    for (&(level, _), band) in jobs.iter().zip(bands) {
        out[level].extend_from_slice(&band);
    }
    Ok(out)
}

/// Lays the mips' blocks out as `regions` says: tiled mips as their 64 KiB tiles, linear
/// mips as they are.
pub fn layout_bytes(regions: &PackRegions, mips: &[Vec<u8>]) -> Result<Vec<u8>, PackError> {
    let format = regions.desc.format;
    let mut out = Vec::with_capacity(regions.total_bytes() as usize);
    for (m, blocks) in regions.mips.iter().zip(mips) {
        match m.layout {
            MipLayout::Linear => out.extend_from_slice(blocks),
            MipLayout::Tiled => {
                for tile in surface_to_tiles(format, m.width, m.height, blocks)? {
                    out.extend_from_slice(&tile);
                }
            }
        }
    }
    Ok(out)
}

/// Packs `image` into a container. `on_stream` is called once per stream compressed (from
/// worker threads), for a progress bar.
pub fn pack(image: &Image, options: &PackOptions, on_stream: &(dyn Fn() + Sync)) -> Result<PackedTexture, PackError> {
    let start = Instant::now();
    let format = options.format;
    let desc = TextureDesc::new(image.width, image.height, format, None)?;
    // Refuse a bad option before the expensive part.
    PackRegions::new(&desc, options.tile_mode, options.mip_streams)?;
    options.shuffle.mode(format)?;
    let chain = mip_chain(image, options.color)?;
    let mipgen = start.elapsed().as_secs_f64();
    let mut mips = encode_mips(&chain, format, &options.encode)?;
    let (mut packed, quality, encode) = if let Some(max_loss) = options.rdo_max_loss {
        // The search packs its answer itself (and the plain encoding, for the bytes saved);
        // its "encode" time includes the search and the plain pack, "compress" is the answer's.
        let (packed, quality) = pack_by_rule(image, &chain, &mips, options, max_loss, on_stream)?;
        let compress = packed.summary.seconds.compress;
        (packed, quality, start.elapsed().as_secs_f64() - mipgen - compress)
    } else {
        if let Some(settings) = &options.rdo {
            mips = rdo_mips(&chain, &mips, format, settings)?;
        }
        let quality = mip0_psnr(image, format, &mips)?;
        let encode = start.elapsed().as_secs_f64() - mipgen;
        (pack_blocks(&desc, &mips, options, options.color == ColorSpace::Srgb, on_stream)?, quality, encode)
    };
    packed.summary.psnr = Some(quality);
    packed.summary.psnr_channels = Some(format_channels(format));
    let s = &mut packed.summary.seconds;
    s.mipgen = mipgen;
    s.encode = encode;
    s.total = start.elapsed().as_secs_f64();
    s.compress = s.total - mipgen - encode;
    Ok(packed)
}

/// Everything after the blocks exist: layout, regions, compression, the container.
pub(super) fn pack_blocks(
    desc: &TextureDesc,
    mips: &[Vec<u8>],
    options: &PackOptions,
    srgb: bool,
    on_stream: &(dyn Fn() + Sync),
) -> Result<PackedTexture, PackError> {
    let start = Instant::now();
    let regions = PackRegions::new(desc, options.tile_mode, options.mip_streams)?;
    options.shuffle.mode(desc.format)?;
    for (level, (m, blocks)) in regions.mips.iter().zip(mips).enumerate() {
        let expected = desc.format.surface_bytes(m.width, m.height);
        if blocks.len() as u64 != expected {
            return Err(PackError::MipLength { level: level as u32, expected, found: blocks.len() as u64 });
        }
    }
    let layout = layout_bytes(&regions, mips)?;

    let compressed: Vec<(StreamEntry, Vec<u8>)> = regions
        .regions
        .par_iter()
        .enumerate()
        .map(|(index, region)| {
            let data = &layout[region.offset as usize..(region.offset + region.bytes) as usize];
            let c = compress(
                index,
                options.format,
                data,
                region.row_blocks,
                options.deflate,
                options.shuffle,
                options.bcpack,
            )?;
            let entry = StreamEntry {
                relative_offset: 0,
                compressed_size: c.bytes.len() as u32,
                inflated_size: c.inflated_size as u32,
                uncompressed_size: region.bytes as u32,
                options: c.options,
                layout_offset: region.offset,
                hash: fnv1a64(data),
                first_mip: region.mips.start,
                mip_count: region.mips.len() as u32,
                resident: region.resident,
                tile: region.tile,
            };
            // Prove the MDU gets the region back before it goes in the file.
            let request = sfsim_models::mdu::MduRequest {
                options: c.options,
                intermediate_size: c.inflated_size,
                destination_size: region.bytes,
                block_bytes: options.format.block_bytes(),
            };
            let back = decode(&request, &c.bytes).map_err(|source| PackError::Verify {
                index,
                bytes: region.bytes,
                source,
            })?;
            if back != data {
                return Err(PackError::Mismatch { index, bytes: region.bytes });
            }
            on_stream();
            Ok((entry, c.bytes))
        })
        .collect::<Result<_, PackError>>()?;
    let (mut entries, streams): (Vec<StreamEntry>, Vec<Vec<u8>>) = compressed.into_iter().unzip();
    let data_bytes = format::place_streams(&mut entries);
    let header = Header {
        desc: *desc,
        tile_mode: options.tile_mode,
        mip_streams: regions.mip_streams,
        srgb,
        stream_count: entries.len() as u32,
        data_offset: format::data_offset(entries.len()),
        data_bytes,
        layout_bytes: regions.total_bytes(),
    };
    let container = format::write(&header, &entries, &streams);
    let total = start.elapsed().as_secs_f64();
    let timing = Timing { mipgen: 0.0, encode: 0.0, compress: total, total };
    let summary = summarize(&header, options, &entries, container.len() as u64, timing);
    Ok(PackedTexture { container, layout, summary })
}

fn summarize(
    header: &Header,
    options: &PackOptions,
    entries: &[StreamEntry],
    file_bytes: u64,
    seconds: Timing,
) -> Summary {
    let mut paths = std::collections::BTreeMap::new();
    for path in CodecPath::ALL {
        paths.insert(path.key(), PathTotals::default());
    }
    for e in entries {
        let t = paths.entry(CodecPath::of(e.options).key()).or_default();
        t.streams += 1;
        t.uncompressed_bytes += u64::from(e.uncompressed_size);
        t.compressed_bytes += u64::from(e.compressed_size);
    }
    let uncompressed: u64 = entries.iter().map(|e| u64::from(e.uncompressed_size)).sum();
    let compressed: u64 = entries.iter().map(|e| u64::from(e.compressed_size)).sum();
    Summary {
        input: String::new(),
        source: "image".to_string(),
        output: String::new(),
        format: format!("{:?}", header.desc.format).to_ascii_lowercase(),
        srgb: header.srgb,
        width: header.desc.width,
        height: header.desc.height,
        mips: header.desc.mip_levels,
        tilemode: header.tile_mode.name().to_string(),
        mipstreams: header.mip_streams,
        bc7modes: options.encode.bc7_modes.map(|m| format!("{:#04x}", m.mask())),
        deflate: options.deflate.to_string(),
        rdo_lambda: options.rdo.map(|r| r.lambda),
        rdo_rule: None,
        shuffle: options.shuffle.name().to_string(),
        shuffled_streams: entries.iter().filter(|e| e.options.swizzle_mode != 0).count(),
        shuffled_compressed_bytes: entries
            .iter()
            .filter(|e| e.options.swizzle_mode != 0)
            .map(|e| u64::from(e.compressed_size))
            .sum(),
        psnr: None,
        psnr_channels: None,
        generated_mips: None,
        streams: entries.len(),
        resident_streams: entries.iter().filter(|e| e.resident).count(),
        uncompressed_bytes: uncompressed,
        compressed_bytes: compressed,
        file_bytes,
        ratio: uncompressed as f64 / compressed.max(1) as f64,
        paths,
        seconds,
    }
}

/// Texel rows must stay whole blocks per band.
const _: () = assert!(BAND_ROWS.is_multiple_of(BLOCK_DIM));
