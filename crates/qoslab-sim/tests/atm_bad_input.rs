//! Bad ATM/GFR scenario files (issue: robust input; found by fuzzing `atm_scenario_text`
//! and by reading the parameter relations of `scenarios/gfr-kim2001/*.toml`): each is
//! refused with an error naming the file, line and key and the rule broken, never a panic,
//! and a file that is accepted is accepted by the engine too.

use qoslab_sim::atm::scenario::parse_str;
use qoslab_sim::atm::AtmSim;
use qoslab_sim::scenario::ErrorKind;

mod common;
use common::refusal::{self, Case};

/// Two VCs over two switches (Kim et al.'s Fig. 1, shrunk).
const OK: &str = r#"atm = true
duration = "200ms"
warmup = "50ms"
c_gfr = "10Mbps"
[buffer]
size = 512
policy = "dfba"
lbo = 128
hbo = 384
[tcp]
mss = "960B"
header = "0B"
[[node]]
name = "R{i}"
count = 2
kind = "edge"
[[node]]
name = "D{i}"
count = 2
kind = "edge"
[[node]]
name = "SW{i}"
count = 2
kind = "switch"
[[link]]
from = "R{i}"
to = "SW1"
count = 2
rate = "10Mbps"
delay = "0.5ms"
[[link]]
from = "SW1"
to = "SW2"
rate = "10Mbps"
delay = "1ms"
[[link]]
from = "SW2"
to = "D{i}"
count = 2
rate = "10Mbps"
delay = "0.5ms"
[[vc]]
name = "VC{i}"
count = 2
path = ["R{i}", "SW1", "SW2", "D{i}"]
mcr = ["2Mbps", "4Mbps"]
mfs = 20
mbs = 200
cdvt = "1ns"
connections = 2
"#;

fn cases() -> Vec<Case> {
    let with = |from: &str, to: &str| {
        assert!(OK.contains(from), "{from}");
        OK.replacen(from, to, 1)
    };
    vec![
        (
            // Accepted, then refused by the engine (CellRate numerator 0; DFBA's MCR > 0).
            "MCR of 0",
            with(
                "mcr = [\"2Mbps\", \"4Mbps\"]",
                "mcr = [\"0bps\", \"4Mbps\"]",
            ),
            ErrorKind::BadValue,
            46,
            "vc[0].mcr",
            "must be > 0",
        ),
        (
            "PCR above the line rate",
            with("mfs = 20", "pcr = \"20Mbps\"\nmfs = 20"),
            ErrorKind::Relation,
            47,
            "vc[0].pcr",
            "PCR <= line rate",
        ),
        (
            "MCR above PCR",
            with("mfs = 20", "pcr = \"3Mbps\"\nmfs = 20"),
            ErrorKind::Relation,
            46,
            "vc[0].mcr",
            "MCR <= PCR",
        ),
        (
            "MFS of 0",
            with("mfs = 20", "mfs = 0"),
            ErrorKind::BadValue,
            47,
            "vc[0].mfs",
            "mfs must be >= 1",
        ),
        (
            "MBS below MFS",
            with("mbs = 200", "mbs = 19"),
            ErrorKind::Relation,
            48,
            "vc[0].mbs",
            "MBS >= MFS",
        ),
        (
            "LBO = HBO",
            with("lbo = 128", "lbo = 384"),
            ErrorKind::Relation,
            8,
            "buffer.lbo",
            "LBO < HBO",
        ),
        (
            "LBO above HBO",
            with("lbo = 128", "lbo = 400"),
            ErrorKind::Relation,
            8,
            "buffer.lbo",
            "LBO <= HBO",
        ),
        (
            "HBO above the buffer",
            with("hbo = 384", "hbo = 513"),
            ErrorKind::Relation,
            9,
            "buffer.hbo",
            "at most the buffer size (512 cells)",
        ),
        (
            // Reserved 2^32 cells per switch port: the allocation aborted the process.
            "a buffer of u32::MAX cells",
            with("size = 512", "size = 4294967295"),
            ErrorKind::BadValue,
            6,
            "buffer.size",
            "at most 1048576 cells",
        ),
        (
            // 2^32 TCP connections built up front: out of memory.
            "too many connections",
            with("connections = 2", "connections = 4294967295"),
            ErrorKind::BadValue,
            50,
            "vc[0].connections",
            "at most 100000 connections",
        ),
        (
            "sum of MCR above C_GFR",
            with("c_gfr = \"10Mbps\"", "c_gfr = \"5Mbps\""),
            ErrorKind::Relation,
            4,
            "c_gfr",
            "Σ MCR",
        ),
    ]
}

