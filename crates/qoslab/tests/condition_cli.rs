//! `qoslab condition` through the binary: exit codes, messages and a hand-computed output.

use std::path::PathBuf;

mod common;
use common::{data, run};

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("condition_cli", name)
}

#[test]
fn srtcm_trace_hand_computed() {
    let out = tmp("small-out.csv");
    let (code, stderr) = run(&data("srtcm.toml"), &data("small.csv"), &out);
    assert_eq!(code, 0, "{stderr}");
    // CIR = 1 B/us, CBS = 1000, EBS = 500, both full at t = 0 (RFC 2697 §3):
    // 600 green (Tc 400); 600 red (Tc 400, Te 500); 500 yellow (Te 0);
    // at 0.9 ms +900 B: C takes 600 (full), 300 overflow to E; 1000 green (Tc 0, Te 300);
    // at 1.2 ms +300 B to C: 300 green (Tc 0); 300 yellow (Te 0).
    let got = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        got,
        "time,size,flow,color\n0,600,1,green\n0,600,1,red\n0,500,2,yellow\n\
         0.0009,1000,1,green\n0.0012,300,2,green\n0.0012,300,1,yellow\n"
    );
    assert!(stderr.contains("6 packets left the chain"), "{stderr}");
}

#[test]
fn unknown_key_is_exit_2_with_file_line_and_allowed_keys() {
    let out = tmp("never.csv");
    let (code, stderr) = run(&data("bad_key.toml"), &data("small.csv"), &out);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad_key.toml:6:"), "{stderr}");
    assert!(
        stderr.contains("stage[0].pbs: unknown key in an srtcm stage")
            && stderr.contains("kind, mode, cir, cbs, ebs"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn unsorted_trace_is_exit_2_with_line() {
    let (code, stderr) = run(
        &data("srtcm.toml"),
        &data("unsorted.csv"),
        &tmp("unsorted-out.csv"),
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("unsorted.csv: line 3"), "{stderr}");
}
