//! The tables of the reproduction: which configurations each needs, which metric each cell
//! reads, and the published cell beside it.

use std::fmt::Write as _;

use qoslab_sim::pcn::measure::DelayStats;
use qoslab_sim::pcn::spec::Scheme;
use qoslab_sim::pcn::PcnResult;

use super::configs::{self, Quick, Topo, TRAFFIC};
use super::published::{self, Csv};
use super::{figures, Plan, Results};
use crate::reproduce::stats::Summary;
use crate::reproduce::ReproduceError;

/// Tables and figures, in report order.
pub const IDS: &[&str] = &[
    "b1",
    "b2",
    "b3",
    "b4",
    "b5",
    "b6",
    "b7",
    "b8",
    "c1",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "d",
    "fig_marking",
    "fig_termination",
    "fig_fairness",
];

pub const NOTES: &str = "
Choices (all are scenario knobs; see scenarios/pcn-stm/*.toml and README.md there):
  - STM marker: the rewritten §3.1 pseudo-code, N = 3, MkTB threshold read literally (full zone when fill < 8 ms at SR).
  - CLE: per-packet EWMA, weight on the newest sample, cle0 = 0; a request's own mark updates the CLE before the answer.
  - Signalling: request = a data-size PCN packet, metered at each PCN link, no queueing; answer after the reverse path's
    propagation + transmission; reports/cancels after the one-way propagation. Blocked calls are lost.
  - OA = 100 (X - D)/D per link over the window, X = admitted calls' packets (data and requests), D = AR - rejected requests' rate.
  - OT = 100 (SR - measured rate over the window)/SR per link. Termination time: first termination of a flow crossing the
    link -> the termination after which its nominal rate (active flows x nominal mean) < SR; 'tt' = raw + 0.1 s (STM) /
    0.2 s (CL) as §12.1 says the tables include; 'tt_raw' without it.
  - STM egress: R over the last 33.3 ms, reports only while the marked run lasts (Variant A); STM ingress: back-to-back
    100 ms rounds, R_min over the reports received during a round (the report that starts a round only starts it).
  - CL: VQ ramp 5/15/20 ms at AR (add, then test). Termination as the draft's CL reference simulated it
    (draft-briscoe-tsvwg-cl-phb-03; the abstract's 'CL [draft-briscoe-tsvwg-cl-phb-03]', §10.3's '200 ms for CL'):
    §3.2 pre-emption token bucket 5 ms at SR (marked iff fewer tokens than the packet, then none removed; already-PM
    packets not metered); §10.4.1 edge: the first PM packet opens a 100 ms SAR interval at the egress (SAR = non-PM
    rate), its report opens the ingress's 100 ms sending-rate interval, at whose end S - SAR is terminated; no wait
    between rounds, no error terms. (RFC 5670/6661's CL: `edge = 'rfc6661'`, `excess_meter = 'size-independent'`.)
  - Termination population: 0.9 AR from t = 0, extra flows at 50 s to 1.25 / 2.0 SR counted in flows (SVD at 4 Mb/s:
    actual 1.275 / 2.04 SR at 4.08 Mb/s), spread like the base load; victims uniform among the IEA's active flows until
    their nominal rate covers the amount.
  - VBR PLT call interval 0.01 s per IEA as printed (6.67 AR per link, map §7.6); SVD nominal 4.08 Mb/s (map §7.4).
  - B.2's PLT(c) min/max run over the five links too. Case ranking: mean |OA| over every traffic x topology (x link) cell.
";

type Metric = Box<dyn Fn(&PcnResult) -> Option<f64>>;
/// (traffic, topology, per case: (configuration, links)).
type B2Cell = (String, String, Vec<(usize, usize)>);

/// Where a cell's values come from.
pub enum Src {
    /// One value per seed of configuration `c`.
    Seeds(usize, Metric),
    /// A value computed from several configurations' seed means (no interval).
    Derived(Box<dyn Fn(&Results) -> f64>),
}

pub struct Cell {
    pub col: &'static str,
    pub src: Src,
    pub published: Option<f64>,
}

pub struct Row {
    pub keys: Vec<String>,
    pub cells: Vec<Cell>,
}

type Extra = Box<dyn Fn(&Results) -> (String, Vec<(String, String)>)>;

pub struct TableDef {
    pub id: &'static str,
    pub title: String,
    pub key_names: Vec<&'static str>,
    pub decimals: usize,
    pub rows: Vec<Row>,
    pub published_path: Option<String>,
    pub extra: Vec<Extra>,
}

fn oa(link: usize) -> Metric {
    Box::new(move |r: &PcnResult| r.links.get(link)?.over_admission.as_ref().map(|o| o.oa_pct))
}
fn ot(link: usize) -> Metric {
    Box::new(move |r: &PcnResult| {
        r.links
            .get(link)?
            .over_termination
            .as_ref()
            .map(|o| o.ot_pct)
    })
}
fn tt_link(link: usize, raw: bool) -> Metric {
    Box::new(move |r: &PcnResult| {
        let t = r.links.get(link)?.termination_time.as_ref()?;
        if raw {
            t.raw_s
        } else {
            t.table_s
        }
    })
}
fn tt_iea(iea: usize, raw: bool) -> Metric {
    Box::new(move |r: &PcnResult| {
        let t = r.ieas.get(iea)?.termination_time.as_ref()?;
        if raw {
            t.raw_s
        } else {
            t.table_s
        }
    })
}

/// One-way delay of the run's traffic class (all IEAs), ms.
fn delay_ms(pick: fn(&DelayStats) -> f64) -> Metric {
    Box::new(move |r: &PcnResult| r.delay.as_ref().map(|d| pick(&d.one_way) * 1e-6))
}
/// FIFO sojourn on PCN link `link`, ms.
fn sojourn_ms(link: usize, pick: fn(&DelayStats) -> f64) -> Metric {
    Box::new(move |r: &PcnResult| r.links.get(link)?.sojourn.as_ref().map(|s| pick(s) * 1e-6))
}

fn mean(v: &[f64]) -> f64 {
    Summary::of(v).mean
}

fn load_key(l: f64) -> String {
    if l == 2.0 {
        "2.0".into()
    } else {
        format!("{l}")
    }
}

/// RTT ingress counts of Tables B.4–B.6 (and B.2's RTT rows).
fn rtt_ks(traffic: &str) -> [u32; 4] {
    match traffic {
        "CBR" => [10, 70, 600, 1000],
        "VBR" => [10, 70, 600, 1800],
        _ => [10, 35, 140, 300],
    }
}

/// Defines table (or figure) `id`, registering the configurations it needs in `plan`.
pub fn define(id: &'static str, plan: &mut Plan, q: Quick) -> Result<TableDef, ReproduceError> {
    let csv = if id.starts_with("fig") {
        Csv::default()
    } else {
        published::load(id)
    };
    let mut t = TableDef {
        id,
        title: String::new(),
        key_names: Vec::new(),
        decimals: 3,
        rows: Vec::new(),
        published_path: csv
            .path
            .as_ref()
            .map(|_| format!("data/pcn-stm/table_{id}.csv")),
        extra: Vec::new(),
    };
    let cell = |col: &'static str, src: Src, keys: &[(&str, &str)]| Cell {
        col,
        published: csv.value(keys, col),
        src,
    };
    match id {
        "b1" => {
            t.title = "Table B.1 (§11.2) — CLE threshold and EWMA weight of the six cases (parameters, as used)".into();
            t.key_names = vec!["case"];
            t.decimals = 6;
            for (k, (thr, w)) in configs::CASES.iter().enumerate() {
                let c = (k + 1).to_string();
                let (thr, w) = (*thr, *w);
                t.rows.push(Row {
                    keys: vec![c.clone()],
                    cells: vec![
                        cell(
                            "cle_threshold",
                            Src::Derived(Box::new(move |_| thr)),
                            &[("case", &c)],
                        ),
                        cell(
                            "ewma_weight",
                            Src::Derived(Box::new(move |_| w)),
                            &[("case", &c)],
                        ),
                    ],
                });
            }
        }
        "b2" => {
            t.title = "Table B.2 (§11.2) — smallest and largest OA % over the six B.1 cases (STM; PLT(c): also over its 5 links)".into();
            t.key_names = vec!["traffic", "topology"];
            // (traffic, topology, [per case: (config, links)])
            let mut all: Vec<B2Cell> = Vec::new();
            for tr in TRAFFIC {
                let mut topos = vec![Topo::Single];
                let ks = rtt_ks(tr);
                if q.on {
                    topos.push(Topo::Rtt(ks[0]));
                } else {
                    topos.extend(ks.iter().map(|&k| Topo::Rtt(k)));
                    topos.push(Topo::Plt(5));
                }
                for topo in topos {
                    let links = if let Topo::Plt(n) = topo {
                        n as usize
                    } else {
                        1
                    };
                    let mut per_case = Vec::new();
                    for case in 1..=6 {
                        let c =
                            plan.want(configs::admission(tr, topo, Scheme::Stm, case, false, q))?;
                        per_case.push((c, links));
                    }
                    all.push((tr.to_string(), topo.label(), per_case));
                }
            }
            for (tr, topo, per_case) in &all {
                let keys = [("traffic", tr.as_str()), ("topology", topo.as_str())];
                let pc = per_case.clone();
                let pc2 = per_case.clone();
                let case_means = move |res: &Results, pc: &[(usize, usize)]| -> Vec<f64> {
                    pc.iter()
                        .flat_map(|&(c, links)| (0..links).map(move |l| (c, l)))
                        .map(|(c, l)| mean(&res.vals(c, oa(l))))
                        .collect()
                };
                let cm1 = case_means;
                t.rows.push(Row {
                    keys: vec![tr.clone(), topo.clone()],
                    cells: vec![
                        cell(
                            "smallest_oa_pct",
                            Src::Derived(Box::new(move |res| {
                                cm1(res, &pc).into_iter().fold(f64::INFINITY, f64::min)
                            })),
                            &keys,
                        ),
                        cell(
                            "largest_oa_pct",
                            Src::Derived(Box::new(move |res| {
                                case_means(res, &pc2)
                                    .into_iter()
                                    .fold(f64::NEG_INFINITY, f64::max)
                            })),
                            &keys,
                        ),
                    ],
                });
            }
            // Per-case values and the ranking.
            t.extra.push(Box::new(move |res: &Results| {
                let mut csv = String::from("traffic,topology,link,case,oa_pct_mean,oa_pct_ci95,n\n");
                let mut abs = [(0.0f64, 0usize); 6];
                let mut text = String::from("  per case (mean OA % over seeds; PLT(c): per link):\n");
                for (tr, topo, per_case) in &all {
                    let links = per_case[0].1;
                    for l in 0..links {
                        let mut line = format!("    {tr:<4} {topo:<7}");
                        if links > 1 {
                            let _ = write!(line, " link {}", l + 1);
                        }
                        for (k, &(c, _)) in per_case.iter().enumerate() {
                            let s = Summary::of(&res.vals(c, oa(l)));
                            let _ = write!(line, "  case{}: {:>7.3}", k + 1, s.mean);
                            let _ = writeln!(
                                csv,
                                "{tr},{topo},{},{},{},{},{}",
                                l + 1,
                                k + 1,
                                s.mean,
                                s.ci95.map(|x| x.to_string()).unwrap_or_default(),
                                s.n
                            );
                            if s.mean.is_finite() {
                                abs[k].0 += s.mean.abs();
                                abs[k].1 += 1;
                            }
                        }
                        text.push_str(&line);
                        text.push('\n');
                    }
                }
                let mut rank: Vec<(usize, f64)> = abs
                    .iter()
                    .enumerate()
                    .map(|(k, (s, n))| (k + 1, s / (*n).max(1) as f64))
                    .collect();
                rank.sort_by(|a, b| b.1.total_cmp(&a.1));
                let _ = writeln!(
                    text,
                    "  case ranking by mean |OA| over all cells, worst first (draft §11.2: case 1 worst, case 6 best): {}",
                    rank.iter()
                        .map(|(c, m)| format!("case {c} ({m:.3})"))
                        .collect::<Vec<_>>()
                        .join(" > ")
                );
                (text, vec![("table_b2_cases.csv".into(), csv)])
            }));
        }
        "b3" => {
            t.title = "Table B.3 (§11.3) — single link, load 5·AR: OA %".into();
            t.key_names = vec!["traffic"];
            for tr in TRAFFIC {
                let s = plan.want(configs::admission(
                    tr,
                    Topo::Single,
                    Scheme::Stm,
                    6,
                    false,
                    q,
                ))?;
                let c = plan.want(configs::admission(
                    tr,
                    Topo::Single,
                    Scheme::Cl,
                    6,
                    false,
                    q,
                ))?;
                let keys = [("traffic", tr)];
                t.rows.push(Row {
                    keys: vec![tr.into()],
                    cells: vec![
                        cell("stm_oa_pct", Src::Seeds(s, oa(0)), &keys),
                        cell("cl_oa_pct", Src::Seeds(c, oa(0)), &keys),
                    ],
                });
            }
        }
        "b4" | "b5" | "b6" => {
            let tr = match id {
                "b4" => "CBR",
                "b5" => "VBR",
                _ => "SVD",
            };
            t.title = format!(
                "Table {} (§11.4) — RTT, {tr}, load 5·AR split over k ingresses: OA %",
                id.to_uppercase().replace('B', "B.")
            );
            t.key_names = vec!["n_ingresses"];
            for k in rtt_ks(tr) {
                let ks = k.to_string();
                let keys = [("n_ingresses", ks.as_str())];
                let s = plan.want(configs::admission(
                    tr,
                    Topo::Rtt(k),
                    Scheme::Stm,
                    6,
                    false,
                    q,
                ))?;
                let c = plan.want(configs::admission(
                    tr,
                    Topo::Rtt(k),
                    Scheme::Cl,
                    6,
                    false,
                    q,
                ))?;
                let mut cells = vec![cell("stm_oa_pct", Src::Seeds(s, oa(0)), &keys)];
                if id == "b4" {
                    let r = plan.want(configs::admission(
                        tr,
                        Topo::Rtt(k),
                        Scheme::Stm,
                        6,
                        true,
                        q,
                    ))?;
                    cells.push(cell("stm_r_oa_pct", Src::Seeds(r, oa(0)), &keys));
                }
                cells.push(cell("cl_oa_pct", Src::Seeds(c, oa(0)), &keys));
                t.rows.push(Row {
                    keys: vec![ks],
                    cells,
                });
            }
        }
        "b7" => {
            t.title = "Table B.7 (§11.5) — parking lot (c), 5 bottlenecks: OA % per bottleneck (published values withheld: ours alone)".into();
            t.key_names = vec!["traffic", "bottleneck_id", "link"];
            for tr in TRAFFIC {
                let s = plan.want(configs::admission(
                    tr,
                    Topo::Plt(5),
                    Scheme::Stm,
                    6,
                    false,
                    q,
                ))?;
                let c = plan.want(configs::admission(
                    tr,
                    Topo::Plt(5),
                    Scheme::Cl,
                    6,
                    false,
                    q,
                ))?;
                for l in 0..5 {
                    let name = format!("{}-{}", (b'A' + l as u8) as char, (b'B' + l as u8) as char);
                    t.rows.push(Row {
                        keys: vec![tr.into(), (l + 1).to_string(), name],
                        cells: vec![
                            Cell {
                                col: "stm_oa_pct",
                                src: Src::Seeds(s, oa(l)),
                                published: None,
                            },
                            Cell {
                                col: "cl_oa_pct",
                                src: Src::Seeds(c, oa(l)),
                                published: None,
                            },
                        ],
                    });
                }
            }
        }
        "b8" => {
            t.title = "Table B.8 (§11.6, called \"B.9\" in the text) — short-haul / long-haul throughput on link A-B, CBR: t*_s over 10 s windows ending at t [G], cumulative_t*_s over [0, t] (§11.6 \"average throughput ... during the simulation time\")".into();
            t.key_names = vec!["scheme", "topology"];
            t.decimals = 2;
            for (sch, name) in [(Scheme::Stm, "STM"), (Scheme::Cl, "CL")] {
                for n in [2u32, 3, 5] {
                    let c = plan.want(configs::admission("CBR", Topo::Plt(n), sch, 6, false, q))?;
                    let topo = format!("PLT{n}");
                    let keys = [("scheme", name), ("topology", topo.as_str())];
                    let mut cells = Vec::new();
                    for (k, col) in [
                        "t10_s", "t20_s", "t30_s", "t40_s", "t50_s", "t60_s", "t70_s", "t80_s",
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        let m: Metric = Box::new(move |r: &PcnResult| {
                            r.fairness.get(k).map(|p| p.window_ratio)
                        });
                        cells.push(cell(col, Src::Seeds(c, m), &keys));
                    }
                    // §11.6: "the ratios of the average throughput ... during the simulation
                    // time": no window is named, so the average over [0, t] is printed beside
                    // the published value too (the 10 s windows above are map [G §5.23]).
                    for (k, (col, published_col)) in [
                        ("cumulative_t10_s", "t10_s"),
                        ("cumulative_t20_s", "t20_s"),
                        ("cumulative_t30_s", "t30_s"),
                        ("cumulative_t40_s", "t40_s"),
                        ("cumulative_t50_s", "t50_s"),
                        ("cumulative_t60_s", "t60_s"),
                        ("cumulative_t70_s", "t70_s"),
                        ("cumulative_t80_s", "t80_s"),
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        let m: Metric = Box::new(move |r: &PcnResult| {
                            r.fairness.get(k).map(|p| p.cumulative_ratio)
                        });
                        cells.push(Cell {
                            col,
                            src: Src::Seeds(c, m),
                            published: csv.value(&keys, published_col),
                        });
                    }
                    t.rows.push(Row {
                        keys: vec![name.into(), topo],
                        cells,
                    });
                }
            }
        }
        "c1" | "c2" | "c3" | "c4" => {
            let (tr, ks): (&str, Vec<Option<u32>>) = match id {
                "c1" => ("", vec![None]),
                "c2" => ("CBR", vec![Some(2), Some(10), Some(35), Some(70)]),
                "c3" => ("VBR", vec![Some(2), Some(10), Some(35), Some(100)]),
                _ => ("SVD", vec![Some(2), Some(10), Some(35)]),
            };
            t.title = if id == "c1" {
                "Table C.1 (§12.1) — single link: OT % and termination time (s; tt = table convention, tt_raw = first to last termination)".into()
            } else {
                format!(
                    "Table {} (§12.2) — RTT, {tr}, 1 ms ingress-egress: OT % and termination time (s)",
                    id.to_uppercase().replace('C', "C.")
                )
            };
            t.key_names = if id == "c1" {
                vec!["traffic", "load_x_sr"]
            } else {
                vec!["n_ingresses", "load_x_sr"]
            };
            let trs: Vec<&str> = if id == "c1" {
                TRAFFIC.to_vec()
            } else {
                vec![tr]
            };
            for load in [1.25, 2.0] {
                for &tr in &trs {
                    for k in &ks {
                        let topo = k.map_or(Topo::Single, Topo::Rtt);
                        let s = plan.want(configs::termination(tr, topo, Scheme::Stm, load, q))?;
                        let c = plan.want(configs::termination(tr, topo, Scheme::Cl, load, q))?;
                        let k0 = if id == "c1" {
                            tr.to_string()
                        } else {
                            k.unwrap_or(0).to_string()
                        };
                        let lk = load_key(load);
                        let kname = t.key_names[0];
                        let keys = [(kname, k0.as_str()), ("load_x_sr", lk.as_str())];
                        t.rows.push(Row {
                            keys: vec![k0.clone(), lk.clone()],
                            cells: vec![
                                cell("stm_ot_pct", Src::Seeds(s, ot(0)), &keys),
                                cell("cl_ot_pct", Src::Seeds(c, ot(0)), &keys),
                                cell("stm_tt_s", Src::Seeds(s, tt_link(0, false)), &keys),
                                cell("cl_tt_s", Src::Seeds(c, tt_link(0, false)), &keys),
                                Cell {
                                    col: "stm_tt_raw_s",
                                    src: Src::Seeds(s, tt_link(0, true)),
                                    published: None,
                                },
                                Cell {
                                    col: "cl_tt_raw_s",
                                    src: Src::Seeds(c, tt_link(0, true)),
                                    published: None,
                                },
                            ],
                        });
                    }
                }
            }
        }
        "c5" => {
            t.title = "Table C.5 (§12.3) — parking lot (c): OT % and termination time (s) per bottleneck (published values withheld: ours alone)".into();
            t.key_names = vec!["traffic", "load_x_sr", "bottleneck_id"];
            for tr in TRAFFIC {
                for load in [1.25, 2.0] {
                    let s =
                        plan.want(configs::termination(tr, Topo::Plt(5), Scheme::Stm, load, q))?;
                    let c =
                        plan.want(configs::termination(tr, Topo::Plt(5), Scheme::Cl, load, q))?;
                    for l in 0..5 {
                        t.rows.push(Row {
                            keys: vec![tr.into(), load_key(load), (l + 1).to_string()],
                            cells: vec![
                                Cell {
                                    col: "stm_ot_pct",
                                    src: Src::Seeds(s, ot(l)),
                                    published: None,
                                },
                                Cell {
                                    col: "cl_ot_pct",
                                    src: Src::Seeds(c, ot(l)),
                                    published: None,
                                },
                                Cell {
                                    col: "stm_tt_link_s",
                                    src: Src::Seeds(s, tt_link(l, false)),
                                    published: None,
                                },
                                Cell {
                                    col: "cl_tt_link_s",
                                    src: Src::Seeds(c, tt_link(l, false)),
                                    published: None,
                                },
                            ],
                        });
                    }
                }
            }
        }
        "c6" => {
            t.title = "Table C.6 (§12.3) — parking lot (c): termination time of the long-haul IEA (s; first termination -> all its links below SR) (published values withheld: ours alone)".into();
            t.key_names = vec!["traffic", "load_x_sr"];
            for tr in TRAFFIC {
                for load in [1.25, 2.0] {
                    let s =
                        plan.want(configs::termination(tr, Topo::Plt(5), Scheme::Stm, load, q))?;
                    let c =
                        plan.want(configs::termination(tr, Topo::Plt(5), Scheme::Cl, load, q))?;
                    t.rows.push(Row {
                        keys: vec![tr.into(), load_key(load)],
                        cells: vec![
                            Cell {
                                col: "stm_tt_s",
                                src: Src::Seeds(s, tt_iea(0, false)),
                                published: None,
                            },
                            Cell {
                                col: "cl_tt_s",
                                src: Src::Seeds(c, tt_iea(0, false)),
                                published: None,
                            },
                            Cell {
                                col: "stm_tt_raw_s",
                                src: Src::Seeds(s, tt_iea(0, true)),
                                published: None,
                            },
                            Cell {
                                col: "cl_tt_raw_s",
                                src: Src::Seeds(c, tt_iea(0, true)),
                                published: None,
                            },
                        ],
                    });
                }
            }
        }
        "d" => {
            t.title = "Table d (ours alone: the draft discusses no delay, published = —) — voice and video calls on the single link (Fig. A.1; link propagation 10 ms in the admission files, 1 ms in the termination ones): one-way delay ingress -> egress (mean, p99) and the link's FIFO sojourn (mean, p99), ms; admission at the B.3 load (STM case 6, CL) over the OA window, termination at 2.0 SR over the whole run (the runs of B.3 and C.1)".into();
            t.key_names = vec!["traffic", "run"];
            t.decimals = 4;
            let avg: fn(&DelayStats) -> f64 = |d| d.mean_ns;
            let p99: fn(&DelayStats) -> f64 = |d| d.p99_ns as f64;
            for tr in TRAFFIC {
                let runs = [
                    (
                        "admission",
                        configs::admission(tr, Topo::Single, Scheme::Stm, 6, false, q),
                        configs::admission(tr, Topo::Single, Scheme::Cl, 6, false, q),
                    ),
                    (
                        "termination 2.0 SR",
                        configs::termination(tr, Topo::Single, Scheme::Stm, 2.0, q),
                        configs::termination(tr, Topo::Single, Scheme::Cl, 2.0, q),
                    ),
                ];
                for (run, stm, cl) in runs {
                    let (s, c) = (plan.want(stm)?, plan.want(cl)?);
                    let mut cells = Vec::new();
                    for (cfg, cols) in [
                        (
                            s,
                            [
                                "stm_delay_mean_ms",
                                "stm_delay_p99_ms",
                                "stm_sojourn_mean_ms",
                                "stm_sojourn_p99_ms",
                            ],
                        ),
                        (
                            c,
                            [
                                "cl_delay_mean_ms",
                                "cl_delay_p99_ms",
                                "cl_sojourn_mean_ms",
                                "cl_sojourn_p99_ms",
                            ],
                        ),
                    ] {
                        let ms = [
                            delay_ms(avg),
                            delay_ms(p99),
                            sojourn_ms(0, avg),
                            sojourn_ms(0, p99),
                        ];
                        for (col, m) in cols.into_iter().zip(ms) {
                            cells.push(Cell {
                                col,
                                src: Src::Seeds(cfg, m),
                                published: None,
                            });
                        }
                    }
                    t.rows.push(Row {
                        keys: vec![tr.into(), run.into()],
                        cells,
                    });
                }
            }
        }
        "fig_marking" => figures::marking(&mut t, plan, q)?,
        "fig_termination" => figures::termination(&mut t, plan, q)?,
        "fig_fairness" => figures::fairness(&mut t, plan, q)?,
        _ => unreachable!("IDS lists every id"),
    }
    Ok(t)
}

fn num(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{x:.d$}")
    } else {
        "—".into()
    }
}

impl TableDef {
    /// The report text and the files (`table_<id>.csv`, `table_<id>_runs.csv`, extras).
    pub fn render(&self, res: &Results) -> (String, Vec<(String, String)>) {
        let d = self.decimals;
        let mut text = String::new();
        let mut files = Vec::new();
        let _ = writeln!(text, "{}", self.title);
        if !self.rows.is_empty() {
            match &self.published_path {
                Some(p) => {
                    let _ = writeln!(text, "  published: {p}");
                }
                None if !self.id.starts_with("fig") => {
                    let _ = writeln!(
                        text,
                        "  published: none (no data/pcn-stm/table_{}.csv, or withheld)",
                        self.id
                    );
                }
                None => {}
            }
        }
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut head: Vec<String> = self.key_names.iter().map(|s| s.to_string()).collect();
        head.extend(["column", "ours", "±95%", "published", "diff"].map(String::from));
        lines.push(head);
        let mut csv = self.key_names.join(",");
        csv.push_str(",column,ours_mean,ours_ci95,n,published,diff\n");
        let mut runs_csv = self.key_names.join(",");
        runs_csv.push_str(",column,seed,value\n");
        for row in &self.rows {
            for (ci, c) in row.cells.iter().enumerate() {
                let (values, s) = match &c.src {
                    Src::Seeds(cfg, m) => {
                        let v = res.vals(*cfg, m);
                        let s = Summary::of(&v);
                        (v, s)
                    }
                    Src::Derived(f) => {
                        let v = vec![f(res)];
                        let s = Summary::of(&v);
                        (v, s)
                    }
                };
                let diff = c.published.map(|p| s.mean - p);
                let mut l: Vec<String> = if ci == 0 {
                    row.keys.clone()
                } else {
                    row.keys.iter().map(|_| String::new()).collect()
                };
                l.push(c.col.to_string());
                l.push(num(s.mean, d));
                l.push(s.ci95.map(|h| num(h, d)).unwrap_or_else(|| "—".into()));
                l.push(c.published.map(|p| num(p, d)).unwrap_or_else(|| "—".into()));
                l.push(diff.map(|x| format!("{x:+.d$}")).unwrap_or_default());
                lines.push(l);
                let _ = writeln!(
                    csv,
                    "{},{},{},{},{},{},{}",
                    row.keys.join(","),
                    c.col,
                    s.mean,
                    s.ci95.map(|x| x.to_string()).unwrap_or_default(),
                    s.n,
                    c.published.map(|x| x.to_string()).unwrap_or_default(),
                    diff.map(|x| x.to_string()).unwrap_or_default()
                );
                if matches!(c.src, Src::Seeds(..)) {
                    for (k, v) in values.iter().enumerate() {
                        let _ =
                            writeln!(runs_csv, "{},{},{},{}", row.keys.join(","), c.col, k + 1, v);
                    }
                }
            }
        }
        if !self.rows.is_empty() {
            let widths: Vec<usize> = (0..lines[0].len())
                .map(|i| {
                    lines
                        .iter()
                        .map(|l| l[i].chars().count())
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            for l in &lines {
                let mut s = String::from(" ");
                for (i, c) in l.iter().enumerate() {
                    let pad = widths[i] - c.chars().count();
                    if i < self.key_names.len() + 1 {
                        let _ = write!(s, " {c}{}", " ".repeat(pad));
                    } else {
                        let _ = write!(s, " {}{c}", " ".repeat(pad));
                    }
                }
                text.push_str(s.trim_end());
                text.push('\n');
            }
            files.push((format!("table_{}.csv", self.id), csv));
            files.push((format!("table_{}_runs.csv", self.id), runs_csv));
        }
        for e in &self.extra {
            let (t, f) = e(res);
            text.push_str(&t);
            files.extend(f);
        }
        (text, files)
    }
}
