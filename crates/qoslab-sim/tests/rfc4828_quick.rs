//! RFC 4828 §7's lessons, on shortened runs of the App. B scenarios in `scenarios/rfc4828/`.
//!
//! §7: "In scenarios where large and small packets receive similar packet drop rates,
//! TFRC-SP gives roughly the desired sending rate" (a); "Scenarios where small packets are
//! less likely to be dropped than large packets include those with Drop-Tail queues in
//! bytes, and with AQM mechanisms in byte mode" and there "small-packet TFRC-SP flows can
//! receive considerably more bandwidth than competing large-packet TCP flows" (b, c).
//!
//! The scenario files are loaded as they are and changed in code the way `run.sh` changes
//! them for a table's row (loss rate, queue), with the runs shortened from 100 s (second
//! half measured) to 60 s (the last 30 s measured). The web pools keep their session-start
//! window of [0, 100 s), so about 60 % of their sessions start within a shortened run.
//! Bounds are the §7 statements with a margin, not the published numbers.

use std::path::PathBuf;

use qoslab_algo::Duration;
use qoslab_sim::result::FlowResult;
use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::{Limit, LossSpec, QueueSpec, QueueUnit, Scenario};
use qoslab_sim::{RunResult, Simulator};

fn scenario(file: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/rfc4828")
        .join(file);
    let mut s = load(&path).unwrap_or_else(|e| panic!("{e}"));
    s.duration = Duration::from_secs(60);
    s.warmup = Duration::from_secs(30);
    s
}

fn run(s: Scenario, seed: u64) -> RunResult {
    Simulator::new(s, seed).unwrap().run().unwrap()
}

/// The flows whose name is `prefix` followed by an instance number (`tcp3`, `sp14_7`).
fn group<'a>(r: &'a RunResult, prefix: &str) -> Vec<&'a FlowResult> {
    let g: Vec<_> = r
        .flows
        .iter()
        .filter(|f| {
            f.name.strip_prefix(prefix).is_some_and(|rest| {
                !rest.is_empty()
                    && rest
                        .trim_start_matches('_')
                        .bytes()
                        .all(|b| b.is_ascii_digit())
            })
        })
        .collect();
    assert!(!g.is_empty(), "no flow {prefix}*");
    g
}

/// Mean send rate of a group, bit/s (every byte on the wire, as `send_rate_bps`).
fn send(r: &RunResult, prefix: &str) -> f64 {
    let g = group(r, prefix);
    g.iter().map(|f| f.send_rate_bps).sum::<f64>() / g.len() as f64
}

/// Pooled packet drop rate of a group: its dropped data packets over its data packets.
fn drops(r: &RunResult, prefix: &str) -> f64 {
    let g = group(r, prefix);
    let pkts: u64 = g.iter().map(|f| f.measured.data_pkts).sum();
    let dropped: u64 = g.iter().map(|f| f.measured.data_dropped).sum();
    dropped as f64 / pkts as f64
}

/// The two directions of the 3 Mb/s bottleneck of App. B.3/B.4.
fn bottleneck(s: &mut Scenario) -> impl Iterator<Item = &mut QueueSpec> {
    s.links
        .iter_mut()
        .filter(|l| l.name == "R1->R2" || l.name == "R2->R1")
        .map(|l| &mut l.queue)
}

#[test]
fn a_configured_packet_drops_tfrc_sp_tracks_tcp_while_standard_tfrc_starves() {
    // App. B.1, row p = 0.1 (Tables 8 and 9). Published: TCP 142.75 / 141.67 Kb/s,
    // TFRC-SP 200 B 127.33, standard TFRC 200 B 21.96, TFRC-SP 14 B 17.69, standard 14 B 4.29.
    // The equation with s = 1460 B and p = 0.1 allows a TFRC-SP flow about what TCP gets, which
    // is below the 200 B application's 185.6 Kb/s; standard TFRC computes with s = 14 or 200 B.
    let mut s = scenario("b1-packet-drop.toml");
    let mut set = 0;
    for l in s.links.iter_mut().filter(|l| l.name == "A->B") {
        l.loss = Some(LossSpec::Packet { p: 0.1 });
        set += 1;
    }
    assert_eq!(set, 1);
    let r = run(s, 1);
    for g in ["tcp", "sp200", "std200", "sp14", "std14"] {
        let d = drops(&r, g);
        assert!(
            (d - 0.1).abs() < 0.03,
            "{g}: drop rate {d} (configured 0.1)"
        );
    }
    let (tcp, sp200, std200) = (send(&r, "tcp"), send(&r, "sp200"), send(&r, "std200"));
    let (sp14, std14) = (send(&r, "sp14"), send(&r, "std14"));
    // §7 (a): TFRC-SP within a factor of two of TCP in bit/s.
    assert!(
        sp200 > tcp / 2.0 && sp200 < tcp * 2.0,
        "TFRC-SP 200 B {sp200} vs TCP {tcp}"
    );
    // Standard TFRC with small packets far below TFRC-SP.
    assert!(
        std200 <= sp200 / 3.0,
        "standard 200 B {std200} vs TFRC-SP {sp200}"
    );
    assert!(
        std14 <= sp14 / 3.0,
        "standard 14 B {std14} vs TFRC-SP {sp14}"
    );
    // TFRC-SP 14 B stays at its application's 50 packets/s x 46 B = 18.4 Kb/s (Table 8: 17.69).
    assert!(
        sp14 > 0.9 * 18.4e3 && sp14 <= 18.4e3 * 1.01,
        "TFRC-SP 14 B {sp14}"
    );
}

