//! Kim et al. (2001) on shortened runs: the paper's conclusions where they hold in our
//! runs, and `qoslab reproduce gfr-kim2001` end to end. (Full-length runs: `qoslab
//! reproduce gfr-kim2001`.)
//!
//! Two conclusions do not hold under our defaults (Reno; `scenarios/gfr-kim2001/RESULTS.md`,
//! sensitivity (b)): DFBA fairer than Double-EPD (it holds without tagging), and the
//! proposed scheme with the highest total goodput (it holds with SACK). Each is written
//! below as the paper states it, `#[ignore]`d with the reason (`cargo test -p qoslab --test
//! reproduce_gfr -- --ignored` runs them and shows them fail), and what we observe instead
//! is asserted in the tests that run.

use qoslab::reproduce::gfr_kim2001::{self, scenario, Key, Pol, Uni};
use qoslab::reproduce::Options;
use qoslab_algo::Duration;
use qoslab_sim::atm::{AtmResult, AtmSim};

/// 8 s runs, goodput over [2 s, 8 s) (the `--quick` length).
fn run(k: Key, seed: u64) -> AtmResult {
    let mut sc = scenario(&k).unwrap();
    sc.duration = Duration::from_secs(8);
    sc.warmup = Duration::from_secs(2);
    AtmSim::new(sc, seed).unwrap().run().unwrap()
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// Table 1 / Fig. 2: the proposed scheme is the fairest and meets every VC's MCR;
/// Double-EPD and DFBA miss the MCR of the largest-MCR VC (VC6, 12 Mb/s).
#[test]
fn proposed_is_fairest_and_meets_every_mcr_while_the_others_miss_vc6() {
    let seeds = [1, 2];
    let runs: Vec<Vec<AtmResult>> = Pol::ALL
        .iter()
        .map(|&p| seeds.iter().map(|&s| run(Key::table1(p), s)).collect())
        .collect();
    let fair: Vec<f64> = runs
        .iter()
        .map(|rs| mean(rs.iter().map(|r| r.fairness_index)))
        .collect();
    let (depd, dfba, prop) = (fair[0], fair[1], fair[2]);
    assert!(prop > 0.99, "proposed fairness {prop}");
    assert!(prop > dfba + 0.02 && prop > depd + 0.02, "{fair:?}");
    for r in &runs[2] {
        assert!(
            r.all_mcr_met,
            "proposed, seed {}: {:?}",
            r.seed,
            r.vcs.iter().map(|v| v.goodput_mbps).collect::<Vec<_>>()
        );
    }
    for rs in &runs[..2] {
        for r in rs {
            let vc6 = &r.vcs[5];
            assert!(
                !vc6.mcr_met,
                "{} seed {}: VC6 {}",
                r.policy, r.seed, vc6.goodput_mbps
            );
        }
    }
    // Observed, not the paper's (0.832 vs 0.938): Double-EPD and DFBA are about equally
    // fair and both far fairer than the published Double-EPD. Under allocation A the queue
    // stays near LBO, so both schemes act almost only through F-GCRA's tags (RESULTS.md).
    assert!(depd > 0.9 && dfba > 0.9, "{fair:?}");
    assert!((depd - dfba).abs() < 0.03, "{fair:?}");
    // Every scheme keeps the link busy: total goodput within 3 % of the 46.95 Mb/s ceiling.
    for rs in &runs {
        for r in rs {
            assert!(
                r.total_goodput_mbps > 0.95 * 46.95,
                "{} {}",
                r.policy,
                r.total_goodput_mbps
            );
        }
    }
}

/// Table 1, as the paper states it: DFBA is fairer than Double-EPD (0.938 vs 0.832).
#[test]
#[ignore = "not resolved under our defaults (Reno, GFR.2 tagging at the UNI with MBS 200): full run of 2026-11-24 (5 x 30 s) DFBA 0.9440 +- 0.0085 vs Double-EPD 0.9426 +- 0.0055, a coin toss rather than the paper's 0.11 gap. Our DFBA is its authors' rule clause by clause (RESULTS.md session 7); the order holds without tagging (without_tagging_dfba_is_fairer_than_double_epd)"]
fn paper_dfba_is_fairer_than_double_epd() {
    let f = |p| {
        mean(
            [1, 2]
                .iter()
                .map(|&s| run(Key::table1(p), s).fairness_index),
        )
    };
    let (depd, dfba) = (f(Pol::DoubleEpd), f(Pol::Dfba));
    assert!(dfba > depd, "DFBA {dfba} vs Double-EPD {depd}");
}

/// Without F-GCRA tagging (every frame CLP = 0; the paper gives neither MBS nor tagging
/// point) the paper's order comes back: Double-EPD is then EPD at HBO and MCR-blind
/// (full length, 3 seeds: 0.81, published 0.832), while DFBA's weighted rule between L and
/// H keeps the shares near the MCRs (0.955, published 0.938).
#[test]
fn without_tagging_dfba_is_fairer_than_double_epd() {
    let f = |p| {
        mean([1, 2].iter().map(|&s| {
            run(
                Key {
                    uni: Uni::NoTagging,
                    ..Key::table1(p)
                },
                s,
            )
            .fairness_index
        }))
    };
    let (depd, dfba) = (f(Pol::DoubleEpd), f(Pol::Dfba));
    assert!(dfba > depd + 0.08, "DFBA {dfba} vs Double-EPD {depd}");
    assert!(
        depd < 0.88 && dfba > 0.92,
        "DFBA {dfba} vs Double-EPD {depd}"
    );
}

/// Table 1, as the paper states it: the proposed scheme has the highest total goodput.
#[test]
#[ignore = "does not hold under our defaults (Reno): the proposed scheme's total is the lowest (full run of 2026-11-24: 46.18 vs 46.31-46.32 Mb/s). Its bottleneck idles less than the others'; it loses ~0.8 Mb/s to segments delivered twice (Reno's go-back-N after its more frequent timeouts), see goodput_gap_is_duplicate_segments_not_idle_link and RESULTS.md session 7"]
fn paper_proposed_has_the_highest_goodput() {
    let g = |p| {
        mean(
            [1, 2]
                .iter()
                .map(|&s| run(Key::table1(p), s).total_goodput_mbps),
        )
    };
    let (depd, dfba, prop) = (g(Pol::DoubleEpd), g(Pol::Dfba), g(Pol::Proposed));
    assert!(prop > depd && prop > dfba, "{depd} {dfba} {prop}");
}

/// Where the proposed scheme's goodput goes (`--table g`): its bottleneck is busier than
/// Double-EPD's (it never idles), and what it loses is segments delivered twice: Reno
/// resends, after each retransmission timeout, segments the receiver already holds
/// (go-back-N), and the proposed scheme's per-VC refusals cause more timeouts. With SACK
/// those duplicates vanish. The budget closes: line rate in payload = idle + duplicates
/// + goodput, up to the segments on the wire at the window's edges.
#[test]
fn goodput_gap_is_duplicate_segments_not_idle_link() {
    use qoslab_sim::scenario::spec::TcpVariant;
    let budget = |r: &AtmResult| {
        let b = gfr_kim2001::RunBudget::of(r);
        let rest = b.ceiling - b.idle - b.duplicates - r.total_goodput_mbps;
        assert!(rest.abs() < 0.2, "{} budget: rest {rest}", r.policy);
        (b.utilization, b.duplicates)
    };
    let (u_depd, d_depd) = budget(&run(Key::table1(Pol::DoubleEpd), 1));
    let (u_prop, d_prop) = budget(&run(Key::table1(Pol::Proposed), 1));
    assert!(u_prop > 0.999 && u_prop >= u_depd, "{u_prop} vs {u_depd}");
    assert!(
        d_prop > d_depd + 0.15,
        "duplicates {d_prop} vs {d_depd} Mb/s"
    );
    let sack = run(
        Key {
            tcp: TcpVariant::Sack,
            ..Key::table1(Pol::Proposed)
        },
        1,
    );
    let (u_sack, d_sack) = budget(&sack);
    assert!(u_sack > 0.999 && d_sack < 0.05, "SACK: {u_sack} {d_sack}");
}

/// Figs. 3–6: the proposed scheme's fairness changes little with LBO (1K to 3K cells).
#[test]
fn proposed_fairness_changes_little_with_lbo() {
    let f: Vec<f64> = [1000, 3000]
        .iter()
        .map(|&lbo| {
            run(
                Key {
                    lbo,
                    ..Key::table1(Pol::Proposed)
                },
                1,
            )
            .fairness_index
        })
        .collect();
    assert!(f.iter().all(|&x| x > 0.98), "{f:?}");
    assert!((f[0] - f[1]).abs() < 0.02, "{f:?}");
}

/// The F-GCRA's burst tolerance (MBS, not stated in the paper) decides how fair
/// Double-EPD is: with MBS = MFS a TCP burst above MCR gets its frames tagged and dropped
/// above LBO whatever the VC's long-term rate, so Double-EPD turns MCR-blind (full run:
/// 0.836 against 0.943 at MBS 200 and 0.992 at MBS 1000). The proposed scheme decides on
/// Th_i and r_i alike for both CLPs while the buffer stays below LBO, as it does here, so
/// its result does not depend on tagging at all.
#[test]
fn tagging_burst_tolerance_moves_double_epd_but_not_the_proposed_scheme() {
    let key = |pol, uni| Key {
        uni,
        ..Key::table1(pol)
    };
    let tight = run(key(Pol::DoubleEpd, Uni::MbsMfs), 1).fairness_index;
    let loose = run(key(Pol::DoubleEpd, Uni::Mbs1000), 1).fairness_index;
    assert!(
        tight + 0.08 < loose,
        "Double-EPD: MBS=MFS {tight}, MBS 1000 {loose}"
    );
    let p_file = run(Key::table1(Pol::Proposed), 1);
    let p_untagged = run(key(Pol::Proposed, Uni::NoTagging), 1);
    assert_eq!(p_file.fairness_index, p_untagged.fairness_index);
    assert_eq!(p_file.total_goodput_mbps, p_untagged.total_goodput_mbps);
}

/// Fig. 7: with VC1–3 at 6 ms and VC4–6 at 11 ms, Double-EPD and DFBA favour the
/// short-delay VCs (above their ideal goodput, the long-delay ones below); the proposed
/// scheme stays close to the ideal for both groups.
#[test]
fn heterogeneous_delays_others_favour_short_delay_vcs() {
    let ratio = |r: &AtmResult, lo: usize, hi: usize| {
        let x: f64 = r.vcs[lo..hi].iter().map(|v| v.goodput_mbps).sum();
        let f: f64 = r.vcs[lo..hi].iter().map(|v| v.ideal_goodput_mbps).sum();
        x / f
    };
    for p in Pol::ALL {
        let r = run(
            Key {
                hetero: true,
                ..Key::table1(p)
            },
            1,
        );
        let (short, long) = (ratio(&r, 0, 3), ratio(&r, 3, 6));
        if p == Pol::Proposed {
            assert!(
                (short - 1.0).abs() < 0.08 && (long - 1.0).abs() < 0.08,
                "{short} {long}"
            );
        } else {
            assert!(short > 1.1 && long < 0.9, "{p:?}: {short} {long}");
        }
    }
}

/// The command's path: Table 1 beside the published values, files written in memory.
#[test]
fn reproduce_table1_prints_ours_beside_the_published_values() {
    let out = gfr_kim2001::reproduce(&Options {
        table: Some("1".into()),
        seeds: Some(1),
        quick: true,
        threads: 2,
        progress: false,
    })
    .unwrap();
    assert_eq!(out.runs, 3);
    for s in [
        "0.831762",
        "0.937876",
        "0.997271",
        "46.62",
        "46.59",
        "46.74",
        "Double-EPD",
        "Proposed",
    ] {
        assert!(out.text.contains(s), "{s}\n{}", out.text);
    }
    let names: Vec<&str> = out.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["report.txt", "table_1.csv", "runs.csv"]);
    let e = gfr_kim2001::reproduce(&Options {
        table: Some("9".into()),
        ..Options::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("fig7"), "{e}");
}

/// `qoslab validate` / `qoslab run` accept an ATM scenario file (`atm = true`).
#[test]
fn cli_validates_and_runs_atm_scenario_files() {
    let bin = env!("CARGO_BIN_EXE_qoslab");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let file = format!("{root}/scenarios/gfr-kim2001/table1.toml");
    let out = std::process::Command::new(bin)
        .args(["validate", &file])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("ATM scenario"));
    let dir = std::env::temp_dir().join(format!("qoslab-atm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("duration = \"30s\"", "duration = \"2s\"")
        .replace("warmup = \"5s\"", "warmup = \"1s\"");
    let short = dir.join("short.toml");
    std::fs::write(&short, &text).unwrap();
    let out = std::process::Command::new(bin)
        .args([
            "run",
            short.to_str().unwrap(),
            "--out",
            dir.join("o").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(dir.join("o/summary.json")).unwrap();
    assert!(json.contains("\"fairness_index\""));
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, text.replace("hbo = 6144", "hbo = 1000")).unwrap();
    let out = std::process::Command::new(bin)
        .args(["validate", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:") && err.contains("buffer.lbo") && err.contains("LBO <= HBO"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
