//! The scenario parser (`Scenario::from_text`: RON, validation, error location) with
//! `--set` overrides: the text up to the first NUL is the scenario, each NUL-separated
//! part after it an override `path=value`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::scenario::{Override, Scenario};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut parts = text.split('\0');
    let scenario = parts.next().unwrap_or_default();
    let overrides: Vec<Override> = parts.filter_map(|p| p.parse().ok()).collect();
    let file = sfsim_fuzz::repo_root().join("scenarios/fuzz.ron");
    if let Err(e) = Scenario::from_text(scenario, &file, &overrides) {
        let _ = e.to_string();
    }
});
