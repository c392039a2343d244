//! The qualitative conclusions of the two AF seeds, asserted on shortened runs of the
//! repository's scenario files (the full tables are `qoslab reproduce rio-hori2001` and
//! `qoslab reproduce rfc2963`).

use qoslab_algo::Duration;
use qoslab_sim::scenario::parse_str;
use qoslab_sim::scenario::spec::{QueueSpec, Scenario, TcpVariant};
use qoslab_sim::{RunResult, Simulator};

fn repo_file(rel: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(rel)).unwrap()
}

fn run(s: &Scenario, seeds: &[u64]) -> Vec<RunResult> {
    seeds
        .iter()
        .map(|&k| Simulator::new(s.clone(), k).unwrap().run().unwrap())
        .collect()
}

fn mean(rs: &[RunResult], f: impl Fn(&RunResult) -> f64) -> f64 {
    rs.iter().map(f).sum::<f64>() / rs.len() as f64
}

// ---------------------------------------------------------------- RIO seed (Hori et al.)

/// The RIO seed's base scenario with AF12 (Out) at (min_th, max_th, max_p, w_q).
fn rio(variant: TcpVariant, out: (f64, f64, f64, f64)) -> Scenario {
    let mut s = parse_str(&repo_file("scenarios/rio-hori2001/base.toml"), "base.toml").unwrap();
    for f in &mut s.flows {
        if let qoslab_sim::scenario::spec::FlowKind::Tcp(t) = &mut f.kind {
            t.variant = variant;
        }
    }
    let l = s.links.iter_mut().find(|l| l.name == "G1->G2").unwrap();
    let QueueSpec::Rio { precedences, .. } = &mut l.queue else {
        panic!("RIO bottleneck")
    };
    let p = &mut precedences[1];
    (p.min_th, p.max_th, p.max_p, p.w_q) = out;
    s
}

fn bottleneck(r: &RunResult) -> &qoslab_sim::result::QueueResult {
    r.queues.iter().find(|q| q.link == "G1->G2").unwrap()
}

#[test]
fn rio_throughput_and_queue_grow_with_min_th() {
    // Table 1 / §3.A: "the total throughput performance improves as minth increases for all
    // three TCP variants ... the queue length becomes longer with the increase of minth".
    for v in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        let lo = run(&rio(v, (20.0, 200.0, 0.1, 0.002)), &[1, 2]);
        let hi = run(&rio(v, (100.0, 200.0, 0.1, 0.002)), &[1, 2]);
        let thr = |r: &RunResult| bottleneck(r).throughput_bps;
        let ql = |r: &RunResult| bottleneck(r).length.mean;
        assert!(
            mean(&hi, thr) > mean(&lo, thr),
            "{v:?}: throughput {} vs {}",
            mean(&hi, thr),
            mean(&lo, thr)
        );
        assert!(
            mean(&hi, ql) > mean(&lo, ql) + 10.0,
            "{v:?}: queue {} vs {}",
            mean(&hi, ql),
            mean(&lo, ql)
        );
    }
}

#[test]
fn rio_empty_queue_is_rarer_with_smaller_max_p() {
    // Table 2 / §3.B (Reno): "the queue becomes empty less frequently with smaller maxp"
    // and "the average queue length increases" as max_p falls.
    let big = run(
        &rio(TcpVariant::Reno, (60.0, 200.0, 0.5, 0.002)),
        &[1, 2, 3],
    );
    let small = run(
        &rio(TcpVariant::Reno, (60.0, 200.0, 0.02, 0.002)),
        &[1, 2, 3],
    );
    let empty = |r: &RunResult| bottleneck(r).length.p_empty;
    assert!(
        mean(&small, empty) < mean(&big, empty),
        "P(empty) {} vs {}",
        mean(&small, empty),
        mean(&big, empty)
    );
    let ql = |r: &RunResult| bottleneck(r).length.mean;
    assert!(mean(&small, ql) > mean(&big, ql));
}

