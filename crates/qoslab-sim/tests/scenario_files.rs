//! The scenario files shipped in `scenarios/` parse and say what their comments say;
//! I/O errors; no input makes the parser panic.

use std::path::PathBuf;

use proptest::prelude::*;
use qoslab_algo::{Duration, Rate};
use qoslab_sim::scenario::spec::{FlowKind, Limit, NodeKind, QueueSpec, Scenario, TcpVariant};
use qoslab_sim::scenario::{load, parse_str, ErrorKind};

fn repo_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name)
}

fn load_ok(name: &str) -> Scenario {
    load(&repo_file(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn link<'s>(s: &'s Scenario, name: &str) -> &'s qoslab_sim::scenario::spec::LinkSpec {
    s.links
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no link {name}"))
}

/// The RIO seed §2, Fig. 1: S1..S20 -100 Mb/s, 3..8 ms- G1 -70 Mb/s, 5 ms- G2 -100 Mb/s,
/// 5 ms- D1..D20; 20 TCP flows, 500 B segments, 20 s with 5 s warm-up.
#[test]
fn dumbbell_is_the_rio_seed_fig1() {
    let s = load_ok("dumbbell.toml");
    assert_eq!(s.name, "dumbbell");
    assert_eq!(
        (s.duration, s.warmup),
        (Duration::from_secs(20), Duration::from_secs(5))
    );
    assert_eq!(s.nodes.len(), 42);
    assert_eq!(
        s.nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Router)
            .count(),
        2
    );
    // 20 + 1 + 20 duplex links = 82 directions
    assert_eq!(s.links.len(), 82);
    let s1 = link(&s, "S1->G1");
    assert_eq!(
        (s1.rate, s1.delay),
        (Rate::from_mbps(100), Duration::from_millis(3))
    );
    assert_eq!(link(&s, "S20->G1").delay, Duration::from_millis(8));
    assert_eq!(link(&s, "G1->S20").delay, Duration::from_millis(8));
    let b = link(&s, "G1->G2");
    assert_eq!(
        (b.rate, b.delay),
        (Rate::from_mbps(70), Duration::from_millis(5))
    );
    match &b.queue {
        QueueSpec::Red { limit, red } => {
            assert_eq!(*limit, Limit::Packets(300));
            assert_eq!(
                (red.min_th, red.max_th, red.max_p, red.w_q),
                (60.0, 200.0, 0.1, 0.002)
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(link(&s, "G2->D7").delay, Duration::from_millis(5));
    // round-trip times 2 (d_i + 5 + 5) ms span 26..36 ms, as the seed says
    let one_way = |i: usize| link(&s, &format!("S{i}->G1")).delay + Duration::from_millis(10);
    assert_eq!(one_way(1).saturating_mul(2), Duration::from_millis(26));
    assert_eq!(one_way(20).saturating_mul(2), Duration::from_millis(36));
    assert_eq!(s.flows.len(), 20);
    for (i, f) in s.flows.iter().enumerate() {
        assert_eq!(s.nodes[f.src].name, format!("S{}", i + 1));
        assert_eq!(s.nodes[f.dst].name, format!("D{}", i + 1));
        let FlowKind::Tcp(tcp) = &f.kind else {
            panic!("{f:?}")
        };
        assert_eq!(
            (tcp.variant, tcp.mss, tcp.bytes),
            (TcpVariant::NewReno, 500, None)
        );
    }
    assert_eq!(
        s.output.monitor,
        vec![s.links.iter().position(|l| l.name == "G1->G2").unwrap()]
    );
}

#[test]
fn dumbbell_udp_overloads_the_bottleneck() {
    let s = load_ok("dumbbell-udp.toml");
    let offered: u64 = s
        .flows
        .iter()
        .map(|f| match f.kind {
            FlowKind::Poisson { rate, size: 500 } => rate.bps(),
            ref other => panic!("{other:?}"),
        })
        .sum();
    assert_eq!(offered, 80_000_000);
    assert!(offered > link(&s, "G1->G2").rate.bps());
}

#[test]
fn missing_file_is_an_io_error() {
    let e = load(&repo_file("no-such-file.toml")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert_eq!(e.line(), None);
    assert!(
        e.to_string().contains("no-such-file.toml: cannot read"),
        "{e}"
    );
}

/// Every prefix of a real file either parses or fails with a located error; none panics.
#[test]
fn truncations_never_panic() {
    let text = std::fs::read_to_string(repo_file("dumbbell.toml")).unwrap();
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        if let Err(e) = parse_str(&text[..end], "t.toml") {
            assert!(e.line().is_some(), "{e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random edits of a real file (a character replaced, deleted or inserted at up to
    /// four places) never make the parser panic, and errors always have a position.
    #[test]
    fn mutations_never_panic(
        edits in proptest::collection::vec((0usize..4000, 0u8..3, proptest::char::range(' ', '~')), 1..5)
    ) {
        let mut text: Vec<char> = std::fs::read_to_string(repo_file("dumbbell.toml")).unwrap().chars().collect();
        for (pos, op, c) in edits {
            let pos = pos % (text.len() + 1);
            match op {
                0 if pos < text.len() => text[pos] = c,
                1 if pos < text.len() => { text.remove(pos); }
                _ => text.insert(pos, c),
            }
        }
        let text: String = text.into_iter().collect();
        if let Err(e) = parse_str(&text, "m.toml") {
            prop_assert!(e.line().is_some(), "{}", e);
        }
    }

    /// Arbitrary values in every quantity slot never make the parser panic.
    #[test]
    fn odd_values_never_panic(v in "[-+0-9.eEa-zA-Z_{}\" ]{0,12}", w in -5i64..5) {
        let text = format!(
            "duration = \"{v}\"\nwarmup = {w}\nnode = [{{ name = \"{v}\", count = {w} }}, {{ name = \"b\" }}]\n\
             link = [{{ from = \"{v}\", to = \"b\", rate = \"{v}\", delay = \"{v}\", queue = {{ kind = \"red\", min_th = {w}, max_th = \"{v}\", limit = \"{v}\" }} }}]\n"
        );
        let _ = parse_str(&text, "v.toml");
    }
}

/// The ```toml examples of the format documentation (module docs and scenarios/README.md)
/// are valid scenario files.
#[test]
fn documented_examples_parse() {
    let module = concat!(env!("CARGO_MANIFEST_DIR"), "/src/scenario/mod.rs");
    let docs: String = std::fs::read_to_string(module)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let mut seen = 0;
    for (source, text) in [("mod.rs", docs), ("README.md", readme)] {
        for block in text.split("```toml\n").skip(1) {
            let example = block.split("```").next().unwrap();
            parse_str(example, source).unwrap_or_else(|e| panic!("{e}\n{example}"));
            seen += 1;
        }
    }
    assert!(seen >= 2, "examples found: {seen}");
}
