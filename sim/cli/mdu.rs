//! `sfsim mdu`: one DirectStorage request through the MDU's functional and timing models,
//! like the SimpleMDU sample: the bytes out, the modeled time and throughput.

use anyhow::{bail, Context};
use sfsim_models::codec::bcpack::BcpackMode;
use sfsim_models::codec::zlib::Encoder;
use sfsim_models::mdu::{decode, infer_request, pack, Encoding, Job, Mdu, MduConfig, Stages};
use sfsim_models::nvme::{RequestOptions, SwizzleMode};
use sfsim_models::texture::BcFormat;
use sfsim_models::units::Bytes;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct MduArgs {
    /// The request's source bytes (with `--pack`: the destination bytes to pack).
    pub input: PathBuf,
    /// Where the destination bytes go (with `--pack`: the packed source bytes).
    pub output: PathBuf,
    /// Run the zlib stage (RFC 1950).
    #[arg(long)]
    pub zlib: bool,
    /// Run the BCPack stage for this BC format (sfsim's open BCPack stand-in).
    #[arg(long, value_name = "bc1..bc7", value_parser = parse_format)]
    pub bcpack: Option<BcFormat>,
    /// Run the swizzle stage: none, bc1-shuffle, bc3-shuffle, bc4-shuffle, bc5-shuffle,
    /// linear-to-morton, morton-to-linear.
    #[arg(long, value_name = "MODE", value_parser = parse_swizzle, default_value = "none")]
    pub swizzle: SwizzleMode,
    /// BC format of the data, for a layout swizzle without BCPack (its block size).
    #[arg(long, value_name = "bc1..bc7", value_parser = parse_format)]
    pub format: Option<BcFormat>,
    /// Pack instead: run the stages in reverse (swizzle⁻¹ → BCPack → Deflate) and check
    /// that the MDU decodes the result back exactly.
    #[arg(long)]
    pub pack: bool,
    /// Deflate encoder for `--pack`: zlib-0..9, libdeflate-1..12 or zopfli.
    #[arg(long, value_name = "ENCODER", value_parser = parse_encoder, default_value = "zlib-9")]
    pub encoder: Encoder,
}

fn parse_format(s: &str) -> Result<BcFormat, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "bc1" => BcFormat::Bc1,
        "bc2" => BcFormat::Bc2,
        "bc3" => BcFormat::Bc3,
        "bc4" => BcFormat::Bc4,
        "bc5" => BcFormat::Bc5,
        "bc6h" | "bc6" => BcFormat::Bc6h,
        "bc7" => BcFormat::Bc7,
        _ => return Err(format!("`{s}` is not a BC format; expected bc1, bc2, bc3, bc4, bc5, bc6h or bc7")),
    })
}

fn parse_swizzle(s: &str) -> Result<SwizzleMode, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "none" => SwizzleMode::None,
        "bc1-shuffle" => SwizzleMode::Bc1Shuffle,
        "bc3-shuffle" => SwizzleMode::Bc3Shuffle,
        "bc4-shuffle" => SwizzleMode::Bc4Shuffle,
        "bc5-shuffle" => SwizzleMode::Bc5Shuffle,
        "linear-to-morton" => SwizzleMode::LinearToMorton,
        "morton-to-linear" => SwizzleMode::MortonToLinear,
        _ => {
            return Err(format!(
                "`{s}` is not a swizzle mode; expected none, bc1-shuffle, bc3-shuffle, bc4-shuffle, \
                 bc5-shuffle, linear-to-morton or morton-to-linear"
            ))
        }
    })
}

fn parse_encoder(s: &str) -> Result<Encoder, String> {
    let level = |rest: &str| rest.parse::<u32>().map_err(|_| format!("`{s}`: `{rest}` is not a level"));
    let encoder = if let Some(rest) = s.strip_prefix("zlib-") {
        Encoder::zlib(level(rest)?)
    } else if let Some(rest) = s.strip_prefix("libdeflate-") {
        Encoder::libdeflate(level(rest)?)
    } else if s == "zopfli" {
        Ok(Encoder::ZOPFLI)
    } else {
        return Err(format!("`{s}` is not an encoder; expected zlib-0..9, libdeflate-1..12 or zopfli"));
    };
    encoder.map_err(|e| e.to_string())
}

