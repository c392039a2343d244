//! TCP validated against published and peer-simulator numbers.
//!
//! 1. **RFC 4828 Table 7** (App. B.1, TCP column: ns-2 SACK TCP under a configured packet
//!    drop rate): `scenarios/rfc4828/table7/sack-packet-loss.toml`, swept over the table's
//!    drop rates; our mean sending rate per flow must lie within ±25 % of the published one
//!    up to p = 0.2 and keep falling beyond (the acceptance rule).
//! 2. **ns-3 3.44** (the shared peer benchmark, `/work/shared/peers/ns3_dumbbell.cc`, and
//!    our own ns-3 program of the same workload, `bench/ns3/dumbbell_flows.cc`, which also
//!    runs with SACK and prints per-flow goodput): `scenarios/bench/dumbbell-{red,droptail}.toml`;
//!    our aggregate goodput and Jain index are compared with the ns-3 figures recorded in
//!    `bench/ns3_reference.json` (ns-3 is not run here).
//!
//! Run with `--nocapture` to see the side-by-side tables.
//!
//! # Sample sizes (chosen once from the spread measured over 20 seeds, not per number)
//! * p <= 0.2: 3 seeds x 10 flows x 50 s. The seed-to-seed standard deviation of the
//!   10-flow mean is 5 % of the mean at p = 0.001, 2-4 % at 0.005-0.1, 9 % at 0.2, so
//!   3 seeds leave the ±25 % band far from noise. Runs take ~0.1-0.3 s each.
//! * p >= 0.2 (trend): 10 seeds. At p = 0.4 a single 10-flow run varies by ±50 %
//!   (a few flows sit in long exponential backoffs), so fewer seeds could reorder
//!   neighbouring points by chance. These runs carry few packets and are cheap.

use std::path::PathBuf;

use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::{FlowKind, LossSpec, Scenario, TcpVariant};
use qoslab_sim::{RunResult, Simulator};

fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn load_repo(rel: &str) -> Scenario {
    load(&repo_path(rel)).unwrap_or_else(|e| panic!("{e}"))
}

fn run(s: Scenario, seed: u64) -> RunResult {
    Simulator::new(s, seed).unwrap().run().unwrap()
}

// ---------------------------------------------------------------------------------------
// RFC 4828 Table 7
// ---------------------------------------------------------------------------------------

const TABLE7_SCENARIO: &str = "scenarios/rfc4828/table7/sack-packet-loss.toml";

/// (drop rate, published TCP send rate in Kbps) from `data/rfc4828/table7.csv`.
fn table7() -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(repo_path("data/rfc4828/table7.csv")).unwrap();
    let rows: Vec<(f64, f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("drop_rate") && !l.trim().is_empty())
        .map(|l| {
            let mut c = l.split(',');
            let p = c.next().unwrap().parse().unwrap();
            let kbps = c.next().unwrap().parse().unwrap();
            assert_eq!(c.next(), Some("RFC 4828 Table 7"), "{l}");
            (p, kbps)
        })
        .collect();
    assert_eq!(rows.len(), 11, "Table 7 has eleven drop rates");
    rows
}

/// The Table 7 scenario with drop rate `p` on the data direction (G1->G2) only.
fn table7_scenario(p: f64) -> Scenario {
    let mut s = load_repo(TABLE7_SCENARIO);
    let mut found = false;
    for l in &mut s.links {
        match l.name.as_str() {
            "G1->G2" => {
                l.loss = Some(LossSpec::Packet { p });
                found = true;
            }
            // ACKs are never dropped (RFC 4828 B.1 drops "the TCP and TFRC packets").
            _ => assert!(
                matches!(l.loss, None | Some(LossSpec::Packet { p: 0.0 })),
                "{}: unexpected loss {:?}",
                l.name,
                l.loss
            ),
        }
    }
    assert!(found, "no G1->G2 link in {TABLE7_SCENARIO}");
    s
}

