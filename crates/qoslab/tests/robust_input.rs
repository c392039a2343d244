//! Issue 12 regressions, one per class of bad input a fuzzer found: each must exit 2 with a
//! message naming the file, line and key, from `validate` and `run` alike, and never panic,
//! abort or exit 1.

use std::process::Command;

fn qoslab(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_qoslab"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

const BASE: &str = r#"
duration = "30s"
node = [{ name = "a" }, { name = "b" }]
link = [{ from = "a", to = "b", rate = "10Mbps", delay = "5ms" }]
[[flow]]
name = "f"
src = "a"
dst = "b"
kind = "tcp"
"#;

fn dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("qoslab-robust-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Both commands refuse the file with exit 2 and a message containing every `want`.
fn refused(tag: &str, text: &str, want: &[&str]) {
    let d = dir(tag);
    let f = d.join(format!("{tag}.toml"));
    std::fs::write(&f, text).unwrap();
    let f = f.to_str().unwrap();
    for cmd in ["validate", "run"] {
        let out = d.join("out");
        let (code, _, err) =
            qoslab(&[cmd, f, "--out", out.to_str().unwrap()][..if cmd == "run" { 4 } else { 2 }]);
        assert_eq!(code, 2, "{tag}: {cmd} exit {code}: {err}");
        assert!(!err.contains("panicked"), "{tag}: {err}");
        for w in want {
            assert!(err.contains(w), "{tag}: {cmd}: `{err}` lacks `{w}`");
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn tcp_settings_the_transport_refuses_are_refused_by_validate_at_their_key() {
    // Before: `validate` said ok and `run` refused with no file, line or key.
    let tcp = |kv: &str| BASE.replace("kind = \"tcp\"", &format!("kind = \"tcp\"\n{kv}"));
    refused(
        "mss",
        &tcp("mss = \"70000B\""),
        &["mss.toml:", "flow[0].mss", "65535"],
    );
    refused(
        "initial_rto",
        &tcp("initial_rto = \"10ms\""),
        &[
            "initial_rto.toml:",
            "flow[0].initial_rto",
            "min_rto <= initial_rto <= max_rto",
        ],
    );
    refused(
        "init_cwnd",
        &tcp("init_cwnd = 2000000"),
        &["flow[0].init_cwnd", "2^20"],
    );
}

#[test]
fn queue_rules_the_engine_checks_are_refused_by_validate_at_their_key() {
    // Adaptive RED's initial max_p range (Floyd, Gummadi & Shenker 2001 §4) was checked
    // only when the engine built the queue.
    let t = BASE.replace(
        "delay = \"5ms\" }",
        "delay = \"5ms\", queue = { kind = \"red\", limit = \"50p\", min_th = 5, max_th = 15, adaptive = true, max_p = 0.9 } }",
    );
    refused(
        "ared",
        &t,
        &[
            "ared.toml:",
            "link[0].queue.max_p",
            "Floyd, Gummadi & Shenker",
        ],
    );
}

#[test]
fn web_pool_errors_are_located_at_the_wrong_key() {
    // Before: every web-pool error was reported at `sessions`.
    let web = format!(
        "{BASE}\n[[web]]\nclients = [\"b\"]\nservers = [\"a\"]\nsessions = 4\npages_per_session = 0\n"
    );
    refused("pages", &web, &["web[0].pages_per_session", ">= 1"]);
    let web = format!(
        "{BASE}\n[[web]]\nclients = [\"b\"]\nservers = [\"a\"]\nsessions = 4\nstart = {{ from = \"2s\", to = \"1s\" }}\n"
    );
    refused("start", &web, &["web[0].start", "from <= to"]);
}

#[test]
fn unbounded_time_series_are_refused_before_the_run() {
    // Before: a 1 ns interval over 30 s grew to several GB and aborted.
    let t = format!("{BASE}\n[output]\nsample_interval = \"1ns\"\n");
    refused(
        "series",
        &t,
        &["output.sample_interval", "exceeds the limit"],
    );
}

#[test]
fn index_expressions_that_overflow_or_nest_deeply_are_errors() {
    let named =
        |name: &str| format!("duration = \"1s\"\n[[node]]\ncount = 2\nname = \"n{name}\"\n");
    refused(
        "divneg",
        &named("{(0-9223372036854775807-1)/(0-1)}"),
        &["overflow"],
    );
    let deep = format!("{{{}i{}}}", "(".repeat(100_000), ")".repeat(100_000));
    refused("deep", &named(&deep), &["nested more than"]);
}

#[test]
fn an_output_directory_that_cannot_be_written_is_refused_before_the_run() {
    let d = dir("out");
    let f = d.join("s.toml");
    std::fs::write(&f, BASE).unwrap();
    // A regular file where the output directory should be.
    let blocker = d.join("blocker");
    std::fs::write(&blocker, b"x").unwrap();
    let out = blocker.join("sub");
    let (code, _, err) = qoslab(&[
        "run",
        f.to_str().unwrap(),
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be written"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}