pub fn execute(args: MduArgs) -> anyhow::Result<()> {
    sfsim::output::prepare_file(&args.output)?;
    let options = RequestOptions {
        zlib: args.zlib,
        bcpack_mode: args.bcpack.map_or(0, |f| BcpackMode::from_format(f) as u32),
        swizzle_mode: args.swizzle as u32,
    };
    let block_bytes = args.bcpack.or(args.format).map_or(0, |f| f.block_bytes());
    let input = sfsim::limits::read(&args.input, sfsim::limits::InputKind::Stream)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let (source, request, destination) = if args.pack {
        let packed = pack(options, block_bytes, &input, Encoding { deflate: args.encoder })
            .with_context(|| format!("{}: cannot pack", args.input.display()))?;
        let back = decode(&packed.request, &packed.bytes).context("the packed stream does not decode")?;
        if back != input {
            bail!("the packed stream decodes to different bytes (a codec bug; please report it)");
        }
        (packed.bytes.clone(), packed.request, input)
    } else {
        let request = infer_request(options, block_bytes, &input)
            .with_context(|| format!("{}: not a stream the MDU decodes with these options", args.input.display()))?;
        let out = decode(&request, &input).with_context(|| format!("{}: cannot decode", args.input.display()))?;
        (input, request, out)
    };
    let written = if args.pack { &source } else { &destination };
    std::fs::write(&args.output, written).with_context(|| format!("cannot write {}", args.output.display()))?;

    // Host speed of the functional model: the median of a few decodes.
    let mut times: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let _ = decode(&request, &source);
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let host_seconds = times[times.len() / 2];

    let cfg = MduConfig::default();
    let mdu = Mdu::new(&cfg).context("MDU configuration")?;
    let job = Job {
        id: 0,
        input: Bytes(source.len() as u64),
        output: Bytes(destination.len() as u64),
        stages: Stages::from(options),
        fill: false,
    };
    let service = mdu.service_time(&job);
    let seconds = service.as_secs_f64();
    let mb = |bytes: usize| bytes as f64 / 1e6;
    let stages: Vec<String> = [
        args.zlib.then(|| "zlib".to_string()),
        args.bcpack.map(|f| format!("BCPack {f:?}")),
        (args.swizzle != SwizzleMode::None).then(|| format!("swizzle {:?}", args.swizzle)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let stages = if stages.is_empty() { "none (an uncompressed move)".to_string() } else { stages.join(" → ") };
    println!("stages: {stages}");
    println!(
        "sizes: source {} B, after zlib {} B, destination {} B (ratio {:.3}:1)",
        source.len(),
        request.intermediate_size,
        destination.len(),
        destination.len() as f64 / source.len().max(1) as f64
    );
    println!(
        "modeled: {:.2} µs on one unit (setup {:.1} µs + max(in {:.2} µs, out {:.2} µs)); \
         {:.0} MB/s in, {:.0} MB/s out; {} units back to back: {:.0} MB/s out",
        seconds * 1e6,
        cfg.setup.as_secs_f64() * 1e6,
        cfg.input.time_for(job.input).as_secs_f64() * 1e6,
        cfg.output.time_for(job.output).as_secs_f64() * 1e6,
        mb(source.len()) / seconds,
        mb(destination.len()) / seconds,
        cfg.units,
        mb(destination.len()) / seconds * f64::from(cfg.units),
    );
    println!(
        "host: the functional model decodes this request in {:.3} ms ({:.0} MB/s out)",
        host_seconds * 1e3,
        mb(destination.len()) / host_seconds.max(1e-9)
    );
    println!("wrote {} ({} B)", args.output.display(), written.len());
    Ok(())
}