/// What one drop rate gave over `seeds`.
struct Point {
    p: f64,
    /// Mean over all flows and seeds of each flow's send rate (Kbps, payload bytes with
    /// retransmissions, headers excluded: RFC 4828's TCP "sending rate". Issue 17's decision,
    /// shared with `qoslab reproduce rfc4828`: Table 5 shows the RFC's TCP send rate counts
    /// no headers (14 B segments send 6.37 Kb/s for 6.34 Kb/s of goodput, a ratio of
    /// 1/(1 - p) at its packet drop rate 0.005; with the 40 B header counted it would be 3.9).)
    send_kbps: f64,
    /// Aggregate data-packet drop rate actually seen (dropped / sent).
    seen_drop: f64,
    data_pkts: u64,
    timeouts: u64,
}

fn table7_point(p: f64, seeds: std::ops::RangeInclusive<u64>) -> Point {
    let (mut sum, mut n, mut pkts, mut dropped, mut timeouts) = (0.0, 0usize, 0u64, 0u64, 0u64);
    for seed in seeds {
        let r = run(table7_scenario(p), seed);
        assert_eq!(r.flows.len(), 10, "RFC 4828 B.1 averages over ten flows");
        for f in &r.flows {
            sum += f.send_payload_bps / 1e3;
            n += 1;
            pkts += f.measured.data_pkts;
            dropped += f.measured.data_dropped;
            timeouts += f.measured.timeouts;
        }
    }
    Point {
        p,
        send_kbps: sum / n as f64,
        seen_drop: dropped as f64 / pkts.max(1) as f64,
        data_pkts: pkts,
        timeouts,
    }
}

fn print_table(title: &str, rows: &[(Point, f64)]) {
    println!("{title}");
    println!(
        "{:>6} {:>11} {:>11} {:>8} {:>9} {:>9} {:>9}",
        "p", "ours Kbps", "RFC Kbps", "diff %", "seen p", "data pkts", "timeouts"
    );
    for (pt, rfc) in rows {
        println!(
            "{:>6} {:>11.2} {:>11.2} {:>+8.1} {:>9.4} {:>9} {:>9}",
            pt.p,
            pt.send_kbps,
            rfc,
            100.0 * (pt.send_kbps / rfc - 1.0),
            pt.seen_drop,
            pt.data_pkts,
            pt.timeouts
        );
    }
}

/// The scenario says what RFC 4828 App. B.1 says (so that the comparison below compares
/// like with like).
#[test]
fn table7_scenario_is_rfc4828_b1() {
    use qoslab_algo::Duration;
    use qoslab_sim::scenario::spec::{FlowKind, TcpVariant};
    let s = load_repo(TABLE7_SCENARIO);
    // "over the second half of a 100-second simulation"
    assert_eq!(
        (s.duration, s.warmup),
        (Duration::from_secs(100), Duration::from_secs(50))
    );
    assert_eq!(s.flows.len(), 10);
    let mut rtt = Duration::ZERO;
    for name in ["S1->G1", "G1->G2", "G2->D1", "D1->G2", "G2->G1", "G1->S1"] {
        rtt += s.links.iter().find(|l| l.name == name).unwrap().delay;
    }
    // "a round-trip time of 240 ms in the absence of queueing delay" (propagation).
    assert_eq!(rtt, Duration::from_millis(240));
    for f in &s.flows {
        let FlowKind::Tcp(t) = &f.kind else {
            panic!("{} is not TCP", f.name)
        };
        // SACK, Limited Transmit, 1460 B + 40 B, rwnd 100 packets, min RTO 200 ms,
        // an ACK per segment (ns-2 TCPSink/Sack1).
        assert_eq!(t.variant, TcpVariant::Sack);
        assert!(t.limited_transmit);
        assert_eq!((t.mss, t.header, t.rwnd), (1460, 40, 100 * 1460));
        assert_eq!(t.min_rto, Duration::from_millis(200));
        assert_eq!(t.delayed_ack, None);
    }
}

