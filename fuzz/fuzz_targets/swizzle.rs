//! The swizzle stage: `apply` (the MDU's direction) and `unapply` (the packer's) on fuzzed
//! modes, block sizes and lengths (layout: `sfsim_fuzz::swizzle_input`). Where both
//! succeed they keep the length and `unapply` undoes `apply`; on short inputs also
//! `apply` undoes `unapply` and `apply_into` agrees with `apply` (skipped on whole tiles
//! to keep executions fast).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_models::codec::swizzle::{apply, apply_into, unapply};
use sfsim_models::nvme::SwizzleMode;

fuzz_target!(|data: &[u8]| {
    let (raw, block_bytes, bytes) = sfsim_fuzz::swizzle_input(data);
    let Some(mode) = SwizzleMode::from_raw(raw) else { return };
    let applied = apply(mode, block_bytes, &bytes);
    let unapplied = unapply(mode, block_bytes, &bytes);
    assert_eq!(applied.is_ok(), unapplied.is_ok(), "apply and unapply accept the same inputs");
    if let (Ok(a), Ok(u)) = (&applied, &unapplied) {
        assert_eq!(a.len(), bytes.len());
        assert_eq!(unapply(mode, block_bytes, a).expect("unapply of apply's output"), bytes);
        if bytes.len() > 8192 {
            return;
        }
        assert_eq!(apply(mode, block_bytes, u).expect("apply of unapply's output"), bytes);
        let mut dst = vec![0u8; bytes.len()];
        apply_into(mode, block_bytes, &bytes, &mut dst).expect("apply_into");
        assert_eq!(&dst, a);
    }
});
