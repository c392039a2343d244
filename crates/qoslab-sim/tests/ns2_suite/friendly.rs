//! ns-2.35's own TFRC validation suite (tcl/test/test-suite-friendly.tcl), two cases ported
//! as differential tests (issue 14):
//!
//! * `voip`: a TFRC-SP flow (`voip_ 1`, 120-byte packets + 32 B header, a CBR of one packet
//!   per 10 ms) and a SACK TCP (1460 B, window 10) through a 0.2 Mb/s RED bottleneck, 20 s;
//!   ours `bench/ns2/seeds/suite/voip.toml`.
//! * `smoothCA`: ns-2.35's default standard TFRC (`smooth_`, `discount_`, `ca_` on), two flows
//!   on net2's 1.5 Mb/s RED bottleneck, the second from 16 s to 40 s, the first from 0 to 30
//!   s; ours `bench/ns2/seeds/suite/smoothCA.toml` (RFC 5348 TFRC, our default).
//!
//! ns-2 ran the suite's tests unmodified (`bench/ns2/seeds/suite/friendly.tcl` seeds the
//! default RNG; RED's drops are the only randomness); with the suite's seed both outputs
//! equal the checked-in `test-output-friendly/{voip,smoothCA}.gz` point by point (400 and
//! 800 points; checked by `bench/ns2/seeds/suite/friendly.py`). Seeds 1..10 of each
//! simulator are compared; ns-2's per-seed counts (the suite's sender counters and flow
//! monitor) are in `tests/data/ns2/suite_friendly_{voip,smoothCA}.csv`.
//!
//! Measured, means of 10 seeds (voip RFC mode: 40), ns-2.35 vs qoslab:
//! * voip, our RFC sender: over seeds 1..10 TFRC-SP packets sent 847.6 vs 847.5 (−0.0 %), TCP
//!   drops 9.3 vs 9.6 (+3.2 %), TFRC-SP drops 44.5 vs 60.9 (+37 %); but ns-2's seeds 1..10 run
//!   high, and over 1..40 the sends are 797.7 vs 862.4 (+8.1 %), TFRC-SP drops 43.5 vs 59.0
//!   (+35.6 %), TCP acknowledged 249.7 vs 244.7 (−2.0 %), TCP drops 9.0 vs 10.35 (+14.7 %):
//!   finding 31 of the issue 14 report, ns-2's TFRC rate rules (RED and the counting are the
//!   same in both), so the TCP's share is asserted and the TFRC-SP excess is asserted as
//!   finding 31's signature (40 seeds). Like for like, our `ns2_compat` TFRC-SP against
//!   ns-2 with `ca_ 0` over seeds 1..40 (session 13): sent 655.8 vs 664.8 (−1.4 %), TFRC-SP
//!   drops 37.5 vs 34.5 (+8.9 %), TCP acknowledged 260.9 vs 258.8, TCP drops 9.4 vs 8.6
//!   (+9.6 %), all asserted; and its slow start follows ns-2's packet by packet (feedback
//!   instants and rates, packets sent by 5..8.5 s; finding 38).
//! * smoothCA: the second flow alone after the first stops (30..40 s) 1710.0 vs 1736.2
//!   packets (+1.5 %); both flows over 16..30 s 2573.7 vs 2472.0 (−4.0 %); the first flow's
//!   first 16 s 2773.0 vs 2614.9 (−5.7 %: ns-2's slow start falls back to the receive rate
//!   when it exceeds twice it, RFC 5348 §4.3 keeps 2·X_recv, so ours overflows the queue
//!   once (about 66 drops) and then runs slowly for about 2 s; finding 30 of the report).
//!
//! The references are ns-2 as the suite runs it, with `ca_ 1` (RFC 5348 §4.5's optional
//! oscillation prevention), which our TFRC has as an option off by default
//! (`oscillation_prevention = true`); with `ca_ 0` ns-2 sends 5–20 % less (finding 36,
//! `bench/ns2/seeds/probes/suite_friendly_ca.py`). With it, `ns2_compat` against ns-2 as
//! shipped agrees on every column (voip over 40 seeds, smoothCA over 10).
//!
//! Bounds: send counts 5 % (the bound for throughput), TCP drops 10 % (drop
//! statistics), the first flow's slow-start window 8 % (finding 30's documented deviation;
//! a larger gap is a regression). 130 short runs.

use super::{manifest, within};
use qoslab_algo::Duration;
use qoslab_algo::Time;
use qoslab_sim::scenario::{load, parse_str};
use qoslab_sim::sim::AgentKind;
use qoslab_sim::{RunResult, Simulator};

