//! Stat names and units are API (scripts and regression baselines read them): a golden
//! list per workload kind, and the frames.csv columns. To accept an intended change, run
//! with `SFSIM_UPDATE_GOLDEN=1` and commit the rewritten files under tests/golden/.

use crate::common::{repo, run_file};

pub(crate) fn check_golden(file: &str, actual: String) {
    let path = repo(&format!("tests/golden/{file}"));
    if std::env::var_os("SFSIM_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let gone: Vec<&str> = expected.lines().filter(|l| !actual.lines().any(|a| a == *l)).collect();
        let new: Vec<&str> = actual.lines().filter(|l| !expected.lines().any(|e| e == *l)).collect();
        panic!(
            "{file} changed (names are API; SFSIM_UPDATE_GOLDEN=1 rewrites it):\n  gone: {gone:?}\n  new: {new:?}\n  \
             (or the order changed)"
        );
    }
}

fn names_and_units(file: &str, sets: &[&str]) -> String {
    let stats = run_file(file, sets);
    stats.iter().map(|s| format!("{} [{}]\n", s.name, s.unit)).collect()
}

#[test]
fn stream_stats_keep_their_names_and_units() {
    check_golden("stats-stream.txt", names_and_units("scenarios/quickstart.ron", &["duration=1s"]));
}

#[test]
fn io_stats_keep_their_names_and_units() {
    check_golden("stats-io.txt", names_and_units("scenarios/io/quick.ron", &[]));
}

#[test]
fn render_stats_keep_their_names_and_units() {
    check_golden(
        "stats-render.txt",
        names_and_units("scenarios/render/cube-grid.ron", &["duration=100ms", "workload.render.resolution=(320, 180)"]),
    );
}

#[test]
fn frames_csv_keeps_its_columns_and_units() {
    let columns: String = sfsim::output::frame_columns().map(|(name, unit)| format!("{name} [{unit}]\n")).collect();
    check_golden("frames-columns.txt", columns);
}
