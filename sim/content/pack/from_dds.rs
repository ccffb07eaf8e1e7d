//! Packing a BC-encoded DDS: its blocks as they are, a partial mip chain completed.

use super::error::PackError;
use super::packer::{encode_mips, pack_blocks, PackOptions, PackedTexture};
use super::summary::GeneratedMips;
use crate::content::mipgen::{mip_chain, ColorSpace, Image};
use sfsim_models::codec::bc::decode_surface;
use sfsim_models::texture::{BcFormat, DdsImage, TextureDesc};
use std::time::Instant;

/// Packs a BC-encoded DDS with its blocks exactly as they are. `options.format` is ignored for
/// the DDS's own; `options.color` and `options.rdo` do not apply (RDO needs the original
/// texels, which a DDS does not have), and sRGB comes from the DDS's DXGI format.
///
/// A DDS with fewer mips than the full chain (one mip, as many exporters write by default)
/// gets the rest generated, because a streamed texture needs every mip down to 1x1 (the
/// container and SFS's packed tail both assume it): its last mip is decoded, filtered down by
/// [`mip_chain`] (in linear light when the DXGI format is `_SRGB`, as stored otherwise — what
/// the GPU's sampler would take the data for) and the new mips BC-encoded with
/// `options.encode`. The given mips stay bit-exact; `summary.generated_mips` says what was
/// made. Refusing would turn away the commonest real DDS, and packing the given mips alone
/// would write a texture the streamer cannot finish sampling.
pub fn pack_dds(
    dds: &DdsImage,
    options: &PackOptions,
    on_stream: &(dyn Fn() + Sync),
) -> Result<PackedTexture, PackError> {
    let start = Instant::now();
    if !PACKABLE_DDS_FORMATS.contains(&dds.format) {
        return Err(PackError::DdsFormat { format: dds.format });
    }
    if options.rdo.is_some() || options.rdo_max_loss.is_some() {
        return Err(PackError::Option {
            option: if options.rdo.is_some() { "--rdo-lambda" } else { "--rdo-max-loss" },
            value: "on a BC-encoded DDS".to_string(),
            expected: "an image input (RDO needs the original texels, which a DDS does not hold)",
        });
    }
    let desc = TextureDesc::new(dds.width, dds.height, dds.format, None)?;
    let given = dds.mip_count.min(dds.mips.len() as u32);
    if given == 0 || given > desc.mip_levels || dds.mips.len() != dds.mip_count as usize {
        return Err(PackError::DdsMipCount {
            found: dds.mip_count,
            expected: desc.mip_levels,
            width: dds.width,
            height: dds.height,
        });
    }
    let options = PackOptions { format: dds.format, rdo: None, rdo_max_loss: None, ..*options };
    let (mips, generated, encode) = if given < desc.mip_levels {
        let t = Instant::now();
        let (mips, generated) = complete_chain(dds, given, desc.mip_levels, &options)?;
        (std::borrow::Cow::Owned(mips), Some(generated), t.elapsed().as_secs_f64())
    } else {
        (std::borrow::Cow::Borrowed(&dds.mips), None, 0.0)
    };
    let mut packed = pack_blocks(&desc, &mips, &options, dds.srgb, on_stream)?;
    packed.summary.source = "dds".to_string();
    packed.summary.bc7modes = None;
    packed.summary.generated_mips = generated;
    let s = &mut packed.summary.seconds;
    s.encode = encode;
    s.total = start.elapsed().as_secs_f64();
    s.compress = s.total - encode;
    Ok(packed)
}

/// Formats a DDS may hold for `sfsim pack`: every one sfsim decodes and packs except BC6H
/// (HDR; the MDU's BCPack and the packer's encoders have no BC6H path).
pub const PACKABLE_DDS_FORMATS: [BcFormat; 6] =
    [BcFormat::Bc1, BcFormat::Bc2, BcFormat::Bc3, BcFormat::Bc4, BcFormat::Bc5, BcFormat::Bc7];

/// The DDS's `given` mips followed by mips `given..levels`, made from mip `given - 1`.
fn complete_chain(
    dds: &DdsImage,
    given: u32,
    levels: u32,
    options: &PackOptions,
) -> Result<(Vec<Vec<u8>>, GeneratedMips), PackError> {
    let last = given - 1;
    let (width, height) = dds.mip_size(last);
    let rgba = decode_surface(dds.format, width, height, &dds.mips[last as usize])?;
    let color = if dds.srgb { ColorSpace::Srgb } else { ColorSpace::Linear };
    let chain = mip_chain(&Image { width, height, rgba }, color)?;
    // chain[0] is the decoded last mip itself; its blocks are the DDS's, not re-encoded.
    let made = encode_mips(&chain[1..], dds.format, &options.encode)?;
    let generated = GeneratedMips {
        given,
        generated: levels - given,
        filtered: if dds.srgb { "srgb" } else { "linear" }.to_string(),
    };
    debug_assert_eq!(made.len() as u32, generated.generated);
    Ok((dds.mips.iter().cloned().chain(made).collect(), generated))
}
