//! `sfsim inspect`: what a packed file holds — a texture container's header and stream
//! layout, or a set container's three members and its set-interleaved data section (with the
//! offsets of one tile position's three streams as an example). `--streams` lists every
//! stream in file order.

use anyhow::Context;
use sfsim::content::pack::{Container, PackedFile, SetContainer, StreamEntry, MEMBER_KINDS};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct InspectArgs {
    /// A container (`SFSIMTEX`) or set container (`SFSIMSET`) written by `sfsim pack`.
    pub input: PathBuf,
    /// Also list every stream in file order: offset, member, index, tile or mips, sizes,
    /// codec path.
    #[arg(long)]
    pub streams: bool,
}

pub fn execute(args: InspectArgs) -> anyhow::Result<()> {
    let file = PackedFile::open(&args.input).context("cannot inspect")?;
    match &file {
        PackedFile::Texture(c) => {
            println!("{}: texture container (SFSIMTEX version 1), {} B", c.name(), c.file_bytes());
            println!("  {}", describe(c));
            println!(
                "  data section at {} B, {} B; layout: sequential (streams in table order, resident last)",
                c.header().data_offset,
                c.header().data_bytes
            );
            if args.streams {
                println!(
                    "  {:>10}  {:>6}  {:<14} {:>10} {:>10} {:>10}  path",
                    "offset", "stream", "holds", "stored", "inflated", "bytes"
                );
                for i in 0..c.stream_count() {
                    println!("  {}", stream_line(c.header().data_offset, i, &c.entries()[i]));
                }
            }
        }
        PackedFile::Set(s) => print_set(s, args.streams),
    }
    Ok(())
}

fn print_set(s: &SetContainer, streams: bool) {
    let h = s.header();
    println!("{}: set container (SFSIMSET version 1), {} B, 3 members", s.name(), s.file_bytes());
    for (k, m) in s.members().iter().enumerate() {
        println!("  member {k} ({}): {}; header and table at {} B", MEMBER_KINDS[k], describe(m), h.member_offsets[k]);
    }
    println!(
        "  layout: set-interleaved by tile position — shared data section at {} B, {} B: each member-0 tile, then \
         members 1 and 2's companion tiles; then members 1 and 2's other streams; resident streams last",
        h.data_offset, h.data_bytes
    );
    // The example: the first member-0 tile and the streams placed right after it.
    let order = s.order();
    let first_tile = order.iter().enumerate().find_map(|(at, &(k, j))| {
        if k == 0 {
            s.members()[0].entries()[j].tile.map(|t| (at, t))
        } else {
            None
        }
    });
    if let Some((at, tile)) = first_tile {
        println!("  example, tile position mip {} ({}, {}) (file offsets):", tile.mip, tile.x, tile.y);
        for &(k, j) in order[at..].iter().take_while(|&&(k, j)| (k, j) == order[at] || k != 0) {
            let e = &s.members()[k].entries()[j];
            let start = h.data_offset + e.relative_offset;
            println!(
                "    member {k} ({}) stream {j}{}: {start}..{} ({} B)",
                MEMBER_KINDS[k],
                e.tile.map_or(String::new(), |t| format!(" tile ({}, {})", t.x, t.y)),
                start + u64::from(e.compressed_size),
                e.compressed_size
            );
        }
    }
    if streams {
        println!(
            "  {:>10}  {:>6}  {:<14} {:>10} {:>10} {:>10}  path",
            "offset", "stream", "holds", "stored", "inflated", "bytes"
        );
        for &(k, j) in order {
            println!("  {} (member {k})", stream_line(h.data_offset, j, &s.members()[k].entries()[j]));
        }
    }
}

/// One line about a container's texture and regions.
fn describe(c: &Container) -> String {
    let h = c.header();
    let resident = c.entries().iter().filter(|e| e.resident).count();
    format!(
        "{} {} {}x{}, {} mips, {} tile mode, {} streamable mips, {} streams ({resident} resident)",
        format!("{:?}", h.desc.format).to_ascii_lowercase(),
        if h.srgb { "sRGB" } else { "linear" },
        h.desc.width,
        h.desc.height,
        h.desc.mip_levels,
        h.tile_mode,
        h.mip_streams,
        c.stream_count()
    )
}

fn stream_line(data_offset: u64, index: usize, e: &StreamEntry) -> String {
    let holds = match e.tile {
        Some(t) => format!("tile {}:({},{})", t.mip, t.x, t.y),
        None => format!("mips {}..{}{}", e.first_mip, e.first_mip + e.mip_count, if e.resident { " res" } else { "" }),
    };
    let path = match (e.options.zlib, e.options.bcpack()) {
        (false, false) => "raw",
        (true, false) => "deflate",
        (false, true) => "bcpack",
        (true, true) => "bcpack+deflate",
    };
    let shuffle = match sfsim_models::nvme::SwizzleMode::from_raw(e.options.swizzle_mode) {
        Some(sfsim_models::nvme::SwizzleMode::None) => String::new(),
        Some(mode) => format!(" + {mode:?}"),
        None => format!(" + swizzle {}", e.options.swizzle_mode),
    };
    format!(
        "{:>10}  {index:>6}  {holds:<14} {:>10} {:>10} {:>10}  {path}{shuffle}",
        data_offset + e.relative_offset,
        e.compressed_size,
        e.inflated_size,
        e.uncompressed_size
    )
}
