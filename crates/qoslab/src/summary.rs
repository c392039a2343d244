//! The human-readable summary table of a run.
//!
//! The per-flow rows print their floats through [`Fixed`]: the bytes `{:>8.3}` writes,
//! without `core::fmt`'s exact mode (issue 13 session 15: the floats of 10,000 rows were
//! about 90 M instructions, many of them in its big-number fallback).

use std::fmt::Write;

use qoslab_sim::output::Fixed;
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
            "  {:<12} {:<8} {:>13} {:>13} {:>9} {:>8} {:>9}",
            f.name,
            f.kind,
            Fixed(f.goodput_bps / 1e6, 3),
            Fixed(f.send_rate_bps / 1e6, 3),
            Fixed(f.drop_rate * 100.0, 3),
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
    delay(&mut s, r);
    s
}

/// The delay table: per flow one-way delay of the data packets delivered in the window, its
/// queueing part, RFC 3550 jitter and (TCP) RTT samples; per queue the sojourn time.
fn delay(s: &mut String, r: &RunResult) {
    let ms = |ns: u64| ns as f64 * 1e-6;
    let _ = writeln!(s, "\ndelay (ms; data packets delivered in the window)");
    let _ = writeln!(
        s,
        "  {:<12} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8}",
        "flow", "mean", "p50", "p99", "max", "queueing", "jitter", "rtt", "rtt p99"
    );
    for f in &r.flows {
        let d = &f.delay;
        let o = &d.one_way;
        let (rtt, rtt99) = d.rtt.map_or((String::from("-"), String::from("-")), |t| {
            (
                Fixed(t.mean_ns * 1e-6, 3).to_string(),
                Fixed(ms(t.p99_ns), 3).to_string(),
            )
        });
        let _ = writeln!(
            s,
            "  {:<12} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8}",
            f.name,
            Fixed(o.mean_ns * 1e-6, 3),
            Fixed(ms(o.p50_ns), 3),
            Fixed(ms(o.p99_ns), 3),
            Fixed(ms(o.max_ns), 3),
            Fixed(d.queueing_mean_ns * 1e-6, 3),
            Fixed(d.jitter_rfc3550_ns * 1e-6, 3),
            rtt,
            rtt99
        );
    }
    let _ = writeln!(
        s,
        "  {:<10} {:>12} {:>8} {:>8} {:>8} {:>8}   (queue sojourn: wait before transmission)",
        "link", "departures", "mean", "p50", "p99", "max"
    );
    for q in &r.queues {
        let j = &q.sojourn.all;
        let _ = writeln!(
            s,
            "  {:<10} {:>12} {:>8.3} {:>8.3} {:>8.3} {:>8.3}",
            q.link,
            j.samples,
            j.mean_ns * 1e-6,
            ms(j.p50_ns),
            ms(j.p99_ns),
            ms(j.max_ns)
        );
    }
}
