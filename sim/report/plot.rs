//! Plot rendering with plotters: data preparation (filtering, ranges,
//! decimation) happens once, then the same drawing code runs on the bitmap
//! (PNG) and SVG backends.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use plotters::chart::ChartBuilder;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Plot, ReportError, PLOT_HEIGHT, PLOT_WIDTH};

mod axis;
mod draw;
mod prepare;

#[cfg(test)]
pub(super) use axis::decimate;
pub(super) use axis::format_tick;
use draw::{draw_dashed, draw_line, draw_line_chart, draw_mesh, finish};
use prepare::{one_line, prepare_category, prepare_cdf, prepare_histogram, prepare_line};

/// Font family used for every text element (registered from the bundled TTF).
const FONT: &str = "sans-serif";

/// Fixed palette (Tableau 10) so output is deterministic.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Values beyond this magnitude are clamped when computing axis ranges so
/// that spans stay finite.
const RANGE_LIMIT: f64 = 1e307;
/// Log-x plots only show x in `[LOG_MIN, LOG_MAX]`: plotters' log axis
/// loops forever when the range ratio overflows to infinity.
const LOG_MIN: f64 = 1e-150;
const LOG_MAX: f64 = 1e150;
/// Line-plot series with at most this many points also get a dot per
/// point, so single points and short sweeps are visible.
const MAX_DOTTED_POINTS: usize = 60;
/// Upper bound on histogram bins (protects against absurd `bins` values).
const MAX_BINS: usize = 10_000;

static FONT_ONCE: Once = Once::new();
static FONT_OK: AtomicBool = AtomicBool::new(false);

/// Registers the bundled DejaVu Sans as the `sans-serif` family (once).
pub(crate) fn ensure_font() -> bool {
    FONT_ONCE.call_once(|| {
        let ok = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            include_bytes!("../../assets/fonts/DejaVuSans.ttf"),
        )
        .is_ok();
        FONT_OK.store(ok, Ordering::SeqCst);
    });
    FONT_OK.load(Ordering::SeqCst)
}

/// Renders `plot` to `<stem>.png` and `<stem>.svg` in `out_dir` (which must
/// exist). Returns `[png, svg]`.
pub(super) fn render(plot: &Plot, out_dir: &Path, stem: &str) -> Result<Vec<PathBuf>, ReportError> {
    let png = out_dir.join(format!("{stem}.png"));
    let svg = out_dir.join(format!("{stem}.svg"));
    if !ensure_font() {
        return Err(ReportError::Draw {
            path: png,
            message: "bundled font assets/fonts/DejaVuSans.ttf could not be loaded".into(),
        });
    }
    let prepared = Prepared::new(plot);

    // Creating the file first reports IO problems as `ReportError::Io`; the
    // bitmap backend only reports them as opaque image errors.
    std::fs::File::create(&png).map_err(|source| ReportError::Io { path: png.clone(), source })?;
    {
        let root = BitMapBackend::new(&png, (PLOT_WIDTH, PLOT_HEIGHT)).into_drawing_area();
        let drawn = prepared.draw(&root, SEGMENTED).and_then(|()| root.present());
        drawn.map_err(|e| draw_error(&png, e))?;
    }

    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (PLOT_WIDTH, PLOT_HEIGHT)).into_drawing_area();
        let drawn = prepared.draw(&root, POLYLINE).and_then(|()| root.present());
        drawn.map_err(|e| draw_error(&svg, e))?;
    }
    std::fs::write(&svg, text).map_err(|source| ReportError::Io { path: svg.clone(), source })?;
    Ok(vec![png, svg])
}

/// The bitmap backend fills wide polylines as one polygon, which produces
/// gaps and miter spikes on dense zig-zag data; drawing 2-point segments
/// avoids that. SVG viewers join polylines properly, so SVG keeps polylines.
const SEGMENTED: bool = true;
const POLYLINE: bool = false;

