//! Shared pieces of the line-based formats (per-frame CSV, TUM): exact number formatting,
//! fields with their columns, and number parsing with `file:line:col` errors.

use super::CameraError;
use glam::DQuat;
use std::path::Path;

/// The shortest decimal text that parses back to exactly `x` (Rust's shortest
/// round-trip formatting): plain notation for magnitudes in [1e-5, 1e16) and zero,
/// scientific (`1.5e-7`) otherwise. Non-finite values print as `inf` / `NaN`.
pub fn format_f64(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) || !x.is_finite() {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// One field of a line, with the 1-based column (in characters) where it starts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field<'a> {
    pub text: &'a str,
    pub col: usize,
}

/// Splits a line at `sep`, trimming spaces around each field.
pub(crate) fn split_fields(line: &str, sep: char) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut col = 1;
    for part in line.split(sep) {
        let lead = part.len() - part.trim_start().len();
        fields.push(Field { text: part.trim(), col: col + part[..lead].chars().count() });
        col += part.chars().count() + 1;
    }
    fields
}

/// Splits a line at runs of whitespace.
pub(crate) fn split_whitespace(line: &str) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, col)
    for (col0, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((i, col0 + 1)),
            (true, Some((s, col))) => {
                fields.push(Field { text: &line[s..i], col });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        fields.push(Field { text: &line[s..], col });
    }
    fields
}

/// Parses a finite number; the error names the column's meaning.
pub(crate) fn parse_f64(f: Field<'_>, name: &str, file: &Path, line: usize) -> Result<f64, CameraError> {
    match f.text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(CameraError::at(
            file,
            line,
            Some(f.col),
            format!("{name}: expected a finite number, found {:?}", f.text),
        )),
    }
}

/// Parses a non-negative integer.
pub(crate) fn parse_u64(f: Field<'_>, name: &str, file: &Path, line: usize) -> Result<u64, CameraError> {
    f.text.parse::<u64>().map_err(|_| {
        CameraError::at(file, line, Some(f.col), format!("{name}: expected a non-negative integer, found {:?}", f.text))
    })
}

/// A unit quaternion from its components. Zero length is an error at `col`. A quaternion
/// already of unit length (within 1e-12) is kept bit for bit, so that files written from
/// normalized poses re-read to the same numbers; others are normalized.
pub(crate) fn unit_quat([x, y, z, w]: [f64; 4], file: &Path, line: usize, col: usize) -> Result<DQuat, CameraError> {
    let q = DQuat::from_xyzw(x, y, z, w);
    let len = q.length();
    if !(len.is_finite() && len > 1e-12) {
        return Err(CameraError::at(
            file,
            line,
            Some(col),
            format!("quaternion ({x}, {y}, {z}, {w}) has zero length; expected a rotation (qx, qy, qz, qw)"),
        ));
    }
    Ok(if (len - 1.0).abs() <= 1e-12 { q } else { q / len })
}

/// Names the first missing column, for "expected N columns" errors.
pub(crate) fn missing_columns(names: &[&str], found: usize) -> String {
    if found < names.len() {
        format!("; missing {}", names[found..].join(", "))
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn fields_know_their_columns() {
        let f = split_fields("1, 2.5 ,x", ',');
        assert_eq!(f.iter().map(|f| (f.text, f.col)).collect::<Vec<_>>(), [("1", 1), ("2.5", 4), ("x", 9)]);
        let f = split_whitespace("  1.0\t2  é3 ");
        assert_eq!(f.iter().map(|f| (f.text, f.col)).collect::<Vec<_>>(), [("1.0", 3), ("2", 7), ("é3", 10)]);
    }

    #[test]
    fn formats_readably() {
        assert_eq!(format_f64(1.0), "1");
        assert_eq!(format_f64(-0.5), "-0.5");
        assert_eq!(format_f64(0.0), "0");
        assert_eq!(format_f64(-0.0), "-0");
        assert_eq!(format_f64(6.123233995736766e-17), "6.123233995736766e-17");
        assert_eq!(format_f64(1e300), "1e300");
    }

    proptest! {
        #[test]
        fn every_finite_number_round_trips(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let back: f64 = format_f64(x).parse().unwrap();
            prop_assert_eq!(back.to_bits(), x.to_bits());
        }
    }
}
