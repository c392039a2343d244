//! Replays every fuzz corpus input and every input that ever crashed a target
//! (`fuzz/corpus/<target>/`, `fuzz/regressions/<target>/`) through the same entry points the
//! fuzz targets use (`qoslab::fuzzing`), on stable: a regression of a fixed crash fails CI
//! without nightly or cargo-fuzz (issue 12). How to fuzz: `fuzz/README.md`.

use std::path::PathBuf;

fn replay(target: &str, f: fn(&[u8])) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let d = root.join(dir).join(target);
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            let r = std::panic::catch_unwind(|| f(&data));
            assert!(r.is_ok(), "{target}: {} panicked", p.display());
            n += 1;
        }
    }
    assert!(n > 0, "{target}: no corpus found under {}", root.display());
}

#[test]
fn scenario_text_corpus() {
    replay("scenario_text", qoslab::fuzzing::scenario_text);
}

#[test]
fn chain_text_corpus() {
    replay("chain_text", qoslab::fuzzing::chain_text);
}

#[test]
fn csv_trace_corpus() {
    replay("csv_trace", qoslab::fuzzing::csv_trace);
}

#[test]
fn pcap_trace_corpus() {
    replay("pcap_trace", qoslab::fuzzing::pcap_trace);
}

#[test]
fn pcapng_trace_corpus() {
    replay("pcapng_trace", qoslab::fuzzing::pcapng_trace);
}

#[test]
fn generated_scenario_corpus() {
    replay("generated_scenario", qoslab::fuzzing::generated_scenario);
}

/// The generator itself: a spread of inputs, each a valid scenario that runs, conserves
/// and repeats exactly (the structure-aware target's property, on stable).
#[test]
fn generated_scenarios_validate_run_and_repeat() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..40 {
        let bytes: Vec<u8> = (0..128)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        qoslab::fuzzing::generated_scenario(&bytes);
    }
}

#[test]
fn pcn_scenario_text_corpus() {
    replay("pcn_scenario_text", qoslab::fuzzing::pcn_scenario_text);
}

#[test]
fn atm_scenario_text_corpus() {
    replay("atm_scenario_text", qoslab::fuzzing::atm_scenario_text);
}
