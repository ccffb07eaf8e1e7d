//! Tests that the units' arithmetic saturates.

use super::*;

#[test]
fn time_and_bytes_saturate_instead_of_wrapping() {
    assert_eq!(Time::MAX + Time(1), Time::MAX);
    let mut t = Time(u64::MAX - 1);
    t += Time::from_secs(1);
    assert_eq!(t, Time::MAX);
    assert_eq!(Bytes(u64::MAX) + Bytes(5), Bytes(u64::MAX));
    assert_eq!(Time::MAX.mul_div(3, 1), Time::MAX);
    // A 1 B/s drive's 64 KiB read ends 65536 s later: far past any run, not wrapped.
    let end = Time::from_secs(1) + Rate::bytes_per_sec(1).time_for(Bytes::kib(64));
    assert_eq!(end, Time::from_secs(65_537));
    assert_eq!(Time::from_secs(1) + Rate::bytes_per_sec(0).time_for(Bytes(1)), Time::MAX);
}
