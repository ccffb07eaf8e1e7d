//! The HTML report opens in headless Chromium (Debian's `chromium`, installed by .ci/run)
//! without errors, leads with the summary and shows its plots; so does a sweep's.

use crate::common::{repo, sfsim};
use std::path::Path;
use std::process::Command;

fn chromium() -> String {
    for candidate in ["chromium", "chromium-browser", "google-chrome"] {
        if Command::new(candidate).arg("--version").output().is_ok_and(|o| o.status.success()) {
            return candidate.to_string();
        }
    }
    panic!("headless Chromium is needed for this test: install Debian's `chromium` package (.ci/run does)");
}

#[test]
fn report_opens_in_headless_chromium_and_shows_the_plots() {
    let browser = chromium();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let status = sfsim()
        .args(["run", "-q", "--set", "duration=1s", "--out"])
        .arg(&out)
        .arg(repo("scenarios/quickstart.ron"))
        .status()
        .unwrap();
    assert!(status.success());
    // The page leads with the summary, then the plots, then the stats grouped by component.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let at = |marker: &str| html.find(marker).unwrap_or_else(|| panic!("{marker} missing from index.html"));
    let (summary, plots, stats) =
        (at("<section id=\"summary\">"), at("<section id=\"plots\">"), at("<section id=\"stats\">"));
    assert!(summary < plots && plots < stats, "summary {summary}, plots {plots}, stats {stats}");
    for card in
        ["id=\"summary-drive\"", "id=\"summary-latency\"", "id=\"summary-bottleneck\"", "id=\"summary-verdict\""]
    {
        assert!(html[summary..plots].contains(card), "{card} missing from the summary");
    }
    assert!(html[stats..].contains("data-group=\"nvme\""));
    let shot = dir.path().join("shot.png");
    open_in_chromium(&browser, &out.join("index.html"), &shot, dir.path());
    std::fs::copy(&shot, std::env::temp_dir().join("sfsim-report-screenshot.png")).ok();
}

/// Opens `page` headless, requires a clean console and a screenshot full of plot colours.
fn open_in_chromium(browser: &str, page: &Path, shot: &Path, scratch: &Path) {
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,3000",
        ])
        .arg(format!("--user-data-dir={}", scratch.join("profile").display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "chromium failed: {log}");
    for bad in ["Uncaught", "ERROR:CONSOLE", "Failed to load resource", "net::ERR_FILE_NOT_FOUND"] {
        assert!(!log.contains(bad), "the page logged {bad}: {log}");
    }
    // The screenshot shows plots: many distinct colours, not a blank or text-only page.
    let img = image::open(shot).expect("screenshot written").to_rgb8();
    let mut colours = std::collections::HashSet::new();
    for p in img.pixels().step_by(7) {
        colours.insert(p.0);
    }
    assert!(colours.len() > 200, "only {} colours in the screenshot", colours.len());
}

#[test]
fn a_sweep_report_opens_in_headless_chromium_and_shows_its_plots() {
    let browser = chromium();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let output =
        sfsim().args(["sweep", "--out"]).arg(&out).arg(repo("scenarios/sweeps/ci-small.ron")).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let (plots, points) = (html.find("<section id=\"plots\">").unwrap(), html.find("<h2>Points</h2>").unwrap());
    assert!(plots < points, "plots first, then the table of points");
    assert_eq!(html.matches("<figure").count(), 3, "one plot per metric");
    open_in_chromium(&browser, &out.join("index.html"), &dir.path().join("shot.png"), dir.path());
}
