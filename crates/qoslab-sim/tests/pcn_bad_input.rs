//! Bad PCN scenario files (issue: robust input; found by fuzzing `pcn_scenario_text` and by
//! reading the parameter relations of `scenarios/pcn-stm/*.toml`): each is refused with an
//! error naming the file, line and key and the rule broken, never a panic, and a file that
//! is accepted is accepted by the engine too.

use qoslab_sim::pcn::parse_str;
use qoslab_sim::scenario::ErrorKind;

mod common;
use common::refusal::{self, Case};

/// A small valid termination run (single link, 9 → 40 CBR flows).
const TERM: &str = r#"[pcn]
kind = "termination"
duration = "2s"
link_rate = "3.2Mbps"
[pcn.traffic]
model = "cbr"
[pcn.topology]
kind = "single"
[pcn.population]
base_flows = 9
final_flows = 40
extra_at = "100ms"
[pcn.measure]
ot_from = "1s"
ot_to = "2s"
"#;

fn cases() -> Vec<Case> {
    let with = |from: &str, to: &str| {
        assert!(TERM.contains(from), "{from}");
        TERM.replacen(from, to, 1)
    };
    vec![
        (
            // Panicked ("non-default" expect): final_flows left at its default 0.
            "final_flows missing below base_flows",
            with("final_flows = 40\n", ""),
            ErrorKind::Relation,
            10,
            "pcn.population.base_flows",
            "final_flows (0) must be ≥ base_flows (9)",
        ),
        (
            "final_flows below base_flows",
            with("final_flows = 40", "final_flows = 4"),
            ErrorKind::Relation,
            11,
            "pcn.population.final_flows",
            "must be ≥ base_flows",
        ),
        (
            // Named l_marks although m_unmarked was the zero.
            "m_unmarked = 0 beside a valid l_marks",
            with(
                "[pcn.measure]",
                "[pcn.edge]\nl_marks = 5\nm_unmarked = 0\n[pcn.measure]",
            ),
            ErrorKind::BadValue,
            15,
            "pcn.edge.m_unmarked",
            "≥ 1",
        ),
        (
            // Was silently read as N = 1.
            "fractional n = 0",
            with("[pcn.measure]", "[pcn.fractional]\nn = 0\n[pcn.measure]"),
            ErrorKind::BadValue,
            14,
            "pcn.fractional.n",
            "≥ 1",
        ),
        (
            // Accepted, then refused by the engine ("admissible_rate 0 bit/s").
            "AR a fraction that rounds to 0 bit/s",
            with(
                "link_rate = \"3.2Mbps\"",
                "link_rate = \"3.2Mbps\"\nadmissible = 1e-9",
            ),
            ErrorKind::BadValue,
            5,
            "pcn.admissible",
            "must be > 0 bit/s",
        ),
        (
            "AR = 0 bit/s",
            with(
                "link_rate = \"3.2Mbps\"",
                "link_rate = \"3.2Mbps\"\nadmissible = \"0bps\"",
            ),
            ErrorKind::BadValue,
            5,
            "pcn.admissible",
            "must be > 0 bit/s",
        ),
        (
            "SR above the link rate",
            with(
                "link_rate = \"3.2Mbps\"",
                "link_rate = \"3.2Mbps\"\nsupportable = \"4Mbps\"",
            ),
            ErrorKind::Relation,
            5,
            "pcn.supportable",
            "must not exceed link_rate",
        ),
        (
            // Accepted, then refused by the engine: 1 ns at AR = 640 kb/s is 0 bits.
            "SwTB of 0 bits at AR",
            with(
                "[pcn.measure]",
                "[pcn.stm]\nswtb_size = \"1ns\"\nswtb_threshold = \"1ns\"\n[pcn.measure]",
            ),
            ErrorKind::Relation,
            13,
            "pcn.stm",
            "swtb_size_bits",
        ),
        (
            // 2 s / 1 ns = 2e9 bins per link: an allocation that aborted the process.
            "series bin of 1 ns",
            with("ot_to = \"2s\"", "ot_to = \"2s\"\nseries_bin = \"1ns\""),
            ErrorKind::Relation,
            16,
            "pcn.measure.series_bin",
            "at most 1000000 bins",
        ),
        (
            "fairness bin too fine for the default duration window",
            with("ot_to = \"2s\"", "ot_to = \"2s\"\nfairness_bin = \"1us\""),
            ErrorKind::Relation,
            16,
            "pcn.measure.fairness_bin",
            "at least duration",
        ),
        (
            "unknown CL edge behaviour",
            with(
                "ot_to = \"2s\"",
                "ot_to = \"2s\"\n[pcn.cl]\nedge = \"rfc5670\"",
            ),
            ErrorKind::BadValue,
            17,
            "pcn.cl.edge",
            "\"cl-phb-03\"",
        ),
        (
            "cl-phb-03 error factor of 150 %",
            with(
                "ot_to = \"2s\"",
                "ot_to = \"2s\"\n[pcn.cl]\nedge = \"cl-phb-03\"\nerror1 = 1.5",
            ),
            ErrorKind::BadValue,
            18,
            "pcn.cl.error1",
            "fraction of SAR in [0, 1)",
        ),
        (
            "cl-phb-03 error factor with the RFC 6661 edge",
            with("ot_to = \"2s\"", "ot_to = \"2s\"\n[pcn.cl]\nerror2 = 0.05"),
            ErrorKind::Relation,
            17,
            "pcn.cl.error2",
            "need edge = \"cl-phb-03\"",
        ),
        (
            "unknown victim rule",
            with(
                "ot_to = \"2s\"",
                "ot_to = \"2s\"\n[pcn.cl]\nvictims = \"peak\"",
            ),
            ErrorKind::BadValue,
            17,
            "pcn.cl.victims",
            "\"upper-limit\"",
        ),
        (
            "unknown ingress wait",
            with(
                "ot_to = \"2s\"",
                "ot_to = \"2s\"\n[pcn.cl]\nedge = \"cl-phb-03\"\ningress_wait = \"200ms\"",
            ),
            ErrorKind::BadValue,
            18,
            "pcn.cl.ingress_wait",
            "\"after-order\"",
        ),
        (
            "cl-phb-03 ingress wait with the RFC 6661 edge",
            with(
                "ot_to = \"2s\"",
                "ot_to = \"2s\"\n[pcn.cl]\ningress_wait = \"after-order\"",
            ),
            ErrorKind::Relation,
            17,
            "pcn.cl.ingress_wait",
            "option of edge = \"cl-phb-03\"",
        ),
    ]
}

