//! The command line: `sfsim run`, `sfsim sweep`, `sfsim plot`, `sfsim pack` and the content tools.

mod camera;
mod codec_report;
mod compare;
mod export;
mod frame;
mod inspect;
mod mdu;
mod pack;
mod plot;
mod regress;
mod run;
mod sweep;
mod view;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "sfsim", version, about = "Simulator of the Xbox Series X|S texture-streaming path")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and write its outputs and report.
    Run(run::RunArgs),
    /// Run a sweep file (axes over scenario fields and packing options) on every core, or a
    /// scenario once per value of one parameter (--vary); tables, plots and index.html.
    Sweep(sweep::SweepArgs),
    /// Re-run the baselines (reports/baselines/*.json) and compare every stat with its
    /// tolerance; regress.md and junit.xml; exit 2 on a regression. --update re-records.
    Regress(regress::RegressArgs),
    /// Merge the output folders of `sfsim sweep --shard K/N` runs into what one unsharded
    /// run writes.
    Merge(sweep::MergeArgs),
    /// Plot columns of a CSV (a sweep.csv, or a tidy table of stat/value/unit rows) as a
    /// PNG + SVG and a small index.html.
    Plot(plot::PlotArgs),
    /// Draw one frame of a Render scenario: desired-LOD and MinMip overlay views, feedback
    /// and MinMip map pictures.
    Frame(frame::FrameArgs),
    /// Camera paths: record a generator's output to a file that replays identically.
    #[command(subcommand)]
    Camera(camera::CameraCommand),
    /// Run one request through the MDU's functional and timing models (zlib → BCPack →
    /// swizzle): bytes out, modeled time and throughput. `--pack` packs instead.
    Mdu(mdu::MduArgs),
    /// Compare the packer's codecs on real textures per 64 KiB tile (sizes as % of BC,
    /// decode MB/s per stage beside libdeflate).
    CodecReport(codec_report::CodecReportArgs),
    /// Pack an image (PNG/JPEG/TGA) or a BC-encoded DDS into a texture container: mips, BC
    /// encode, optional RDO, regions by tile mode, each compressed the smallest of Deflate /
    /// BCPack / BCPack+Deflate / raw.
    Pack(pack::PackArgs),
    /// Describe a packed file: a container's header and streams, or a set container's three
    /// members and its set-interleaved layout.
    Inspect(inspect::InspectArgs),
    /// PSNR / RMSE per channel between two textures (container, DDS, PNG/JPEG/TGA) at one
    /// mip: packed vs original, RDO vs plain.
    Compare(compare::CompareArgs),
    /// Write a PNG of one mip of a container (or DDS) to look at.
    View(view::ViewArgs),
    /// Export a container: one mip as PNG, or every mip as a DDS with the blocks as stored.
    Export(export::ExportArgs),
}

/// Parses the command line and runs it; errors are printed, never panicked.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run::execute(args),
        Command::Sweep(args) => sweep::execute_sweep(args),
        Command::Merge(args) => sweep::execute_merge(args),
        Command::Regress(args) => regress::execute(args),
        Command::Plot(args) => plot::execute(args),
        Command::Camera(command) => camera::execute(command),
        Command::Frame(args) => frame::execute(args),
        Command::Mdu(args) => mdu::execute(args),
        Command::CodecReport(args) => codec_report::execute(args),
        Command::Pack(args) => pack::execute(args),
        Command::Inspect(args) => inspect::execute(args),
        Command::Compare(args) => compare::execute(args),
        Command::View(args) => view::execute(args),
        Command::Export(args) => export::execute(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", describe(&e));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes on one line, leaving out a cause whose text the message
/// already contains (most of sfsim's errors quote their source).
fn describe(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if !text.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
    }
    text
}
