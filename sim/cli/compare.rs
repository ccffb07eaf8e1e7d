//! `sfsim compare A B`: how far two textures are apart (PSNR / RMSE per channel and overall),
//! each a container, a DDS or an image — packed vs original, RDO vs plain.

use sfsim::content::pack::{compare, compare_channels, ChannelError, TextureFile};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct CompareArgs {
    /// A container, DDS, PNG, JPEG or TGA.
    pub a: PathBuf,
    /// Another, of the same size.
    pub b: PathBuf,
    /// The mip to compare (an image's lower mips are made with the packer's filter).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub mip: u32,
}

pub fn execute(args: CompareArgs) -> anyhow::Result<()> {
    let a = TextureFile::open(&args.a)?;
    let b = TextureFile::open(&args.b)?;
    for warning in a.warnings().iter().chain(b.warnings()) {
        eprintln!("warning: {warning}");
    }
    let channels = compare_channels(a.format(), b.format());
    let c = compare(&a, &b, args.mip, channels)?;
    println!("{} vs {}: mip {}, {}x{}", a.name(), b.name(), args.mip, c.width, c.height);
    println!("{:<8} {:>10} {:>10}", "channel", "PSNR dB", "RMSE");
    for (name, e) in ["R", "G", "B", "A"].iter().zip(&c.per_channel) {
        println!("{name:<8} {} {:>10.3}", db(e), e.rmse);
    }
    println!("{:<8} {} {:>10.3}", &"RGBA"[..channels], db(&c.overall), c.overall.rmse);
    Ok(())
}

fn db(e: &ChannelError) -> String {
    if e.psnr.is_finite() {
        format!("{:>10.2}", e.psnr)
    } else {
        format!("{:>10}", "identical")
    }
}
