//! `rio-hori2001`: Hori, Ikenaga & Oie, "Queue Management of RIO to achieve high throughput
//! and low delay", 芸術工学研究 3, pp. 23–29, 2001 (seed 002), Tables 1–4 and Figs. 2–6.
//!
//! The network (§2, Fig. 1): sources S1..S20 on 100 Mb/s links of 3..8 ms into router G1;
//! G1->G2 70 Mb/s, 5 ms, RIO with a 300-packet buffer; G2 to D1..D20 on 100 Mb/s, 5 ms
//! links. One bulk TCP flow Si->Di each (500-byte segments), all starting at 0 s; 20 s
//! simulated, statistics over 5..20 s. A TSW tagger per source at G1's input, target rate
//! 5 Mb/s for ten sources and 1 Mb/s for the other ten.
//!
//! RIO (§3): AF11 = In = green (min_th, max_th, max_p) = (200, 250, 1/50); AF12 = Out =
//! yellow (minth_out, maxth_out, maxp_out) with the Out average over the whole queue
//! (Clark & Fang's coupled RIO), weight w_qout.
//!
//! * Table 1 (§3.A): minth_out ∈ {20, 40, 60, 80, 100}, maxth_out 200, maxp_out 1/10,
//!   per TCP variant: throughput, ql_ave, ql_std.
//! * Table 2 (§3.B): maxp_out ∈ {1/2, 1/5, 1/10, 1/20, 1/50, 1/100}, minth_out 60:
//!   ql_zero, ql_ave, ql_std, throughput.
//! * Table 3 (§3.C): w_qout swept, TCP Reno: average, 90th and 99th percentile of the queue
//!   seen by arrivals (values and rows withheld in the seed copy).
//! * Table 4 (§3.C): maxth_out ∈ {150, 200, 250} × maxp_out ∈ {1/10, 1/20, 1/50}, Reno;
//!   4a with w_qout = 0.002, 4b with prompt feedback (w_qout = 1; withheld).
//!
//! The network, the taggers and the TCP settings are those of the base scenario
//! `scenarios/rio-hori2001/base.toml` (compiled in; its header lists its own open choices);
//! each variant overrides the TCP variant of every flow and AF12's RIO parameters. The
//! choices this experiment adds are listed in [`NOTES`] and printed with the results.

use qoslab_algo::Duration;
use qoslab_sim::scenario::spec::{FlowKind, QueueSpec, RioPrecedenceSpec, Scenario, TcpVariant};

use super::experiment::{
    Column, Experiment, Figure, FigureKind, Quick, Row, SeedPolicy, Table, Variant,
};
use super::metric::Metric;

pub const NAME: &str = "rio-hori2001";
pub const BOTTLENECK: &str = "G1->G2";

/// The base scenario (network, taggers, TCP settings; Table 1's thresholds at minth_out 60).
pub const BASE_FILE: &str = "scenarios/rio-hori2001/base.toml";
const BASE: &str = include_str!("../../../../scenarios/rio-hori2001/base.toml");

const NOTES: &[&str] = &[
    "Network, TSW taggers (S1..S10 at 5 Mb/s, S11..S20 at 1 Mb/s, window 1 s) and TCP settings: scenarios/rio-hori2001/base.toml, whose header documents its choices.",
    "Throughput is the bit rate leaving the G1->G2 queue (every packet, headers included), over 5..20 s: the published values (up to 69.78 of 70 Mb/s) count packets on the wire, not payload.",
    "Queue statistics (ql_ave, ql_std, ql_zero, percentiles) are over the queue length seen by arriving packets at G1->G2 (packets waiting, excluding the one being transmitted), 5..20 s; the paper's Table 3 says so explicitly, Tables 1, 2, 4 do not say.",
    "RIO is coupled (the Out average counts In and Out packets: \"an average queue of total packets including In and Out packets\"); In always uses w_q = 0.002, Out uses w_qout.",
    "Table 1: the text says minth \"varies from 10 to 100\" but lists 20, 40, 60, 80, 100 and the table has those five; we run those five.",
    "Table 3: its rows (the w_qout values) are withheld with its values; we run w_qout in {0.002, 0.01, 0.05, 0.1, 0.2, 0.5, 1} with minth_out 60, maxth_out 200, maxp_out 1/10 (the setting of Figs. 2, 5 and the text). Its columns are the average, 90th and 99th percentile of the queue seen by arrivals.",
    "Table 4: maxth is AF12's maxth_out (minth_out 60); AF11 stays (200, 250, 1/50).",
    "Figures: queue length sampled every 10 ms from the seed-1 run (the paper plots it at every arrival); distributions are over the queue seen by arrivals, all seeds pooled. Fig. 5's averaged line is the RIO average over all packets (the Out average of coupled RIO), sampled with the queue.",
];

