//! Published values: the CSV files under `data/` (compiled into the binary, so
//! `qoslab reproduce` works from any directory).
//!
//! Format: `#` lines are notes (source, transcription remarks, withheld values); then a
//! header `document,table,row,<key columns>,<value columns>`; then one line per printed row.
//! `document, table, row` name the source of each line (row counts the printed rows from 1).
//! An empty value is a value missing or withheld in the seed copy: it is printed as
//! nothing, and our result is shown alone. Fields hold no commas or quotes.

/// The data files, by path under `data/`.
const FILES: &[(&str, &str)] = &[
    (
        "rio-hori2001/table1.csv",
        include_str!("../../../../data/rio-hori2001/table1.csv"),
    ),
    (
        "rio-hori2001/table2.csv",
        include_str!("../../../../data/rio-hori2001/table2.csv"),
    ),
    (
        "rio-hori2001/table3.csv",
        include_str!("../../../../data/rio-hori2001/table3.csv"),
    ),
    (
        "rio-hori2001/table4.csv",
        include_str!("../../../../data/rio-hori2001/table4.csv"),
    ),
    (
        "rfc2963/table_a2.csv",
        include_str!("../../../../data/rfc2963/table_a2.csv"),
    ),
    (
        "rfc2963/table_a3.csv",
        include_str!("../../../../data/rfc2963/table_a3.csv"),
    ),
    (
        "rfc2963/table_a4.csv",
        include_str!("../../../../data/rfc2963/table_a4.csv"),
    ),
    (
        "rfc2963/table_a5.csv",
        include_str!("../../../../data/rfc2963/table_a5.csv"),
    ),
    (
        "rfc2963/table_a6.csv",
        include_str!("../../../../data/rfc2963/table_a6.csv"),
    ),
    (
        "rfc2963/table_a7.csv",
        include_str!("../../../../data/rfc2963/table_a7.csv"),
    ),
];

/// The paths of all embedded data files.
pub fn files() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|f| f.0)
}

/// An embedded data file, parsed. The RFC 4828 files (`rfc4828/...`, in their own column
/// layout) are read by that experiment's adapter.
pub fn load(path: &str) -> Result<Published, String> {
    if let Some(p) = super::rfc4828::published(path) {
        return p;
    }
    let (_, text) = FILES
        .iter()
        .find(|f| f.0 == path)
        .ok_or_else(|| format!("no published-data file `{path}`"))?;
    Published::parse(path, text)
}

/// The three source columns every file starts with.
const SOURCE_COLUMNS: [&str; 3] = ["document", "table", "row"];

