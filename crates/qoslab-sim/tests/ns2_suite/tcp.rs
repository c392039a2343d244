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
//! 3.02 s in the default mode; with `sack_pipe = "ns2-sack1"`, which models ns-2 Sack1's
//! halving of min(cwnd, window) (finding 23), all 365 checkpoints and the whole run agree
//! (`sack1_with_ns2_sack1_matches_ns2_packet_for_packet`). Second, smaller deviation: ns-2's SACK sink adds 8 bytes per SACK block to an ACK
//! (48 B ACKs, 88 us more serialisation over the two links), ours sends 40 B whatever its
//! blocks; the checkpoints keep 0.5 ms away from every ns-2 event so that shift cannot
//! matter.
//!
//! Bounds: exact counts at every checkpoint before 3.02 s (172 of them); over the whole run the same drops
//! (2), retransmissions (2) and no timeout. 173 short runs, 0.02 s in all (test profile).
//!
//! The suite's `sack1a` / `sack1b` / `sack1c` (same net0, windows 20 / 26 / 27, the FTP at
//! 0 s; 4 / 8 / 9 drops; data `suite_sack1{a,b,c}.csv`, same script `--case`) are compared
//! with `sack_pipe = "ns2-sack1"`, ns-2 Sack1's 1996 pipe algorithm (finding 25): with RFC
//! 6675's pipe ours retransmits the later holes two ACKs earlier and adds a rescue
//! retransmission, and parts at 1.39 / 1.42 / 1.44 s; with the option `sack1b` agrees at all
//! 433 checkpoints, `sack1a` at all 456 (since the mode also halves min(cwnd, window) as a
//! real number, finding 23; it parted at 2.45 s before), and `sack1c` until 2.89 s (then a
//! sub-millisecond shift from ns-2's larger SACK ACKs, finding 24).

use super::manifest;
use qoslab_algo::Duration;
use qoslab_sim::scenario::parse_str;
use qoslab_sim::scenario::spec::Scenario;
use qoslab_sim::Simulator;

/// Checkpoints before this are compared exactly: it covers the second loss's two Limited
/// Transmit segments (2.992 and 3.003 s) and its fast retransmit (in the queue at 3.013 s);
/// that retransmit (3.007 s at the sender) sets cwnd by ns-2's own rule (see the module
/// comment) and the runs part afterwards (first difference at 3.44 s).
const EXACT_BEFORE_S: f64 = 3.02;

