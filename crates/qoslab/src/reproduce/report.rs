//! Tables of results beside the published values: text for the terminal, CSV for files.
//!
//! Each cell shows our mean over seeds with the half-width of its 95 % interval, the
//! published value, and the difference ours − published, absolute and relative to the
//! published value. A published value that is missing (withheld or absent from the seed
//! copy, or a row the source does not have) leaves the last three empty: ours alone.

use std::fmt::Write as _;

use super::experiment::Table;
use super::stats::Summary;

/// One computed cell.
#[derive(Clone, Debug, PartialEq)]
pub struct CellResult {
    /// One value per run (seed order); NaN where the metric could not be computed.
    pub values: Vec<f64>,
    pub seeds: Vec<u64>,
    pub ours: Summary,
    pub published: Option<f64>,
}

impl CellResult {
    pub fn diff(&self) -> Option<f64> {
        let p = self.published?;
        self.ours.mean.is_finite().then_some(self.ours.mean - p)
    }
    /// Relative difference in percent; None when the published value is 0.
    pub fn diff_pct(&self) -> Option<f64> {
        let p = self.published?;
        if p == 0.0 {
            return None;
        }
        self.diff().map(|d| 100.0 * d / p)
    }
}

/// A table with its computed cells: `cells[row][column]`.
#[derive(Clone, Debug)]
pub struct TableResult<'a> {
    pub table: &'a Table,
    pub cells: Vec<Vec<CellResult>>,
    /// Notes of the published-data file (or why there is none).
    pub published_notes: Vec<String>,
}

fn num(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "n/a".to_string()
    }
}

fn opt(x: Option<f64>, decimals: usize) -> String {
    x.map(|v| num(v, decimals)).unwrap_or_default()
}

fn signed(x: Option<f64>, decimals: usize) -> String {
    x.map(|v| {
        if v.is_finite() {
            format!("{v:+.decimals$}")
        } else {
            "n/a".into()
        }
    })
    .unwrap_or_default()
}

impl TableResult<'_> {
    /// The table as aligned text: one line per (row, column).
    pub fn to_text(&self, seeds_note: &str) -> String {
        let t = self.table;
        let mut s = String::new();
        let _ = writeln!(s, "Table {} — {}", t.id, t.title);
        let _ = writeln!(s, "  source: {}; ours: {}", t.source, seeds_note);
        if let Some(f) = t.published {
            let _ = writeln!(s, "  published values: data/{f}");
        }
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut head: Vec<String> = t.keys.iter().map(|k| k.to_string()).collect();
        head.extend(["column", "ours", "±95%", "published", "diff", "diff %"].map(String::from));
        lines.push(head);
        for (row, cells) in t.rows.iter().zip(&self.cells) {
            for (ci, (col, c)) in t.columns.iter().zip(cells).enumerate() {
                let mut l: Vec<String> = if ci == 0 {
                    row.keys.clone()
                } else {
                    row.keys.iter().map(|_| String::new()).collect()
                };
                let d = col.decimals;
                l.push(col.name.to_string());
                l.push(num(c.ours.mean, d));
                l.push(c.ours.ci95.map(|h| num(h, d)).unwrap_or_else(|| "—".into()));
                l.push(c.published.map(|p| num(p, d)).unwrap_or_else(|| "—".into()));
                l.push(signed(c.diff(), d));
                l.push(
                    c.diff_pct()
                        .map(|p| format!("{p:+.1}%"))
                        .unwrap_or_default(),
                );
                lines.push(l);
            }
        }
        let ncol = lines[0].len();
        let widths: Vec<usize> = (0..ncol)
            .map(|i| {
                lines
                    .iter()
                    .map(|l| l[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let nkeys = t.keys.len() + 1;
        for l in &lines {
            let mut out = String::from("  ");
            for (i, f) in l.iter().enumerate() {
                let pad = widths[i] - f.chars().count();
                if i < nkeys {
                    out.push_str(f);
                    out.push_str(&" ".repeat(pad));
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(f);
                }
                out.push_str("  ");
            }
            s.push_str(out.trim_end());
            s.push('\n');
        }
        // The data file's remarks on withheld or missing values.
        for n in &self.published_notes {
            let l = n.to_lowercase();
            if l.contains("withheld") || l.contains("missing") {
                let _ = writeln!(s, "  note: {n}");
            }
        }
        if self.cells.iter().flatten().all(|c| c.published.is_none()) {
            let _ = writeln!(
                s,
                "  (no published values for this table in the seed copy: ours alone)"
            );
        }
        s
    }

    /// `table_<id>.csv`: keys, column, runs, mean, ci95, published, diff, diff_pct.
    pub fn to_csv(&self) -> String {
        let t = self.table;
        let mut s = String::new();
        for k in &t.keys {
            let _ = write!(s, "{k},");
        }
        s.push_str("column,runs,ours_mean,ours_ci95,published,diff,diff_pct\n");
        for (row, cells) in t.rows.iter().zip(&self.cells) {
            for (col, c) in t.columns.iter().zip(cells) {
                for k in &row.keys {
                    let _ = write!(s, "{k},");
                }
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{}",
                    col.name,
                    c.ours.n,
                    opt(c.ours.mean.is_finite().then_some(c.ours.mean), 6),
                    opt(c.ours.ci95, 6),
                    opt(c.published, 6),
                    opt(c.diff(), 6),
                    opt(c.diff_pct(), 3)
                );
            }
        }
        s
    }

    /// `table_<id>_runs.csv`: every run's value of every cell.
    pub fn runs_csv(&self) -> String {
        let t = self.table;
        let mut s = String::new();
        for k in &t.keys {
            let _ = write!(s, "{k},");
        }
        s.push_str("column,seed,value\n");
        for (row, cells) in t.rows.iter().zip(&self.cells) {
            for (col, c) in t.columns.iter().zip(cells) {
                for (seed, v) in c.seeds.iter().zip(&c.values) {
                    for k in &row.keys {
                        let _ = write!(s, "{k},");
                    }
                    let _ = writeln!(
                        s,
                        "{},{},{}",
                        col.name,
                        seed,
                        if v.is_finite() {
                            format!("{v:.6}")
                        } else {
                            String::new()
                        }
                    );
                }
            }
        }
        s
    }
}
