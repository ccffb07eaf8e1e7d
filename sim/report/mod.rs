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

mod html;
mod plot;
mod summary;
mod summary_html;
pub mod table;

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

/// One named line of a [`LinePlot`]. Points are drawn in the given order;
/// non-finite points (and x <= 0 on a log-x plot) are skipped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Legend label; an empty label gets no legend entry.
    pub label: String,
    /// `(x, y)` points, normally sorted by x. Long series are decimated
    /// (min/max per pixel column) for drawing.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// Convenience constructor.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self { label: label.into(), points }
    }
}

/// A horizontal reference line, drawn thin and dashed, with a legend entry
/// (e.g. `"guaranteed 2000 MB/s"`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HLine {
    /// Legend label; an empty label gets no legend entry.
    pub label: String,
    /// Height of the line; a non-finite value is not drawn.
    pub y: f64,
}

impl HLine {
    /// Convenience constructor.
    pub fn new(label: impl Into<String>, y: f64) -> Self {
        Self { label: label.into(), y }
    }
}

/// Line chart of one or more series plus optional reference lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinePlot {
    /// Output files are `<file_stem>.png` and `<file_stem>.svg` (see
    /// [`sanitize_stem`]).
    pub file_stem: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub hlines: Vec<HLine>,
    /// Logarithmic x axis (base 10, whole decades). Points with x <= 0 (or
    /// outside 1e-150..=1e150) are skipped.
    pub log_x: bool,
}

/// Markers over a categorical x axis (e.g. policy names): category `i` sits at
/// x = i and is labelled with its name; a series' points `(i, y)` are drawn as
/// dots, not joined (the categories have no order to follow).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CategoryPlot {
    pub file_stem: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Tick labels, left to right.
    pub categories: Vec<String>,
    /// Points with x a category index; others are skipped.
    pub series: Vec<Series>,
}

/// Empirical CDF of `samples` (x = value, y = fraction 0..1), with vertical
/// marker lines such as `("p50", 3.2)`, `("p99", 9.1)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CdfPlot {
    pub file_stem: String,
    pub title: String,
    pub x_label: String,
    /// Unsorted samples; non-finite values are skipped.
    pub samples: Vec<f64>,
    /// `(label, x)` vertical lines; the legend shows `"label = x"`.
    pub markers: Vec<(String, f64)>,
    /// When `samples` are evenly spaced quantiles of a larger set (a long run's latencies):
    /// that set's size, which the legend gives as n.
    pub quantiles_of: Option<u64>,
}

/// Histogram of `samples` with `bins` equal-width bins over the sample range.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HistogramPlot {
    pub file_stem: String,
    pub title: String,
    pub x_label: String,
    /// Non-finite values are skipped.
    pub samples: Vec<f64>,
    /// Number of bins; 0 picks `sqrt(n)` clamped to 1..=100. Capped at 10 000.
    pub bins: usize,
}

/// Any plot a report can contain.
#[derive(Debug, Clone, PartialEq)]
pub enum Plot {
    Line(LinePlot),
    Category(CategoryPlot),
    Cdf(CdfPlot),
    Histogram(HistogramPlot),
}

impl Plot {
    /// The requested file stem (before [`sanitize_stem`]).
    pub fn file_stem(&self) -> &str {
        match self {
            Plot::Line(p) => &p.file_stem,
            Plot::Category(p) => &p.file_stem,
            Plot::Cdf(p) => &p.file_stem,
            Plot::Histogram(p) => &p.file_stem,
        }
    }

    /// The plot title.
    pub fn title(&self) -> &str {
        match self {
            Plot::Line(p) => &p.title,
            Plot::Category(p) => &p.title,
            Plot::Cdf(p) => &p.title,
            Plot::Histogram(p) => &p.title,
        }
    }
}

/// One row of the stats table in `index.html` (grouped by the name's prefix before
/// the first dot); the summary looks its figures up by `name`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StatRow {
    pub name: String,
    /// Shown with ~4 significant digits (full value in a tooltip); `None` or
    /// NaN shows as "n/a".
    pub value: Option<f64>,
    pub unit: String,
    pub description: String,
}

/// The drive's bandwidth guarantee, against which the summary judges
/// `nvme.throughput` and `nvme.window_min`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DriveGuarantee {
    /// Rate guaranteed over every full window while IO is queued, MB/s (2000).
    pub rate_mb_per_s: f64,
    /// Length of the guarantee window, ms (250).
    pub window_ms: f64,
    /// The drive's short-term peak rate, MB/s (2400), if known.
    pub peak_mb_per_s: Option<f64>,
}

impl DriveGuarantee {
    /// Guaranteed megabytes per full window: rate × window (2000 MB/s × 250 ms = 500 MB).
    pub fn mb_per_window(&self) -> f64 {
        self.rate_mb_per_s * self.window_ms / 1000.0
    }
}

