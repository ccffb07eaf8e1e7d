//! Plot rendering with plotters: data preparation (filtering, ranges,
//! decimation) happens once, then the same drawing code runs on the bitmap
//! (PNG) and SVG backends.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use plotters::chart::{ChartBuilder, ChartContext, SeriesLabelPosition};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{format_value, CategoryPlot, CdfPlot, HistogramPlot, LinePlot, Plot, ReportError, PLOT_HEIGHT, PLOT_WIDTH};

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

fn prepare_line(p: &LinePlot) -> Prepared {
    let keep = |&(x, y): &(f64, f64)| x.is_finite() && y.is_finite() && (!p.log_x || (LOG_MIN..=LOG_MAX).contains(&x));
    let filtered: Vec<Vec<(f64, f64)>> =
        p.series.iter().map(|s| s.points.iter().copied().filter(keep).collect()).collect();
    let xs = filtered.iter().flatten().map(|p| p.0);
    let hline_ys = p.hlines.iter().map(|h| h.y).filter(|y| y.is_finite());
    let ys = filtered.iter().flatten().map(|p| p.1).chain(hline_ys);
    let has_data = filtered.iter().any(|s| !s.is_empty());
    let x = if p.log_x { log_range(min_max(xs)) } else { pad_range(min_max(xs), 0.0) };
    let y = pad_range(min_max(ys), 0.05);
    let lines = p
        .series
        .iter()
        .zip(filtered)
        .enumerate()
        .map(|(i, (s, pts))| Line {
            label: one_line(&s.label),
            color: PALETTE[i % PALETTE.len()],
            dots: pts.len() <= MAX_DOTTED_POINTS,
            joined: true,
            points: decimate(&pts, x, PLOT_WIDTH as usize, p.log_x),
        })
        .collect();
    let hlines = p
        .hlines
        .iter()
        .enumerate()
        .filter(|(_, h)| h.y.is_finite())
        .map(|(i, h)| Marker {
            label: one_line(&h.label),
            color: PALETTE[(p.series.len() + i) % PALETTE.len()],
            pos: h.y,
        })
        .collect();
    Prepared::Line {
        common: Common { title: p.title.clone(), x_label: p.x_label.clone(), y_label: p.y_label.clone(), has_data },
        log_x: p.log_x,
        x,
        y,
        lines,
        hlines,
        categories: Vec::new(),
    }
}

fn prepare_category(p: &CategoryPlot) -> Prepared {
    let n = p.categories.len();
    let keep = |&(x, y): &(f64, f64)| y.is_finite() && x >= 0.0 && x < n as f64 && x.fract() == 0.0;
    let lines: Vec<Line> = p
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| Line {
            label: one_line(&s.label),
            color: PALETTE[i % PALETTE.len()],
            points: s.points.iter().copied().filter(keep).collect(),
            dots: true,
            joined: false,
        })
        .collect();
    let has_data = lines.iter().any(|l| !l.points.is_empty());
    let y = pad_range(min_max(lines.iter().flat_map(|l| l.points.iter().map(|p| p.1))), 0.05);
    Prepared::Line {
        common: Common { title: p.title.clone(), x_label: p.x_label.clone(), y_label: p.y_label.clone(), has_data },
        log_x: false,
        x: (-0.5, n.max(1) as f64 - 0.5),
        y,
        lines,
        hlines: Vec::new(),
        categories: p.categories.iter().map(|c| one_line(c)).collect(),
    }
}