#[test]
fn rio_prompt_feedback_narrows_the_queue_distribution() {
    // §3.C-D: with w_qout = 1 (Out drops judged on the instantaneous queue) the queue length
    // stays in a narrower range than with the EWMA (w = 0.002).
    let ewma = run(&rio(TcpVariant::Sack, (60.0, 200.0, 0.1, 0.002)), &[1, 2]);
    let prompt = run(&rio(TcpVariant::Sack, (60.0, 200.0, 0.1, 1.0)), &[1, 2]);
    let std = |r: &RunResult| bottleneck(r).length.std;
    let p99 = |r: &RunResult| bottleneck(r).length.p99 as f64;
    assert!(
        mean(&prompt, std) < mean(&ewma, std),
        "std {} vs {}",
        mean(&prompt, std),
        mean(&ewma, std)
    );
    assert!(
        mean(&prompt, p99) < mean(&ewma, p99),
        "p99 {} vs {}",
        mean(&prompt, p99),
        mean(&ewma, p99)
    );
}

// ---------------------------------------------------------------- RFC 2963 App. A

/// RFC 2963's base scenario shortened to 22 s (2 s warm-up), with CBS scaled from 3 KB to
/// `cbs_kb` (PBS = 2 CBS; the trRAS thresholds follow: CIR_th = CBS, PIR_th = PBS,
/// MIR_th = 2 PBS, buffer at least MIR_th), as `qoslab reproduce rfc2963` varies it.
fn rfc2963(cbs_kb: u64) -> Scenario {
    let text = repo_file("scenarios/rfc2963/base.toml")
        .replace("cbs = \"3KB\"", &format!("cbs = \"{cbs_kb}KB\""))
        .replace("pbs = \"6KB\"", &format!("pbs = \"{}KB\"", 2 * cbs_kb))
        .replace(
            "cir_th = \"3KB\", pir_th = \"6KB\", mir_th = \"12KB\", buffer = \"640KB\"",
            &format!(
                "cir_th = \"{cbs_kb}KB\", pir_th = \"{}KB\", mir_th = \"{}KB\", buffer = \"{}KB\"",
                2 * cbs_kb,
                4 * cbs_kb,
                (4 * cbs_kb).max(640)
            ),
        );
    let mut s = parse_str(&text, "base.toml").unwrap();
    s.duration = Duration::from_secs(22);
    s.warmup = Duration::from_secs(2);
    s
}

/// Goodput and green bytes delivered (Mb/s) of customer `c` (1..=10: workstations
/// w{10(c-1)+1}..w{10c}).
fn customer(r: &RunResult, c: usize) -> (f64, f64) {
    let fs = &r.flows[(c - 1) * 10..c * 10];
    let goodput = fs.iter().map(|f| f.goodput_bps).sum::<f64>() / 1e6;
    let green = fs
        .iter()
        .map(|f| f.measured.delivered_by_color[0] as f64)
        .sum::<f64>()
        * 8.0
        / r.measured_s
        / 1e6;
    (goodput, green)
}

#[test]
fn rfc2963_shaping_helps_at_small_cbs_and_less_at_large_cbs() {
    // App. A.2-A.4: with a CBS of 3 KB the customers behind a trRAS (C6..C10) get more green
    // and more goodput than those with the trTCM alone (C1..C5) at the same CIR; "with a very
    // large CBS, the performance decreases when the shaper is in use" — the advantage shrinks
    // or reverses.
    let small = run(&rfc2963(3), &[1, 2]);
    let large = run(&rfc2963(300), &[1, 2]);
    let advantage = |rs: &[RunResult]| {
        let mut total = 0.0;
        for c in 1..=5 {
            let shaped = mean(rs, |r| customer(r, c + 5).0);
            let plain = mean(rs, |r| customer(r, c).0);
            total += shaped - plain;
        }
        total
    };
    for c in 1..=5 {
        let (g_shaped, green_shaped) = (
            mean(&small, |r| customer(r, c + 5).0),
            mean(&small, |r| customer(r, c + 5).1),
        );
        let (g_plain, green_plain) = (
            mean(&small, |r| customer(r, c).0),
            mean(&small, |r| customer(r, c).1),
        );
        assert!(
            g_shaped > g_plain,
            "CIR {} Mb/s: goodput shaped {g_shaped} vs plain {g_plain}",
            2 * c
        );
        assert!(
            green_shaped > green_plain,
            "CIR {} Mb/s: green shaped {green_shaped} vs plain {green_plain}",
            2 * c
        );
    }
    let (a_small, a_large) = (advantage(&small), advantage(&large));
    assert!(
        a_large < a_small,
        "advantage at 300 KB {a_large} vs at 3 KB {a_small} (Mb/s, summed over CIRs)"
    );
}