/// RFC 4828 Table 7, p = 0.001 ... 0.2: our SACK TCP sends within ±25 % of ns-2's.
///
/// Measured (20 seeds, mean send rate per flow in Kbps; ours / published):
/// 0.001: 1973.5 / 2020.85 (−2.3 %), 0.005: 849.1 / 811.10 (+4.7 %), 0.01: 581.9 / 515.45
/// (+12.9 %), 0.02: 392.1 / 362.93 (+8.0 %), 0.04: 258.4 / 250.06 (+3.3 %), 0.05: 226.4 /
/// 204.48 (+10.7 %), 0.1: 152.0 / 143.30 (+6.0 %), 0.2: 81.9 / 78.65 (+4.1 %).
#[test]
fn rfc4828_table7_tcp_within_25_percent_up_to_p_0_2() {
    let mut rows = Vec::new();
    for (p, rfc) in table7().into_iter().filter(|&(p, _)| p <= 0.2) {
        rows.push((table7_point(p, 1..=3), rfc));
    }
    print_table(
        "RFC 4828 Table 7, TCP column, p <= 0.2 (3 seeds x 10 flows)",
        &rows,
    );
    for (pt, rfc) in &rows {
        // The configured loss is what the data packets see (binomial: 5 standard errors).
        let se = (pt.p * (1.0 - pt.p) / pt.data_pkts as f64).sqrt();
        assert!(
            (pt.seen_drop - pt.p).abs() < 5.0 * se,
            "p = {}: data packets saw a drop rate of {}",
            pt.p,
            pt.seen_drop
        );
        let diff = pt.send_kbps / rfc - 1.0;
        assert!(
            diff.abs() <= 0.25,
            "p = {}: ours {:.2} Kbps vs RFC 4828 Table 7 {:.2} Kbps ({:+.1} %)",
            pt.p,
            pt.send_kbps,
            rfc,
            100.0 * diff
        );
    }
}

/// RFC 4828 Table 7, p = 0.2 ... 0.5: the send rate keeps falling, as ns-2's does
/// (78.65, 26.26, 9.87, 3.53 Kbps), and stays within a factor 2.5 of each published value.
///
/// The factor is loose because here each published value is one ns-2 run of ten flows
/// whose mean itself varies by about ±20 % (p = 0.3) to ±50 % (p = 0.4, 0.5) from seed to
/// seed in our runs: a few flows spend most of the 50 s in exponential backoff. Our
/// 20-seed means: 0.3: 26.3 Kbps (+0.0 %), 0.4: 7.1 (−28 %), 0.5: 2.2 (−37 %). At 0.4-0.5
/// the RTO cap matters: ns-2 stops doubling at 64 x RTO (about 16-26 s here), we at 60 s
/// (RFC 6298 (2.5)); with a 16 s cap instead our 20-seed means are 31.4, 10.7, 4.2 Kbps.
#[test]
fn rfc4828_table7_tcp_keeps_falling_beyond_p_0_2() {
    let mut rows = Vec::new();
    for (p, rfc) in table7().into_iter().filter(|&(p, _)| p >= 0.2) {
        rows.push((table7_point(p, 1..=10), rfc));
    }
    print_table(
        "RFC 4828 Table 7, TCP column, p >= 0.2 (10 seeds x 10 flows)",
        &rows,
    );
    for w in rows.windows(2) {
        let ((a, _), (b, _)) = (&w[0], &w[1]);
        assert!(
            b.send_kbps < a.send_kbps,
            "send rate must fall from p = {} ({:.2} Kbps) to p = {} ({:.2} Kbps)",
            a.p,
            a.send_kbps,
            b.p,
            b.send_kbps
        );
    }
    for (pt, rfc) in &rows {
        let ratio = pt.send_kbps / rfc;
        assert!(
            (1.0 / 2.5..=2.5).contains(&ratio),
            "p = {}: ours {:.2} Kbps vs RFC 4828 Table 7 {:.2} Kbps",
            pt.p,
            pt.send_kbps,
            rfc
        );
        // Beyond p = 0.2 TCP lives in timeouts: every flow had some.
        assert!(
            pt.timeouts >= 10 * 10,
            "p = {}: only {} timeouts",
            pt.p,
            pt.timeouts
        );
    }
}