fn prepare_cdf(p: &CdfPlot) -> Prepared {
    let mut xs: Vec<f64> = p.samples.iter().copied().filter(|v| v.is_finite()).collect();
    xs.sort_by(f64::total_cmp);
    let skipped = p.samples.len() - xs.len();
    let markers: Vec<(String, f64)> = p.markers.iter().filter(|(_, v)| v.is_finite()).cloned().collect();
    let all = xs.iter().copied().chain(markers.iter().map(|m| m.1));
    let x = pad_range(min_max(all), 0.02);

    let n = xs.len() as f64;
    let mut steps = Vec::with_capacity(xs.len() * 2 + 2);
    if let Some(&first) = xs.first() {
        steps.push((x.0, 0.0));
        for (i, &v) in xs.iter().enumerate() {
            steps.push((v, i as f64 / n));
            steps.push((v, (i + 1) as f64 / n));
        }
        steps.push((x.1.max(first), 1.0));
    }
    let curve = Line {
        label: match p.quantiles_of {
            Some(n) => format!("empirical CDF, n = {n} (drawn from {} quantiles){}", xs.len(), skipped_note(skipped)),
            None => format!("empirical CDF, n = {}{}", xs.len(), skipped_note(skipped)),
        },
        color: PALETTE[0],
        points: decimate(&steps, x, PLOT_WIDTH as usize, false),
        dots: false,
        joined: true,
    };
    let markers = markers
        .iter()
        .enumerate()
        .map(|(i, (label, v))| Marker {
            label: one_line(&format!("{label} = {}", format_value(*v))),
            color: PALETTE[(i + 1) % PALETTE.len()],
            pos: *v,
        })
        .collect();
    Prepared::Cdf {
        common: Common {
            title: p.title.clone(),
            x_label: p.x_label.clone(),
            y_label: "cumulative fraction".into(),
            has_data: !xs.is_empty(),
        },
        x,
        curve,
        markers,
    }
}

fn prepare_histogram(p: &HistogramPlot) -> Prepared {
    let xs: Vec<f64> = p.samples.iter().copied().filter(|v| v.is_finite()).collect();
    let skipped = p.samples.len() - xs.len();
    let data = min_max(xs.iter().copied());
    let (axis_lo, axis_hi) = pad_range(data, 0.0);
    let mut legend = format!("n = {}", xs.len());
    // `lo..hi` is the binned interval, `x` the axis range.
    let (lo, hi, bins, x) = match data {
        Some((a, b)) if is_degenerate(a, b) => {
            // All samples (nearly) equal: one narrow bar on the value.
            let mid = (a / 2.0 + b / 2.0).clamp(-RANGE_LIMIT, RANGE_LIMIT);
            let half = (axis_hi - axis_lo) / 20.0;
            legend += &format!(", all values = {}", format_value(mid));
            (mid - half, mid + half, 1, (axis_lo, axis_hi))
        }
        _ => {
            let bins = match p.bins {
                0 => ((xs.len() as f64).sqrt().ceil() as usize).clamp(1, 100),
                b => b.min(MAX_BINS),
            };
            if data.is_some() {
                let width = (axis_hi - axis_lo) / bins as f64;
                legend += &format!(", {bins} bins of width {}", format_value(width));
            }
            let m = (axis_hi - axis_lo) * 0.02;
            (axis_lo, axis_hi, bins, (axis_lo - m, axis_hi + m))
        }
    };
    legend += &skipped_note(skipped);
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0u64; bins];
    for &v in &xs {
        let i = ((v - lo) / width).floor();
        let i = if i.is_nan() { 0.0 } else { i.clamp(0.0, (bins - 1) as f64) };
        counts[i as usize] += 1;
    }
    let bars: Vec<(f64, f64, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, &n)| (lo + width * i as f64, lo + width * (i + 1) as f64, n))
        .collect();
    let max = counts.iter().copied().max().unwrap_or(0);
    let y_max = ((max as f64 * 1.08).ceil() as u64).max(max + 1);
    Prepared::Histogram {
        common: Common {
            title: p.title.clone(),
            x_label: p.x_label.clone(),
            y_label: "count".into(),
            has_data: !xs.is_empty(),
        },
        x,
        y_max,
        legend,
        bars,
    }
}

fn skipped_note(skipped: usize) -> String {
    if skipped == 0 {
        String::new()
    } else {
        format!(" ({skipped} non-finite skipped)")
    }
}

/// Plotters draws one line of text per label; keep labels on one line.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r', '\t'], " ")
}

// ---------------------------------------------------------------------------
// Ranges and decimation
// ---------------------------------------------------------------------------

fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Linear axis range: clamps to ±`RANGE_LIMIT`, pads degenerate (empty,
/// all-equal or tiny) ranges, and adds `margin` × span on both sides.
pub(super) fn pad_range(r: Option<(f64, f64)>, margin: f64) -> (f64, f64) {
    let Some((lo, hi)) = r else {
        return (0.0, 1.0);
    };
    let lo = lo.clamp(-RANGE_LIMIT, RANGE_LIMIT);
    let hi = hi.clamp(-RANGE_LIMIT, RANGE_LIMIT);
    if is_degenerate(lo, hi) {
        let mag = lo.abs().max(hi.abs());
        let pad = if mag < 1e-290 { 1.0 } else { mag * 0.05 };
        return (lo - pad, hi + pad);
    }
    let span = hi - lo;
    (lo - span * margin, hi + span * margin)
}

/// True if `lo..hi` (after clamping to ±`RANGE_LIMIT`) is too narrow for an
/// axis: equal, or a span below 1e-9 of the magnitude, or below 1e-290.
fn is_degenerate(lo: f64, hi: f64) -> bool {
    let lo = lo.clamp(-RANGE_LIMIT, RANGE_LIMIT);
    let hi = hi.clamp(-RANGE_LIMIT, RANGE_LIMIT);
    let span = hi - lo;
    span <= lo.abs().max(hi.abs()) * 1e-9 || span < 1e-290
}

/// Log axis range: whole decades covering the data (at least one decade).
pub(super) fn log_range(r: Option<(f64, f64)>) -> (f64, f64) {
    let Some((lo, hi)) = r else {
        return (1.0, 10.0);
    };
    let e0 = lo.log10().floor().clamp(-150.0, 149.0);
    let mut e1 = hi.log10().ceil().clamp(-150.0, 150.0);
    if e1 <= e0 {
        e1 = e0 + 1.0;
    }
    (10f64.powf(e0), 10f64.powf(e1))
}

/// Deterministic min/max decimation: consecutive points falling into the
/// same of `columns` x buckets are reduced to (first, min y, max y, last) in
/// their original order. Series with at most `4 * columns` points are kept.
pub(super) fn decimate(points: &[(f64, f64)], x: (f64, f64), columns: usize, log_x: bool) -> Vec<(f64, f64)> {
    let columns = columns.max(1);
    if points.len() <= 4 * columns {
        return points.to_vec();
    }
    let t = |v: f64| if log_x { v.log10() } else { v };
    let (a, b) = (t(x.0), t(x.1));
    let scale = columns as f64 / (b - a);
    let column = |v: f64| {
        let c = ((t(v) - a) * scale).floor();
        if c.is_finite() {
            c.clamp(0.0, (columns - 1) as f64) as usize
        } else {
            0
        }
    };
    let mut out = Vec::with_capacity(4 * columns);
    let mut start = 0;
    while start < points.len() {
        let c = column(points[start].0);
        let (mut imin, mut imax) = (start, start);
        let mut end = start + 1;
        while end < points.len() && column(points[end].0) == c {
            if points[end].1 < points[imin].1 {
                imin = end;
            }
            if points[end].1 > points[imax].1 {
                imax = end;
            }
            end += 1;
        }
        let mut idx = [start, imin, imax, end - 1];
        idx.sort_unstable();
        let mut prev = None;
        for i in idx {
            if prev != Some(i) {
                out.push(points[i]);
                prev = Some(i);
            }
        }
        start = end;
    }
    out
}

/// Axis tick label: compact, trailing zeros trimmed, scientific for very
/// large or small magnitudes.
pub(super) fn format_tick(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v.is_nan() { String::new() } else { format!("{}", v.abs()) };
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let s = format!("{v:.3e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{exp}", trim_zeros(mantissa));
    }
    trim_zeros(&format!("{v:.6}")).to_string()
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

// ---------------------------------------------------------------------------
// Drawing helpers (generic over backend and x coordinate)
// ---------------------------------------------------------------------------

fn draw_line_chart<'a, DB, X>(
    mut chart: ChartContext<'a, DB, Cartesian2d<X, RangedCoordf64>>,
    common: &Common,
    x: (f64, f64),
    lines: &[Line],
    hlines: &[Marker],
    categories: &[String],
    segmented: bool,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    if categories.is_empty() {
        draw_mesh(&mut chart, common, 10, &|v| format_tick(*v), &|v| format_tick(*v))?;
    } else {
        // Ticks fall on whole numbers when at most one per category is asked for.
        let category = |v: &f64| {
            let i = v.round();
            let near = (v - i).abs() < 1e-6 && i >= 0.0;
            near.then(|| categories.get(i as usize).cloned()).flatten().unwrap_or_default()
        };
        draw_mesh(&mut chart, common, categories.len(), &category, &|v| format_tick(*v))?;
    }
    let mut legend = 0;
    for line in lines {
        legend += draw_line(&mut chart, line, segmented)?;
    }
    for h in hlines {
        let pts = vec![(x.0, h.pos), (x.1, h.pos)];
        legend += draw_dashed(&mut chart, pts, &h.label, h.color)?;
    }
    finish(chart, common, legend)
}