fn draw_error(path: &Path, e: impl std::fmt::Display) -> ReportError {
    ReportError::Draw { path: path.to_path_buf(), message: e.to_string() }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

// ---------------------------------------------------------------------------
// Data preparation (backend independent)
// ---------------------------------------------------------------------------

struct Common {
    title: String,
    x_label: String,
    y_label: String,
    has_data: bool,
}

struct Line {
    label: String,
    color: RGBColor,
    points: Vec<(f64, f64)>,
    /// Also draw a dot per point (short series, so single points show).
    dots: bool,
    /// Join the points (false: dots only, for categorical x).
    joined: bool,
}

struct Marker {
    label: String,
    color: RGBColor,
    pos: f64,
}

enum Prepared {
    Line {
        common: Common,
        log_x: bool,
        x: (f64, f64),
        y: (f64, f64),
        lines: Vec<Line>,
        hlines: Vec<Marker>,
        /// Tick labels of a categorical x axis (category `i` at x = i); empty for numeric x.
        categories: Vec<String>,
    },
    Cdf {
        common: Common,
        x: (f64, f64),
        curve: Line,
        markers: Vec<Marker>,
    },
    Histogram {
        common: Common,
        x: (f64, f64),
        y_max: u64,
        legend: String,
        /// `(left edge, right edge, count)` of the non-empty bins.
        bars: Vec<(f64, f64, u64)>,
    },
}

impl Prepared {
    fn new(plot: &Plot) -> Self {
        match plot {
            Plot::Line(p) => prepare_line(p),
            Plot::Category(p) => prepare_category(p),
            Plot::Cdf(p) => prepare_cdf(p),
            Plot::Histogram(p) => prepare_histogram(p),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, segmented: bool) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let common = match self {
            Prepared::Line { common, .. } | Prepared::Cdf { common, .. } | Prepared::Histogram { common, .. } => common,
        };
        let mut builder = ChartBuilder::on(root);
        builder.margin(16).margin_right(32).x_label_area_size(56).y_label_area_size(88);
        if !common.title.is_empty() {
            builder.caption(one_line(&common.title), (FONT, 26).into_font());
        }
        match self {
            Prepared::Line { common, log_x, x, y, lines, hlines, categories } => {
                if *log_x {
                    let chart = builder.build_cartesian_2d((x.0..x.1).log_scale(), y.0..y.1)?;
                    draw_line_chart(chart, common, *x, lines, hlines, categories, segmented)?;
                } else {
                    let chart = builder.build_cartesian_2d(x.0..x.1, y.0..y.1)?;
                    draw_line_chart(chart, common, *x, lines, hlines, categories, segmented)?;
                }
            }
            Prepared::Cdf { common, x, curve, markers } => {
                let (y0, y1) = (-0.02, 1.02);
                let mut chart = builder.build_cartesian_2d(x.0..x.1, y0..y1)?;
                draw_mesh(&mut chart, common, 10, &|v| format_tick(*v), &|v| format_tick(*v))?;
                let mut legend = 0;
                if common.has_data {
                    legend += draw_line(&mut chart, curve, segmented)?;
                }
                for m in markers {
                    let pts = vec![(m.pos, 0.0), (m.pos, 1.0)];
                    legend += draw_dashed(&mut chart, pts, &m.label, m.color)?;
                }
                finish(chart, common, legend)?;
            }
            Prepared::Histogram { common, x, y_max, legend, bars } => {
                let mut chart = builder.build_cartesian_2d(x.0..x.1, 0u64..*y_max)?;
                draw_mesh(&mut chart, common, 10, &|v| format_tick(*v), &|v| v.to_string())?;
                let mut entries = 0;
                if common.has_data {
                    let color = PALETTE[0];
                    chart
                        .draw_series(
                            bars.iter().map(|&(l, r, n)| Rectangle::new([(l, 0), (r, n)], color.mix(0.75).filled())),
                        )?
                        .label(one_line(legend))
                        .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 20, y + 6)], color.mix(0.75).filled()));
                    chart.draw_series(
                        bars.iter().map(|&(l, r, n)| Rectangle::new([(l, 0), (r, n)], color.stroke_width(1))),
                    )?;
                    entries += 1;
                }
                finish(chart, common, entries)?;
            }
        }
        Ok(())
    }
}