const SEEDS: u64 = 10;

/// ns-2's per-column means over its seeds (`SEEDS` of them).
fn ns2_means(file: &str, cols: usize) -> Vec<f64> {
    ns2_means_n(file, cols, SEEDS)
}

/// ns-2's per-column means over its `seeds` seeds.
fn ns2_means_n(file: &str, cols: usize, seeds: u64) -> Vec<f64> {
    let path = manifest(&format!("tests/data/ns2/{file}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut acc = vec![0.0; cols];
    let mut n = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), cols + 1, "{path:?}: bad line {line:?}");
        for (a, v) in acc.iter_mut().zip(&f[1..]) {
            *a += v;
        }
        n += 1.0;
    }
    assert_eq!(n, seeds as f64, "{path:?}: expected {seeds} seeds");
    acc.iter().map(|a| a / n).collect()
}

/// A suite scenario with `keys` added to every TFRC flow of the scenario ("" = the file as written).
fn run_with(scenario: &str, keys: &str, seed: u64, warmup_s: u64, duration_s: u64) -> RunResult {
    let path = manifest(&format!("../../bench/ns2/seeds/suite/{scenario}"));
    let mut s = if keys.is_empty() {
        load(&path).unwrap_or_else(|e| panic!("{e}"))
    } else {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let flow_key = "kind = \"tfrc\"\n";
        assert!(text.contains(flow_key), "{scenario}: no TFRC flow");
        let text = text.replace(flow_key, &format!("{flow_key}{keys}"));
        parse_str(&text, scenario).unwrap_or_else(|e| panic!("{e}"))
    };
    s.warmup = Duration::from_secs(warmup_s);
    s.duration = Duration::from_secs(duration_s);
    Simulator::new(s, seed).unwrap().run().unwrap()
}

fn flow<'a>(r: &'a RunResult, name: &str) -> &'a qoslab_sim::result::FlowResult {
    r.flows.iter().find(|f| f.name == name).unwrap()
}

/// `voip` with our RFC sender (the scenario as written) against ns-2 as shipped, seeds 1..40
/// of both. The two senders differ by ns-2's TFRC rate rules (findings 31 and 36: no gradual
/// increase and no §4.5 in ours), so only the TCP's share is asserted to agree: 244.7 vs 249.7
/// segments acknowledged (−2.0 %). The rest is finding 31's signature, asserted as such: our
/// TFRC-SP sends more (862.4 vs 797.7, +8.1 %) and, with RED's average higher, loses far more
/// (59.0 vs 43.5, +35.6 %); TCP drops 10.35 vs 9.03 (+14.7 %) are printed. (Until session 11
/// this test used seeds 1..10 and asserted the sends within 5 %: those ten ns-2 seeds run
/// high, 847.6 against 781.0 over seeds 11..40, so the agreement was the seeds'.) Like for
/// like: `voip_ns2_compat_with_oscillation_prevention_matches_ns2_as_shipped`.
#[test]
fn voip_rfc_sender_against_ns2_as_shipped() {
    const N: u64 = 40;
    // sp_sent, sp_drops, tcp_acked, tcp_drops
    let ns2 = ns2_means_n("suite_friendly_voip_s40.csv", 4, N);
    let q = voip_with("", N);
    eprintln!("qoslab (RFC sender) {q:?}\nns-2.35 {ns2:?}");
    within("TCP segments acknowledged", q[2], ns2[2], 0.05);
    assert!(
        q[0] > ns2[0] && q[1] > 1.2 * ns2[1],
        "finding 31's signature gone: TFRC-SP sent {:.1} vs {:.1}, drops {:.1} vs {:.1}",
        q[0],
        ns2[0],
        q[1],
        ns2[1]
    );
    eprintln!("TCP drops: qoslab {:.2} vs ns-2.35 {:.2}", q[3], ns2[3]);
}