fn draw_mesh<'a, DB, X, Y, XT, YT>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    common: &Common,
    x_labels: usize,
    x_fmt: &dyn Fn(&XT) -> String,
    y_fmt: &dyn Fn(&YT) -> String,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.label_style((FONT, 15).into_font())
        .axis_desc_style((FONT, 18).into_font())
        .bold_line_style(BLACK.mix(0.12))
        .light_line_style(BLACK.mix(0.04))
        .max_light_lines(4)
        .x_labels(x_labels)
        .y_labels(8)
        .x_label_formatter(x_fmt)
        .y_label_formatter(y_fmt);
    if !common.x_label.is_empty() {
        mesh.x_desc(one_line(&common.x_label));
    }
    if !common.y_label.is_empty() {
        mesh.y_desc(one_line(&common.y_label));
    }
    mesh.draw()
}

/// Draws a solid series (plus dots at the points when it has few points);
/// returns 1 if it got a legend entry.
fn draw_line<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    line: &Line,
    segmented: bool,
) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let style = line.color.stroke_width(2);
    let pts = &line.points;
    let anno = if !line.joined {
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 6, style.filled())))?
    } else if segmented {
        chart.draw_series(pts.windows(2).map(|w| PathElement::new(vec![w[0], w[1]], style)))?
    } else {
        chart.draw_series(LineSeries::new(pts.iter().copied(), style))?
    };
    let dots = line.dots && line.joined;
    if !line.label.is_empty() {
        if !line.joined {
            anno.label(line.label.as_str()).legend(move |(x, y)| Circle::new((x + 10, y), 6, style.filled()));
        } else if dots {
            anno.label(line.label.as_str()).legend(move |(x, y)| {
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, 0), (20, 0)], style)
                    + Circle::new((10, 0), 3, style.filled())
            });
        } else {
            anno.label(line.label.as_str()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
    }
    if dots {
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, style.filled())))?;
    }
    Ok(usize::from(!line.label.is_empty()))
}

/// Draws a thin dashed reference line; returns 1 if it got a legend entry.
fn draw_dashed<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    points: Vec<(f64, f64)>,
    label: &str,
    color: RGBColor,
) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let style = color.stroke_width(2);
    let anno = chart.draw_series(DashedLineSeries::new(points, 9, 6, style))?;
    if label.is_empty() {
        return Ok(0);
    }
    anno.label(label).legend(move |(x, y)| {
        EmptyElement::at((x, y))
            + PathElement::new(vec![(0, 0), (6, 0)], style)
            + PathElement::new(vec![(11, 0), (20, 0)], style)
    });
    Ok(1)
}

fn finish<'a, DB, CT>(mut chart: ChartContext<'a, DB, CT>, common: &Common, legend: usize) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    if !common.has_data {
        draw_no_data(&chart.plotting_area().strip_coord_spec())?;
    }
    if legend > 0 {
        draw_legend(&mut chart)?;
    }
    Ok(())
}

fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .margin(10)
        .legend_area_size(26)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 15).into_font())
        .draw()
}

fn draw_no_data<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    let style = TextStyle::from((FONT, 24).into_font())
        .color(&RGBColor(120, 120, 120))
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw(&Text::new("no data", (w as i32 / 2, h as i32 / 2), style))
}
