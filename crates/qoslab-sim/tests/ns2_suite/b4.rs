//! Differential checks against ns-2.35 (issue 14): RFC 4828 App. B.3/B.4 set-ups (the 3 Mb/s
//! link shared by five SACK TCP, five TFRC-SP flows and web traffic), 25 web sessions; first
//! Table 17's RED in packet mode.
//!
//! ns-2.35 ran the same network (`bench/ns2/seeds/rfc4828_b3.tcl 25 red-p <seed>`: Queue/RED
//! thresh_ 5, maxthresh_ 15, q_weight_ 0.002, linterm_ 10, gentle_ false, wait_ true,
//! mean_pktsize_ 500, limit_ 100; PagePool/WebTraf with the distributions of ns-2's
//! `test-suite-webtraf.tcl`); its per-seed values are in `tests/data/ns2/rfc4828_b34.csv`.
//! Our side: `scenarios/rfc4828/b4-red.toml` as written (its `@queue` line is that RED) with
//! 25 / 12 web sessions and the same web distributions in both pools, as
//! `bench/ns2/seeds/rfc4828_b3.py --queue red-p` writes it.
//!
//! Measured (3 seeds; bench/ns2/seeds/README.md section 9, with the web request leg): TCP
//! send rate −5.0 %, TCP drop rate +4.8 %, TFRC-SP send rate −3.9 %, TFRC-SP drop rate
//! +8.1 % (ns-2's seed ranges ±3–5 %). Bounds: send rates 6 %, drop rates 12 %. RED's drop
//! rate here is set by its control law (the average queue against 5/15 packets), so a
//! change of RED's average, count or `wait` rule, or of TFRC-SP's response, moves these
//! cells. Further cases below: byte-mode RED (with and without ns-2.35's `use_mark_p_`)
//! and the B.3 drop-tail queue at 25 sessions, and its drop rates at 100 sessions against
//! ns-2 with its TCP matched to ours. Not checked: the other 100-session rows (README
//! section 9).

use super::manifest;
use qoslab_sim::scenario::parse_str;
use qoslab_sim::Simulator;

const SEEDS: u64 = 3;
const SESSIONS: u32 = 25;
// ns-2's tcl/test/test-suite-webtraf.tcl create-session distributions; counts of web.tcl
// (bench/ns2/seeds/rfc4828_b3.py's WEB).
const WEB: &str = "pages_per_session = 10\n\
objects_per_page = { dist = \"constant\", value = 10 }\n\
inter_page = { dist = \"exponential\", mean = \"1s\" }\n\
inter_object = { dist = \"exponential\", mean = \"10ms\" }\n\
object_size = { dist = \"pareto2\", mean = 10, shape = 1.2 }\n";
// The byte-mode RED line of bench/ns2/seeds/rfc4828_b3.py (RED_BYTES) and run.sh.
const RED_BYTES: &str = "{ kind = \"red\", limit = \"50000B\", min_th = \"2500B\", \
max_th = \"7500B\", max_p = 0.1, w_q = 0.002, gentle = false, wait = true, byte_mode = true, \
queue_unit = \"bytes\", mean_pkt_size = \"500B\" }";
// The Adaptive RED line of bench/ns2/seeds/rfc4828_b3.py (ARED_BYTES) and run.sh.
const ARED_BYTES: &str = "{ kind = \"red\", limit = \"50000B\", min_th = \"2500B\", \
max_th = \"7500B\", max_p = 0.1, w_q = 0.002, gentle = true, wait = true, byte_mode = true, \
queue_unit = \"bytes\", mean_pkt_size = \"500B\", adaptive = true }";
const COLS: [&str; 4] = [
    "tcp_send_kbps",
    "tcp_drop_rate",
    "tfrc_send_kbps",
    "tfrc_drop_rate",
];

/// ns-2's mean over its seeds 1..=`seeds` of the four columns, for (queue, mss, sessions).
fn ns2_reference(queue: &str, mss: u32, sessions: u32, seeds: u64) -> [f64; 4] {
    let path = manifest("tests/data/ns2/rfc4828_b34.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut acc = [0.0; 4];
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 8, "{path:?}: bad line {line:?}");
        let seed: u64 = f[3].parse().unwrap();
        if f[0] == queue && f[1] == mss.to_string() && f[2] == sessions.to_string() && seed <= seeds
        {
            for (a, v) in acc.iter_mut().zip(&f[4..]) {
                *a += v.parse::<f64>().unwrap();
            }
            n += 1;
        }
    }
    assert_eq!(
        n, seeds as usize,
        "{queue} {mss} {sessions}: ns-2 seeds 1..={seeds} in {path:?}"
    );
    acc.map(|a| a / n as f64)
}

