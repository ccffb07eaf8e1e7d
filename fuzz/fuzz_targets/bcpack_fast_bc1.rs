//! BCPack's Bc1 decoder, Profile::Fast (method Fast), on fuzzed payloads behind a valid
//! header (layout: `sfsim_fuzz::bcpack_stream`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_models::codec::bcpack::{BcpackMode, Method};

fuzz_target!(|data: &[u8]| sfsim_fuzz::fuzz_bcpack(BcpackMode::Bc1, Method::Fast, data));
