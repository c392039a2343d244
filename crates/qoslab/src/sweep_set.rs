//! Overrides of a scenario by key path: `link[G1->G2].queue.max_p = 0.05`, the one way the
//! Python package (`Scenario.set`), `qoslab sweep --set` and sweep grids change a scenario.
//!
//! An override edits the scenario's TOML text (with `toml_edit`, which keeps every other
//! byte of the file, comments included) and the edited text is read again by the one
//! scenario reader (`qoslab_sim::scenario::parse_str`): a bad value is refused with the
//! reader's own message, key path and line. Nothing here knows what a key means.
//!
//! # Key paths
//!
//! Segments are separated by dots. A segment names a key of the current table; a list of
//! tables (`[[link]]`, `[[flow]]`, `[[node]]`, `[[web]]`) is entered with a selector in
//! brackets:
//! - `link[1]`: by position, counting from 0 in file order (the form of the reader's
//!   error paths, so an error's `key` can be set again);
//! - `link[G1->G2]`: a link by `from->to` as written in the file (`S{i}->G1` for a
//!   counted one);
//! - `flow[tcp{i}]`, `node[G1]`, `web[pool]`: by the `name` written in the file.
//!
//! Examples: `duration`, `output.sample_interval`, `link[G1->G2].rate`,
//! `link[G1->G2].queue.max_p`, `defaults.tcp.mss`, `flow[tcp{i}].count`.
//!
//! A key that is missing is added (missing plain tables on the way are created), so a
//! misspelt key reaches the reader and is refused as unknown, with the keys allowed there.
//! Overriding a key already in the file keeps every line number of the file; an added
//! key adds one line to its table.
//!
//! # Values
//!
//! A value is a TOML value. On the command line (`--set key=v1,v2`) each text is read as
//! a TOML value if it is one (`0.05`, `true`, `"50Mbps"`, `{ kind = "red", ... }`) and as a
//! string otherwise (`50Mbps`, `10ms`).

use core::fmt;

use toml_edit::{DocumentMut, InlineTable, Item, Table, Value};

/// One key path set to one value.
#[derive(Clone, Debug)]
pub struct Override {
    pub key: String,
    pub value: Value,
}

impl Override {
    pub fn new(key: impl Into<String>, value: impl Into<Value>) -> Override {
        Override {
            key: key.into(),
            value: bare(value.into()),
        }
    }

    /// The value as TOML text (`0.05`, `"50Mbps"`): how sweeps name a point.
    pub fn value_text(&self) -> String {
        bare(self.value.clone()).to_string()
    }
}

/// A value without the whitespace and comments `toml_edit` keeps around it.
fn bare(mut v: Value) -> Value {
    v.decor_mut().clear();
    v
}

/// Reads one command-line value: TOML if it parses as a TOML value, a string otherwise.
pub fn parse_cli_value(text: &str) -> Value {
    let t = text.trim();
    match format!("v = {t}\n").parse::<DocumentMut>() {
        Ok(doc) => match doc.get("v").and_then(|i| i.as_value()) {
            Some(v) => bare(v.clone()),
            None => Value::from(t),
        },
        Err(_) => Value::from(t),
    }
}

/// A key path that does not lead to a place in the scenario, or a scenario text that is
/// not TOML at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverrideError {
    /// The key path as given.
    pub key: String,
    pub message: String,
}

impl fmt::Display for OverrideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "override `{}`: {}", self.key, self.message)
    }
}

impl std::error::Error for OverrideError {}

/// One segment of a key path: a key, and a selector if it enters a list of tables.
#[derive(Debug, PartialEq, Eq)]
struct Segment<'a> {
    key: &'a str,
    select: Option<&'a str>,
}

fn split_path(path: &str) -> Result<Vec<Segment<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    loop {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        let key = &rest[..end];
        if key.is_empty() {
            return Err("empty key in the path (keys are separated by single dots)".into());
        }
        rest = &rest[end..];
        let mut select = None;
        if let Some(r) = rest.strip_prefix('[') {
            let close = r
                .find(']')
                .ok_or_else(|| format!("`[` after `{key}` is not closed with `]`"))?;
            select = Some(r[..close].trim());
            rest = &r[close + 1..];
        }
        out.push(Segment { key, select });
        if rest.is_empty() {
            return Ok(out);
        }
        rest = rest
            .strip_prefix('.')
            .ok_or_else(|| format!("expected `.` after `{key}[..]`, found `{rest}`"))?;
    }
}

/// What a selector is matched against: `name`, or `from->to` for links.
fn label(get: impl Fn(&str) -> Option<String>) -> Option<String> {
    if let Some(n) = get("name") {
        return Some(n);
    }
    match (get("from"), get("to")) {
        (Some(f), Some(t)) => Some(format!("{f}->{t}")),
        _ => None,
    }
}