/// Our four columns for one seed: `base` (a file of `scenarios/rfc4828/`) with 25 / 12 web
/// sessions and the web distributions above, and its `@queue` line replaced by `queue` if
/// given (the text `bench/ns2/seeds/rfc4828_b3.py` writes for that row).
fn ours(base: &str, queue: Option<&str>, sessions: u32, seed: u64) -> [f64; 4] {
    let path = manifest(&format!("../../scenarios/rfc4828/{base}"));
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    for (old, new) in [
        (
            "sessions = 100  # @sessions".to_string(),
            format!("sessions = {sessions}  # @sessions\n{WEB}"),
        ),
        (
            "sessions = 50  # @revsessions".to_string(),
            format!("sessions = {}  # @revsessions\n{WEB}", sessions / 2),
        ),
    ] {
        assert!(text.contains(&old), "{base}: {old:?} not found");
        text = text.replacen(&old, &new, 1);
    }
    let line = text
        .lines()
        .find(|l| l.starts_with("queue = ") && l.ends_with("# @queue"))
        .unwrap_or_else(|| panic!("{base}: no @queue line"))
        .to_string();
    assert!(
        line.contains("limit = \"100p\""),
        "{base}: @queue is no longer the 100-packet queue: {line}"
    );
    if let Some(q) = queue {
        text = text.replacen(&line, &format!("queue = {q}  # @queue"), 1);
    }
    let s = parse_str(&text, base).unwrap_or_else(|e| panic!("{e}"));
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let mut out = [0.0; 4];
    for (i, g) in ["tcp", "tfrc"].iter().enumerate() {
        let fl: Vec<_> = r
            .flows
            .iter()
            .filter(|f| {
                f.name.strip_prefix(g).is_some_and(|rest| {
                    !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit())
                })
            })
            .collect();
        assert_eq!(fl.len(), 5, "group {g}: five flows expected");
        out[2 * i] = fl.iter().map(|f| f.send_rate_bps).sum::<f64>() / 5.0 / 1e3;
        let sent: u64 = fl.iter().map(|f| f.measured.data_pkts).sum();
        let dropped: u64 = fl.iter().map(|f| f.measured.data_dropped).sum();
        out[2 * i + 1] = dropped as f64 / sent.max(1) as f64;
    }
    out
}

/// Compares the mean over seeds 1..3 of ours with ns-2's row `ns2_queue`; `bounds` holds
/// the relative bound per column (`None`: printed, not checked).
fn check(ns2_queue: &str, base: &str, queue: Option<&str>, bounds: [Option<f64>; 4]) {
    check_at(ns2_queue, base, queue, SESSIONS, SEEDS, bounds)
}

