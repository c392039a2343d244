//! Differential check against ns-2.35 (issue 14): RFC 4828 App. B.1, the TFRC columns of
//! Tables 7, 8 and 9 (configured packet drop rate).
//!
//! ns-2.35 ran the same flows (`bench/ns2/seeds/rfc4828_b1_tfrc.tcl`: Agent/TFRC fed by CBR,
//! `voip_ 1` + `ShortIntervals_ 1` for TFRC-SP, an ErrorModel on the link); its per-seed
//! send rates are checked in under `tests/data/ns2/` (seeds 1..10 at every rate since session
//! 12), so ns-2 is not needed here. Our side is `scenarios/rfc4828/b1-packet-drop.toml` with
//! `@loss` = p, keeping only the groups checked (the path is uncongested and every flow
//! draws from its own named stream, so removing the other flows changes nothing for these),
//! over the same seeds 1..10.
//!
//! What agrees (session 12, seeds 1..10 of both; `bench/ns2/seeds/README.md` findings 37
//! and 38):
//! * p = 0.01 and 0.05 (bound 6 %): standard TFRC with `ns2_compat` against ns-2's TFRC:
//!   1460 B +0.0 / −1.2 %, 200 B −1.8 / −0.9 %, 14 B −0.9 % (0.05); our RFC 4828 TFRC-SP
//!   (default mode) against ns-2's `voip_` TFRC-SP: 200 B −1.8 / −1.6 %, 14 B −1.2 / −3.7 %.
//! * standard TFRC `ns2_compat` at high loss (`Ns2Compat::ns2()`, options 1–14): p = 0.1
//!   1460 B +0.9 %, 200 B +2.5 %, 14 B −2.0 % (bound 6 %); p = 0.2 1460 B −0.0 %, 200 B
//!   +3.7 %, 14 B +1.1 %; p = 0.3 1460 B +5.9 %, 200 B −2.8 %, 14 B +5.0 %; p = 0.4 1460 B
//!   +5.1 %, 200 B +5.6 %; p = 0.5 1460 B +7.9 %, 200 B +5.6 % (bound 10 %).
//! * TFRC-SP `ns2_compat` with the application's send buffer (`app_backlog`, as ns-2's
//!   CBR-fed agent, finding 37) against ns-2's `voip_` TFRC-SP: 200 B −2.6 / −2.3 / −5.3 /
//!   −3.5 / −1.2 % at p = 0.1 .. 0.5, 14 B +0.0 / +0.1 % at p = 0.1 / 0.2 (bound 6 % to
//!   p = 0.2, 10 % above). Without the send buffer 14 B at p = 0.2 is −14.2 % (checked).
//! * Session 13 (options 15–19, finding 38; the header allowance H = 32 B of option 19 is
//!   what moves these): TFRC-SP 200 B −0.8 / −1.0 / −2.9 / −0.3 / +1.0 % at p = 0.1 .. 0.5,
//!   14 B +0.0 / −0.2 % at 0.1 / 0.2 and now also checked at 0.3 / 0.4 / 0.5: −1.9 / −6.2 /
//!   −5.2 % (bound 10 %; were −12.6 / −11.9 / −7.6 % with H = 40); without the send buffer
//!   14 B at p = 0.2 is −9.5 % (checked at 5 %). Standard TFRC: within 0.4 % of the above.
//!
//! Not checked: our RFC 5348 standard TFRC (7–30 % below ns-2 for p ≥ 0.005, 54–91 % at
//! p ≥ 0.2: ns-2's TFRC is not RFC 5348, `Ns2Compat`), our RFC 4828 TFRC-SP at p ≥ 0.1,
//! and standard TFRC `ns2_compat` at 14 B, p = 0.4 / 0.5 (+10.3 / +10.7 %, a few hundred b/s).

use crate::ns2_rfc4828::Suite;
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
fn b1_std_tfrc_ns2_compat_matches_ns2_at_high_loss() {
    B1.check(
        "0.1",
        &[
            ("std1460ns2_", "std1460", BOUND),
            ("std200ns2_", "std200", BOUND),
            ("std14ns2_", "std14", BOUND),
        ],
    );
    for p in ["0.2", "0.3"] {
        B1.check(
            p,
            &[
                ("std1460ns2_", "std1460", HIGH_LOSS_BOUND),
                ("std200ns2_", "std200", HIGH_LOSS_BOUND),
                ("std14ns2_", "std14", HIGH_LOSS_BOUND),
            ],
        );
    }
    for p in ["0.4", "0.5"] {
        B1.check(
            p,
            &[
                ("std1460ns2_", "std1460", HIGH_LOSS_BOUND),
                ("std200ns2_", "std200", HIGH_LOSS_BOUND),
            ],
        );
    }
}

/// Bound at p >= 0.3 for TFRC-SP and p >= 0.2 for standard TFRC (ns-2's own 10-seed means
/// move by up to ±5 % between seed sets there).
const HIGH_LOSS_BOUND: f64 = 0.10;

/// Findings 37 and 38: TFRC-SP `ns2_compat` with the application's send buffer. Since
/// session 13 (option 19, ns-2's 32-byte header allowance) also 14 B at p = 0.3–0.5: 8.98 /
/// 4.10 / 2.37 against ns-2.35's 9.15 / 4.37 / 2.50 Kb/s (−1.9 / −6.2 / −5.2 %; with H = 40
/// they were −11.9 / −11.7 / −7.4 %; single flows over [50 s, 1000 s): +2.5 / +1.9 / +5.8 %).
#[test]
fn b1_tfrc_sp_ns2_compat_with_app_backlog_matches_ns2_at_high_loss() {
    for p in ["0.1", "0.2"] {
        B1.check_with_app_backlog(
            p,
            &[("sp200ns2_", "sp200", BOUND), ("sp14ns2_", "sp14", BOUND)],
        );
    }
    for p in ["0.3", "0.4", "0.5"] {
        B1.check_with_app_backlog(
            p,
            &[
                ("sp200ns2_", "sp200", HIGH_LOSS_BOUND),
                ("sp14ns2_", "sp14", HIGH_LOSS_BOUND),
            ],
        );
    }
}

/// Finding 37: without the send buffer our 14-B TFRC-SP flows stay below ns-2's at p = 0.2
/// (−9.5 %; −14.2 % before session 13's option 19, ns-2's 32-byte header allowance, which
/// raises the allowed packet rate by 54/46): ns-2's agent makes up later for what its rate
/// held back, ours (by default, an application that produces its data at send time) does
/// not. With the buffer: +0.0 % (`b1_tfrc_sp_ns2_compat_with_app_backlog_matches_ns2_at_high_loss`).
#[test]
#[should_panic(expected = "sp14ns2_: qoslab")]
fn b1_tfrc_sp14_without_app_backlog_stays_below_ns2_at_20_percent() {
    B1.check("0.2", &[("sp14ns2_", "sp14", 0.05)]);
}
