//! ns-2.35's own Adaptive RED validation test `red1Adapt`
//! (tcl/test/test-suite-adaptive-red.tcl: Adaptive RED with ns-2's automatic parameters on
//! topology net2, two TCP/Sack1 flows, 50 s), ported as a differential test (issue 14).
//!
//! ns-2.35 ran the suite's test stand-alone (`bench/ns2/seeds/suite/red1Adapt.tcl`); with
//! the suite's seed its r1->r2 packet trace equals the checked-in reference
//! `test-output-adaptive-red/red1Adapt.gz` point by point (18,717 enqueue/dequeue points, 60
//! drops; checked by `bench/ns2/seeds/suite/red1Adapt.py`). RED's drops are random, so the
//! comparison is over seeds 1..10 of both simulators (ns-2's seed 1 is the suite's run);
//! ns-2's bottleneck statistics are checked in under `tests/data/ns2/suite_red1Adapt.csv`,
//! so ns-2 is not needed here. Our side is `bench/ns2/seeds/suite/red1Adapt.toml` (mapping
//! in its header: ns-2's automatic w_q = 1 − exp(−1/375), min_th 5, max_th 15, initial
//! max_p 0.1, bottom 0.01; flows started when ns-2's SYNs are acknowledged).
//!
//! Measured (r1->r2, 3..50 s, means of 10 seeds, ns-2.35 vs qoslab): mean queue seen by
//! arrivals 10.074 vs 10.059 packets (−0.1 %; ARED's target band is 9..11), its standard
//! deviation 3.225 vs 3.287 (+1.9 %), throughput 1.497 vs 1.497 Mb/s, drops 58.9 vs 63.8
//! (+8.3 %: ns-2's seeds 57..60, ours 62..65). Explained (finding 32 of
//! `bench/ns2/seeds/README.md`): the suite sets `precisionReduce_ false`, whole-packet window
//! halving; with ns-2.35's default `true` ns-2 drops 64.5 (64..66), ours −1.1 %
//! (`bench/ns2/seeds/probes/suite_precision_reduce.py`). The data here stay the suite's.
//! ns-2's max_p averages 0.024 over the run (it starts at 0.1). With ns-2's `use_mark_p_`
//! and gentle-line deviations switched on (`ns2_use_mark_p`, `ns2_gentle_initial_max_p`)
//! every value is the same: the average never reaches max_th here.
//!
//! Bounds: mean queue 5 %, its standard deviation 10 %, throughput 1 %, drops 10 % (the
//! issue's bound for drop statistics). Plain RED with max_p fixed at the initial 0.1 instead
//! of Adaptive RED fails the mean-queue bound (see the test's second half).

use super::manifest;
use qoslab_sim::scenario::load;
use qoslab_sim::Simulator;

const SEEDS: u64 = 10;
const SCENARIO: &str = "../../bench/ns2/seeds/suite/red1Adapt.toml";

/// ns-2's means over its seeds: ql_ave, ql_std, throughput (Mb/s), drops.
fn ns2_reference() -> [f64; 4] {
    let path = manifest("tests/data/ns2/suite_red1Adapt.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut acc = [0.0; 4];
    let mut n = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), 8, "{path:?}: bad line {line:?}");
        for (a, v) in acc.iter_mut().zip([f[1], f[2], f[5], f[6]]) {
            *a += v;
        }
        n += 1.0;
    }
    assert_eq!(n, SEEDS as f64, "{path:?}: expected {SEEDS} seeds");
    acc.map(|a| a / n)
}

/// Our means over seeds 1..=SEEDS, from the scenario text after `edit`.
fn ours(edit: impl Fn(&str) -> String) -> [f64; 4] {
    let text = std::fs::read_to_string(manifest(SCENARIO)).unwrap();
    let dir = std::env::temp_dir().join(format!("qoslab-ared-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("red1Adapt.toml");
    std::fs::write(&file, edit(&text)).unwrap();
    let s = load(&file).unwrap_or_else(|e| panic!("{e}"));
    let mut acc = [0.0; 4];
    for seed in 1..=SEEDS {
        let r = Simulator::new(s.clone(), seed).unwrap().run().unwrap();
        let q = r.queues.iter().find(|q| q.link == "r1->r2").unwrap();
        for (a, v) in acc.iter_mut().zip([
            q.length.mean,
            q.length.std,
            q.throughput_bps / 1e6,
            q.measured.total_drops() as f64,
        ]) {
            *a += v / SEEDS as f64;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    acc
}

#[test]
fn red1adapt_matches_ns2() {
    let ns2 = ns2_reference();
    let q = ours(|t| t.to_string());
    eprintln!("qoslab {q:?}\nns-2.35 {ns2:?}");
    super::within("mean queue", q[0], ns2[0], 0.05);
    super::within("queue std", q[1], ns2[1], 0.10);
    super::within("throughput (Mb/s)", q[2], ns2[2], 0.01);
    super::within("drops", q[3], ns2[3], 0.10);

    // The same scenario without the adaptation (RED with max_p fixed at 0.1) is told apart.
    let plain = ours(|t| t.replacen(", adaptive = true", "", 1));
    eprintln!("qoslab without adaptation {plain:?}");
    assert!(
        (plain[0] / ns2[0] - 1.0).abs() > 0.05,
        "plain RED's mean queue {:.3} should not match Adaptive RED's {:.3}",
        plain[0],
        ns2[0]
    );
}
