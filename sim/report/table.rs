//! CSV tables for `sfsim plot`: reading (bounded size, quoted fields) and reshaping
//! into plot series.
//!
//! Two shapes are understood:
//!
//! * **wide** (`sweep.csv`): one row per point, one column per axis and per stat. A
//!   header may carry a unit as `name [unit]`; `--y name` matches either spelling.
//! * **tidy** (`results.csv`): one row per (point, stat), with columns `stat` and
//!   `value` (and optionally `unit`) beside the axis columns. A y names a stat; the
//!   rows with `stat == y` are plotted and the unit comes from the `unit` column.
//!
//! The x column is numeric when every value is a plain number or every value is a
//! quantity of one kind (`4MiB` → MiB, `250ms` → ms, `2000MB/s` → MB/s, as `sweep`
//! plots them); otherwise it is categorical, in first-appearance order.

use std::path::{Path, PathBuf};

mod reshape;

pub use reshape::{curves, is_tidy, split_unit, Curves, Selection, XAxis};

/// CSV files above this size are refused.
pub const MAX_CSV_BYTES: u64 = 64 << 20;

/// Errors from reading or reshaping a table; each says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is {size} bytes; CSVs over {limit} bytes (64 MiB) are refused", path.display())]
    TooLarge { path: PathBuf, size: u64, limit: u64 },
    #[error("the CSV is empty (no header line)")]
    Empty,
    #[error("the CSV has a header but no data rows")]
    NoRows,
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("no column {name:?}; the columns are: {}", available.join(", "))]
    NoColumn { name: String, available: Vec<String> },
    #[error("no rows with stat {name:?}; the stats are: {}", available.join(", "))]
    NoStat { name: String, available: Vec<String> },
    #[error("line {line}: {column} value {value:?} is not a number")]
    NotNumber { line: usize, column: String, value: String },
    #[error("{0}")]
    Invalid(String),
}

/// A parsed CSV: the header and the rows, each as long as the header.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The 1-based file line on which each row starts (for error messages).
    pub lines: Vec<usize>,
}

/// Reads and parses a CSV file, refusing files over [`MAX_CSV_BYTES`].
pub fn read_csv(path: &Path) -> Result<Table, TableError> {
    let io = |source| TableError::Io { path: path.to_path_buf(), source };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_CSV_BYTES {
        return Err(TableError::TooLarge { path: path.to_path_buf(), size, limit: MAX_CSV_BYTES });
    }
    let bytes = crate::limits::read(path, crate::limits::InputKind::Table).map_err(io)?;
    let text = String::from_utf8(bytes).map_err(|e| TableError::Invalid(format!("not UTF-8 text: {e}")))?;
    parse_csv(&text)
}

/// Parses CSV text (RFC 4180: `"` quotes, `""` inside quotes, CRLF or LF). Blank lines
/// are skipped; every row must have as many fields as the header.
pub fn parse_csv(text: &str) -> Result<Table, TableError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records: Vec<(usize, Vec<String>)> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    let mut start_line = 1;
    let mut field = String::new();
    let mut record: Vec<String> = Vec::new();
    let mut quoted = false;
    let mut pending = false; // a record has started
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => {
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => {
                quoted = true;
                pending = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                pending = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                if pending || !field.is_empty() {
                    record.push(std::mem::take(&mut field));
                    records.push((start_line, std::mem::take(&mut record)));
                }
                pending = false;
                line += 1;
                start_line = line;
            }
            c => {
                field.push(c);
                pending = true;
            }
        }
    }
    if quoted {
        return Err(TableError::Syntax { line: start_line, message: "unterminated quoted field".into() });
    }
    if pending || !field.is_empty() {
        record.push(field);
        records.push((start_line, record));
    }
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(TableError::Empty);
    };
    let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
    let mut table = Table { header, ..Default::default() };
    for (line, row) in records {
        if row.len() != table.header.len() {
            return Err(TableError::Syntax {
                line,
                message: format!("{} fields, the header has {}", row.len(), table.header.len()),
            });
        }
        table.rows.push(row.into_iter().map(|v| v.trim().to_string()).collect());
        table.lines.push(line);
    }
    if table.rows.is_empty() {
        return Err(TableError::NoRows);
    }
    Ok(table)
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
