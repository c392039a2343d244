//! Web-traffic pools over the engine: transfers open, complete, free their slots, and the
//! pool's pages proceed; the run stays conserved and deterministic.

use qoslab_sim::output::summary_json;
use qoslab_sim::scenario::parse_str;
use qoslab_sim::Simulator;

fn scenario(sessions: u32, bottleneck: &str) -> qoslab_sim::scenario::spec::Scenario {
    let text = format!(
        r#"
duration = "60s"
warmup = "10s"
[[node]]
name = "WS{{i}}"
count = 4
[[node]]
name = "WC{{i}}"
count = 4
[[node]]
name = "R{{i}}"
count = 2
kind = "router"
[[link]]
from = "WS{{i}}"
to = "R1"
count = 4
rate = "100Mbps"
delay = "5ms"
[[link]]
from = "R1"
to = "R2"
rate = "{bottleneck}"
delay = "10ms"
queue = {{ kind = "drop-tail", limit = "100p" }}
[[link]]
from = "R2"
to = "WC{{i}}"
count = 4
rate = "100Mbps"
delay = "5ms"
[[web]]
name = "web"
sessions = {sessions}
clients = {{ name = "WC{{i}}", count = 4 }}
servers = {{ name = "WS{{i}}", count = 4 }}
pages_per_session = 5
start = {{ from = "0s", to = "20s" }}
tcp = {{ variant = "reno", mss = "512B", rwnd = "20p", min_rto = "200ms" }}
"#
    );
    parse_str(&text, "web.toml").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn sessions_complete_their_pages_and_the_run_is_conserved() {
    let r = Simulator::new(scenario(20, "3Mbps"), 1)
        .unwrap()
        .run()
        .unwrap();
    let w = &r.webs[0].stats;
    let f = r.flows.iter().find(|f| f.name == "web").unwrap();
    assert!(f.goodput_bps > 0.0);
    // 20 sessions × 5 pages; each page completes before the next starts.
    let json = serde_json::to_value(w).unwrap();
    let pages = json["pages_finished"].as_u64().unwrap_or(0);
    assert!(pages > 50, "{json}");
    // the same seed gives the same bytes
    let again = Simulator::new(scenario(20, "3Mbps"), 1)
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(summary_json(&r), summary_json(&again));
}

#[test]
fn more_sessions_congest_the_link_more() {
    let light = Simulator::new(scenario(5, "3Mbps"), 1)
        .unwrap()
        .run()
        .unwrap();
    let heavy = Simulator::new(scenario(80, "3Mbps"), 1)
        .unwrap()
        .run()
        .unwrap();
    let drops = |r: &qoslab_sim::RunResult| {
        r.queues
            .iter()
            .find(|q| q.link == "R1->R2")
            .map_or(0, |q| q.measured.total_drops())
    };
    let util = |r: &qoslab_sim::RunResult| {
        r.queues
            .iter()
            .find(|q| q.link == "R1->R2")
            .map_or(0.0, |q| q.utilisation)
    };
    assert!(
        drops(&heavy) > drops(&light),
        "{} vs {}",
        drops(&heavy),
        drops(&light)
    );
    assert!(util(&heavy) > util(&light));
}

/// One session on an idle path (one-way delays 5 + 10 + 5 ms: RTT 40 ms plus serialisation),
/// constant laws, with the given request leg and run length.
fn one_session(request: &str, pages: u32, objects: u32, duration: &str) -> RunResultAlias {
    let text = format!(
        r#"
duration = "{duration}"
warmup = "0s"
[[node]]
name = "WS"
[[node]]
name = "WC"
[[node]]
name = "R{{i}}"
count = 2
kind = "router"
[[link]]
from = "WS"
to = "R1"
rate = "100Mbps"
delay = "5ms"
[[link]]
from = "R1"
to = "R2"
rate = "10Mbps"
delay = "10ms"
[[link]]
from = "R2"
to = "WC"
rate = "100Mbps"
delay = "5ms"
[[web]]
name = "web"
sessions = 1
clients = ["WC"]
servers = ["WS"]
pages_per_session = {pages}
objects_per_page = {{ dist = "constant", value = {objects} }}
inter_page = {{ dist = "constant", value = "1s" }}
inter_object = {{ dist = "constant", value = "10ms" }}
object_size = {{ dist = "constant", value = 4 }}
start = {{ from = "1s", to = "1s" }}
request = "{request}"
tcp = {{ variant = "reno", mss = "512B", header = "40B", ack_size = "40B", delayed_ack = "off" }}
"#
    );
    let sc = parse_str(&text, "web1.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulator::new(sc, 1).unwrap().run().unwrap()
}
type RunResultAlias = qoslab_sim::RunResult;

fn link_bytes(r: &qoslab_sim::RunResult, link: &str) -> u64 {
    let q = r.queues.iter().find(|q| q.link == link).unwrap();
    serde_json::to_value(q).unwrap()["measured"]["departure_bytes"]
        .as_u64()
        .unwrap()
}

fn web_flow(r: &qoslab_sim::RunResult, key: &str) -> u64 {
    let f = r.flows.iter().find(|f| f.name == "web").unwrap();
    serde_json::to_value(f).unwrap()["measured"][key]
        .as_u64()
        .unwrap()
}

fn pages_finished(r: &qoslab_sim::RunResult) -> u64 {
    serde_json::to_value(r.webs[0].stats).unwrap()["pages_finished"]
        .as_u64()
        .unwrap()
}

#[test]
fn request_leg_sends_one_segment_per_object_before_its_response() {
    // 2 pages x 3 objects of 4 segments, no loss. ns-2 WebTraf (`launch-req`): each object
    // first sends one 512 B segment (552 B with headers) client -> server, acknowledged by one
    // 40 B ACK server -> client, then the response. So, against request = "none", the pool's
    // flow sends 6 more data packets of 552 B, and the WS -> WC direction (R1->R2) carries
    // 6 more 40 B ACKs.
    let with = one_session("segment", 2, 3, "10s");
    let without = one_session("none", 2, 3, "10s");
    for r in [&with, &without] {
        let s = serde_json::to_value(r.webs[0].stats).unwrap();
        assert_eq!(s["pages_finished"], 2, "{s}");
        assert_eq!(s["transfers_completed"], 6, "{s}");
        assert_eq!(web_flow(r, "dropped_pkts"), 0);
    }
    assert_eq!(web_flow(&without, "data_pkts"), 6 * 4);
    assert_eq!(web_flow(&with, "data_pkts"), 6 * 4 + 6);
    assert_eq!(
        web_flow(&with, "data_bytes"),
        web_flow(&without, "data_bytes") + 6 * 552
    );
    assert_eq!(
        link_bytes(&with, "R1->R2"),
        link_bytes(&without, "R1->R2") + 6 * 40
    );
}

#[test]
fn request_leg_delays_the_response_by_one_round_trip() {
    // One object of 4 segments launched at t = 1 s; RTT 40.6 ms (40 ms of propagation plus
    // serialisation). Without a request the response (within the initial window) is
    // acknowledged at about 1.042 s; with it, the request's own round trip comes first and
    // the response is acknowledged at about 1.083 s.
    assert_eq!(pages_finished(&one_session("none", 1, 1, "1.06s")), 1);
    assert_eq!(pages_finished(&one_session("segment", 1, 1, "1.06s")), 0);
    assert_eq!(pages_finished(&one_session("segment", 1, 1, "1.1s")), 1);
}
