//! Tests of the units: parsing, formatting, round trips.

use super::*;
use proptest::prelude::*;

#[test]
fn parses_scenario_quantities_exactly() {
    assert_eq!(Time::parse("250ms").unwrap(), Time::from_ms(250));
    assert_eq!(Time::parse("16.7ms").unwrap(), Time(16_700_000_000));
    assert_eq!(Time::parse("2us").unwrap(), Time::from_us(2));
    assert_eq!(Rate::parse("2000MB/s").unwrap(), Rate(2_000_000_000));
    assert_eq!(Rate::parse("1.6GB/s").unwrap(), Rate(1_600_000_000));
    assert_eq!(Bytes::parse("64KiB").unwrap(), Bytes(65_536));
    assert_eq!(Bytes::parse("32MiB").unwrap(), Bytes(33_554_432));
    assert_eq!(Bytes::parse("500MB").unwrap(), Bytes(500_000_000));
}

#[test]
fn mb_and_mib_are_different_units() {
    assert_ne!(Bytes::parse("1MB").unwrap(), Bytes::parse("1MiB").unwrap());
    assert_eq!(Bytes::parse("1MiB").unwrap().to_string(), "1MiB");
    assert_eq!(Bytes::parse("1MB").unwrap().to_string(), "1MB");
}

#[test]
fn missing_or_unknown_units_are_errors() {
    assert!(matches!(Time::parse("250"), Err(UnitError::MissingUnit { .. })));
    // Range messages name "1h": it parses.
    assert_eq!(Time::parse("1h").unwrap(), Time::from_secs(3600));
    assert!(matches!(Bytes::parse("64kib"), Err(UnitError::UnknownUnit { .. })));
    assert!(matches!(Rate::parse("2000MB"), Err(UnitError::UnknownUnit { .. })));
    assert!(matches!(Bytes::parse("0.5B"), Err(UnitError::NotWhole { .. })));
    assert!(matches!(Time::parse("ms"), Err(UnitError::BadNumber { .. })));
    assert!(matches!(Time::parse("1.2.3ms"), Err(UnitError::BadNumber { .. })));
    assert!(matches!(Bytes::parse("99999999999TiB"), Err(UnitError::Overflow { .. })));
    let msg = Time::parse("250").unwrap_err().to_string();
    assert!(msg.contains("ms"), "{msg}");
}

#[test]
fn rate_time_conversion_never_exceeds_nominal_rate() {
    let r = Rate::parse("2400MB/s").unwrap();
    let t = r.time_for(Bytes::kib(32));
    assert!(r.bytes_in(t) >= Bytes::kib(32));
    assert!(r.bytes_in(t - Time(1)) < Bytes::kib(32));
}

proptest! {
    /// The 64-bit fast path gives the 128-bit formula's value on both sides of the
    /// point where `bytes × 10^12` stops fitting.
    #[test]
    fn time_for_equals_the_wide_formula(bytes in 0u64..40_000_000, rate in 1u64..100_000_000_000) {
        let wide = (u128::from(bytes) * 1_000_000_000_000).div_ceil(u128::from(rate));
        prop_assert_eq!(u128::from(Rate(rate).time_for(Bytes(bytes)).0), wide.min(u128::from(u64::MAX)));
    }

    #[test]
    fn time_display_round_trips(ps in 0u64..u64::MAX / 2) {
        let t = Time(ps);
        prop_assert_eq!(Time::parse(&t.to_string()).unwrap(), t);
    }
    #[test]
    fn bytes_display_round_trips(n in 0u64..u64::MAX / 2) {
        let b = Bytes(n);
        prop_assert_eq!(Bytes::parse(&b.to_string()).unwrap(), b);
    }
    #[test]
    fn rate_display_round_trips(n in 0u64..u64::MAX / 2) {
        let r = Rate(n);
        prop_assert_eq!(Rate::parse(&r.to_string()).unwrap(), r);
    }
    #[test]
    fn parse_never_panics(s in "\\PC{0,12}") {
        let _ = Time::parse(&s);
        let _ = Bytes::parse(&s);
        let _ = Rate::parse(&s);
    }
}
