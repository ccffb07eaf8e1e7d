//! The bad-input catalogue: malformed or extreme inputs across every way a user feeds
//! sfsim (scenarios, sweeps, camera paths, images, DDS, containers, CLI flags, request
//! options). Each case runs the real binary in a scratch folder and must exit with code 2,
//! print its specific message, never panic, and finish inside a time and memory bound.
//!
//! A topic module returns its cases from `cases()`; `every_case_fails_clearly` runs them all
//! and reports every failure at once.

mod cameras;
mod cli_flags;
mod dds;
mod faults;
mod files;
mod scenarios;
mod set_and_out;
mod sweeps;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A valid 100 ms IO scenario: the base that flag and output cases run.
pub const GOOD_SCENARIO: &str = "Scenario(\n  name: \"t\",\n  duration: \"100ms\",\n  workload: Io(()),\n)\n";

/// One malformed input and what sfsim must say about it.
pub struct Case {
    /// Short name, shown when the case fails.
    pub name: &'static str,
    /// Files written into the scratch folder before the run (relative paths; `{repo}` in
    /// a text file is replaced as in `args`).
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// Arguments to `sfsim`, run in the scratch folder. `{repo}` is replaced by the
    /// repository root (for shipped scenarios and textures).
    pub args: Vec<&'static str>,
    /// Every string must appear in stderr (`{repo}` replaced as in `args`).
    pub expect: Vec<&'static str>,
}

impl Case {
    pub fn new(name: &'static str, args: &[&'static str], expect: &[&'static str]) -> Case {
        Case { name, files: Vec::new(), args: args.to_vec(), expect: expect.to_vec() }
    }

    pub fn file(mut self, path: &'static str, bytes: impl Into<Vec<u8>>) -> Case {
        self.files.push((path, bytes.into()));
        self
    }
}

/// Wall-clock bound per case (generous: the machine is shared and tests run in parallel).
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Address-space bound per case, applied with `prlimit --as` when prlimit exists.
const MEMORY_LIMIT_BYTES: u64 = 4 << 30;

fn all_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(scenarios::cases());
    cases.extend(set_and_out::cases());
    cases.extend(sweeps::cases());
    cases.extend(cameras::cases());
    cases.extend(files::cases());
    cases.extend(cli_flags::cases());
    cases.extend(dds::cases());
    cases.extend(faults::cases());
    cases
}

/// Runs one case; `Err` says how it failed.
fn check(case: &Case) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    for (path, bytes) in &case.files {
        let full = dir.path().join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        // Text files may name shipped files through `{repo}` too.
        let bytes = match std::str::from_utf8(bytes) {
            Ok(text) if text.contains("{repo}") => text.replace("{repo}", env!("CARGO_MANIFEST_DIR")).into_bytes(),
            _ => bytes.clone(),
        };
        std::fs::write(&full, bytes).map_err(|e| e.to_string())?;
    }
    let repo = env!("CARGO_MANIFEST_DIR");
    let args: Vec<String> = case.args.iter().map(|a| a.replace("{repo}", repo)).collect();
    let mut command = if has_prlimit() {
        let mut c = Command::new("prlimit");
        c.arg(format!("--as={MEMORY_LIMIT_BYTES}")).arg(env!("CARGO_BIN_EXE_sfsim"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_sfsim"))
    };
    command.args(&args).current_dir(dir.path()).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| e.to_string())?;
    let mut stderr_pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr_pipe.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIME_LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stderr = reader.join().unwrap_or_default();
    if stderr.contains("panicked") || stderr.contains("memory allocation of") {
        return Err(format!("panicked or aborted:\n{stderr}"));
    }
    if status.code() != Some(2) {
        return Err(format!("exit status {status}, expected code 2; stderr:\n{stderr}"));
    }
    let missing: Vec<_> =
        case.expect.iter().map(|e| e.replace("{repo}", repo)).filter(|e| !stderr.contains(e)).collect();
    if !missing.is_empty() {
        return Err(format!("stderr lacks {missing:?}:\n{stderr}"));
    }
    Ok(())
}

fn has_prlimit() -> bool {
    Command::new("prlimit").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

#[test]
fn every_case_fails_clearly() {
    let cases = all_cases();
    let failures: Vec<String> =
        cases.iter().filter_map(|case| check(case).err().map(|why| format!("case `{}`: {why}", case.name))).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

#[test]
fn the_catalogue_is_large_and_names_are_unique() {
    let cases = all_cases();
    let mut names: Vec<_> = cases.iter().map(|c| c.name).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "duplicate case names");
    assert!(before >= 80, "the catalogue has {before} cases; the issue asks for at least 80");
}
