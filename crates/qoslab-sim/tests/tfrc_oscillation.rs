//! RFC 4828 App. C: does the step rule for short loss intervals (§3) make TFRC-SP's loss
//! event rate oscillate more than the gradual rule? Shortened B.1-like runs; and the
//! engine's recording of a TFRC sender's p and X (statistics window, `tfrc_series.csv`).
//!
//! App. C: "our simulations so far have not shown a great difference in oscillations in the
//! estimate loss event rate between the default mechanism ... and the gradual mechanism".
//! It prints no numbers and names no measure; ours are those of
//! `qoslab_sim::stats::TfrcOscillation` (CoV and roughness of p).

use qoslab_algo::Time;
use qoslab_sim::result::RunResult;
use qoslab_sim::scenario::{parse_str, ErrorKind};
use qoslab_sim::sim::AgentKind;
use qoslab_sim::stats::{TfrcOscillation, TfrcOscillationSummary};
use qoslab_sim::Simulator;

/// B.1's path (scenarios/rfc4828/b1-packet-drop.toml): A -> B, 1 Gb/s, 120 ms each way,
/// configured packet drop rate `p` on data only; `n` TFRC-SP flows of 200 B data + 32 B
/// header every 10 ms and `n` of 14 B + 32 B every 10 ms, starting in [0, 1 s).
fn b1_like(p: f64, rule: &str, n: u32, duration_s: u32, warmup_s: u32) -> String {
    format!(
        r#"
name = "appc"
duration = "{duration_s}s"
warmup = "{warmup_s}s"
[[node]]
name = "A"
[[node]]
name = "B"
[[link]]
from = "A"
to = "B"
rate = "1Gbps"
delay = "120ms"
queue = {{ kind = "drop-tail", limit = "10000p" }}
loss = {{ packet = {p} }}
reverse_loss = {{ packet = 0 }}
[[flow]]
name = "sp200_{{i}}"
count = {n}
src = "A"
dst = "B"
kind = "tfrc"
variant = "sp"
size = "200B"
header = "32B"
interval = "10ms"
start_jitter = "1s"
short_intervals = "{rule}"
[[flow]]
name = "sp14_{{i}}"
count = {n}
src = "A"
dst = "B"
kind = "tfrc"
variant = "sp"
size = "14B"
header = "32B"
interval = "10ms"
start_jitter = "1s"
short_intervals = "{rule}"
"#
    )
}

fn run(text: &str, seed: u64) -> RunResult {
    let s = parse_str(text, "appc.toml").unwrap_or_else(|e| panic!("{e}"));
    Simulator::new(s, seed).unwrap().run().unwrap()
}

/// Mean over the flows whose name starts with `prefix` of `f` of their oscillation figures.
fn group_mean(r: &RunResult, prefix: &str, f: impl Fn(&TfrcOscillationSummary) -> f64) -> f64 {
    let v: Vec<f64> = r
        .flows
        .iter()
        .filter(|x| x.name.starts_with(prefix))
        .map(|x| {
            f(x.tfrc
                .as_ref()
                .expect("a TFRC flow has oscillation figures"))
        })
        .collect();
    assert!(!v.is_empty());
    v.iter().sum::<f64>() / v.len() as f64
}

const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// (step, gradual) figures of group `g` at drop rate `p`, per seed.
fn step_gradual(p: f64, g: &str, f: impl Fn(&TfrcOscillationSummary) -> f64) -> Vec<(f64, f64)> {
    SEEDS
        .iter()
        .map(|&seed| {
            let step = run(&b1_like(p, "step", 5, 60, 20), seed);
            let grad = run(&b1_like(p, "gradual", 5, 60, 20), seed);
            (group_mean(&step, g, &f), group_mean(&grad, g, &f))
        })
        .collect()
}

