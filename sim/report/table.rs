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

use super::{CategoryPlot, LinePlot, Plot, Series};
use sfsim_models::units::{Bytes, Rate, Time};
use std::path::{Path, PathBuf};

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

/// Splits a `name [unit]` header into its name and unit.
pub fn split_unit(header: &str) -> (&str, &str) {
    if let Some(open) = header.rfind(" [") {
        if let Some(unit) = header[open + 2..].strip_suffix(']') {
            return (header[..open].trim_end(), unit);
        }
    }
    (header, "")
}

/// The value of a numeric x cell: a plain number, or a quantity and its plot unit.
fn quantity(value: &str) -> Option<(f64, &'static str)> {
    if let Ok(v) = value.parse::<f64>() {
        Some((v, ""))
    } else if let Ok(b) = Bytes::parse(value) {
        Some((b.0 as f64 / (1u64 << 20) as f64, "MiB"))
    } else if let Ok(t) = Time::parse(value) {
        Some((t.as_ms_f64(), "ms"))
    } else if let Ok(r) = Rate::parse(value) {
        Some((r.as_mb_per_sec_f64(), "MB/s"))
    } else {
        None
    }
}

/// What to plot from a table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Selection {
    /// The x column.
    pub x: String,
    /// Wide: the y columns; tidy: the stats.
    pub ys: Vec<String>,
    /// A column whose distinct values split each y into series.
    pub series: Option<String>,
}

/// The x axis of [`Curves`].
#[derive(Debug, Clone, PartialEq)]
pub enum XAxis {
    /// Points sit at their numeric x and are sorted by it.
    Numeric,
    /// Point x is the index into these categories (first-appearance order).
    Categories(Vec<String>),
}

/// Series ready to plot, with labels carrying units where known.
#[derive(Debug, Clone, PartialEq)]
pub struct Curves {
    pub x_label: String,
    pub y_label: String,
    pub x_axis: XAxis,
    pub series: Vec<Series>,
    /// True for the tidy shape (`stat` and `value` columns).
    pub tidy: bool,
}

impl Curves {
    /// The plot of these curves: lines over a numeric x, markers over categories (where a
    /// log x axis is refused).
    pub fn into_plot(self, file_stem: String, title: String, log_x: bool) -> Result<Plot, TableError> {
        Ok(match self.x_axis {
            XAxis::Numeric => Plot::Line(LinePlot {
                file_stem,
                title,
                x_label: self.x_label,
                y_label: self.y_label,
                series: self.series,
                hlines: vec![],
                log_x,
            }),
            XAxis::Categories(categories) => {
                if log_x {
                    return Err(TableError::Invalid(format!(
                        "--log-x needs a numeric x (log_x in a sweep file), and {} has values such as {:?}",
                        self.x_label, categories[0]
                    )));
                }
                Plot::Category(CategoryPlot {
                    file_stem,
                    title,
                    x_label: self.x_label,
                    y_label: self.y_label,
                    categories,
                    series: self.series,
                })
            }
        })
    }
}

/// True if the table is tidy: it has `stat` and `value` columns.
pub fn is_tidy(table: &Table) -> bool {
    table.header.iter().any(|h| h == "stat") && table.header.iter().any(|h| h == "value")
}

