//! `index.html`: a self-contained page (inline CSS, no JS, no external URLs)
//! with the title, the stats table, every plot and links to extra files.

use std::fmt::Write as _;

use super::{format_value, Report, StatRow};

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;\
margin:0 auto;padding:1.5rem;max-width:1100px;color:#222;background:#fff;line-height:1.45}\
h1{margin:0 0 .25rem;font-size:1.8rem}\
.subtitle{margin:0 0 1.5rem;color:#555;white-space:pre-line}\
h2{margin:2rem 0 .75rem;font-size:1.3rem;border-bottom:1px solid #ddd;padding-bottom:.25rem}\
table{border-collapse:collapse;width:100%;font-size:.95rem}\
th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #e5e5e5;vertical-align:top}\
th{background:#f5f5f5}\
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td.desc{color:#444;white-space:pre-line}\
figure{margin:0 0 2rem}\
figure img{display:block;max-width:100%;height:auto;border:1px solid #e5e5e5}\
figcaption{margin-top:.35rem;color:#444}\
a{color:#1f5fa8}\
ul.files li{margin:.2rem 0}\
";

/// Renders the page; `stems[i]` is the (sanitized, unique) file stem of
/// `report.plots[i]`.
pub(super) fn render(report: &Report, stems: &[String]) -> String {
    let title = if report.title.trim().is_empty() { "Report" } else { report.title.as_str() };
    let mut h = String::with_capacity(4096);
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(h, "<title>{}</title>", escape(title));
    let _ = writeln!(h, "<style>{CSS}</style>\n</head>\n<body>");
    let _ = writeln!(h, "<header>\n<h1>{}</h1>", escape(title));
    if !report.subtitle.is_empty() {
        let _ = writeln!(h, "<p class=\"subtitle\">{}</p>", escape(&report.subtitle));
    }
    h.push_str("</header>\n<main>\n");

    if !report.stats.is_empty() {
        h.push_str("<section>\n<h2>Summary</h2>\n<table>\n<thead><tr><th>Name</th>");
        h.push_str("<th>Value</th><th>Unit</th><th>Description</th></tr></thead>\n<tbody>\n");
        for row in &report.stats {
            stat_row(&mut h, row);
        }
        h.push_str("</tbody>\n</table>\n</section>\n");
    }

    if !report.plots.is_empty() {
        h.push_str("<section>\n<h2>Plots</h2>\n");
        for (plot, stem) in report.plots.iter().zip(stems) {
            let stem = escape(stem);
            let name = if plot.title().is_empty() { stem.clone() } else { escape(plot.title()) };
            let _ = writeln!(
                h,
                "<figure id=\"{stem}\">\n<img src=\"{stem}.png\" alt=\"{name}\" width=\"{}\" \
                 height=\"{}\">\n<figcaption>{name} &mdash; <a href=\"{stem}.svg\">SVG</a> \
                 &middot; <a href=\"{stem}.png\">PNG</a></figcaption>\n</figure>",
                super::PLOT_WIDTH,
                super::PLOT_HEIGHT,
            );
        }
        h.push_str("</section>\n");
    }

    if !report.files.is_empty() {
        h.push_str("<section>\n<h2>Files</h2>\n<ul class=\"files\">\n");
        for (file, description) in &report.files {
            let _ = write!(h, "<li><a href=\"{}\">{}</a>", escape(&percent_encode(file)), escape(file));
            if !description.is_empty() {
                let _ = write!(h, " &mdash; {}", escape(description));
            }
            h.push_str("</li>\n");
        }
        h.push_str("</ul>\n</section>\n");
    }
    h.push_str("</main>\n</body>\n</html>\n");
    h
}

fn stat_row(h: &mut String, row: &StatRow) {
    let (value, tooltip) = match row.value {
        Some(v) if !v.is_nan() => (format_value(v), format!(" title=\"{v}\"")),
        _ => ("n/a".to_string(), String::new()),
    };
    let _ = writeln!(
        h,
        "<tr><td>{}</td><td class=\"num\"{tooltip}>{}</td><td>{}</td><td class=\"desc\">{}</td></tr>",
        escape(&row.name),
        escape(&value),
        escape(&row.unit),
        escape(&row.description),
    );
}

/// Escapes text for HTML element content and quoted attribute values.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Percent-encodes a relative file name for use in `href`: everything except
/// unreserved characters and `/` is encoded, so names with spaces, `#`, `?`
/// or `:` (no `javascript:` URLs) stay plain relative links.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}
