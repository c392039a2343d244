//! The tables of a reproduction as the HTML report shows them: read back from the CSV files
//! every experiment writes, so one reader serves all five (whose CSV layouts differ).
//!
//! Two layouts carry a comparison with published values:
//! * *long*: key columns, then `column, [runs|n,] ours_mean, ours_ci95, published, diff
//!   [, diff_pct]` — one line per (row, value column) (`table_<id>.csv` of the registry
//!   experiments and of `pcn-stm`);
//! * *wide*: key columns, then per measure `<m>_ours[_unit], <m>_ci95, <m>_published[_unit]
//!   [, <m>_diff[_unit]]` (`gfr-kim2001`'s `table_1.csv`).
//!
//! Any other CSV is shown as it is (numbers rounded to 6 significant digits for reading).
//!
//! **Colour scale of a difference.** By the relative difference |ours − published| /
//! |published| of the mean: up to 5 % green, up to 15 % yellow, up to 50 % orange, above
//! 50 % red; grey where the published value is 0 (no relative size) and no colour where
//! there is no published value or no mean of ours. The bands are fixed, not fitted to the
//! data, so colours compare across tables and experiments. Separately, a cell says whether
//! the published value lies inside our 95 % interval.

use std::fmt::Write as _;

use crate::plot::{esc, Grid, Plot, Series};

/// A parsed CSV file: header and rows of text fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Splits CSV text: fields separated by commas, a field in double quotes may hold commas
/// and doubled quotes. Rows shorter than the header are padded with empty fields.
pub fn parse_csv(text: &str) -> Option<Csv> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = split_line(lines.next()?);
    let rows = lines
        .map(|l| {
            let mut f = split_line(l);
            f.resize(header.len().max(f.len()), String::new());
            f
        })
        .collect();
    Some(Csv { header, rows })
}

fn split_line(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().map(|f| f.trim().to_string()).collect()
}

/// How far ours is from the published value (see the module docs for the scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    Within5,
    Within15,
    Within50,
    Above50,
    /// Published value 0: no relative size.
    ZeroPublished,
}

impl Band {
    pub const ALL: [Band; 5] = [
        Band::Within5,
        Band::Within15,
        Band::Within50,
        Band::Above50,
        Band::ZeroPublished,
    ];
    pub fn of(ours: f64, published: f64) -> Band {
        if published == 0.0 {
            return Band::ZeroPublished;
        }
        let r = ((ours - published) / published).abs();
        if r <= 0.05 {
            Band::Within5
        } else if r <= 0.15 {
            Band::Within15
        } else if r <= 0.5 {
            Band::Within50
        } else {
            Band::Above50
        }
    }
    pub fn class(self) -> &'static str {
        match self {
            Band::Within5 => "b5",
            Band::Within15 => "b15",
            Band::Within50 => "b50",
            Band::Above50 => "bhi",
            Band::ZeroPublished => "bzero",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Band::Within5 => "|diff| ≤ 5 %",
            Band::Within15 => "5–15 %",
            Band::Within50 => "15–50 %",
            Band::Above50 => "> 50 %",
            Band::ZeroPublished => "published 0",
        }
    }
    /// Background colours (CSS) of the bands, in [`Band::ALL`] order.
    pub fn colour(self) -> &'static str {
        match self {
            Band::Within5 => "#b7e4c7",
            Band::Within15 => "#fff1a8",
            Band::Within50 => "#ffc98b",
            Band::Above50 => "#f4a3a3",
            Band::ZeroPublished => "#dddddd",
        }
    }
}

/// One compared cell: a row's keys, the value column, ours and the published value.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub keys: Vec<String>,
    pub column: String,
    pub runs: Option<String>,
    pub ours: Option<f64>,
    pub ci95: Option<f64>,
    /// As printed in the CSV (trailing zeros removed), and as a number.
    pub published: Option<(String, f64)>,
}

impl Cell {
    pub fn diff(&self) -> Option<f64> {
        Some(self.ours? - self.published.as_ref()?.1)
    }
    pub fn band(&self) -> Option<Band> {
        Some(Band::of(self.ours?, self.published.as_ref()?.1))
    }
    /// Whether the published value lies in mean ± ci95 (None without both).
    pub fn in_ci(&self) -> Option<bool> {
        let (m, h, p) = (self.ours?, self.ci95?, self.published.as_ref()?.1);
        Some((p - m).abs() <= h)
    }
}

