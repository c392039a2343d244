//! `qoslab condition` with PCN chains through the binary: a hand-computed STM trace,
//! determinism of a CL + STM chain, and a broken rule reported with exit code 2.

use std::path::PathBuf;

mod common;
use common::{data, run};

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("condition_pcn_cli", name)
}

#[test]
fn stm_trace_hand_computed() {
    let out = tmp("pcn-stm-out.csv");
    let (code, stderr) = run(&data("pcn_stm.toml"), &data("pcn_small.csv"), &out);
    assert_eq!(code, 0, "{stderr}");
    // AR = 1 Mb/s, SR = 2 Mb/s; SwTB 20,000/10,000 bit, MkTB 20,000/4,000 bit, N = 3;
    // buckets full at the first packet; 1000 B = 8000 bit. (Sw, Mk) found → decision:
    // 1. t=0   (20000, 20000): 20000−8000 ≥ 10000, switch OFF                → NM; (12000, 12000)
    // 2. t=0   (12000, 12000): ON, Mk < size: markCnt 1, ≥ 4000 partial    → NM; (4000, 4000)
    // 3. 1 ms  (5000, 6000):   ON, markCnt 2, partial                      → NM; (0, 0)
    // 4. 2 ms  (1000, 2000):   ON, markCnt 3, 2000 < 4000 full zone        → TM, markCnt 0; (0, 0)
    // 5. 10 ms (8000, 16000):  ON, markCnt 1, partial                      → NM; (0, 8000)
    // 6. 20 ms (10000, 20000): ON, MkTB full: not counted                  → NM; (2000, 12000)
    // 7. 20 ms (2000, 12000):  ON, markCnt 2                               → NM; (0, 4000)
    // 8. 20 ms, 800 bit (0, 4000): ON, markCnt 3 = N, 4000 not < 4000      → TM (1/N); (0, 3200)
    // 9. 1 s   (20000, 20000): OFF                                         → NM; (12000, 12000)
    // 10. 1 s  arrived TM: (12000, 12000) ON, markCnt 1 → stays TM.
    let got = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        got,
        "time,size,flow,pcn_in,pcn\n\
         0,1000,1,0,not-marked\n\
         0,1000,1,0,not-marked\n\
         0.001,1000,2,0,not-marked\n\
         0.002,1000,1,0,threshold-marked\n\
         0.010,1000,1,0,not-marked\n\
         0.020,1000,2,0,not-marked\n\
         0.020,1000,1,0,not-marked\n\
         0.020,100,1,0,threshold-marked\n\
         1.0,1000,1,0,not-marked\n\
         1.0,1000,2,threshold-marked,threshold-marked\n"
    );
    assert!(
        stderr.contains(
            "10 packets left the PCN chain: 7 not-marked, 3 threshold-marked, 0 excess-marked"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 partial-zone, 1 full-zone, switch on for 8"),
        "{stderr}"
    );
}

#[test]
fn cl_then_stm_is_deterministic() {
    let a = tmp("pcn-cl-stm-a.csv");
    let b = tmp("pcn-cl-stm-b.csv");
    let (c1, e1) = run(&data("pcn_cl_stm.toml"), &data("pcn_small.csv"), &a);
    let (c2, _) = run(&data("pcn_cl_stm.toml"), &data("pcn_small.csv"), &b);
    assert_eq!((c1, c2), (0, 0), "{e1}");
    let (ta, tb) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert_eq!(ta, tb);
    assert_eq!(ta.lines().count(), 11);
    assert!(e1.contains("stage[0] pcn-cl admission: 10 packets"), "{e1}");
    assert!(
        e1.contains("stage[0] pcn-cl termination: 10 packets"),
        "{e1}"
    );
    assert!(e1.contains("stage[1] pcn-stm: 10 packets"), "{e1}");
}

#[test]
fn broken_rule_is_exit_2_with_file_line_and_rule() {
    let out = tmp("pcn-never.csv");
    let (code, stderr) = run(&data("pcn_bad.toml"), &data("pcn_small.csv"), &out);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("pcn_bad.toml:2:"), "{stderr}");
    assert!(
        stderr.contains("MkTB.threshold <= MkTB.size") && stderr.contains("§3.1"),
        "{stderr}"
    );
    assert!(!out.exists());
}