/// (t in µs, arrivals, departures, drops) rows of ns-2's r1->k1 data packets over [0, t).
fn ns2_reference(case: &str) -> Vec<(u64, [u64; 3])> {
    let path = manifest(&format!("tests/data/ns2/suite_{case}.csv"));
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

/// `sack1.toml` as it is (`sack1`) or rewritten for `sack1a` / `sack1b` / `sack1c` as
/// `sack1.py --case` does (window 20 / 26 / 27 segments, the FTP started at 0 s, so our flow
/// at 0.21088 s), with `sack_pipe = "ns2-sack1"` if `ns2_pipe`.
fn scenario(case: &str, ns2_pipe: bool) -> Scenario {
    let path = manifest("../../bench/ns2/seeds/suite/sack1.toml");
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let window = match case {
        "sack1" => None,
        "sack1a" => Some(20),
        "sack1b" => Some(26),
        "sack1c" => Some(27),
        _ => panic!("unknown case {case}"),
    };
    if let Some(w) = window {
        for (from, to) in [
            ("rwnd = \"14p\"", format!("rwnd = \"{w}p\"")),
            ("start = \"1.21088s\"", "start = \"0.21088s\"".to_string()),
        ] {
            assert_eq!(text.matches(from).count(), 1, "sack1.toml changed: {from}");
            text = text.replace(from, &to);
        }
    }
    if ns2_pipe {
        let v = "variant = \"sack\"\n";
        assert_eq!(text.matches(v).count(), 1, "sack1.toml changed: {v}");
        text = text.replace(v, &format!("{v}sack_pipe = \"ns2-sack1\"\n"));
    }
    parse_str(&text, "sack1.toml").unwrap_or_else(|e| panic!("{e}"))
}

/// Our r1->k1 counters over [0, t) and the flow's (retransmissions, timeouts).
fn ours(t_us: u64) -> ([u64; 3], [u64; 2]) {
    run(scenario("sack1", false), t_us)
}

fn run(mut s: Scenario, t_us: u64) -> ([u64; 3], [u64; 2]) {
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
    let rows = ns2_reference("sack1");
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

/// `sack1a` / `sack1b` / `sack1c` with `sack_pipe = "ns2-sack1"`: every checkpoint before
/// `exact_before_s` equal to ns-2.35's (and, as a check that the option is what makes them
/// agree, the RFC 6675 default parting at `rfc_parts_s`); over the whole run the same
/// arrivals, departures and drops where `whole_run_equal`, and ns-2's retransmissions and
/// no timeout. Returns the number of checkpoints compared.
fn sack1_case_with_ns2_pipe(
    case: &str,
    exact_before_s: f64,
    rfc_parts_s: f64,
    retx_ns2: u64,
    whole_run_equal: bool,
) -> usize {
    let rows = ns2_reference(case);
    let (ns2, rfc) = (scenario(case, true), scenario(case, false));
    let mut checked = 0;
    for &(t, want) in rows
        .iter()
        .filter(|(t, _)| (*t as f64) < exact_before_s * 1e6)
    {
        let (q, _) = run(ns2.clone(), t);
        assert_eq!(
            q,
            want,
            "{case}, ns2-sack1: r1->k1 [arrivals, departures, drops] over [0, {:.2} s)",
            t as f64 * 1e-6
        );
        let (q_rfc, _) = run(rfc.clone(), t);
        let t_s = t as f64 * 1e-6;
        if t_s < rfc_parts_s - 0.005 {
            assert_eq!(q_rfc, want, "{case}, rfc6675 before it parts, {t_s:.2} s");
        } else if (t_s - rfc_parts_s).abs() < 0.005 {
            assert_ne!(q_rfc, want, "{case}, rfc6675 parts at {rfc_parts_s} s");
        }
        checked += 1;
    }
    let &(end, ns2_end) = rows.last().unwrap();
    assert_eq!(end, 5_000_000, "last row is the whole run");
    let (q, [retx, timeouts]) = run(ns2.clone(), end);
    eprintln!("{case} at 5 s: qoslab ns2-sack1 {q:?}, ns-2.35 {ns2_end:?}");
    if whole_run_equal {
        assert_eq!(
            q, ns2_end,
            "{case}: the whole run's arrivals, departures, drops"
        );
    }
    assert_eq!(q[2], ns2_end[2], "{case}: drops over the run");
    assert_eq!(retx, retx_ns2, "{case}: retransmissions (ns-2: {retx_ns2})");
    assert_eq!(timeouts, 0, "{case}: timeouts (ns-2's nrexmit_: 0)");
    checked
}

/// `sack1b` (window 26, 8 drops): with ns-2's Sack1 pipe every one of the 433 checkpoints
/// (0.22 s to 4.99 s) and the whole run agree with ns-2.35; RFC 6675 parts at 1.42 s
/// (finding 25).
#[test]
fn sack1b_with_ns2_sack1_pipe_matches_ns2_packet_for_packet() {
    let n = sack1_case_with_ns2_pipe("sack1b", 5.0, 1.42, 8, true);
    assert_eq!(n, 433, "checkpoints");
}

/// `sack1c` (window 27, 9 drops): with ns-2's Sack1 pipe the 249 checkpoints before 2.89 s
/// agree (428 of all 434 do), and so does the whole run (333 arrivals, 321 departures, 9 drops, 9
/// retransmissions); RFC 6675 parts at 1.44 s. From 2.89 s our packets run 0.4–0.7 ms
/// ahead of ns-2's in the same order (ns-2's arrival at 2.890672 s is ours before 2.8900 s),
/// the delay ns-2's 48–64 B SACK ACKs of the recoveries left (finding 24).
#[test]
fn sack1c_with_ns2_sack1_pipe_matches_ns2_until_the_sack_ack_shift() {
    let n = sack1_case_with_ns2_pipe("sack1c", 2.89, 1.44, 9, true);
    assert_eq!(n, 249, "checkpoints");
}

/// `sack1a` (window 20, 4 drops): with `"ns2-sack1"` every one of the 456 checkpoints (0.22 s
/// to 4.99 s) and the whole run (206 arrivals, 202 departures, 4 drops, 4 retransmissions)
/// agree with ns-2.35; RFC 6675 parts at 1.39 s. The fourth drop's fast retransmit (2.07 s)
/// sets cwnd to 10.867 / 2 = 5.433 segments in both (ns-2 Sack1's halving of the window,
/// finding 23); with FlightSize / 2 = 5 the run parted at 2.45 s.
#[test]
fn sack1a_with_ns2_sack1_pipe_matches_ns2_packet_for_packet() {
    let n = sack1_case_with_ns2_pipe("sack1a", 5.0, 1.39, 4, true);
    assert_eq!(n, 456, "checkpoints");
}

/// `sack1` (window 14, 2 drops) with `"ns2-sack1"`: every one of the 365 checkpoints (1.22 s
/// to 4.99 s) and the whole run (110 arrivals, 108 departures, 2 drops, 2 retransmissions)
/// agree with ns-2.35. The second fast retransmit (3.007 s) sets cwnd 7.817 -> 3.909
/// segments and ssthresh 3 in both (finding 23); the RFC 6675 default (FlightSize / 2 =
/// 3.5 segments) parts at 3.44 s.
#[test]
fn sack1_with_ns2_sack1_matches_ns2_packet_for_packet() {
    let n = sack1_case_with_ns2_pipe("sack1", 5.0, 3.44, 2, true);
    assert_eq!(n, 365, "checkpoints");
}
