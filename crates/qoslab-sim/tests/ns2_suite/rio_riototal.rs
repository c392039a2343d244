//! Differential check against ns-2.35 (issue 14): the RIO seed (Hori et al. 2001), Table 4b
//! (prompt feedback, w_qout = 1) and Table 3's rows with In's weight 0.002 ≠ w_qout, against
//! an ns-2.35 whose RIO-C Out average is the paper's (README section 14.1, findings 2 and 8).
//!
//! Stock ns-2.35 cannot run these cells as the paper defines them: its RIO-C Out average is
//! `(1 − w_Out)·avg_Out + w_In·qlen_In + w_Out·qlen_Out` (`diffserv/dsredq.cc`, `calcAvg`),
//! at w_Out = 1 `qlen_Out + 0.002·qlen_In`. The reference values come from
//! `bench/ns2/build_riototal_ns2.sh`'s binary (dsRED's p_a capped as `queue/red.cc` caps it,
//! section 14; and `setMREDMode RIO-C-TOTAL`: `avg_Out = (1 − w_Out)·avg_Out + w_Out·(qlen_In +
//! qlen_Out)`, Hori et al. §3.C and ours), per seed in
//! `tests/data/ns2/rio_hori2001_riototal.csv` with its source, so ns-2 is not needed here.
//!
//! Our side: `scenarios/rio-hori2001/base.toml` with the cell's AF12 parameters, Reno with
//! `ns2_compat = false` (the like-for-like column of README section 1), means over seeds 1..3
//! against ns-2's mean over its seeds. Bounds are the (5 % throughput, 10 % queue and
//! drops). Drops are checked with ns-2.35's timeout ssthresh rule on our side
//! (`rto_ssthresh = "ns2-half-window"`, finding 43): our default RFC-mode Reno drops 10–15 %
//! more than ns-2's Reno at (150, 1/10), (150, 1/50) and (200, 1/10) (finding 43's known cause;
//! 40 seeds each side), 2–9 % more in the other six cells. Reference: ns-2 seeds 1..40 for Table
//! 4b, 1..10 for Table 3.

use super::{manifest, within};
use qoslab_sim::scenario::spec::FlowKind;
use qoslab_sim::transport::tcp::RtoSsthresh;
use qoslab_sim::Simulator;

/// Per seed: ql_ave, ql_std, throughput (Mb/s), drops (5..20 s), ql_p90, ql_p99.
type Stats = [f64; 6];
const NAMES: [&str; 6] = [
    "ql_ave",
    "ql_std",
    "throughput",
    "drops",
    "ql_p90",
    "ql_p99",
];

/// ns-2's per-seed statistics of the cell (`table` "4b" or "3").
fn ns2_reference(table: &str, maxth: u32, den: u32, w_out: f64) -> Vec<Stats> {
    let path = manifest("tests/data/ns2/rio_hori2001_riototal.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| {
        head.iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{path:?}: no column {name}"))
    };
    let idx: Vec<usize> = NAMES.iter().map(|n| col(n)).collect();
    let mut v = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), head.len(), "{path:?}: bad line {line:?}");
        let w: f64 = f[3].parse().unwrap();
        if f[0] == table && f[1] == maxth.to_string() && f[2] == den.to_string() && w == w_out {
            let mut s = [0.0; 6];
            for (k, &i) in idx.iter().enumerate() {
                s[k] = f[i].parse().unwrap();
            }
            v.push(s);
        }
    }
    assert!(
        !v.is_empty(),
        "{path:?}: no row for table {table} ({maxth}, 1/{den}, w {w_out})"
    );
    v
}

fn ours(maxth: u32, den: u32, w_out: f64, rto: RtoSsthresh, seed: u64) -> Stats {
    let mut s = super::rio::reno_cell(maxth, den, w_out);
    for f in &mut s.flows {
        if let FlowKind::Tcp(t) = &mut f.kind {
            t.rto_ssthresh = rto;
        }
    }
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
    let m = &q.measured;
    let drops: u64 = m.drops.iter().flatten().sum();
    [
        q.length.mean,
        q.length.std,
        q.throughput_bps / 1e6,
        drops as f64,
        q.length.p90 as f64,
        q.length.p99 as f64,
    ]
}

fn mean(v: &[Stats], i: usize) -> f64 {
    v.iter().map(|s| s[i]).sum::<f64>() / v.len() as f64
}

/// Checks `cols` (index, relative bound) of our default RFC-mode Reno and `hw_cols` of ours
/// with ns-2's timeout ssthresh rule, means over seeds 1..3, against ns-2's mean.
fn check(
    table: &str,
    maxth: u32,
    den: u32,
    w_out: f64,
    cols: &[(usize, f64)],
    hw_cols: &[(usize, f64)],
) {
    let ns2 = ns2_reference(table, maxth, den, w_out);
    for (rto, cs, tag) in [
        (RtoSsthresh::default(), cols, "rfc"),
        (RtoSsthresh::Ns2HalfWindow, hw_cols, "rfc+hw"),
    ] {
        if cs.is_empty() {
            continue;
        }
        let q: Vec<Stats> = (1..=3).map(|s| ours(maxth, den, w_out, rto, s)).collect();
        for &(i, bound) in cs {
            let what = format!(
                "Table {table} ({maxth}, 1/{den}, w_qout {w_out}) {} {tag}",
                NAMES[i]
            );
            eprintln!(
                "{what}: qoslab {:.2} ns-2 {:.2}",
                mean(&q, i),
                mean(&ns2, i)
            );
            within(&what, mean(&q, i), mean(&ns2, i), bound);
        }
    }
}

const QUEUE_AND_THROUGHPUT: &[(usize, f64)] = &[(0, 0.10), (1, 0.10), (2, 0.05)];
const DROPS: &[(usize, f64)] = &[(3, 0.10)];
const TABLE3: &[(usize, f64)] = &[(0, 0.10), (4, 0.10), (5, 0.10)];

#[test]
fn table4b_maxth150_maxp10_matches_ns2() {
    check("4b", 150, 10, 1.0, QUEUE_AND_THROUGHPUT, DROPS);
}

#[test]
fn table4b_maxth200_maxp20_matches_ns2() {
    check(
        "4b",
        200,
        20,
        1.0,
        &[(0, 0.10), (1, 0.10), (2, 0.05), (3, 0.10)],
        DROPS,
    );
}

#[test]
fn table4b_maxth250_maxp50_matches_ns2() {
    check(
        "4b",
        250,
        50,
        1.0,
        &[(0, 0.10), (1, 0.10), (2, 0.05), (3, 0.10)],
        DROPS,
    );
}

#[test]
fn table3_wqout_0_05_in_weight_0_002_matches_ns2() {
    check("3", 200, 10, 0.05, TABLE3, &[]);
}

#[test]
fn table3_wqout_0_2_in_weight_0_002_matches_ns2() {
    check("3", 200, 10, 0.2, TABLE3, &[]);
}
