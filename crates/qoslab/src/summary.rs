//! The human-readable summary table of a run.

use std::fmt::Write;

use qoslab_sim::RunResult;

pub fn render(r: &RunResult) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "scenario {}  seed {}  {:.1} s simulated, measured over [{:.1}, {:.1}) s, {} events",
        r.scenario, r.seed, r.duration_s, r.warmup_s, r.duration_s, r.events
    );
    let _ = writeln!(s, "\nflows");
    let _ = writeln!(
        s,
        "  {:<12} {:<8} {:>13} {:>13} {:>9} {:>8} {:>9}",
        "flow", "kind", "goodput Mb/s", "send Mb/s", "drop %", "retx", "timeouts"
    );
    for f in &r.flows {
        let _ = writeln!(
            s,
            "  {:<12} {:<8} {:>13.3} {:>13.3} {:>9.3} {:>8} {:>9}",
            f.name,
            f.kind,
            f.goodput_bps / 1e6,
            f.send_rate_bps / 1e6,
            f.drop_rate * 100.0,
            f.measured.retx_pkts,
            f.measured.timeouts
        );
    }
    let _ = writeln!(
        s,
        "  {:<12} {:<8} {:>13.3}   Jain fairness {:.4}",
        "total",
        "",
        r.aggregate.goodput_bps / 1e6,
        r.aggregate.jain_index
    );
    let _ = writeln!(s, "\nqueues (length in packets seen by arrivals)");
    let _ = writeln!(
        s,
        "  {:<10} {:>6} {:>9} {:>8} {:>8} {:>8} {:>7} {:>7} {:>7} {:>6} {:>5} {:>5}",
        "link",
        "util",
        "arrivals",
        "overflow",
        "early",
        "forced",
        "marks",
        "mean",
        "std",
        "empty",
        "p90",
        "p99"
    );
    for q in &r.queues {
        let m = &q.measured;
        let d = |i: usize| m.drops[i].iter().sum::<u64>();
        let _ = writeln!(
            s,
            "  {:<10} {:>6.3} {:>9} {:>8} {:>8} {:>8} {:>7} {:>7.2} {:>7.2} {:>6.3} {:>5} {:>5}",
            q.link,
            q.utilisation,
            m.arrivals,
            d(0),
            d(1),
            d(2),
            m.marks.iter().sum::<u64>(),
            q.length.mean,
            q.length.std,
            q.length.p_empty,
            q.length.p90,
            q.length.p99
        );
    }
    s
}
