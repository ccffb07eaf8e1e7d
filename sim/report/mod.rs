//! Run reports: PNG + SVG plots rendered with `plotters` and an `index.html`
//! that ties them together. The page leads with a summary computed from the stat
//! rows (drive use against the [`DriveGuarantee`], latency by stage, the
//! bottleneck, visual quality, warnings), then the plots, then every stat in a
//! table grouped by component (the name's prefix before the first dot).
//!
//! * Text is drawn with the bundled DejaVu Sans font (registered once as the
//!   `"sans-serif"` family through plotters' `ab_glyph` support), so PNG output
//!   is identical on every machine, with or without system fonts. SVG files
//!   reference the `sans-serif` family and use whatever font the viewer has.
//! * Rendering never panics: non-finite values are skipped, empty inputs give
//!   empty axes with a "no data" note, degenerate ranges are padded.
//! * Output is deterministic: fixed palette, fixed size (1024x640), no
//!   timestamps, deterministic decimation of long series.
//!
//! ```no_run
//! use sfsim::report::*;
//! let report = Report {
//!     title: "Saturation run".into(),
//!     plots: vec![Plot::Line(LinePlot {
//!         file_stem: "throughput".into(),
//!         title: "Throughput over time".into(),
//!         x_label: "time [ms]".into(),
//!         y_label: "MB/s".into(),
//!         series: vec![Series::new("SSD", vec![(0.0, 1900.0), (1.0, 2050.0)])],
//!         hlines: vec![HLine::new("guaranteed 2000 MB/s", 2000.0)],
//!         log_x: false,
//!     })],
//!     ..Default::default()
//! };
//! let written = write_report(&report, std::path::Path::new("out")).unwrap();
//! ```

mod contents;
mod html;
mod plot;
mod summary;
mod summary_html;
pub mod table;

pub use contents::{
    CategoryPlot, CdfPlot, DataTable, DriveGuarantee, HLine, HistogramPlot, LinePlot, Plot, Report, Series, StatRow,
};
pub(crate) use plot::ensure_font;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Width of every rendered plot, in pixels (PNG) / user units (SVG).
pub const PLOT_WIDTH: u32 = 1024;
/// Height of every rendered plot, in pixels (PNG) / user units (SVG).
pub const PLOT_HEIGHT: u32 = 640;

/// Errors from writing a report. Every variant names the file that failed.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Creating a directory or writing a file failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// The file or directory that could not be written.
        path: PathBuf,
        /// The underlying IO error.
        #[source]
        source: std::io::Error,
    },
    /// plotters failed to draw or encode a plot.
    #[error("cannot draw {}: {message}", path.display())]
    Draw {
        /// The plot file that was being produced.
        path: PathBuf,
        /// The plotters error message.
        message: String,
    },
}

/// Writes `<stem>.png` (1024x640) and `<stem>.svg` for every plot, and
/// `index.html`, into `out_dir` (created if missing). Returns the written
/// paths: PNG and SVG of each plot in order, then `index.html`.
///
/// Stems are made file-name safe with [`sanitize_stem`]; a stem that repeats
/// within the report gets a `-2`, `-3`, ... suffix. Existing files are
/// overwritten.
pub fn write_report(report: &Report, out_dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    write_report_as(report, out_dir, "index.html")
}

/// [`write_report`] with the page named `page` instead of `index.html`.
pub fn write_report_as(report: &Report, out_dir: &Path, page: &str) -> Result<Vec<PathBuf>, ReportError> {
    create_dir(out_dir)?;
    let stems = unique_stems(&report.plots);
    let mut written = Vec::with_capacity(report.plots.len() * 2 + 1);
    for (plot, stem) in report.plots.iter().zip(&stems) {
        written.extend(plot::render(plot, out_dir, stem)?);
    }
    let index = out_dir.join(page);
    let page = html::render(report, &stems);
    std::fs::write(&index, page).map_err(|source| ReportError::Io { path: index.clone(), source })?;
    written.push(index);
    Ok(written)
}

/// Renders one plot to `<stem>.png` and `<stem>.svg` in `out_dir` (created if
/// missing); used by [`write_report`] and usable alone (e.g. sweep curves).
/// Returns `[png, svg]`.
pub fn write_plot(plot: &Plot, out_dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    create_dir(out_dir)?;
    plot::render(plot, out_dir, &sanitize_stem(plot.file_stem()))
}

/// Makes a file stem safe: characters other than ASCII letters, digits, `-`,
/// `_` and `.` become `_`, leading dots are removed, the result is cut to 100
/// bytes, and an empty result becomes `"plot"`.
pub fn sanitize_stem(stem: &str) -> String {
    let s: String =
        stem.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    let s = s.trim_start_matches('.');
    let s = &s[..s.len().min(100)];
    if s.is_empty() {
        "plot".to_string()
    } else {
        s.to_string()
    }
}

fn unique_stems(plots: &[Plot]) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    plots
        .iter()
        .map(|p| {
            let base = sanitize_stem(p.file_stem());
            let mut stem = base.clone();
            let mut n = 2;
            while !used.insert(stem.clone()) {
                stem = format!("{base}-{n}");
                n += 1;
            }
            stem
        })
        .collect()
}

/// Formats a number for humans: ~4 significant digits with trailing zeros
/// trimmed, all integer digits kept (grouped with `,` from 10 000 up),
/// scientific notation below 1e-4 or from 1e15 up; NaN is `"n/a"`.
///
/// `2000.0 -> "2000"`, `1.23456 -> "1.235"`, `1234567.0 -> "1,234,567"`,
/// `0.00001234 -> "1.234e-5"`.
pub fn format_value(v: f64) -> String {
    if v.is_nan() {
        return "n/a".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-4..1e15).contains(&a) {
        let s = format!("{v:.3e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{exp}", trim_fraction(mantissa));
    }
    let decimals = (3 - a.log10().floor() as i32).clamp(0, 8) as usize;
    let s = format!("{v:.decimals$}");
    let s = trim_fraction(&s);
    let (sign, digits) = s.strip_prefix('-').map_or(("", s), |d| ("-", d));
    let (int, frac) = digits.split_once('.').map_or((digits, ""), |(i, f)| (i, f));
    let mut out = String::from(sign);
    if int.len() > 4 {
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
    } else {
        out.push_str(int);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn create_dir(dir: &Path) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io { path: dir.to_path_buf(), source })
}

#[cfg(test)]
mod tests;