/// `voip` like for like on ns-2's TFRC sender rules (finding 31): our TFRC-SP with
/// `ns2_compat = true` (`Ns2Compat::ns2()`: ns-2's loss detection, reports, receive-rate limit
/// and gradual rate increase, since session 12 its nofeedback timer, send timer, report
/// timing, `ShortIntervals_` flags and history discounting, findings 37/38, and since session
/// 13 its slow start (the `slow_increase_` ramp, `df_` 0.95, a packet at every slow-start
/// feedback, `InitRate_`) and TFRC-SP header allowance (`headersize_` 32 B), finding 38) against ns-2.35 with `Agent/TFRC set ca_ 0`, i.e.
/// without RFC 5348 §4.5's oscillation prevention (`tests/data/ns2/suite_friendly_voip_ca0.csv`,
/// from `bench/ns2/seeds/probes/suite_friendly_ca.py --seeds 40`), seeds 1..40 of both.
/// Measured (session 13; mean ± 95 % half-width): TFRC-SP sent 655.8 ± 32.3 vs 664.8 ± 25.1
/// (−1.4 %), TFRC-SP drops 37.5 ± 2.5 vs 34.5 ± 2.4 (+8.9 %), TCP acknowledged 260.9 ± 3.8 vs
/// 258.8 ± 3.6 (+0.8 %), TCP drops 9.4 ± 0.5 vs 8.6 ± 0.6 (+9.6 %; both drop intervals
/// overlap ns-2's): sends within 5 %, drops within 10 %. Session 12 (options 1–14) had the
/// drops at 42.2 and 10.6 (+22 / +23 %, held by a 30 % guard): our slow start overshot
/// ns-2's and overflowed the RED queue at 8–8.5 s
/// (`voip_ns2_compat_slow_start_follows_ns2_packet_by_packet`).
#[test]
fn voip_ns2_compat_tfrc_sp_matches_ns2_without_ca() {
    const N: u64 = 40;
    // sp_sent, sp_drops, tcp_acked, tcp_drops
    let ns2 = ns2_means_n("suite_friendly_voip_ca0.csv", 4, N);
    let q = voip_with("ns2_compat = true\n", N);
    eprintln!("qoslab ns2_compat {q:?}\nns-2.35 ca_ 0 {ns2:?}");
    within("TFRC-SP packets sent", q[0], ns2[0], 0.05);
    within("TFRC-SP drops", q[1], ns2[1], 0.10);
    within("TCP segments acknowledged", q[2], ns2[2], 0.05);
    within("TCP drops", q[3], ns2[3], 0.10);
}

/// `voip` like for like with ns-2 as shipped (`ca_ 1`, the suite's reference): our
/// `ns2_compat` TFRC-SP with RFC 5348 §4.5's oscillation prevention switched on
/// (`oscillation_prevention = true`) at ns-2's weight q2 = `df_` = 0.95
/// (`oscillation_q2 = 0.95`; findings 31 and 36), over seeds 1..40 of both simulators
/// (`tests/data/ns2/suite_friendly_voip_s40.csv`, `friendly.py --case voip --seeds 40
/// --data-suffix _s40`). Measured (session 13; mean ± 95 % half-width): TFRC-SP sent 804.8 ±
/// 38.9 vs 797.7 ± 36.4 (+0.9 %), drops 44.8 ± 1.5 vs 43.5 ± 2.1 (+2.8 %), TCP acknowledged
/// 250.5 ± 4.2 vs 249.7 ± 4.5 (+0.3 %), TCP drops 9.4 ± 0.6 vs 9.0 ± 0.6 (+4.2 %); sessions
/// 11 / 12: sent −2.8 / +2.4 %, drops +1.9 / +7.5 %, with a slow start that did not follow
/// ns-2's. Forty seeds because ten do not settle the send count: ns-2's seeds 1..10 average
/// 847.6, its seeds 11..40 781.0 (range 568..1147).
#[test]
fn voip_ns2_compat_with_oscillation_prevention_matches_ns2_as_shipped() {
    const N: u64 = 40;
    // sp_sent, sp_drops, tcp_acked, tcp_drops
    let ns2 = ns2_means_n("suite_friendly_voip_s40.csv", 4, N);
    let q = voip_with(
        "ns2_compat = true\noscillation_prevention = true\noscillation_q2 = 0.95\n",
        N,
    );
    eprintln!("qoslab ns2_compat + RFC 5348 §4.5 (q2 0.95) {q:?}\nns-2.35 ca_ 1 {ns2:?}");
    within("TFRC-SP packets sent", q[0], ns2[0], 0.05);
    within("TFRC-SP drops", q[1], ns2[1], 0.10);
    within("TCP segments acknowledged", q[2], ns2[2], 0.05);
    within("TCP drops", q[3], ns2[3], 0.10);
}

