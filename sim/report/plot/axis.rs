//! Axis ranges, decimation and tick labels: where odd input (empty, equal, huge or
//! non-finite values, hundreds of thousands of points) is tamed so that plotters
//! never panics, hangs or draws for long.

use super::RANGE_LIMIT;

pub(super) fn min_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
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
pub(super) fn is_degenerate(lo: f64, hi: f64) -> bool {
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
pub(crate) fn decimate(points: &[(f64, f64)], x: (f64, f64), columns: usize, log_x: bool) -> Vec<(f64, f64)> {
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
pub(crate) fn format_tick(v: f64) -> String {
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
