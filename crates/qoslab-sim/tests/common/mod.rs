//! Scenarios built in code for engine tests (independent of the TOML parser).
#![allow(dead_code)]

use qoslab_algo::{Duration, Rate};
use qoslab_sim::scenario::spec::*;

pub fn node(name: &str, kind: NodeKind) -> NodeSpec {
    NodeSpec {
        name: name.into(),
        kind,
    }
}

pub fn link(
    scn: &Scenario,
    from: usize,
    to: usize,
    rate: Rate,
    delay: Duration,
    queue: QueueSpec,
) -> LinkSpec {
    LinkSpec {
        name: format!("{}->{}", scn.nodes[from].name, scn.nodes[to].name),
        from,
        to,
        rate,
        delay,
        queue,
        loss: None,
        loss_marks_ect: false,
        loss_at_entry: false,
        conditioner: None,
    }
}

pub fn droptail(p: u32) -> QueueSpec {
    QueueSpec::DropTail {
        limit: Limit::Packets(p),
    }
}

/// Non-gentle packet-mode RED without `wait` or Adaptive RED, queue in packets, limit 300
/// packets, max_p 0.1, w_q 0.002.
#[allow(dead_code)]
pub fn red_packets(min_th: f64, max_th: f64, mean_pkt_size: u32, ecn: bool) -> QueueSpec {
    QueueSpec::Red {
        limit: Limit::Packets(300),
        red: qoslab_sim::scenario::spec::RedSpec {
            min_th,
            max_th,
            max_p: 0.1,
            w_q: 0.002,
            gentle: false,
            wait: false,
            byte_mode: false,
            queue_unit: qoslab_sim::scenario::spec::QueueUnit::Packets,
            mean_pkt_size,
            ecn,
            adaptive: false,
            ns2_use_mark_p: false,
            ns2_gentle_initial_max_p: false,
        },
    }
}

/// The RIO seed's Fig. 1 dumbbell with `n` senders: S_i -(100M, 3..8 ms)- G1 -(70M, 5 ms)- G2 -(100M, 5 ms)- D_i.
/// Flows are built by `flow(i, src, dst)`.
pub fn dumbbell(
    n: usize,
    bottleneck: QueueSpec,
    duration_s: u64,
    flow: impl Fn(usize, usize, usize) -> FlowSpec,
) -> Scenario {
    let mut s = Scenario {
        name: "dumbbell".into(),
        seed: 1,
        duration: Duration::from_secs(duration_s),
        warmup: Duration::from_secs(duration_s / 4),
        nodes: vec![],
        links: vec![],
        flows: vec![],
        webs: vec![],
        output: OutputSpec {
            sample_interval: None,
            monitor: vec![],
            tcp_series: false,
            tfrc_series: false,
            delay_series: false,
        },
    };
    for i in 0..n {
        s.nodes.push(node(&format!("S{}", i + 1), NodeKind::Host));
    }
    s.nodes.push(node("G1", NodeKind::Router));
    s.nodes.push(node("G2", NodeKind::Router));
    for i in 0..n {
        s.nodes.push(node(&format!("D{}", i + 1), NodeKind::Host));
    }
    let g1 = n;
    let g2 = n + 1;
    let big = || droptail(1000);
    for i in 0..n {
        let d = if n > 1 {
            3_000_000 + 5_000_000 * i as u64 / (n as u64 - 1)
        } else {
            3_000_000
        };
        let l = link(&s, i, g1, Rate::from_mbps(100), Duration(d), big());
        s.links.push(l);
        let l = link(&s, g1, i, Rate::from_mbps(100), Duration(d), big());
        s.links.push(l);
    }
    let l = link(
        &s,
        g1,
        g2,
        Rate::from_mbps(70),
        Duration::from_millis(5),
        bottleneck,
    );
    s.links.push(l);
    let l = link(
        &s,
        g2,
        g1,
        Rate::from_mbps(70),
        Duration::from_millis(5),
        big(),
    );
    s.links.push(l);
    for i in 0..n {
        let l = link(
            &s,
            g2,
            g2 + 1 + i,
            Rate::from_mbps(100),
            Duration::from_millis(5),
            big(),
        );
        s.links.push(l);
        let l = link(
            &s,
            g2 + 1 + i,
            g2,
            Rate::from_mbps(100),
            Duration::from_millis(5),
            big(),
        );
        s.links.push(l);
    }
    for i in 0..n {
        s.flows.push(flow(i, i, g2 + 1 + i));
    }
    s
}

pub fn poisson_flow(i: usize, src: usize, dst: usize, rate: Rate) -> FlowSpec {
    FlowSpec {
        name: format!("u{}", i + 1),
        src,
        dst,
        start: Duration::ZERO,
        start_jitter: Duration::ZERO,
        stop: None,
        kind: FlowKind::Poisson { rate, size: 500 },
    }
}

pub fn cbr_flow(i: usize, src: usize, dst: usize, rate: Rate, size: u32) -> FlowSpec {
    FlowSpec {
        name: format!("c{}", i + 1),
        src,
        dst,
        start: Duration::ZERO,
        start_jitter: Duration::ZERO,
        stop: None,
        kind: FlowKind::Cbr { rate, size },
    }
}

pub fn tcp_spec(variant: TcpVariant, mss: u32) -> TcpSpec {
    TcpSpec {
        variant,
        mss,
        header: 40,
        ack_size: 40,
        rwnd: 1 << 20,
        init_cwnd: 2,
        limited_transmit: true,
        min_rto: Duration::from_millis(200),
        max_rto: Duration::from_secs(60),
        initial_rto: Duration::from_secs(1),
        clock_granularity: Duration::from_millis(10),
        delayed_ack: None,
        ns2_compat: false,
        ecn: false,
        timestamps: false,
        rto_ssthresh: Default::default(),
        sack_pipe: Default::default(),
        bytes: None,
    }
}

pub fn tcp_flow(i: usize, src: usize, dst: usize, spec: TcpSpec) -> FlowSpec {
    FlowSpec {
        name: format!("tcp{}", i + 1),
        src,
        dst,
        start: Duration::ZERO,
        start_jitter: Duration::ZERO,
        stop: None,
        kind: FlowKind::Tcp(spec),
    }
}
pub mod refusal;