#[test]
fn bad_pcn_files_are_refused_with_file_line_key_and_rule() {
    assert!(parse_str(TERM, "ok.toml").is_ok());
    let wrong = refusal::mismatches(cases(), parse_str);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The relations the shipped files imply, each broken once: refused with the rule named.
#[test]
fn every_relation_of_the_shipped_files_is_refused_when_broken() {
    let with = |from: &str, to: &str| TERM.replacen(from, to, 1);
    let broken = [
        (
            with("link_rate = \"3.2Mbps\"", "link_rate = \"3.2Mbps\"\nadmissible = 0.5\nsupportable = 0.5"),
            "must be below PCN-supportable-rate",
        ),
        (
            with("[pcn.measure]", "[pcn.stm]\nswtb_threshold = \"30ms\"\n[pcn.measure]"),
            "swtb_threshold must not exceed swtb_size",
        ),
        (
            with("[pcn.measure]", "[pcn.stm]\nmktb_threshold = \"11ms\"\n[pcn.measure]"),
            "mktb_threshold must not exceed mktb_size",
        ),
        (
            with("[pcn.measure]", "[pcn.fractional]\nfrtb_threshold = \"21ms\"\n[pcn.measure]"),
            "frtb_threshold must not exceed frtb_size",
        ),
        (
            with("[pcn.measure]", "[pcn.fractional]\nthtb_threshold = \"11ms\"\n[pcn.measure]"),
            "thtb_threshold must not exceed thtb_size",
        ),
        (
            with("[pcn.measure]", "[pcn.cl]\nvq_min = \"16ms\"\n[pcn.measure]"),
            "vq_min must not exceed vq_max (§10.5",
        ),
        (
            with("[pcn.measure]", "[pcn.cl]\nvq_limit = \"10ms\"\n[pcn.measure]"),
            "vq_max must not exceed vq_limit",
        ),
        (
            with("[pcn.measure]", "[pcn.edge]\nmeasure_interval = \"33.3ms\"\n[pcn.measure]"),
            "report_interval must be shorter than measure_interval (§3.2.2)",
        ),
        (
            with(
                "kind = \"single\"",
                "kind = \"rtt\"\ningresses = 2\ningress_delay_min = \"5ms\"\ningress_delay_max = \"1ms\"",
            ),
            "ingress_delay_min must not exceed ingress_delay_max",
        ),
        (with("ot_from = \"1s\"", "ot_from = \"2s\""), "ot_from must be below ot_to"),
        (with("ot_to = \"2s\"", "ot_to = \"3s\""), "must end by duration"),
        (with("extra_at", "long_haul_share = 1.0\nextra_at"), "must be in (0, 1)"),
        (
            with("[pcn.measure]", "[pcn.edge]\nextra_fraction = 1.0\n[pcn.measure]"),
            "must be in [0, 1)",
        ),
        (
            with("[pcn.measure]", "[pcn.edge]\newma_weight = 0\n[pcn.measure]"),
            "must be in (0, 1]",
        ),
    ];
    for (text, rule) in &broken {
        let e = parse_str(text, "bad.toml").expect_err(text);
        assert!(e.line().is_some(), "{e}");
        assert!(e.to_string().contains(rule), "{rule}: {e}");
    }
}

/// Found by fuzzing: a delay near u64::MAX nanoseconds overflowed the engine's event times
/// (`attempt to add with overflow`); every time in a PCN file is now at most 10^6 s, and a
/// packet must take at most that long at the link rate.
#[test]
fn times_beyond_a_million_seconds_are_refused() {
    let plt = TERM.replacen(
        "kind = \"single\"",
        "kind = \"parking-lot\"\nbottlenecks = 2\nlink_delay = \"18446744073s\"",
        1,
    );
    let e = parse_str(&plt, "bad.toml").unwrap_err();
    assert_eq!(e.path(), "pcn.topology.link_delay", "{e}");
    assert_eq!(e.line(), Some(10), "{e}");
    assert!(e.to_string().contains("at most 1000000 s"), "{e}");
    let e = parse_str(&TERM.replacen("\"2s\"", "\"1000001s\"", 1), "bad.toml").unwrap_err();
    assert_eq!(e.path(), "pcn.duration", "{e}");
    let slow = TERM
        .replacen(
            "model = \"cbr\"",
            "model = \"cbr\"\npacket_size = \"4000MB\"",
            1,
        )
        .replacen("\"3.2Mbps\"", "\"100bps\"", 1);
    let e = parse_str(&slow, "bad.toml").unwrap_err();
    assert_eq!(e.path(), "pcn.link_rate", "{e}");
    assert!(e.to_string().contains("takes more than 1000000 s"), "{e}");
    // The largest allowed delay runs (shortened) without overflow.
    let mut s = parse_str(
        &TERM.replacen(
            "kind = \"single\"",
            "kind = \"single\"\ndelay = \"1000000s\"",
            1,
        ),
        "ok.toml",
    )
    .unwrap();
    s.duration = qoslab_algo::Duration::from_millis(200);
    s.measure.ot_from = qoslab_algo::Duration::from_millis(100);
    s.measure.ot_to = s.duration;
    qoslab_sim::pcn::run(&s, 1).unwrap();
}
