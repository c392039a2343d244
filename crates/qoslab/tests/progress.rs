//! Progress off a terminal (issue 15): with stderr piped, `qoslab reproduce` prints whole,
//! throttled lines and never terminal bar output (`\r`, escape codes).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_qoslab");

fn reproduce(every_ms: Option<&str>, tag: &str) -> (String, String) {
    let out = std::env::temp_dir().join(format!("qoslab-progress-{tag}-{}", std::process::id()));
    let mut c = Command::new(BIN);
    c.args([
        "reproduce",
        "rfc2963",
        "--table",
        "a3",
        "--quick",
        "--seeds",
        "1",
    ])
    .args(["--jobs", "1"])
    .arg("--out")
    .arg(&out)
    .env_remove("QOSLAB_PROGRESS_EVERY_MS");
    if let Some(ms) = every_ms {
        c.env("QOSLAB_PROGRESS_EVERY_MS", ms);
    }
    let o = c.output().unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (String::from_utf8_lossy(&o.stdout).into_owned(), err)
}

#[test]
fn piped_stderr_gets_plain_lines_only() {
    // Default interval (5 s): a short run prints no progress at all.
    let (_, err) = reproduce(None, "default");
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    assert!(!err.contains("reproducing:"), "{err:?}");
    // A 0 ms interval: every update is due, each a whole line of the documented form.
    let (_, err) = reproduce(Some("0"), "every");
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("reproducing: "))
        .collect();
    assert!(!lines.is_empty(), "{err:?}");
    for l in &lines {
        assert!(
            l.contains("% (") && l.contains(" runs) ") && l.contains(" s elapsed, eta "),
            "{l:?}"
        );
    }
    assert!(
        lines.last().unwrap().starts_with("reproducing: 100% ("),
        "{lines:?}"
    );
}
