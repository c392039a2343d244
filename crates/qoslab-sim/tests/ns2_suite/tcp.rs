//! ns-2.35's own SACK validation test `sack1` (tcl/test/test-suite-sack.tcl: "SACK TCP,
//! single packet drop", topology net0, one TCP/Sack1 flow whose slow start overflows a
//! drop-tail queue), ported as a differential test (issue 14).
//!
//! Nothing in the case is random. ns-2.35 ran the suite's test stand-alone
//! (`bench/ns2/seeds/suite/sack1.tcl`), whose trace equals the suite's checked-in reference
//! `test-output-sack/sack1.gz` point by point (220 enqueue/dequeue points, drops of seqno 26
//! at 1.9356 s and 46 at 2.554528 s; checked by `bench/ns2/seeds/suite/sack1.py`). The data
//! packets it put through the bottleneck queue r1->k1 (arrivals, dequeues, drops), counted
//! at checkpoints every 10 ms, are in `tests/data/ns2/suite_sack1.csv`, so ns-2 is not
//! needed here. Our side is `bench/ns2/seeds/suite/sack1.toml` (mapping in its header: our
//! flow starts when ns-2's SYN has been acknowledged, our segment n is ns-2's seqno n + 1).
//!
//! Measured: every one of the 214 checkpoints from 1.22 s to 3.43 s agrees exactly (slow
//! start to the 14-segment window, the overflow drop, the SACK fast retransmit and recovery,
//! congestion avoidance, the second drop, its two Limited Transmit segments and fast
//! retransmit); the first difference is at 3.44 s (ns-2 61 arrivals, ours
//! 60), after the second fast retransmit (3.007 s), where ns-2's Sack1 halves cwnd (7.817 ->
//! 3.909 segments, ssthresh int(3.909) = 3) while ours, RFC 6675 with RFC 5681 (4), sets
//! cwnd = ssthresh = FlightSize / 2 = 7000 B / 2 = 3500 B: ns-2 recovers with the larger
//! window and by 5 s has put 110 data packets into the queue against our 106 (108 vs 104
//! dequeued); both drop 2, retransmit 2 and time out 0 times. That difference is an ns-2
//! deviation from the RFC (halving cwnd instead of FlightSize), not checked here beyond
//! 3.02 s. Second, smaller deviation: ns-2's SACK sink adds 8 bytes per SACK block to an ACK
//! (48 B ACKs, 88 us more serialisation over the two links), ours sends 40 B whatever its
//! blocks; the checkpoints keep 0.5 ms away from every ns-2 event so that shift cannot
//! matter.
//!
//! Bounds: exact counts at every checkpoint before 3.02 s (172 of them); over the whole run the same drops
//! (2), retransmissions (2) and no timeout. 173 short runs, 0.02 s in all (test profile).

use std::path::PathBuf;

use qoslab_algo::Duration;
use qoslab_sim::scenario::load;
use qoslab_sim::Simulator;

/// Checkpoints before this are compared exactly: it covers the second loss's two Limited
/// Transmit segments (2.992 and 3.003 s) and its fast retransmit (in the queue at 3.013 s);
/// that retransmit (3.007 s at the sender) sets cwnd by ns-2's own rule (see the module
/// comment) and the runs part afterwards (first difference at 3.44 s).
const EXACT_BEFORE_S: f64 = 3.02;

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// (t in µs, arrivals, departures, drops) rows of ns-2's r1->k1 data packets over [0, t).
fn ns2_reference() -> Vec<(u64, [u64; 3])> {
    let path = manifest("tests/data/ns2/suite_sack1.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 4, "{path:?}: bad line {line:?}");
        let t: f64 = f[0].parse().unwrap();
        let n = |i: usize| f[i].parse::<u64>().unwrap();
        rows.push(((t * 1e6).round() as u64, [n(1), n(2), n(3)]));
    }
    assert!(rows.len() > 100, "{path:?}: too few rows");
    rows
}

/// Our r1->k1 counters over [0, t) and the flow's (retransmissions, timeouts).
fn ours(t_us: u64) -> ([u64; 3], [u64; 2]) {
    let mut s =
        load(&manifest("../../bench/ns2/seeds/suite/sack1.toml")).unwrap_or_else(|e| panic!("{e}"));
    s.duration = Duration::from_micros(t_us);
    let r = Simulator::new(s, 1).unwrap().run().unwrap();
    let q = &r.queues.iter().find(|q| q.link == "r1->k1").unwrap().total;
    let f = &r.flows[0].total;
    (
        [q.arrivals, q.departures, q.total_drops()],
        [f.retx_pkts, f.timeouts],
    )
}

#[test]
fn sack1_matches_ns2_packet_for_packet_until_the_second_recovery() {
    let rows = ns2_reference();
    let mut checked = 0;
    for &(t, ns2) in rows
        .iter()
        .filter(|(t, _)| (*t as f64) < EXACT_BEFORE_S * 1e6)
    {
        let (q, _) = ours(t);
        assert_eq!(
            q,
            ns2,
            "r1->k1 [arrivals, departures, drops] over [0, {:.2} s): qoslab vs ns-2.35",
            t as f64 * 1e-6
        );
        checked += 1;
    }
    assert!(
        checked > 150,
        "only {checked} checkpoints before {EXACT_BEFORE_S} s"
    );
    let &(end, ns2_end) = rows.last().unwrap();
    assert_eq!(end, 5_000_000, "last row is the whole run");
    let (q, [retx, timeouts]) = ours(end);
    eprintln!("at 5 s: qoslab {q:?}, ns-2.35 {ns2_end:?} (ns-2 halves cwnd, ours FlightSize)");
    assert_eq!(q[2], ns2_end[2], "drops over the run");
    assert_eq!(retx, 2, "retransmissions (ns-2: 2)");
    assert_eq!(timeouts, 0, "timeouts (ns-2's nrexmit_: 0)");
}
