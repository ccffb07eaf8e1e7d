//! Drawing steps shared by every chart kind, generic over the plotters backend
//! and the x coordinate, so PNG and SVG, linear and log axes are drawn by the
//! same code.

use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::format_tick;
use super::prepare::one_line;
use super::{Common, DrawResult, Line, Marker, FONT};

pub(super) fn draw_line_chart<'a, DB, X>(
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

pub(super) fn draw_mesh<'a, DB, X, Y, XT, YT>(
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
pub(super) fn draw_line<'a, DB, CT>(
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
pub(super) fn draw_dashed<'a, DB, CT>(
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

pub(super) fn finish<'a, DB, CT>(mut chart: ChartContext<'a, DB, CT>, common: &Common, legend: usize) -> DrawResult<DB>
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
