//! `sfsim pack`: an image or a BC-encoded DDS to a packed-texture container (see
//! `content::pack`), XBTC-style; `--set D N S` packs a diffuse/normal/specular trio into one
//! set container, streams interleaved by tile position.

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use sfsim::content::mipgen::ColorSpace;
use sfsim::content::pack::{
    load_input, pack, pack_dds, pack_set, parse_bc7_modes, parse_format, parse_max_loss, Input, Loaded, PackOptions,
    PackedTexture, SetContainer, ShuffleChoice, MEMBER_KINDS,
};
use sfsim_models::codec::bc::{Bc7Modes, Bc7Quality, EncodeSettings, RdoSettings};
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::texture::{BcFormat, PackRegions, TextureDesc, TileMode};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct PackArgs {
    /// The image to pack: PNG, JPEG or TGA; or a BC-encoded DDS (BC1–BC5, BC7), packed with
    /// its blocks as they are — a DDS with fewer mips than the full chain gets the missing
    /// ones generated from its last mip (decoded, filtered, re-encoded; said on stderr).
    #[arg(required_unless_present = "set")]
    pub input: Option<PathBuf>,
    /// Pack a texture set into one set container instead: diffuse, normal and specular
    /// inputs (images or DDS files), their tiles of one position adjacent in the file. The
    /// other options apply to all three.
    #[arg(long, num_args = 3, value_names = ["DIFFUSE", "NORMAL", "SPECULAR"], conflicts_with = "input")]
    pub set: Option<Vec<PathBuf>>,
    /// BC format to encode as (required for an image; for a DDS it may be omitted, and must
    /// match the DDS's). With --set, one format for all three members or three, comma
    /// separated (e.g. bc1,bc5,bc1).
    #[arg(long, value_name = "bc1|bc2|bc3|bc4|bc5|bc7", value_parser = parse_formats)]
    pub format: Option<Formats>,
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
    #[arg(long, value_name = "0xNN", value_parser = parse_bc7_modes)]
    pub bc7modes: Option<Bc7Modes>,
    /// BC7 encoder effort: fast, basic or slow.
    #[arg(long, value_name = "fast|basic|slow", default_value = "basic", value_parser = str::parse::<Bc7Quality>)]
    pub bc7quality: Bc7Quality,
    /// Colour channels are sRGB: mips are filtered in linear light (default for
    /// bc1/bc2/bc3/bc7).
    #[arg(long, conflicts_with = "linear")]
    pub srgb: bool,
    /// Channels are linear data (normal maps, masks; default for bc4/bc5).
    #[arg(long)]
    pub linear: bool,
    /// RDO post-pass λ (bc1, bc3, bc4, bc5): trade PSNR for a smaller Deflate stream; 40 is
    /// a moderate setting (docs/rdo.md).
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    pub rdo_lambda: Option<f32>,
    /// RDO by rule (bc1, bc3, bc4, bc5): per texture, the largest λ whose mip-0 PSNR loss
    /// against the plain encoding stays within this budget, e.g. 2dB (0 < loss ≤ 20 dB;
    /// docs/rdo.md, "RDO by rule"). Not with --rdo-lambda.
    #[arg(long, value_name = "DB", allow_hyphen_values = true, value_parser = parse_max_loss, conflicts_with = "rdo_lambda")]
    pub rdo_max_loss: Option<f64>,
    /// BC field shuffle (bc1, bc3, bc4, bc5): `on` stores Deflate-only streams as the
    /// format's field planes (the MDU's swizzle stage un-shuffles them), `auto` keeps per
    /// stream whichever is smaller, `off` never shuffles. BCPack streams are never shuffled
    /// (docs/container.md, "Shuffled streams"). Allowed on a DDS (it only reorders its blocks).
    #[arg(long, value_name = "off|on|auto", default_value = "off", value_parser = str::parse::<ShuffleChoice>)]
    pub shuffle: ShuffleChoice,
    /// Deflate only: never BCPack (a packing pipeline without XBTC's BCPack stage).
    #[arg(long)]
    pub no_bcpack: bool,
    /// Also write the summary as JSON here (`streams` = stream count).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

/// `--format`: one format, or (with --set) one per member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formats(Vec<BcFormat>);

fn parse_formats(s: &str) -> Result<Formats, String> {
    let formats = s.split(',').map(|f| parse_format(f.trim())).collect::<Result<Vec<_>, _>>()?;
    if formats.len() != 1 && formats.len() != 3 {
        return Err(format!(
            "`{s}` names {} formats; expected one, or three (diffuse,normal,specular) with --set",
            formats.len()
        ));
    }
    Ok(Formats(formats))
}

fn parse_tile_mode(s: &str) -> Result<TileMode, String> {
    s.parse().map_err(|e: sfsim_models::texture::RegionError| e.to_string())
}

pub fn execute(args: PackArgs) -> anyhow::Result<()> {
    sfsim::output::prepare_file(&args.output)?;
    let formats = args.format.as_ref().map(|f| f.0.clone());
    let Some(set) = &args.set else {
        let Some(input) = &args.input else { bail!("an input file or --set DIFFUSE NORMAL SPECULAR is required") };
        let format = match formats.as_deref() {
            None => None,
            Some([f]) => Some(*f),
            Some(_) => bail!("--format takes one format for a single input; a list of three is for --set"),
        };
        let packed = pack_one(&args, input, format)?;
        std::fs::write(&args.output, &packed.container)
            .with_context(|| format!("cannot write {}", args.output.display()))?;
        let mut summary = packed.summary;
        summary.input = input.display().to_string();
        summary.output = args.output.display().to_string();
        println!("{summary}");
        if let Some(path) = &args.summary_json {
            std::fs::write(path, summary.to_json() + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        return Ok(());
    };
    let member_format = |k: usize| match formats.as_deref() {
        None => None,
        Some([f]) => Some(*f),
        Some(list) => list.get(k).copied(),
    };
    let mut members = Vec::with_capacity(set.len());
    for (k, input) in set.iter().enumerate() {
        let packed = pack_one(&args, input, member_format(k))
            .with_context(|| format!("--set member {k} ({})", MEMBER_KINDS[k]))?;
        members.push(packed);
    }
    let members: [PackedTexture; 3] =
        members.try_into().map_err(|_| anyhow::anyhow!("--set takes exactly three inputs"))?;
    let output = args.output.display().to_string();
    let bytes = pack_set(&members).with_context(|| format!("{output}: cannot lay out the set"))?;
    let file_bytes = bytes.len() as u64;
    // Read back what was written, as a consumer would (every field, every placement).
    let check = SetContainer::parse(&output, bytes.clone()).context("the set container does not read back")?;
    std::fs::write(&args.output, &bytes).with_context(|| format!("cannot write {output}"))?;
    let mut json = Vec::new();
    for (k, (member, input)) in members.into_iter().zip(set).enumerate() {
        let mut summary = member.summary;
        summary.input = input.display().to_string();
        summary.output = format!("{output} member {k} ({})", MEMBER_KINDS[k]);
        println!("{summary}");
        json.push(serde_json::from_str::<serde_json::Value>(&summary.to_json())?);
    }
    let streams: usize = check.members().iter().map(|m| m.stream_count()).sum();
    println!(
        "set container {output}: 3 members, {streams} streams, {file_bytes} B, layout set-interleaved by tile position \
         (data section at {} B)",
        check.header().data_offset
    );
    if let Some(path) = &args.summary_json {
        let value = serde_json::json!({
            "kind": "set",
            "output": output,
            "layout": "set-interleaved",
            "streams": streams,
            "file_bytes": file_bytes,
            "data_offset": check.header().data_offset,
            "members": json,
        });
        std::fs::write(path, serde_json::to_string_pretty(&value)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Packs one input (an image or a DDS) with the options of `args` and `format`.
fn pack_one(args: &PackArgs, path: &Path, format: Option<BcFormat>) -> anyhow::Result<PackedTexture> {
    let input = path.display().to_string();
    let Loaded { input: source, warnings } = load_input(path)?;
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    let format = match (&source, format) {
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
    options.shuffle = args.shuffle;
    options.bcpack = !args.no_bcpack;
    if args.shuffle == ShuffleChoice::On && sfsim::content::pack::shuffle_mode(format).is_none() {
        bail!(
            "{input}: --shuffle on applies to bc1, bc3, bc4 and bc5 (each has a BC field shuffle); the format is {} \
             (use --shuffle off or auto)",
            format_name(format)
        );
    }
    if args.usezopfli {
        options.deflate = Encoder::ZOPFLI;
    }
    if args.bc7modes.is_some() && format != BcFormat::Bc7 {
        bail!("--bc7modes applies to --format bc7 only; the format is {}", format_name(format));
    }
    options.encode = EncodeSettings { bc7_quality: args.bc7quality, bc7_modes: args.bc7modes };
    if args.srgb {
        if matches!(format, BcFormat::Bc4 | BcFormat::Bc5) {
            bail!("--srgb applies to colour formats (bc1, bc2, bc3, bc7); {} data is linear", format_name(format));
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
    if let Some(max_loss) = args.rdo_max_loss {
        if args.rdo_lambda.is_some() {
            bail!("--rdo-max-loss and --rdo-lambda are exclusive: one chooses λ per texture, the other fixes it");
        }
        if !matches!(format, BcFormat::Bc1 | BcFormat::Bc3 | BcFormat::Bc4 | BcFormat::Bc5) {
            bail!("--rdo-max-loss applies to bc1, bc3, bc4 and bc5; the format is {}", format_name(format));
        }
        options.rdo_max_loss = Some(max_loss);
    }
    if let Input::Dds(_) = &source {
        let refused = [
            ("--rdo-lambda", args.rdo_lambda.is_some()),
            ("--rdo-max-loss", args.rdo_max_loss.is_some()),
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
    if let Some(generated) = &packed.summary.generated_mips {
        eprintln!("note: {input}: {generated}");
    }
    Ok(packed)
}

fn format_name(format: BcFormat) -> String {
    format!("{format:?}").to_ascii_lowercase()
}
