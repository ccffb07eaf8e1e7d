//! Tests of the report as a whole: every plot kind written to PNG and SVG,
//! degenerate input, escaping in the page, stems, number formatting.

use super::*;
use std::time::Instant;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every written PNG starts with the PNG magic, every SVG is an `<svg>`.
fn check_files(paths: &[PathBuf]) {
    for p in paths {
        let bytes = read(p);
        assert!(!bytes.is_empty(), "{} is empty", p.display());
        match p.extension().and_then(|e| e.to_str()) {
            Some("png") => assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", p.display()),
            Some("svg") => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.contains("<svg") && text.contains("</svg>"), "{}", p.display());
            }
            Some("html") => {}
            other => panic!("unexpected file type {other:?}"),
        }
    }
}

fn line(stem: &str, series: Vec<Series>, hlines: Vec<HLine>, log_x: bool) -> Plot {
    Plot::Line(LinePlot {
        file_stem: stem.into(),
        title: format!("{stem} title"),
        x_label: "time [ms]".into(),
        y_label: "MB/s".into(),
        series,
        hlines,
        log_x,
    })
}

fn cdf(stem: &str, samples: Vec<f64>, markers: Vec<(String, f64)>) -> Plot {
    Plot::Cdf(CdfPlot {
        file_stem: stem.into(),
        title: format!("{stem} title"),
        x_label: "latency [ms]".into(),
        samples,
        markers,
        quantiles_of: None,
    })
}

fn hist(stem: &str, samples: Vec<f64>, bins: usize) -> Plot {
    Plot::Histogram(HistogramPlot {
        file_stem: stem.into(),
        title: format!("{stem} title"),
        x_label: "latency [ms]".into(),
        samples,
        bins,
    })
}

#[test]
fn category_plot_labels_its_ticks_and_skips_points_off_the_categories() {
    let dir = tempfile::tempdir().unwrap();
    let plot = Plot::Category(CategoryPlot {
        file_stem: "by policy".into(),
        title: "p99 by policy".into(),
        x_label: "policy".into(),
        y_label: "p99 [ms]".into(),
        categories: vec!["Lru".into(), "SamplerFeedback".into(), "Fifo".into()],
        series: vec![
            Series::new("slow", vec![(0.0, 12.0), (1.0, 9.0), (2.0, 14.0)]),
            Series::new("fast", vec![(0.0, 6.0), (2.5, 1e9), (7.0, 1e9), (-1.0, 1e9)]),
        ],
    });
    let written = write_report_as(&Report { plots: vec![plot], ..Default::default() }, dir.path(), "p.html").unwrap();
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["by_policy.png", "by_policy.svg", "p.html"]);
    check_files(&written);
    let svg = std::fs::read_to_string(&written[1]).unwrap();
    for text in ["Lru", "SamplerFeedback", "Fifo", "slow", "fast", "p99 [ms]"] {
        assert!(svg.contains(text), "{text} missing");
    }
    // The off-category points (y = 1e9) do not stretch the y axis.
    assert!(!svg.contains("1e9") && !svg.contains("1000000000"), "{svg}");
}

#[test]
fn report_with_every_plot_kind() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nested/out");
    let pts: Vec<(f64, f64)> = (0..500).map(|i| (i as f64, (i as f64 / 20.0).sin())).collect();
    let samples: Vec<f64> = (0..1000).map(|i| ((i * 37) % 101) as f64 / 7.0).collect();
    let report = Report {
        tables: vec![DataTable {
            title: "Points".into(),
            header: vec!["point".into(), "x".into()],
            rows: vec![vec!["0".into(), "4MiB".into()]],
        }],
        title: "Run".into(),
        subtitle: "seed 1".into(),
        plots: vec![
            line("thr", vec![Series::new("ssd", pts)], vec![HLine::new("guaranteed", 0.5)], false),
            cdf("lat-cdf", samples.clone(), vec![("p50".into(), 7.0), ("p99".into(), 14.0)]),
            hist("lat-hist", samples, 20),
        ],
        stats: vec![StatRow {
            name: "mean".into(),
            value: Some(1987.654),
            unit: "MB/s".into(),
            description: "average".into(),
        }],
        files: vec![("run.json".into(), "raw results".into())],
        guarantee: None,
    };
    let written = write_report(&report, &out).unwrap();
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        ["thr.png", "thr.svg", "lat-cdf.png", "lat-cdf.svg", "lat-hist.png", "lat-hist.svg", "index.html"]
    );
    assert!(written.iter().all(|p| p.starts_with(&out)));
    check_files(&written);
    let html = String::from_utf8(read(&out.join("index.html"))).unwrap();
    for stem in ["thr", "lat-cdf", "lat-hist"] {
        assert!(html.contains(&format!("<img src=\"{stem}.png\"")), "{stem}");
        assert!(html.contains(&format!("href=\"{stem}.svg\"")), "{stem}");
    }
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<meta charset=\"utf-8\">"));
    assert!(html.contains("1988") && html.contains("MB/s"));
    assert!(html.contains("href=\"run.json\""));
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"));
    // Text is drawn: the SVG carries the title, the labels and the legend.
    let svg = String::from_utf8(read(&out.join("thr.svg"))).unwrap();
    for text in ["thr title", "time [ms]", "MB/s", "ssd", "guaranteed"] {
        assert!(svg.contains(text), "{text} missing from SVG");
    }
}

