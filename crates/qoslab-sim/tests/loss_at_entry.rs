//! Where the configured random loss is decided: when a packet starts serialising (default,
//! `at = "wire"`: a lost packet occupies the link) or when it enters the link, before its
//! queue (`at = "entry"`: ns-2.35's `$ns lossmodel`, whose error module sits at the link's
//! head, `tcl/lib/ns-link.tcl` `SimpleLink instproc errormodule`; finding 54, session 16).

use qoslab_sim::scenario::parse_str;
use qoslab_sim::{RunResult, Simulator};

/// One A -> B link (1 Mb/s, 10 ms), one CBR flow of 500-B packets at 0.5 Mb/s, every packet
/// lost (`{LOSS}` is replaced).
const LOSSY: &str = r#"
name = "loss-at-entry"
duration = "10s"
warmup = "0s"

[[node]]
name = "A"

[[node]]
name = "B"

[[link]]
from = "A"
to = "B"
rate = "1Mbps"
delay = "10ms"
queue = { kind = "drop-tail", limit = "100p" }
loss = {LOSS}
reverse_loss = { packet = 0 }

[[flow]]
name = "cbr"
src = "A"
dst = "B"
kind = "cbr"
rate = "500kbps"
size = "500B"
"#;

fn run(loss: &str) -> RunResult {
    let s = parse_str(&LOSSY.replace("{LOSS}", loss), "loss.toml").unwrap();
    Simulator::new(s, 1).unwrap().run().unwrap()
}

#[test]
fn a_packet_lost_at_the_entry_does_not_occupy_the_link() {
    let wire = run("{ packet = 1.0 }");
    let entry = run(r#"{ packet = 1.0, at = "entry" }"#);
    let q = |r: &RunResult| r.queues.iter().find(|q| q.link == "A->B").unwrap().total;
    let (w, e) = (q(&wire), q(&entry));
    // The same packets are lost either way (one draw per packet, the same stream).
    assert!(w.wire_losses > 1000, "{}", w.wire_losses);
    assert_eq!(e.wire_losses, w.wire_losses);
    // On the wire each is serialised (4 ms at 1 Mb/s) before it is lost; at the entry none.
    assert_eq!(w.departures, w.wire_losses);
    assert_eq!(w.busy_ns, w.departures * 4_000_000);
    assert_eq!((e.departures, e.busy_ns, e.arrivals), (0, 0, 0));
    assert_eq!(
        wire.flows[0].total.data_dropped,
        entry.flows[0].total.data_dropped
    );
}

#[test]
fn partial_loss_at_the_entry_loses_the_same_packets_without_the_link_time() {
    // At 30 % loss the same draws take the same packets (one per packet, in order; no queue
    // drops at this load), and the link is busy only for the packets that arrive.
    let wire = run("{ packet = 0.3 }");
    let entry = run(r#"{ packet = 0.3, at = "entry" }"#);
    let q = |r: &RunResult| r.queues.iter().find(|q| q.link == "A->B").unwrap().total;
    let (w, e) = (q(&wire), q(&entry));
    assert_eq!(e.wire_losses, w.wire_losses);
    assert_eq!(e.departures + e.wire_losses, w.departures);
    assert_eq!(e.busy_ns, e.departures * 4_000_000);
    assert_eq!(
        wire.flows[0].total.data_dropped,
        entry.flows[0].total.data_dropped
    );
}

#[test]
fn at_is_checked() {
    let bad = LOSSY.replace("{LOSS}", r#"{ packet = 0.1, at = "head" }"#);
    let e = parse_str(&bad, "bad.toml").unwrap_err().to_string();
    assert!(e.contains("\"wire\"") && e.contains("\"entry\""), "{e}");
    let list = LOSSY.replace("{LOSS}", r#"{ drop_list = [1, 2], at = "entry" }"#);
    let e = parse_str(&list, "list.toml").unwrap_err().to_string();
    assert!(e.contains("drop_list"), "{e}");
    let s = parse_str(
        &LOSSY.replace("{LOSS}", r#"{ packet = 0.1, at = "entry" }"#),
        "ok.toml",
    )
    .unwrap();
    assert!(s.links.iter().any(|l| l.loss_at_entry));
    let s = parse_str(&LOSSY.replace("{LOSS}", "{ packet = 0.1 }"), "ok.toml").unwrap();
    assert!(s.links.iter().all(|l| !l.loss_at_entry));
}
