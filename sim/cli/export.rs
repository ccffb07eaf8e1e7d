//! `sfsim export CONTAINER -o OUT.png|OUT.dds`: one mip decoded to PNG (the texels exactly as
//! the BC decoder gives them), or every mip as a DDS whose blocks are the container's as
//! stored — a file DirectXTex, GPU drivers and image viewers read (`--dds-header dx9` for
//! readers that know only legacy FourCC headers, such as Pillow for sRGB BC1–BC3).

use anyhow::{bail, Context};
use sfsim::content::mipgen::{ColorSpace, Image};
use sfsim::content::pack::{export_dds, export_dds_legacy, TextureFile};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The container to export.
    pub input: PathBuf,
    /// OUT.png (one mip) or OUT.dds (every mip); the extension decides.
    #[arg(short, long, value_name = "OUT.png|OUT.dds")]
    pub output: PathBuf,
    /// The mip for PNG output (a DDS always holds every mip).
    #[arg(long, value_name = "N")]
    pub mip: Option<u32>,
    /// DDS header: dx10 (the default: any format, sRGB kept) or dx9 (legacy FourCC, as
    /// texconv -dx9 writes; BC1–BC5 only, and sRGB cannot be said, so readers take the data
    /// as UNORM).
    #[arg(long, value_name = "dx10|dx9", default_value = "dx10", value_parser = ["dx10", "dx9"])]
    pub dds_header: String,
}

pub fn execute(args: ExportArgs) -> anyhow::Result<()> {
    sfsim::output::prepare_file(&args.output)?;
    let file = TextureFile::open(&args.input)?;
    for warning in file.warnings() {
        eprintln!("warning: {warning}");
    }
    let Some(container) = file.container() else {
        bail!("{}: not a container; expected a file `sfsim pack` wrote", file.name());
    };
    let extension = args.output.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("png") => {
            if args.dds_header != "dx10" {
                bail!("--dds-header {} applies to .dds output only", args.dds_header);
            }
            let level = args.mip.unwrap_or(0);
            let mip = file.mip_rgba(level, ColorSpace::Srgb)?;
            write_png(&args.output, &mip)?;
            println!("{} mip {level} ({}x{}) → {}", file.name(), mip.width, mip.height, args.output.display());
        }
        Some("dds") => {
            if let Some(level) = args.mip {
                bail!("--mip {level} applies to PNG output only; a DDS holds every mip");
            }
            let legacy = args.dds_header == "dx9";
            let bytes = if legacy { export_dds_legacy(container)? } else { export_dds(container)? };
            if legacy && container.header().srgb {
                eprintln!(
                    "note: {}: a DX9 header cannot say sRGB; readers will take the sRGB data as UNORM \
                     (the default --dds-header dx10 keeps it)",
                    args.output.display()
                );
            }
            std::fs::write(&args.output, &bytes).with_context(|| format!("cannot write {}", args.output.display()))?;
            let desc = container.header().desc;
            println!(
                "{} → {}: {}x{} {:?}, {} mips, {} B",
                file.name(),
                args.output.display(),
                desc.width,
                desc.height,
                desc.format,
                desc.mip_levels,
                bytes.len()
            );
        }
        _ => bail!("{}: the output's extension is not known; expected .png or .dds", args.output.display()),
    }
    Ok(())
}

/// Writes RGBA8 texels as a PNG, naming the file on error.
pub fn write_png(path: &Path, image: &Image) -> anyhow::Result<()> {
    image::save_buffer(path, &image.rgba, image.width, image.height, image::ExtendedColorType::Rgba8)
        .with_context(|| format!("cannot write {}", path.display()))
}
