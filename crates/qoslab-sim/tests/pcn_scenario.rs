//! PCN scenario files: valid files parse to the documented defaults; bad files are refused
//! with an error naming the file, line and key path (a table of cases, as tc-testing does).

mod common;
use common::refusal::{self, Case};
use qoslab_algo::Duration;
use qoslab_sim::pcn::spec::{RunKind, Scheme, TopologySpec};
use qoslab_sim::pcn::{is_pcn_scenario, parse_str};
use qoslab_sim::scenario::ErrorKind;

const OK: &str = r#"
[pcn]
kind = "admission"
duration = "300s"
link_rate = "128Mbps"
[pcn.traffic]
model = "cbr"
[pcn.topology]
kind = "rtt"
ingresses = 10
[pcn.admission]
call_interval = "12ms"
call_interval_of = "all"
"#;

#[test]
fn defaults_follow_the_draft_and_the_map() {
    let s = parse_str(OK, "ok.toml").unwrap();
    assert_eq!(s.kind, RunKind::Admission);
    assert_eq!(s.scheme, Scheme::Stm);
    assert_eq!(s.admissible_rate.bps(), 64_000_000); // §10.1: 0.5 C
    assert_eq!(s.supportable_rate.bps(), 115_200_000); // 0.9 C
    assert_eq!(s.fifo_packets, 80_000);
    assert_eq!(s.traffic.packet_bytes, 160);
    assert_eq!(s.traffic.interval, Duration::from_millis(20));
    assert!(s.traffic.on_off.is_none());
    assert_eq!(s.stm.n, 3);
    assert_eq!(s.stm.mktb_threshold, Duration::from_millis(8));
    assert_eq!(s.edge.cle_threshold, 1e-6); // case 6
    assert_eq!(s.edge.ewma_weight, 0.3);
    assert_eq!(s.edge.report_interval, Duration::from_micros(33_300));
    assert!(!s.edge.terminate);
    // "all": the total interval times k.
    assert_eq!(s.admission.call_interval, Duration::from_millis(120));
    match s.topology {
        TopologySpec::Rtt {
            ingresses,
            ingress_delay_min,
            ingress_delay_max,
            bottleneck_delay,
        } => {
            assert_eq!(ingresses, 10);
            assert_eq!(ingress_delay_min, Duration::from_millis(1));
            assert_eq!(ingress_delay_max, Duration::from_millis(100));
            assert_eq!(bottleneck_delay, Duration::from_millis(10));
        }
        _ => panic!("rtt"),
    }
    assert!(is_pcn_scenario(OK));
    assert!(!is_pcn_scenario(
        "duration = \"1s\"\n[[node]]\nname = \"a\"\n"
    ));
}

#[test]
fn every_shipped_scenario_file_is_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/pcn-stm");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            qoslab_sim::pcn::load(&p).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 19, "{n} files");
}

/// (what is changed, the text, expected kind, line, key path, a word of the message)
fn cases() -> Vec<Case> {
    let with = |from: &str, to: &str| OK.replacen(from, to, 1);
    vec![
        (
            "unknown key",
            with("link_rate", "link_rat = \"1Mbps\"\nlink_rate"),
            ErrorKind::UnknownKey,
            5,
            "pcn.link_rat",
            "did you mean `link_rate`",
        ),
        (
            "bad kind",
            with("\"admission\"", "\"admision\""),
            ErrorKind::BadValue,
            3,
            "pcn.kind",
            "must be one of",
        ),
        (
            "AR not below SR",
            with(
                "link_rate = \"128Mbps\"",
                "link_rate = \"128Mbps\"\nadmissible = 0.9\nsupportable = 0.5",
            ),
            ErrorKind::Relation,
            7,
            "pcn.supportable",
            "must be below PCN-supportable-rate",
        ),
        (
            "rate without unit",
            with("\"128Mbps\"", "128"),
            ErrorKind::BadValue,
            5,
            "pcn.link_rate",
            "needs a unit",
        ),
        (
            "bad traffic model",
            with("\"cbr\"", "\"voip\""),
            ErrorKind::BadValue,
            7,
            "pcn.traffic.model",
            "\"cbr\"",
        ),
        (
            "k = 0",
            with("ingresses = 10", "ingresses = 0"),
            ErrorKind::BadValue,
            10,
            "pcn.topology.ingresses",
            "≥ 1",
        ),
        (
            "key of another topology",
            with("ingresses = 10", "ingresses = 10\nbottlenecks = 3"),
            ErrorKind::UnknownKey,
            11,
            "pcn.topology.bottlenecks",
            "RTT topology",
        ),
        (
            "report interval not below the measuring interval",
            with(
                "[pcn.admission]",
                "[pcn.edge]\nreport_interval = \"200ms\"\n[pcn.admission]",
            ),
            ErrorKind::Relation,
            12,
            "pcn.edge.report_interval",
            "§3.2.2",
        ),
        (
            "CLE threshold out of range",
            with(
                "[pcn.admission]",
                "[pcn.edge]\ncle_threshold = 1.5\n[pcn.admission]",
            ),
            ErrorKind::BadValue,
            12,
            "pcn.edge.cle_threshold",
            "(0, 1]",
        ),
        (
            "MkTB threshold above its size",
            with(
                "[pcn.admission]",
                "[pcn.stm]\nmktb_threshold = \"12ms\"\n[pcn.admission]",
            ),
            ErrorKind::Relation,
            12,
            "pcn.stm.mktb_threshold",
            "must not exceed",
        ),
        (
            "OA window past the end",
            with(
                "[pcn.admission]",
                "[pcn.measure]\noa_to = \"400s\"\n[pcn.admission]",
            ),
            ErrorKind::Relation,
            12,
            "pcn.measure.oa_to",
            "must end by duration",
        ),
        (
            "something outside [pcn]",
            format!("seed = 3\n{OK}"),
            ErrorKind::UnknownKey,
            1,
            "seed",
            "everything goes under [pcn]",
        ),
    ]
}

#[test]
fn bad_files_are_refused_with_file_line_and_key() {
    let wrong = refusal::mismatches(cases(), parse_str);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn missing_sections_are_named() {
    let e = parse_str(
        "[pcn]\nkind = \"static\"\nduration = \"1s\"\nlink_rate = \"1Mbps\"\n",
        "m.toml",
    )
    .unwrap_err();
    assert!(e.to_string().contains("[pcn.traffic]"), "{e}");
    let e = parse_str(
        &OK.replace(
            "[pcn.admission]\ncall_interval = \"12ms\"\ncall_interval_of = \"all\"\n",
            "",
        ),
        "m.toml",
    )
    .unwrap_err();
    assert!(e.to_string().contains("call_interval"), "{e}");
}