/// As [`check`], at `sessions` web sessions, both sides over seeds 1..=`seeds`.
fn check_at(
    ns2_queue: &str,
    base: &str,
    queue: Option<&str>,
    sessions: u32,
    seeds: u64,
    bounds: [Option<f64>; 4],
) {
    let refs = ns2_reference(ns2_queue, 1460, sessions, seeds);
    let mut q = [0.0; 4];
    for seed in 1..=seeds {
        for (a, v) in q.iter_mut().zip(ours(base, queue, sessions, seed)) {
            *a += v / seeds as f64;
        }
    }
    let mut bad = Vec::new();
    for (i, c) in COLS.iter().enumerate() {
        let (a, b) = (q[i], refs[i]);
        eprintln!(
            "{ns2_queue} {c}: qoslab {a:.4} ns-2.35 {b:.4} ({:+.1} %)",
            100.0 * (a / b - 1.0)
        );
        if let Some(bound) = bounds[i] {
            if (a / b - 1.0).abs() > bound {
                bad.push(format!(
                    "{c}: qoslab {a:.4} vs ns-2.35 {b:.4} ({:+.1} %, bound {:.0} %)",
                    100.0 * (a / b - 1.0),
                    100.0 * bound
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{ns2_queue}: {}", bad.join("\n"));
}

#[test]
fn b4_red_packet_mode_25_sessions_matches_ns2() {
    // Send rates 6 %, drop rates 12 %.
    let b = [Some(0.06), Some(0.12), Some(0.06), Some(0.12)];
    check("red-p", "b4-red.toml", None, b);
}

/// RED in byte mode, queue in bytes (Table 18 set-up), against ns-2.35 with `use_mark_p_
/// false` (finding 12: ns-2.35's default `true` is not the RED paper's rule). Measured
/// (README section 9): TCP send +10.0 %, TCP drop −1.7 %, TFRC-SP send −2.7 %, TFRC-SP
/// drop +5.9 %. The TCP send rate is printed, not checked (+10 %, ns-2's seed range ±7 %).
/// Before the cause was found, ns-2.35 (default `use_mark_p_`) gave TFRC-SP half our drop
/// rate (+97 %): the TFRC-SP drop-rate bound is the discriminating check.
#[test]
fn b4_red_byte_mode_25_sessions_matches_ns2() {
    check(
        "red-b",
        "b4-red.toml",
        Some(RED_BYTES),
        [None, Some(0.12), Some(0.06), Some(0.12)],
    );
}

/// The same with our `ns2_use_mark_p = true` against ns-2.35's default `use_mark_p_ true`:
/// measured TCP send +1.4 %, TCP drop −9.4 %, TFRC-SP send −1.7 %, TFRC-SP drop −3.0 %
/// (without the option our TFRC-SP drop rate is 2.2x ns-2's default here).
#[test]
fn b4_red_byte_mode_ns2_use_mark_p_matches_ns2_default() {
    let q = RED_BYTES.replace(" }", ", ns2_use_mark_p = true }");
    let b = [Some(0.06), Some(0.12), Some(0.06), Some(0.12)];
    check("red-b-markp", "b4-red.toml", Some(&q), b);
}

/// RFC 4828 App. B.3 as written (Table 12: drop-tail of 100 packets), 25 sessions: measured
/// TCP send +2.6 %, TCP drop +0.6 %, TFRC-SP send −2.3 %, TFRC-SP drop +1.3 % (with the web
/// request leg; without it TCP sent +6.1 %).
#[test]
fn b3_droptail_25_sessions_matches_ns2() {
    let b = [Some(0.06), Some(0.12), Some(0.06), Some(0.12)];
    check("100p", "b3-droptail.toml", None, b);
}

/// Drop-tail 100p at 100 sessions against ns-2.35 with its TCP matched to ours (`100p-m`:
/// `syn_ false`, `rtxcur_init_ 1`; README section 9.3). Measured: TCP send −9.1 %, TCP drop
/// +3.9 %, TFRC-SP send +9.4 %, TFRC-SP drop +7.6 %. The drop rates are checked (12 %); the
/// send rates (ns-2's seed ranges ±7 %) are printed. Against ns-2 with its default TCP
/// start-up our drop rates were +35 % / +26 %.
#[test]
fn b3_droptail_100_sessions_drop_rates_match_ns2_with_matched_tcp() {
    let b = [None, Some(0.12), None, Some(0.12)];
    check_at("100p-m", "b3-droptail.toml", None, 100, SEEDS, b);
}

/// Adaptive RED in byte mode (Table 20 set-up) against ns-2.35 with its TCP matched to ours
/// (`ared-b-m`: `syn_ false`, `rtxcur_init_ 1`), 20 seeds on both sides (finding 13). The
/// 3-seed comparison of the last sessions (TCP send +15 %) was ns-2's seed spread: its TCP
/// send rate over seeds has a standard deviation of 32 Kb/s (16 %), and its seeds 1..3 are
/// among its lowest. Measured over 20 seeds (README section 10): TCP send +4.6 %, TCP drop
/// +4.3 %, TFRC-SP send −1.7 %, TFRC-SP drop +4.4 %; both simulators' `max_p` stays in
/// 0.05..0.19 (never at the [0.01, 0.5] bounds) and their average queues agree within 6 %.
/// Bounds: TCP send 10 % (the standard error of the difference is about 4 %), drop rates
/// 12 %, TFRC-SP send 6 %. Without `gentle` the TFRC-SP drop rate is +174 % (fails); without
/// the adaptation the cells move by less than 2 % (here `max_p` stays near its initial 0.1),
/// so the AIMD rule itself is checked by the exact tests of `queue::adaptive_red`.
#[test]
fn b4_adaptive_red_byte_mode_25_sessions_matches_ns2_with_matched_tcp() {
    let b = [Some(0.10), Some(0.12), Some(0.06), Some(0.12)];
    check_at("ared-b-m", "b4-red.toml", Some(ARED_BYTES), SESSIONS, 20, b);
}

/// RED in byte mode (Table 18 set-up) against ns-2.35 with its TCP matched to ours and its
/// web agents' initial window restored before every transfer (`red-b-mw`), 20 seeds on both
/// sides (finding 22). ns-2.35's `TcpAgent::timeout` lowers an agent's own `windowInit_` to 1
/// for good when the first packet of a transfer is lost, and WebTraf recycles its agents
/// (`reset` does not restore it), so in ns-2 as it is 78–96 % of the responses over 50..100 s
/// start with a window of one packet (5 seeds): its web transfers of 2–12 packets take a
/// round trip longer, arrive in smaller bursts and hold RED's average above max_th less often
/// (3.4 % of the time over 10 seeds, ours 4.2 %; with the window restored 4.5 %). Ours, like a fresh TCP per transfer, always starts with
/// `init_cwnd = 2`. Against `red-b-m` (ns-2's sticky windows) our TFRC-SP drop rate is
/// +18.5 % over these 20 seeds (+21.0 % over 40) and fails the 12 % bound; against
/// `red-b-mw`: TCP send +3.1 %, TCP drop −3.6 %, TFRC-SP send −2.5 %, TFRC-SP drop −3.7 %
/// (40 seeds: +2.3 / −1.1 / −2.6 / +1.3 %). Bounds as the Adaptive RED case: TCP send 10 %,
/// drop rates 12 %, TFRC-SP send 6 %.
#[test]
fn b4_red_byte_mode_25_sessions_matches_ns2_with_fresh_web_windows() {
    let b = [Some(0.10), Some(0.12), Some(0.06), Some(0.12)];
    check_at("red-b-mw", "b4-red.toml", Some(RED_BYTES), SESSIONS, 20, b);
}
