//! `sfsim camera record` and `sfsim camera show`: sample any camera path at frame times,
//! save it as a per-frame CSV (which replays identically) or TUM file, or print it.

use anyhow::Context;
use sfsim::camera::csv::{write_csv_header, write_csv_row};
use sfsim::camera::record::{frames_to_cover, record};
use sfsim::camera::source::open_file;
use sfsim::camera::tum::{to_tum, TumSample};
use sfsim::camera::{CameraError, CameraPath, SourceKind};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand)]
pub enum CameraCommand {
    /// Sample a camera path at frame times and save it as a per-frame CSV (or TUM) file.
    Record(RecordArgs),
    /// Print a camera path's poses as a table.
    Show(ShowArgs),
}

/// The input file's format.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Kind {
    /// Generator RON (Orbit, RollerCoaster, PaintMixer).
    Generator,
    /// Keyframe RON (CameraKeyframes).
    Keyframes,
    /// TUM trajectory text (timestamp tx ty tz qx qy qz qw).
    Tum,
    /// Recorded per-frame CSV.
    #[value(alias = "csv")]
    Recorded,
}

impl From<Kind> for SourceKind {
    fn from(k: Kind) -> SourceKind {
        match k {
            Kind::Generator => SourceKind::Generator,
            Kind::Keyframes => SourceKind::Keyframes,
            Kind::Tum => SourceKind::Tum,
            Kind::Recorded => SourceKind::Recorded,
        }
    }
}

/// The output file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Per-frame CSV (frame,time_s,px,py,pz,qx,qy,qz,qw,fov_y_deg).
    Csv,
    /// TUM trajectory (no field of view; timestamps are the frame times).
    Tum,
}

/// Where the camera path comes from (shared by `record` and `show`).
#[derive(clap::Args)]
pub struct InputArgs {
    /// Camera file: generator (*.gen.ron), keyframes (*.keys.ron), TUM (*.tum, *.txt) or
    /// recorded CSV (*.csv).
    pub input: PathBuf,
    /// Input format. Default: .txt/.tum → tum, .csv → recorded, otherwise keyframes or
    /// generator RON, whichever parses.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Frame rate, frames per second; frame f is sampled at f / fps seconds.
    #[arg(long, default_value_t = 60.0)]
    pub fps: f64,
    /// Vertical field of view (degrees) given to TUM poses, which do not store one.
    #[arg(long, default_value_t = 60.0)]
    pub tum_fov: f64,
}

#[derive(clap::Args)]
pub struct RecordArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Number of frames to record (frames 0..N). Default: every frame up to the end of
    /// a path that has one; required for generators, which never end.
    #[arg(long)]
    pub frames: Option<u64>,
    /// Output file.
    #[arg(short = 'o', long)]
    pub out: PathBuf,
    /// Output format. Default: .tum/.txt → tum, otherwise csv.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

#[derive(clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Number of frames to print (frames 0..N, before --every).
    #[arg(long, default_value_t = 10)]
    pub frames: u64,
    /// Print every K-th frame.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
}

pub fn execute(command: CameraCommand) -> anyhow::Result<()> {
    match command {
        CameraCommand::Record(args) => execute_record(args),
        CameraCommand::Show(args) => execute_show(args),
    }
}

/// The most frames `record` writes: an hour at the scenario schema's top frame rate, 1000 fps.
const MAX_RECORD_FRAMES: u64 = 3_600_000;
/// The most frames `show` prints.
const MAX_SHOW_FRAMES: u64 = 1_000_000;

fn check_input(args: &InputArgs) -> anyhow::Result<()> {
    if !(args.fps.is_finite() && args.fps > 0.0 && args.fps <= 1000.0) {
        anyhow::bail!("--fps {} is out of range; expected a frame rate in (0, 1000] frames per second", args.fps);
    }
    if !(args.tum_fov.is_finite() && args.tum_fov > 0.0 && args.tum_fov < 180.0) {
        anyhow::bail!("--tum-fov {} is out of range; expected (0, 180) degrees", args.tum_fov);
    }
    Ok(())
}

