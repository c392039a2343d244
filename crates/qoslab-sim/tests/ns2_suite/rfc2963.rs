//! Differential check against ns-2.35 (issue 14): RFC 2963 App. A's network with no
//! rate-adaptive shaper (ns-2 has none), every customer router marking with a trTCM.
//!
//! ns-2.35 ran the same network (`bench/ns2/seeds/rfc2963.tcl`: its trTCM policer on each
//! customer link, a three-precedence dsRED RIO-C core queue, SACK TCP); its per-seed,
//! per-LAN, per-colour packet counts are checked in under `tests/data/ns2/` with their
//! source, so ns-2 is not needed here. Our side is `scenarios/rfc2963/base.toml` with the
//! trRAS of C6..C10 removed, at CBS 3 KB, full 102 s with 2..102 s measured.
//!
//! Measured (`bench/ns2/seeds/README.md`, 3 seeds each), CBS 3000 B: every LAN's green,
//! yellow and total throughput within 3.5 % of ns-2.35 (median 1.1 %); ns-2's seed-to-seed
//! range is up to ±2 % of a cell, ours ±1.5 %. Bound: 6 % per LAN and colour on 3-seed
//! means. CBS 30000 B: green sits at the CIR in both (within 0.1 %), totals within 3.4 %,
//! yellow (about 1 Mb/s) within 9.6 % (ns-2's range ±4 %). Bounds: green and total 6 %,
//! yellow 12 %. Red (every red packet dropped at ER1 in both simulators) below 0.05 Mb/s.
//! A marker that coloured differently (colour-aware instead of blind, CBS/PBS units, PIR
//! not 2 CIR) or a three-colour RIO that coupled its averages differently moves
//! green/yellow by 10-50 %.
//!
//! Finding 41 (CBS 30000 B, 40 seeds, `tests/data/ns2/rfc2963_noshaper_cbs30000_40seeds.csv`):
//! in RFC mode ours gives the CIR 2 Mb/s LANs +7 % of ns-2's yellow and the CIR 10 Mb/s LANs
//! −7 %. The cause is ns-2.35's Sack1 loss recovery, not its trTCM or dsRED: with
//! `sack_pipe = "ns2-sack1"` every LAN's yellow is within 1.5 % of ns-2 (40 seeds). The
//! flows run at windows of 2.6 (CIR 2) to 8 segments (CIR 10) with 12 % to 3 % loss, so how
//! a fast recovery cuts the window (ns-2: min(cwnd, rwnd)/2 as a real number, RFC 6675:
//! FlightSize/2, at least 2 segments) and what it may send (ns-2's pipe counter vs
//! `SetPipe()`) set each LAN's share.

use super::manifest;
use qoslab_algo::meter::trtcm::TrTcmParams;
use qoslab_sim::scenario::load;
use qoslab_sim::scenario::spec::{FlowKind, MeterSpec};
use qoslab_sim::transport::tcp::SackPipe;
use qoslab_sim::Simulator;

const SEEDS: u64 = 3;
const PKT_BITS: f64 = 1500.0 * 8.0;
const MEASURED_S: f64 = 100.0;
const COLOURS: [&str; 3] = ["green", "yellow", "red"];

/// ns-2's mean over its seeds at this CBS (bytes), Mb/s, indexed [lan - 1][colour].
fn ns2_reference(cbs: u64) -> [[f64; 3]; 10] {
    ns2_reference_in("rfc2963_noshaper.csv", cbs)
}

/// ns-2's mean over the seeds of `tests/data/ns2/<file>` at this CBS, as [`ns2_reference`].
fn ns2_reference_in(file: &str, cbs: u64) -> [[f64; 3]; 10] {
    let path = manifest(&format!("tests/data/ns2/{file}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut sum = [[0.0; 3]; 10];
    let mut n = [0u32; 10];
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "{path:?}: bad line {line:?}");
        if f[0] != cbs.to_string() {
            continue;
        }
        let lan: usize = f[2].parse().unwrap();
        for c in 0..3 {
            sum[lan - 1][c] += f[3 + c].parse::<f64>().unwrap() * PKT_BITS / MEASURED_S / 1e6;
        }
        n[lan - 1] += 1;
    }
    for (lan, k) in n.iter().enumerate() {
        assert!(*k > 0, "{path:?}: no CBS {cbs} row for LAN {}", lan + 1);
        for v in &mut sum[lan] {
            *v /= *k as f64;
        }
    }
    sum
}

/// Our delivered Mb/s per LAN and colour for one seed, no shaper anywhere, CBS `cbs` bytes
/// (PBS = 2 CBS).
fn ours(cbs: u64, seed: u64) -> [[f64; 3]; 10] {
    ours_with(cbs, seed, SackPipe::Rfc6675)
}

/// [`ours`] with every flow's SACK recovery set to `pipe`.
fn ours_with(cbs: u64, seed: u64, pipe: SackPipe) -> [[f64; 3]; 10] {
    let mut s =
        load(&manifest("../../scenarios/rfc2963/base.toml")).unwrap_or_else(|e| panic!("{e}"));
    let (mut shapers, mut meters) = (0, 0);
    for l in &mut s.links {
        if let Some(c) = &mut l.conditioner {
            if c.shaper.take().is_some() {
                c.kinds.retain(|k| k != "trras");
                shapers += 1;
            }
            for m in &mut c.meters {
                if let MeterSpec::TrTcm(p) = m {
                    *p = TrTcmParams::new(p.mode, p.cir, cbs, p.pir, 2 * cbs).unwrap();
                    meters += 1;
                }
            }
        }
    }
    assert_eq!(shapers, 5, "base.toml: a trRAS on C6..C10 expected");
    assert_eq!(
        meters, 10,
        "base.toml: a trTCM on every customer link expected"
    );
    for f in &mut s.flows {
        match &mut f.kind {
            FlowKind::Tcp(t) => t.sack_pipe = pipe,
            k => panic!("base.toml: TCP flows expected, {} is {k:?}", f.name),
        }
    }
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let mut out = [[0.0; 3]; 10];
    for f in &r.flows {
        let i: usize = f.name.trim_start_matches('w').parse().unwrap();
        let lan = (i - 1) / 10;
        for (o, &b) in out[lan].iter_mut().zip(&f.measured.delivered_by_color) {
            *o += b as f64 * 8.0 / MEASURED_S / 1e6;
        }
    }
    out
}

