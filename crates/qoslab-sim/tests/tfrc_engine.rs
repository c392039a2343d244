//! TFRC and TFRC-SP over the engine (RFC 4828 App. B.1 set-up: configured packet drop
//! rate, 240 ms base RTT).

use qoslab_algo::tfrc::equation;
use qoslab_sim::scenario::parse_str;
use qoslab_sim::{RunResult, Simulator};

fn run(flow: &str, loss: &str, secs: u32, seed: u64) -> RunResult {
    let text = format!(
        r#"
duration = "{secs}s"
warmup = "{w}s"
node = [{{ name = "a" }}, {{ name = "b" }}]
link = [{{ from = "a", to = "b", rate = "10Mbps", delay = "120ms", queue = {{ kind = "drop-tail", limit = "1000p" }}, loss = {loss}, reverse_loss = {{ packet = 0 }} }}]
[[flow]]
name = "f"
src = "a"
dst = "b"
kind = "tfrc"
{flow}
"#,
        w = secs / 5
    );
    let s = parse_str(&text, "tfrc.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulator::new(s, seed).unwrap().run().unwrap()
}

#[test]
fn lossless_tfrc_reaches_its_application_rate() {
    // 200 B every 10 ms = 160 kb/s of data (RFC 4828 App. B.3's TFRC-SP application).
    for v in ["standard", "sp"] {
        let r = run(
            &format!("variant = \"{v}\"\nsize = \"200B\"\ninterval = \"10ms\""),
            "{ packet = 0 }",
            30,
            1,
        );
        let g = r.flows[0].goodput_bps;
        assert!((g - 160e3).abs() / 160e3 < 0.02, "{v}: goodput {g}");
    }
}

#[test]
fn standard_tfrc_follows_the_throughput_equation() {
    // 1460 B packets, at most 100 packets/s (RFC 4828 Table 7's TFRC flow), p = 0.05:
    // the sending rate should be near X(s, R, p) of RFC 5348 §3.1 with s = 1460 B,
    // R ≈ 0.24 s. Loss events are not losses (at most one per RTT), so the measured
    // rate may be somewhat above the equation evaluated at the packet drop rate.
    let p = 0.05;
    let mut rates = Vec::new();
    for seed in 1..=3 {
        let r = run(
            "size = \"1460B\"\nrate = \"1168kbps\"",
            &format!("{{ packet = {p} }}"),
            200,
            seed,
        );
        rates.push(r.flows[0].send_rate_bps);
    }
    let ours = rates.iter().sum::<f64>() / rates.len() as f64;
    let x = equation::throughput(1500.0, 0.24, p) * 8.0; // bytes/s → bit/s, wire bytes
    assert!(
        ours > 0.7 * x && ours < 1.6 * x,
        "ours {ours} vs equation {x} ({rates:?})"
    );
}

#[test]
fn tfrc_sp_keeps_small_packets_flowing_where_standard_tfrc_starves_them() {
    // RFC 4828 §7 / Table 8: 14 B data + 32 B header every 10 ms, packet drop rate 0.1.
    // Standard TFRC computes its rate with s = 14 B and collapses; TFRC-SP uses the nominal
    // 1460 B segment and keeps (nearly) its 100 packets/s.
    let flow = |v: &str| {
        format!("variant = \"{v}\"\nsize = \"14B\"\nheader = \"32B\"\ninterval = \"10ms\"")
    };
    let sp = run(&flow("sp"), "{ packet = 0.1 }", 100, 1);
    let std = run(&flow("standard"), "{ packet = 0.1 }", 100, 1);
    let (a, b) = (sp.flows[0].send_rate_bps, std.flows[0].send_rate_bps);
    assert!(a > 3.0 * b, "TFRC-SP {a} vs standard {b}");
    // at most the application's 100 packets/s of 46 B = 36.8 kb/s
    assert!(a <= 36.8e3 * 1.01, "{a}");
}

#[test]
fn ns2_compat_tfrc_sends_more_at_high_loss() {
    // RFC 4828 B.1 at p = 0.3: RFC 5348 TFRC counts nearly every loss as a loss event and
    // its receive-rate limit collapses below one packet per RTT; ns-2's TFRC merges losses
    // of one feedback round into one event and floors the limit at one packet per RTT
    // (`qoslab_algo::tfrc::ns2`), so it sends several times more.
    let flow = |ns2: bool| format!("size = \"1460B\"\nrate = \"1168kbps\"\nns2_compat = {ns2}");
    let mean = |ns2: bool| {
        (1..=3)
            .map(|seed| run(&flow(ns2), "{ packet = 0.3 }", 200, seed).flows[0].send_rate_bps)
            .sum::<f64>()
            / 3.0
    };
    let (rfc, ns2) = (mean(false), mean(true));
    assert!(ns2 > 2.0 * rfc, "ns-2 mode {ns2} vs RFC mode {rfc}");
}
