//! Tests of `qoslab reproduce rfc4828`: the registry, the definitions against the data
//! files and against `scenarios/rfc4828/run.sh`, Tables 1-4 through the report, one
//! simulated row end to end, and the metrics the experiment added.

use qoslab::reproduce;

use qoslab_sim::result::{Aggregate, FlowResult, RunResult};
use qoslab_sim::scenario::spec::Scenario;
use qoslab_sim::stats::FlowCounters;

use reproduce::metric::{group_of, FlowSel, FlowStat, Metric};
use reproduce::rfc4828;
use reproduce::{published, Options};

fn exp() -> reproduce::experiment::Experiment {
    rfc4828::experiment().unwrap()
}

fn opts(table: &str) -> Options {
    Options {
        table: Some(table.into()),
        seeds: Some(1),
        quick: true,
        threads: 1,
        progress: false,
    }
}

#[test]
fn the_registry_knows_rfc4828() {
    assert!(reproduce::NAMES.contains(&"rfc4828"));
    let exps = reproduce::registry().unwrap();
    let e = exps.iter().find(|e| e.name == "rfc4828").unwrap();
    e.check().unwrap();
    let ids: Vec<&str> = e.tables.iter().map(|t| t.id).collect();
    let mut want: Vec<String> = (1..=21).map(|i| i.to_string()).collect();
    want.extend(["c1".to_string(), "c2".to_string()]);
    assert_eq!(ids, want);
    // Every table names its own published values, with all of our columns.
    for t in &e.tables {
        let name = t.published.unwrap();
        assert_eq!(
            e.tables
                .iter()
                .filter(|u| u.published == Some(name))
                .count(),
            1
        );
        let p = published::load(name).unwrap();
        for c in t.keys.iter().chain(t.columns.iter().map(|c| &c.name)) {
            assert!(p.columns.iter().any(|x| x == c), "table {}: {c}", t.id);
        }
    }
    // `--table C.1` selects c1 (dots dropped, case ignored), an unknown table is refused.
    let err = reproduce::reproduce(e, &opts("22")).unwrap_err();
    assert_eq!(err.exit_code(), 2);
}

/// Rows (printed in the RFC) of each data file, by table.
const ROWS: [(&str, usize); 21] = [
    ("1", 13),
    ("2", 13),
    ("3", 12),
    ("4", 12),
    ("5", 7),
    ("6", 7),
    ("7", 11),
    ("8", 11),
    ("9", 11),
    ("10", 8),
    ("11", 6),
    ("12", 8),
    ("13", 8),
    ("14", 8),
    ("15", 14),
    ("16", 14),
    ("17", 8),
    ("18", 8),
    ("19", 8),
    ("20", 8),
    ("21", 8),
];

