//! ns-2.35's own RED validation test `red1` (tcl/test/test-suite-red.tcl: RED without ECN,
//! topology net2, two Reno flows), ported as a differential test (issue 14).
//!
//! ns-2.35 ran the suite's script stand-alone (`bench/ns2/seeds/suite/red1.tcl`, the
//! suite's settings with a seed argument) for seeds 1..10; its bottleneck statistics are
//! checked in under `tests/data/ns2/suite_red1.csv`, so ns-2 is not needed here. Our side is
//! `bench/ns2/seeds/suite/red1.toml` (mapping in its header and `bench/ns2/seeds/README.md`),
//! seeds 1..10, 10 s each (about 0.02 s of CPU per run).
//!
//! Measured (10 seeds): mean queue seen by arrivals 12.05 vs 12.19 packets (−1.1 %; ns-2's
//! seed range ±3 %), its standard deviation +0.9 %, throughput equal to 0.1 %, 7.0 vs 6.8
//! drops. Bounds: mean queue 5 %, standard deviation 10 %, throughput 1 %, mean drops within
//! 1.5 packets (a RED that lost `wait`, `gentle` or the count rule, or averaged on the wrong
//! events, moves the drops by several packets and the mean queue by more than 5 %).

use super::manifest;
use qoslab_sim::scenario::load;
use qoslab_sim::Simulator;

const SEEDS: u64 = 10;

/// ns-2's means over its seeds: ql_ave, ql_std, throughput (Mb/s), drops.
fn ns2_reference() -> [f64; 4] {
    let path = manifest("tests/data/ns2/suite_red1.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut acc = [0.0; 4];
    let mut n = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), 7, "{path:?}: bad line {line:?}");
        for (a, v) in acc.iter_mut().zip([f[1], f[2], f[5], f[6]]) {
            *a += v;
        }
        n += 1.0;
    }
    assert!(n > 0.0, "{path:?}: no rows");
    acc.map(|a| a / n)
}

fn ours(seed: u64) -> [f64; 4] {
    let s =
        load(&manifest("../../bench/ns2/seeds/suite/red1.toml")).unwrap_or_else(|e| panic!("{e}"));
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let q = r.queues.iter().find(|q| q.link == "r1->r2").unwrap();
    [
        q.length.mean,
        q.length.std,
        q.throughput_bps / 1e6,
        q.measured.total_drops() as f64,
    ]
}

#[test]
fn red1_matches_ns2() {
    let ns2 = ns2_reference();
    let mut q = [0.0; 4];
    for seed in 1..=SEEDS {
        for (a, v) in q.iter_mut().zip(ours(seed)) {
            *a += v / SEEDS as f64;
        }
    }
    eprintln!("qoslab {q:?}\nns-2.35 {ns2:?}");
    super::within("mean queue", q[0], ns2[0], 0.05);
    super::within("queue std", q[1], ns2[1], 0.10);
    super::within("throughput (Mb/s)", q[2], ns2[2], 0.01);
    assert!(
        (q[3] - ns2[3]).abs() <= 1.5,
        "drops: qoslab {:.2} vs ns-2.35 {:.2}",
        q[3],
        ns2[3]
    );
}