/// ns-2.35's `voip` TFRC-SP with `ca_ 0` up to its first loss, traced by the ns-2 of
/// `bench/ns2/build_s13voip_trace_ns2.sh` (`TFRC_TRACE=1 ns-trace
/// suite_friendly_voip_red.tcl 1 0`, `FB` lines; finding 38, session 13): the first ten
/// feedback arrivals at the sender (s) and its `rate_` after each (data bytes/s). Before
/// the first RED drop nothing is random, so every seed gives these; with `ca_ 1` they are the
/// same (ns-2's slow-start ramp spaces packets without §4.5's factor).
const NS2_VOIP_SLOW_START_FEEDBACK: [(f64, f64); 10] = [
    (2.581458, 825.512),
    (2.947538, 827.927),
    (3.697938, 1599.147),
    (4.454418, 1903.553),
    (5.163058, 2709.415),
    (5.757778, 3631.961),
    (6.364658, 4350.119),
    (7.001938, 6025.609),
    (7.597458, 6025.609),
    (8.223378, 9202.454),
];

/// `voip`'s TFRC-SP slow start packet by packet against ns-2.35 (finding 38, session 13):
/// with `ns2_compat` our sender receives its first ten feedbacks at ns-2's instants (within
/// 1 µs; the trace prints microseconds) and sets ns-2's rate after each (within 0.5 %: at the
/// second, ns-2 recomputes the initial rate with the new R, 827.9 against our 825.5 B/s), and
/// has sent ns-2's number of packets by 5, 6, 7, 7.5, 8 and 8.5 s (ns-2's `TX` lines: 27, 48,
/// 80, 101, 127, 154 with `ca_ 0`; 125 and 152 at 8 and 8.5 s with `ca_ 1`, i.e. with RFC
/// 5348 §4.5 at q2 0.95 here). This needs `Ns2Compat` options 15–18 (ns-2's slow-start ramp,
/// `df_`, a packet at every slow-start feedback, `InitRate_`; each one off fails it): with
/// options 1–14 alone the
/// second feedback came at 3.31 s and 137 packets had left by 8 s, whose overshoot filled the
/// RED queue (14 buffer overflows per run against ns-2's 0.2).
#[test]
fn voip_ns2_compat_slow_start_follows_ns2_packet_by_packet() {
    let cases = [
        ("ns2_compat = true\n", [27, 48, 80, 101, 127, 154]),
        (
            "ns2_compat = true\noscillation_prevention = true\noscillation_q2 = 0.95\n",
            [27, 48, 80, 101, 125, 152],
        ),
    ];
    for (keys, sent_ns2) in cases {
        let text = voip_text(keys).replacen("[output]\n", "[output]\ntfrc_series = true\n", 1);
        let s = parse_str(&text, "voip.toml").unwrap_or_else(|e| panic!("{e}"));
        let mut sim = Simulator::new(s, 1).unwrap();
        for (t, n) in [5.0, 6.0, 7.0, 7.5, 8.0, 8.5].into_iter().zip(sent_ns2) {
            sim.run_until(Time::from_secs_f64(t));
            let sent = sim
                .agents
                .iter()
                .find_map(|a| match &a.kind {
                    AgentKind::TfrcSender { tfrc, .. } => Some(tfrc.stats().packets_sent),
                    _ => None,
                })
                .unwrap();
            assert_eq!(sent, n, "{keys:?}: TFRC-SP packets sent by {t} s");
        }
        let fbs: Vec<_> = sim.tfrc_samples.iter().take(10).collect();
        assert_eq!(fbs.len(), 10);
        for (k, (f, &(t, rate))) in fbs.iter().zip(&NS2_VOIP_SLOW_START_FEEDBACK).enumerate() {
            assert!(f.p == 0.0, "{keys:?}: feedback {k} has p = {}", f.p);
            let at = f.t_ns as f64 * 1e-9;
            assert!(
                (at - t).abs() < 1e-6,
                "{keys:?}: feedback {k} at {at} s, ns-2 {t} s"
            );
            // X counts s_true + H = 120 + 32 B per packet (the header allowance at ns-2's
            // `headersize_`, option sp_header_32); ns-2's rate_ counts data bytes (120 B).
            let data_rate = f.x * 120.0 / 152.0;
            assert!(
                (data_rate / rate - 1.0).abs() < 0.005,
                "{keys:?}: feedback {k}: rate {data_rate:.3} B/s, ns-2 {rate}"
            );
        }
    }
}