/// A table of text cells in a report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataTable {
    pub title: String,
    pub header: Vec<String>,
    /// Rows as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// A complete report: plots, a stats table and links to other output files.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub title: String,
    pub subtitle: String,
    pub plots: Vec<Plot>,
    pub stats: Vec<StatRow>,
    /// The drive's guarantee, for the summary's verdict on `nvme.window_min`;
    /// `None` shows the drive figures without a verdict.
    pub guarantee: Option<DriveGuarantee>,
    /// Tables shown after the plots (a sweep's points and metrics).
    pub tables: Vec<DataTable>,
    /// `(file name relative to the output directory, description)`, listed as
    /// links in `index.html`. The files themselves are not touched.
    pub files: Vec<(String, String)>,
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
mod tests {
    use super::*;
    use std::time::Instant;

    fn read(path: &Path) -> Vec<u8> {
        std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Every written PNG starts with the PNG magic, every SVG is an `<svg>`.
    fn check_files(paths: &[PathBuf]) {
        for p in paths {
            let bytes = read(p);
            assert!(!bytes.is_empty(), "{} is empty", p.display());
            match p.extension().and_then(|e| e.to_str()) {
                Some("png") => assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", p.display()),
                Some("svg") => {
                    let text = String::from_utf8(bytes).unwrap();
                    assert!(text.contains("<svg") && text.contains("</svg>"), "{}", p.display());
                }
                Some("html") => {}
                other => panic!("unexpected file type {other:?}"),
            }
        }
    }

    fn line(stem: &str, series: Vec<Series>, hlines: Vec<HLine>, log_x: bool) -> Plot {
        Plot::Line(LinePlot {
            file_stem: stem.into(),
            title: format!("{stem} title"),
            x_label: "time [ms]".into(),
            y_label: "MB/s".into(),
            series,
            hlines,
            log_x,
        })
    }

    fn cdf(stem: &str, samples: Vec<f64>, markers: Vec<(String, f64)>) -> Plot {
        Plot::Cdf(CdfPlot {
            file_stem: stem.into(),
            title: format!("{stem} title"),
            x_label: "latency [ms]".into(),
            samples,
            markers,
            quantiles_of: None,
        })
    }

    fn hist(stem: &str, samples: Vec<f64>, bins: usize) -> Plot {
        Plot::Histogram(HistogramPlot {
            file_stem: stem.into(),
            title: format!("{stem} title"),
            x_label: "latency [ms]".into(),
            samples,
            bins,
        })
    }

    #[test]
    fn category_plot_labels_its_ticks_and_skips_points_off_the_categories() {
        let dir = tempfile::tempdir().unwrap();
        let plot = Plot::Category(CategoryPlot {
            file_stem: "by policy".into(),
            title: "p99 by policy".into(),
            x_label: "policy".into(),
            y_label: "p99 [ms]".into(),
            categories: vec!["Lru".into(), "SamplerFeedback".into(), "Fifo".into()],
            series: vec![
                Series::new("slow", vec![(0.0, 12.0), (1.0, 9.0), (2.0, 14.0)]),
                Series::new("fast", vec![(0.0, 6.0), (2.5, 1e9), (7.0, 1e9), (-1.0, 1e9)]),
            ],
        });
        let written =
            write_report_as(&Report { plots: vec![plot], ..Default::default() }, dir.path(), "p.html").unwrap();
        let names: Vec<String> =
            written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["by_policy.png", "by_policy.svg", "p.html"]);
        check_files(&written);
        let svg = std::fs::read_to_string(&written[1]).unwrap();
        for text in ["Lru", "SamplerFeedback", "Fifo", "slow", "fast", "p99 [ms]"] {
            assert!(svg.contains(text), "{text} missing");
        }
        // The off-category points (y = 1e9) do not stretch the y axis.
        assert!(!svg.contains("1e9") && !svg.contains("1000000000"), "{svg}");
    }

