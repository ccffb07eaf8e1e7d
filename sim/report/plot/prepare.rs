//! Backend-independent preparation of each plot kind: everything that depends on
//! the data (filtering, ranges, CDF steps, histogram bins, legend text) is worked
//! out once here, so a plot's PNG and SVG cannot disagree.

use super::axis::{decimate, is_degenerate, log_range, min_max, pad_range};
use super::{Common, Line, Marker, Prepared, LOG_MAX, LOG_MIN, MAX_BINS, MAX_DOTTED_POINTS, PALETTE, RANGE_LIMIT};
use crate::report::{format_value, CategoryPlot, CdfPlot, HistogramPlot, LinePlot, PLOT_WIDTH};

pub(super) fn prepare_line(p: &LinePlot) -> Prepared {
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

pub(super) fn prepare_category(p: &CategoryPlot) -> Prepared {
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

pub(super) fn prepare_cdf(p: &CdfPlot) -> Prepared {
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

pub(super) fn prepare_histogram(p: &HistogramPlot) -> Prepared {
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
pub(super) fn one_line(s: &str) -> String {
    s.replace(['\n', '\r', '\t'], " ")
}