/// `voip.toml` with `keys` added to its TFRC flow.
fn voip_text(keys: &str) -> String {
    let path = manifest("../../bench/ns2/seeds/suite/voip.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let flow_key = "kind = \"tfrc\"\n";
    assert_eq!(
        text.matches(flow_key).count(),
        1,
        "voip.toml: one TFRC flow"
    );
    text.replacen(flow_key, &format!("{flow_key}{keys}"), 1)
}

/// Means over seeds 1..=`seeds` of (TFRC-SP sent, TFRC-SP drops, TCP segments
/// acknowledged, TCP drops) of `voip.toml` with `keys` added to its TFRC flow.
fn voip_with(keys: &str, seeds: u64) -> [f64; 4] {
    let text = voip_text(keys);
    let mut q = [0.0; 4];
    for seed in 1..=seeds {
        let s = parse_str(&text, "voip.toml").unwrap_or_else(|e| panic!("{e}"));
        let r = Simulator::new(s, seed).unwrap().run().unwrap();
        let (sp, tcp) = (&flow(&r, "voip").total, &flow(&r, "tcp1").total);
        // QSEEDS=1: one row per seed on stderr (for the 95 % intervals of bench/ns2/seeds/ci.py).
        if std::env::var_os("QSEEDS").is_some() {
            eprintln!(
                "SEED {seed} {} {} {} {}",
                sp.data_pkts,
                sp.data_dropped,
                tcp.goodput_bytes / 1460,
                tcp.data_dropped
            );
        }
        for (a, v) in q.iter_mut().zip([
            sp.data_pkts as f64,
            sp.data_dropped as f64,
            (tcp.goodput_bytes / 1460) as f64,
            tcp.data_dropped as f64,
        ]) {
            *a += v / seeds as f64;
        }
    }
    q
}

/// Means over the seeds of the packets sent in smoothCA's windows (tf1 0..16 s, tf1 16..30
/// s, tf2 16..30 s, tf2 30..40 s) with `keys` added to both TFRC flows.
fn smoothca_with(keys: &str) -> [f64; 4] {
    let mut q = [0.0; 4];
    for seed in 1..=SEEDS {
        // a run's `measured` counters cover [warmup, duration)
        let a = run_with("smoothCA.toml", keys, seed, 16, 30);
        let b = run_with("smoothCA.toml", keys, seed, 30, 40);
        let (f1, f2) = (flow(&a, "tf1"), flow(&a, "tf2"));
        for (acc, v) in q.iter_mut().zip([
            (f1.total.data_pkts - f1.measured.data_pkts) as f64,
            f1.measured.data_pkts as f64,
            f2.measured.data_pkts as f64,
            flow(&b, "tf2").measured.data_pkts as f64,
        ]) {
            *acc += v / SEEDS as f64;
        }
    }
    q
}

#[test]
fn smoothca_two_standard_tfrc_flows_match_ns2() {
    // tf1_0_16, tf1_16_30, tf2_16_30, tf2_30_40
    let ns2 = ns2_means("suite_friendly_smoothCA.csv", 4);
    let q = smoothca_with("");
    eprintln!("qoslab {q:?}\nns-2.35 {ns2:?}");
    within("tf2 alone, 30..40 s", q[3], ns2[3], 0.05);
    within("tf1 + tf2, 16..30 s", q[1] + q[2], ns2[1] + ns2[2], 0.05);
    within(
        "tf1 from its start, 0..16 s (finding 30)",
        q[0],
        ns2[0],
        0.08,
    );
}

/// smoothCA like for like with ns-2 as shipped (`ca_ 1`, `df_ 0.95`): both flows with
/// `ns2_compat = true` and RFC 5348 §4.5's oscillation prevention at q2 = 0.95 (finding 36).
/// Measured (10 seeds): tf1 0..16 s 2800.4 vs 2773.0 (+1.0 %), tf1 16..30 s +1.2 %, tf2
/// 16..30 s −0.9 %, tf2 alone 30..40 s 1775.4 vs 1710.0 (+3.8 %): every window within 5 %
/// (without §4.5 the first window is −5.9 %, finding 30).
#[test]
fn smoothca_ns2_compat_with_oscillation_prevention_matches_ns2() {
    let ns2 = ns2_means("suite_friendly_smoothCA.csv", 4);
    let q =
        smoothca_with("ns2_compat = true\noscillation_prevention = true\noscillation_q2 = 0.95\n");
    eprintln!("qoslab ns2_compat + RFC 5348 §4.5 (q2 0.95) {q:?}\nns-2.35 {ns2:?}");
    within("tf1 alone, 0..16 s", q[0], ns2[0], 0.05);
    within("tf1, 16..30 s", q[1], ns2[1], 0.05);
    within("tf2, 16..30 s", q[2], ns2[2], 0.05);
    within("tf2 alone, 30..40 s", q[3], ns2[3], 0.05);
}
