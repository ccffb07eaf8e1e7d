//! Packing in the loop: a sweep's `pack` section and `pack.*` axes give each point packing
//! options; content is packed once per distinct (inputs, options) and cached under the
//! output folder by a hash of the input bytes, the options and the sfsim version, so a
//! rerun — or a wider sweep over the same folder — packs nothing it already has.

pub use super::pack_cache::{Inputs, PackJob};
pub use super::pack_figures::{total, PackFigures};
use crate::content::pack::{self, parse_bc7_modes, PackOptions, ShuffleChoice};
use sfsim_models::codec::bc::{Bc7Quality, EncodeSettings, RdoSettings};
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::texture::{BcFormat, TileMode};
use std::collections::BTreeMap;

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
