//! Exact decimal text for integer times, without float formatting (the report's CSV and
//! trace writers print millions of times, and `{}` on an `f64` is their largest cost).

use sfsim_models::units::Time;

/// Appends `v` in decimal.
pub fn push_u64(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.push_str(ascii(&buf[at..]));
}

fn ascii(digits: &[u8]) -> &str {
    std::str::from_utf8(digits).expect("decimal digits are ASCII")
}

/// Appends `value / 10^decimals` exactly: the integer part, then the decimals with trailing
/// zeros trimmed, and no point when none are left (`1500, 3` → `1.5`, `2000, 3` → `2`).
pub fn push_fixed(out: &mut String, value: u64, decimals: u32) {
    let scale = 10u64.pow(decimals);
    push_u64(out, value / scale);
    let mut frac = value % scale;
    if frac == 0 {
        return;
    }
    let mut digits = decimals as usize;
    while frac.is_multiple_of(10) {
        frac /= 10;
        digits -= 1;
    }
    let mut buf = [b'0'; 20];
    for slot in buf[..digits].iter_mut().rev() {
        *slot = b'0' + (frac % 10) as u8;
        frac /= 10;
    }
    out.push('.');
    out.push_str(ascii(&buf[..digits]));
}

/// Picoseconds as exact microseconds (`1` → `0.000001`, `1_500_000` → `1.5`).
pub fn push_us(out: &mut String, ps: u64) {
    push_fixed(out, ps, 6);
}

/// Below this many picoseconds (1000 s) a time has at most 15 significant digits in
/// seconds, and such a decimal is exactly what `{}` prints for the nearest `f64`.
const EXACT_SECONDS_BELOW_PS: u64 = 1_000_000_000_000_000;

/// Appends `t` in seconds, byte for byte as `format!("{}", t.as_secs_f64())` writes it.
///
/// Up to 1000 s the text is built from the integer picoseconds. Why it matches: IEEE
/// division rounds `ps / 10^12` to the nearest `f64`, every decimal of at most 15
/// significant digits maps to a distinct `f64`, so the shortest text that maps back to
/// that `f64` — which is what `{}` prints — is the decimal itself. Longer times take the
/// float path.
pub fn push_secs(out: &mut String, t: Time) {
    if t.0 < EXACT_SECONDS_BELOW_PS {
        push_fixed(out, t.0, 12);
    } else {
        use std::fmt::Write as _;
        // Writing into a String cannot fail.
        let _ = write!(out, "{}", t.as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn secs(t: Time) -> String {
        let mut s = String::new();
        push_secs(&mut s, t);
        s
    }

    #[test]
    fn edges_print_as_the_float_does() {
        for ps in [
            0,
            1,
            9,
            10,
            999_999_999_999,
            1_000_000_000_000,
            1_500_000_000_000,
            16_666_666_666,
            EXACT_SECONDS_BELOW_PS - 1,
            EXACT_SECONDS_BELOW_PS,
            EXACT_SECONDS_BELOW_PS + 1,
            u64::MAX,
        ] {
            assert_eq!(secs(Time(ps)), format!("{}", Time(ps).as_secs_f64()), "{ps} ps");
        }
        let mut us = String::new();
        push_us(&mut us, 1);
        us.push(' ');
        push_us(&mut us, 1_500_000);
        us.push(' ');
        push_us(&mut us, 2_000_000);
        assert_eq!(us, "0.000001 1.5 2");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn seconds_match_the_float_text(ps in 0u64..EXACT_SECONDS_BELOW_PS, scale in 0u32..13) {
            // Round values (whole µs, ms, s …) are common in runs; test them as often.
            let ps = ps - ps % 10u64.pow(scale);
            prop_assert_eq!(secs(Time(ps)), format!("{}", Time(ps).as_secs_f64()));
        }

        #[test]
        fn fixed_matches_integer_formatting(v in any::<u64>(), decimals in 0u32..13) {
            let mut s = String::new();
            push_fixed(&mut s, v, decimals);
            let scale = 10u64.pow(decimals);
            let frac = format!("{:0width$}", v % scale, width = decimals as usize);
            let frac = frac.trim_end_matches('0');
            let expected = if frac.is_empty() { format!("{}", v / scale) } else { format!("{}.{frac}", v / scale) };
            prop_assert_eq!(s, expected);
        }
    }
}
