//! What `regress` prints and writes: a Markdown table per baseline (`regress.md`, also
//! printed) and a JUnit XML file (one test suite per baseline, one test case per stat)
//! that CI systems show as test results.

use super::compare::{change_percent, Better, Tolerance, Verdict};
use super::{Outcome, Status};
use crate::report::format_value;
use std::fmt::Write as _;

fn value(v: Option<f64>) -> String {
    v.map_or("null".into(), format_value)
}

fn tolerance_text(t: &Tolerance) -> String {
    let way = match t.better {
        Better::Exact => "exact",
        Better::Lower => "lower is better",
        Better::Higher => "higher is better",
    };
    let (r, a) = (t.relative, t.absolute);
    if r == 0.0 && a == 0.0 {
        way.to_string()
    } else if a == 0.0 {
        format!("{way}, ±{}%", format_value(100.0 * r))
    } else if r == 0.0 {
        format!("{way}, ±{}", format_value(a))
    } else {
        format!("{way}, ±{}% + {}", format_value(100.0 * r), format_value(a))
    }
}

/// The Markdown report: a line per baseline, then each baseline's changed stats.
pub fn markdown(outcomes: &[Outcome]) -> String {
    let failed = outcomes.iter().filter(|o| o.fails()).count();
    let mut md = format!(
        "# sfsim regress\n\n{} baselines, {} failed ({})\n\n",
        outcomes.len(),
        failed,
        if failed == 0 { "pass" } else { "FAIL" }
    );
    for o in outcomes {
        let _ = writeln!(md, "## {} ({})\n", o.name, o.file.display());
        match &o.status {
            Status::Compared(rows) => {
                let same = rows.iter().filter(|r| r.verdict == Verdict::Same).count();
                let _ = writeln!(md, "{} stats: {same} unchanged.\n", rows.len());
                let changed: Vec<_> = rows.iter().filter(|r| r.verdict != Verdict::Same).collect();
                if !changed.is_empty() {
                    md.push_str(
                        "| stat | baseline | now | change | tolerance | verdict |\n|---|---|---|---|---|---|\n",
                    );
                    for r in changed {
                        let change = change_percent(r.base, r.now).map_or("–".into(), |c| format!("{c:+.2} %"));
                        let _ = writeln!(
                            md,
                            "| {} | {} | {} | {change} | {} | {} |",
                            r.stat,
                            value(r.base),
                            value(r.now),
                            tolerance_text(&r.tolerance),
                            r.verdict.name()
                        );
                    }
                    md.push('\n');
                }
            }
            Status::ConfigChanged { recorded, now } => {
                let _ = writeln!(
                    md,
                    "**CONFIG CHANGED**: the scenario no longer resolves to the recorded config (hash {recorded}, now \
                     {now}), so its stats are not compared. If the change is intended, run `sfsim regress --update \
                     --only {}` and commit the baseline.\n",
                    o.name
                );
            }
            Status::NotRecorded => {
                let _ =
                    writeln!(md, "**NOT RECORDED**: no stats yet; run `sfsim regress --update --only {}`.\n", o.name);
            }
            Status::Updated(changed) => {
                let _ = writeln!(md, "Updated: {} stats changed.\n", changed.len());
                if !changed.is_empty() {
                    md.push_str("| stat | was | now |\n|---|---|---|\n");
                    for (stat, old, new) in changed {
                        let _ = writeln!(md, "| {stat} | {} | {} |", value(*old), value(*new));
                    }
                    md.push('\n');
                }
            }
            Status::Error(e) => {
                let _ = writeln!(md, "**ERROR**: {e}\n");
            }
        }
        if let Some((base, now, slowdown, ok)) = o.host {
            let _ = writeln!(
                md,
                "Host speed: wall ÷ reference = {now:.3} (baseline {}, may grow {}%): {}\n",
                base.map_or("not recorded".into(), |b| format!("{b:.3}")),
                format_value(100.0 * slowdown),
                if ok { "pass" } else { "REGRESSED" }
            );
        }
    }
    md
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

/// The JUnit XML report.
pub fn junit(outcomes: &[Outcome]) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures) = (0, 0);
    for o in outcomes {
        let mut cases = String::new();
        let (mut n, mut f) = (0, 0);
        let mut case = |name: &str, failure: Option<String>| {
            n += 1;
            let _ = write!(cases, "    <testcase classname=\"sfsim.regress.{}\" name=\"{}\"", xml(&o.name), xml(name));
            match failure {
                Some(message) => {
                    f += 1;
                    let _ = writeln!(
                        cases,
                        ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>",
                        xml(&message),
                        xml(&message)
                    );
                }
                None => cases.push_str("/>\n"),
            }
        };
        match &o.status {
            Status::Compared(rows) => {
                for r in rows {
                    let failure = r.verdict.fails().then(|| {
                        format!(
                            "{}: baseline {}, now {} ({}); {}",
                            r.verdict.name(),
                            value(r.base),
                            value(r.now),
                            tolerance_text(&r.tolerance),
                            o.file.display()
                        )
                    });
                    case(&r.stat, failure);
                }
            }
            Status::ConfigChanged { recorded, now } => case(
                "config",
                Some(format!(
                    "config changed (hash {recorded} → {now}); not compared; sfsim regress --update to accept"
                )),
            ),
            Status::NotRecorded => case("config", Some("no stats recorded; run sfsim regress --update".into())),
            Status::Updated(_) => case("update", None),
            Status::Error(e) => case("run", Some(e.clone())),
        }
        if let Some((base, now, slowdown, ok)) = o.host {
            let message =
                format!("wall ÷ reference {now:.3}, baseline {base:?}, may grow {}%", format_value(100.0 * slowdown));
            case("host-speed", (!ok).then_some(message));
        }
        tests += n;
        failures += f;
        let _ = write!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{f}\" errors=\"0\" skipped=\"0\">\n{cases}  </testsuite>\n",
            xml(&o.name)
        );
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"sfsim regress\" tests=\"{tests}\" \
         failures=\"{failures}\" errors=\"0\">\n{suites}</testsuites>\n"
    )
}
