//! Camera generator RON (`Generator::from_text`, then `build`), then poses at awkward
//! times and frames.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim::camera::Generator;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(generator) = Generator::from_text(text, std::path::Path::new("fuzz.gen.ron")) {
        if let Ok(path) = generator.build() {
            sfsim_fuzz::poses(&path);
        }
    }
});