/// Per-colour bounds (green, yellow) and the total's, relative to ns-2.
fn check(cbs: u64, green: f64, yellow: f64, total: f64) {
    let ns2 = ns2_reference(cbs);
    let mut q = [[0.0; 3]; 10];
    for seed in 1..=SEEDS {
        let o = ours(cbs, seed);
        for lan in 0..10 {
            for c in 0..3 {
                q[lan][c] += o[lan][c] / SEEDS as f64;
            }
        }
    }
    let mut bad = Vec::new();
    for lan in 0..10 {
        for c in 0..3 {
            let (a, b) = (q[lan][c], ns2[lan][c]);
            eprintln!(
                "C{} {}: qoslab {a:.3} ns-2 {b:.3} Mb/s",
                lan + 1,
                COLOURS[c]
            );
            let ok = match c {
                0 => (a / b - 1.0).abs() <= green,
                1 => (a / b - 1.0).abs() <= yellow,
                _ => a < 0.05 && b < 0.05,
            };
            if !ok {
                bad.push(format!(
                    "C{} {}: qoslab {a:.3} vs ns-2.35 {b:.3} Mb/s",
                    lan + 1,
                    COLOURS[c]
                ));
            }
        }
        let (ta, tb) = (q[lan].iter().sum::<f64>(), ns2[lan].iter().sum::<f64>());
        if (ta / tb - 1.0).abs() > total {
            bad.push(format!(
                "C{} total: qoslab {ta:.3} vs ns-2.35 {tb:.3} Mb/s",
                lan + 1
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "CBS {cbs} B, outside the bounds against ns-2.35:\n{}",
        bad.join("\n")
    );
}

#[test]
fn rfc2963_no_shaper_colours_match_ns2_cbs_3kb() {
    check(3000, 0.06, 0.06, 0.06);
}

#[test]
fn rfc2963_no_shaper_colours_match_ns2_cbs_30kb() {
    check(30_000, 0.06, 0.12, 0.06);
}

/// Finding 41: ours over seeds 1..10 against ns-2's 40-seed mean, yellow Mb/s per LAN, at CBS
/// 30000 B. With ns-2's Sack1 recovery (`sack_pipe = "ns2-sack1"`) every LAN is within 4 %
/// (measured over 40 seeds: within 1.5 %; 10 seeds: within 2.0 %). In RFC mode (RFC 6675)
/// the CIR 2 Mb/s LANs (C1, C6) get more than ns-2 and the CIR 10 Mb/s LANs (C5, C10) less,
/// by more than 4 % each (40 seeds: +7.7 / +6.8 % and −6.8 / −7.4 %); this asserts that the
/// split is the recovery's and stays documented rather than silently closing.
#[test]
fn rfc2963_no_shaper_yellow_split_is_ns2_sack1_recovery() {
    const N: u64 = 10;
    let ns2 = ns2_reference_in("rfc2963_noshaper_cbs30000_40seeds.csv", 30_000);
    let mut rfc = [0.0; 10];
    let mut sack1 = [0.0; 10];
    for seed in 1..=N {
        let (a, b) = (
            ours_with(30_000, seed, SackPipe::Rfc6675),
            ours_with(30_000, seed, SackPipe::Ns2Sack1),
        );
        for lan in 0..10 {
            rfc[lan] += a[lan][1] / N as f64;
            sack1[lan] += b[lan][1] / N as f64;
        }
    }
    let rel = |q: f64, lan: usize| q / ns2[lan][1] - 1.0;
    let mut bad = Vec::new();
    for lan in 0..10 {
        eprintln!(
            "C{} yellow: ns-2 {:.3}, RFC 6675 {:.3} ({:+.1} %), ns2-sack1 {:.3} ({:+.1} %) Mb/s",
            lan + 1,
            ns2[lan][1],
            rfc[lan],
            100.0 * rel(rfc[lan], lan),
            sack1[lan],
            100.0 * rel(sack1[lan], lan)
        );
        if rel(sack1[lan], lan).abs() > 0.04 {
            bad.push(format!(
                "C{} with ns2-sack1: {:.3} vs ns-2.35 {:.3} Mb/s",
                lan + 1,
                sack1[lan],
                ns2[lan][1]
            ));
        }
    }
    for lan in [0, 5] {
        if rel(rfc[lan], lan) <= 0.04 {
            bad.push(format!(
                "C{} (CIR 2) in RFC mode not above ns-2 by > 4 %",
                lan + 1
            ));
        }
    }
    for lan in [4, 9] {
        if rel(rfc[lan], lan) >= -0.04 {
            bad.push(format!(
                "C{} (CIR 10) in RFC mode not below ns-2 by > 4 %",
                lan + 1
            ));
        }
    }
    assert!(bad.is_empty(), "finding 41:\n{}", bad.join("\n"));
}