#[test]
fn degenerate_inputs_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let plots = vec![
        line("empty", vec![], vec![], false),
        line("empty-series", vec![Series::new("", vec![])], vec![], true),
        line(
            "nan",
            vec![Series::new("a", vec![(nan, 1.0), (1.0, nan), (inf, -inf)])],
            vec![HLine::new("h", nan)],
            false,
        ),
        line("single", vec![Series::new("a", vec![(3.0, 4.0)])], vec![], false),
        line("single-log", vec![Series::new("a", vec![(3.0, 4.0)])], vec![], true),
        line(
            "equal",
            vec![Series::new("a", vec![(1.0, 7.0), (2.0, 7.0), (3.0, 7.0)])],
            vec![HLine::new("h", 7.0)],
            false,
        ),
        line("zeros", vec![Series::new("a", vec![(0.0, 0.0), (0.0, 0.0)])], vec![], false),
        line("log-nonpos", vec![Series::new("a", vec![(-1.0, 1.0), (0.0, 2.0)])], vec![], true),
        line(
            "huge",
            vec![Series::new("a", vec![(-1e308, -1e308), (1e308, 1e308), (f64::MAX, f64::MIN)])],
            vec![],
            false,
        ),
        line(
            "huge-log",
            vec![Series::new("a", vec![(1e-320, 1.0), (1e-300, 2.0), (1e300, 3.0), (f64::MAX, 4.0)])],
            vec![],
            true,
        ),
        line("tiny", vec![Series::new("a", vec![(1e-310, 1e-310), (2e-310, 3e-310)])], vec![], false),
        line("close", vec![Series::new("a", vec![(1e15, 1e15), (1e15 + 0.125, 1e15 + 0.25)])], vec![], false),
        line("only-hline", vec![], vec![HLine::new("h", 5.0)], false),
        cdf("cdf-empty", vec![], vec![]),
        cdf("cdf-nan", vec![nan, inf, -inf], vec![("p50".into(), nan), ("p99".into(), 3.0)]),
        cdf("cdf-single", vec![2.5], vec![("p50".into(), 2.5)]),
        cdf("cdf-equal", vec![1.0; 100], vec![]),
        hist("hist-empty", vec![], 0),
        hist("hist-nan", vec![nan, inf], 10),
        hist("hist-single", vec![42.0], 0),
        hist("hist-equal", vec![-3.0; 50], 7),
        hist("hist-huge-bins", vec![1.0, 2.0, 3.0], usize::MAX),
        hist("hist-extreme", vec![-1e308, 1e308, f64::MAX, f64::MIN], 5),
    ];
    let report = Report { plots: plots.clone(), ..Default::default() };
    let written = write_report(&report, dir.path()).unwrap();
    assert_eq!(written.len(), plots.len() * 2 + 1);
    check_files(&written);
    for plot in &plots {
        let files = write_plot(plot, &dir.path().join("alone")).unwrap();
        assert_eq!(files.len(), 2);
        check_files(&files);
    }
}