#[test]
fn bad_atm_files_are_refused_with_file_line_key_and_rule() {
    let s = parse_str(OK, "ok.toml").unwrap();
    AtmSim::new(s.clone(), 1).unwrap();
    let wrong = refusal::mismatches(cases(), parse_str);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A VC with a tiny MCR and a huge MBS has a burst tolerance BT = (MBS − 1)(1/MCR − 1/PCR)
/// beyond u64 nanoseconds; BT + CDVT overflowed (a panic with overflow checks, a wrapped
/// tiny tolerance without). Now the sum saturates and the engine accepts the file.
#[test]
fn huge_burst_tolerance_does_not_overflow() {
    let text = OK
        .replace(
            "mcr = [\"2Mbps\", \"4Mbps\"]",
            "mcr = [\"1bps\", \"4Mbps\"]",
        )
        .replace("mbs = 200", "mbs = 4294967295")
        .replace("cdvt = \"1ns\"", "cdvt = \"1000s\"");
    let s = parse_str(&text, "big.toml").unwrap();
    AtmSim::new(s, 1).unwrap();
}

/// Found by fuzzing: a 4 GB `header` overflowed the cell count of a frame (u32) in the
/// engine, and a `clock_granularity` near u64::MAX ns overflowed TCP's RTT estimator; an
/// 18446744073 s link delay overflowed event times. Each is refused with its key.
#[test]
fn frames_above_aal5_and_times_above_a_million_seconds_are_refused() {
    for (from, to, line, path, word) in [
        (
            "header = \"0B\"",
            "header = \"4GB\"",
            12,
            "tcp.header",
            "largest AAL5 CPCS-SDU",
        ),
        (
            "mss = \"960B\"",
            "mss = \"960B\"\nack_size = \"70000B\"",
            12,
            "tcp.ack_size",
            "ack_size + header = 70000 B",
        ),
        (
            "header = \"0B\"",
            "header = \"0B\"\nclock_granularity = \"18446744073s\"",
            13,
            "tcp.clock_granularity",
            "at most 1000000 s",
        ),
        (
            "delay = \"1ms\"",
            "delay = \"18446744073s\"",
            35,
            "link[1].delay",
            "at most 1000000 s",
        ),
        (
            "duration = \"200ms\"",
            "duration = \"1000001s\"",
            2,
            "duration",
            "at most 1000000 s",
        ),
    ] {
        assert!(OK.contains(from), "{from}");
        let e = parse_str(&OK.replacen(from, to, 1), "bad.toml").expect_err(to);
        assert_eq!(e.line(), Some(line), "{to}: {e}");
        assert_eq!(e.path(), path, "{to}: {e}");
        assert!(e.to_string().contains(word), "{to}: {e}");
    }
}

/// `qoslab run`/`validate` dispatch on `is_atm`: a file meant as ATM with a wrong `atm`
/// value was read as an IP scenario ("atm: unknown key in the top level"); now it reaches
/// the ATM reader, which names the key and what is allowed. Files of one kind with the
/// other kind's keys are refused by the reader they reach, naming the foreign key.
#[test]
fn dispatch_sends_every_atm_file_to_the_atm_reader() {
    use qoslab_sim::atm::scenario::is_atm;
    for (value, word) in [
        ("\"yes\"", "expected true or false"),
        ("false", "an ATM scenario says `atm = true`"),
    ] {
        let text = OK.replacen("atm = true", &format!("atm = {value}"), 1);
        assert!(is_atm(&text), "{value}");
        let e = parse_str(&text, "bad.toml").unwrap_err();
        assert_eq!((e.line(), e.path()), (Some(1), "atm"), "{e}");
        assert!(e.to_string().contains(word), "{word}: {e}");
    }
    // ATM with a [pcn] table: the ATM reader names `pcn`.
    let e = parse_str(&format!("{OK}[pcn]\nkind = \"static\"\n"), "bad.toml").unwrap_err();
    assert_eq!(e.path(), "pcn", "{e}");
    assert!(e.to_string().contains("unknown key"), "{e}");
    // PCN with an ATM key: the PCN reader (it has a [pcn] table, no `atm`) names it.
    let pcn = "name = \"x\"\n[pcn]\nkind = \"static\"\n";
    assert!(!is_atm(pcn) && qoslab_sim::pcn::is_pcn_scenario(pcn));
    let e = qoslab_sim::pcn::parse_str(pcn, "bad.toml").unwrap_err();
    assert_eq!(e.path(), "name", "{e}");
    assert!(e.to_string().contains("everything goes under [pcn]"), "{e}");
    assert!(!is_atm("not toml ["));
}
