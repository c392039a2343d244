//! Differential check against ns-2.35 (issue 14): RFC 4828 App. B.1, the TFRC columns of
//! Tables 7, 8 and 9 (configured packet drop rate).
//!
//! ns-2.35 ran the same flows (`bench/ns2/seeds/rfc4828_b1_tfrc.tcl`: Agent/TFRC fed by CBR,
//! `voip_ 1` + `ShortIntervals_ 1` for TFRC-SP, an ErrorModel on the link); its per-seed
//! send rates are checked in under `tests/data/ns2/`, so ns-2 is not needed here. Our side is
//! `scenarios/rfc4828/b1-packet-drop.toml` with `@loss` = p, keeping only the groups checked
//! (the path is uncongested and every flow draws from its own named stream, so removing the
//! other flows changes nothing for these).
//!
//! What agrees (`bench/ns2/seeds/README.md`, 3 seeds each), and the bounds kept here (6 %;
//! ns-2's seed range is up to ±3.5 % of these cells):
//! * standard TFRC with `ns2_compat` (ns-2's loss-event and timeout details) against ns-2's
//!   TFRC: 1460 B −3.5 % (p = 0.01) and −1.6 % (0.05); 200 B −0.5 % and −2.1 %; 14 B
//!   +1.2 % (0.05) and −2.3 % (0.1);
//! * TFRC-SP (RFC 4828, our default mode) against ns-2's `voip_` TFRC-SP: 200 B −1.7 % and
//!   −1.3 %, 14 B −1.2 % and −3.7 % (p = 0.01, 0.05).
//!
//! Not checked (they differ, see the README): our RFC 5348 standard TFRC (7-30 % below ns-2
//! for p >= 0.005: ns-2 counts losses differently), and every TFRC column at p >= 0.1-0.2.

use std::collections::BTreeMap;
use std::path::PathBuf;

use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::LossSpec;
use qoslab_sim::Simulator;

const SEEDS: u64 = 3;
const BOUND: f64 = 0.06;

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// ns-2's mean send rate (Kb/s) over its seeds for (drop rate as written, group).
fn ns2_reference() -> BTreeMap<(String, String), f64> {
    let path = manifest("tests/data/ns2/rfc4828_b1_tfrc.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut m: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 4, "{path:?}: bad line {line:?}");
        m.entry((f[0].to_string(), f[2].to_string()))
            .or_default()
            .push(f[3].parse().unwrap());
    }
    m.into_iter()
        .map(|(k, v)| (k, v.iter().sum::<f64>() / v.len() as f64))
        .collect()
}

/// Our mean send rate per flow (Kb/s) of each of `groups` (flow-name prefixes such as
/// "sp200_" or "std1460ns2_"), at drop rate `p`, for one seed.
fn ours(p: f64, seed: u64, groups: &[&str]) -> Vec<f64> {
    let mut s = load(&manifest("../../scenarios/rfc4828/b1-packet-drop.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let in_group = |name: &str, g: &str| {
        name.strip_prefix(g)
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    s.flows
        .retain(|f| groups.iter().any(|g| in_group(&f.name, g)));
    let mut n = 0;
    for l in s.links.iter_mut() {
        if matches!(l.loss, Some(LossSpec::Packet { p: old }) if old > 0.0) {
            l.loss = Some(LossSpec::Packet { p });
            n += 1;
        }
    }
    assert_eq!(n, 1, "one lossy link expected in b1-packet-drop.toml");
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    groups
        .iter()
        .map(|g| {
            let v: Vec<f64> = r
                .flows
                .iter()
                .filter(|f| in_group(&f.name, g))
                .map(|f| f.send_rate_bps / 1e3)
                .collect();
            assert_eq!(v.len(), 10, "group {g}: ten flows expected");
            v.iter().sum::<f64>() / 10.0
        })
        .collect()
}

/// At drop rate `p`: each (our group, ns-2 group) pair within BOUND of ns-2's mean.
fn check(p: &str, pairs: &[(&str, &str)]) {
    let refs = ns2_reference();
    let pf: f64 = p.parse().unwrap();
    let groups: Vec<&str> = pairs.iter().map(|x| x.0).collect();
    let mut q = vec![0.0; groups.len()];
    for seed in 1..=SEEDS {
        for (acc, v) in q.iter_mut().zip(ours(pf, seed, &groups)) {
            *acc += v / SEEDS as f64;
        }
    }
    let mut bad = Vec::new();
    for (&(ours_g, ns2_g), a) in pairs.iter().zip(&q) {
        let b = refs[&(p.to_string(), ns2_g.to_string())];
        eprintln!("p {p}: {ours_g} {a:.2} Kb/s, ns-2.35 {ns2_g} {b:.2} Kb/s");
        if (a / b - 1.0).abs() > BOUND {
            bad.push(format!(
                "{ours_g}: qoslab {a:.2} vs ns-2.35 {ns2_g} {b:.2} Kb/s ({:+.1} %)",
                100.0 * (a / b - 1.0)
            ));
        }
    }
    assert!(bad.is_empty(), "drop rate {p}:\n{}", bad.join("\n"));
}

#[test]
fn b1_tfrc_matches_ns2_at_1_percent() {
    check(
        "0.01",
        &[
            ("std1460ns2_", "std1460"),
            ("std200ns2_", "std200"),
            ("sp200_", "sp200"),
            ("sp14_", "sp14"),
        ],
    );
}

#[test]
fn b1_tfrc_matches_ns2_at_5_percent() {
    check(
        "0.05",
        &[
            ("std1460ns2_", "std1460"),
            ("std200ns2_", "std200"),
            ("std14ns2_", "std14"),
            ("sp200_", "sp200"),
            ("sp14_", "sp14"),
        ],
    );
}

#[test]
fn b1_std14_tfrc_ns2_compat_matches_ns2_at_10_percent() {
    // (200 B at p = 0.1 is +5.0 %: too close to the bound to be kept as a check.)
    check("0.1", &[("std14ns2_", "std14")]);
}