fn pick(labels: &[Option<String>], key: &str, sel: &str) -> Result<usize, String> {
    if let Ok(i) = sel.parse::<usize>() {
        if i < labels.len() {
            return Ok(i);
        }
        return Err(format!(
            "`{key}` has {} entries: positions 0..{} are allowed",
            labels.len(),
            labels.len().saturating_sub(1)
        ));
    }
    let hits: Vec<usize> = (0..labels.len())
        .filter(|&i| labels[i].as_deref() == Some(sel))
        .collect();
    match hits.as_slice() {
        [i] => Ok(*i),
        [] => {
            let known: Vec<String> = labels
                .iter()
                .enumerate()
                .map(|(i, l)| l.clone().unwrap_or_else(|| i.to_string()))
                .collect();
            Err(format!(
                "no `{key}` entry is `{sel}`; the entries are {} (or a position from 0)",
                known.join(", ")
            ))
        }
        many => Err(format!(
            "{} `{key}` entries are `{sel}` (positions {:?}): choose one by position",
            many.len(),
            many
        )),
    }
}

/// A place values can be set in: a standard table or an inline one.
enum Place<'a> {
    Table(&'a mut Table),
    Inline(&'a mut InlineTable),
}

fn step<'a>(place: Place<'a>, seg: &Segment<'_>, last: bool) -> Result<Place<'a>, String> {
    let key = seg.key;
    match place {
        Place::Table(t) => {
            if !t.contains_key(key) {
                if seg.select.is_some() {
                    return Err(format!("there is no list of tables `{key}` to select in"));
                }
                if last {
                    unreachable!("the last segment is set, not entered");
                }
                let mut nt = Table::new();
                nt.set_implicit(true);
                t.insert(key, Item::Table(nt));
            }
            match (t.get_mut(key).expect("present"), seg.select) {
                (Item::Table(t), None) => Ok(Place::Table(t)),
                (Item::Value(Value::InlineTable(t)), None) => Ok(Place::Inline(t)),
                (Item::ArrayOfTables(a), Some(sel)) => {
                    let labels: Vec<Option<String>> = a
                        .iter()
                        .map(|t| label(|k| t.get(k)?.as_str().map(str::to_string)))
                        .collect();
                    let i = pick(&labels, key, sel)?;
                    Ok(Place::Table(a.get_mut(i).expect("picked in range")))
                }
                (Item::Value(Value::Array(a)), Some(sel)) => enter_array(a, key, sel),
                (Item::ArrayOfTables(a), None) => Err(format!(
                    "`{key}` is a list of {} tables: choose one as {key}[0] or {key}[<name>]",
                    a.len()
                )),
                (_, Some(_)) => Err(format!("`{key}` is not a list of tables")),
                (_, None) => Err(format!("`{key}` is not a table")),
            }
        }
        Place::Inline(t) => {
            if !t.contains_key(key) {
                if seg.select.is_some() {
                    return Err(format!("there is no list of tables `{key}` to select in"));
                }
                t.insert(key, Value::InlineTable(InlineTable::new()));
            }
            match (t.get_mut(key).expect("present"), seg.select) {
                (Value::InlineTable(t), None) => Ok(Place::Inline(t)),
                (Value::Array(a), Some(sel)) => enter_array(a, key, sel),
                (_, Some(_)) => Err(format!("`{key}` is not a list of tables")),
                (_, None) => Err(format!("`{key}` is not a table")),
            }
        }
    }
}

fn enter_array<'a>(a: &'a mut toml_edit::Array, key: &str, sel: &str) -> Result<Place<'a>, String> {
    let labels: Vec<Option<String>> = a
        .iter()
        .map(|v| {
            v.as_inline_table()
                .and_then(|t| label(|k| t.get(k)?.as_str().map(str::to_string)))
        })
        .collect();
    let i = pick(&labels, key, sel)?;
    match a.get_mut(i) {
        Some(Value::InlineTable(t)) => Ok(Place::Inline(t)),
        _ => Err(format!("`{key}[{sel}]` is not a table")),
    }
}

/// Sets `value` at the end of the path, keeping the comment and spacing around an
/// existing value.
fn set_in(place: Place<'_>, key: &str, value: &Value) -> Result<(), String> {
    match place {
        Place::Table(t) => match t.get_mut(key) {
            Some(Item::Value(old)) => {
                let decor = old.decor().clone();
                *old = value.clone();
                *old.decor_mut() = decor;
                Ok(())
            }
            Some(Item::None) | None => {
                t.insert(key, Item::Value(value.clone()));
                Ok(())
            }
            Some(_) => Err(format!(
                "`{key}` is a table here: set its keys one by one ({key}.<key>)"
            )),
        },
        Place::Inline(t) => {
            match t.get_mut(key) {
                Some(old) => {
                    let decor = old.decor().clone();
                    *old = value.clone();
                    *old.decor_mut() = decor;
                }
                None => {
                    let mut v = value.clone();
                    v.decor_mut().set_prefix(" ");
                    t.insert(key, v);
                }
            }
            Ok(())
        }
    }
}

