use anyhow::{bail, Context};
use sfsim::report::{write_plot, LinePlot, Plot, Series};
use sfsim::run::{run, RunOptions};
use sfsim::scenario::{Override, Scenario};
use sfsim::stats::StatSet;
use sfsim_models::units::{Bytes, Rate, Time};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Args)]
pub struct SweepArgs {
    /// Scenario file (.ron).
    pub file: PathBuf,
    /// The parameter and its values, e.g. --vary workload.in_flight=4MiB,16MiB,64MiB.
    #[arg(long, value_name = "PATH=V1,V2,...")]
    pub vary: String,
    /// Fixed overrides applied to every point (repeatable).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<Override>,
    /// Stats to tabulate (repeatable; default: NVMe, MDU and latency figures).
    #[arg(long = "metric")]
    pub metrics: Vec<String>,
    /// Output folder for sweep.csv and the plots (default: reports/out/<name>-sweep).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Points run at once (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The x coordinate of a swept value, in a unit a plot can show.
fn x_of(value: &str) -> (f64, &'static str) {
    if let Ok(b) = Bytes::parse(value) {
        (b.0 as f64 / (1u64 << 20) as f64, "MiB")
    } else if let Ok(t) = Time::parse(value) {
        (t.as_ms_f64(), "ms")
    } else if let Ok(r) = Rate::parse(value) {
        (r.as_mb_per_sec_f64(), "MB/s")
    } else {
        (value.parse().unwrap_or(f64::NAN), "")
    }
}

pub fn execute(args: SweepArgs) -> anyhow::Result<()> {
    let (path, values) = args.vary.split_once('=').context("--vary must be PATH=V1,V2,...")?;
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        bail!("--vary {path}= lists no values");
    }
    let metrics = if args.metrics.is_empty() {
        [
            "nvme.throughput",
            "nvme.window_min",
            "mdu.input_throughput",
            "mdu.output_throughput",
            "request.throughput",
            "request.latency.p50",
            "request.latency.p99",
        ]
        .map(String::from)
        .to_vec()
    } else {
        args.metrics.clone()
    };
    // Load every point first so that a bad value fails before any run.
    let scenarios: Vec<Scenario> = values
        .iter()
        .map(|v| {
            let mut sets = args.set.clone();
            sets.push(Override { path: path.to_string(), value: v.clone() });
            Scenario::load(&args.file, &sets)
        })
        .collect::<Result<_, _>>()?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<anyhow::Result<StatSet>>>> = Mutex::new((0..scenarios.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(scenarios.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(scenario) = scenarios.get(i) else {
                    break;
                };
                let r = run(scenario, RunOptions { host_stats: false }, &mut |_, _| {})
                    .map(|r| r.stats)
                    .map_err(anyhow::Error::from);
                results.lock().expect("no poisoned lock")[i] = Some(r);
            });
        }
    });
    let results: Vec<StatSet> = results
        .into_inner()
        .expect("no poisoned lock")
        .into_iter()
        .zip(&values)
        .map(|(r, v)| r.expect("every point ran").with_context(|| format!("{path}={v}")))
        .collect::<Result<_, _>>()?;
    for m in &metrics {
        if results[0].iter().all(|s| &s.name != m) {
            bail!("--metric {m}: no such stat; see stats.json of a run for the names");
        }
    }

    let mut csv = format!("{path},{}\n", metrics.join(","));
    let mut table = format!("| {path} | {} |\n|---|{}\n", metrics.join(" | "), "---|".repeat(metrics.len()));
    for (v, stats) in values.iter().zip(&results) {
        let cells: Vec<String> =
            metrics.iter().map(|m| stats.get(m).map_or("n/a".into(), |x| format!("{x:.3}"))).collect();
        let _ = writeln!(csv, "{v},{}", cells.join(","));
        let _ = writeln!(table, "| {v} | {} |", cells.join(" | "));
    }
    print!("{table}");

    let out = args.out.unwrap_or_else(|| PathBuf::from("reports/out").join(format!("{}-sweep", scenarios[0].name)));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    std::fs::write(out.join("sweep.csv"), csv)
        .with_context(|| format!("cannot write {}", out.join("sweep.csv").display()))?;
    let unit = x_of(&values[0]).1;
    for m in &metrics {
        let points = values.iter().zip(&results).filter_map(|(v, s)| s.get(m).map(|y| (x_of(v).0, y))).collect();
        let stat_unit = results[0].iter().find(|s| &s.name == m).map_or("", |s| s.unit);
        let plot = Plot::Line(LinePlot {
            file_stem: format!("sweep_{}", m.replace('.', "_")),
            title: format!("{m} vs {path}"),
            x_label: if unit.is_empty() { path.to_string() } else { format!("{path} ({unit})") },
            y_label: format!("{m} ({stat_unit})"),
            series: vec![Series { label: m.clone(), points }],
            hlines: vec![],
            log_x: unit == "MiB",
        });
        write_plot(&plot, &out)?;
    }
    eprintln!("sweep written to {}", out.display());
    Ok(())
}
