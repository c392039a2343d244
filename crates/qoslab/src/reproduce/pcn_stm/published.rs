//! Published values of the draft: the CSV files under `data/pcn-stm/` (one per table,
//! header row, `#` comment lines; see `data/pcn-stm/README.md`). Read at run time from the
//! repository (found from the build's source directory, or `./data/pcn-stm`), so a table
//! whose file is absent prints our values alone and says so.

use std::path::PathBuf;

/// One table's rows: header names and string cells.
#[derive(Clone, Debug, Default)]
pub struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub path: Option<PathBuf>,
}

fn data_dir() -> Option<PathBuf> {
    let compiled = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/pcn-stm");
    if compiled.is_dir() {
        return Some(compiled);
    }
    let here = PathBuf::from("data/pcn-stm");
    here.is_dir().then_some(here)
}

/// `data/pcn-stm/table_<id>.csv`, or an empty table if it is not there.
pub fn load(id: &str) -> Csv {
    let Some(dir) = data_dir() else {
        return Csv::default();
    };
    let path = dir.join(format!("table_{id}.csv"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Csv::default();
    };
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let Some(h) = lines.next() else {
        return Csv::default();
    };
    Csv {
        header: h.split(',').map(|s| s.trim().to_string()).collect(),
        rows: lines
            .map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
            .collect(),
        path: Some(path),
    }
}

fn same(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() < 1e-9,
        _ => a.eq_ignore_ascii_case(b),
    }
}

impl Csv {
    /// The value of column `col` in the row whose key columns equal `keys`.
    pub fn value(&self, keys: &[(&str, &str)], col: &str) -> Option<f64> {
        let ci = self.header.iter().position(|h| h == col)?;
        let kidx: Vec<(usize, &str)> = keys
            .iter()
            .map(|(k, v)| self.header.iter().position(|h| h == k).map(|i| (i, *v)))
            .collect::<Option<_>>()?;
        self.rows
            .iter()
            .find(|r| {
                kidx.iter()
                    .all(|(i, v)| r.get(*i).is_some_and(|x| same(x, v)))
            })
            .and_then(|r| r.get(ci))
            .and_then(|x| x.parse().ok())
    }
}
