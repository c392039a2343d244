//! Helpers shared by the `qoslab condition` CLI tests: the test data, a scratch directory
//! per test binary, and one run of the binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A file of `tests/data/condition/`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/condition")
        .join(name)
}

/// `name` in a scratch directory `dir` under Cargo's per-target temporary directory.
pub fn tmp_in(dir: &str, name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Runs `qoslab condition`; (exit code, stderr).
pub fn run(chain: &Path, trace: &Path, out: &Path) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .arg("condition")
        .arg("--chain")
        .arg(chain)
        .arg("--trace")
        .arg(trace)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run qoslab");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
