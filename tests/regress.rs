//! `sfsim regress`: record, pass untouched, fail on a worsened parameter naming the stats,
//! refuse a changed config, JUnit XML a standard reader accepts.

use crate::common::{repo, sfsim};
use std::path::Path;

/// A baseline folder with one baseline of the IO quickstart (300 ms) and a copy of its
/// scenario, so a test may edit the scenario.
fn baselines(dir: &Path) -> std::path::PathBuf {
    let folder = dir.join("baselines");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(repo("scenarios/io/quick.ron"), dir.join("quick.ron")).unwrap();
    let baseline = r#"{
  "scenario": "../quick.ron",
  "set": ["duration=300ms"],
  "tolerances": { "nvme.throughput": { "better": "higher", "relative": 0.01 },
                  "request.latency.*": { "better": "lower", "relative": 0.05 } }
}"#;
    std::fs::write(folder.join("io.json"), baseline).unwrap();
    folder
}

fn regress(folder: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    sfsim().arg("regress").arg("--baselines").arg(folder).arg("--out").arg(out).args(extra).output().unwrap()
}

#[test]
fn record_pass_worsen_and_refuse_a_changed_config() {
    let dir = tempfile::tempdir().unwrap();
    let folder = baselines(dir.path());
    let out = dir.path().join("out");

    // Not recorded yet: fails, saying how to record.
    let o = regress(&folder, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).contains("NOT RECORDED"));

    let o = regress(&folder, &out, &["--update"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recorded = std::fs::read_to_string(folder.join("io.json")).unwrap();
    assert!(recorded.contains("\"config_hash\"") && recorded.contains("\"nvme.throughput\""), "{recorded}");
    assert!(!recorded.contains("host."), "host-speed stats stay out of simulated baselines");

    // An untouched tree passes.
    let o = regress(&folder, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));

    // Halving the drive regresses, naming the stats.
    let o =
        regress(&folder, &out, &["--set", "hardware.nvme.guaranteed=1000MB/s", "--set", "hardware.nvme.peak=1200MB/s"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("io: nvme.throughput") && err.contains("io: request.latency.p50"), "{err}");
    let md = std::fs::read_to_string(out.join("regress.md")).unwrap();
    assert!(md.contains("| nvme.throughput |") && md.contains("higher is better, ±1% | REGRESSED"), "{md}");

    // A JUnit reader sees one suite, a test case per stat and the failures.
    let xml = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed JUnit XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suite = root.children().find(|n| n.has_tag_name("testsuite")).expect("a testsuite");
    assert_eq!(suite.attribute("name"), Some("io"));
    let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(suite.attribute("tests"), Some(cases.len().to_string().as_str()));
    let failed: Vec<&str> = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .filter_map(|c| c.attribute("name"))
        .collect();
    assert!(failed.contains(&"nvme.throughput"), "{failed:?}");
    assert_eq!(suite.attribute("failures"), Some(failed.len().to_string().as_str()));
    assert_eq!(root.attribute("failures"), suite.attribute("failures"));

    // Editing the scenario changes its config: said so, not compared.
    let text = std::fs::read_to_string(dir.path().join("quick.ron")).unwrap().replace("\"64MiB\"", "\"32MiB\"");
    std::fs::write(dir.path().join("quick.ron"), text).unwrap();
    let o = regress(&folder, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("CONFIG CHANGED") && md.contains("--update --only io"), "{md}");
    assert!(!md.contains("REGRESSED"), "a changed config is not compared stat by stat");

    // Accepting the change: --update, then regress passes.
    assert!(regress(&folder, &out, &["--update"]).status.success());
    assert!(regress(&folder, &out, &[]).status.success());
}

#[test]
fn bad_baselines_and_flags_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let folder = baselines(dir.path());
    let out = dir.path().join("out");
    let o = regress(&folder, &out, &["--only", "nope"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--only nope: no baseline nope.json") && err.contains("io"), "{err}");
    std::fs::write(
        folder.join("bad.json"),
        r#"{ "scenario": "../quick.ron", "tolerances": { "x": { "relative": -1 } } }"#,
    )
    .unwrap();
    std::fs::write(folder.join("both.json"), r#"{ "scenario": "a.ron", "sweep": "b.ron" }"#).unwrap();
    std::fs::write(folder.join("typo.json"), r#"{ "scenrio": "a.ron" }"#).unwrap();
    let o = regress(&folder, &out, &["--only", "bad", "--only", "both", "--only", "typo"]);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success());
    assert!(md.contains("bad.json: tolerances.x: relative -1 is out of range; expected a finite value ≥ 0"), "{md}");
    assert!(md.contains("both.json: give exactly one of \"scenario\" or \"sweep\""), "{md}");
    assert!(md.contains("typo.json: line 1 column") && md.contains("unknown field `scenrio`"), "{md}");
}

#[test]
fn the_shipped_baselines_name_existing_scenarios_and_are_recorded() {
    let folder = repo("reports/baselines");
    let files = sfsim::regress::baseline_files(&folder).unwrap();
    assert!(files.len() >= 4, "{files:?}");
    for (name, file) in files {
        let b = sfsim::regress::baseline::Baseline::load(&file).unwrap();
        assert!(!b.stats.is_empty() && !b.config_hash.is_empty(), "{name} is recorded");
        if b.scenario.is_some() {
            // The recorded config is what the scenario resolves to today.
            let (_, hash) = sfsim::regress::baseline::scenario_config(&file, &b, &[]).unwrap();
            assert_eq!(hash, b.config_hash, "{name}: rerun sfsim regress --update --only {name}");
        }
    }
}