/// A table of compared cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub key_names: Vec<String>,
    pub cells: Vec<Cell>,
}

fn num(f: &str) -> Option<f64> {
    f.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// "68.630000" -> "68.63", "2.0" -> "2".
fn trim_number(f: &str) -> String {
    if f.contains('.') && !f.contains(['e', 'E']) {
        f.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        f.to_string()
    }
}

impl Comparison {
    /// Reads a CSV in the long or wide layout; None for any other CSV.
    pub fn from_csv(csv: &Csv) -> Option<Comparison> {
        let h = &csv.header;
        let col = |n: &str| h.iter().position(|x| x == n);
        if let (Some(c), Some(m), Some(p)) = (col("column"), col("ours_mean"), col("published")) {
            let ci = col("ours_ci95");
            let runs = col("runs").or(col("n"));
            let cells = csv
                .rows
                .iter()
                .map(|r| Cell {
                    keys: r[..c].to_vec(),
                    column: r[c].clone(),
                    runs: runs.map(|i| r[i].clone()),
                    ours: num(&r[m]),
                    ci95: ci.and_then(|i| num(&r[i])),
                    published: num(&r[p]).map(|v| (trim_number(&r[p]), v)),
                })
                .collect();
            return Some(Comparison {
                key_names: h[..c].to_vec(),
                cells,
            });
        }
        // Wide: measures named by their `_ours` column.
        let measures: Vec<(usize, String, String)> = h
            .iter()
            .enumerate()
            .filter_map(|(i, x)| {
                let k = x.find("_ours")?;
                let (m, unit) = (&x[..k], x[k + 5..].trim_start_matches('_'));
                Some((i, m.to_string(), unit.to_string()))
            })
            .collect();
        let first = measures.first()?.0;
        let mut cells = Vec::new();
        let mut any_published = false;
        for r in &csv.rows {
            for (i, m, unit) in &measures {
                let find = |pre: &str| h.iter().position(|x| x.starts_with(&format!("{m}_{pre}")));
                let p = find("published");
                any_published |= p.is_some();
                cells.push(Cell {
                    keys: r[..first].to_vec(),
                    column: if unit.is_empty() {
                        m.clone()
                    } else {
                        format!("{m}_{unit}")
                    },
                    runs: col("runs").map(|k| r[k].clone()),
                    ours: num(&r[*i]),
                    ci95: find("ci95").and_then(|k| num(&r[k])),
                    published: p.and_then(|k| num(&r[k]).map(|v| (trim_number(&r[k]), v))),
                });
            }
        }
        any_published.then(|| Comparison {
            key_names: h[..first].to_vec(),
            cells,
        })
    }

    pub fn has_published(&self) -> bool {
        self.cells.iter().any(|c| c.published.is_some())
    }

    /// Cells per band (in [`Band::ALL`] order) and cells with a published value.
    pub fn band_counts(&self) -> ([usize; 5], usize) {
        let mut n = [0usize; 5];
        let mut compared = 0;
        for c in &self.cells {
            if let Some(b) = c.band() {
                n[Band::ALL.iter().position(|x| *x == b).unwrap_or(0)] += 1;
                compared += 1;
            }
        }
        (n, compared)
    }

    /// The HTML table: keys, column, ours ± 95 %, published, diff, diff %, in CI.
    pub fn to_html(&self) -> String {
        let mut s = String::from("<table class=\"data cmp\"><thead><tr>");
        for k in &self.key_names {
            let _ = write!(s, "<th>{}</th>", esc(k));
        }
        s.push_str("<th>value</th><th>runs</th><th>ours (mean)</th><th>± 95 %</th><th>published</th><th>diff</th><th>diff %</th><th>published in our 95 % interval</th></tr></thead><tbody>\n");
        let mut prev: Option<&Vec<String>> = None;
        for c in &self.cells {
            let first = prev != Some(&c.keys);
            prev = Some(&c.keys);
            let _ = write!(s, "<tr{}>", if first { " class=\"first\"" } else { "" });
            for k in &c.keys {
                let _ = write!(s, "<td>{}</td>", if first { esc(k) } else { String::new() });
            }
            let d = c
                .ours
                .map_or(3, |m| decimals(m, c.published.as_ref().map(|p| p.1)));
            let f = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.d$}"));
            let diff = c.diff();
            let pct = match (diff, &c.published) {
                (Some(d), Some((_, p))) if *p != 0.0 => format!("{:+.1} %", 100.0 * d / p),
                _ => String::new(),
            };
            let class = c.band().map_or(" class=\"n\"".to_string(), |b| {
                format!(" class=\"n {}\" title=\"{}\"", b.class(), b.label())
            });
            let _ = writeln!(
                s,
                "<td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td{class}>{}</td><td{class}>{pct}</td><td>{}</td></tr>",
                esc(&c.column),
                esc(c.runs.as_deref().unwrap_or("")),
                c.ours.map_or("n/a".to_string(), |v| format!("{v:.d$}")),
                f(c.ci95),
                c.published.as_ref().map_or("—".to_string(), |p| esc(&p.0)),
                diff.map_or(String::new(), |v| format!("{v:+.d$}")),
                match c.in_ci() {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "",
                }
            );
        }
        s.push_str("</tbody></table>\n");
        s
    }

    /// The comparison figure: one panel per value column, one category per row; ours as
    /// dots with 95 % bars, published as hollow diamonds beside them. None without any
    /// published value.
    pub fn figure(&self, title: &str) -> Option<String> {
        if !self.has_published() {
            return None;
        }
        let mut columns: Vec<&str> = Vec::new();
        for c in &self.cells {
            if !columns.contains(&c.column.as_str()) {
                columns.push(&c.column);
            }
        }
        let mut panels = Vec::new();
        for col in &columns {
            let cells: Vec<&Cell> = self.cells.iter().filter(|c| c.column == *col).collect();
            if !cells.iter().any(|c| c.published.is_some()) {
                continue; // a column the source does not give: the table shows it
            }
            let mut p = Plot::new(col.to_string(), self.key_names.join(" · "), with_unit(col));
            p.y_from_zero = false;
            p.x_categories = cells.iter().map(|c| c.keys.join(" · ")).collect();
            p.width = if cells.len() > 10 { 720 } else { 480 };
            p.height = 320;
            let ours: Vec<(f64, f64)> = cells
                .iter()
                .enumerate()
                .map(|(k, c)| (k as f64 - 0.12, c.ours.unwrap_or(f64::NAN)))
                .collect();
            let err = cells.iter().map(|c| c.ci95.unwrap_or(f64::NAN)).collect();
            let published = cells
                .iter()
                .enumerate()
                .filter_map(|(k, c)| Some((k as f64 + 0.12, c.published.as_ref()?.1)))
                .collect();
            p.series
                .push(Series::error_bars("ours (mean ± 95 %)", ours, err).colour(0));
            p.series
                .push(Series::markers("published", published).colour(1));
            panels.push(p);
        }
        let columns = if panels.iter().any(|p| p.width > 480) || panels.len() == 1 {
            1
        } else {
            2
        };
        Some(
            Grid {
                title: title.to_string(),
                note: Some(
                    "ours: mean ± 95 % interval (dot, bar) · published: hollow diamond · y axis not from 0"
                        .into(),
                ),
                panels,
                columns,
            }
            .to_svg(),
        )
    }
}

