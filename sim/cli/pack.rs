//! `sfsim pack`: an image or a BC-encoded DDS to a packed-texture container (see
//! `content::pack`), XBTC-style.

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use sfsim::content::mipgen::ColorSpace;
use sfsim::content::pack::{load_input, pack, pack_dds, Input, PackOptions};
use sfsim_models::codec::bc::{Bc7Modes, Bc7Quality, EncodeSettings, RdoSettings};
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::texture::{BcFormat, PackRegions, TextureDesc, TileMode};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PackArgs {
    /// The image to pack: PNG, JPEG or TGA; or a BC-encoded DDS with its full mip chain,
    /// packed with its blocks as they are.
    pub input: PathBuf,
    /// BC format to encode as (required for an image; for a DDS it may be omitted, and must
    /// match the DDS's).
    #[arg(long, value_name = "bc1|bc3|bc4|bc5|bc7", value_parser = parse_format)]
    pub format: Option<BcFormat>,
    /// The container file to write.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Regions: sfs (one stream per 64 KiB tile), tile64k (one per 64 KiB-tiled mip) or mip
    /// (one per linear mip).
    #[arg(long, value_name = "sfs|tile64k|mip", default_value = "sfs", value_parser = parse_tile_mode)]
    pub tilemode: TileMode,
    /// Streamable mips, counted from mip 0; the rest is one always-resident stream.
    /// Default: every mip of at least one 64 KiB tile.
    #[arg(long, value_name = "N")]
    pub mipstreams: Option<u32>,
    /// Deflate with zopfli instead of libdeflate-12 (1–2 % smaller, far slower).
    #[arg(long)]
    pub usezopfli: bool,
    /// BC7 modes the encoder may use, a bit per mode (0x80 = mode 7 only).
    #[arg(long, value_name = "0xNN", value_parser = parse_modes)]
    pub bc7modes: Option<Bc7Modes>,
    /// BC7 encoder effort: fast, basic or slow.
    #[arg(long, value_name = "fast|basic|slow", default_value = "basic", value_parser = str::parse::<Bc7Quality>)]
    pub bc7quality: Bc7Quality,
    /// Colour channels are sRGB: mips are filtered in linear light (default for bc1/bc3/bc7).
    #[arg(long, conflicts_with = "linear")]
    pub srgb: bool,
    /// Channels are linear data (normal maps, masks; default for bc4/bc5).
    #[arg(long)]
    pub linear: bool,
    /// RDO post-pass λ (bc1, bc3, bc4, bc5): trade PSNR for a smaller Deflate stream; 40 is
    /// a moderate setting (docs/rdo.md).
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    pub rdo_lambda: Option<f32>,
    /// Also write the summary as JSON here (`streams` = stream count).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

fn parse_format(s: &str) -> Result<BcFormat, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "bc1" => BcFormat::Bc1,
        "bc3" => BcFormat::Bc3,
        "bc4" => BcFormat::Bc4,
        "bc5" => BcFormat::Bc5,
        "bc7" => BcFormat::Bc7,
        _ => return Err(format!("`{s}` is not a format the packer encodes; expected bc1, bc3, bc4, bc5 or bc7")),
    })
}

fn parse_tile_mode(s: &str) -> Result<TileMode, String> {
    s.parse().map_err(|e: sfsim_models::texture::RegionError| e.to_string())
}

fn parse_modes(s: &str) -> Result<Bc7Modes, String> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    let mask = u8::from_str_radix(digits, 16)
        .map_err(|_| format!("`{s}` is not a BC7 mode mask; expected a hex byte 0x01..0xff, e.g. 0x80 = mode 7"))?;
    Bc7Modes::new(mask).map_err(|e| e.to_string())
}

pub fn execute(args: PackArgs) -> anyhow::Result<()> {
    let input = args.input.display().to_string();
    let source = load_input(&args.input)?;
    let format = match (&source, args.format) {
        (Input::Image(_), Some(format)) => format,
        (Input::Image(_), None) => bail!("{input}: --format is required for an image input; expected bc1..bc7"),
        (Input::Dds(dds), Some(format)) if format != dds.format => bail!(
            "{input}: --format is {} but the DDS holds {}; expected them to match (or omit --format)",
            format_name(format),
            format_name(dds.format)
        ),
        (Input::Dds(dds), _) => dds.format,
    };
    let mut options = PackOptions::new(format);
    options.tile_mode = args.tilemode;
    options.mip_streams = args.mipstreams;
    if args.usezopfli {
        options.deflate = Encoder::ZOPFLI;
    }
    if args.bc7modes.is_some() && format != BcFormat::Bc7 {
        bail!("--bc7modes applies to --format bc7 only; the format is {}", format_name(format));
    }
    options.encode = EncodeSettings { bc7_quality: args.bc7quality, bc7_modes: args.bc7modes };
    if args.srgb {
        if matches!(format, BcFormat::Bc4 | BcFormat::Bc5) {
            bail!("--srgb applies to colour formats (bc1, bc3, bc7); {} data is linear", format_name(format));
        }
        options.color = ColorSpace::Srgb;
    }
    if args.linear {
        options.color = ColorSpace::Linear;
    }
    if let Some(lambda) = args.rdo_lambda {
        if !matches!(format, BcFormat::Bc1 | BcFormat::Bc3 | BcFormat::Bc4 | BcFormat::Bc5) {
            bail!("--rdo-lambda applies to bc1, bc3, bc4 and bc5; the format is {}", format_name(format));
        }
        if !(lambda.is_finite() && lambda >= 0.0) {
            bail!("--rdo-lambda {lambda} is out of range; expected a finite λ ≥ 0");
        }
        options.rdo = Some(RdoSettings { lambda, ..RdoSettings::default() });
    }
    if let Input::Dds(_) = &source {
        let refused = [
            ("--rdo-lambda", args.rdo_lambda.is_some()),
            ("--bc7modes", args.bc7modes.is_some()),
            ("--srgb", args.srgb),
            ("--linear", args.linear),
        ];
        if let Some((option, _)) = refused.iter().find(|(_, given)| *given) {
            bail!(
                "{input}: {option} does not apply to a BC-encoded DDS; its blocks are packed as they are \
                 (RDO and re-encoding need the original texels; sRGB comes from the DXGI format)"
            );
        }
    }
    // Check the layout before the expensive part, so range errors name the input at once.
    let (width, height) = match &source {
        Input::Image(image) => (image.width, image.height),
        Input::Dds(dds) => (dds.width, dds.height),
    };
    let desc = TextureDesc::new(width, height, format, None).with_context(|| input.clone())?;
    let regions =
        PackRegions::new(&desc, args.tilemode, args.mipstreams).with_context(|| format!("{input}: --mipstreams"))?;
    let bar = ProgressBar::new(regions.regions.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} packing {pos}/{len} streams [{bar:30}] {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let packed = match &source {
        Input::Image(image) => pack(image, &options, &|| bar.inc(1)),
        Input::Dds(dds) => pack_dds(dds, &options, &|| bar.inc(1)),
    }
    .with_context(|| format!("{input}: cannot pack"))?;
    bar.finish_and_clear();
    std::fs::write(&args.output, &packed.container)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let mut summary = packed.summary;
    summary.input = input;
    summary.output = args.output.display().to_string();
    println!("{summary}");
    if let Some(path) = &args.summary_json {
        std::fs::write(path, summary.to_json() + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn format_name(format: BcFormat) -> String {
    format!("{format:?}").to_ascii_lowercase()
}