/// The RIO settings of AF12 (Out) that the tables vary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutParams {
    pub min_th: u32,
    pub max_th: u32,
    /// max_p = 1 / maxp_den.
    pub maxp_den: u32,
    pub w_q: f64,
}

impl OutParams {
    /// The setting §3 settles on: (60, 200, 1/10), w_qout = 0.002.
    pub const CHOSEN: OutParams = OutParams {
        min_th: 60,
        max_th: 200,
        maxp_den: 10,
        w_q: 0.002,
    };
}

pub fn tcp_name(v: TcpVariant) -> &'static str {
    match v {
        TcpVariant::Reno => "Reno",
        TcpVariant::NewReno => "Newreno",
        TcpVariant::Sack => "Sack",
    }
}

const TCPS: [TcpVariant; 3] = [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack];

/// The base scenario, parsed.
pub fn base() -> Result<Scenario, String> {
    let sc = qoslab_sim::scenario::parse_str(BASE, BASE_FILE).map_err(|e| e.to_string())?;
    let ok = sc.links.iter().any(|l| {
        l.name == BOTTLENECK
            && matches!(&l.queue, QueueSpec::Rio { precedences, .. } if precedences.len() == 2)
    });
    if !ok {
        return Err(format!(
            "{BASE_FILE}: no two-precedence RIO queue on {BOTTLENECK}"
        ));
    }
    Ok(sc)
}

/// The base scenario with every flow's TCP variant and AF12's RIO parameters replaced.
pub fn variant(base: &Scenario, tcp: TcpVariant, out: OutParams) -> Variant {
    let mut sc = base.clone();
    for f in &mut sc.flows {
        if let FlowKind::Tcp(spec) = &mut f.kind {
            // "Three TCP variants were treated here: Reno, Newreno, and SACK."
            spec.variant = tcp;
        }
    }
    for l in sc.links.iter_mut().filter(|l| l.name == BOTTLENECK) {
        if let QueueSpec::Rio { precedences, .. } = &mut l.queue {
            // For AF12: (minth, maxth, maxp) = (minth_out, maxth_out, maxp_out), weight w_qout
            precedences[1] = RioPrecedenceSpec {
                min_th: out.min_th as f64,
                max_th: out.max_th as f64,
                max_p: 1.0 / out.maxp_den as f64,
                w_q: out.w_q,
            };
        }
    }
    let key = format!(
        "{} minth_out={} maxth_out={} maxp_out=1/{} w_qout={}",
        tcp_name(tcp),
        out.min_th,
        out.max_th,
        out.maxp_den,
        out.w_q
    );
    sc.name = format!("{NAME} {key}");
    Variant {
        key,
        scenario: sc,
        seeds: SeedPolicy::Replicate,
    }
}

fn col(name: &'static str, decimals: usize) -> Column {
    Column { name, decimals }
}

fn link() -> String {
    BOTTLENECK.to_string()
}

