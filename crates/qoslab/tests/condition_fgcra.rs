//! `qoslab condition` with an F-GCRA chain (`[fgcra]`): hand-computed tagging of a small
//! ATM frame trace, per-cell output, and input errors.

use std::path::PathBuf;

mod common;
use common::{data, run};

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("condition_fgcra", name)
}

#[test]
fn fgcra_frame_trace_hand_computed() {
    let out = tmp("frames.csv");
    let (code, stderr) = run(&data("fgcra.toml"), &data("fgcra_frames.csv"), &out);
    assert_eq!(code, 0, "{stderr}");
    // T = 1 ms, f = 2 ms, one F-GCRA per VC, TAT starts at 0.
    // VC 1: 3 cells at 0 → eligible, TAT 3 ms; at 0.1 ms TAT − f = 1 ms > 0.1 → tag;
    //       at 1 ms: 1 ≤ 1 → eligible, TAT 4 ms; at 10 ms a CLP=1 frame → tag (stays CLP=1).
    // VC 2: 200 + 8 = 208 B → 5 cells > MFS 4: eligible, 5th cell non-conforming, TAT 5 ms;
    //       at 1.5 ms: 5 − 2 = 3 > 1.5 → tag.
    let got = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        got,
        "time,vc,bytes,cells,clp_in,verdict,clp_out,nonconforming_cells\n\
         0,1,100,3,0,eligible,0,0\n\
         0.0001,1,40,1,0,tag,1,0\n\
         0.001,1,40,1,0,eligible,0,0\n\
         0.001,2,200,5,0,eligible,0,1\n\
         0.0015,2,40,1,0,tag,1,0\n\
         0.01,1,40,1,1,tag,1,0\n"
    );
    assert!(stderr.contains("  1 4 6 2 2 0"), "{stderr}");
    assert!(stderr.contains("  2 2 6 1 1 1"), "{stderr}");
}

#[test]
fn fgcra_cell_output_with_line_rate_spacing() {
    let trace = tmp("cells_in.csv");
    std::fs::write(&trace, "time,vc,bytes\n0,1,100\n0.0025,1,40\n").unwrap();
    let out = tmp("cells.csv");
    let (code, stderr) = run(&data("fgcra_cells.toml"), &trace, &out);
    assert_eq!(code, 0, "{stderr}");
    // MCR = line rate = 1000 cells/s, f = 0: the 3 cells at 0, 1, 2 ms make TAT 3 ms;
    // a frame at 2.5 ms is early → tagged.
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "time,vc,frame,cell,clp_in,verdict,clp_out\n\
         0.000000000,1,0,0,0,eligible,0\n\
         0.001000000,1,0,1,0,eligible,0\n\
         0.002000000,1,0,2,0,eligible,0\n\
         0.002500000,1,1,0,0,tag,1\n"
    );
}

#[test]
fn fgcra_bad_choice_is_exit_2_with_file_line_and_allowed_values() {
    let out = tmp("never.csv");
    let (code, stderr) = run(&data("fgcra_bad.toml"), &data("fgcra_frames.csv"), &out);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("fgcra_bad.toml:5: fgcra.conformance"),
        "{stderr}"
    );
    assert!(stderr.contains("gfr2, gfr1"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn fgcra_bad_trace_line_is_exit_2() {
    let trace = tmp("bad_in.csv");
    std::fs::write(&trace, "time,vc,bytes\n0,1,100\n0.0001,x,40\n").unwrap();
    let (code, stderr) = run(&data("fgcra.toml"), &trace, &tmp("never2.csv"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("line 3: vc `x`"), "{stderr}");
    let trace = tmp("unsorted_in.csv");
    std::fs::write(&trace, "time,vc,bytes\n0.2,1,100\n0.1,1,40\n").unwrap();
    let (code, stderr) = run(&data("fgcra.toml"), &trace, &tmp("never3.csv"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("line 3: time 0.1 is earlier"), "{stderr}");
}