/// A value column's name with the unit its suffix names, e.g. `stm_oa_pct` -> `stm_oa_pct
/// (%)`; the name alone when it names none (the table's title gives the unit).
pub fn with_unit(col: &str) -> String {
    const UNITS: [(&str, &str); 8] = [
        ("_pct", "%"),
        ("_mbps", "Mb/s"),
        ("_kbps", "kb/s"),
        ("_bps", "bit/s"),
        ("_ms", "ms"),
        ("_s", "s"),
        ("_bytes", "bytes"),
        ("_pkts", "packets"),
    ];
    UNITS
        .iter()
        .find(|(suffix, _)| col.ends_with(suffix))
        .map_or(col.to_string(), |(_, u)| format!("{col} ({u})"))
}

/// Decimals that show 4 significant digits of the larger of ours and published (at most 6).
fn decimals(ours: f64, published: Option<f64>) -> usize {
    let m = ours.abs().max(published.unwrap_or(0.0).abs());
    if m == 0.0 {
        return 3;
    }
    (3 - m.log10().floor() as i32).clamp(0, 6) as usize
}

/// Any CSV as an HTML table (numbers with more than 6 significant digits rounded).
pub fn plain_html(csv: &Csv, max_rows: usize) -> String {
    let mut s = String::from("<table class=\"data\"><thead><tr>");
    for h in &csv.header {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in csv.rows.iter().take(max_rows) {
        s.push_str("<tr>");
        for f in r {
            let shown = match num(f) {
                Some(v) if f.len() > 9 => format!("{}", round_sig(v, 6)),
                _ => f.clone(),
            };
            let class = if num(f).is_some() { " class=\"n\"" } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", esc(&shown));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    if csv.rows.len() > max_rows {
        let _ = writeln!(
            s,
            "<p class=\"small\">first {max_rows} of {} rows; all in the CSV file.</p>",
            csv.rows.len()
        );
    }
    s
}

fn round_sig(v: f64, digits: i32) -> f64 {
    if v == 0.0 {
        return 0.0;
    }
    let p = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * p).round() / p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_by_relative_difference() {
        assert_eq!(Band::of(105.0, 100.0), Band::Within5);
        assert_eq!(Band::of(94.0, 100.0), Band::Within15);
        assert_eq!(Band::of(150.0, 100.0), Band::Within50);
        assert_eq!(Band::of(-1.0, 1.0), Band::Above50);
        assert_eq!(Band::of(0.1, 0.0), Band::ZeroPublished);
    }

    #[test]
    fn units_from_suffixes() {
        assert_eq!(with_unit("stm_oa_pct"), "stm_oa_pct (%)");
        assert_eq!(with_unit("tcp_send_rate_kbps"), "tcp_send_rate_kbps (kb/s)");
        assert_eq!(with_unit("throughput"), "throughput");
        assert_eq!(with_unit("goodput_mbps"), "goodput_mbps (Mb/s)");
    }

    #[test]
    fn reads_the_long_layout() {
        let csv = parse_csv(
            "minth_out,tcp,column,runs,ours_mean,ours_ci95,published,diff,diff_pct\n\
             20,Reno,throughput,3,68.862933,0.318822,68.630000,0.232933,0.339\n\
             20,Reno,ql_ave,3,31.954741,0.569533,,,\n",
        )
        .unwrap();
        let c = Comparison::from_csv(&csv).unwrap();
        assert_eq!(c.key_names, ["minth_out", "tcp"]);
        assert_eq!(c.cells.len(), 2);
        let a = &c.cells[0];
        assert_eq!(a.published, Some(("68.63".to_string(), 68.63)));
        assert!((a.diff().unwrap() - 0.232933).abs() < 1e-9);
        assert_eq!(a.band(), Some(Band::Within5));
        assert_eq!(a.in_ci(), Some(true)); // |68.63 - 68.8629| = 0.233 <= 0.319
        assert_eq!(c.cells[1].published, None);
        assert_eq!(c.band_counts(), ([1, 0, 0, 0, 0], 1));
        let html = c.to_html();
        assert!(html.contains("class=\"n b5\"") && html.contains("68.86"));
        assert!(
            !html.contains("\" class="),
            "two class attributes in one element"
        );
        let svg = c.figure("Table 1").unwrap();
        assert!(svg.contains("throughput") && svg.contains("published"));
        assert!(
            !svg.contains(">ql_ave<"),
            "a column without published values has no panel"
        );
    }

    #[test]
    fn reads_the_wide_layout_and_refuses_others() {
        let csv = parse_csv(
            "policy,fairness_ours,fairness_ci95,fairness_published,fairness_diff,goodput_ours_mbps,goodput_ci95,goodput_published_mbps,runs\n\
             dfba,0.94,0.1,0.937876,0.002,46.2,0.6,46.59,2\n",
        )
        .unwrap();
        let c = Comparison::from_csv(&csv).unwrap();
        assert_eq!(c.key_names, ["policy"]);
        assert_eq!(c.cells.len(), 2);
        assert_eq!(c.cells[1].column, "goodput_mbps");
        assert_eq!(c.cells[1].published.as_ref().unwrap().1, 46.59);
        assert_eq!(c.cells[1].runs.as_deref(), Some("2"));
        let plain = parse_csv("a,b\n1,\"x, y\"\n").unwrap();
        assert_eq!(plain.rows[0][1], "x, y");
        assert!(Comparison::from_csv(&plain).is_none());
    }
}
