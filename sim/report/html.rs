//! `index.html`: a self-contained page (inline CSS, no JS, no external URLs)
//! with the title, the summary (`summary_html.rs`), every plot, the stats table
//! grouped by component and links to extra files.

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
tr.group th{background:#e8eef6;font-size:1rem;padding-top:.6rem}\
tr.group .count{color:#666;font-weight:normal;font-size:.85rem}\
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
    let _ = writeln!(h, "<style>{CSS}{}</style>\n</head>\n<body>", super::summary_html::CSS);
    let _ = writeln!(h, "<header>\n<h1>{}</h1>", escape(title));
    if !report.subtitle.is_empty() {
        let _ = writeln!(h, "<p class=\"subtitle\">{}</p>", escape(&report.subtitle));
    }
    h.push_str("</header>\n<main>\n");

    if !report.stats.is_empty() {
        let summary = super::summary::summarize(&report.stats, report.guarantee.as_ref());
        super::summary_html::render(&mut h, &summary);
    }

    if !report.plots.is_empty() {
        h.push_str("<section id=\"plots\">\n<h2>Plots</h2>\n");
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

    for table in &report.tables {
        data_table(&mut h, table);
    }

    if !report.stats.is_empty() {
        stat_table(&mut h, &report.stats);
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

/// The component a stat belongs to: its name up to the first dot (`nvme.throughput`
/// → `nvme`; a name without a dot is its own group).
pub(super) fn group_of(name: &str) -> &str {
    name.split_once('.').map_or(name, |(group, _)| group)
}

/// Every stat, one `<tbody>` per component in order of first appearance, rows in
/// their original order within it.
fn stat_table(h: &mut String, stats: &[StatRow]) {
    let mut groups: Vec<(&str, Vec<&StatRow>)> = Vec::new();
    for row in stats {
        let g = group_of(&row.name);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, rows)) => rows.push(row),
            None => groups.push((g, vec![row])),
        }
    }
    h.push_str("<section id=\"stats\">\n<h2>All stats by component</h2>\n<table>\n<thead><tr><th>Name</th>");
    h.push_str("<th>Value</th><th>Unit</th><th>Description</th></tr></thead>\n");
    for (group, rows) in &groups {
        let group = escape(group);
        let _ = writeln!(
            h,
            "<tbody class=\"group\" data-group=\"{group}\">\n<tr class=\"group\"><th colspan=\"4\">{group} \
             <span class=\"count\">({})</span></th></tr>",
            rows.len()
        );
        for row in rows {
            stat_row(h, row);
        }
        h.push_str("</tbody>\n");
    }
    h.push_str("</table>\n</section>\n");
}

/// A table of text cells (e.g. a sweep's points × metrics); cells that are numbers are
/// right-aligned.
fn data_table(h: &mut String, table: &super::DataTable) {
    let _ = writeln!(h, "<section class=\"data\">\n<h2>{}</h2>\n<table>\n<thead><tr>", escape(&table.title));
    for cell in &table.header {
        let _ = write!(h, "<th>{}</th>", escape(cell));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        h.push_str("<tr>");
        for cell in row {
            let class = if cell.parse::<f64>().is_ok() { " class=\"num\"" } else { "" };
            let _ = write!(h, "<td{class}>{}</td>", escape(cell));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table>\n</section>\n");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{DriveGuarantee, HistogramPlot, Plot};

    fn row(name: &str, value: Option<f64>, unit: &str) -> StatRow {
        StatRow { name: name.into(), value, unit: unit.into(), description: format!("about {name}") }
    }

    fn stream_like() -> Report {
        Report {
            title: "run".into(),
            plots: vec![Plot::Histogram(HistogramPlot { file_stem: "lat".into(), ..Default::default() })],
            stats: vec![
                row("nvme.throughput", Some(1800.0), "MB/s"),
                row("nvme.window_min", Some(420.0), "MB"),
                row("mdu.input_throughput", Some(1.5), "GB/s"),
                row("tile.latency.p50", Some(40.0), "ms"),
                row("tile.stage.readback.mean", Some(16.0), "ms"),
                row("tile.stage.drive.mean", Some(4.0), "ms"),
                row("engine.loads", Some(100.0), "count"),
                row("engine.bottleneck.none", Some(0.2), "fraction"),
                row("engine.bottleneck.staging", Some(0.7), "fraction"),
                row("engine.bottleneck.pool", Some(0.1), "fraction"),
                row("cpu.passes_late", Some(2.0), "frames"),
                row("nvme.ios", Some(77.0), "count"),
                row("frames", Some(180.0), "count"),
                row("quality.blurry_share", Some(0.125), "fraction"),
            ],
            guarantee: Some(DriveGuarantee { rate_mb_per_s: 2000.0, window_ms: 250.0, peak_mb_per_s: Some(2400.0) }),
            ..Default::default()
        }
    }

    fn pos(html: &str, marker: &str) -> usize {
        html.find(marker).unwrap_or_else(|| panic!("{marker} missing"))
    }

    #[test]
    fn page_order_is_summary_plots_grouped_table() {
        let report = stream_like();
        let html = render(&report, &["lat".to_string()]);
        let (summary, plots, stats) = (
            pos(&html, "<section id=\"summary\">"),
            pos(&html, "<section id=\"plots\">"),
            pos(&html, "<section id=\"stats\">"),
        );
        assert!(summary < plots && plots < stats, "{summary} {plots} {stats}");
        // The summary states the bottleneck, the verdict and the warnings.
        let block = &html[summary..plots];
        assert!(block.contains("staging — 70%"), "{block}");
        assert!(block.contains("runner-up</dt><dd>none (nothing limited) — 20%"), "{block}");
        assert!(block.contains("below guarantee") && block.contains("500 MB"), "{block}");
        assert!(block.contains("cpu.passes_late") && !block.contains("Nothing abnormal"), "{block}");
        assert!(block.contains("class=\"stagebar\"") && block.contains("readback 16 ms"), "{block}");
        assert!(block.contains("quality.blurry_share</dt><dd>12.5%"), "{block}");
        // Every stat row appears exactly once, in the table after the plots.
        let table = &html[stats..];
        for r in &report.stats {
            let cell = format!("<tr><td>{}</td>", r.name);
            assert_eq!(html.matches(&cell).count(), 1, "{}", r.name);
            assert!(table.contains(&format!("<td class=\"desc\">about {}</td>", r.name)), "{}", r.name);
        }
        // Grouped by the prefix before the first dot, groups in order of first appearance,
        // and a group's rows together even when the stats interleave.
        let groups: Vec<&str> = table
            .match_indices("data-group=\"")
            .map(|(i, m)| table[i + m.len()..].split('"').next().unwrap())
            .collect();
        assert_eq!(groups, ["nvme", "mdu", "tile", "engine", "cpu", "frames", "quality"]);
        let nvme = &table[pos(table, "data-group=\"nvme\"")..pos(table, "data-group=\"mdu\"")];
        assert!(nvme.contains("nvme.ios") && nvme.contains("(3)"), "{nvme}");
    }

    #[test]
    fn clean_run_says_nothing_abnormal_and_met() {
        let mut report = stream_like();
        for r in &mut report.stats {
            match r.name.as_str() {
                "cpu.passes_late" => r.value = Some(0.0),
                "nvme.window_min" => r.value = Some(501.0),
                _ => {}
            }
        }
        let html = render(&report, &["lat".to_string()]);
        assert!(html.contains("Nothing abnormal."));
        assert!(html.contains("guarantee met"));
        report.stats.iter_mut().find(|r| r.name == "nvme.window_min").unwrap().value = None;
        let html = render(&report, &["lat".to_string()]);
        assert!(html.contains("guarantee not exercised (nvme.window_min is null)"));
        assert!(html.contains("Nothing abnormal."));
    }

    #[test]
    fn no_stats_no_summary() {
        let html = render(&Report::default(), &[]);
        assert!(!html.contains("id=\"summary\"") && !html.contains("id=\"stats\""));
        assert_eq!(group_of("nvme.window_min"), "nvme");
        assert_eq!(group_of("frames"), "frames");
    }
}