/// Applies `overrides` in order to the scenario text `text` and returns the edited text.
/// `Err` if the text is not TOML or a path does not lead anywhere; whether the values are
/// allowed is the reader's business ([`crate::sweep::load_str`]).
pub fn apply(text: &str, overrides: &[Override]) -> Result<String, OverrideError> {
    if overrides.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| OverrideError {
            key: overrides[0].key.clone(),
            message: format!("the scenario is not valid TOML: {}", e.message()),
        })?;
    for o in overrides {
        let fail = |message: String| OverrideError {
            key: o.key.clone(),
            message,
        };
        let segs = split_path(&o.key).map_err(fail)?;
        let (last, inner) = segs.split_last().expect("split_path returns a segment");
        if last.select.is_some() {
            return Err(fail(format!(
                "the path ends in a selection (`{}[{}]`): name the key to set in it",
                last.key,
                last.select.unwrap_or_default()
            )));
        }
        let mut place = Place::Table(doc.as_table_mut());
        for s in inner {
            place = step(place, s, false).map_err(fail)?;
        }
        set_in(place, last.key, &o.value).map_err(fail)?;
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SC: &str = r#"name = "t"   # a name
duration = "2s"

[[node]]
name = "a"

[[link]]
from = "a"
to = "b"
rate = "10Mbps"  # the bottleneck
queue = { kind = "red", limit = "300p", min_th = 60, max_th = 200, max_p = 0.1 }

[[link]]
from = "b"
to = "c"
rate = "5Mbps"
"#;

    fn set(key: &str, v: Value) -> Result<String, OverrideError> {
        apply(SC, &[Override::new(key, v)])
    }

    #[test]
    fn existing_keys_are_replaced_in_place_keeping_lines_and_comments() {
        let out = set("link[a->b].rate", "50 Mbps".into()).unwrap();
        assert_eq!(out, SC.replace("rate = \"10Mbps\"", "rate = \"50 Mbps\""));
        let out = set("link[0].queue.max_p", 0.05.into()).unwrap();
        assert_eq!(out, SC.replace("max_p = 0.1", "max_p = 0.05"));
        let out = set("duration", "3s".into()).unwrap();
        assert_eq!(out, SC.replace("\"2s\"", "\"3s\""));
        assert_eq!(out.lines().count(), SC.lines().count());
    }

    #[test]
    fn missing_keys_and_tables_are_added() {
        let out = set("link[b->c].delay", "1ms".into()).unwrap();
        assert!(out.contains("rate = \"5Mbps\"\ndelay = \"1ms\"\n"), "{out}");
        let out = set("output.sample_interval", "10ms".into()).unwrap();
        assert!(
            out.contains("[output]\nsample_interval = \"10ms\"\n"),
            "{out}"
        );
        let out = set("link[0].queue.w_q", 0.002.into()).unwrap();
        assert!(out.contains("max_p = 0.1 , w_q = 0.002 }"), "{out}");
        // a table the entry lacks is created as a sub-table of that entry
        let out = set("link[1].queue.max_p", 0.05.into()).unwrap();
        assert!(
            out.ends_with("rate = \"5Mbps\"\n\n[link.queue]\nmax_p = 0.05\n"),
            "{out}"
        );
    }

    #[test]
    fn paths_that_lead_nowhere_are_refused_with_the_choices() {
        let e = set("link.rate", "1Mbps".into()).unwrap_err();
        assert!(e.message.contains("list of 2 tables"), "{e}");
        let e = set("link[x->y].rate", "1Mbps".into()).unwrap_err();
        assert!(e.message.contains("a->b, b->c"), "{e}");
        let e = set("link[7].rate", "1Mbps".into()).unwrap_err();
        assert!(e.message.contains("positions 0..1"), "{e}");
        let e = set("name.x", 1.into()).unwrap_err();
        assert!(e.message.contains("not a table"), "{e}");
        let e = set("link[0]", 1.into()).unwrap_err();
        assert!(e.message.contains("ends in a selection"), "{e}");
        let e = set("link..rate", 1.into()).unwrap_err();
        assert!(e.message.contains("empty key"), "{e}");
        let e = set("link[0].queue", 1.into());
        assert!(e.is_ok(), "an inline table value may be replaced whole");
    }

    #[test]
    fn cli_values_are_toml_or_strings() {
        assert_eq!(parse_cli_value("0.05").to_string(), "0.05");
        assert_eq!(parse_cli_value("7").as_integer(), Some(7));
        assert_eq!(parse_cli_value("true").as_bool(), Some(true));
        assert_eq!(parse_cli_value("50Mbps").as_str(), Some("50Mbps"));
        assert_eq!(parse_cli_value("\"5 s\"").as_str(), Some("5 s"));
        let t = parse_cli_value("{ kind = \"drop-tail\", limit = \"10p\" }");
        assert!(t.as_inline_table().is_some());
        assert_eq!(
            Override::new("k", parse_cli_value("10ms")).value_text(),
            "\"10ms\""
        );
    }
}
