//! The harness shared by the RFC 4828 configured-drop-rate checks against ns-2.35
//! (`ns2_suite/b1_tfrc.rs`: packet drop rates, `ns2_suite/b2.rs`: byte drop rates): ns-2's
//! checked-in per-seed send rates, and ours from the scenario file with its one lossy link
//! set to the rate under test and only the checked flow groups kept (uncongested path, a
//! random stream per flow: removing the other flows changes nothing for these).

use std::collections::BTreeMap;
use std::path::PathBuf;

use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::{FlowKind, FlowSpec, LossSpec};
use qoslab_sim::Simulator;

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// What is checked: ns-2's reference file (`tests/data/ns2/…`, `fields` per line: drop
/// rate as written, seed, group, send rate in Kb/s, …) and our scenario with its loss kind.
pub struct Suite {
    pub reference: &'static str,
    pub fields: usize,
    pub scenario: &'static str,
    /// The loss of the scenario's lossy link at drop rate x.
    pub loss: fn(f64) -> LossSpec,
    /// "drop rate" or "byte drop rate", for messages.
    pub what: &'static str,
}

impl Suite {
    /// ns-2's per-seed send rates (Kb/s, seeds 1..n in file order) for (drop rate as
    /// written, group).
    fn ns2_reference(&self) -> BTreeMap<(String, String), Vec<f64>> {
        let path = manifest(self.reference);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let mut m: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), self.fields, "{path:?}: bad line {line:?}");
            m.entry((f[0].to_string(), f[2].to_string()))
                .or_default()
                .push(f[3].parse().unwrap());
        }
        m
    }

    /// Our mean send rate per flow (Kb/s) of each of `groups` (flow-name prefixes such as
    /// "sp200_" or "tcp512_") at drop rate `x`, for one seed: TCP payload bytes sent
    /// (retransmissions included), TFRC wire bytes, as RFC 4828 and the ns-2 scripts count
    /// them.
    fn ours(&self, x: f64, seed: u64, groups: &[&str], modify: &dyn Fn(&mut FlowSpec)) -> Vec<f64> {
        let mut s = load(&manifest(self.scenario)).unwrap_or_else(|e| panic!("{e}"));
        let in_group = |name: &str, g: &str| {
            name.strip_prefix(g)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()))
        };
        s.flows
            .retain(|f| groups.iter().any(|g| in_group(&f.name, g)));
        s.flows.iter_mut().for_each(modify);
        let mut n = 0;
        for l in s.links.iter_mut() {
            if matches!(l.loss, Some(LossSpec::Packet { p: old } | LossSpec::Byte { b: old }) if old > 0.0)
            {
                l.loss = Some((self.loss)(x));
                n += 1;
            }
        }
        assert_eq!(n, 1, "one lossy link expected in {}", self.scenario);
        let r = Simulator::new(s, seed).unwrap().run().unwrap();
        groups
            .iter()
            .map(|g| {
                let v: Vec<f64> = r
                    .flows
                    .iter()
                    .filter(|f| in_group(&f.name, g))
                    .map(|f| {
                        if f.kind == "tcp" {
                            f.send_payload_bps / 1e3
                        } else {
                            f.send_rate_bps / 1e3
                        }
                    })
                    .collect();
                assert_eq!(v.len(), 10, "group {g}: ten flows expected");
                v.iter().sum::<f64>() / 10.0
            })
            .collect()
    }

    /// At drop rate `x` (as written in the reference file): each (our group, ns-2 group,
    /// bound) within its bound of ns-2's mean over its seeds 1..n, ours over the same seeds
    /// (n = 3 for most rates; the file may hold more for a rate, the same for every group).
    pub fn check(&self, x: &str, cells: &[(&str, &str, f64)]) {
        self.check_with(x, cells, &|_| {})
    }

    /// As [`Suite::check`], with every TFRC flow's application queueing its packets in an
    /// unbounded send buffer (`app_backlog = true`), as ns-2's CBR-fed `Agent/TFRC` does
    /// (finding 37).
    pub fn check_with_app_backlog(&self, x: &str, cells: &[(&str, &str, f64)]) {
        self.check_with(x, cells, &|f| {
            if let FlowKind::Tfrc(t) = &mut f.kind {
                t.app_backlog = t.app_rate.is_some();
            }
        })
    }

    /// As [`Suite::check`], with ns-2.35's timestamp option bytes on our TCP flows that use
    /// timestamps: ns-2's `TcpAgent::headersize()` adds `ts_option_size_` = 10 B to every
    /// packet of a `timestamps_ true` agent, ours adds none (finding 40).
    pub fn check_with_ns2_timestamp_bytes(&self, x: &str, cells: &[(&str, &str, f64)]) {
        self.check_with(x, cells, &ns2_timestamp_bytes)
    }

    /// As [`Suite::check`], with ns-2's timestamp bytes ([`Suite::check_with_ns2_timestamp_bytes`])
    /// and issue 14's rule for noisy cells (`bench/ns2/seeds/ci.py`, DONE_WHEN.md): a cell
    /// passes within its bound *or* when the two 95 % confidence intervals of the mean over
    /// the seeds overlap (|difference| ≤ the sum of the half-widths). For cells of a few
    /// dozen packets per run, whose seeds span ×2..×10 in both simulators.
    pub fn check_ci_with_ns2_timestamp_bytes(&self, x: &str, cells: &[(&str, &str, f64)]) {
        self.check_impl(x, cells, &ns2_timestamp_bytes, true)
    }

    /// As [`Suite::check`], with `modify` applied to every kept flow first.
    pub fn check_with(&self, x: &str, cells: &[(&str, &str, f64)], modify: &dyn Fn(&mut FlowSpec)) {
        self.check_impl(x, cells, modify, false)
    }

    fn check_impl(
        &self,
        x: &str,
        cells: &[(&str, &str, f64)],
        modify: &dyn Fn(&mut FlowSpec),
        ci: bool,
    ) {
        let refs = self.ns2_reference();
        let xf: f64 = x.parse().unwrap();
        let groups: Vec<&str> = cells.iter().map(|c| c.0).collect();
        let seeds = refs[&(x.to_string(), cells[0].1.to_string())].len();
        // Ours per group, per seed.
        let mut q = vec![Vec::with_capacity(seeds); groups.len()];
        for seed in 1..=seeds as u64 {
            for (per_seed, v) in q.iter_mut().zip(self.ours(xf, seed, &groups, modify)) {
                per_seed.push(v);
            }
        }
        let mut bad = Vec::new();
        for (&(ours_g, ns2_g, bound), qv) in cells.iter().zip(&q) {
            let v = &refs[&(x.to_string(), ns2_g.to_string())];
            assert_eq!(
                v.len(),
                seeds,
                "{x} {ns2_g}: every group needs the same seeds"
            );
            let (a, ah) = mean_ci95(qv);
            let (r, rh) = mean_ci95(v);
            eprintln!(
                "{} {x}: {ours_g} {a:.3} ± {ah:.3} Kb/s, ns-2.35 {ns2_g} {r:.3} ± {rh:.3} Kb/s \
                 ({seeds} seeds, {:+.1} %)",
                self.what,
                100.0 * (a / r - 1.0)
            );
            let overlap = ci && (a - r).abs() <= ah + rh;
            if (a / r - 1.0).abs() > bound && !overlap {
                bad.push(format!(
                    "{ours_g}: qoslab {a:.2} vs ns-2.35 {ns2_g} {r:.2} Kb/s ({:+.1} %, bound {:.0} %{})",
                    100.0 * (a / r - 1.0),
                    100.0 * bound,
                    if ci { ", 95 % intervals apart" } else { "" }
                ));
            }
        }
        assert!(bad.is_empty(), "{} {x}:\n{}", self.what, bad.join("\n"));
    }
}

/// ns-2.35's timestamp option bytes on a TCP flow that uses timestamps (finding 40).
fn ns2_timestamp_bytes(f: &mut FlowSpec) {
    if let FlowKind::Tcp(t) = &mut f.kind {
        if t.timestamps {
            t.header += 10;
        }
    }
}

/// Mean and half-width of the two-sided 95 % confidence interval of the mean (Student's t,
/// n − 1 degrees of freedom; as `bench/ns2/seeds/ci.py`); half-width infinite for one value.
fn mean_ci95(v: &[f64]) -> (f64, f64) {
    const T975: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    let n = v.len();
    let m = v.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (m, f64::INFINITY);
    }
    let df = n - 1;
    let t = if df <= T975.len() {
        T975[df - 1]
    } else {
        1.96 + 2.4 / df as f64
    };
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / df as f64;
    (m, t * (var / n as f64).sqrt())
}