pub fn experiment() -> Result<Experiment, String> {
    let base = base()?;
    let mut e = Experiment {
        name: NAME,
        title: "Queue management of RIO to achieve high throughput and low delay",
        source: "Y. Hori, T. Ikenaga, Y. Oie, Geijutsu Kogaku Kenkyu 3, pp. 23-29, 2001 (seed 002)",
        variants: Vec::new(),
        tables: Vec::new(),
        figures: Vec::new(),
        // With the TSW taggers in the engine, 100 variants x 5 seeds took 58 s on 2 cores,
        // so the default (10 seeds) takes about two minutes and --quick (3 seeds) ~20 s.
        seeds: 10,
        quick: Quick {
            seeds: 3,
            duration: Duration::from_secs(20),
            warmup: Duration::from_secs(5),
        },
        notes: NOTES.iter().map(|s| s.to_string()).collect(),
    };
    // Table 1: throughput, ql_ave, ql_std per minth_out and TCP.
    let mut rows = Vec::new();
    for min_th in [20, 40, 60, 80, 100] {
        for tcp in TCPS {
            let v = e.variant(variant(
                &base,
                tcp,
                OutParams {
                    min_th,
                    ..OutParams::CHOSEN
                },
            ));
            rows.push(Row {
                keys: vec![min_th.to_string(), tcp_name(tcp).into()],
                variant: v,
                cells: vec![
                    Metric::LinkThroughputMbps(link()),
                    Metric::QueueMean(link()),
                    Metric::QueueStd(link()),
                ],
            });
        }
    }
    e.tables.push(Table {
        id: "1",
        title: "Total throughput (Mb/s) and queue length (packets) vs minth_out".into(),
        source: "Hori et al. 2001, Tbl. 1".into(),
        keys: vec!["minth_out", "tcp"],
        columns: vec![col("throughput", 2), col("ql_ave", 2), col("ql_std", 2)],
        rows,
        published: Some("rio-hori2001/table1.csv"),
    });
    // Table 2: maxp_out sweep per TCP.
    let quad = || {
        vec![
            Metric::QueueEmpty(link()),
            Metric::QueueMean(link()),
            Metric::QueueStd(link()),
            Metric::LinkThroughputMbps(link()),
        ]
    };
    let quad_cols = || {
        vec![
            col("ql_zero", 3),
            col("ql_ave", 2),
            col("ql_std", 2),
            col("throughput", 2),
        ]
    };
    let mut rows = Vec::new();
    for tcp in TCPS {
        for den in [2, 5, 10, 20, 50, 100] {
            let v = e.variant(variant(
                &base,
                tcp,
                OutParams {
                    maxp_den: den,
                    ..OutParams::CHOSEN
                },
            ));
            rows.push(Row {
                keys: vec![tcp_name(tcp).into(), format!("1/{den}")],
                variant: v,
                cells: quad(),
            });
        }
    }
    e.tables.push(Table {
        id: "2",
        title: "Queue length characteristics and throughput vs maxp_out".into(),
        source: "Hori et al. 2001, Tbl. 2".into(),
        keys: vec!["tcp", "maxp"],
        columns: quad_cols(),
        rows,
        published: Some("rio-hori2001/table2.csv"),
    });
    // Table 3: w_qout sweep, Reno (rows are our choice: the seed withholds them).
    let mut rows = Vec::new();
    for w in [0.002, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0] {
        let v = e.variant(variant(
            &base,
            TcpVariant::Reno,
            OutParams {
                w_q: w,
                ..OutParams::CHOSEN
            },
        ));
        rows.push(Row {
            keys: vec![format!("{w}")],
            variant: v,
            cells: vec![
                Metric::QueueMean(link()),
                Metric::QueueP90(link()),
                Metric::QueueP99(link()),
            ],
        });
    }
    e.tables.push(Table {
        id: "3",
        title: "Queue length seen by arrivals vs w_qout, TCP Reno".into(),
        source: "Hori et al. 2001, Tbl. 3 (withheld in the seed copy)".into(),
        keys: vec!["w_qout"],
        columns: vec![col("ql_ave", 2), col("ql_p90", 0), col("ql_p99", 0)],
        rows,
        published: Some("rio-hori2001/table3.csv"),
    });
    // Table 4: maxth_out × maxp_out, EWMA (4a) and prompt feedback (4b), Reno.
    let mut rows = Vec::new();
    for w in [0.002, 1.0] {
        for max_th in [150, 200, 250] {
            for den in [10, 20, 50] {
                let v = e.variant(variant(
                    &base,
                    TcpVariant::Reno,
                    OutParams {
                        max_th,
                        maxp_den: den,
                        w_q: w,
                        ..OutParams::CHOSEN
                    },
                ));
                rows.push(Row {
                    keys: vec![format!("{w}"), max_th.to_string(), format!("1/{den}")],
                    variant: v,
                    cells: quad(),
                });
            }
        }
    }
    e.tables.push(Table {
        id: "4",
        title: "Characteristics vs maxth_out and maxp_out, EWMA (w_qout 0.002, Tbl. 4a) and prompt feedback (w_qout 1, Tbl. 4b), TCP Reno".into(),
        source: "Hori et al. 2001, Tbl. 4a and 4b (4b withheld in the seed copy)".into(),
        keys: vec!["w_qout", "maxth", "maxp"],
        columns: quad_cols(),
        rows,
        published: Some("rio-hori2001/table4.csv"),
    });
    delay_table(&mut e, &base);
    // Figures.
    let chosen: Vec<(String, usize)> = TCPS
        .iter()
        .map(|&t| {
            (
                tcp_name(t).to_string(),
                e.variant(variant(&base, t, OutParams::CHOSEN)),
            )
        })
        .collect();
    let reno = chosen[0].1;
    e.figures.push(Figure {
        id: "fig2",
        title: "Fig. 2: dynamics of queue length (minth_out 60, maxp_out 1/10, w_qout 0.002)"
            .into(),
        kind: FigureKind::QueueSeries {
            link: link(),
            series: chosen.clone(),
            with_avg: false,
        },
    });
    e.figures.push(Figure {
        id: "fig3",
        title: "Fig. 3: distribution of queue length (minth_out 60, maxp_out 1/10)".into(),
        kind: FigureKind::QueueCdf {
            link: link(),
            series: chosen,
        },
    });
    let maxps: Vec<(String, usize)> = [2, 5, 10, 20, 50, 100]
        .iter()
        .map(|&den| {
            (
                format!("maxp 1/{den}"),
                e.variant(variant(
                    &base,
                    TcpVariant::Reno,
                    OutParams {
                        maxp_den: den,
                        ..OutParams::CHOSEN
                    },
                )),
            )
        })
        .collect();
    e.figures.push(Figure {
        id: "fig4",
        title: "Fig. 4: queue length distribution in TCP Reno vs maxp_out".into(),
        kind: FigureKind::QueueCdf {
            link: link(),
            series: maxps,
        },
    });
    e.figures.push(Figure {
        id: "fig5",
        title: "Fig. 5: queue length and its EWMA (Reno, maxp_out 1/10, w_qout 0.002)".into(),
        kind: FigureKind::QueueSeries {
            link: link(),
            series: vec![("Reno".into(), reno)],
            with_avg: true,
        },
    });
    let prompt = e.variant(variant(
        &base,
        TcpVariant::Reno,
        OutParams {
            w_q: 1.0,
            ..OutParams::CHOSEN
        },
    ));
    e.figures.push(Figure {
        id: "fig6",
        title: "Fig. 6: queue length dynamics in RIO with prompt feedback (Reno, w_qout 1)".into(),
        kind: FigureKind::QueueSeries {
            link: link(),
            series: vec![("Reno, prompt feedback".into(), prompt)],
            with_avg: false,
        },
    });
    Ok(e)
}

