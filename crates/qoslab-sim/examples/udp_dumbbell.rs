//! Engine speed on the open-loop dumbbell: 20 Poisson sources (17,500 pkt/s of 500 B in
//! total, as the ns.py `openloop` peer) into the 70 Mb/s bottleneck, 20 s.
//! `cargo run --release -p qoslab-sim --example udp_dumbbell [-- SECONDS]`
#[path = "../tests/common/mod.rs"]
mod common;
use common::*;
use qoslab_algo::Rate;

fn main() {
    let secs: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    // 17,500 pkt/s × 500 B × 8 = 70 Mb/s in total, 3.5 Mb/s per source.
    let s = dumbbell(20, droptail(300), secs, |i, s, d| {
        poisson_flow(i, s, d, Rate(3_500_000))
    });
    let sim = qoslab_sim::Simulator::new(s, 1).unwrap();
    let t0 = std::time::Instant::now();
    let r = sim.run().unwrap();
    let wall = t0.elapsed().as_secs_f64();
    let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
    let pkts = q.total.departures;
    println!(
        "{{\"sim\":\"qoslab\",\"workload\":\"udp-openloop\",\"wall_s\":{wall:.3},\"events\":{},\"events_per_s\":{:.0},\"bottleneck_pkts\":{pkts},\"pkts_per_wall_s\":{:.0},\"goodput_mbps\":{:.2},\"drops\":{}}}",
        r.events,
        r.events as f64 / wall,
        pkts as f64 / wall,
        r.aggregate.goodput_bps / 1e6,
        q.total.total_drops()
    );
}
