//! Golden results: our own recorded behaviour, so that a change in what the engine does
//! fails a test even where the published or peer reference is too noisy to notice it
//! (issue 17: a 30 % regression passed the wide reference bands).
//!
//! Each case runs a scenario of the repository, shortened, with a fixed seed, and compares
//! its whole `summary.json` (every flow's and queue's counters, goodputs, drop rates, queue
//! statistics, conditioner counters) with the file recorded in `tests/golden/`. A run is a
//! pure function of (scenario, seed) and byte-identical on any machine, so the comparison
//! is exact: any change of behaviour — a congestion-avoidance increase of 0.9 MSS per RTT
//! instead of 1, a RED probability off by a count, a meter's token rounding — changes
//! these files.
//!
//! A deliberate change of behaviour is recorded by regenerating the files:
//!
//! ```sh
//! QOSLAB_BLESS=1 cargo test -p qoslab-sim --test golden
//! ```
//!
//! and the diff of `tests/golden/` is reviewed and committed with the change that caused it.

use std::path::PathBuf;

use qoslab_algo::Duration;
use qoslab_sim::scenario::load;
use qoslab_sim::Simulator;

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// Runs `scenario` for `secs` simulated seconds (warm-up at most half of it) with `seed` and
/// compares its summary with `tests/golden/<name>.json`.
fn golden(name: &str, scenario: &str, secs: u64, seed: u64) {
    let mut s = load(&repo(scenario)).unwrap_or_else(|e| panic!("{e}"));
    s.duration = Duration::from_secs(secs);
    s.warmup = s.warmup.min(Duration::from_millis(secs * 500));
    let r = Simulator::new(s, seed).unwrap().run().unwrap();
    let got = serde_json::to_string_pretty(&r).unwrap() + "\n";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/golden/{name}.json"));
    if std::env::var_os("QOSLAB_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; record it with `QOSLAB_BLESS=1 cargo test -p qoslab-sim --test golden`",
            path.display()
        )
    });
    if got != want {
        let (line, (g, w)) = got
            .lines()
            .zip(want.lines())
            .enumerate()
            .find(|(_, (g, w))| g != w)
            .unwrap_or((
                got.lines().count().min(want.lines().count()),
                ("<end>", "<end>"),
            ));
        panic!(
            "{name}: behaviour changed from the recorded {} at line {}:\n  recorded: {}\n  now:      {}\n\
             If the change is deliberate, regenerate with `QOSLAB_BLESS=1 cargo test -p qoslab-sim --test golden` \
             and commit the reviewed diff.",
            path.display(),
            line + 1,
            w.trim(),
            g.trim()
        );
    }
}

/// 20 NewReno flows over RED (the RIO seed's dumbbell).
#[test]
fn dumbbell_red_newreno() {
    golden("dumbbell-red", "scenarios/dumbbell.toml", 4, 1);
}

/// The bench dumbbell with drop-tail (NewReno, ns-3's workload).
#[test]
fn dumbbell_droptail() {
    golden(
        "dumbbell-droptail",
        "scenarios/bench/dumbbell-droptail.toml",
        4,
        2,
    );
}

/// TSW taggers and RIO (Hori, Ikenaga & Oie 2001).
#[test]
fn rio_tsw() {
    golden("rio-hori2001", "scenarios/rio-hori2001/base.toml", 4, 3);
}

/// trTCM markers and trRAS shapers at ten customer routers, three-colour RIO (RFC 2963).
#[test]
fn rfc2963_trras_trtcm() {
    golden("rfc2963", "scenarios/rfc2963/base.toml", 5, 4);
}

/// TFRC, TFRC-SP and TCP under configured packet drops (RFC 4828 App. B.1).
#[test]
fn rfc4828_tfrc_configured_loss() {
    golden("rfc4828-b1", "scenarios/rfc4828/b1-packet-drop.toml", 8, 5);
}

/// Web traffic over drop-tail with TFRC-SP (RFC 4828 App. B.3).
#[test]
fn rfc4828_web_droptail() {
    golden("rfc4828-b3", "scenarios/rfc4828/b3-droptail.toml", 8, 6);
}

/// Open-loop UDP sources.
#[test]
fn dumbbell_udp() {
    golden("dumbbell-udp", "scenarios/dumbbell-udp.toml", 4, 7);
}
