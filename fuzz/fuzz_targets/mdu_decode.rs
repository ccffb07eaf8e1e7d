//! The MDU's functional decode (zlib → BCPack → swizzle) with arbitrary request options
//! and sizes (layout: `sfsim_fuzz::mdu_request`); sizes are capped at 4 MiB. A success is
//! exactly the destination size, and `decode_into` agrees with `decode`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_models::mdu::{decode, decode_into, infer_request};

fuzz_target!(|data: &[u8]| {
    let (request, src) = sfsim_fuzz::mdu_request(data);
    let out = decode(&request, src);
    if let Ok(out) = &out {
        assert_eq!(out.len() as u64, request.destination_size);
        let mut dst = vec![0u8; out.len()];
        decode_into(&request, src, &mut dst).expect("decode_into refused what decode accepted");
        assert_eq!(&dst, out);
    }
    // The bare-stream path (`sfsim mdu`): sizes read from the data, then decoded. Its
    // zlib probe inflates against the 32 MiB limit, so only short sources go there.
    if src.len() <= 4096 {
        if let Ok(inferred) = infer_request(request.options, request.block_bytes, src) {
            if inferred.destination_size <= sfsim_fuzz::MDU_MAX_SIZE {
                let _ = decode(&inferred, src);
            }
        }
    }
});
