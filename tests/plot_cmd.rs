//! `sfsim plot` on a real sweep.csv and on a hand-written tidy table, and its errors.

use crate::common::{repo, sfsim};
use std::path::Path;

/// The PNG and SVG exist, decode/parse, and are more than an empty frame.
fn check_plot(dir: &Path, stem: &str) {
    let png = dir.join(format!("{stem}.png"));
    let img = image::open(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display())).to_rgb8();
    assert_eq!((img.width(), img.height()), (1024, 640));
    let colours: std::collections::HashSet<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    assert!(colours.len() > 20, "{stem}.png has only {} colours", colours.len());
    let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
    assert!(svg.contains("<svg") && svg.contains("</svg>") && svg.len() > 2000, "{stem}.svg: {svg}");
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains(&format!("{stem}.png")), "index.html does not show {stem}.png");
}

fn plot(args: &[&str]) -> std::process::Output {
    sfsim().arg("plot").args(args).output().unwrap()
}

#[test]
fn plots_a_sweep_csv() {
    let dir = tempfile::tempdir().unwrap();
    let output = sfsim()
        .args([
            "sweep",
            "--set",
            "duration=300ms",
            "--vary",
            "workload.in_flight=4MiB,16MiB",
            "--metric",
            "nvme.throughput",
            "--out",
        ])
        .arg(dir.path())
        .arg(repo("scenarios/io/quick.ron"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let csv = dir.path().join("sweep.csv");
    assert!(std::fs::read_to_string(&csv).unwrap().starts_with("workload.in_flight,nvme.throughput\n"));
    let output = sfsim()
        .arg("plot")
        .arg(&csv)
        .args(["--x", "workload.in_flight", "--y", "nvme.throughput", "--log-x"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    check_plot(dir.path(), "nvme_throughput_vs_workload_in_flight");
    let svg = std::fs::read_to_string(dir.path().join("nvme_throughput_vs_workload_in_flight.svg")).unwrap();
    assert!(svg.contains("workload.in_flight [MiB]"), "the x label carries the unit of 4MiB, 16MiB");
}

const TIDY: &str = "\
point,policy,drive,stat,value,unit
0,Lru,slow,request.latency.p99,12.5,ms
0,Lru,slow,nvme.throughput,1800,MB/s
1,Lru,fast,request.latency.p99,6.25,ms
1,Lru,fast,nvme.throughput,2300,MB/s
2,Fifo,slow,request.latency.p99,14,ms
3,Fifo,fast,request.latency.p99,7.5,ms
";

#[test]
fn plots_a_tidy_csv_by_series_into_out() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("results.csv");
    std::fs::write(&csv, TIDY).unwrap();
    let out = dir.path().join("plots");
    let output = sfsim()
        .arg("plot")
        .arg(&csv)
        .args(["--x", "policy", "--y", "request.latency.p99", "--series", "drive", "--title", "p99 by policy"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    check_plot(&out, "request_latency_p99_vs_policy");
    let svg = std::fs::read_to_string(out.join("request_latency_p99_vs_policy.svg")).unwrap();
    for text in ["request.latency.p99 [ms]", "p99 by policy", "Lru", "Fifo", "slow", "fast"] {
        assert!(svg.contains(text), "{text} missing from the SVG");
    }
    // A numeric x in a tidy table: lines, one per series.
    let csv2 = dir.path().join("depth.csv");
    std::fs::write(&csv2, "point,depth,drive,stat,value,unit\n0,2,a,t,1,MB/s\n1,1,a,t,2,MB/s\n2,1,b,t,3,MB/s\n")
        .unwrap();
    let output =
        sfsim().arg("plot").arg(&csv2).args(["--x", "depth", "--y", "t", "--series", "drive"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    check_plot(dir.path(), "t_vs_depth");
}

#[test]
fn a_run_report_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<html>a run's report</html>").unwrap();
    std::fs::write(dir.path().join("t.csv"), "x,y\n1,2\n2,3\n").unwrap();
    let output = plot(&[dir.path().join("t.csv").to_str().unwrap(), "--x", "x", "--y", "y"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(std::fs::read_to_string(dir.path().join("index.html")).unwrap(), "<html>a run's report</html>");
    assert!(std::fs::read_to_string(dir.path().join("y_vs_x.html")).unwrap().contains("y_vs_x.png"));
}

#[test]
fn errors_are_clear_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let tidy = file("tidy.csv", TIDY);
    let bad = file("bad.csv", "x,y\n1,2\n2,fast\n");
    let empty = file("empty.csv", "");
    let header_only = file("header.csv", "x,y\n");
    let big = dir.path().join("big.csv");
    std::fs::File::create(&big).unwrap().set_len(65 << 20).unwrap();
    let missing = dir.path().join("missing.csv");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![missing.to_str().unwrap(), "--x", "x", "--y", "y"], "No such file"),
        (vec![&tidy, "--x", "nope", "--y", "nvme.throughput"], "no column \"nope\"; the columns are: point, policy"),
        (vec![&tidy, "--x", "policy", "--y", "nope"], "the stats are: request.latency.p99, nvme.throughput"),
        (vec![&tidy, "--x", "policy", "--y", "nvme.throughput", "--series", "nope"], "no column \"nope\""),
        (vec![&tidy, "--x", "policy", "--y", "nvme.throughput", "--log-x"], "--log-x needs a numeric x"),
        (vec![&bad, "--x", "x", "--y", "y"], "line 3: y value \"fast\" is not a number"),
        (vec![&empty, "--x", "x", "--y", "y"], "empty"),
        (vec![&header_only, "--x", "x", "--y", "y"], "no data rows"),
        (vec![big.to_str().unwrap(), "--x", "x", "--y", "y"], "over 67108864 bytes (64 MiB) are refused"),
    ];
    for (args, want) in cases {
        let output = plot(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: want {want:?} in {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
