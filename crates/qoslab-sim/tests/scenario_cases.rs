//! Data-driven scenario-file tests (in the manner of Linux tc-testing): each case in
//! `tests/scenarios/cases.toml` is a small scenario file that must either parse (and then
//! match the JSON-pointer expectations in `expect`) or fail with an error of the given
//! kind, at the given line, whose message contains the given text.
//! `SHOW_ERRORS=1 cargo test --test scenario_cases -- --nocapture` prints every error.

use serde::Deserialize;

use qoslab_sim::scenario::{parse_str, ErrorKind};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    input: String,
    /// Expected failure: a substring of the displayed error.
    error: Option<String>,
    /// Expected failure class (`ErrorKind` name).
    kind: Option<String>,
    /// Expected 1-based line of the failure.
    line: Option<usize>,
    /// Expected success: JSON pointer into the serialized `Scenario` → value
    /// (`"<null>"`: a JSON null, `"<absent>"`: no such element).
    expect: Option<toml::Table>,
}

const FILE: &str = "case.toml";

fn run(case: &Case) -> Result<(), String> {
    let result = parse_str(&case.input, FILE);
    match (&case.error, result) {
        (Some(want), Err(e)) => {
            let shown = e.to_string();
            if std::env::var_os("SHOW_ERRORS").is_some() {
                println!("{shown}");
            }
            if !shown.contains(want.as_str()) {
                return Err(format!("error `{shown}` does not contain `{want}`"));
            }
            if let Some(kind) = &case.kind {
                if e.kind().name() != kind {
                    return Err(format!(
                        "error `{shown}` is {:?}, expected {kind}",
                        e.kind()
                    ));
                }
            }
            let Some(line) = case.line else {
                return Err("an error case must give its `line`".into());
            };
            if e.line() != Some(line) || !shown.starts_with(&format!("{FILE}:{line}:")) {
                return Err(format!("error `{shown}` is not at line {line}"));
            }
            Ok(())
        }
        (Some(want), Ok(_)) => Err(format!("parsed, but expected an error containing `{want}`")),
        (None, Err(e)) => Err(format!("expected to parse, got `{e}`")),
        (None, Ok(s)) => {
            let json = serde_json::to_value(&s).map_err(|e| e.to_string())?;
            for (pointer, want) in case.expect.iter().flatten() {
                let got = json.pointer(pointer);
                let ok = match want.as_str() {
                    Some("<absent>") => got.is_none(),
                    Some("<null>") => got.is_some_and(serde_json::Value::is_null),
                    _ => got == Some(&serde_json::to_value(want).map_err(|e| e.to_string())?),
                };
                if !ok {
                    return Err(format!("{pointer} = {got:?}, expected {want}"));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn cases() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/cases.toml");
    let text = std::fs::read_to_string(path).expect("cases.toml");
    let cases: Cases = toml::from_str(&text).expect("cases.toml is valid");
    let mut failures = Vec::new();
    for case in &cases.case {
        if let Err(why) = run(case) {
            failures.push(format!("{}: {why}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.case.len(),
        failures.join("\n")
    );
}

/// Every error kind except Io (tested in `scenario_files.rs`) has a case.
#[test]
fn every_error_kind_is_covered() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios/cases.toml");
    let cases: Cases = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for kind in [
        ErrorKind::Syntax,
        ErrorKind::UnknownKey,
        ErrorKind::BadValue,
        ErrorKind::Dangling,
        ErrorKind::Relation,
    ] {
        assert!(
            cases
                .case
                .iter()
                .any(|c| c.kind.as_deref() == Some(kind.name())),
            "no case of kind {kind:?}"
        );
    }
}
