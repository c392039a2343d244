//! The bad-input checker the PCN and ATM reader tests share: every case must be refused
//! with the expected kind, file, line, key path and a word of the message.

use qoslab_sim::scenario::{ErrorKind, ScenarioError};

/// (what, text, kind, line, key path, a word of the message)
pub type Case = (
    &'static str,
    String,
    ErrorKind,
    usize,
    &'static str,
    &'static str,
);

/// Parses every case as `bad.toml` and returns one line per mismatch (empty: all refused as
/// expected). Every case is checked before failing, so one run shows every mismatch.
pub fn mismatches<T>(
    cases: Vec<Case>,
    parse: impl Fn(&str, &str) -> Result<T, ScenarioError>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (what, text, kind, line, path, word) in cases {
        match parse(&text, "bad.toml") {
            Ok(_) => wrong.push(format!("{what}: accepted")),
            Err(e) => {
                if e.kind() != kind
                    || e.file() != "bad.toml"
                    || e.line() != Some(line)
                    || e.path() != path
                    || !e.to_string().contains(word)
                {
                    wrong.push(format!(
                        "{what}: got {:?} line {:?} path {} — {e}",
                        e.kind(),
                        e.line(),
                        e.path()
                    ));
                }
            }
        }
    }
    wrong
}