fn open(args: &InputArgs) -> anyhow::Result<(SourceKind, Box<dyn CameraPath>)> {
    check_input(args)?;
    Ok(open_file(&args.input, args.kind.map(SourceKind::from), args.tum_fov, args.fps)?)
}

fn execute_record(args: RecordArgs) -> anyhow::Result<()> {
    let (kind, path) = open(&args.input)?;
    let fps = args.input.fps;
    let frames = match args.frames.or_else(|| frames_to_cover(path.as_ref(), fps)) {
        Some(n) if !(1..=MAX_RECORD_FRAMES).contains(&n) => anyhow::bail!(
            "--frames {n} is out of range; expected 1..={MAX_RECORD_FRAMES} (an hour at 1000 fps){}",
            if args.frames.is_none() { " (the path's own length at --fps)" } else { "" }
        ),
        Some(n) => n,
        None => anyhow::bail!(
            "{}: a {kind:?} path never ends; give the number of frames with --frames N",
            args.input.input.display()
        ),
    };
    let ext = args.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let format = args.format.unwrap_or(match ext.as_deref() {
        Some("tum" | "txt") => Format::Tum,
        _ => Format::Csv,
    });
    write_output(&args.out, format, path.as_ref(), frames, fps)
        .map_err(|source| CameraError::Write { file: args.out.clone(), source })?;
    let size = std::fs::metadata(&args.out).map(|m| m.len()).unwrap_or(0);
    println!(
        "recorded {frames} frames at {fps} fps ({:.3} s) of {} ({kind:?}) to {} ({format:?}, {size} bytes)",
        (frames - 1) as f64 / fps,
        args.input.input.display(),
        args.out.display(),
    );
    Ok(())
}

fn write_output(out: &Path, format: Format, path: &dyn CameraPath, frames: u64, fps: f64) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
    match format {
        Format::Csv => {
            write_csv_header(&mut w)?;
            for row in record(path, frames, fps) {
                write_csv_row(&mut w, &row)?;
            }
        }
        Format::Tum => {
            let samples: Vec<TumSample> =
                record(path, frames, fps).map(|r| TumSample { timestamp: r.time_s, pose: r.pose }).collect();
            w.write_all(to_tum(&samples).as_bytes())?;
        }
    }
    w.flush()
}

fn execute_show(args: ShowArgs) -> anyhow::Result<()> {
    if !(1..=MAX_SHOW_FRAMES).contains(&args.frames) {
        anyhow::bail!("--frames {} is out of range; expected 1..={MAX_SHOW_FRAMES}", args.frames);
    }
    let (kind, path) = open(&args.input)?;
    let fps = args.input.fps;
    let mut out = std::io::stdout().lock();
    let duration = path.duration().map_or("endless".to_string(), |d| format!("{d:.3} s"));
    writeln!(
        out,
        "# {} ({kind:?}, {duration}) at {fps} fps; forward = view direction (camera −Z)",
        args.input.input.display()
    )?;
    writeln!(
        out,
        "{:>7} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8} {:>8} {:>7}",
        "frame", "time_s", "px", "py", "pz", "fwd_x", "fwd_y", "fwd_z", "fov"
    )?;
    for row in record(path.as_ref(), args.frames, fps).step_by(usize::try_from(args.every).unwrap_or(usize::MAX)) {
        let p = row.pose.position;
        let f = row.pose.forward();
        writeln!(
            out,
            "{:>7} {:>9.4} {:>10.4} {:>10.4} {:>10.4} {:>8.4} {:>8.4} {:>8.4} {:>7.2}",
            row.frame, row.time_s, p.x, p.y, p.z, f.x, f.y, f.z, row.pose.fov_y_deg
        )
        .context("writing to stdout")?;
    }
    Ok(())
}
