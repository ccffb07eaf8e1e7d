//! The MDU's zlib stage: `inflate` and `inflate_into` with a fuzzed declared size and
//! stream (layout: u32 declared size mod 128 KiB + 1, then the stream). Both entry points
//! and a reused `Inflater` must agree; a success is exactly the declared size.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sfsim_fuzz::{Bytes, ZLIB_MAX_DECLARED};
use sfsim_models::codec::zlib::{inflate, inflate_into, Inflater};
use std::cell::RefCell;

thread_local! {
    static INFLATER: RefCell<Inflater> = RefCell::new(Inflater::new());
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let declared = (b.u32() % (ZLIB_MAX_DECLARED + 1)) as usize;
    let src = b.rest();
    let fresh = inflate(src, declared);
    let reused = INFLATER.with(|i| i.borrow_mut().inflate(src, declared));
    assert_eq!(fresh, reused, "a reused Inflater must answer as a fresh one");
    if let Ok(out) = &fresh {
        assert_eq!(out.len(), declared);
        let mut buf = vec![0u8; declared];
        inflate_into(src, &mut buf).expect("inflate_into refused what inflate accepted");
        assert_eq!(&buf, out);
    }
});
