//! The MDU's functional decode (zlib → BCPack → swizzle) with arbitrary request options
//! and sizes (layout: `sfsim_fuzz::mdu_request`); sizes are capped at 256 KiB. A success is
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
    // The bare-stream path (`sfsim mdu`): sizes read from the data, then decoded. Without
    // zlib only: its zlib probe inflates into 32 MiB, too slow per execution (the zlib
    // stage has its own target).
    if !request.options.zlib {
        if let Ok(inferred) = infer_request(request.options, request.block_bytes, src) {
            if inferred.destination_size <= sfsim_fuzz::MDU_MAX_SIZE {
                let _ = decode(&inferred, src);
            }
        }
    }
});