#[test]
fn app_c_step_and_gradual_oscillate_alike_at_high_drop_rates() {
    // App. C's claim, read as: over seeds 1-4 the CoV of p under the gradual rule is within a
    // factor 1.5 of the step rule's (ratio of the seed sums in [0.67, 1.5]), for both packet
    // sizes, at drop rates 0.2 and 0.3 where most loss intervals are short (< 2 RTTs at
    // 100 pkt/s over a 240 ms RTT). Measured (5 + 5 flows, [20 s, 60 s)), gradual/step per
    // seed: 14 B 0.69-0.92 (p = 0.2), 0.76-0.88 (0.3); 200 B 0.86-0.97, 0.84-1.10. The
    // per-seed check is wider ([0.6, 1.5]): one 14 B seed is at 0.69.
    for p in [0.2, 0.3] {
        for g in ["sp14_", "sp200_"] {
            let r = step_gradual(p, g, |o| o.p_cov);
            for &(step, grad) in &r {
                assert!(
                    (0.6..=1.5).contains(&(grad / step)),
                    "p = {p}, {g}: CoV(p) step {step:.3}, gradual {grad:.3}"
                );
                // and p does oscillate: with a CoV near 0 the ratio would mean nothing
                assert!(step > 0.1 && grad > 0.1, "p = {p}, {g}: {step} {grad}");
            }
            let (s, gr) = r.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
            assert!(
                (0.67..=1.5).contains(&(gr / s)),
                "p = {p}, {g}: CoV(p) summed over seeds: step {s:.3}, gradual {gr:.3}"
            );
        }
    }
}

#[test]
fn the_gradual_rule_smooths_p_of_small_packets_measurably() {
    // The gradual rule is not a no-op: with 14 B packets every 10 ms at p = 0.3, p's
    // feedback-to-feedback jumps are smaller under it in every seed (measured roughness
    // ratio gradual/step 0.67-0.76), and over the seeds by at least 10 % (measured ~28 %).
    let r = step_gradual(0.3, "sp14_", |o| o.p_roughness);
    for &(step, grad) in &r {
        assert!(grad < step, "roughness step {step:.4} gradual {grad:.4}");
    }
    let (s, g) = r.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    assert!(
        g < 0.9 * s,
        "mean roughness step {s:.4} gradual {g:.4} (sums)"
    );
}

/// One TFRC-SP flow at p = 0.1 over 20 s, statistics from 8 s, with the series on.
fn series_scenario() -> String {
    b1_like(0.1, "step", 1, 20, 8) + "[output]\ntfrc_series = true\n"
}

#[test]
fn statistics_cover_the_window_and_the_series_has_one_row_per_feedback() {
    let s = parse_str(&series_scenario(), "appc.toml").unwrap();
    assert!(s.output.tfrc_series);
    let warmup = Time::ZERO + s.warmup;
    let mut sim = Simulator::new(s, 7).unwrap();
    let end = sim.end();
    sim.run_until(end);
    // the senders' own feedback counts (whole run)
    let feedbacks: Vec<(u32, u64)> = sim
        .agents
        .iter()
        .filter_map(|a| match &a.kind {
            AgentKind::TfrcSender { tfrc, .. } => Some((a.flow, tfrc.stats().feedbacks)),
            _ => None,
        })
        .collect();
    assert_eq!(feedbacks.len(), 2);
    let samples = sim.tfrc_samples.clone();
    for &(flow, n) in &feedbacks {
        let rows = samples.iter().filter(|x| x.flow == flow).count() as u64;
        assert_eq!(rows, n, "flow {flow}: one row per feedback");
        assert!(n > 40, "{n}");
        assert!(samples
            .iter()
            .any(|x| x.flow == flow && Time(x.t_ns) < warmup));
    }
    let now = sim.now();
    let r = sim.finish().unwrap();
    // Recomputed from the series' rows at or after the warm-up, closed at the end of the
    // run: exactly the figures the result holds (nothing from before the window).
    for (fi, f) in r.flows.iter().enumerate() {
        let mut o = TfrcOscillation::default();
        for x in samples
            .iter()
            .filter(|x| x.flow == fi as u32 && Time(x.t_ns) >= warmup)
        {
            o.on_sample(Time(x.t_ns), x.p, x.x);
        }
        o.close(now);
        let got = f.tfrc.unwrap();
        assert_eq!(got, o.summary(), "{}", f.name);
        let before = samples
            .iter()
            .filter(|x| x.flow == fi as u32 && Time(x.t_ns) < warmup)
            .count() as u64;
        assert_eq!(got.samples + before, feedbacks[fi].1);
        assert!(got.p_mean > 0.0 && got.p_cov > 0.0 && got.p_pairs > 0);
    }
}

