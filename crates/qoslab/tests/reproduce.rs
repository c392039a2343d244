//! Tests of `qoslab reproduce` on a small UDP experiment defined here, and of the
//! published-data files and experiment definitions.

use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::NodeKind;

use qoslab::reproduce;
use reproduce::experiment::{
    Column, Experiment, Figure, FigureKind, Quick, Row, SeedPolicy, Table, Variant,
};
use reproduce::metric::{FlowSel, Metric};
use reproduce::published;
use reproduce::stats::Summary;
use reproduce::{Options, ReproduceError};

const LINK: &str = "R->H2";

/// H1 -> R -> H2 with a 10 Mb/s RED bottleneck and one Poisson flow of `rate_mbps`.
fn udp_variant(rate_mbps: u64) -> Variant {
    let text = format!(
        r#"
name = "udp-test"
duration = "1.5s"
warmup = "0.5s"
output = {{ sample_interval = "10ms", monitor = ["{LINK}"] }}
node = [{{ name = "H1" }}, {{ name = "R", kind = "router" }}, {{ name = "H2" }}]

[[link]]
from = "H1"
to = "R"
rate = "100Mbps"
delay = "1ms"
queue = {{ kind = "drop-tail", limit = "1000p" }}

[[link]]
from = "R"
to = "H2"
rate = "10Mbps"
delay = "5ms"
queue = {{ kind = "red", limit = "100p", min_th = 5, max_th = 15, max_p = 0.1, w_q = 0.002, gentle = false, mean_pkt_size = "500B" }}
reverse_queue = {{ kind = "drop-tail", limit = "100p" }}

[[flow]]
name = "u1"
src = "H1"
dst = "H2"
kind = "poisson"
rate = "{rate_mbps}Mbps"
size = "500B"
"#
    );
    let scenario = qoslab_sim::scenario::parse_str(&text, "udp-test.toml").unwrap();
    Variant {
        key: format!("poisson {rate_mbps} Mb/s"),
        scenario,
        seeds: SeedPolicy::Replicate,
    }
}

/// A test experiment whose table borrows the keys of the RIO paper's Table 4 file, so
/// that some rows have published values (w_qout 0.002, Tbl. 4a) and some do not (w_qout 1,
/// Tbl. 4b, withheld).
fn udp_experiment() -> Experiment {
    let mut e = Experiment {
        name: "udp-test",
        title: "test",
        source: "none",
        variants: Vec::new(),
        tables: Vec::new(),
        figures: Vec::new(),
        seeds: 3,
        quick: Quick {
            seeds: 2,
            duration: Duration::from_millis(800),
            warmup: Duration::from_millis(200),
        },
        notes: vec!["a note".into()],
    };
    let lo = e.variant(udp_variant(8));
    let hi = e.variant(udp_variant(12));
    assert_eq!(e.variant(udp_variant(8)), lo, "same key, same variant");
    let cells = || {
        vec![
            Metric::QueueEmpty(LINK.into()),
            Metric::QueueMean(LINK.into()),
            Metric::QueueStd(LINK.into()),
            Metric::GoodputMbps(FlowSel::All),
        ]
    };
    e.tables.push(Table {
        id: "t",
        title: "UDP through RED".into(),
        source: "test".into(),
        keys: vec!["w_qout", "maxth", "maxp"],
        columns: vec![
            Column {
                name: "ql_zero",
                decimals: 3,
            },
            Column {
                name: "ql_ave",
                decimals: 2,
            },
            Column {
                name: "ql_std",
                decimals: 2,
            },
            Column {
                name: "throughput",
                decimals: 2,
            },
        ],
        rows: vec![
            Row {
                keys: vec!["0.002".into(), "150".into(), "1/10".into()],
                variant: lo,
                cells: cells(),
            },
            Row {
                keys: vec!["1".into(), "150".into(), "1/10".into()],
                variant: hi,
                cells: cells(),
            },
        ],
        published: Some("rio-hori2001/table4.csv"),
    });
    e.figures.push(Figure {
        id: "figq",
        title: "queue <over> time".into(),
        kind: FigureKind::QueueSeries {
            link: LINK.into(),
            series: vec![("eight".into(), lo), ("twelve".into(), hi)],
            with_avg: true,
        },
    });
    e.figures.push(Figure {
        id: "figd",
        title: "distribution".into(),
        kind: FigureKind::QueueCdf {
            link: LINK.into(),
            series: vec![("eight".into(), lo), ("twelve".into(), hi)],
        },
    });
    e
}

