//! Differential check against ns-2.35 (issue 14): RFC 4828 §4.5.1 / App. B.2, configured
//! *byte* drop rates (Tables 5, 6, 10).
//!
//! ns-2.35 ran the same flows (`bench/ns2/seeds/rfc4828_b2.tcl`: an ErrorModel in byte units,
//! which drops a packet of N wire bytes with probability 1 − (1 − b)^N, as our `loss = { byte
//! = b }`; SACK TCP per segment size, `voip_` TFRC-SP and standard TFRC with 14 B packets);
//! its per-seed send rates are checked in under `tests/data/ns2/rfc4828_b2.csv`, so ns-2 is
//! not needed here. Our side is `scenarios/rfc4828/b2-byte-drop.toml` with `@loss` = b,
//! keeping only the groups checked (uncongested path, a random stream per flow: removing the
//! other flows changes nothing for these).
//!
//! What agrees (`bench/ns2/seeds/README.md` section 7, 3 seeds each) and the bounds kept:
//! * b = 0.0001 (Table 5's rate), SACK TCP send rate (payload incl. retransmissions) with
//!   128, 256, 512 and 1460 B segments: −2.0, −2.0, −0.4, +4.0 % (ns-2's seed range up to
//!   ±6 %); bound 8 %;
//! * TFRC-SP (RFC 4828, our default) against ns-2's `voip_` TFRC-SP, and standard TFRC with
//!   `ns2_compat` against ns-2's TFRC, 14 B: b = 0.0001 −0.6 / −2.3 %, b = 0.001 −3.5 /
//!   −1.9 %; bound 6 %.
//!
//! Table 10's ECN TCP groups (`b2_ecn_*`, README section 10.2): RFC 3168 ECN TCP with
//! 128-512 B at b = 0.0001 (8 %), ns-2's ECN response (`ns2_compat`, with ns-2's timestamp
//! bytes) at b = 0.001 and 0.005 over 40 seeds (5 % or the 95 % intervals overlapping) and
//! at its one-segment-per-backed-off-timer floor at b = 0.01 (5 %).
//!
//! Not checked (README): TCP with 4000/8000 B segments at b = 0.0001 (drop rates 0.33/0.55:
//! timeout-dominated, ±40 % seed spread in both simulators), TCP at b ≥ 0.001 (a few Kb/s
//! or the one-packet-per-backed-off-RTO floor, equal in both), TFRC at b ≥ 0.005 (packet
//! drop rates ≥ 0.2, where B.1 already differs), our RFC 5348 standard TFRC (B.1's finding).

use crate::ns2_rfc4828::Suite;
use qoslab_sim::scenario::spec::LossSpec;

const B2: Suite = Suite {
    reference: "tests/data/ns2/rfc4828_b2.csv",
    fields: 5,
    scenario: "../../scenarios/rfc4828/b2-byte-drop.toml",
    loss: |b| LossSpec::Byte { b },
    what: "byte drop rate",
};

#[test]
fn b2_tcp_and_tfrc_match_ns2_at_byte_rate_1e_4() {
    B2.check(
        "0.0001",
        &[
            ("tcp128_", "tcp128", 0.08),
            ("tcp256_", "tcp256", 0.08),
            ("tcp512_", "tcp512", 0.08),
            ("tcp1460_", "tcp1460", 0.08),
            ("sp14_", "sp14", 0.06),
            ("std14ns2_", "std14", 0.06),
        ],
    );
}

#[test]
fn b2_tfrc_matches_ns2_at_byte_rate_1e_3() {
    B2.check(
        "0.001",
        &[("sp14_", "sp14", 0.06), ("std14ns2_", "std14", 0.06)],
    );
}

/// Table 10's ECN TCP groups against ns-2.35 with ECN TCP (`ecn_ 1`, `timestamps_ true`) and
/// the ErrorModel marking instead of dropping (`markecn_ true`; `tests/data/ns2/rfc4828_b2_ecn.csv`,
/// `bench/ns2/seeds/README.md` section 10).
const B2_ECN: Suite = Suite {
    reference: "tests/data/ns2/rfc4828_b2_ecn.csv",
    fields: 4,
    scenario: "../../scenarios/rfc4828/b2-byte-drop.toml",
    loss: |b| LossSpec::Byte { b },
    what: "byte mark rate",
};

/// b = 0.0001: our RFC 3168 ECN TCP with 128, 256, 512 B segments (measured +1.8, −3.6,
/// +1.9 %) and ns-2's ECN response (`ns2_compat`) with 128 B (+1.4 %); bound 8 %. Not
/// checked: 14 B (+9.9 %) and 1460 B (+11.1 %; `ns2_compat` −6.4 %).
#[test]
fn b2_ecn_tcp_matches_ns2_at_byte_rate_1e_4() {
    B2_ECN.check(
        "0.0001",
        &[
            ("ecntcp128_", "ecntcp128", 0.08),
            ("ecntcp256_", "ecntcp256", 0.08),
            ("ecntcp512_", "ecntcp512", 0.08),
            ("ecnns2tcp128_", "ecntcp128", 0.08),
        ],
    );
}

