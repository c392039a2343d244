#[path = "../tests/common/mod.rs"]
mod common;
use common::*;
use qoslab_sim::scenario::spec::*;
fn main() {
    let red = QueueSpec::Red {
        limit: Limit::Packets(300),
        red: RedSpec {
            min_th: 60.0,
            max_th: 200.0,
            max_p: 0.1,
            w_q: 0.002,
            gentle: false,
            byte_mode: false,
            queue_unit: QueueUnit::Packets,
            mean_pkt_size: 540,
            ecn: false,
            adaptive: false,
        },
    };
    for v in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        for q in [red.clone(), droptail(300)] {
            let s = dumbbell(20, q, 20, |i, s, d| tcp_flow(i, s, d, tcp_spec(v, 500)));
            let mut sim = qoslab_sim::Simulator::new(s, 1).unwrap();
            let end = sim.end();
            sim.run_until(end);
            let mut to = 0;
            let mut fr = 0;
            for a in &sim.agents {
                if let qoslab_sim::sim::AgentKind::TcpSender { tcp, .. } = &a.kind {
                    to += tcp.stats().timeouts;
                    fr += tcp.stats().fast_recoveries;
                }
            }
            let r = sim.finish().unwrap();
            let qq = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
            println!("{v:?} util {:.3} qmean {:.1} pempty {:.3} drops {} early {} forced {} overflow {} timeouts {to} fastrec {fr} jain {:.3}", qq.utilisation, qq.length.mean, qq.length.p_empty, qq.measured.total_drops(), qq.measured.drops[1].iter().sum::<u64>(), qq.measured.drops[2].iter().sum::<u64>(), qq.measured.drops[0].iter().sum::<u64>(), r.aggregate.jain_index);
        }
    }
}