fn opts(threads: usize) -> Options {
    Options {
        table: None,
        seeds: Some(3),
        quick: false,
        threads,
        progress: false,
    }
}

fn file<'a>(o: &'a reproduce::Outcome, name: &str) -> &'a str {
    &o.files
        .iter()
        .find(|f| f.0 == name)
        .unwrap_or_else(|| panic!("no file {name}"))
        .1
}

#[test]
fn identical_output_for_one_and_two_threads() {
    let e = udp_experiment();
    let one = reproduce::reproduce(&e, &opts(1)).unwrap();
    let two = reproduce::reproduce(&e, &opts(2)).unwrap();
    assert_eq!(one.runs, 6);
    assert_eq!(one, two);
    // The runs differ by seed (so the identity above is not trivial).
    let runs = file(&one, "table_t_runs.csv");
    let vals: Vec<&str> = runs
        .lines()
        .filter(|l| l.starts_with("0.002,150,1/10,ql_ave,"))
        .collect();
    assert_eq!(vals.len(), 3);
    assert!(vals[0].rsplit(',').next() != vals[1].rsplit(',').next());
}

#[test]
fn csv_means_and_intervals_match_the_runs() {
    let e = udp_experiment();
    let o = reproduce::reproduce(&e, &opts(2)).unwrap();
    let table = file(&o, "table_t.csv");
    let runs = file(&o, "table_t_runs.csv");
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some("w_qout,maxth,maxp,column,runs,ours_mean,ours_ci95,published,diff,diff_pct")
    );
    let mut n = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 10, "{l}");
        let prefix = format!("{},{},{},{},", f[0], f[1], f[2], f[3]);
        let xs: Vec<f64> = runs
            .lines()
            .filter(|r| r.starts_with(&prefix))
            .map(|r| r.rsplit(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(xs.len(), 3);
        assert_eq!(f[4], "3");
        let s = Summary::of(&xs);
        assert!((f[5].parse::<f64>().unwrap() - s.mean).abs() < 1e-5, "{l}");
        assert!(
            (f[6].parse::<f64>().unwrap() - s.ci95.unwrap()).abs() < 1e-5,
            "{l}"
        );
        n += 1;
    }
    assert_eq!(n, 8, "two rows x four columns");
}

#[test]
fn missing_published_values_print_ours_alone() {
    let e = udp_experiment();
    let o = reproduce::reproduce(&e, &opts(2)).unwrap();
    println!("{}", o.text);
    let table = file(&o, "table_t.csv");
    // Tbl. 4a (w_qout 0.002, maxth 150, maxp 1/10): ql_ave published 40.97.
    let with = table
        .lines()
        .find(|l| l.starts_with("0.002,150,1/10,ql_ave,"))
        .unwrap();
    let f: Vec<&str> = with.split(',').collect();
    assert_eq!(f[7], "40.970000");
    let mean: f64 = f[5].parse().unwrap();
    assert!((f[8].parse::<f64>().unwrap() - (mean - 40.97)).abs() < 1e-5);
    assert!((f[9].parse::<f64>().unwrap() - 100.0 * (mean - 40.97) / 40.97).abs() < 1e-2);
    // Tbl. 4b is withheld: published, diff and diff % empty.
    let without = table
        .lines()
        .find(|l| l.starts_with("1,150,1/10,ql_ave,"))
        .unwrap();
    assert!(without.ends_with(",,,"), "{without}");
    assert!(!without.split(',').nth(5).unwrap().is_empty());
    // The text: the published column shows a dash and there is no difference.
    let line = o
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("1 ") && l.contains("ql_zero"))
        .unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    // 1, 150, 1/10, ql_zero, ours, ±95%, published "—" and nothing after it.
    assert_eq!(fields.len(), 7, "{line}");
    assert_eq!(fields[6], "—");
    let line = o
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("0.002 ") && l.contains("ql_zero"))
        .unwrap();
    assert_eq!(line.split_whitespace().nth(6), Some("0.070"), "{line}");
    assert!(line.trim_end().ends_with('%'), "{line}");
    assert!(o.text.contains("a note"));
}