// ---------------------------------------------------------------------------------------
// ns-3 3.44 dumbbell
// ---------------------------------------------------------------------------------------

/// Payload bytes per data packet in the ns-3 workload (542 B on the wire).
const NS3_SEGMENT: f64 = 500.0;

/// The recorded ns-3 runs of `bench/ns3/dumbbell_flows.cc` for `queue` ("red" /
/// "droptail") with SACK on or off, all written by `bench/ns3/run.sh` into
/// `bench/ns3_reference.json` (issue 17: every recorded reference comes from a command in the
/// repository; the shared peer's own runs and the per-flow diagnostics of an instrumented ns-3
/// build that is not kept were dropped from the file, so the resent-segment counts quoted in
/// the docs below are that earlier measurement, not something a test reads).
fn ns3_runs(queue: &str, sack: bool) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(repo_path("bench/ns3_reference.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let runs: Vec<_> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["queue"] == queue && r["sack"] == sack)
        .cloned()
        .collect();
    assert!(!runs.is_empty(), "no ns-3 run for {queue} (sack {sack})");
    runs
}

/// Mean of field `key` over `runs`.
fn ns3_mean(runs: &[serde_json::Value], key: &str) -> f64 {
    runs.iter().map(|r| r[key].as_f64().unwrap()).sum::<f64>() / runs.len() as f64
}

/// Our run of `scenarios/bench/dumbbell-{queue}.toml` next to ns-3's.
struct Ns3Comparison {
    ours_goodput: f64,
    ns3_goodput: f64,
    ours_pkts: f64,
    ns3_pkts: f64,
}

fn ns3_compare(queue: &str) -> Ns3Comparison {
    ns3_compare_seeds(queue, &[1])
}

/// Our means over `seeds` next to the mean of ns-3's runs without SACK.
fn ns3_compare_seeds(queue: &str, seeds: &[u64]) -> Ns3Comparison {
    let ns3 = ns3_runs(queue, false);
    let runs: Vec<_> = seeds
        .iter()
        .map(|&seed| {
            run(
                load_repo(&format!("scenarios/bench/dumbbell-{queue}.toml")),
                seed,
            )
        })
        .collect();
    let n = runs.len() as f64;
    let mean = |f: &dyn Fn(&qoslab_sim::RunResult) -> f64| runs.iter().map(f).sum::<f64>() / n;
    let r = &runs[0];
    let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
    let bottleneck = |r: &qoslab_sim::RunResult| {
        r.queues
            .iter()
            .find(|q| q.link == "G1->G2")
            .unwrap()
            .total
            .departures as f64
    };
    let c = Ns3Comparison {
        ours_goodput: mean(&|r| r.aggregate.goodput_bps / 1e6),
        ns3_goodput: ns3_mean(&ns3, "goodput_mbps"),
        ours_pkts: mean(&bottleneck),
        ns3_pkts: ns3_mean(&ns3, "bottleneck_pkts_dequeued"),
    };
    println!(
        "{queue:>8}: goodput ours {:.3} / ns-3 {:.3} Mb/s ({:+.1} %); bottleneck pkts ours {} / ns-3 {} \
         ({:+.1} %); drops ours {} / ns-3 {}; Jain ours {:.4}",
        c.ours_goodput,
        c.ns3_goodput,
        100.0 * (c.ours_goodput / c.ns3_goodput - 1.0),
        c.ours_pkts,
        c.ns3_pkts,
        100.0 * (c.ours_pkts / c.ns3_pkts - 1.0),
        q.total.total_drops(),
        ns3_mean(&ns3, "bottleneck_pkts_dropped"),
        r.aggregate.jain_index,
    );
    c
}

/// RED bottleneck, NewReno **without SACK on both sides**, our mean over seeds 1-5 against
/// the mean of ns-3's five runs (56.53 Mb/s; 54.8-58.8): ours is about +12 % above it. The cause is on ns-3's
/// side (see `bench/README.md`): ns-3 spends 35 958 of its 320 891 bottleneck data packets
/// (11.2 %) resending segments that had already crossed the link (six flows after RTOs,
/// NewReno without SACK), so its goodput is its unique data only. With SACK on in ns-3 the
/// gap closes (`ns3_sack_dumbbell_*` below). What this test asserts: our goodput lies
/// between ns-3's goodput (its unique data) and the larger of ns-3's total payload rate over
/// the link (unique + resent: 64.05 Mb/s) and 1 % above ns-2.35's goodput on the same
/// scenario (64.20 Mb/s, `bench/ns2/README.md`). Since the `rto_ssthresh` default became
/// `min-kept-flight-size` (issue 14, finding 11) our NewReno wastes fewer packets after
/// timeouts in recovery and its goodput (64.15) exceeds ns-3's total payload by 0.1 Mb/s
/// while matching ns-2.35's; the link's payload capacity is 70 × 500/542 = 64.58 Mb/s.
#[test]
fn ns3_dumbbell_red_goodput_bracketed_by_ns3_unique_and_total_payload() {
    let c = ns3_compare_seeds("red", &[1, 2, 3, 4, 5]);
    let total_payload = c.ns3_pkts * NS3_SEGMENT * 8.0 / 20.0 / 1e6;
    const NS2_GOODPUT: f64 = 64.20;
    let upper = total_payload.max(NS2_GOODPUT * 1.01);
    assert!(
        c.ours_goodput >= c.ns3_goodput && c.ours_goodput <= upper,
        "ours {:.2} Mb/s, ns-3 goodput {:.2}, ns-3 payload over the link {:.2}, ns-2.35 {NS2_GOODPUT}",
        c.ours_goodput,
        c.ns3_goodput,
        total_payload
    );
}

/// Drop-tail bottleneck, NewReno without SACK on both sides: **our goodput is 13.6 % above
/// ns-3's** (64.30 vs 56.61 Mb/s), and the cause is on ns-3's side: both links are equally
/// busy (ours 321 683 packets, ns-3 320 516: +0.4 %), but 37 247 (11.6 %) of ns-3's data
/// packets over the bottleneck resend segments that had already crossed it. All of them
/// come from the one flow that had an RTO (flow 3: 94 302 packets sent, 391 fast recoveries
/// after that timeout); ns-3 dropped only 751 packets. What this test checks: the links
/// carry the same number of packets (within 5 %), and our goodput matches ns-3's payload
/// rate over the link *without* those resent segments (within 5 %), i.e. the whole gap is
/// the resent segments.
#[test]
fn ns3_dumbbell_droptail_link_and_unique_data_within_5_percent() {
    let c = ns3_compare("droptail");
    let diff = c.ours_pkts / c.ns3_pkts - 1.0;
    assert!(
        diff.abs() <= 0.05,
        "bottleneck packets {:+.1} % from ns-3",
        100.0 * diff
    );
    // (A check that ns-3's recorded goodput equals its recorded unique payload stood here:
    // it compared two recorded numbers with each other and could not fail unless the file
    // was edited, so it was removed — issue 17.)
    let with_dups = c.ns3_pkts * NS3_SEGMENT * 8.0 / 20.0 / 1e6;
    let diff = c.ours_goodput / with_dups - 1.0;
    assert!(
        diff.abs() <= 0.05,
        "goodput {:+.1} % from ns-3's payload rate over the link",
        100.0 * diff
    );
}

/// Aggregate goodput (Mb/s) and Jain's index of per-flow goodput, means over runs.
#[derive(Debug)]
struct GoodputFairness {
    goodput: f64,
    jain: f64,
    runs: usize,
}

/// ns-3 3.44 NewReno **with SACK** (`bench/ns3/dumbbell_flows.cc --sack=1`): the runs
/// recorded in `bench/ns3_reference.json` for `queue`.
fn ns3_sack_reference(queue: &str) -> GoodputFairness {
    let runs = ns3_runs(queue, true);
    GoodputFairness {
        goodput: ns3_mean(&runs, "goodput_mbps"),
        jain: ns3_mean(&runs, "jain"),
        runs: runs.len(),
    }
}

/// Our `scenarios/bench/dumbbell-{queue}.toml` with every flow's variant set to `variant`.
fn ours_dumbbell(queue: &str, variant: TcpVariant, seeds: &[u64]) -> GoodputFairness {
    let mut goodput = 0.0;
    let mut jain = 0.0;
    for &seed in seeds {
        let mut s = load_repo(&format!("scenarios/bench/dumbbell-{queue}.toml"));
        for f in &mut s.flows {
            if let FlowKind::Tcp(t) = &mut f.kind {
                t.variant = variant;
            }
        }
        let r = run(s, seed);
        let g: Vec<f64> = r.flows.iter().map(|f| f.goodput_bps / 1e6).collect();
        let sum: f64 = g.iter().sum();
        goodput += sum;
        jain += sum * sum / (g.len() as f64 * g.iter().map(|x| x * x).sum::<f64>());
    }
    let n = seeds.len() as f64;
    GoodputFairness {
        goodput: goodput / n,
        jain: jain / n,
        runs: seeds.len(),
    }
}

/// The criterion against ns-3 with SACK on (which removes ns-3's resending of
/// delivered segments after an RTO, see above): aggregate goodput within 5 % and Jain's
/// index within 0.05, for our NewReno (the workload's TCP) and our SACK. Measured
/// (`bash bench/ns3/run.sh 5`): drop-tail ns-3 64.34 Mb/s, Jain 0.915; ours NewReno 64.30
/// (-0.1 %), 0.907; SACK 64.47 (+0.2 %), 0.954. RED (5 runs each) ns-3 64.13, 0.984; ours
/// NewReno 63.13 (-1.6 %), 0.989; SACK 63.98 (-0.2 %), 0.991.
fn ns3_sack_check(queue: &str, seeds: &[u64]) {
    let ns3 = ns3_sack_reference(queue);
    for variant in [TcpVariant::NewReno, TcpVariant::Sack] {
        let ours = ours_dumbbell(queue, variant, seeds);
        let diff = ours.goodput / ns3.goodput - 1.0;
        println!(
            "{queue:>8} {variant:?}: goodput ours {:.3} ({} runs) / ns-3 + SACK {:.3} ({} runs) \
             Mb/s ({:+.2} %); Jain ours {:.3} / ns-3 {:.3}",
            ours.goodput,
            ours.runs,
            ns3.goodput,
            ns3.runs,
            100.0 * diff,
            ours.jain,
            ns3.jain
        );
        assert!(
            diff.abs() <= 0.05,
            "{queue} {variant:?}: goodput {:+.1} % from ns-3 with SACK",
            100.0 * diff
        );
        assert!(
            (ours.jain - ns3.jain).abs() <= 0.05,
            "{queue} {variant:?}: Jain {:.3} vs ns-3 {:.3}",
            ours.jain,
            ns3.jain
        );
    }
}

#[test]
fn ns3_sack_dumbbell_droptail_goodput_and_fairness() {
    ns3_sack_check("droptail", &[1]);
}

#[test]
fn ns3_sack_dumbbell_red_goodput_and_fairness() {
    ns3_sack_check("red", &[1, 2, 3, 4, 5]);
}