/// One published table (or part of one).
#[derive(Clone, Debug, PartialEq)]
pub struct Published {
    pub file: String,
    /// The `#` lines, without the `#`.
    pub notes: Vec<String>,
    /// Columns after `document, table, row`.
    pub columns: Vec<String>,
    pub rows: Vec<PublishedRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PublishedRow {
    pub document: String,
    pub table: String,
    pub row: u32,
    /// One text field per entry of [`Published::columns`] ("" when empty).
    pub fields: Vec<String>,
}

impl Published {
    pub fn parse(file: &str, text: &str) -> Result<Published, String> {
        let mut notes = Vec::new();
        let mut columns: Option<Vec<String>> = None;
        let mut rows = Vec::new();
        for (ln, line) in text.lines().enumerate() {
            let at = || format!("{file}:{}", ln + 1);
            let line = line.trim_end();
            if let Some(n) = line.strip_prefix('#') {
                notes.push(n.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            if line.contains('"') {
                return Err(format!("{}: quotes are not allowed", at()));
            }
            let f: Vec<String> = line.split(',').map(|s| s.trim().to_string()).collect();
            match &columns {
                None => {
                    if f.len() <= 3 || f[..3] != SOURCE_COLUMNS {
                        return Err(format!("{}: the header must start with `document,table,row` and name more columns", at()));
                    }
                    columns = Some(f[3..].to_vec());
                }
                Some(cols) => {
                    if f.len() != cols.len() + 3 {
                        return Err(format!(
                            "{}: {} fields, the header has {}",
                            at(),
                            f.len(),
                            cols.len() + 3
                        ));
                    }
                    let row = f[2]
                        .parse::<u32>()
                        .map_err(|_| format!("{}: row `{}` is not a number", at(), f[2]))?;
                    for (c, v) in cols.iter().zip(&f[3..]) {
                        if !v.is_empty() && v.parse::<f64>().is_err() && !is_key_like(v) {
                            return Err(format!(
                                "{}: column `{c}`: `{v}` is neither a number nor a key",
                                at()
                            ));
                        }
                    }
                    rows.push(PublishedRow {
                        document: f[0].clone(),
                        table: f[1].clone(),
                        row,
                        fields: f[3..].to_vec(),
                    });
                }
            }
        }
        let columns = columns.ok_or_else(|| format!("{file}: no header line"))?;
        Ok(Published {
            file: file.to_string(),
            notes,
            columns,
            rows,
        })
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The row whose key columns hold `keys`.
    pub fn find(&self, key_names: &[&str], keys: &[String]) -> Option<&PublishedRow> {
        let idx: Vec<usize> = key_names
            .iter()
            .map(|k| self.column(k))
            .collect::<Option<_>>()?;
        self.rows
            .iter()
            .find(|r| idx.iter().zip(keys).all(|(&i, k)| r.fields[i] == *k))
    }

    /// The published value of `column` in the row with these keys; None when the row, the
    /// column or the value is missing.
    pub fn value(&self, key_names: &[&str], keys: &[String], column: &str) -> Option<f64> {
        let c = self.column(column)?;
        let r = self.find(key_names, keys)?;
        r.fields[c].parse::<f64>().ok()
    }

    /// Rows that have at least one value.
    pub fn rows_with_values(&self, key_names: &[&str]) -> usize {
        let keys: Vec<usize> = key_names.iter().filter_map(|k| self.column(k)).collect();
        self.rows
            .iter()
            .filter(|r| {
                r.fields
                    .iter()
                    .enumerate()
                    .any(|(i, v)| !keys.contains(&i) && !v.is_empty())
            })
            .count()
    }
}

/// Keys such as "1/10", "2Mbps", "Reno".
fn is_key_like(v: &str) -> bool {
    v.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '[' | ']' | ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_values_and_empty_cells() {
        let t = "# a note\ndocument,table,row,k,v\nD,T1,1,1/10,2.5\nD,T1,2,1/20,\n";
        let p = Published::parse("x.csv", t).unwrap();
        assert_eq!(p.notes, vec!["a note"]);
        assert_eq!(p.columns, vec!["k", "v"]);
        assert_eq!(p.value(&["k"], &["1/10".into()], "v"), Some(2.5));
        assert_eq!(p.value(&["k"], &["1/20".into()], "v"), None);
        assert_eq!(p.value(&["k"], &["1/50".into()], "v"), None);
        assert_eq!(p.value(&["k"], &["1/10".into()], "w"), None);
        assert_eq!(p.rows_with_values(&["k"]), 1);
    }

    #[test]
    fn refuses_malformed_files() {
        assert!(Published::parse("x", "a,b\n1,2\n")
            .unwrap_err()
            .contains("document,table,row"));
        assert!(Published::parse("x", "document,table,row,v\nD,T,1\n")
            .unwrap_err()
            .contains("3 fields, the header has 4"));
        assert!(Published::parse("x", "document,table,row,v\nD,T,one,1\n")
            .unwrap_err()
            .contains("not a number"));
        assert!(Published::parse("x", "document,table,row,v\nD,T,1,\"1\"\n")
            .unwrap_err()
            .contains("quotes"));
        assert!(Published::parse("x", "# only notes\n")
            .unwrap_err()
            .contains("no header"));
    }
}