/// Tags open and close in order (a small XML well-formedness check).
fn balanced(svg: &str) -> Result<usize, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut count = 0;
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').ok_or("unclosed <")? + i;
        let tag = &rest[i + 1..j];
        rest = &rest[j + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or(format!("stray </{name}>"))?;
            if open != name.trim() {
                return Err(format!("<{open}> closed by </{name}>"));
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
        count += 1;
        // Attribute values must not hold raw markup.
        if !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("odd quotes in <{tag}>"));
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed {stack:?}"));
    }
    Ok(count)
}

#[test]
fn figures_are_well_formed_svg_with_their_series() {
    let e = udp_experiment();
    let o = reproduce::reproduce(&e, &opts(2)).unwrap();
    for (name, series) in [
        (
            "figq.svg",
            &["eight", "twelve", "eight (average)", "twelve (average)"][..],
        ),
        ("figd.svg", &["eight", "twelve"][..]),
    ] {
        let svg = file(&o, name);
        assert!(svg.starts_with("<svg"), "{name}");
        assert!(balanced(svg).unwrap() > 20, "{name}");
        for s in series {
            assert!(
                svg.contains(&format!("data-name=\"{s}\"")),
                "{name} lacks {s}"
            );
        }
        assert!(svg.contains("<path d=\"M"), "{name} draws no line");
    }
    // The title's markup is escaped.
    assert!(file(&o, "figq.svg").contains("queue &lt;over&gt; time"));
    assert!(balanced("<svg><g></svg>").is_err());
    assert!(balanced("<svg><g/></svg>").is_ok());
}

#[test]
fn files_are_written_and_selection_by_table_works() {
    let e = udp_experiment();
    let mut o = opts(2);
    o.table = Some("figd".into());
    o.quick = true;
    o.seeds = None;
    let out = reproduce::reproduce(&e, &o).unwrap();
    // Quick: 2 seeds of both variants, no table.
    assert_eq!(out.runs, 4);
    let names: Vec<&str> = out.files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["report.txt", "figd.svg"]);
    let dir = std::env::temp_dir().join(format!("qoslab-reproduce-test-{}", std::process::id()));
    reproduce::write_files(&dir, &out.files).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("figd.svg")).unwrap(),
        out.files[1].1
    );
    std::fs::remove_dir_all(&dir).unwrap();

    o.table = Some("nope".into());
    let err = reproduce::reproduce(&e, &o).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(err.to_string().contains("known: t, figq, figd"), "{err}");
    o.table = None;
    o.seeds = Some(0);
    assert_eq!(reproduce::reproduce(&e, &o).unwrap_err().exit_code(), 2);
}

