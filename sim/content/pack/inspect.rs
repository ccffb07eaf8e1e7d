//! Looking at packed textures: open any of a container, a DDS or an image as RGBA8 mips
//! ([`TextureFile`]), measure one against another ([`compare`]: PSNR / RMSE per channel and
//! overall) and write a container back out as a DDS ([`export_dds`]) — `sfsim compare`,
//! `view` and `export`.
//!
//! A container's mip is decoded the way the console would: each stream through the functional
//! MDU (zlib → BCPack, hash checked), then the BC decoder. An image has only mip 0; its other
//! mips are made by the packer's own mip filter, in the colour space the other side of a
//! comparison was packed in, so "packed vs original" compares like with like at every mip.

use super::error::{ContainerError, PackError};
use super::input::load_image;
use super::reader::Container;
use crate::content::mipgen::{mip_chain, ColorSpace, Image, MipgenError};
use sfsim_models::codec::bc::{decode_surface, format_channels, psnr, rmse, BcError};
use sfsim_models::texture::{BcFormat, DdsError, DdsImage};
use std::path::Path;

/// Why a texture file could not be opened, decoded or compared.
#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    #[error("cannot read {file}: {source}")]
    Read { file: String, source: std::io::Error },
    #[error(transparent)]
    Container(#[from] ContainerError),
    #[error("{file}: not a readable DDS: {source}")]
    Dds { file: String, source: DdsError },
    #[error(
        "{file} is a set container (SFSIMSET: three textures in one file); expected a single-texture container, \
         DDS or image here (`sfsim inspect` describes a set)"
    )]
    SetContainer { file: String },
    #[error("{0}")]
    Image(#[from] PackError),
    #[error("{file}: mip {level} is out of range; expected 0..{levels}")]
    MipIndex { file: String, level: u32, levels: u32 },
    #[error("{file}: mip {level} does not BC-decode: {source}")]
    Bc { file: String, level: u32, source: BcError },
    #[error("{file}: cannot make mip {level}: {source}")]
    Mipgen { file: String, level: u32, source: MipgenError },
    #[error("{file}: cannot export as DDS: {source}")]
    Export { file: String, source: DdsError },
    #[error(
        "{a} is {aw}x{ah} at mip {level} but {b} is {bw}x{bh}; expected both the same size (compare mips of the \
         same texture)"
    )]
    Size { a: String, b: String, level: u32, aw: u32, ah: u32, bw: u32, bh: u32 },
}

/// The first bytes of a container and of a DDS; anything else is tried as an image.
const CONTAINER_MAGIC: &[u8] = &super::format::MAGIC;
const DDS_MAGIC: &[u8] = b"DDS ";

/// A texture file of any kind sfsim reads, opened and validated.
#[derive(Debug, Clone)]
pub struct TextureFile {
    name: String,
    kind: Kind,
    /// `FILE: message` lines the reader warned about (a DDS's trailing bytes…).
    warnings: Vec<String>,
}

#[derive(Debug, Clone)]
enum Kind {
    Container(Box<Container>),
    Dds(DdsImage),
    Image(Image),
}

impl TextureFile {
    /// Opens `path`, telling a container, a DDS and an image apart by their bytes.
    pub fn open(path: &Path) -> Result<TextureFile, InspectError> {
        let name = path.display().to_string();
        let bytes = crate::limits::read(path, crate::limits::InputKind::Container)
            .map_err(|source| InspectError::Read { file: name.clone(), source })?;
        if bytes.starts_with(&super::set::SET_MAGIC) {
            return Err(InspectError::SetContainer { file: name });
        }
        let mut warnings = Vec::new();
        let kind = if bytes.starts_with(CONTAINER_MAGIC) {
            Kind::Container(Box::new(Container::parse(&name, bytes)?))
        } else if bytes.starts_with(DDS_MAGIC) {
            let read = DdsImage::read(&bytes).map_err(|source| InspectError::Dds { file: name.clone(), source })?;
            warnings = read.warnings.iter().map(|w| format!("{name}: {w}")).collect();
            Kind::Dds(read.image)
        } else {
            Kind::Image(load_image(path)?)
        };
        Ok(TextureFile { name, kind, warnings })
    }

    /// What reading the file warned about, `FILE: message` each, for the caller to print.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The container, when the file is one.
    pub fn container(&self) -> Option<&Container> {
        match &self.kind {
            Kind::Container(c) => Some(c),
            _ => None,
        }
    }

    /// The BC format of a container or DDS; `None` for an image.
    pub fn format(&self) -> Option<BcFormat> {
        match &self.kind {
            Kind::Container(c) => Some(c.header().desc.format),
            Kind::Dds(d) => Some(d.format),
            Kind::Image(_) => None,
        }
    }

    /// Whether a container or DDS holds sRGB colour; `None` for an image (it does not say).
    pub fn srgb(&self) -> Option<bool> {
        match &self.kind {
            Kind::Container(c) => Some(c.header().srgb),
            Kind::Dds(d) => Some(d.srgb),
            Kind::Image(_) => None,
        }
    }

    /// Mips the file holds (an image: the full chain the packer would make).
    pub fn mip_count(&self) -> u32 {
        match &self.kind {
            Kind::Container(c) => c.regions().mips.len() as u32,
            Kind::Dds(d) => d.mip_count,
            Kind::Image(i) => u32::BITS - i.width.max(i.height).leading_zeros(),
        }
    }

