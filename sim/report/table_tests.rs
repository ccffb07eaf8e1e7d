//! Tests of `table.rs`: CSV parsing and its errors, and reshaping wide and tidy
//! tables into series.

use super::*;
use crate::report::Series;

fn sel(x: &str, ys: &[&str], series: Option<&str>) -> Selection {
    Selection { x: x.into(), ys: ys.iter().map(|s| s.to_string()).collect(), series: series.map(String::from) }
}

#[test]
fn parses_quotes_crlf_and_blank_lines() {
    let t = parse_csv("\u{feff}a,b\r\n\"x, \"\"y\"\"\",2\r\n\r\n3,\"multi\nline\"\n").unwrap();
    assert_eq!(t.header, ["a", "b"]);
    assert_eq!(t.rows, [vec!["x, \"y\"".to_string(), "2".into()], vec!["3".into(), "multi\nline".into()]]);
    assert_eq!(t.lines, [2, 4]);
}

#[test]
fn syntax_errors_name_the_line() {
    assert!(matches!(parse_csv(""), Err(TableError::Empty)));
    assert!(matches!(parse_csv("\n\n"), Err(TableError::Empty)));
    assert!(matches!(parse_csv("a,b\n"), Err(TableError::NoRows)));
    let e = parse_csv("a,b\n1,2\n3\n").unwrap_err();
    assert_eq!(e.to_string(), "line 3: 1 fields, the header has 2");
    assert!(matches!(parse_csv("a\n\"open\n"), Err(TableError::Syntax { line: 2, .. })));
}

#[test]
fn wide_sweep_csv_with_quantity_x_sorted() {
    let t =
        parse_csv("workload.in_flight,nvme.throughput,nvme.window_min\n16MiB,2300.5,1990\n4MiB,1200,n/a\n").unwrap();
    let c = curves(&t, &sel("workload.in_flight", &["nvme.throughput", "nvme.window_min"], None)).unwrap();
    assert!(!c.tidy);
    assert_eq!(c.x_axis, XAxis::Numeric);
    assert_eq!(c.x_label, "workload.in_flight [MiB]");
    assert_eq!(c.y_label, "nvme.throughput, nvme.window_min");
    assert_eq!(c.series.len(), 2);
    assert_eq!(c.series[0], Series::new("nvme.throughput", vec![(4.0, 1200.0), (16.0, 2300.5)]));
    // "n/a" (a stat the run did not produce) is skipped, not an error.
    assert_eq!(c.series[1], Series::new("nvme.window_min", vec![(16.0, 1990.0)]));
}

#[test]
fn wide_headers_with_units() {
    let t = parse_csv("depth [MiB],throughput [MB/s]\n2,10\n1,5\n").unwrap();
    let c = curves(&t, &sel("depth", &["throughput [MB/s]"], None)).unwrap();
    assert_eq!((c.x_label.as_str(), c.y_label.as_str()), ("depth [MiB]", "throughput [MB/s]"));
    assert_eq!(c.series[0].points, [(1.0, 5.0), (2.0, 10.0)]);
}

#[test]
fn tidy_filters_by_stat_and_takes_the_unit() {
    let t = parse_csv(
        "point,in_flight,stat,value,unit\n0,4MiB,nvme.throughput,1200,MB/s\n0,4MiB,p99,3.5,ms\n\
         1,16MiB,nvme.throughput,2300,MB/s\n1,16MiB,p99,9,ms\n",
    )
    .unwrap();
    let c = curves(&t, &sel("in_flight", &["nvme.throughput"], None)).unwrap();
    assert!(c.tidy);
    assert_eq!(c.y_label, "nvme.throughput [MB/s]");
    assert_eq!(c.series, [Series::new("nvme.throughput", vec![(4.0, 1200.0), (16.0, 2300.0)])]);
    let two = curves(&t, &sel("in_flight", &["nvme.throughput", "p99"], None)).unwrap();
    assert_eq!(two.y_label, "nvme.throughput [MB/s], p99 [ms]");
    let e = curves(&t, &sel("in_flight", &["nope"], None)).unwrap_err();
    assert_eq!(e.to_string(), "no rows with stat \"nope\"; the stats are: nvme.throughput, p99");
}

#[test]
fn series_split_and_categorical_x_in_first_appearance_order() {
    let t = parse_csv(
        "point,policy,drive,stat,value,unit\n0,Lru,slow,lat,5,ms\n1,Lru,fast,lat,2,ms\n\
         2,Fifo,slow,lat,7,ms\n3,Fifo,fast,lat,3,ms\n4,Clock,fast,other,1,\n",
    )
    .unwrap();
    let c = curves(&t, &sel("policy", &["lat"], Some("drive"))).unwrap();
    // Clock appears only in rows of another stat: not a category of this plot.
    assert_eq!(c.x_axis, XAxis::Categories(vec!["Lru".into(), "Fifo".into()]));
    assert_eq!(c.x_label, "policy");
    assert_eq!(
        c.series,
        [Series::new("slow", vec![(0.0, 5.0), (1.0, 7.0)]), Series::new("fast", vec![(0.0, 2.0), (1.0, 3.0)])]
    );
}

#[test]
fn mixed_x_is_categorical_and_errors_are_clear() {
    let t = parse_csv("x,y\n4MiB,1\n250ms,2\n").unwrap();
    let c = curves(&t, &sel("x", &["y"], None)).unwrap();
    assert_eq!(c.x_axis, XAxis::Categories(vec!["4MiB".into(), "250ms".into()]));
    let e = curves(&t, &sel("z", &["y"], None)).unwrap_err();
    assert_eq!(e.to_string(), "no column \"z\"; the columns are: x, y");
    let t = parse_csv("x,y\n1,2\n2,fast\n").unwrap();
    let e = curves(&t, &sel("x", &["y"], None)).unwrap_err();
    assert_eq!(e.to_string(), "line 3: y value \"fast\" is not a number");
}

#[test]
fn refuses_oversized_and_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.csv");
    std::fs::File::create(&big).unwrap().set_len(MAX_CSV_BYTES + 1).unwrap();
    assert!(matches!(read_csv(&big), Err(TableError::TooLarge { .. })));
    assert!(matches!(read_csv(&dir.path().join("none.csv")), Err(TableError::Io { .. })));
}
