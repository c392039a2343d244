//! TCP over the engine: utilisation, window limits, many flows through RED, conservation.

mod common;
use common::*;
use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::{QueueSpec, TcpVariant};
use qoslab_sim::Simulator;

fn run(s: qoslab_sim::scenario::spec::Scenario, seed: u64) -> qoslab_sim::RunResult {
    Simulator::new(s, seed).unwrap().run().unwrap()
}

fn red() -> QueueSpec {
    red_packets(60.0, 200.0, 540, false)
}

#[test]
fn single_flow_fills_the_bottleneck() {
    for v in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        let s = dumbbell(1, droptail(300), 8, |i, s, d| {
            tcp_flow(i, s, d, tcp_spec(v, 1460))
        });
        let r = run(s, 1);
        let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
        assert!(q.utilisation > 0.95, "{v:?}: utilisation {}", q.utilisation);
        // goodput = payload share of the wire rate: 70 · 1460/1500
        assert!(
            r.flows[0].goodput_bps > 0.95 * 70e6 * 1460.0 / 1500.0,
            "{v:?}: {}",
            r.flows[0].goodput_bps
        );
    }
}

#[test]
fn window_limited_flow_gets_window_over_rtt() {
    // rwnd = 10 segments of 1000 B; base RTT = 2·(3+5+5) ms + serialisation ≈ 26.3 ms, far
    // below the 10·1040·8/70e6 = 1.19 ms the window would need to fill the link.
    let mut spec = tcp_spec(TcpVariant::NewReno, 1000);
    spec.rwnd = 10_000;
    let s = dumbbell(1, droptail(300), 6, |i, s, d| {
        tcp_flow(i, s, d, spec.clone())
    });
    let r = run(s, 1);
    // RTT: data 1040 B over 100/70/100 Mb/s = 83.2+118.9+83.2 µs, ACK 40 B: 3.2+4.6+3.2 µs
    let rtt = 0.026 + (83.2 + 118.857 + 83.2 + 3.2 + 4.571 + 3.2) * 1e-6;
    let expect = 10_000.0 * 8.0 / rtt;
    let got = r.flows[0].goodput_bps;
    assert!(
        (got - expect).abs() / expect < 0.01,
        "goodput {got} vs window/RTT {expect}"
    );
}

#[test]
fn twenty_flows_through_red_share_the_link() {
    let timeouts =
        |r: &qoslab_sim::RunResult| r.flows.iter().map(|f| f.measured.timeouts).sum::<u64>();
    let mut to = Vec::new();
    for v in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        let s = dumbbell(20, red(), 16, |i, s, d| tcp_flow(i, s, d, tcp_spec(v, 500)));
        let r = run(s, 1);
        let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
        // Reno times out on multiple losses per window (ns-2 Reno does too) and idles the
        // link more often than NewReno/SACK, which repair such windows without a timeout.
        let floor = if v == TcpVariant::Reno { 0.72 } else { 0.8 };
        assert!(q.utilisation > floor, "{v:?} utilisation {}", q.utilisation);
        assert!(
            q.measured.drops_for(qoslab_algo::DropReason::Early) > 0,
            "{v:?}: RED must act"
        );
        assert!(
            q.length.mean > 20.0 && q.length.mean < 200.0,
            "{v:?}: {:?}",
            q.length
        );
        assert!(
            r.aggregate.jain_index > 0.8,
            "{v:?}: jain {}",
            r.aggregate.jain_index
        );
        to.push(timeouts(&r));
    }
    assert!(
        to[0] > 2 * to[1] && to[0] > 2 * to[2],
        "Reno must time out far more often: {to:?}"
    );
}

#[test]
fn finite_transfer_completes_and_goodput_counts_unique_bytes() {
    let mut spec = tcp_spec(TcpVariant::Sack, 1000);
    spec.bytes = Some(1_000_000);
    let mut s = dumbbell(1, droptail(300), 4, |i, s, d| {
        tcp_flow(i, s, d, spec.clone())
    });
    s.warmup = Duration::ZERO;
    let r = run(s, 1);
    assert_eq!(r.flows[0].total.goodput_bytes, 1_000_000);
}
