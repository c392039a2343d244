//! Differential check against ns-2.35 (issue 14): the RIO seed (Hori et al. 2001), Table 4a.
//!
//! ns-2.35 ran the same network (`bench/ns2/seeds/rio_hori2001.tcl`: dsRED edge queues with
//! TSW2CM taggers, a RIO-C core queue) with its own TCP Reno; its per-seed statistics are
//! checked in under `tests/data/ns2/` with their source, so ns-2 is not needed here. Our side
//! is `scenarios/rio-hori2001/base.toml` with the cell's AF12 parameters and `ns2_compat =
//! false` (our RFC-mode Reno, which is ns-2.35's Reno; the reproduction itself uses the
//! 2000-era ns-2 Reno, `ns2_compat = true`). For the cells where the two agree
//! (`bench/ns2/seeds/README.md`), our mean over seeds 1..3 must stay within 5 % of ns-2's
//! throughput and 10 % of its mean queue (the bounds for identical scenarios). The
//! queue's standard deviation and empty fraction are not checked: ns-2's are larger (an
//! open finding, see the README).

use super::manifest;
use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::{FlowKind, QueueSpec, RioPrecedenceSpec, Scenario, TcpVariant};
use qoslab_sim::Simulator;

/// ns-2's (ql_ave, throughput) per seed for the cell.
fn ns2_reference(maxth: u32, den: u32) -> Vec<(f64, f64)> {
    let path = manifest("tests/data/ns2/rio_hori2001_table4a.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut v = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "{path:?}: bad line {line:?}");
        if f[0] == maxth.to_string() && f[1] == den.to_string() {
            v.push((f[4].parse().unwrap(), f[6].parse().unwrap()));
        }
    }
    assert!(!v.is_empty(), "{path:?}: no row for ({maxth}, 1/{den})");
    v
}

/// `scenarios/rio-hori2001/base.toml` for one cell: RFC-mode Reno (`ns2_compat = false`, the
/// like-for-like column of README section 1) and the core queue's AF12 (Out) precedence set to
/// min_th 60, max_th `maxth`, max_p 1/`den` and averaging weight `w_out`.
pub(super) fn reno_cell(maxth: u32, den: u32, w_out: f64) -> Scenario {
    let mut s =
        load(&manifest("../../scenarios/rio-hori2001/base.toml")).unwrap_or_else(|e| panic!("{e}"));
    for f in &mut s.flows {
        if let FlowKind::Tcp(t) = &mut f.kind {
            t.variant = TcpVariant::Reno;
            t.ns2_compat = false;
        }
    }
    let mut n = 0;
    for l in s.links.iter_mut().filter(|l| l.name == "G1->G2") {
        if let QueueSpec::Rio { precedences, .. } = &mut l.queue {
            precedences[1] = RioPrecedenceSpec {
                min_th: 60.0,
                max_th: maxth as f64,
                max_p: 1.0 / den as f64,
                w_q: w_out,
            };
            n += 1;
        }
    }
    assert_eq!(n, 1, "base.toml: one RIO queue on G1->G2 expected");
    s
}

/// Our (ql_ave, throughput Mb/s) at G1->G2 for the cell and seed.
fn ours(maxth: u32, den: u32, seed: u64) -> (f64, f64) {
    let s = reno_cell(maxth, den, 0.002);
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let q = r.queues.iter().find(|q| q.link == "G1->G2").unwrap();
    (q.length.mean, q.throughput_bps / 1e6)
}

fn check(maxth: u32, den: u32) {
    let refs = ns2_reference(maxth, den);
    let k = refs.len() as f64;
    let (ns_q, ns_t) = (
        refs.iter().map(|r| r.0).sum::<f64>() / k,
        refs.iter().map(|r| r.1).sum::<f64>() / k,
    );
    let runs: Vec<(f64, f64)> = (1..=3).map(|s| ours(maxth, den, s)).collect();
    let q = runs.iter().map(|r| r.0).sum::<f64>() / 3.0;
    let t = runs.iter().map(|r| r.1).sum::<f64>() / 3.0;
    eprintln!("({maxth}, 1/{den}): ql_ave qoslab {q:.2} ns-2 {ns_q:.2}; throughput qoslab {t:.2} ns-2 {ns_t:.2}");
    assert!(
        (t / ns_t - 1.0).abs() <= 0.05,
        "({maxth}, 1/{den}): throughput qoslab {t:.2} vs ns-2.35 {ns_t:.2} Mb/s"
    );
    assert!(
        (q / ns_q - 1.0).abs() <= 0.10,
        "({maxth}, 1/{den}): mean queue qoslab {q:.2} vs ns-2.35 {ns_q:.2} packets"
    );
}

#[test]
fn rio_maxth150_maxp10_matches_ns2() {
    check(150, 10);
}

#[test]
fn rio_maxth150_maxp20_matches_ns2() {
    check(150, 20);
}

#[test]
fn rio_maxth200_maxp10_matches_ns2() {
    check(200, 10);
}
