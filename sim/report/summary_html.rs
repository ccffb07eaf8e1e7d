//! The summary block at the top of `index.html` (`<section id="summary">`): cards for
//! drive use, latency by stage (a CSS flex stacked bar), the bottleneck and visual
//! quality, then the warnings. Plain HTML + the page's CSS; every text is escaped.

use std::fmt::Write as _;

use super::format_value;
use super::html::escape;
use super::summary::{Bottleneck, DriveUse, Figure, Latency, Summary, Verdict};

/// CSS for the summary block, appended to the page's style sheet.
pub(super) const CSS: &str = "\
.cards{display:flex;flex-wrap:wrap;gap:1rem;margin:0 0 1rem}\
.card{flex:1 1 300px;border:1px solid #ddd;border-radius:6px;padding:.6rem .9rem;background:#fafafa}\
.card h3{margin:0 0 .4rem;font-size:1.05rem}\
.card dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .8rem;margin:0}\
.card dt{color:#555}\
.card dd{margin:0;font-variant-numeric:tabular-nums}\
.verdict{display:inline-block;margin-top:.4rem;padding:.1rem .5rem;border-radius:4px;font-weight:600}\
.verdict.met{background:#dff3e0;color:#1b5e20}\
.verdict.below{background:#fde2e1;color:#b71c1c}\
.verdict.idle{background:#eee;color:#444}\
.stagebar{display:flex;height:1.6rem;margin:.5rem 0 .3rem;border-radius:4px;overflow:hidden;border:1px solid #ccc}\
.stagebar span{flex-basis:0;min-width:0;overflow:hidden;white-space:nowrap;font-size:.75rem;color:#fff;\
padding:0 .2rem;line-height:1.6rem}\
ul.legend{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .8rem;font-size:.85rem}\
ul.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-.1rem}\
.warnings{border-left:4px solid #c62828;background:#fff5f5;padding:.4rem .9rem}\
.warnings h3{margin:.2rem 0;font-size:1.05rem;color:#b71c1c}\
.clean{border-left:4px solid #2e7d32;background:#f3faf3;padding:.5rem .9rem;margin:0}\
";

/// Stage colours, in order (cycled).
const PALETTE: [&str; 8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

/// Stage segments narrower than this share of the bar carry no text.
const MIN_LABELLED_SHARE: f64 = 0.08;

/// Appends `<section id="summary">…</section>` to `h`.
pub(super) fn render(h: &mut String, s: &Summary) {
    h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">\n");
    if let Some(d) = &s.drive {
        drive(h, d);
    }
    if let Some(l) = &s.latency {
        latency(h, l);
    }
    if let Some(b) = &s.bottleneck {
        bottleneck(h, b);
    }
    if !s.quality.is_empty() {
        quality(h, &s.quality);
    }
    if !s.faults.is_empty() {
        faults(h, &s.faults);
    }
    h.push_str("</div>\n");
    if s.warnings.is_empty() {
        h.push_str("<p class=\"clean\" id=\"summary-warnings\">Nothing abnormal.</p>\n");
    } else {
        h.push_str("<div class=\"warnings\" id=\"summary-warnings\">\n<h3>Warnings</h3>\n<ul>\n");
        for w in &s.warnings {
            let _ = writeln!(h, "<li>{}</li>", escape(w));
        }
        h.push_str("</ul>\n</div>\n");
    }
    h.push_str("</section>\n");
}

fn card_open(h: &mut String, id: &str, title: &str) {
    let _ = write!(h, "<div class=\"card\" id=\"{id}\">\n<h3>{}</h3>\n", escape(title));
}

fn item(h: &mut String, term: &str, value: &str) {
    let _ = writeln!(h, "<dt>{}</dt><dd>{}</dd>", escape(term), escape(value));
}

fn pct(v: f64) -> String {
    format!("{}%", format_value(v * 100.0))
}

fn drive(h: &mut String, d: &DriveUse) {
    card_open(h, "summary-drive", "Drive use");
    h.push_str("<dl>\n");
    if let Some(t) = d.throughput {
        let mut text = format!("{} MB/s", format_value(t));
        if let Some(g) = &d.guarantee {
            if g.rate_mb_per_s > 0.0 {
                let _ = write!(
                    text,
                    " ({} of the {} MB/s guarantee)",
                    pct(t / g.rate_mb_per_s),
                    format_value(g.rate_mb_per_s)
                );
            }
        }
        item(h, "mean throughput", &text);
    }
    if let Some(peak) = d.guarantee.and_then(|g| g.peak_mb_per_s) {
        item(h, "drive peak", &format!("{} MB/s", format_value(peak)));
    }
    let window = d
        .guarantee
        .map_or("worst full window".to_string(), |g| format!("worst {} ms window", format_value(g.window_ms)));
    let least =
        d.window_min.map_or("null (no full window with IO queued)".to_string(), |w| format!("{} MB", format_value(w)));
    item(h, &window, &least);
    if let Some(g) = &d.guarantee {
        item(h, "guaranteed per window", &format!("{} MB", format_value(g.mb_per_window())));
    }
    h.push_str("</dl>\n");
    let (class, text) = match d.verdict {
        Verdict::Met => ("met", "guarantee met"),
        Verdict::Below => ("below", "below guarantee"),
        Verdict::NotExercised => ("idle", "guarantee not exercised (nvme.window_min is null)"),
        Verdict::NoGuarantee => ("idle", "no guarantee in this report"),
    };
    let _ = writeln!(h, "<p class=\"verdict {class}\" id=\"summary-verdict\">{text}</p>\n</div>");
}