/// Table D (ours only): the delay behind the paper's "low delay" claim, which it argues from
/// queue lengths alone and gives no delay figures for. Table 1's runs (no extra simulation):
/// the sojourn time at G1->G2 (waiting before transmission; all, In = AF11 = green, Out =
/// AF12 = yellow packets) and the flows' one-way delay and RFC 3550 jitter, averaged over
/// the 20 flows (`qoslab_sim::measure::delay`).
fn delay_table(e: &mut Experiment, base: &Scenario) {
    use super::metric::{FlowSel, FlowStat};
    use qoslab_algo::Color;
    let mut rows = Vec::new();
    for min_th in [20, 40, 60, 80, 100] {
        for tcp in TCPS {
            let v = e.variant(variant(
                base,
                tcp,
                OutParams {
                    min_th,
                    ..OutParams::CHOSEN
                },
            ));
            rows.push(Row {
                keys: vec![min_th.to_string(), tcp_name(tcp).into()],
                variant: v,
                cells: vec![
                    Metric::SojournMeanMs(link(), None),
                    Metric::SojournP99Ms(link()),
                    Metric::SojournMeanMs(link(), Some(Color::Green)),
                    Metric::SojournMeanMs(link(), Some(Color::Yellow)),
                    Metric::FlowMean(FlowSel::All, FlowStat::DelayMeanMs),
                    Metric::FlowMean(FlowSel::All, FlowStat::DelayP99Ms),
                    Metric::FlowMean(FlowSel::All, FlowStat::JitterMs),
                ],
            });
        }
    }
    e.tables.push(Table {
        id: "d",
        title: "Delay (ms, ours only: the paper gives none) vs minth_out: G1->G2 sojourn mean and p99, In and Out sojourn means; flows' one-way delay mean and p99 and RFC 3550 jitter, averaged over the 20 flows".into(),
        source: "ours (Table 1's runs; the paper's \"low delay\" claim, §1 and §4)".into(),
        keys: vec!["minth_out", "tcp"],
        columns: vec![
            col("sojourn_mean", 3),
            col("sojourn_p99", 3),
            col("in_sojourn", 3),
            col("out_sojourn", 3),
            col("owd_mean", 3),
            col("owd_p99", 3),
            col("jitter", 3),
        ],
        rows,
        published: None,
    });
}