#[test]
fn html_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "<script>alert(\"x\")</script> & 'q'";
    let report = Report {
        tables: vec![DataTable { title: evil.into(), header: vec![evil.into()], rows: vec![vec![evil.into()]] }],
        title: evil.into(),
        subtitle: evil.into(),
        plots: vec![Plot::Histogram(HistogramPlot {
            file_stem: "h".into(),
            title: evil.into(),
            x_label: evil.into(),
            samples: vec![1.0, 2.0],
            bins: 2,
        })],
        stats: vec![
            StatRow { name: evil.into(), value: None, unit: evil.into(), description: evil.into() },
            StatRow { name: "nan".into(), value: Some(f64::NAN), ..Default::default() },
        ],
        files: vec![("a b&c.csv".into(), evil.into()), ("javascript:alert(1)".into(), String::new())],
        guarantee: None,
    };
    write_report(&report, dir.path()).unwrap();
    let html = String::from_utf8(read(&dir.path().join("index.html"))).unwrap();
    assert!(!html.contains("<script"));
    assert!(!html.contains("'q'"));
    assert!(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"));
    assert_eq!(html.matches("n/a").count(), 2);
    assert!(html.contains("href=\"a%20b%26c.csv\""));
    assert!(html.contains("href=\"javascript%3Aalert%281%29\""));
    // Plot text is escaped in the SVG too.
    let svg = String::from_utf8(read(&dir.path().join("h.svg"))).unwrap();
    assert!(!svg.contains("<script") && svg.contains("&lt;script&gt;"));
}

#[test]
fn stems_are_sanitized_and_unique() {
    assert_eq!(sanitize_stem("lat/p99 ü"), "lat_p99__");
    assert_eq!(sanitize_stem("../x"), "_x");
    assert_eq!(sanitize_stem(""), "plot");
    assert_eq!(sanitize_stem("..."), "plot");
    let plots = vec![hist("a", vec![], 0), hist("a", vec![], 0), hist("a-2", vec![], 0), hist("", vec![], 0)];
    assert_eq!(unique_stems(&plots), ["a", "a-2", "a-2-2", "plot"]);
}

#[test]
fn value_formatting() {
    let cases = [
        (0.0, "0"),
        (2000.0, "2000"),
        (1.23456, "1.235"),
        (-0.012345, "-0.01235"),
        (1234567.0, "1,234,567"),
        (12345.678, "12,346"),
        (0.00001234, "1.234e-5"),
        (2.5e16, "2.5e16"),
        (f64::NAN, "n/a"),
        (f64::INFINITY, "inf"),
    ];
    for (v, want) in cases {
        assert_eq!(format_value(v), want, "{v}");
    }
    assert_eq!(plot::format_tick(0.30000000000000004), "0.3");
    assert_eq!(plot::format_tick(3e9), "3e9");
    assert_eq!(plot::format_tick(-1500.0), "-1500");
}

#[test]
fn decimation_keeps_extremes_and_is_bounded() {
    let n = 100_000;
    let pts: Vec<(f64, f64)> =
        (0..n).map(|i| (i as f64, if i == 54_321 { 1e6 } else { ((i * 7919) % 1000) as f64 })).collect();
    let d = plot::decimate(&pts, (0.0, (n - 1) as f64), 1024, false);
    assert!(d.len() <= 4 * 1024, "{}", d.len());
    assert!(d.contains(&(54_321.0, 1e6)));
    assert_eq!(d.first(), pts.first());
    assert_eq!(d.last(), pts.last());
    assert!(d.windows(2).all(|w| w[0].0 <= w[1].0), "order kept");
    assert_eq!(d, plot::decimate(&pts, (0.0, (n - 1) as f64), 1024, false));
}

#[test]
fn large_series_render_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let pts: Vec<(f64, f64)> = (0..100_000).map(|i| (i as f64, ((i * 7919) % 1000) as f64)).collect();
    let samples: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let plots = [
        line("big", vec![Series::new("a", pts.clone()), Series::new("b", pts)], vec![], false),
        cdf("big-cdf", samples.clone(), vec![]),
        hist("big-hist", samples, 0),
    ];
    for plot in &plots {
        let start = Instant::now();
        check_files(&write_plot(plot, dir.path()).unwrap());
        // Generous bound: debug builds and loaded CI machines are slow.
        assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
    }
}

#[test]
fn io_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let err = write_report(&Report::default(), &file.join("sub")).unwrap_err();
    assert!(matches!(err, ReportError::Io { .. }));
    assert!(err.to_string().contains("not-a-dir"), "{err}");
}