fn latency(h: &mut String, l: &Latency) {
    let title = if l.kind == "tile" { "Tile latency by stage" } else { "Request latency" };
    card_open(h, "summary-latency", title);
    if !l.percentiles.is_empty() {
        h.push_str("<dl>\n");
        for (p, v) in &l.percentiles {
            item(h, &format!("{}.latency.{p}", l.kind), &format!("{} ms", format_value(*v)));
        }
        h.push_str("</dl>\n");
    }
    let total: f64 = l.stages.iter().map(|s| s.1).sum();
    if !l.stages.is_empty() {
        let _ = writeln!(
            h,
            "<div class=\"stagebar\" role=\"img\" aria-label=\"mean time per stage, {} ms in all\">",
            escape(&format_value(total))
        );
        for (i, (stage, ms)) in l.stages.iter().enumerate() {
            let share = if total > 0.0 { ms / total } else { 0.0 };
            let label = escape(&format!("{stage} {} ms", format_value(*ms)));
            // Narrow segments keep their name in the tooltip and the legend only.
            let text = if share >= MIN_LABELLED_SHARE { label.as_str() } else { "" };
            let _ = writeln!(
                h,
                "<span style=\"flex-grow:{share:.6};background:{}\" title=\"{label}\">{text}</span>",
                PALETTE[i % PALETTE.len()]
            );
        }
        h.push_str("</div>\n<ul class=\"legend\">\n");
        for (i, (stage, ms)) in l.stages.iter().enumerate() {
            let _ = writeln!(
                h,
                "<li><i style=\"background:{}\"></i>{} {} ms</li>",
                PALETTE[i % PALETTE.len()],
                escape(stage),
                escape(&format_value(*ms))
            );
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</div>\n");
}

fn bottleneck(h: &mut String, b: &Bottleneck) {
    card_open(h, "summary-bottleneck", "Bottleneck (share of frames)");
    h.push_str("<dl>\n");
    item(h, "largest", &format!("{} — {}", limit(&b.top.0), pct(b.top.1)));
    match &b.runner_up {
        Some((name, share)) => item(h, "runner-up", &format!("{} — {}", limit(name), pct(*share))),
        None => item(h, "runner-up", "— (no other share above 0)"),
    }
    h.push_str("</dl>\n</div>\n");
}

/// A value for people: fractions as percentages, counts bare, others with their unit.
fn with_unit(v: f64, unit: &str) -> String {
    match unit {
        "fraction" => pct(v),
        "" | "count" => format_value(v),
        _ => format!("{} {unit}", format_value(v)),
    }
}

/// A bottleneck name for people: `none` means no limit held the frame back.
fn limit(name: &str) -> String {
    if name == "none" {
        "none (nothing limited)".to_string()
    } else {
        name.to_string()
    }
}

fn quality(h: &mut String, q: &[Figure]) {
    card_open(h, "summary-quality", "Visual quality");
    h.push_str("<dl>\n");
    for f in q {
        item(h, &f.name, &with_unit(f.value, &f.unit));
    }
    h.push_str("</dl>\n</div>\n");
}

/// The "Faults" card: a line of the faults injected, then every fault figure.
fn faults(h: &mut String, f: &[Figure]) {
    card_open(h, "summary-faults", "Faults");
    let injected: f64 = f.iter().filter(|x| x.name.starts_with("faults.injected.")).map(|x| x.value).sum();
    let retries = f.iter().find(|x| x.name == "engine.retries").map(|x| x.value);
    let line = match retries {
        Some(r) => format!("Faults: {} injected, {} retries", super::format_value(injected), super::format_value(r)),
        None => format!("Faults: {} injected", super::format_value(injected)),
    };
    let _ = writeln!(h, "<p id=\"summary-faults-line\">{}</p>", escape(&line));
    h.push_str("<dl>\n");
    for x in f {
        item(h, &x.name, &with_unit(x.value, &x.unit));
    }
    h.push_str("</dl>\n</div>\n");
}