#[test]
fn published_files_load_with_their_row_counts() {
    // (file, key columns, rows, rows with values)
    let expected: [(&str, &[&str], usize, usize); 10] = [
        ("rio-hori2001/table1.csv", &["minth_out", "tcp"], 15, 15),
        ("rio-hori2001/table2.csv", &["tcp", "maxp"], 18, 18),
        ("rio-hori2001/table3.csv", &["w_qout"], 0, 0),
        (
            "rio-hori2001/table4.csv",
            &["w_qout", "maxth", "maxp"],
            18,
            9,
        ),
        ("rfc2963/table_a2.csv", &["cir", "router"], 5, 0),
        ("rfc2963/table_a3.csv", &["cir", "router"], 5, 5),
        ("rfc2963/table_a4.csv", &["cbs_kbytes"], 0, 0),
        ("rfc2963/table_a5.csv", &["cir", "router"], 5, 5),
        ("rfc2963/table_a6.csv", &["cir", "router"], 5, 0),
        ("rfc2963/table_a7.csv", &["cbs_kbytes"], 0, 0),
    ];
    assert_eq!(published::files().count(), expected.len());
    for (f, keys, rows, with_values) in expected {
        let p = published::load(f).unwrap();
        assert_eq!(p.rows.len(), rows, "{f}");
        assert_eq!(p.rows_with_values(keys), with_values, "{f}");
        assert!(
            p.notes.iter().any(|n| n.starts_with("Source:")),
            "{f} names its source"
        );
        // The file on disk is the one compiled in.
        let disk =
            std::fs::read_to_string(format!("{}/../../data/{f}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        assert_eq!(published::Published::parse(f, &disk).unwrap(), p);
    }
    // Spot checks against the seed copies.
    let t1 = published::load("rio-hori2001/table1.csv").unwrap();
    let k = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    assert_eq!(
        t1.value(&["minth_out", "tcp"], &k("60", "Newreno"), "ql_ave"),
        Some(53.20)
    );
    assert_eq!(
        t1.value(&["minth_out", "tcp"], &k("100", "Sack"), "ql_std"),
        Some(36.99)
    );
    let t2 = published::load("rio-hori2001/table2.csv").unwrap();
    assert_eq!(
        t2.value(&["tcp", "maxp"], &k("Newreno", "1/100"), "throughput"),
        Some(69.78)
    );
    assert_eq!(
        t2.value(&["tcp", "maxp"], &k("Reno", "1/2"), "ql_zero"),
        Some(0.170)
    );
    let a3 = published::load("rfc2963/table_a3.csv").unwrap();
    assert_eq!(
        a3.value(&["cir", "router"], &k("8Mbps", "C9"), "total"),
        Some(10.1)
    );
    let a5 = published::load("rfc2963/table_a5.csv").unwrap();
    assert_eq!(
        a5.value(&["cir", "router"], &k("2Mbps", "C1"), "yellow"),
        Some(0.95)
    );
    // Every published row of Tables 1, 2, 4a is the same where the settings coincide
    // (minth 60, maxp 1/10, maxth 200, Reno), as printed in the paper.
    let t4 = published::load("rio-hori2001/table4.csv").unwrap();
    let k3 = vec!["0.002".to_string(), "200".to_string(), "1/10".to_string()];
    assert_eq!(
        t4.value(&["w_qout", "maxth", "maxp"], &k3, "ql_ave"),
        Some(49.72)
    );
    assert_eq!(
        t2.value(&["tcp", "maxp"], &k("Reno", "1/10"), "ql_ave"),
        Some(49.72)
    );
}

#[test]
fn experiment_definitions_are_consistent_and_match_their_data_files() {
    let exps = reproduce::registry().unwrap();
    assert_eq!(
        exps.iter().map(|e| e.name).collect::<Vec<_>>(),
        reproduce::NAMES
    );
    for e in &exps {
        e.check().unwrap();
        for t in &e.tables {
            // A table of ours only (rio-hori2001 Table d: delay, which the paper gives no
            // figures for) has no data file and says so in its source.
            let Some(file) = t.published else {
                assert!(
                    t.source.starts_with("ours"),
                    "{} table {}: no data file",
                    e.name,
                    t.id
                );
                continue;
            };
            let p = published::load(file).unwrap();
            for c in &t.columns {
                assert!(
                    p.columns.iter().any(|x| x == c.name),
                    "{} table {}: column {}",
                    e.name,
                    t.id,
                    c.name
                );
            }
            // Every published row with values is matched by a row of ours.
            for pr in &p.rows {
                let keys: Vec<String> = t
                    .keys
                    .iter()
                    .map(|k| pr.fields[p.columns.iter().position(|c| c == k).unwrap()].clone())
                    .collect();
                assert!(
                    t.rows.iter().any(|r| r.keys == keys),
                    "{} table {}: published row {:?} not run",
                    e.name,
                    t.id,
                    keys
                );
            }
        }
        // Every variant is accepted by the engine; the AF experiments' with their ingress
        // conditioners (RFC 4828's scenarios have none).
        for v in &e.variants {
            qoslab_sim::Simulator::new(v.scenario.clone(), 1)
                .unwrap_or_else(|m| panic!("{}: {m}", v.key));
            if e.name != "rfc4828" {
                assert!(
                    v.scenario.links.iter().any(|l| l.conditioner.is_some()),
                    "{}",
                    v.key
                );
            }
        }
    }
    let rio = &exps[0];
    let rows: Vec<usize> = rio.tables.iter().map(|t| t.rows.len()).collect();
    assert_eq!(rows, [15, 18, 7, 18, 15]);
    // 15 (T1) + 15 new in T2 + 6 new in T3 + 6 new in T4a + 8 new in T4b; Table d (delay)
    // reads Table 1's runs and adds none.
    assert_eq!(rio.variants.len(), 50);
    let rfc = &exps[1];
    assert_eq!(
        rfc.tables.iter().map(|t| t.rows.len()).collect::<Vec<_>>(),
        [5, 5, 5, 5, 5, 5]
    );
    // Two CBS sweeps of five, sharing the 3 KB runs of A.2/A.3 and A.5/A.6.
    assert_eq!(rfc.variants.len(), 10);
}

#[test]
fn variants_differ_only_where_the_tables_say() {
    use qoslab_algo::shaper::ShaperParams;
    use qoslab_sim::scenario::spec::{FlowKind, MeterSpec, QueueSpec, TcpVariant};
    let exps = reproduce::registry().unwrap();
    let rio = &exps[0];
    let t2 = &rio.tables[1];
    // Table 2, row "Sack, 1/50": every flow SACK, AF12 max_p 1/50, the rest as the base.
    let row = t2.rows.iter().find(|r| r.keys == ["Sack", "1/50"]).unwrap();
    let sc = &rio.variants[row.variant].scenario;
    assert!(sc
        .flows
        .iter()
        .all(|f| matches!(&f.kind, FlowKind::Tcp(t) if t.variant == TcpVariant::Sack)));
    let base = reproduce::rio_hori2001::base().unwrap();
    for (l, b) in sc.links.iter().zip(&base.links) {
        if l.name == "G1->G2" {
            let QueueSpec::Rio { precedences, .. } = &l.queue else {
                panic!("RIO")
            };
            assert_eq!(
                precedences[0].max_p,
                1.0 / 50.0,
                "AF11 stays (200, 250, 1/50)"
            );
            assert_eq!(
                (
                    precedences[1].min_th,
                    precedences[1].max_th,
                    precedences[1].max_p
                ),
                (60.0, 200.0, 1.0 / 50.0)
            );
        } else {
            assert_eq!(l, b);
        }
    }
    // RFC 2963: C6..C10 shaped, C1..C5 not; the CBS of the A.4 row is on every trTCM.
    let rfc = &exps[1];
    let base = reproduce::rfc2963::base().unwrap();
    let a4 = rfc.tables.iter().find(|t| t.id == "a4").unwrap();
    assert_eq!(a4.rows[2].keys, ["30"]);
    let sc = &rfc.variants[a4.rows[2].variant].scenario;
    assert_eq!(
        (&sc.nodes, &sc.flows, &sc.output),
        (&base.nodes, &base.flows, &base.output)
    );
    for (l, b) in sc.links.iter().zip(&base.links) {
        let Some(c) = (1..=10).find(|c| l.name == format!("C{c}->ER1")) else {
            assert_eq!(l, b, "only the customer links' conditioners change");
            continue;
        };
        assert_eq!((l.rate, l.delay, &l.queue), (b.rate, b.delay, &b.queue));
        let cond = l.conditioner.as_ref().unwrap();
        assert_eq!(cond.shaper.is_some(), c > 5, "C{c}");
        let expect: &[&str] = if c > 5 {
            &["trras", "trtcm"]
        } else {
            &["trtcm"]
        };
        assert_eq!(cond.kinds, expect);
        // CBS 30 KB, PBS = 2 CBS; CIR and PIR as in base.toml.
        let (MeterSpec::TrTcm(t), MeterSpec::TrTcm(bt)) =
            (cond.meters[0], b.conditioner.as_ref().unwrap().meters[0])
        else {
            panic!("C{c}: not a trTCM")
        };
        assert_eq!(
            (t.cbs, t.pbs, t.cir, t.pir),
            (30_000, 60_000, bt.cir, bt.pir)
        );
        if let Some(ShaperParams::Ras(r)) = &cond.shaper {
            // CIR_th = CBS, PIR_th = PBS, MIR_th = 2 PBS; buffer 640 KB >= MIR_th.
            assert_eq!(
                (r.cir_th(), r.pir_th(), r.mir_th(), r.buffer()),
                (30_000, 60_000, 120_000, 640_000)
            );
        }
    }
    // The A.2/A.3 variant (trRAS, CBS 3 KB) is base.toml itself; A.5/A.6 swaps in G-trRAS.
    let a2 = &rfc.tables[0];
    let mut sc = rfc.variants[a2.rows[0].variant].scenario.clone();
    sc.name = base.name.clone();
    assert_eq!(sc, base);
    let a6 = rfc.tables.iter().find(|t| t.id == "a6").unwrap();
    let sc = &rfc.variants[a6.rows[0].variant].scenario;
    let l = sc.links.iter().find(|l| l.name == "C6->ER1").unwrap();
    let cond = l.conditioner.as_ref().unwrap();
    assert_eq!(cond.kinds, ["g-trras", "trtcm"]);
    let b = base.links.iter().find(|l| l.name == "C6->ER1").unwrap();
    let Some(ShaperParams::Ras(want)) = &b.conditioner.as_ref().unwrap().shaper else {
        panic!("base C6: a trRAS")
    };
    assert_eq!(cond.shaper, Some(ShaperParams::GreenRas(*want)));
    // The largest CBS raises the shaper buffer to MIR_th = 4 CBS (RFC 2963 §2.4).
    let a7 = rfc.tables.iter().find(|t| t.id == "a7").unwrap();
    let sc = &rfc.variants[a7.rows[4].variant].scenario;
    let l = sc.links.iter().find(|l| l.name == "C8->ER1").unwrap();
    let Some(ShaperParams::GreenRas(r)) = &l.conditioner.as_ref().unwrap().shaper else {
        panic!("C8: a G-trRAS")
    };
    assert_eq!((r.mir_th(), r.buffer()), (1_200_000, 1_200_000));
}

#[test]
fn rio_experiment_runs_end_to_end() {
    // One 20 s run (Fig. 6): the whole pipeline on the real experiment.
    let exps = reproduce::registry().unwrap();
    let o = Options {
        table: Some("fig6".into()),
        seeds: Some(1),
        quick: true,
        threads: 1,
        progress: false,
    };
    let out = reproduce::reproduce(&exps[0], &o).unwrap();
    assert_eq!(out.runs, 1);
    let svg = &out.files[1].1;
    assert!(balanced(svg).is_ok());
    assert!(svg.contains("data-name=\"Reno, prompt feedback\""));
}

#[test]
fn refused_scenarios_and_unknown_names_are_reported() {
    let mut e = udp_experiment();
    // A flow to a node without links: the engine refuses the scenario.
    let sc = &mut e.variants[1].scenario;
    sc.nodes.push(qoslab_sim::scenario::spec::NodeSpec {
        name: "X".into(),
        kind: NodeKind::Host,
    });
    sc.flows[0].dst = sc.nodes.len() - 1;
    match reproduce::reproduce(&e, &opts(1)) {
        Err(err @ ReproduceError::Unsupported(_)) => {
            assert_eq!(err.exit_code(), 1);
            assert!(err.to_string().contains("no route"), "{err}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let err = reproduce::run(reproduce::ReproduceArgs {
        name: "nope".into(),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(err.to_string().contains("rio-hori2001, rfc2963"));
}
