//! `sfsim plot`: a PNG + SVG (and a small index.html) of columns of a CSV, wide
//! (`sweep.csv`) or tidy (`stat`, `value`, `unit` columns); see [`sfsim::report::table`].

use anyhow::{bail, Context};
use sfsim::report::table::{self, Selection, TableError};
use sfsim::report::{sanitize_stem, write_report_as, Report};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlotArgs {
    /// The CSV: wide (one column per axis and stat, like sweep.csv) or tidy (columns
    /// `stat`, `value` and optionally `unit`, one row per point and stat).
    pub csv: PathBuf,
    /// The x column. Numbers and quantities (4MiB, 250ms, 2000MB/s) plot as lines sorted
    /// by x; other values (policy names) as points over categories.
    #[arg(long, value_name = "COLUMN")]
    pub x: String,
    /// A y column (wide) or stat (tidy); repeatable.
    #[arg(long = "y", value_name = "COLUMN", required = true)]
    pub ys: Vec<String>,
    /// Split each y into one series per distinct value of this column.
    #[arg(long, value_name = "COLUMN")]
    pub series: Option<String>,
    /// Output folder (default: the CSV's folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Logarithmic x axis (numeric x only).
    #[arg(long)]
    pub log_x: bool,
    /// Plot title (default: "Y vs X").
    #[arg(long)]
    pub title: Option<String>,
}

pub fn execute(args: PlotArgs) -> anyhow::Result<()> {
    let csv = &args.csv;
    // Read errors about the file name it; the others (line N: ...) get it in front.
    let table = table::read_csv(csv).map_err(|e| match e {
        TableError::Io { .. } | TableError::TooLarge { .. } => anyhow::Error::from(e),
        e => anyhow::Error::from(e).context(csv.display().to_string()),
    })?;
    let selection = Selection { x: args.x.clone(), ys: args.ys.clone(), series: args.series.clone() };
    let curves = table::curves(&table, &selection).with_context(|| csv.display().to_string())?;
    if curves.series.iter().all(|s| s.points.is_empty()) {
        bail!("{}: no numeric values to plot for --y {}", csv.display(), args.ys.join(", "));
    }

    let stem = sanitize_stem(&format!("{}_vs_{}", args.ys.join("_"), args.x).replace('.', "_"));
    let title = args.title.clone().unwrap_or_else(|| format!("{} vs {}", args.ys.join(", "), args.x));
    let plot = curves.into_plot(stem.clone(), title.clone(), args.log_x).with_context(|| format!("--x {}", args.x))?;

    let out = match &args.out {
        Some(out) => out.clone(),
        None => csv.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), PathBuf::from),
    };
    // Never overwrite a run's report: the page is index.html unless another command wrote
    // one there, then <stem>.html.
    const MARK: &str = "Plotted by sfsim plot from";
    let index = out.join("index.html");
    let ours = std::fs::read_to_string(&index).map_or(true, |page| page.contains(MARK));
    let csv_name = csv.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let same_folder = std::fs::canonicalize(&out).ok().zip(csv.parent().and_then(|p| std::fs::canonicalize(p).ok()));
    let files = match same_folder {
        Some((a, b)) if a == b => vec![(csv_name.clone(), "the plotted table".to_string())],
        _ => vec![],
    };
    let report =
        Report { title, subtitle: format!("{MARK} {csv_name}"), plots: vec![plot], files, ..Default::default() };
    let page = if ours { "index.html".to_string() } else { format!("{stem}.html") };
    let written = write_report_as(&report, &out, &page)
        .with_context(|| format!("cannot write the plot into {}", out.display()))?;
    for path in &written {
        println!("{}", path.display());
    }
    Ok(())
}
