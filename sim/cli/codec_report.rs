//! `sfsim codec-report`: the codec table on real textures (see `content::codec_report`).

use anyhow::Context;
use sfsim::content::codec_report::{markdown, measure, standard_variants, stream_size_curve, texture_files, tiles_of};
use sfsim_models::codec::bc::Bc7Quality;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct CodecReportArgs {
    /// A folder of PNG textures, or one PNG.
    #[arg(long, default_value = "scenarios/content/textures")]
    pub textures: PathBuf,
    /// BC7 encoder effort: fast, basic or slow.
    #[arg(long, default_value = "basic", value_parser = str::parse::<Bc7Quality>)]
    pub quality: Bc7Quality,
    /// zopfli runs on every Nth tile (it is ~50× slower than libdeflate-12); 1 = all.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub zopfli_every: u32,
    /// Also write the tables (Markdown) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn execute(args: CodecReportArgs) -> anyhow::Result<()> {
    let files = texture_files(&args.textures)?;
    eprintln!("{} textures from {}", files.len(), args.textures.display());
    let mut reports = Vec::new();
    for variant in standard_variants(args.quality) {
        eprintln!("{}: encoding and compressing…", variant.name);
        let tiles = tiles_of(&files, &variant)?;
        reports.push(measure(variant, &tiles, args.zopfli_every as usize)?);
    }
    let mut table = markdown(&reports);
    let largest = files.iter().max_by_key(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0)).expect("files");
    table.push_str(&format!(
        "\nStream size vs compressed size, {} mip 0 in linear block rows (% of BC size):\n\n",
        largest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    ));
    let sizes: Vec<usize> = (0..7).map(|k| (64 << 10) << k).collect();
    table.push_str("| encoding | stream | libdeflate-12 | BCPack+Deflate |\n|---|---|---|---|\n");
    for variant in standard_variants(args.quality).iter().take(2) {
        eprintln!("{}: stream-size curve…", variant.name);
        for (size, d, b) in stream_size_curve(largest, variant, &sizes)? {
            table.push_str(&format!("| {} | {} KiB | {d:.1} % | {b:.1} % |\n", variant.name, size >> 10));
        }
    }
    println!("{table}");
    println!(
        "zopfli sizes are measured on every {}th tile and scaled by its ratio to libdeflate-12 on those tiles.",
        args.zopfli_every
    );
    if let Some(out) = &args.out {
        std::fs::write(out, &table).with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}
