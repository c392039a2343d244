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

mod ns2_rfc4828;

use ns2_rfc4828::Suite;
use qoslab_sim::scenario::spec::LossSpec;

const BOUND: f64 = 0.06;

const B1: Suite = Suite {
    reference: "tests/data/ns2/rfc4828_b1_tfrc.csv",
    fields: 4,
    scenario: "../../scenarios/rfc4828/b1-packet-drop.toml",
    loss: |p| LossSpec::Packet { p },
    what: "drop rate",
};

#[test]
fn b1_tfrc_matches_ns2_at_1_percent() {
    B1.check(
        "0.01",
        &[
            ("std1460ns2_", "std1460", BOUND),
            ("std200ns2_", "std200", BOUND),
            ("sp200_", "sp200", BOUND),
            ("sp14_", "sp14", BOUND),
        ],
    );
}

#[test]
fn b1_tfrc_matches_ns2_at_5_percent() {
    B1.check(
        "0.05",
        &[
            ("std1460ns2_", "std1460", BOUND),
            ("std200ns2_", "std200", BOUND),
            ("std14ns2_", "std14", BOUND),
            ("sp200_", "sp200", BOUND),
            ("sp14_", "sp14", BOUND),
        ],
    );
}

#[test]
fn b1_std14_tfrc_ns2_compat_matches_ns2_at_10_percent() {
    // (200 B at p = 0.1 is +5.0 %: too close to the bound to be kept as a check.)
    B1.check("0.1", &[("std14ns2_", "std14", BOUND)]);
}
