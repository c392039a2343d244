//! The ns-2.35 differential suites (issue 14), one test binary: each module compares one
//! ported case or seed experiment with ns-2.35's output, checked in under `tests/data/ns2/`
//! with its source (`bench/ns2/seeds/README.md`). One binary instead of thirteen saves
//! their link steps in `.ci/run`; `cargo test -p qoslab-sim --test ns2_suite <module>::`
//! runs one of them.

#[path = "../ns2_rfc4828/mod.rs"]
mod ns2_rfc4828;

mod ared;
mod b1;
mod b1_tfrc;
mod b2;
mod b4;
mod friendly;
mod newreno;
mod red;
mod rfc2963;
mod rio;
mod rio_riototal;
mod rio_tables;
mod riocase;
mod tcp;

/// A path below this crate's directory: the checked-in ns-2 data (`tests/data/ns2/`) and the
/// suite scenarios (`../../bench/ns2/seeds/suite/`). One copy for every module.
pub(crate) fn manifest(rel: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Asserts that `ours` is within the relative `bound` of ns-2.35's `ns2` (|ours/ns2 − 1| ≤
/// bound), naming the quantity, both values and the difference when it is not.
pub(crate) fn within(what: &str, ours: f64, ns2: f64, bound: f64) {
    let rel = ours / ns2 - 1.0;
    assert!(
        rel.abs() <= bound,
        "{what}: qoslab {ours:.3} vs ns-2.35 {ns2:.3} ({:+.1} %, bound {:.0} %)",
        100.0 * rel,
        100.0 * bound
    );
}