#[test]
fn definitions_match_the_data_files() {
    let e = exp();
    for (id, n) in ROWS {
        let t = e.tables.iter().find(|t| t.id == id).unwrap();
        let p = published::load(t.published.unwrap()).unwrap();
        assert_eq!(p.rows.len(), n, "table {id}: published rows");
        assert_eq!(t.rows.len(), n, "table {id}: our rows");
        assert!(p.notes[0].starts_with("Source: RFC 4828 Table"), "{id}");
        for c in &t.columns {
            assert!(p.columns.iter().any(|x| x == c.name), "{id}: {}", c.name);
        }
        // Keys one to one, in the printed order.
        let key = p.columns.iter().position(|c| c == t.keys[0]).unwrap();
        let theirs: Vec<&str> = p.rows.iter().map(|r| r.fields[key].as_str()).collect();
        let ours: Vec<&str> = t.rows.iter().map(|r| r.keys[0].as_str()).collect();
        assert_eq!(ours, theirs, "table {id}");
        // Withheld tables have no values; the others have a value in every row.
        let with_values = p.rows_with_values(&t.keys);
        if id.parse::<u32>().unwrap() >= 17 {
            assert_eq!(with_values, 0, "{id}");
            assert!(p.notes.iter().any(|n| n.contains("withheld")), "{id}");
        } else {
            assert_eq!(with_values, n, "{id}");
        }
    }
    // Spot checks against the seed copy.
    let v = |id: &str, key: &str, col: &str| {
        let t = e.tables.iter().find(|t| t.id == id).unwrap();
        published::load(t.published.unwrap())
            .unwrap()
            .value(&t.keys, &[key.to_string()], col)
    };
    assert_eq!(v("1", "0.00001", "seg_1460"), Some(5812.49));
    assert_eq!(v("4", "0.0001000", "seg_536"), Some(50.00));
    assert_eq!(v("5", "4000", "tcp_goodput_kbps"), Some(21.44));
    assert_eq!(v("5", "4000", "tcp_send_rate_mean_kbps"), None);
    assert_eq!(v("7", "0.3", "tcp_send_rate_kbps"), Some(26.26));
    assert_eq!(v("7", "0.3", "tfrc_send_rate_kbps"), Some(32.87));
    assert_eq!(v("9", "0.1", "tfrc_sp_send_rate_kbps"), Some(127.33));
    assert_eq!(v("10", "0.001", "tcp_segment_bytes"), Some(128.0));
    assert_eq!(v("11", "0.01", "tcp_tfrc_packet_drop_ratio"), Some(2.32));
    assert_eq!(v("13", "800", "tfrc_sp_drop_rate"), Some(0.078));
    assert_eq!(v("16", "500", "tfrc_send_rate_kbps"), Some(15.95));
    assert_eq!(v("18", "400", "tcp_drop_rate"), None);
    // Files on disk are the ones compiled in (Table 12 as a sample).
    let disk = std::fs::read_to_string(format!(
        "{}/../../data/rfc4828/table12.csv",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(disk.lines().count(), 1 + 8);
    // Shared runs: B.1 11 + 6 gradual, B.2 8, B.3/B.4 8 x 3 + 14 x 2 + 8 x 5 - 1 (Table 15's
    // 50-session row is Table 13's) + 3 gradual (App. C): 119.
    assert_eq!(e.variants.len(), 119);
    for v in &e.variants {
        qoslab_sim::Simulator::new(v.scenario.clone(), 1).unwrap_or_else(|m| panic!("{m}"));
    }
    let t15 = e.tables.iter().find(|t| t.id == "15").unwrap();
    let t13 = e.tables.iter().find(|t| t.id == "13").unwrap();
    assert_eq!(t15.rows[4].variant, t13.rows[2].variant);
}

// ---- the rows are run.sh's -------------------------------------------------------------

const SCEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/rfc4828/");

/// `sed -E -i "s|PATTERN|REPL|"` for the patterns of run.sh, on whole lines: every line
/// for which `hit` holds becomes `repl(line)`; at least one must (run.sh's `sub`).
fn sub(text: &str, hit: impl Fn(&str) -> bool, repl: impl Fn(&str) -> String) -> String {
    let mut n = 0;
    let out: String = text
        .lines()
        .map(|l| {
            if hit(l) {
                n += 1;
                repl(l) + "\n"
            } else {
                l.to_string() + "\n"
            }
        })
        .collect();
    assert!(n > 0, "no line matches");
    out
}

/// The scenario `scenarios/rfc4828/run.sh TABLE ROW` writes (without its name line).
fn run_sh(table: u32, row: &str) -> Scenario {
    let read = |f: &str| std::fs::read_to_string(format!("{SCEN}{f}")).unwrap();
    let drop_tail_bytes = r#"queue = { kind = "drop-tail", limit = "50000B" }  # @queue"#;
    let red_bytes = r#"queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", max_p = 0.1, w_q = 0.002, gentle = false, wait = true, byte_mode = true, queue_unit = "bytes", mean_pkt_size = "500B" }  # @queue"#;
    let ared_bytes = r#"queue = { kind = "red", limit = "50000B", min_th = "2500B", max_th = "7500B", max_p = 0.1, w_q = 0.002, gentle = true, wait = true, byte_mode = true, queue_unit = "bytes", mean_pkt_size = "500B", adaptive = true }  # @queue"#;
    let queue = |t: &str, q: &str| {
        sub(
            t,
            |l| l.starts_with("queue = ") && l.ends_with("  # @queue"),
            |_| q.to_string(),
        )
    };
    let mss512 = |t: &str| {
        sub(
            t,
            |l| l == r#"mss = "1460B"  # @mss"#,
            |_| r#"mss = "512B"  # @mss"#.to_string(),
        )
    };
    let sessions = |t: &str, n: u32| {
        let t = sub(
            t,
            |l| l.starts_with("sessions = ") && l.ends_with("  # @sessions"),
            |_| format!("sessions = {n}  # @sessions"),
        );
        sub(
            &t,
            |l| l.starts_with("sessions = ") && l.ends_with("  # @revsessions"),
            |_| format!("sessions = {}  # @revsessions", (n / 2).max(1)),
        )
    };
    let (file, text) = match table {
        5 | 6 | 10 | 11 => {
            let b = match table {
                5 => "0.0001",
                6 => "0.001",
                _ => row,
            };
            let t = sub(
                &read("b2-byte-drop.toml"),
                |l| l.starts_with("loss = { byte = ") && l.contains("}  # @loss"),
                |l| {
                    // run.sh: the rate changes, the rest of the table (`ecn = true`) stays.
                    let rest = l["loss = { byte = ".len()..]
                        .trim_start_matches(|c: char| c.is_ascii_digit() || ".e-".contains(c));
                    format!("loss = {{ byte = {b}{rest}")
                },
            );
            ("b2-byte-drop.toml", t)
        }
        7..=9 => {
            let t = sub(
                &read("b1-packet-drop.toml"),
                |l| l.starts_with("loss = { packet = ") && l.contains("}  # @loss"),
                |l| {
                    // run.sh: the rate changes, the rest of the table (`ecn = true`) stays.
                    let rest = l["loss = { packet = ".len()..]
                        .trim_start_matches(|c: char| c.is_ascii_digit() || ".e-".contains(c));
                    format!("loss = {{ packet = {row}{rest}")
                },
            );
            ("b1-packet-drop.toml", t)
        }
        12..=16 => {
            let n: u32 = row.parse().unwrap();
            let mut t = sessions(&read("b3-droptail.toml"), n);
            if table != 12 {
                t = queue(&t, drop_tail_bytes);
            }
            if table == 14 {
                t = mss512(&t);
            }
            if table == 15 || table == 16 {
                let k = n / 10;
                t = sub(
                    &t,
                    |l| l == "count = 5  # @n",
                    |_| format!("count = {k}  # @n"),
                );
                assert_eq!(
                    t.lines()
                        .filter(|l| *l == format!("count = {k}  # @n"))
                        .count(),
                    6
                );
            }
            if table == 16 {
                t = sub(
                    &t,
                    |l| l == r#"variant = "sp"  # @variant"#,
                    |_| r#"variant = "standard"  # @variant"#.to_string(),
                );
            }
            ("b3-droptail.toml", t)
        }
        17..=21 => {
            let n: u32 = row.parse().unwrap();
            let mut t = sessions(&read("b4-red.toml"), n);
            match table {
                18 | 19 => t = queue(&t, red_bytes),
                20 | 21 => t = queue(&t, ared_bytes),
                _ => {}
            }
            if table == 19 || table == 21 {
                t = mss512(&t);
            }
            ("b4-red.toml", t)
        }
        _ => panic!("table {table}"),
    };
    qoslab_sim::scenario::parse_str(&text, file).unwrap()
}

fn same_but_name(ours: &Scenario, theirs: &Scenario) {
    let mut o = ours.clone();
    o.name = theirs.name.clone();
    if o != *theirs {
        for (a, b) in o.links.iter().zip(&theirs.links) {
            assert_eq!(a, b);
        }
        for (a, b) in o.flows.iter().zip(&theirs.flows) {
            assert_eq!(a, b);
        }
        assert_eq!(o.webs, theirs.webs);
        assert_eq!(o.nodes, theirs.nodes);
        panic!("scenarios differ");
    }
}

#[test]
fn every_kind_of_row_is_the_scenario_run_sh_writes() {
    let e = exp();
    let cases: [(u32, &str); 16] = [
        (5, "14"),
        (6, "8000"),
        (7, "0.001"),
        (8, "0.3"),
        (9, "0.5"),
        (10, "0.010"),
        (11, "0.05"),
        (12, "800"),
        (13, "25"),
        (14, "200"),
        (15, "30"),
        (16, "500"),
        (17, "100"),
        (18, "400"),
        (19, "10"),
        (21, "1600"),
    ];
    for (table, row) in cases {
        let t = e.tables.iter().find(|t| t.id == table.to_string()).unwrap();
        let r = if matches!(table, 5 | 6) {
            &t.rows[0]
        } else {
            t.rows.iter().find(|r| r.keys[0] == row).unwrap()
        };
        let ours = &e.variants[r.variant].scenario;
        same_but_name(ours, &run_sh(table, row));
    }
    // Table 20 = Table 21 with 1460 B TCP segments.
    let t20 = e.tables.iter().find(|t| t.id == "20").unwrap();
    same_but_name(
        &e.variants[t20.rows[7].variant].scenario,
        &run_sh(20, "1600"),
    );
    // App. C: the gradual rows differ from the step rows only in the TFRC-SP flows' rule.
    for id in ["c1", "c2"] {
        let t = e.tables.iter().find(|t| t.id == id).unwrap();
        for pair in t.rows.chunks(2) {
            assert_eq!(
                (pair[0].keys[1].as_str(), pair[1].keys[1].as_str()),
                ("step", "gradual")
            );
            let (step, grad) = (
                &e.variants[pair[0].variant].scenario,
                &e.variants[pair[1].variant].scenario,
            );
            let mut changed = 0;
            for (a, b) in step.flows.iter().zip(&grad.flows) {
                use qoslab_sim::scenario::spec::FlowKind;
                match (&a.kind, &b.kind) {
                    (FlowKind::Tfrc(x), FlowKind::Tfrc(y)) if x.small_packet => {
                        assert!(!x.gradual && y.gradual);
                        let mut y = y.clone();
                        y.gradual = false;
                        assert_eq!(*x, y);
                        changed += 1;
                    }
                    _ => assert_eq!(a, b),
                }
            }
            assert!(changed >= 5, "{id}");
            assert_eq!(step.links, grad.links);
            assert_eq!(step.webs, grad.webs);
        }
    }
}

// ---- Tables 1-4 through the report -----------------------------------------------------

#[test]
fn tables_1_to_4_reproduce_within_half_a_percent() {
    let e = exp();
    for (id, rows) in [("1", 13), ("2", 13), ("3", 12), ("4", 12)] {
        let out = reproduce::reproduce(&e, &opts(id)).unwrap();
        assert_eq!(out.runs, 0, "computed, no simulation");
        assert!(out.text.contains("computed from the source's equations"));
        let csv = &out
            .files
            .iter()
            .find(|f| f.0 == format!("table_{id}.csv"))
            .unwrap()
            .1;
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("drop_rate,column,runs,ours_mean,ours_ci95,published,diff,diff_pct")
        );
        let mut n = 0;
        for l in lines {
            let f: Vec<&str> = l.split(',').collect();
            let (ours, publ): (f64, f64) = (f[3].parse().unwrap(), f[5].parse().unwrap());
            assert_eq!(f[2], "1", "one computed value");
            // 0.5 %, or 0.01 KBps below 1 KBps (the printed precision).
            let ok = if publ < 1.0 {
                (ours - publ).abs() <= 0.01
            } else {
                (ours - publ).abs() <= 0.005 * publ
            };
            assert!(ok, "table {id}: {l}");
            n += 1;
        }
        assert_eq!(n, 3 * rows, "table {id}");
    }
}

// ---- one simulated row -----------------------------------------------------------------

#[test]
fn one_quick_row_runs_end_to_end() {
    // Table 9 at a packet drop rate of 0.1: one 20 s run of the B.1 scenario.
    let mut e = exp();
    e.tables.retain(|t| t.id == "9");
    e.tables[0].rows.retain(|r| r.keys[0] == "0.1");
    e.quick.duration = qoslab_algo::Duration::from_secs(20);
    e.quick.warmup = qoslab_algo::Duration::from_secs(10);
    let out = reproduce::reproduce(&e, &opts("9")).unwrap();
    assert_eq!(out.runs, 1);
    let csv = &out.files.iter().find(|f| f.0 == "table_9.csv").unwrap().1;
    let cell = |c: &str| -> (f64, f64) {
        let l = csv
            .lines()
            .find(|l| l.split(',').nth(1) == Some(c))
            .unwrap();
        let f: Vec<&str> = l.split(',').collect();
        (f[3].parse().unwrap(), f[5].parse().unwrap())
    };
    let (tcp, tcp_pub) = cell("tcp_send_rate_kbps");
    let (sp, sp_pub) = cell("tfrc_sp_send_rate_kbps");
    let (std, std_pub) = cell("std_tfrc_send_rate_kbps");
    assert_eq!((tcp_pub, sp_pub, std_pub), (141.67, 127.33, 21.96));
    // RFC 4828 App. B.1: TFRC-SP roughly at TCP's rate, standard TFRC with 200 B packets
    // far below; at most 100 packets/s of 232 B on the wire (185.6 Kb/s).
    assert!(sp > 3.0 * std && sp <= 185.6 && std > 0.0, "{sp} {std}");
    assert!(tcp > 0.5 * sp && tcp < 2.0 * sp, "{tcp} {sp}");
    assert!(out.text.contains("127.33"));
}

// ---- the metrics -----------------------------------------------------------------------

fn flow(name: &str, send_kbps: f64, data_pkts: u64, dropped: u64) -> FlowResult {
    let measured = FlowCounters {
        data_pkts,
        data_dropped: dropped,
        ..FlowCounters::default()
    };
    FlowResult {
        name: name.into(),
        kind: "tcp".into(),
        src: "A".into(),
        dst: "B".into(),
        goodput_bps: 0.0,
        send_rate_bps: send_kbps * 1e3,
        send_payload_bps: send_kbps * 1e3 * 0.5,
        drop_rate: dropped as f64 / data_pkts as f64,
        measured,
        total: measured,
        tfrc: None,
        delay: Default::default(),
    }
}

fn result(flows: Vec<FlowResult>) -> RunResult {
    RunResult {
        scenario: "t".into(),
        seed: 1,
        duration_s: 2.0,
        warmup_s: 1.0,
        measured_s: 1.0,
        events: 0,
        flows,
        queues: Vec::new(),
        conditioners: Vec::new(),
        webs: Vec::new(),
        aggregate: Aggregate {
            goodput_bps: 0.0,
            jain_index: 1.0,
        },
    }
}

#[test]
fn flow_groups_as_summarize_py() {
    assert_eq!(group_of("tcp3"), "tcp");
    assert_eq!(group_of("tcp10"), "tcp");
    assert_eq!(group_of("sp14_7"), "sp14");
    assert_eq!(group_of("tcp1460_1"), "tcp1460");
    assert_eq!(group_of("web"), "web");
    let g = FlowSel::Group("tcp14".into());
    assert!(g.matches("tcp14_1") && g.matches("tcp14_10"));
    assert!(!g.matches("tcp1460_1") && !g.matches("tcp14") && !g.matches("tcp1"));
}

#[test]
fn group_means_medians_pooled_drops_and_best_of() {
    let r = result(vec![
        flow("a1", 10.0, 100, 10),
        flow("a2", 20.0, 300, 0),
        flow("a3", 60.0, 100, 50),
        flow("b_1", 5.0, 0, 0),
        flow("b_2", 7.0, 50, 5),
    ]);
    let a = || FlowSel::Group("a".into());
    let b = || FlowSel::Group("b".into());
    let m = |m: Metric| m.extract(&r);
    // mean (10 + 20 + 60) / 3 = 30; payload is half of it in `flow`.
    assert_eq!(m(Metric::FlowMean(a(), FlowStat::SendRate)), Some(30.0));
    assert_eq!(m(Metric::FlowMean(a(), FlowStat::SendPayload)), Some(15.0));
    // median of 10, 20, 60 = 20; of 5, 7 = 6.
    assert_eq!(m(Metric::FlowMedian(a(), FlowStat::SendRate)), Some(20.0));
    assert_eq!(m(Metric::FlowMedian(b(), FlowStat::SendRate)), Some(6.0));
    // pooled (10 + 0 + 50) / 500 = 0.12 (the per-flow mean would be (0.1 + 0 + 0.5)/3 = 0.2).
    assert_eq!(m(Metric::PooledDropRate(a())), Some(0.12));
    // b: 5 / 50 = 0.1 (the flow that sent nothing adds nothing).
    assert_eq!(m(Metric::PooledDropRate(b())), Some(0.1));
    // ratio 0.12 / 0.1 = 1.2; nothing selected: None, and None propagates.
    let ratio = m(Metric::Ratio(
        Box::new(Metric::PooledDropRate(a())),
        Box::new(Metric::PooledDropRate(b())),
    ))
    .unwrap();
    assert!((ratio - 1.2).abs() < 1e-12);
    let none = || FlowSel::Group("c".into());
    assert_eq!(m(Metric::PooledDropRate(none())), None);
    assert_eq!(m(Metric::FlowMean(none(), FlowStat::SendRate)), None);
    assert_eq!(
        m(Metric::Ratio(
            Box::new(Metric::PooledDropRate(a())),
            Box::new(Metric::PooledDropRate(none()))
        )),
        None
    );
    // best of: a's mean 30 > b's mean 6; equal maxima give the first label.
    let best = vec![
        (1.0, Metric::FlowMean(b(), FlowStat::SendRate)),
        (2.0, Metric::FlowMean(a(), FlowStat::SendRate)),
        (3.0, Metric::Computed(30.0)),
        (4.0, Metric::FlowMean(none(), FlowStat::SendRate)),
    ];
    assert_eq!(m(Metric::ArgMax(best.clone())), Some(2.0));
    assert_eq!(
        m(Metric::Max(best.into_iter().map(|b| b.1).collect())),
        Some(30.0)
    );
    assert_eq!(m(Metric::Computed(1.5)), Some(1.5));
}
