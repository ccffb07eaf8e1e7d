//! `sfsim sweep FILE` runs a sweep file (see `sfsim::sweep`); `sfsim sweep SCENARIO --vary
//! PATH=V1,V2,...` is the one-axis shorthand. `sfsim merge` joins shard folders.

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use sfsim::scenario::Scenario;
use sfsim::sweep::spec::{AxisSpec, AxisValue, Combine, SweepFile, SweepSpec};
use sfsim::sweep::{execute, output, Plan, Settings};
use std::path::PathBuf;
use std::sync::Mutex;

/// More threads than this is a typo, not a machine.
const MAX_JOBS: usize = 1024;

#[derive(clap::Args)]
pub struct SweepArgs {
    /// A sweep file (.ron, `Sweep(...)`, see scenarios/sweeps/), or with --vary a scenario.
    pub file: PathBuf,
    /// One-axis shorthand on a scenario file: the parameter and its values, e.g.
    /// --vary workload.in_flight=4MiB,16MiB,64MiB.
    #[arg(long, value_name = "PATH=V1,V2,...")]
    pub vary: Option<String>,
    /// With --vary: fixed overrides applied to every point (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE", requires = "vary")]
    pub set: Vec<String>,
    /// With --vary: stats to tabulate (repeatable; default: NVMe, MDU and latency figures).
    #[arg(long = "metric", requires = "vary")]
    pub metrics: Vec<String>,
    /// Output folder (default: reports/out/<sweep name>; with --vary <scenario name>-sweep).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Points run at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only shard K of N (1 ≤ K ≤ N): every N-th point from the K-th; join the shards'
    /// folders with `sfsim merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Check the sweep and list its points (and the containers they need), run nothing.
    #[arg(long)]
    pub list: bool,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shards' output folders (each has shard.json).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The merged folder: what an unsharded run writes.
    #[arg(long)]
    pub out: PathBuf,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}` is not a shard; expected K/N with 1 ≤ K ≤ N ≤ 10000, e.g. 2/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || k > n || n > 10_000 {
        return Err(bad());
    }
    Ok((k, n))
}

/// The sweep a `--vary` command line describes.
fn vary_sweep(args: &SweepArgs, vary: &str) -> anyhow::Result<SweepFile> {
    let (path, values) = vary.split_once('=').context("--vary must be PATH=V1,V2,...")?;
    let values: Vec<AxisValue> =
        values.split(',').map(|v| v.trim()).filter(|v| !v.is_empty()).map(|v| AxisValue(v.into())).collect();
    if values.is_empty() {
        bail!("--vary {path}= lists no values");
    }
    let scenario = Scenario::load(&args.file, &[])?;
    let spec = SweepSpec {
        name: format!("{}-sweep", scenario.name),
        description: format!("{} over {path}", scenario.name),
        base: args.file.clone(),
        set: args.set.clone(),
        pack: None,
        axes: vec![AxisSpec {
            path: path.trim().into(),
            name: None,
            also: vec![],
            with: vec![],
            values: Some(values),
            range: None,
        }],
        combine: Combine::Cartesian,
        metrics: args.metrics.clone(),
        plots: vec![],
    };
    Ok(SweepFile { spec, file: PathBuf::from("--vary"), text: String::new() })
}

pub fn execute_sweep(args: SweepArgs) -> anyhow::Result<()> {
    let sweep = match &args.vary {
        Some(vary) => vary_sweep(&args, vary)?,
        None => SweepFile::load(&args.file)?,
    };
    let jobs = match args.jobs {
        Some(n) if !(1..=MAX_JOBS).contains(&n) => bail!("--jobs {n} is out of range; expected 1..={MAX_JOBS}"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let plan = Plan::new(sweep)?;
    if args.list {
        let names: Vec<String> = plan.axes.iter().map(|a| a.name.clone()).collect();
        println!("| point | {} | containers |", names.join(" | "));
        println!("|---|{}---|", "---|".repeat(names.len()));
        let mut distinct = std::collections::BTreeSet::new();
        for p in &plan.points {
            let files: Vec<&str> = p.pack_jobs.iter().map(|j| j.file_name.as_str()).collect();
            distinct.extend(files.iter().copied());
            println!("| {} | {} | {} |", p.point.id, p.point.values.join(" | "), files.join(" "));
        }
        eprintln!("{} points, {} distinct containers to pack or reuse", plan.points.len(), distinct.len());
        return Ok(());
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("reports/out").join(&plan.sweep.spec.name));
    let bar = ProgressBar::new(plan.points.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {pos}/{len} [{bar:30}] {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let phase = Mutex::new(String::new());
    let progress = |name: &str, done: usize, total: usize| {
        let mut current = phase.lock().expect("no poisoned lock");
        if *current != name {
            *current = name.to_string();
            bar.set_length(total as u64);
            bar.set_message(if name == "pack" { "packing" } else { "running points" });
        }
        bar.set_position(done as u64);
    };
    sfsim::output::prepare_dir(&out)?;
    let settings = Settings { out: out.clone(), jobs, shard: args.shard };
    let done = execute(&plan, &settings, &progress)?;
    bar.finish_and_clear();
    eprintln!(
        "{} points run on {jobs} threads; containers packed {}, reused from the cache {}",
        done.points_run, done.containers_packed, done.containers_reused
    );
    match args.shard {
        Some((k, n)) => eprintln!("shard {k}/{n} written to {}; join the shards with sfsim merge", out.display()),
        None => {
            print_table(&out.join("sweep.csv"))?;
            eprintln!("sweep written to {} (index.html, results.csv)", out.display());
        }
    }
    Ok(())
}

pub fn execute_merge(args: MergeArgs) -> anyhow::Result<()> {
    sfsim::output::prepare_dir(&args.out)?;
    output::merge(&args.shards, &args.out)?;
    print_table(&args.out.join("sweep.csv"))?;
    eprintln!("merged {} shards into {}", args.shards.len(), args.out.display());
    Ok(())
}

/// sweep.csv as a Markdown table on stdout.
fn print_table(csv: &std::path::Path) -> anyhow::Result<()> {
    let table = sfsim::report::table::read_csv(csv)?;
    println!("| {} |", table.header.join(" | "));
    println!("|{}", "---|".repeat(table.header.len()));
    for row in &table.rows {
        println!("| {} |", row.join(" | "));
    }
    Ok(())
}