#[test]
fn tfrc_series_csv_and_summary_are_deterministic() {
    let render = || {
        let s = parse_str(&series_scenario(), "appc.toml").unwrap();
        let sim = Simulator::new(s, 3).unwrap();
        qoslab_sim::output::run_and_render(sim).unwrap()
    };
    let (r, a) = render();
    let (_, b) = render();
    assert_eq!(a.files, b.files);
    let file = |name: &str| {
        a.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, body)| body.clone())
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let csv = file("tfrc_series.csv");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("time_s,flow,p,x_bps,rtt_s"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 5));
    // RTT estimate: 240 ms of propagation plus a few serialisations at 1 Gb/s
    let rtt: f64 = rows.last().unwrap()[4].parse().unwrap();
    assert!((0.240..0.241).contains(&rtt), "{rtt}");
    for f in &r.flows {
        let o = f.tfrc.unwrap();
        let in_window = rows
            .iter()
            .filter(|x| x[1] == f.name && x[0].parse::<f64>().unwrap() >= r.warmup_s)
            .count() as u64;
        assert_eq!(in_window, o.samples, "{}", f.name);
    }
    // the summary carries the figures of TFRC flows
    assert!(file("summary.json").contains("\"p_roughness\""));
}

#[test]
fn no_series_unless_asked_and_no_figures_for_other_flows() {
    let text = b1_like(0.1, "step", 1, 4, 1).replace(
        "[[flow]]\nname = \"sp14_{i}\"",
        "[[flow]]\nname = \"cbr\"\nsrc = \"A\"\ndst = \"B\"\nkind = \"cbr\"\nrate = \"10kbps\"\nsize = \"100B\"\n[[flow]]\nname = \"sp14_{i}\"",
    );
    let s = parse_str(&text, "appc.toml").unwrap();
    let (r, files) = qoslab_sim::output::run_and_render(Simulator::new(s, 1).unwrap()).unwrap();
    assert!(files.files.iter().all(|(n, _)| n != "tfrc_series.csv"));
    let cbr = r.flows.iter().find(|f| f.name == "cbr").unwrap();
    assert!(cbr.tfrc.is_none());
    let json = serde_json::to_value(cbr).unwrap();
    assert!(json.get("tfrc").is_none(), "absent from the JSON, not null");
    assert!(r
        .flows
        .iter()
        .filter(|f| f.name != "cbr")
        .all(|f| f.tfrc.is_some()));
}

#[test]
fn tfrc_series_is_validated() {
    let base = "duration = \"1s\"\n[[node]]\nname = \"A\"\n[[node]]\nname = \"B\"\n[[link]]\nfrom = \"A\"\nto = \"B\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n[[flow]]\nname = \"f\"\nsrc = \"A\"\ndst = \"B\"\nkind = \"cbr\"\nrate = \"10kbps\"\nsize = \"100B\"\n";
    let with = |out: &str| parse_str(&format!("{base}[output]\n{out}\n"), "case.toml");
    let line = Some(base.lines().count() + 2);
    // no TFRC flow to record
    let e = with("tfrc_series = true").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Relation, "{e}");
    assert_eq!(e.line(), line, "{e}");
    assert!(e.to_string().contains("no flow of kind \"tfrc\""), "{e}");
    // not a boolean
    let e = with("tfrc_series = \"yes\"").unwrap_err();
    assert_ne!(e.kind(), ErrorKind::Relation, "{e}");
    assert_eq!(e.line(), line, "{e}");
    // misspelt
    let e = with("tfrc_serie = true").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownKey, "{e}");
    // off is fine without TFRC flows
    assert!(!with("tfrc_series = false").unwrap().output.tfrc_series);
}
