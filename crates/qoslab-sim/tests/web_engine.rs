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
