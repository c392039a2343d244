//! Delay measurement (`qoslab_sim::measure::delay`) against hand-computable cases (issue 15):
//! a CBR flow over idle links has one-way delay exactly propagation + transmission; an M/D/1
//! queue's mean waiting time is ρ·s/(2(1−ρ)); a TCP flow's RTT samples on an idle path are
//! the base RTT.

use qoslab_sim::scenario::parse_str;
use qoslab_sim::{RunResult, Simulator};

fn run(toml: &str, seed: u64) -> RunResult {
    let s = parse_str(toml, "test.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulator::new(s, seed).unwrap().run().unwrap()
}

const TWO_HOPS: &str = r#"
name = "idle"
duration = "3s"
warmup = "1s"
[output]
monitor = ["A->R", "R->B"]
[[node]]
name = "A"
[[node]]
name = "R"
kind = "router"
[[node]]
name = "B"
[[link]]
from = "A"
to = "R"
rate = "10Mbps"
delay = "7ms"
queue = { kind = "drop-tail", limit = "100p" }
[[link]]
from = "R"
to = "B"
rate = "4Mbps"
delay = "2ms"
queue = { kind = "drop-tail", limit = "100p" }
"#;

#[test]
fn cbr_over_idle_links_is_exactly_propagation_plus_transmission() {
    let toml = format!(
        "{TWO_HOPS}\n[[flow]]\nname = \"v\"\nkind = \"cbr\"\nsrc = \"A\"\ndst = \"B\"\nrate = \"1Mbps\"\nsize = \"1000B\"\n"
    );
    let r = run(&toml, 1);
    let d = &r.flows[0].delay;
    // 7 ms + 2 ms propagation; 8000 bits at 10 Mb/s (0.8 ms) and at 4 Mb/s (2 ms).
    let want = 7_000_000 + 2_000_000 + 800_000 + 2_000_000;
    let o = &d.one_way;
    // 125 packets/s delivered over the 2 s window
    assert!((249..=251).contains(&o.samples), "{}", o.samples);
    assert_eq!(
        (o.min_ns, o.p50_ns, o.p90_ns, o.p99_ns, o.max_ns),
        (want, want, want, want, want)
    );
    assert_eq!(o.mean_ns, want as f64);
    assert_eq!((d.queueing_mean_ns, d.queueing_max_ns), (0.0, 0));
    assert_eq!(d.prop_tx_mean_ns, want as f64);
    assert_eq!(
        (
            d.jitter_rfc3550_ns,
            d.ipdv_mean_abs_ns,
            d.ipdv_max_abs_ns,
            d.pdv_p99_ns
        ),
        (0.0, 0.0, 0, 0)
    );
    assert!(d.rtt.is_none(), "not a TCP flow");
    for q in &r.queues {
        let s = &q.sojourn;
        assert_eq!((s.all.max_ns, s.all.p99_ns), (0, 0), "{}", q.link);
        assert_eq!(s.all.samples, s.green.samples, "CBR packets are green");
        assert!(s.all.samples >= o.samples);
    }
}

#[test]
fn md1_mean_waiting_time_matches_pollaczek_khinchine() {
    // Poisson arrivals of 1000 B packets at 5 Mb/s into a 10 Mb/s link: service s = 0.8 ms,
    // ρ = 0.5, so W_q = ρ·s / (2(1 − ρ)) = 0.4 ms. About 1 M packets in the window.
    let toml = r#"
name = "md1"
duration = "1700s"
warmup = "10s"
[output]
monitor = ["A->B"]
[[node]]
name = "A"
[[node]]
name = "B"
[[link]]
from = "A"
to = "B"
rate = "10Mbps"
delay = "1ms"
queue = { kind = "drop-tail", limit = "100000p" }
[[flow]]
name = "p"
kind = "poisson"
src = "A"
dst = "B"
rate = "5Mbps"
size = "1000B"
"#;
    let r = run(toml, 3);
    let (rho, s) = (0.5, 800_000.0);
    let wq = rho * s / (2.0 * (1.0 - rho));
    let q = &r.queues[0].sojourn.all;
    assert!(q.samples > 1_000_000, "{}", q.samples);
    let err = (q.mean_ns - wq).abs() / wq;
    eprintln!(
        "M/D/1: {} samples, mean wait {:.1} ns vs {wq} ns ({:+.3} %), p50 {} p99 {}",
        q.samples,
        q.mean_ns,
        (q.mean_ns - wq) / wq * 100.0,
        q.p50_ns,
        q.p99_ns
    );
    assert!(
        err < 0.02,
        "mean wait {} ns vs M/D/1 {wq} ns ({:.2} %)",
        q.mean_ns,
        err * 100.0
    );
    // The flow sees the same waiting: its queueing part, and its one-way delay W_q + s + 1 ms.
    let d = &r.flows[0].delay;
    assert!(
        (d.queueing_mean_ns - wq).abs() / wq < 0.02,
        "{}",
        d.queueing_mean_ns
    );
    assert_eq!(d.prop_tx_mean_ns.round(), 1_800_000.0);
    assert_eq!(d.one_way.min_ns, 1_800_000);
    // P(wait = 0) = 1 − ρ: the median waits nothing; the tail is long
    assert_eq!(q.p50_ns, 0);
    assert!(q.p99_ns > 3 * 800_000, "{}", q.p99_ns);
}

fn tcp_idle(timestamps: bool) -> String {
    format!(
        r#"
name = "rtt"
duration = "4s"
warmup = "1s"
[[node]]
name = "A"
[[node]]
name = "B"
[[link]]
from = "A"
to = "B"
rate = "10Mbps"
delay = "10ms"
queue = {{ kind = "drop-tail", limit = "100p" }}
[[flow]]
name = "t"
kind = "tcp"
src = "A"
dst = "B"
mss = "1000B"
rwnd = "1p"
init_cwnd = 1
delayed_ack = false
timestamps = {timestamps}
"#
    )
}

#[test]
fn tcp_rtt_samples_on_an_idle_path_are_the_base_rtt() {
    // One segment in flight: 2 × 10 ms + 1040 B and 40 B at 10 Mb/s (0.832 + 0.032 ms).
    let base = 20_000_000 + 832_000 + 32_000;
    for ts in [false, true] {
        let r = run(&tcp_idle(ts), 1);
        let d = &r.flows[0].delay;
        let rtt = d.rtt.expect("a TCP flow has RTT samples");
        // one segment per RTT: ~3 s / 20.864 ms = 143 round trips in the window
        assert!(
            (140..=145).contains(&rtt.samples),
            "ts {ts}: {}",
            rtt.samples
        );
        assert_eq!(
            (rtt.min_ns, rtt.p50_ns, rtt.p99_ns, rtt.max_ns),
            (base, base, base, base)
        );
        assert_eq!(d.one_way.max_ns, 10_832_000, "data one-way delay");
        assert_eq!(d.queueing_max_ns, 0);
    }
}

#[test]
fn delay_is_measured_in_the_window_only_and_is_deterministic() {
    let toml = format!(
        "{TWO_HOPS}\n[[flow]]\nname = \"p\"\nkind = \"poisson\"\nsrc = \"A\"\ndst = \"B\"\nrate = \"3Mbps\"\nsize = \"500B\"\n"
    );
    let a = run(&toml, 5);
    let b = run(&toml, 5);
    assert_eq!(a.flows[0].delay, b.flows[0].delay);
    // samples = data packets delivered in the window (the flow's counters over the window)
    assert_eq!(
        a.flows[0].delay.one_way.samples,
        a.flows[0].measured.delivered_pkts
    );
    // queueing happens at R->B (4 Mb/s, 75 % load): percentiles are ordered, the split adds up
    let d = &a.flows[0].delay;
    let o = &d.one_way;
    assert!(
        o.min_ns <= o.p50_ns
            && o.p50_ns <= o.p90_ns
            && o.p90_ns <= o.p99_ns
            && o.p99_ns <= o.max_ns
    );
    assert!(d.queueing_mean_ns > 0.0);
    let fixed = 7_000_000.0 + 2_000_000.0 + 400_000.0 + 1_000_000.0;
    assert!(
        (d.prop_tx_mean_ns - fixed).abs() < 1e-3,
        "{}",
        d.prop_tx_mean_ns
    );
    assert!(d.jitter_rfc3550_ns > 0.0 && d.ipdv_max_abs_ns >= d.ipdv_mean_abs_ns as u64);
    assert_eq!(d.pdv_p99_ns, o.p99_ns - o.min_ns);
}

#[test]
fn delay_series_on_request() {
    let flow = "\n[[flow]]\nname = \"v\"\nkind = \"cbr\"\nsrc = \"A\"\ndst = \"B\"\nrate = \"1Mbps\"\nsize = \"1000B\"\n";
    let with = TWO_HOPS.replace(
        "[output]\n",
        "[output]\nsample_interval = \"100ms\"\ndelay_series = true\n",
    ) + flow;
    let s = parse_str(&with, "test.toml").unwrap();
    let (_, files) = qoslab_sim::output::run_and_render(Simulator::new(s, 1).unwrap()).unwrap();
    let (_, csv) = files
        .files
        .iter()
        .find(|(n, _)| n == "delay_series.csv")
        .expect("delay_series.csv written");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "time_s,flow,packets,delay_mean_s,delay_max_s");
    // samples at 0, 0.1, ..., 2.9 s (30), one flow; 12 or 13 packets per 100 ms at 125/s
    assert_eq!(rows.len(), 1 + 30);
    assert_eq!(rows[1], "0.000000,v,0,0.000000000,0.000000000");
    for r in &rows[3..] {
        let c: Vec<&str> = r.split(',').collect();
        assert!(c[2] == "12" || c[2] == "13", "{r}");
        assert_eq!((c[3], c[4]), ("0.011800000", "0.011800000"), "{r}");
    }
    // without sample_interval it is refused, naming the key
    let bad = TWO_HOPS.replace("[output]\n", "[output]\ndelay_series = true\n") + flow;
    let e = parse_str(&bad, "test.toml").unwrap_err().to_string();
    assert!(
        e.contains("delay_series") && e.contains("sample_interval"),
        "{e}"
    );
    // off by default: no file
    let s = parse_str(&(TWO_HOPS.to_string() + flow), "test.toml").unwrap();
    let (_, files) = qoslab_sim::output::run_and_render(Simulator::new(s, 1).unwrap()).unwrap();
    assert!(files.files.iter().all(|(n, _)| n != "delay_series.csv"));
}