#[test]
fn b_drop_tail_in_bytes_favours_small_packets() {
    // App. B.3 Table 13 set-up: the drop-tail queue in bytes (50 000 B), 100 web sessions.
    // Published at 100 sessions: TCP drop rate 0.196, 16.42 Kb/s; TFRC-SP 0.022, 183.77 Kb/s.
    let mut s = scenario("b3-droptail.toml");
    for q in bottleneck(&mut s) {
        *q = QueueSpec::DropTail {
            limit: Limit::Bytes(50_000),
        };
    }
    let r = run(s, 1);
    let (dt, ds) = (drops(&r, "tcp"), drops(&r, "tfrc"));
    let (tcp, sp) = (send(&r, "tcp"), send(&r, "tfrc"));
    // Seeds 1-10 of this 60 s run: TFRC-SP / TCP drop-rate ratio 0.069-0.090 here, and
    // 0.68-0.96 with the queue in packets (below): the bounds (< 1/3 here, (1/2, 3/2)
    // there) are disjoint.
    assert!(ds < dt / 3.0, "TFRC-SP drop rate {ds} vs TCP {dt}");
    assert!(sp > 3.0 * tcp, "TFRC-SP {sp} b/s vs TCP {tcp} b/s");
    // More than a tenth of the 3 Mb/s link each (five TCP, five TFRC-SP and the web share it).
    assert!(sp > 150e3, "TFRC-SP {sp} b/s");
}

#[test]
fn b_drop_tail_in_packets_treats_sizes_alike() {
    // The control for (b): Table 12's queue in packets (the base file as written). The
    // packet drop rates of large and small packets are similar (published at 100 sessions:
    // 0.14 and 0.12).
    let r = run(scenario("b3-droptail.toml"), 1);
    let (dt, ds) = (drops(&r, "tcp"), drops(&r, "tfrc"));
    assert!(
        ds > dt / 2.0 && ds < dt * 1.5,
        "TFRC-SP drop rate {ds} vs TCP {dt}"
    );
}

#[test]
fn c_byte_mode_red_favours_small_packets() {
    // App. B.4 Table 18 set-up: RED in byte mode, queue in bytes (thresholds 5 and 15 mean
    // packets of 500 B), 100 web sessions.
    let mut s = scenario("b4-red.toml");
    for q in bottleneck(&mut s) {
        let QueueSpec::Red { limit, red } = q else {
            panic!("b4-red.toml: bottleneck is not RED")
        };
        *limit = Limit::Bytes(50_000);
        red.byte_mode = true;
        red.queue_unit = QueueUnit::Bytes;
        red.min_th = 2500.0;
        red.max_th = 7500.0;
    }
    let r = run(s, 1);
    let (dt, ds) = (drops(&r, "tcp"), drops(&r, "tfrc"));
    let (tcp, sp) = (send(&r, "tcp"), send(&r, "tfrc"));
    // RFC 4828 App. B.4 on Table 18: TCP's packet drop rates are "1 1/2 to four times
    // greater than the packet drop rates for the TFRC-SP flows".
    // Disjoint from the packet-mode control below (issue 17): TFRC-SP / TCP drop-rate ratio
    // measured over seeds 1-10 of this 60 s run: byte mode 0.46-0.71, packet mode
    // 0.93-1.16; the boundary 0.82 lies midway between the two ranges.
    assert!(
        ds / dt < RED_MODE_BOUNDARY,
        "TFRC-SP drop rate {ds} vs TCP {dt}: ratio {:.3}",
        ds / dt
    );
    // "far more than its share": in this 60 s run 2.6x TCP's rate (100 s runs of Table 18:
    // 3-9x from 25 to 400 sessions). The bound was 3x before RED's `wait` (ns-2's default)
    // was set in b4-red.toml, which lowered TCP's drop rate here.
    assert!(sp > 2.0 * tcp, "TFRC-SP {sp} b/s vs TCP {tcp} b/s");
}

#[test]
fn c_packet_mode_red_treats_sizes_alike() {
    // The control for (c): Table 17's RED in packet mode (the base file as written).
    let r = run(scenario("b4-red.toml"), 1);
    let (dt, ds) = (drops(&r, "tcp"), drops(&r, "tfrc"));
    // Seeds 1-10: ratio 0.93-1.16 (byte mode 0.46-0.71), so [0.82, 1.35] separates the
    // two behaviours with a margin of about 0.1 on either side.
    assert!(
        (RED_MODE_BOUNDARY..=1.35).contains(&(ds / dt)),
        "TFRC-SP drop rate {ds} vs TCP {dt}: ratio {:.3}",
        ds / dt
    );
}

/// TFRC-SP / TCP packet drop-rate ratio separating byte-mode RED (below) from packet-mode
/// RED (above), from the ranges measured over seeds 1-10 (0.46-0.71 and 0.93-1.16).
const RED_MODE_BOUNDARY: f64 = 0.82;

#[test]
fn b1_marking_ecn_tcp_outsends_tcp_at_high_rates() {
    // App. B.1 at p = 0.2 (Table 7: TCP 78.65, ECN TCP 93.23* Kb/s; Tables 8, 9 alike): the
    // configured rate marks the ECN TCP flows' data instead of dropping it, so they lose
    // nothing and keep a larger window than TCP, which times out.
    let mut s = scenario("b1-packet-drop.toml");
    for l in s.links.iter_mut().filter(|l| l.name == "A->B") {
        assert!(l.loss_marks_ect, "b1's loss line marks ECT packets");
        l.loss = Some(LossSpec::Packet { p: 0.2 });
    }
    let r = run(s, 1);
    assert_eq!(drops(&r, "ecntcp"), 0.0);
    let (tcp, ecn) = (send(&r, "tcp"), send(&r, "ecntcp"));
    assert!(ecn > tcp, "ECN TCP {ecn} <= TCP {tcp}");
}