    /// Mip `level` as RGBA8 texels. `color` is the colour space an image's lower mips are
    /// filtered in (it is not used for mip 0, nor for containers and DDS files).
    pub fn mip_rgba(&self, level: u32, color: ColorSpace) -> Result<Image, InspectError> {
        let levels = self.mip_count();
        if level >= levels {
            return Err(InspectError::MipIndex { file: self.name.clone(), level, levels });
        }
        let bc = |format: BcFormat, width: u32, height: u32, blocks: &[u8]| {
            decode_surface(format, width, height, blocks)
                .map(|rgba| Image { width, height, rgba })
                .map_err(|source| InspectError::Bc { file: self.name.clone(), level, source })
        };
        match &self.kind {
            Kind::Container(c) => {
                let mip = c.regions().mips[level as usize];
                bc(c.header().desc.format, mip.width, mip.height, &c.mip_blocks(level)?)
            }
            Kind::Dds(d) => {
                let (width, height) = d.mip_size(level);
                bc(d.format, width, height, &d.mips[level as usize])
            }
            Kind::Image(i) if level == 0 => Ok(i.clone()),
            Kind::Image(i) => {
                let mut chain = mip_chain(i, color).map_err(|source| InspectError::Mipgen {
                    file: self.name.clone(),
                    level,
                    source,
                })?;
                Ok(chain.swap_remove(level as usize))
            }
        }
    }
}

/// One channel's error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChannelError {
    /// 8-bit levels.
    pub rmse: f64,
    /// dB, peak 255; infinite when the channel is identical.
    pub psnr: f64,
}

/// How far two images are apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub width: u32,
    pub height: u32,
    /// Channels counted, R first.
    pub channels: usize,
    pub per_channel: Vec<ChannelError>,
    /// Over all counted channels together ([`psnr`] / [`rmse`] of the BC module).
    pub overall: ChannelError,
}

/// The channels worth comparing between files of these formats: a BC format's own channels
/// ([`format_channels`]: BC1 is RGB, BC4 R only), the fewest of the two; RGBA for two images.
pub fn compare_channels(a: Option<BcFormat>, b: Option<BcFormat>) -> usize {
    [a, b].iter().flatten().map(|&f| format_channels(f)).min().unwrap_or(4)
}

/// Compares mip `level` of `a` and `b` over `channels`. An image's lower mips are made in the
/// colour space of the other file (sRGB when neither says).
pub fn compare(a: &TextureFile, b: &TextureFile, level: u32, channels: usize) -> Result<Comparison, InspectError> {
    let color = match a.srgb().or(b.srgb()) {
        Some(false) => ColorSpace::Linear,
        _ => ColorSpace::Srgb,
    };
    let (ia, ib) = (a.mip_rgba(level, color)?, b.mip_rgba(level, color)?);
    if (ia.width, ia.height) != (ib.width, ib.height) {
        return Err(InspectError::Size {
            a: a.name.clone(),
            b: b.name.clone(),
            level,
            aw: ia.width,
            ah: ia.height,
            bw: ib.width,
            bh: ib.height,
        });
    }
    let metric_error = |source| InspectError::Bc { file: a.name.clone(), level, source };
    let overall = ChannelError {
        rmse: rmse(&ia.rgba, &ib.rgba, channels).map_err(metric_error)?,
        psnr: psnr(&ia.rgba, &ib.rgba, channels).map_err(metric_error)?,
    };
    let texels = (ia.rgba.len() / 4).max(1) as f64;
    let per_channel = (0..channels)
        .map(|c| {
            let sum: u64 = ia
                .rgba
                .iter()
                .skip(c)
                .step_by(4)
                .zip(ib.rgba.iter().skip(c).step_by(4))
                .map(|(&x, &y)| u64::from(x.abs_diff(y)).pow(2))
                .sum();
            let mse = sum as f64 / texels;
            let psnr = if mse == 0.0 { f64::INFINITY } else { 10.0 * (255.0 * 255.0 / mse).log10() };
            ChannelError { rmse: mse.sqrt(), psnr }
        })
        .collect();
    Ok(Comparison { width: ia.width, height: ia.height, channels, per_channel, overall })
}

/// The container as a DDS file with every mip, the blocks exactly as the streams decode to
/// (untiled to row-major), in the container's format and colour space.
pub fn export_dds(c: &Container) -> Result<Vec<u8>, InspectError> {
    container_dds(c)?.write().map_err(|source| InspectError::Export { file: c.name().to_string(), source })
}

/// [`export_dds`] with a legacy DX9 header ([`DdsImage::write_legacy`]: BC1–BC5, no sRGB),
/// for readers that know no more.
pub fn export_dds_legacy(c: &Container) -> Result<Vec<u8>, InspectError> {
    container_dds(c)?.write_legacy().map_err(|source| InspectError::Export { file: c.name().to_string(), source })
}

fn container_dds(c: &Container) -> Result<DdsImage, InspectError> {
    let desc = c.header().desc;
    let mips = (0..c.regions().mips.len() as u32).map(|level| c.mip_blocks(level)).collect::<Result<Vec<_>, _>>()?;
    Ok(DdsImage {
        format: desc.format,
        width: desc.width,
        height: desc.height,
        mip_count: mips.len() as u32,
        srgb: c.header().srgb,
        mips,
    })
}