/// b = 0.001 and 0.005, where a third to all of the packets are marked: ns-2's ECN response
/// (`ns2_compat`: halving to a fraction of a packet, then one packet per backed-off
/// retransmission timer) against ns-2, seeds 1..40 of both, with ns-2's 10 timestamp bytes on
/// our ECN flows (finding 40; session 13, findings 20 / 40 of `bench/ns2/seeds/README.md`).
/// Within 5 %: at 0.001 14, 128, 256, 512 B −1.1, +0.1, +0.6, +3.2 %; at 0.005 14, 256 B
/// +1.4, +0.3 %. Within the 95 % intervals only (issue 14's rule for noisy cells; ns-2's
/// seeds span ×2..×10): 1460 B at 0.001 1.55 ± 0.24 against 1.96 ± 0.31 Kb/s (−20.7 %), 128
/// and 512 B at 0.005 −5.0 % and +17.2 % (0.13–1.2 Kb/s, a few to a few dozen packets per
/// 50 s). (Before session 13, 10 seeds and 40 B headers: 14 B +9.1 %, 512 B +9.7 % at 0.001.)
/// At 0.01 with 1460 B both sit at one segment per 50 s (0.23 Kb/s: the timer backed off to
/// the 60 s maximum; 3 seeds, bound 5 %). Our RFC 3168 response is not compared at these
/// rates: it sends one segment per retransmission timer, which RFC 3168 resets but does not
/// back off (about 24 Kb/s at 1460 B; before finding 19's fix, two segments per round trip,
/// 97.3 Kb/s).
#[test]
fn b2_ecn_tcp_ns2_compat_matches_ns2_at_high_mark_rates() {
    B2_ECN.check_ci_with_ns2_timestamp_bytes(
        "0.001",
        &[
            ("ecnns2tcp14_", "ecntcp14", 0.05),
            ("ecnns2tcp128_", "ecntcp128", 0.05),
            ("ecnns2tcp256_", "ecntcp256", 0.05),
            ("ecnns2tcp512_", "ecntcp512", 0.05),
            ("ecnns2tcp1460_", "ecntcp1460", 0.05),
        ],
    );
    B2_ECN.check_ci_with_ns2_timestamp_bytes(
        "0.005",
        &[
            ("ecnns2tcp14_", "ecntcp14", 0.05),
            ("ecnns2tcp128_", "ecntcp128", 0.05),
            ("ecnns2tcp256_", "ecntcp256", 0.05),
            ("ecnns2tcp512_", "ecntcp512", 0.05),
            ("ecnns2tcp1460_", "ecntcp1460", 0.05),
        ],
    );
    B2_ECN.check("0.01", &[("ecnns2tcp1460_", "ecntcp1460", 0.05)]);
}

/// Finding 40 (session 12): ns-2.35's TCP with `timestamps_ true` adds `ts_option_size_` =
/// 10 B to every packet (`TcpAgent::headersize()`; 64 B on the wire for a 14-B segment, 54 B
/// without), and the byte-mode ErrorModel marks a packet with a probability that grows with
/// its wire size; ours adds no timestamp bytes. With the 10 B added to our ECN flows' header,
/// ns-2's ECN response (`ns2_compat`) at b = 0.001, 40 seeds (session 13): 14 B −1.1 %, 128 B
/// +0.1 %, without the 95 % intervals (10 seeds, session 12: −1.5 / +0.0 %; without the
/// bytes +9.7 / +3.5 %, the "14 B +8–12 %" of DONE_WHEN §5 item 6); bound 5 %.
#[test]
fn b2_ecn_tcp_ns2_compat_with_ns2_timestamp_bytes_matches_ns2() {
    B2_ECN.check_with_ns2_timestamp_bytes(
        "0.001",
        &[
            ("ecnns2tcp14_", "ecntcp14", 0.05),
            ("ecnns2tcp128_", "ecntcp128", 0.05),
        ],
    );
}

/// Finding 40: without ns-2's 10 timestamp bytes our 14-B ECN TCP (`ns2_compat`) sends more
/// than ns-2's at b = 0.001 (+9.7 % over 40 seeds, +9.1 % over 10): fewer wire bytes, fewer
/// marks.
#[test]
#[should_panic(expected = "ecnns2tcp14_: qoslab")]
fn b2_ecn_tcp14_without_timestamp_bytes_sends_more_than_ns2() {
    B2_ECN.check("0.001", &[("ecnns2tcp14_", "ecntcp14", 0.05)]);
}