/// Reshapes `table` into one series per y (per distinct `series` value within each y).
pub fn curves(table: &Table, sel: &Selection) -> Result<Curves, TableError> {
    if sel.ys.is_empty() {
        return Err(TableError::Invalid("no y column given".into()));
    }
    let column = |name: &str| -> Result<usize, TableError> {
        table
            .header
            .iter()
            .position(|h| h == name || split_unit(h).0 == name)
            .ok_or_else(|| TableError::NoColumn { name: name.to_string(), available: table.header.clone() })
    };
    let tidy = is_tidy(table);
    let xc = column(&sel.x)?;
    let sc = sel.series.as_deref().map(column).transpose()?;

    // (y name, y unit, rows, value column) per y.
    let mut picks: Vec<(String, String, Vec<usize>, usize)> = Vec::new();
    if tidy {
        let stat = column("stat")?;
        let value = column("value")?;
        let unit = table.header.iter().position(|h| h == "unit");
        for y in &sel.ys {
            let rows: Vec<usize> = (0..table.rows.len()).filter(|&r| &table.rows[r][stat] == y).collect();
            if rows.is_empty() {
                let mut available: Vec<String> = Vec::new();
                for row in &table.rows {
                    if !available.contains(&row[stat]) {
                        available.push(row[stat].clone());
                    }
                }
                return Err(TableError::NoStat { name: y.clone(), available });
            }
            let u = unit.and_then(|u| rows.iter().map(|&r| &table.rows[r][u]).find(|s| !s.is_empty()));
            picks.push((y.clone(), u.cloned().unwrap_or_default(), rows, value));
        }
    } else {
        for y in &sel.ys {
            let c = column(y)?;
            let (name, unit) = split_unit(&table.header[c]);
            picks.push((name.to_string(), unit.to_string(), (0..table.rows.len()).collect(), c));
        }
    }

    // The x axis, over the rows that are plotted.
    let x_cells: Vec<&str> = {
        let mut seen = vec![false; table.rows.len()];
        let mut cells = Vec::new();
        for &r in picks.iter().flat_map(|p| &p.2) {
            if !std::mem::replace(&mut seen[r], true) {
                cells.push(table.rows[r][xc].as_str());
            }
        }
        cells
    };
    let (x_name, mut x_unit) = split_unit(&table.header[xc]);
    let parsed: Option<Vec<(f64, &str)>> = x_cells.iter().map(|v| quantity(v)).collect();
    let numeric_unit = parsed.as_ref().and_then(|p| {
        let first = p.first().map_or("", |q| q.1);
        p.iter().all(|q| q.1 == first).then_some(first)
    });
    let categories: Option<Vec<String>> = match numeric_unit {
        Some(unit) => {
            if x_unit.is_empty() {
                x_unit = unit;
            }
            None
        }
        None => {
            let mut cats: Vec<String> = Vec::new();
            for c in &x_cells {
                if !cats.iter().any(|k| k == c) {
                    cats.push(c.to_string());
                }
            }
            Some(cats)
        }
    };
    let x_of = |r: usize| -> f64 {
        let cell = &table.rows[r][xc];
        match &categories {
            Some(cats) => cats.iter().position(|k| k == cell).unwrap_or(0) as f64,
            None => quantity(cell).map_or(f64::NAN, |q| q.0),
        }
    };

    let mut series = Vec::new();
    for (name, _, rows, vc) in &picks {
        // Group the rows by the series column, in first-appearance order.
        let mut groups: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for &r in rows {
            let cell = &table.rows[r][*vc];
            let y = match cell.as_str() {
                "" | "n/a" | "NaN" | "nan" => continue,
                v => v.parse::<f64>().map_err(|_| TableError::NotNumber {
                    line: table.lines[r],
                    column: if tidy { format!("value (stat {name})") } else { name.clone() },
                    value: cell.clone(),
                })?,
            };
            let key = sc.map_or(String::new(), |c| table.rows[r][c].clone());
            let point = (x_of(r), y);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1.push(point),
                None => groups.push((key, vec![point])),
            }
        }
        for (key, mut points) in groups {
            if categories.is_none() {
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            let label = match (sc, sel.ys.len()) {
                (None, _) => name.clone(),
                (Some(_), 1) => key,
                (Some(_), _) => format!("{name} {key}"),
            };
            series.push(Series { label, points });
        }
    }

    let with_unit =
        |name: &str, unit: &str| if unit.is_empty() { name.to_string() } else { format!("{name} [{unit}]") };
    let first_unit = &picks[0].1;
    let y_label = if picks.iter().all(|p| &p.1 == first_unit) {
        with_unit(&picks.iter().map(|p| p.0.as_str()).collect::<Vec<_>>().join(", "), first_unit)
    } else {
        picks.iter().map(|p| with_unit(&p.0, &p.1)).collect::<Vec<_>>().join(", ")
    };
    Ok(Curves {
        x_label: with_unit(x_name, x_unit),
        y_label,
        x_axis: categories.map_or(XAxis::Numeric, XAxis::Categories),
        series,
        tidy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(x: &str, ys: &[&str], series: Option<&str>) -> Selection {
        Selection { x: x.into(), ys: ys.iter().map(|s| s.to_string()).collect(), series: series.map(String::from) }
    }

    #[test]
    fn parses_quotes_crlf_and_blank_lines() {
        let t = parse_csv("\u{feff}a,b\r\n\"x, \"\"y\"\"\",2\r\n\r\n3,\"multi\nline\"\n").unwrap();
        assert_eq!(t.header, ["a", "b"]);
        assert_eq!(t.rows, [vec!["x, \"y\"".to_string(), "2".into()], vec!["3".into(), "multi\nline".into()]]);
        assert_eq!(t.lines, [2, 4]);
    }

    #[test]
    fn syntax_errors_name_the_line() {
        assert!(matches!(parse_csv(""), Err(TableError::Empty)));
        assert!(matches!(parse_csv("\n\n"), Err(TableError::Empty)));
        assert!(matches!(parse_csv("a,b\n"), Err(TableError::NoRows)));
        let e = parse_csv("a,b\n1,2\n3\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: 1 fields, the header has 2");
        assert!(matches!(parse_csv("a\n\"open\n"), Err(TableError::Syntax { line: 2, .. })));
    }

    #[test]
    fn wide_sweep_csv_with_quantity_x_sorted() {
        let t = parse_csv("workload.in_flight,nvme.throughput,nvme.window_min\n16MiB,2300.5,1990\n4MiB,1200,n/a\n")
            .unwrap();
        let c = curves(&t, &sel("workload.in_flight", &["nvme.throughput", "nvme.window_min"], None)).unwrap();
        assert!(!c.tidy);
        assert_eq!(c.x_axis, XAxis::Numeric);
        assert_eq!(c.x_label, "workload.in_flight [MiB]");
        assert_eq!(c.y_label, "nvme.throughput, nvme.window_min");
        assert_eq!(c.series.len(), 2);
        assert_eq!(c.series[0], Series::new("nvme.throughput", vec![(4.0, 1200.0), (16.0, 2300.5)]));
        // "n/a" (a stat the run did not produce) is skipped, not an error.
        assert_eq!(c.series[1], Series::new("nvme.window_min", vec![(16.0, 1990.0)]));
    }

    #[test]
    fn wide_headers_with_units() {
        let t = parse_csv("depth [MiB],throughput [MB/s]\n2,10\n1,5\n").unwrap();
        let c = curves(&t, &sel("depth", &["throughput [MB/s]"], None)).unwrap();
        assert_eq!((c.x_label.as_str(), c.y_label.as_str()), ("depth [MiB]", "throughput [MB/s]"));
        assert_eq!(c.series[0].points, [(1.0, 5.0), (2.0, 10.0)]);
    }

    #[test]
    fn tidy_filters_by_stat_and_takes_the_unit() {
        let t = parse_csv(
            "point,in_flight,stat,value,unit\n0,4MiB,nvme.throughput,1200,MB/s\n0,4MiB,p99,3.5,ms\n\
             1,16MiB,nvme.throughput,2300,MB/s\n1,16MiB,p99,9,ms\n",
        )
        .unwrap();
        let c = curves(&t, &sel("in_flight", &["nvme.throughput"], None)).unwrap();
        assert!(c.tidy);
        assert_eq!(c.y_label, "nvme.throughput [MB/s]");
        assert_eq!(c.series, [Series::new("nvme.throughput", vec![(4.0, 1200.0), (16.0, 2300.0)])]);
        let two = curves(&t, &sel("in_flight", &["nvme.throughput", "p99"], None)).unwrap();
        assert_eq!(two.y_label, "nvme.throughput [MB/s], p99 [ms]");
        let e = curves(&t, &sel("in_flight", &["nope"], None)).unwrap_err();
        assert_eq!(e.to_string(), "no rows with stat \"nope\"; the stats are: nvme.throughput, p99");
    }

    #[test]
    fn series_split_and_categorical_x_in_first_appearance_order() {
        let t = parse_csv(
            "point,policy,drive,stat,value,unit\n0,Lru,slow,lat,5,ms\n1,Lru,fast,lat,2,ms\n\
             2,Fifo,slow,lat,7,ms\n3,Fifo,fast,lat,3,ms\n4,Clock,fast,other,1,\n",
        )
        .unwrap();
        let c = curves(&t, &sel("policy", &["lat"], Some("drive"))).unwrap();
        // Clock appears only in rows of another stat: not a category of this plot.
        assert_eq!(c.x_axis, XAxis::Categories(vec!["Lru".into(), "Fifo".into()]));
        assert_eq!(c.x_label, "policy");
        assert_eq!(
            c.series,
            [Series::new("slow", vec![(0.0, 5.0), (1.0, 7.0)]), Series::new("fast", vec![(0.0, 2.0), (1.0, 3.0)])]
        );
    }

    #[test]
    fn mixed_x_is_categorical_and_errors_are_clear() {
        let t = parse_csv("x,y\n4MiB,1\n250ms,2\n").unwrap();
        let c = curves(&t, &sel("x", &["y"], None)).unwrap();
        assert_eq!(c.x_axis, XAxis::Categories(vec!["4MiB".into(), "250ms".into()]));
        let e = curves(&t, &sel("z", &["y"], None)).unwrap_err();
        assert_eq!(e.to_string(), "no column \"z\"; the columns are: x, y");
        let t = parse_csv("x,y\n1,2\n2,fast\n").unwrap();
        let e = curves(&t, &sel("x", &["y"], None)).unwrap_err();
        assert_eq!(e.to_string(), "line 3: y value \"fast\" is not a number");
    }

    #[test]
    fn refuses_oversized_and_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.csv");
        std::fs::File::create(&big).unwrap().set_len(MAX_CSV_BYTES + 1).unwrap();
        assert!(matches!(read_csv(&big), Err(TableError::TooLarge { .. })));
        assert!(matches!(read_csv(&dir.path().join("none.csv")), Err(TableError::Io { .. })));
    }
}
