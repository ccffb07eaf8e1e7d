//! From a parsed table to plot series: which shape it has (wide or tidy), whether
//! its x is numeric or categorical, and how rows group into labelled series. Kept
//! apart from the CSV reading, which knows nothing of plots.

use super::{Table, TableError};
use crate::report::{CategoryPlot, LinePlot, Plot, Series};
use sfsim_models::units::{Bytes, Rate, Time};

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
