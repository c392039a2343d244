//! `qoslab run` / `validate`: exit status 0 on success with its files written, 2 on bad
//! input with a message naming the file, line and key.

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

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const SMALL: &str = r#"
duration = "2s"
warmup = "0.5s"
node = [{ name = "a" }, { name = "b" }]
link = [{ from = "a", to = "b", rate = "10Mbps", delay = "5ms", queue = { kind = "red", limit = "50p", min_th = 5, max_th = 15 } }]
[[flow]]
name = "f"
src = "a"
dst = "b"
kind = "tcp"
variant = "sack"
"#;

#[test]
fn run_writes_its_files_and_is_deterministic() {
    let dir = std::env::temp_dir().join(format!("qoslab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = write(&dir, "small.toml", SMALL);
    let (o1, o2) = (dir.join("o1"), dir.join("o2"));
    let (code, out, _) = qoslab(&["run", &f, "--seed", "3", "--out", o1.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("goodput") && out.contains("queues"), "{out}");
    let (code, _, _) = qoslab(&[
        "run",
        &f,
        "--seed",
        "3",
        "-q",
        "--out",
        o2.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    for name in ["summary.json", "flows.csv", "queues.csv"] {
        let a = std::fs::read(o1.join(name)).unwrap();
        assert_eq!(
            a,
            std::fs::read(o2.join(name)).unwrap(),
            "{name} differs between identical runs"
        );
    }
    let (code, out, _) = qoslab(&["validate", &f]);
    assert_eq!(code, 0);
    assert!(out.contains("ok"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_2_naming_file_line_and_key() {
    let dir = std::env::temp_dir().join(format!("qoslab-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // (file contents, substring the message must contain)
    let cases = [
        (SMALL.replace("min_th = 5", "min_th = 20"), "bad1.toml:5:"),
        (
            SMALL.replace("rate = \"10Mbps\"", "rate = \"10Mbs\""),
            "link[0].rate",
        ),
        (SMALL.replace("dst = \"b\"", "dst = \"c\""), "flow[0].dst"),
        (
            SMALL.replace("variant = \"sack\"", "variant = \"vegas\""),
            "reno",
        ),
        (
            SMALL.replace("duration = \"2s\"", "duraton = \"2s\""),
            "did you mean `duration`",
        ),
        (
            SMALL.replace("delay = \"5ms\"", "delay = \"-5ms\""),
            "link[0].delay",
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let f = write(&dir, &format!("bad{}.toml", k + 1), text);
        for cmd in ["run", "validate"] {
            let (code, _, err) = qoslab(&[cmd, &f]);
            assert_eq!(code, 2, "{cmd} case {}: {err}", k + 1);
            assert!(
                err.contains(want),
                "{cmd} case {}: `{err}` lacks `{want}`",
                k + 1
            );
            assert!(!err.contains("panicked"), "{err}");
        }
    }
    let (code, _, err) = qoslab(&["run", "/nonexistent/scenario.toml"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = qoslab(&["frobnicate"]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).ok();
}