    #[test]
    fn report_with_every_plot_kind() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("nested/out");
        let pts: Vec<(f64, f64)> = (0..500).map(|i| (i as f64, (i as f64 / 20.0).sin())).collect();
        let samples: Vec<f64> = (0..1000).map(|i| ((i * 37) % 101) as f64 / 7.0).collect();
        let report = Report {
            tables: vec![DataTable {
                title: "Points".into(),
                header: vec!["point".into(), "x".into()],
                rows: vec![vec!["0".into(), "4MiB".into()]],
            }],
            title: "Run".into(),
            subtitle: "seed 1".into(),
            plots: vec![
                line("thr", vec![Series::new("ssd", pts)], vec![HLine::new("guaranteed", 0.5)], false),
                cdf("lat-cdf", samples.clone(), vec![("p50".into(), 7.0), ("p99".into(), 14.0)]),
                hist("lat-hist", samples, 20),
            ],
            stats: vec![StatRow {
                name: "mean".into(),
                value: Some(1987.654),
                unit: "MB/s".into(),
                description: "average".into(),
            }],
            files: vec![("run.json".into(), "raw results".into())],
            guarantee: None,
        };
        let written = write_report(&report, &out).unwrap();
        let names: Vec<String> =
            written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(
            names,
            ["thr.png", "thr.svg", "lat-cdf.png", "lat-cdf.svg", "lat-hist.png", "lat-hist.svg", "index.html"]
        );
        assert!(written.iter().all(|p| p.starts_with(&out)));
        check_files(&written);
        let html = String::from_utf8(read(&out.join("index.html"))).unwrap();
        for stem in ["thr", "lat-cdf", "lat-hist"] {
            assert!(html.contains(&format!("<img src=\"{stem}.png\"")), "{stem}");
            assert!(html.contains(&format!("href=\"{stem}.svg\"")), "{stem}");
        }
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<meta charset=\"utf-8\">"));
        assert!(html.contains("1988") && html.contains("MB/s"));
        assert!(html.contains("href=\"run.json\""));
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"));
        // Text is drawn: the SVG carries the title, the labels and the legend.
        let svg = String::from_utf8(read(&out.join("thr.svg"))).unwrap();
        for text in ["thr title", "time [ms]", "MB/s", "ssd", "guaranteed"] {
            assert!(svg.contains(text), "{text} missing from SVG");
        }
    }

    #[test]
    fn degenerate_inputs_do_not_panic() {
        let dir = tempfile::tempdir().unwrap();
        let (nan, inf) = (f64::NAN, f64::INFINITY);
        let plots = vec![
            line("empty", vec![], vec![], false),
            line("empty-series", vec![Series::new("", vec![])], vec![], true),
            line(
                "nan",
                vec![Series::new("a", vec![(nan, 1.0), (1.0, nan), (inf, -inf)])],
                vec![HLine::new("h", nan)],
                false,
            ),
            line("single", vec![Series::new("a", vec![(3.0, 4.0)])], vec![], false),
            line("single-log", vec![Series::new("a", vec![(3.0, 4.0)])], vec![], true),
            line(
                "equal",
                vec![Series::new("a", vec![(1.0, 7.0), (2.0, 7.0), (3.0, 7.0)])],
                vec![HLine::new("h", 7.0)],
                false,
            ),
            line("zeros", vec![Series::new("a", vec![(0.0, 0.0), (0.0, 0.0)])], vec![], false),
            line("log-nonpos", vec![Series::new("a", vec![(-1.0, 1.0), (0.0, 2.0)])], vec![], true),
            line(
                "huge",
                vec![Series::new("a", vec![(-1e308, -1e308), (1e308, 1e308), (f64::MAX, f64::MIN)])],
                vec![],
                false,
            ),
            line(
                "huge-log",
                vec![Series::new("a", vec![(1e-320, 1.0), (1e-300, 2.0), (1e300, 3.0), (f64::MAX, 4.0)])],
                vec![],
                true,
            ),
            line("tiny", vec![Series::new("a", vec![(1e-310, 1e-310), (2e-310, 3e-310)])], vec![], false),
            line("close", vec![Series::new("a", vec![(1e15, 1e15), (1e15 + 0.125, 1e15 + 0.25)])], vec![], false),
            line("only-hline", vec![], vec![HLine::new("h", 5.0)], false),
            cdf("cdf-empty", vec![], vec![]),
            cdf("cdf-nan", vec![nan, inf, -inf], vec![("p50".into(), nan), ("p99".into(), 3.0)]),
            cdf("cdf-single", vec![2.5], vec![("p50".into(), 2.5)]),
            cdf("cdf-equal", vec![1.0; 100], vec![]),
            hist("hist-empty", vec![], 0),
            hist("hist-nan", vec![nan, inf], 10),
            hist("hist-single", vec![42.0], 0),
            hist("hist-equal", vec![-3.0; 50], 7),
            hist("hist-huge-bins", vec![1.0, 2.0, 3.0], usize::MAX),
            hist("hist-extreme", vec![-1e308, 1e308, f64::MAX, f64::MIN], 5),
        ];
        let report = Report { plots: plots.clone(), ..Default::default() };
        let written = write_report(&report, dir.path()).unwrap();
        assert_eq!(written.len(), plots.len() * 2 + 1);
        check_files(&written);
        for plot in &plots {
            let files = write_plot(plot, &dir.path().join("alone")).unwrap();
            assert_eq!(files.len(), 2);
            check_files(&files);
        }
    }

    #[test]
    fn html_is_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let evil = "<script>alert(\"x\")</script> & 'q'";
        let report = Report {
            tables: vec![DataTable { title: evil.into(), header: vec![evil.into()], rows: vec![vec![evil.into()]] }],
            title: evil.into(),
            subtitle: evil.into(),
            plots: vec![Plot::Histogram(HistogramPlot {
                file_stem: "h".into(),
                title: evil.into(),
                x_label: evil.into(),
                samples: vec![1.0, 2.0],
                bins: 2,
            })],
            stats: vec![
                StatRow { name: evil.into(), value: None, unit: evil.into(), description: evil.into() },
                StatRow { name: "nan".into(), value: Some(f64::NAN), ..Default::default() },
            ],
            files: vec![("a b&c.csv".into(), evil.into()), ("javascript:alert(1)".into(), String::new())],
            guarantee: None,
        };
        write_report(&report, dir.path()).unwrap();
        let html = String::from_utf8(read(&dir.path().join("index.html"))).unwrap();
        assert!(!html.contains("<script"));
        assert!(!html.contains("'q'"));
        assert!(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"));
        assert_eq!(html.matches("n/a").count(), 2);
        assert!(html.contains("href=\"a%20b%26c.csv\""));
        assert!(html.contains("href=\"javascript%3Aalert%281%29\""));
        // Plot text is escaped in the SVG too.
        let svg = String::from_utf8(read(&dir.path().join("h.svg"))).unwrap();
        assert!(!svg.contains("<script") && svg.contains("&lt;script&gt;"));
    }

    #[test]
    fn stems_are_sanitized_and_unique() {
        assert_eq!(sanitize_stem("lat/p99 ü"), "lat_p99__");
        assert_eq!(sanitize_stem("../x"), "_x");
        assert_eq!(sanitize_stem(""), "plot");
        assert_eq!(sanitize_stem("..."), "plot");
        let plots = vec![hist("a", vec![], 0), hist("a", vec![], 0), hist("a-2", vec![], 0), hist("", vec![], 0)];
        assert_eq!(unique_stems(&plots), ["a", "a-2", "a-2-2", "plot"]);
    }

    #[test]
    fn value_formatting() {
        let cases = [
            (0.0, "0"),
            (2000.0, "2000"),
            (1.23456, "1.235"),
            (-0.012345, "-0.01235"),
            (1234567.0, "1,234,567"),
            (12345.678, "12,346"),
            (0.00001234, "1.234e-5"),
            (2.5e16, "2.5e16"),
            (f64::NAN, "n/a"),
            (f64::INFINITY, "inf"),
        ];
        for (v, want) in cases {
            assert_eq!(format_value(v), want, "{v}");
        }
        assert_eq!(plot::format_tick(0.30000000000000004), "0.3");
        assert_eq!(plot::format_tick(3e9), "3e9");
        assert_eq!(plot::format_tick(-1500.0), "-1500");
    }

    #[test]
    fn decimation_keeps_extremes_and_is_bounded() {
        let n = 100_000;
        let pts: Vec<(f64, f64)> =
            (0..n).map(|i| (i as f64, if i == 54_321 { 1e6 } else { ((i * 7919) % 1000) as f64 })).collect();
        let d = plot::decimate(&pts, (0.0, (n - 1) as f64), 1024, false);
        assert!(d.len() <= 4 * 1024, "{}", d.len());
        assert!(d.contains(&(54_321.0, 1e6)));
        assert_eq!(d.first(), pts.first());
        assert_eq!(d.last(), pts.last());
        assert!(d.windows(2).all(|w| w[0].0 <= w[1].0), "order kept");
        assert_eq!(d, plot::decimate(&pts, (0.0, (n - 1) as f64), 1024, false));
    }

    #[test]
    fn large_series_render_quickly() {
        let dir = tempfile::tempdir().unwrap();
        let pts: Vec<(f64, f64)> = (0..100_000).map(|i| (i as f64, ((i * 7919) % 1000) as f64)).collect();
        let samples: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let plots = [
            line("big", vec![Series::new("a", pts.clone()), Series::new("b", pts)], vec![], false),
            cdf("big-cdf", samples.clone(), vec![]),
            hist("big-hist", samples, 0),
        ];
        for plot in &plots {
            let start = Instant::now();
            check_files(&write_plot(plot, dir.path()).unwrap());
            // Generous bound: debug builds and loaded CI machines are slow.
            assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
        }
    }

    #[test]
    fn io_errors_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-dir");
        std::fs::write(&file, "x").unwrap();
        let err = write_report(&Report::default(), &file.join("sub")).unwrap_err();
        assert!(matches!(err, ReportError::Io { .. }));
        assert!(err.to_string().contains("not-a-dir"), "{err}");
    }
}
