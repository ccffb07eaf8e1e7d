//! `sfsim view`: a PNG to look at of one mip of a container or DDS, decoded through the
//! functional MDU and the BC decoder. Single-channel BC4 is shown grey.

use sfsim::content::mipgen::ColorSpace;
use sfsim::content::pack::TextureFile;
use sfsim_models::texture::BcFormat;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ViewArgs {
    /// A container (or a DDS).
    pub input: PathBuf,
    /// The PNG to write.
    #[arg(short, long, value_name = "OUT.png")]
    pub output: PathBuf,
    /// The mip to show.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub mip: u32,
}

pub fn execute(args: ViewArgs) -> anyhow::Result<()> {
    sfsim::output::prepare_file(&args.output)?;
    let file = TextureFile::open(&args.input)?;
    for warning in file.warnings() {
        eprintln!("warning: {warning}");
    }
    let mut mip = file.mip_rgba(args.mip, ColorSpace::Srgb)?;
    if file.format() == Some(BcFormat::Bc4) {
        for texel in mip.rgba.chunks_exact_mut(4) {
            texel[1] = texel[0];
            texel[2] = texel[0];
        }
    }
    super::export::write_png(&args.output, &mip)?;
    println!("{} mip {} ({}x{}) → {}", file.name(), args.mip, mip.width, mip.height, args.output.display());
    Ok(())
}
