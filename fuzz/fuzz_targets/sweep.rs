//! The sweep-file parser (`SweepFile::from_text`) and the plan built from it
//! (`Plan::new`: axes, expansion, overrides into the base scenario, which is read from
//! the repository's scenarios/ relative to scenarios/sweeps/).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::sweep::spec::SweepFile;
use sfsim::sweep::Plan;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = sfsim_fuzz::repo_root().join("scenarios/sweeps/fuzz.ron");
    match SweepFile::from_text(text.to_string(), &file) {
        Ok(sweep) => {
            if let Err(e) = Plan::new(sweep) {
                let _ = e.to_string();
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
