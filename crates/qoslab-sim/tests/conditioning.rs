//! Ingress conditioning in the engine: colour shares from markers, policing, shaping.

use qoslab_sim::scenario::parse_str;
use qoslab_sim::{RunResult, Simulator};

/// One source `a` → `b` (10 Mb/s, 1 ms) with the given flow and conditioner on a->b.
fn run(flow: &str, conditioner: &str, secs: u32) -> RunResult {
    let text = format!(
        r#"
duration = "{secs}s"
warmup = "1s"
node = [{{ name = "a" }}, {{ name = "b" }}]
link = [{{ from = "a", to = "b", rate = "10Mbps", delay = "1ms", queue = {{ kind = "drop-tail", limit = "1000p" }}, conditioner = {conditioner} }}]
[[flow]]
name = "f"
src = "a"
dst = "b"
{flow}
"#
    );
    let s = parse_str(&text, "test.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulator::new(s, 1).unwrap().run().unwrap()
}

fn shares(r: &RunResult) -> [f64; 3] {
    let b = r.flows[0].measured.bytes_by_color;
    let t = (b[0] + b[1] + b[2]) as f64;
    [b[0] as f64 / t, b[1] as f64 / t, b[2] as f64 / t]
}

#[test]
fn tsw2cm_marks_the_excess_out() {
    // Clark & Fang: above the target, Out with probability (rate − target)/rate, so the
    // In share of a steady 7 Mb/s stream with a 5 Mb/s target is 5/7.
    let r = run(
        r#"kind = "cbr"
rate = "7Mbps"
size = "500B""#,
        r#"[{ kind = "tsw2cm", target = "5Mbps" }]"#,
        10,
    );
    let s = shares(&r);
    assert!((s[0] - 5.0 / 7.0).abs() < 0.02, "{s:?}");
    assert_eq!(s[2], 0.0);
}

#[test]
fn trtcm_splits_a_cbr_stream_into_thirds() {
    // RFC 2698: 6 Mb/s CBR against CIR 2 and PIR 4 Mb/s: green at 2, yellow at 4 − 2, red the rest.
    let r = run(
        r#"kind = "cbr"
rate = "6Mbps"
size = "500B""#,
        r#"[{ kind = "trtcm", cir = "2Mbps", cbs = "3KB", pir = "4Mbps", pbs = "6KB" }]"#,
        10,
    );
    let s = shares(&r);
    for (i, x) in s.iter().enumerate() {
        assert!((x - 1.0 / 3.0).abs() < 0.01, "colour {i}: {s:?}");
    }
}

#[test]
fn policer_drops_the_excess() {
    let r = run(
        r#"kind = "cbr"
rate = "2Mbps"
size = "500B""#,
        r#"{ kind = "token-bucket", cir = "1Mbps", cbs = "3KB", action = "drop" }"#,
        10,
    );
    assert!(
        (r.flows[0].drop_rate - 0.5).abs() < 0.01,
        "{}",
        r.flows[0].drop_rate
    );
    assert!((r.flows[0].goodput_bps - 1e6).abs() < 2e4);
    assert_eq!(
        r.conditioners[0].counters.policed,
        r.flows[0].total.dropped_pkts
    );
}

#[test]
fn rate_adaptive_shaper_turns_bursts_green() {
    // A Poisson stream of 1.5 Mb/s is bursty at the packet scale; a trTCM with a small CBS
    // (3 KB) colours its bursts yellow/red. A trRAS ahead of it spreads the bursts out at
    // no less than CIR (RFC 2963 §2.4), so more of the stream is green (RFC 2963 §1, App. A).
    let flow = r#"kind = "poisson"
rate = "1.5Mbps"
size = "1000B""#;
    let tcm = r#"{ kind = "trtcm", cir = "2Mbps", cbs = "3KB", pir = "4Mbps", pbs = "6KB" }"#;
    let plain = run(flow, &format!("[{tcm}]"), 20);
    let shaped = run(
        flow,
        &format!(
            r#"[{{ kind = "trras", cir = "2Mbps", pir = "4Mbps", cir_th = "3KB", pir_th = "6KB", mir_th = "12KB", buffer = "100KB" }}, {tcm}]"#
        ),
        20,
    );
    let not_green = |r: &RunResult| 1.0 - shares(r)[0];
    assert!(
        not_green(&plain) > 0.02,
        "the trTCM alone must mark some bursts: {:?}",
        shares(&plain)
    );
    assert!(
        not_green(&shaped) < 0.5 * not_green(&plain),
        "shaped {:?} vs plain {:?}",
        shares(&shaped),
        shares(&plain)
    );
    let c = &shaped.conditioners[0];
    assert!(
        c.shaper_mean_delay_s > 0.0 && c.shaper_max_delay_s < 0.2,
        "{c:?}"
    );
    // nothing is lost: the shaper buffer is large enough
    assert_eq!(shaped.flows[0].total.dropped_pkts, 0);
}

#[test]
fn green_ras_releases_no_later_than_the_plain_ras() {
    // RFC 2963 §3: the green RAS releases at min(T1, T2), so its packets wait less.
    let flow = r#"kind = "poisson"
rate = "1.5Mbps"
size = "1000B""#;
    let chain = |k: &str| {
        format!(
            r#"[{{ kind = "{k}", cir = "2Mbps", pir = "4Mbps", cir_th = "3KB", pir_th = "6KB", mir_th = "12KB", buffer = "100KB" }}, {{ kind = "trtcm", cir = "2Mbps", cbs = "3KB", pir = "4Mbps", pbs = "6KB" }}]"#
        )
    };
    let plain = run(flow, &chain("trras"), 10);
    let green = run(flow, &chain("g-trras"), 10);
    assert!(
        green.conditioners[0].shaper_mean_delay_s <= plain.conditioners[0].shaper_mean_delay_s,
        "green {} vs plain {}",
        green.conditioners[0].shaper_mean_delay_s,
        plain.conditioners[0].shaper_mean_delay_s
    );
}
