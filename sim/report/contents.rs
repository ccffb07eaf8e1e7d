//! What a report is made of, as its callers describe it: plots with their
//! series and reference lines, stat rows, the drive's guarantee, tables and
//! file links. Plain data, kept apart from the code that renders it.

#[cfg(doc)]
use super::sanitize_stem;

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
