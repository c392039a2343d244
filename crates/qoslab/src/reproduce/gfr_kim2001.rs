//! `qoslab reproduce gfr-kim2001`: Kim, Choi, Chung & Chon, "New Buffer Management Scheme
//! to Support TCP/IP Traffic over ATM GFR service" (2001): Table 1, Fig. 2, Figs. 3–6
//! (LBO from 500 to 3K cells), Fig. 7 and Table 2 (heterogeneous delays), on the ATM
//! engine ([`qoslab_sim::atm`]), with the sensitivity of Table 1 and of the paper's
//! conclusions to the MCR allocation, the TCP settings and the UNI tagging (MBS) the paper
//! does not state.
//!
//! A parallel path beside the IP experiments' framework (whose variants are IP
//! scenarios): the same command line, [`super::runner::par_map`] for the (variant, seed)
//! jobs, [`super::stats::Summary`] for means and 95 % intervals, [`crate::plot`] for SVG.
//! The scenarios are the files `scenarios/gfr-kim2001/{table1,fig7}.toml` (compiled in),
//! changed per variant only in the policy, LBO, MCR allocation and TCP settings.
//!
//! Choices the paper leaves open are listed in [`NOTES`] (printed with the results) and
//! in `scenarios/gfr-kim2001/README.md`.

use std::fmt::Write as _;

use qoslab_algo::{Duration, Rate};
use qoslab_sim::atm::scenario::parse_str;
use qoslab_sim::atm::spec::{DfbaShare, PolicySpec};
use qoslab_sim::atm::{AtmResult, AtmScenario, AtmSim};
use qoslab_sim::scenario::spec::TcpVariant;

use super::runner::par_map;
use super::stats::Summary;
use super::{Options, Outcome, ReproduceError};
use crate::plot::{Plot, Series};

pub const NAME: &str = "gfr-kim2001";
pub const TITLE: &str =
    "New Buffer Management Scheme to Support TCP/IP Traffic over ATM GFR service";
pub const SOURCE: &str = "Kim, Choi, Chung & Chon (2001), §4, Table 1, Figs. 2-7, Table 2";

const TABLE1_TOML: &str = include_str!("../../../../scenarios/gfr-kim2001/table1.toml");
const FIG7_TOML: &str = include_str!("../../../../scenarios/gfr-kim2001/fig7.toml");
const PUBLISHED: &str = include_str!("../../../../data/gfr-kim2001/table1.csv");

/// Table/figure ids accepted by `--table`.
pub const IDS: [&str; 11] = [
    "1", "g", "s", "fig2", "fig3", "fig4", "fig5", "fig6", "fig7", "2", "queue",
];

/// Open choices, printed with the results.
pub const NOTES: [&str; 10] = [
    "framing: a 960-B segment is exactly 20 cells (no TCP/IP header, no AAL5 trailer): every standard encapsulation caps TCP goodput below the published totals (VC-mux 44.71, LLC/SNAP 42.68 Mb/s vs 46.95 Mb/s for 20 cells); cells at the full 51.84 Mb/s (no SONET overhead, which would cap it at 45.38 Mb/s or less)",
    "MCR allocation (not stated): A = 2, 4, 6, 8, 10, 12 Mb/s of cells for VC1..VC6 (Σ 42 of 51.84); sensitivity: B = 1, 2, 3, 4, 5, 6 Mb/s",
    "fair share f_i of eq. (4) = eq. (2)'s w_i = MCR_i + (C_GFR − Σ MCR)/N with C_GFR = 51.84 Mb/s, in TCP-payload terms (× 960/1060); MCR met = goodput >= MCR × 960/1060",
    "TCP (paper: MSS 960 B, window 65,535 B, 50-ms timer granularity; nothing else stated): Reno, RFC 6298 timer on 50-ms ticks, min RTO 100 ms (two ticks), initial RTO 1 s, initial window 4 segments (RFC 5681 §3.1 for MSS 960 B), limited transmit (RFC 3042), an ACK per segment (40-B ACK = 1 cell); sensitivity (a)/(b): NewReno, SACK, min RTO 1 s, ns-2 timer and Reno loss response, delayed ACK 200 ms, IW 1 without limited transmit, IW 2, 500-ms ticks with min RTO 1 s, ns-2 + IW 1",
    "simulated time (not stated): 30 s, goodput over [5 s, 30 s); runs (not stated): seeds 1..=N, connection start times U[0, 100 ms) from a named stream per connection (the only randomness besides DFBA's drop draws)",
    "F-GCRA tagging at the UNI (input of SW1) with MBS 200 cells (sensitivity: MBS = MFS = 20, MBS 1000, no tagging with Reno, NewReno and SACK; where tagging sits does not matter here, each VC having its own access link), MFS 20 cells, PCR = line rate, f = BT + CDVT; PCR check GCRA(1/PCR, CDVT = 1 ns) on every cell there, non-conforming cells discarded (1 ns absorbs the whole-ns rounding of back-to-back cell times); the edge routers send every cell CLP=0",
    "DFBA (Goyal et al.; the authors' rule clause by clause, sources in qoslab_algo::atm::dfba): Z = 0.5, α = 0.5 (not given by Kim et al.; not tuned), W = Σ MCR of all configured VCs",
    "Figs. 3-6: the text calls them Figs. 3 and 4, the captions Figs. 5 and 6; drawn as fig3 (total goodput) and fig4 (fairness) vs LBO = 500, 1000, 1500, 2000, 2500, 3000 cells, HBO 6K",
    "Fig. 7 / Table 2: '6 msec' and '11 msec' read as the delay of the source router-switch link of VC1-3 and VC4-6 (0.5 ms in Table 1); Table 2's values are withheld from our copy of the paper: ours only",
    "edge routers: unbounded IP queue per port (bounded by the TCP windows), frames sent whole in FIFO order; a switch cell leaves the buffer when its transmission starts",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pol {
    DoubleEpd,
    Dfba,
    Proposed,
}

impl Pol {
    pub const ALL: [Pol; 3] = [Pol::DoubleEpd, Pol::Dfba, Pol::Proposed];
    pub fn label(self) -> &'static str {
        match self {
            Pol::DoubleEpd => "Double-EPD",
            Pol::Dfba => "DFBA",
            Pol::Proposed => "Proposed",
        }
    }
    fn csv(self) -> &'static str {
        match self {
            Pol::DoubleEpd => "double-epd",
            Pol::Dfba => "dfba",
            Pol::Proposed => "dynamic-threshold",
        }
    }
}

/// MCR allocations (Mb/s of cells, VC1..VC6).
pub const ALLOC_A: [u64; 6] = [2, 4, 6, 8, 10, 12];
pub const ALLOC_B: [u64; 6] = [1, 2, 3, 4, 5, 6];

/// TCP settings the paper does not state, changed one at a time from the scenario file's
/// for the sensitivity section (`--table s`). The paper states only MSS 960 B, window
/// 65 535 B and a 50-ms retransmission-timer granularity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpOpt {
    /// The scenario file's settings: RFC 6298 timer on 50-ms ticks, min RTO 100 ms (two
    /// ticks), initial window 4 (RFC 5681 §3.1 for MSS 960 B), limited transmit (RFC 3042),
    /// an ACK per segment.
    File,
    /// min RTO 1 s (RFC 6298 (2.4)) instead of two ticks.
    MinRto1s,
    /// ns-2's 2000–2001 `Agent/TCP` timer arithmetic on 50-ms ticks and, for Reno, its loss
    /// response (`ns2_compat`).
    Ns2,
    /// Delayed ACKs (RFC 1122 §4.2.3.2 / RFC 5681 §4.2: every second full segment, a 200-ms
    /// timer as in BSD-derived stacks).
    DelAck,
    /// Initial window 1 segment and no limited transmit (RFC 2001 / ns-2 `windowInit_ 1`;
    /// RFC 3042 dates from 2001).
    Iw1,
    /// Initial window 2 segments (RFC 2581's upper bound), limited transmit kept.
    Iw2,
    /// ns-2-like Reno of 1999–2001: [`TcpOpt::Ns2`] and [`TcpOpt::Iw1`] together.
    Ns2Iw1,
    /// Old BSD timer: 500-ms ticks and min RTO 1 s. Contradicts the paper's stated 50 ms:
    /// shown only as a contrast.
    Bsd500,
}

impl TcpOpt {
    fn name(self) -> &'static str {
        match self {
            TcpOpt::File => "file",
            TcpOpt::MinRto1s => "minrto1s",
            TcpOpt::Ns2 => "ns2",
            TcpOpt::DelAck => "delack200ms",
            TcpOpt::Iw1 => "iw1-nolt",
            TcpOpt::Iw2 => "iw2",
            TcpOpt::Ns2Iw1 => "ns2-iw1-nolt",
            TcpOpt::Bsd500 => "tick500ms-minrto1s",
        }
    }
    /// Applies the change to the scenario's TCP settings.
    fn apply(self, t: &mut qoslab_sim::scenario::spec::TcpSpec) {
        match self {
            TcpOpt::File => {}
            TcpOpt::MinRto1s => t.min_rto = Duration::from_secs(1),
            TcpOpt::Ns2 => t.ns2_compat = true,
            TcpOpt::DelAck => t.delayed_ack = Some(Duration::from_millis(200)),
            TcpOpt::Iw1 => {
                t.init_cwnd = 1;
                t.limited_transmit = false;
            }
            TcpOpt::Iw2 => t.init_cwnd = 2,
            TcpOpt::Ns2Iw1 => {
                t.ns2_compat = true;
                t.init_cwnd = 1;
                t.limited_transmit = false;
            }
            TcpOpt::Bsd500 => {
                t.clock_granularity = Duration::from_millis(500);
                t.min_rto = Duration::from_secs(1);
            }
        }
    }
}

/// Conformance settings at the UNI the paper does not state, changed one at a time for
/// the sensitivity section (`--table s`). The paper says only that the network supports
/// GFR.2 (F-GCRA tagging, ATM Forum TM 4.1 §4.5.6 / Annex C) and that "the amount of
/// untagged packets is insufficient to achieve MCR throughput due to burstiness of TCP
/// traffic"; it gives neither MBS nor where tagging happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uni {
    /// The scenario file's: F-GCRA(1/MCR, BT + CDVT) with MBS 200 cells (10 frames).
    File,
    /// MBS = MFS = 20 cells, the smallest TM 4.1 allows (MBS ≥ MFS): a burst of one
    /// frame above MCR is tagged.
    MbsMfs,
    /// MBS 1,000 cells (50 frames): tagging follows the long-term rate only.
    Mbs1000,
    /// No F-GCRA at the UNI: every frame stays CLP = 0, so Double-EPD is EPD at HBO.
    NoTagging,
}

impl Uni {
    fn name(self) -> &'static str {
        match self {
            Uni::File => "file",
            Uni::MbsMfs => "mbs-mfs",
            Uni::Mbs1000 => "mbs1000",
            Uni::NoTagging => "no-tagging",
        }
    }
    /// Applies the change to the scenario.
    fn apply(self, sc: &mut AtmScenario) {
        match self {
            Uni::File => {}
            Uni::MbsMfs => sc.vcs.iter_mut().for_each(|v| v.mbs = v.mfs),
            Uni::Mbs1000 => sc.vcs.iter_mut().for_each(|v| v.mbs = 1000),
            Uni::NoTagging => sc.tagging = false,
        }
    }
}

/// One configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub pol: Pol,
    pub lbo: u32,
    pub alloc_b: bool,
    pub tcp: TcpVariant,
    pub opt: TcpOpt,
    pub uni: Uni,
    pub hetero: bool,
}

impl Key {
    pub fn table1(pol: Pol) -> Key {
        Key {
            pol,
            lbo: 2048,
            alloc_b: false,
            tcp: TcpVariant::Reno,
            opt: TcpOpt::File,
            uni: Uni::File,
            hetero: false,
        }
    }
    fn name(&self) -> String {
        let mut n = format!(
            "{}/lbo{}/{}/{}/{}",
            self.pol.csv(),
            self.lbo,
            if self.alloc_b { "mcrB" } else { "mcrA" },
            tcp_name(self.tcp),
            if self.hetero {
                "delays6-11"
            } else {
                "delays0.5"
            }
        );
        if self.opt != TcpOpt::File {
            n.push('/');
            n.push_str(self.opt.name());
        }
        if self.uni != Uni::File {
            n.push('/');
            n.push_str(self.uni.name());
        }
        n
    }
}

/// One row of the sensitivity section: a label and the change it makes to a Table 1 key.
pub struct Case {
    pub label: &'static str,
    pub alloc_b: bool,
    pub tcp: TcpVariant,
    pub opt: TcpOpt,
    pub uni: Uni,
}

impl Case {
    pub fn key(&self, base: Key) -> Key {
        Key {
            alloc_b: self.alloc_b,
            tcp: self.tcp,
            opt: self.opt,
            uni: self.uni,
            ..base
        }
    }
}

const fn case(label: &'static str, tcp: TcpVariant, opt: TcpOpt) -> Case {
    Case {
        label,
        alloc_b: false,
        tcp,
        opt,
        uni: Uni::File,
    }
}

const fn uni_case(label: &'static str, uni: Uni) -> Case {
    Case {
        label,
        alloc_b: false,
        tcp: TcpVariant::Reno,
        opt: TcpOpt::File,
        uni,
    }
}

/// No tagging with another TCP variant (session 7): the only UNI case in which DFBA is
/// fairer than Double-EPD, under the variants that remove Reno's duplicate deliveries.
const fn untagged_case(label: &'static str, tcp: TcpVariant) -> Case {
    Case {
        label,
        alloc_b: false,
        tcp,
        opt: TcpOpt::File,
        uni: Uni::NoTagging,
    }
}

/// The sensitivity cases (`--table s`): the defaults first, then one open choice changed
/// at a time (the "ns-2 Reno 2001" row combines the two period-typical ns-2 settings, the
/// last two combine no tagging with NewReno and SACK).
pub const CASES: [Case; 16] = [
    case("defaults (Reno)", TcpVariant::Reno, TcpOpt::File),
    case("NewReno", TcpVariant::NewReno, TcpOpt::File),
    case("SACK", TcpVariant::Sack, TcpOpt::File),
    case("Reno, min RTO 1 s", TcpVariant::Reno, TcpOpt::MinRto1s),
    case("Reno, ns-2 timer+loss resp.", TcpVariant::Reno, TcpOpt::Ns2),
    case("Reno, delayed ACK 200 ms", TcpVariant::Reno, TcpOpt::DelAck),
    case(
        "Reno, IW 1, no lim. transmit",
        TcpVariant::Reno,
        TcpOpt::Iw1,
    ),
    case("Reno, IW 2", TcpVariant::Reno, TcpOpt::Iw2),
    case(
        "Reno, 500-ms tick, minRTO 1s",
        TcpVariant::Reno,
        TcpOpt::Bsd500,
    ),
    case(
        "ns-2 Reno 2001 (ns-2 + IW 1)",
        TcpVariant::Reno,
        TcpOpt::Ns2Iw1,
    ),
    Case {
        label: "MCR allocation B (1..6)",
        alloc_b: true,
        tcp: TcpVariant::Reno,
        opt: TcpOpt::File,
        uni: Uni::File,
    },
    uni_case("MBS = MFS (20 cells)", Uni::MbsMfs),
    uni_case("MBS 1000 cells", Uni::Mbs1000),
    uni_case("no tagging (all CLP=0)", Uni::NoTagging),
    untagged_case("no tagging, NewReno", TcpVariant::NewReno),
    untagged_case("no tagging, SACK", TcpVariant::Sack),
];

/// LBOs at which the sensitivity section measures the proposed scheme's fairness (its
/// Table 1 run gives 2048).
pub const CASE_LBOS: [u32; 2] = [500, 3000];

/// The keys one sensitivity case needs: Table 1's three schemes, the same with the
/// heterogeneous delays, and the proposed scheme at [`CASE_LBOS`].
pub fn case_keys(c: &Case) -> Vec<Key> {
    let mut v: Vec<Key> = Pol::ALL.map(|p| c.key(Key::table1(p))).to_vec();
    v.extend(Pol::ALL.map(|p| {
        c.key(Key {
            hetero: true,
            ..Key::table1(p)
        })
    }));
    v.extend(CASE_LBOS.map(|lbo| {
        c.key(Key {
            lbo,
            ..Key::table1(Pol::Proposed)
        })
    }));
    v
}

fn tcp_name(t: TcpVariant) -> &'static str {
    match t {
        TcpVariant::Reno => "reno",
        TcpVariant::NewReno => "newreno",
        TcpVariant::Sack => "sack",
    }
}

/// The scenario of a configuration: the file's, with the key's changes.
pub fn scenario(k: &Key) -> Result<AtmScenario, String> {
    let (text, file) = if k.hetero {
        (FIG7_TOML, "scenarios/gfr-kim2001/fig7.toml")
    } else {
        (TABLE1_TOML, "scenarios/gfr-kim2001/table1.toml")
    };
    let mut sc = parse_str(text, file).map_err(|e| e.to_string())?;
    let PolicySpec::DynamicThreshold { hbo, alpha, .. } = sc.buffer.policy else {
        return Err(format!("{file}: the base policy must be dynamic-threshold"));
    };
    let lbo = k.lbo;
    sc.buffer.policy = match k.pol {
        Pol::DoubleEpd => PolicySpec::DoubleEpd { lbo, hbo },
        Pol::Dfba => PolicySpec::Dfba {
            lbo,
            hbo,
            z: DFBA_Z,
            alpha: DFBA_ALPHA,
            share: DfbaShare::Configured,
        },
        Pol::Proposed => PolicySpec::DynamicThreshold { lbo, hbo, alpha },
    };
    if k.alloc_b {
        for (v, m) in sc.vcs.iter_mut().zip(ALLOC_B) {
            v.mcr = Rate::from_mbps(m);
        }
    }
    sc.tcp.variant = k.tcp;
    k.opt.apply(&mut sc.tcp);
    k.uni.apply(&mut sc);
    sc.name = k.name();
    Ok(sc)
}

/// What each section needs.
fn keys_for(id: &str) -> Vec<Key> {
    let mut v = Vec::new();
    match id {
        "1" | "fig2" | "queue" => v.extend(Pol::ALL.map(Key::table1)),
        "g" => {
            for tcp in BUDGET_TCP {
                v.extend(Pol::ALL.map(|p| Key {
                    tcp,
                    ..Key::table1(p)
                }));
            }
        }
        "s" => {
            for c in &CASES {
                v.extend(case_keys(c));
            }
        }
        "fig3" | "fig4" | "fig5" | "fig6" => {
            for p in Pol::ALL {
                for lbo in LBOS {
                    v.push(Key {
                        lbo,
                        ..Key::table1(p)
                    });
                }
            }
        }
        _ => v.extend(Pol::ALL.map(|p| Key {
            hetero: true,
            ..Key::table1(p)
        })),
    }
    v
}

/// DFBA's Z_i and α (not given by Kim et al.; our choice, not tuned; the peer simulator
/// luayats uses Z = 1, α = 0.5). W = Σ MCR of every configured VC (see
/// `qoslab_algo::atm::dfba`).
pub const DFBA_Z: f64 = 0.5;
pub const DFBA_ALPHA: f64 = 0.5;

pub const LBOS: [u32; 6] = [500, 1000, 1500, 2000, 2500, 3000];

/// Queue time series ("queue"): the Table 1 runs of seed 1 sample every switch port's
/// occupancy at this interval (sampling does not change a run); the plots show the
/// bottleneck port SW1->SW2 over [QUEUE_PLOT_FROM, QUEUE_PLOT_TO).
pub const QUEUE_SAMPLE: Duration = Duration::from_millis(10);
pub const QUEUE_PORT: &str = "SW1->SW2";
pub const QUEUE_PLOT_FROM: f64 = 5.0;
pub const QUEUE_PLOT_TO: f64 = 7.0;

/// Default seeds (full run) and the quick run's settings.
pub const SEEDS: u32 = 5;
pub const QUICK_SEEDS: u32 = 2;
pub const QUICK_DURATION: Duration = Duration::from_secs(8);
pub const QUICK_WARMUP: Duration = Duration::from_secs(2);

/// The published Table 1: (policy, fairness, total goodput).
fn published() -> Vec<(String, f64, f64)> {
    PUBLISHED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("policy"))
        .filter_map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            Some((
                c[0].to_string(),
                c.get(1)?.parse().ok()?,
                c.get(2)?.parse().ok()?,
            ))
        })
        .collect()
}

struct Runs {
    keys: Vec<Key>,
    /// Per key: the runs in seed order.
    runs: Vec<Vec<AtmResult>>,
}

impl Runs {
    fn of(&self, k: &Key) -> &[AtmResult] {
        let i = self.keys.iter().position(|x| x == k).expect("run");
        &self.runs[i]
    }
    fn summary(&self, k: &Key, f: impl Fn(&AtmResult) -> f64) -> Summary {
        Summary::of(&self.of(k).iter().map(f).collect::<Vec<_>>())
    }
}

fn fmt_s(s: &Summary, dec: usize) -> String {
    match s.ci95 {
        Some(ci) => format!("{:.dec$} ± {:.dec$}", s.mean, ci),
        None => format!("{:.dec$}", s.mean),
    }
}

/// Runs the selected sections; returns the report and files.
pub fn reproduce(opts: &Options) -> Result<Outcome, ReproduceError> {
    let ids: Vec<&str> = match &opts.table {
        None => vec!["1", "g", "s", "fig2", "fig3", "fig4", "fig7", "2", "queue"],
        Some(t) => {
            let t = t.to_ascii_lowercase().replace('.', "");
            let Some(id) = IDS.iter().find(|x| **x == t) else {
                return Err(ReproduceError::UnknownTable {
                    experiment: NAME,
                    table: t,
                    known: IDS.to_vec(),
                });
            };
            vec![*id]
        }
    };
    let seeds = opts
        .seeds
        .unwrap_or(if opts.quick { QUICK_SEEDS } else { SEEDS });
    if seeds == 0 {
        return Err(ReproduceError::BadArgs("--seeds must be at least 1".into()));
    }
    let mut keys: Vec<Key> = Vec::new();
    for id in &ids {
        for k in keys_for(id) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let mut jobs = Vec::new();
    for (ki, k) in keys.iter().enumerate() {
        let mut sc = scenario(k).map_err(ReproduceError::Definition)?;
        if opts.quick {
            sc.duration = QUICK_DURATION;
            sc.warmup = QUICK_WARMUP;
        }
        if let Err(m) = AtmSim::new(sc.clone(), 1) {
            return Err(ReproduceError::Unsupported(vec![format!(
                "{}: {m}",
                k.name()
            )]));
        }
        let sample = ids.contains(&"queue") && Pol::ALL.iter().any(|&p| *k == Key::table1(p));
        for seed in 1..=seeds as u64 {
            jobs.push((ki, seed, sc.clone(), sample && seed == 1));
        }
    }
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    };
    let t0 = std::time::Instant::now();
    let mut bar = crate::progress::Bar::new(opts.progress, "reproducing");
    let results = par_map(
        &jobs,
        threads,
        |(_, seed, sc, sample)| {
            let t = std::time::Instant::now();
            AtmSim::new(sc.clone(), *seed)
                .map(|s| {
                    if *sample {
                        s.with_queue_samples(QUEUE_SAMPLE)
                    } else {
                        s
                    }
                })
                .and_then(AtmSim::run)
                .map(|r| (r, t.elapsed().as_secs_f64()))
        },
        |done, total| bar.update(done as f64 / total as f64, &format!("{done}/{total} runs")),
    );
    bar.finish();
    let wall = t0.elapsed().as_secs_f64();
    let mut runs = Runs {
        runs: keys.iter().map(|_| Vec::new()).collect(),
        keys,
    };
    let (mut hops, mut job_secs) = (0u64, 0.0f64);
    for ((ki, seed, _, _), r) in jobs.iter().zip(results) {
        let (r, secs) = r.map_err(|msg| ReproduceError::Run {
            variant: runs.keys[*ki].name(),
            seed: *seed,
            msg,
        })?;
        hops += r.cell_hops;
        job_secs += secs;
        runs.runs[*ki].push(r);
    }
    let (dur, warm) = if opts.quick {
        (QUICK_DURATION, QUICK_WARMUP)
    } else {
        let sc = scenario(&Key::table1(Pol::Proposed)).map_err(ReproduceError::Definition)?;
        (sc.duration, sc.warmup)
    };
    let mut text = String::new();
    let _ = writeln!(text, "{NAME} — {TITLE}");
    let _ = writeln!(text, "source: {SOURCE}");
    // Whole milliseconds: 30 s, not the 30.000000000000004 of ns -> f64 seconds.
    let (d, w) = (dur.0 as f64 / 1e6, warm.0 as f64 / 1e6);
    let (d, w) = (d.round() / 1e3, w.round() / 1e3);
    let _ = writeln!(
        text,
        "{}: seeds 1..={seeds}, {} runs, {d} s simulated each, goodput over [{w} s, {d} s); mean ± 95 % CI over seeds\n",
        if opts.quick { "quick run" } else { "full run" },
        jobs.len(),
    );
    let mut files: Vec<(String, String)> = Vec::new();
    for id in &ids {
        match *id {
            "1" => table1(&runs, &mut text, &mut files),
            "g" => budget(&runs, &mut text, &mut files),
            "s" => sensitivity(&runs, &mut text, &mut files),
            "fig2" => fig_vc(&runs, false, &mut text, &mut files),
            "fig3" | "fig5" => fig_lbo(&runs, false, &mut text, &mut files),
            "fig4" | "fig6" => fig_lbo(&runs, true, &mut text, &mut files),
            "fig7" => fig_vc(&runs, true, &mut text, &mut files),
            "queue" => queue(&runs, &mut text, &mut files),
            _ => table2(&runs, &mut text, &mut files),
        }
    }
    let mut all = String::from("variant,seed,fairness_index,total_goodput_mbps,all_mcr_met");
    for v in 1..=6 {
        let _ = write!(all, ",vc{v}_goodput_mbps");
    }
    all.push('\n');
    for (k, rs) in runs.keys.iter().zip(&runs.runs) {
        for r in rs {
            let _ = write!(
                all,
                "{},{},{:.6},{:.4},{}",
                k.name(),
                r.seed,
                r.fairness_index,
                r.total_goodput_mbps,
                r.all_mcr_met
            );
            for v in &r.vcs {
                let _ = write!(all, ",{:.4}", v.goodput_mbps);
            }
            all.push('\n');
        }
    }
    files.push(("runs.csv".into(), all));
    let _ = writeln!(text, "\nChoices the source leaves open:");
    for n in NOTES {
        let _ = writeln!(text, "  - {n}");
    }
    let _ = writeln!(
        text,
        "\nengine: {hops} cell-hops in {wall:.1} s wall on {threads} threads; {:.2} M cell-hops/s per run-second (Σ of each run's own wall time {job_secs:.1} s; slower when the cores are shared)",
        hops as f64 / job_secs / 1e6
    );
    files.insert(0, ("report.txt".into(), text.clone()));
    Ok(Outcome {
        text,
        files,
        runs: jobs.len(),
    })
}

fn table1(runs: &Runs, text: &mut String, files: &mut Vec<(String, String)>) {
    let pubd = published();
    let _ = writeln!(
        text,
        "Table 1 — fairness index and total TCP goodput (LBO 2K, HBO 6K, buffer 8K cells; MCR allocation A, Reno)"
    );
    let _ = writeln!(
        text,
        "  {:<11} {:>18} {:>10} {:>9} | {:>15} {:>9} {:>7} | {:>8}",
        "policy",
        "fairness ours",
        "published",
        "diff",
        "goodput ours",
        "published",
        "diff",
        "MCR met"
    );
    let mut csv = String::from(
        "policy,fairness_ours,fairness_ci95,fairness_published,fairness_diff,goodput_ours_mbps,goodput_ci95,goodput_published_mbps,goodput_diff_mbps,runs_all_mcr_met,runs\n",
    );
    for p in Pol::ALL {
        let k = Key::table1(p);
        let fi = runs.summary(&k, |r| r.fairness_index);
        let gp = runs.summary(&k, |r| r.total_goodput_mbps);
        let met = runs.of(&k).iter().filter(|r| r.all_mcr_met).count();
        let n = runs.of(&k).len();
        let pb = pubd.iter().find(|x| x.0 == p.csv());
        let (pf, pg) = pb.map_or((f64::NAN, f64::NAN), |x| (x.1, x.2));
        let _ = writeln!(
            text,
            "  {:<11} {:>18} {:>10.6} {:>+9.4} | {:>15} {:>9.2} {:>+7.2} | {:>4}/{:<3}",
            p.label(),
            fmt_s(&fi, 4),
            pf,
            fi.mean - pf,
            fmt_s(&gp, 2),
            pg,
            gp.mean - pg,
            met,
            n
        );
        let _ = writeln!(
            csv,
            "{},{:.6},{:.6},{},{:.6},{:.4},{:.4},{},{:.4},{},{}",
            p.csv(),
            fi.mean,
            fi.ci95.unwrap_or(f64::NAN),
            pf,
            fi.mean - pf,
            gp.mean,
            gp.ci95.unwrap_or(f64::NAN),
            pg,
            gp.mean - pg,
            met,
            n
        );
    }
    text.push('\n');
    files.push(("table_1.csv".into(), csv));
}

/// TCP variants of the goodput budget (`--table g`): the default and the two the
/// sensitivity section also runs, so a full reproduction needs no extra runs.
pub const BUDGET_TCP: [TcpVariant; 3] = [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack];

/// The bottleneck's line rate (paper: OC-1) and the TCP segment (paper: MSS 960 B).
const LINE_MBPS: f64 = 51.84;
const MSS_BITS: f64 = 960.0 * 8.0;

/// One run's share of [`budget`] (Mb/s of TCP payload over the measurement window, except
/// the rates): where SW1->SW2's capacity went.
#[derive(Clone, Copy, Debug)]
pub struct RunBudget {
    /// The line rate in TCP payload (every cell a full segment's).
    pub ceiling: f64,
    /// The cell slots SW1->SW2 left unused (a cell started at the warm-up instant can put
    /// the utilisation one slot above 1: clamped at 0).
    pub idle: f64,
    /// Segments delivered a second time.
    pub duplicates: f64,
    pub utilization: f64,
    pub timeouts_per_s: f64,
    pub duplicate_segments_per_s: f64,
    /// Frames SW1->SW2 refused (either CLP), per second.
    pub frames_refused_per_s: f64,
}

impl RunBudget {
    pub fn of(r: &AtmResult) -> RunBudget {
        let win = r.duration_s - r.warmup_s;
        let (utilization, refused) =
            r.ports
                .iter()
                .find(|q| q.name == QUEUE_PORT)
                .map_or((f64::NAN, f64::NAN), |q| {
                    let refused: u64 = q
                        .frames_refused_by_reason
                        .values()
                        .map(|n| n[0] + n[1])
                        .sum();
                    (q.utilization, refused as f64)
                });
        let ceiling = r.payload_efficiency * LINE_MBPS;
        let dup_segs = r
            .vcs
            .iter()
            .map(|v| v.window.duplicate_segments)
            .sum::<u64>() as f64;
        let timeouts = r.vcs.iter().map(|v| v.window.tcp_timeouts).sum::<u64>() as f64;
        RunBudget {
            ceiling,
            idle: (1.0 - utilization).max(0.0) * ceiling,
            duplicates: dup_segs * MSS_BITS / win / 1e6,
            utilization,
            timeouts_per_s: timeouts / win,
            duplicate_segments_per_s: dup_segs / win,
            frames_refused_per_s: refused / win,
        }
    }
}

/// Where the bottleneck's capacity goes over the measurement window, per Table 1 scheme
/// and TCP variant: `ceiling = idle + duplicates + goodput + rest`, where the ceiling is
/// the line rate in TCP payload (every cell a full segment's), `idle` the slots SW1->SW2
/// left unused, `duplicates` the segments delivered a second time (spurious
/// retransmissions: they used the bottleneck and added nothing), and `rest` what the
/// window's edges leave over (segments in flight or queued at its start and end).
fn budget(runs: &Runs, text: &mut String, files: &mut Vec<(String, String)>) {
    let _ = writeln!(
        text,
        "Goodput budget — where SW1->SW2's capacity goes (Table 1 settings; Mb/s of TCP payload, mean over seeds)"
    );
    let _ = writeln!(
        text,
        "  {:<8} {:<11} {:>8} {:>7} {:>7} {:>10} {:>15} {:>6} | {:>9} {:>9} {:>11}",
        "TCP",
        "policy",
        "ceiling",
        "idle",
        "dupl.",
        "rest",
        "goodput",
        "util",
        "timeouts",
        "dup segs",
        "refused fr."
    );
    let mut csv = String::from(
        "tcp,policy,ceiling_mbps,idle_mbps,duplicates_mbps,rest_mbps,goodput_mbps,goodput_ci95,utilization,timeouts_per_s,duplicate_segments_per_s,frames_refused_per_s,runs\n",
    );
    for tcp in BUDGET_TCP {
        for p in Pol::ALL {
            let k = Key {
                tcp,
                ..Key::table1(p)
            };
            let rs = runs.of(&k);
            let of = |f: fn(&RunBudget) -> f64| runs.summary(&k, |r| f(&RunBudget::of(r)));
            let ceiling = of(|b| b.ceiling);
            let idle = of(|b| b.idle);
            let dup = of(|b| b.duplicates);
            let gp = runs.summary(&k, |r| r.total_goodput_mbps);
            let rest = ceiling.mean - idle.mean - dup.mean - gp.mean;
            let util = of(|b| b.utilization);
            let to = of(|b| b.timeouts_per_s);
            let dps = of(|b| b.duplicate_segments_per_s);
            let refused = of(|b| b.frames_refused_per_s);
            let _ = writeln!(
                text,
                "  {:<8} {:<11} {:>8.3} {:>7.3} {:>7.3} {:>+10.3} {:>15} {:>6.4} | {:>7.1}/s {:>7.1}/s {:>9.1}/s",
                tcp_name(tcp),
                p.label(),
                ceiling.mean,
                idle.mean,
                dup.mean,
                rest,
                fmt_s(&gp, 3),
                util.mean,
                to.mean,
                dps.mean,
                refused.mean,
            );
            let _ = writeln!(
                csv,
                "{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.6},{:.3},{:.3},{:.3},{}",
                tcp_name(tcp),
                p.csv(),
                ceiling.mean,
                idle.mean,
                dup.mean,
                rest,
                gp.mean,
                gp.ci95.unwrap_or(f64::NAN),
                util.mean,
                to.mean,
                dps.mean,
                refused.mean,
                rs.len()
            );
        }
    }
    text.push('\n');
    files.push(("goodput_budget.csv".into(), csv));
}

/// Buffer occupancy over time at the bottleneck (seed 1 of each Table 1 scheme): one SVG per
/// scheme (per-VC and total occupancy, LBO and HBO), one CSV of every sample, and in the
/// report the time-averages over the goodput window of the total and of each VC's share of
/// it beside its MCR share (DFBA's fair share `X·W_i/W`).
fn queue(runs: &Runs, text: &mut String, files: &mut Vec<(String, String)>) {
    let _ = writeln!(
        text,
        "Queue occupancy at {QUEUE_PORT} (seed 1, sampled every {} ms; queue_<policy>.svg show [{QUEUE_PLOT_FROM} s, {QUEUE_PLOT_TO} s), queue.csv every sample)",
        QUEUE_SAMPLE.0 / 1_000_000
    );
    let mut csv = String::from("policy,t_s,total_cells");
    for v in 1..=6 {
        let _ = write!(csv, ",vc{v}_cells");
    }
    csv.push('\n');
    for p in Pol::ALL {
        let k = Key::table1(p);
        let Some(r) = runs.of(&k).iter().find(|r| r.seed == 1) else {
            continue;
        };
        let Some(s) = r.queue_series.iter().find(|s| s.port == QUEUE_PORT) else {
            continue;
        };
        let n_vc = s.per_vc.len();
        for (i, &tot) in s.total.iter().enumerate() {
            let _ = write!(csv, "{},{:.3},{tot}", p.csv(), i as f64 * s.interval_s);
            for col in &s.per_vc {
                let _ = write!(csv, ",{}", col[i]);
            }
            csv.push('\n');
        }
        // Time-averages over the goodput window [warmup, end).
        let idx: Vec<usize> = (0..s.total.len())
            .filter(|&i| i as f64 * s.interval_s >= r.warmup_s)
            .collect();
        let n = idx.len().max(1) as f64;
        let mean_tot = idx.iter().map(|&i| s.total[i] as f64).sum::<f64>() / n;
        let max_tot = idx.iter().map(|&i| s.total[i]).max().unwrap_or(0);
        let sum_mcr: f64 = r.vcs.iter().map(|v| v.mcr_mbps).sum();
        let _ = write!(
            text,
            "  {:<11} mean {:>6.0} max {:>5} cells; per VC mean cells (share of X | MCR share):",
            p.label(),
            mean_tot,
            max_tot
        );
        for (v, col) in s.per_vc.iter().enumerate() {
            let m = idx.iter().map(|&i| col[i] as f64).sum::<f64>() / n;
            let _ = write!(
                text,
                " {}: {:.0} ({:.2}|{:.2})",
                v + 1,
                m,
                if mean_tot > 0.0 { m / mean_tot } else { 0.0 },
                r.vcs[v].mcr_mbps / sum_mcr
            );
        }
        text.push('\n');
        let window: Vec<usize> = (0..s.total.len())
            .filter(|&i| {
                let t = i as f64 * s.interval_s;
                (QUEUE_PLOT_FROM..QUEUE_PLOT_TO).contains(&t)
            })
            .collect();
        let pts = |col: &[u32]| -> Vec<(f64, f64)> {
            window
                .iter()
                .map(|&i| (i as f64 * s.interval_s, col[i] as f64))
                .collect()
        };
        let hbo = match scenario(&k).map(|sc| sc.buffer.policy) {
            Ok(
                PolicySpec::DoubleEpd { hbo, .. }
                | PolicySpec::Dfba { hbo, .. }
                | PolicySpec::DynamicThreshold { hbo, .. },
            ) => hbo,
            _ => 0,
        };
        let mut plot = Plot::new(
            format!(
                "Buffer occupancy at {QUEUE_PORT}, {} (Table 1, seed 1; HBO {hbo} off scale)",
                p.label(),
            ),
            "time (s)",
            "cells in the buffer",
        );
        plot.series.push(Series::line("total", pts(&s.total)));
        for (v, col) in s.per_vc.iter().enumerate().take(n_vc) {
            plot.series.push(Series::line(
                format!("{} (MCR {:.0})", r.vcs[v].name, r.vcs[v].mcr_mbps),
                pts(col),
            ));
        }
        let lbo = k.lbo as f64;
        plot.series.push(Series::line(
            "LBO",
            vec![(QUEUE_PLOT_FROM, lbo), (QUEUE_PLOT_TO, lbo)],
        ));
        plot.x_range = Some((QUEUE_PLOT_FROM, QUEUE_PLOT_TO));
        files.push((format!("queue_{}.svg", p.csv()), plot.to_svg()));
    }
    text.push('\n');
    files.push(("queue.csv".into(), csv));
}

/// Short- over long-delay VCs' goodput relative to their ideal (Fig. 7 runs), per run.
fn delay_ratios(r: &AtmResult) -> (f64, f64) {
    let ratio = |lo: usize, hi: usize| {
        let x: f64 = r.vcs[lo..hi].iter().map(|v| v.goodput_mbps).sum();
        let f: f64 = r.vcs[lo..hi].iter().map(|v| v.ideal_goodput_mbps).sum();
        x / f
    };
    (ratio(0, 3), ratio(3, 6))
}

/// The sensitivity of Table 1 and of each of the paper's conclusions to the open choices
/// ([`CASES`]): per case, fairness and goodput (± 95 % CI) of the three schemes, then
/// whether each conclusion holds.
fn sensitivity(runs: &Runs, text: &mut String, files: &mut Vec<(String, String)>) {
    let _ = writeln!(
        text,
        "Sensitivity (a) — Table 1 under other open choices: fairness index / total goodput (Mb/s), mean ± 95 % CI"
    );
    let _ = writeln!(
        text,
        "  {:<30} {:>32} {:>32} {:>32}",
        "case", "Double-EPD", "DFBA", "Proposed"
    );
    let mut csv = String::from(
        "case,policy,fairness,fairness_ci95,goodput_mbps,goodput_ci95,runs_all_mcr_met,runs_vc6_mcr_missed,runs,delay_short_over_ideal,delay_long_over_ideal,delay_fairness\n",
    );
    let ci = |s: &Summary| s.ci95.unwrap_or(f64::NAN);
    for c in &CASES {
        let mut line = format!("  {:<30}", c.label);
        for p in Pol::ALL {
            let k = c.key(Key::table1(p));
            let rs = runs.of(&k);
            let fi = runs.summary(&k, |r| r.fairness_index);
            let gp = runs.summary(&k, |r| r.total_goodput_mbps);
            let met = rs.iter().filter(|r| r.all_mcr_met).count();
            let vc6 = rs.iter().filter(|r| !r.vcs[5].mcr_met).count();
            let hk = Key { hetero: true, ..k };
            let hr: Vec<(f64, f64)> = runs.of(&hk).iter().map(delay_ratios).collect();
            let hs = Summary::of(&hr.iter().map(|x| x.0).collect::<Vec<_>>());
            let hl = Summary::of(&hr.iter().map(|x| x.1).collect::<Vec<_>>());
            let hf = runs.summary(&hk, |r| r.fairness_index);
            let _ = write!(
                line,
                " {:>32}",
                format!("{} / {}", fmt_s(&fi, 4), fmt_s(&gp, 2))
            );
            let _ = writeln!(
                csv,
                "{},{},{:.6},{:.6},{:.4},{:.4},{met},{vc6},{},{:.4},{:.4},{:.6}",
                c.label,
                p.csv(),
                fi.mean,
                ci(&fi),
                gp.mean,
                ci(&gp),
                rs.len(),
                hs.mean,
                hl.mean,
                hf.mean
            );
        }
        let _ = writeln!(text, "{line}");
    }
    text.push('\n');
    let _ = writeln!(
        text,
        "Sensitivity (b) — the paper's conclusions under each case (means over seeds; runs = runs in which it holds)"
    );
    let _ = writeln!(
        text,
        "  {:<30} {:>7} {:>7} {:>9} {:>11} {:>13} {:>19} {:>8}",
        "case",
        "P>DFBA",
        "DFBA>DE",
        "P all MCR",
        "DE/DFBA VC6",
        "P fair range",
        "short/long vs ideal",
        "P best"
    );
    let _ = writeln!(
        text,
        "  {:<30} {:>7} {:>7} {:>9} {:>11} {:>13} {:>19} {:>8}",
        "", "", "", "met runs", "missed runs", "LBO .5K-3K", "DE | DFBA | P", "goodput"
    );
    let mut csv2 = String::from(
        "case,proposed_fairer_than_dfba,dfba_fairer_than_double_epd,proposed_runs_all_mcr_met,double_epd_runs_vc6_missed,dfba_runs_vc6_missed,runs,proposed_fairness_min_over_lbo,proposed_fairness_max_over_lbo,double_epd_short_over_long,dfba_short_over_long,proposed_short_over_long,proposed_highest_goodput\n",
    );
    for c in &CASES {
        let k = |p| c.key(Key::table1(p));
        let f = |p| runs.summary(&k(p), |r| r.fairness_index).mean;
        let g = |p| runs.summary(&k(p), |r| r.total_goodput_mbps).mean;
        let n = runs.of(&k(Pol::Proposed)).len();
        let met = runs
            .of(&k(Pol::Proposed))
            .iter()
            .filter(|r| r.all_mcr_met)
            .count();
        let miss = |p| runs.of(&k(p)).iter().filter(|r| !r.vcs[5].mcr_met).count();
        let mut lf: Vec<f64> = CASE_LBOS
            .iter()
            .map(|&lbo| {
                runs.summary(
                    &c.key(Key {
                        lbo,
                        ..Key::table1(Pol::Proposed)
                    }),
                    |r| r.fairness_index,
                )
                .mean
            })
            .collect();
        lf.push(f(Pol::Proposed));
        let (lo, hi) = lf
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let sl = |p| {
            let hr: Vec<(f64, f64)> = runs
                .of(&c.key(Key {
                    hetero: true,
                    ..Key::table1(p)
                }))
                .iter()
                .map(delay_ratios)
                .collect();
            let s = Summary::of(&hr.iter().map(|x| x.0).collect::<Vec<_>>()).mean;
            let l = Summary::of(&hr.iter().map(|x| x.1).collect::<Vec<_>>()).mean;
            (s, l)
        };
        let (de, df, pr) = (sl(Pol::DoubleEpd), sl(Pol::Dfba), sl(Pol::Proposed));
        let yn = |b: bool| if b { "yes" } else { "no" };
        let pbest = g(Pol::Proposed) > g(Pol::Dfba) && g(Pol::Proposed) > g(Pol::DoubleEpd);
        let _ = writeln!(
            text,
            "  {:<30} {:>7} {:>7} {:>9} {:>11} {:>13} {:>19} {:>8}",
            c.label,
            yn(f(Pol::Proposed) > f(Pol::Dfba)),
            yn(f(Pol::Dfba) > f(Pol::DoubleEpd)),
            format!("{met}/{n}"),
            format!("{}/{} {}/{}", miss(Pol::DoubleEpd), n, miss(Pol::Dfba), n),
            format!("{lo:.3}-{hi:.3}"),
            format!(
                "{:.2}/{:.2}|{:.2}/{:.2}|{:.2}/{:.2}",
                de.0, de.1, df.0, df.1, pr.0, pr.1
            ),
            yn(pbest)
        );
        let _ = writeln!(
            csv2,
            "{},{},{},{met},{},{},{n},{lo:.6},{hi:.6},{:.4},{:.4},{:.4},{}",
            c.label,
            f(Pol::Proposed) > f(Pol::Dfba),
            f(Pol::Dfba) > f(Pol::DoubleEpd),
            miss(Pol::DoubleEpd),
            miss(Pol::Dfba),
            de.0 / de.1,
            df.0 / df.1,
            pr.0 / pr.1,
            pbest
        );
    }
    let _ = writeln!(
        text,
        "  (P = proposed, DE = Double-EPD; VC6 has the largest MCR; short/long = goodput of VC1-3 (6 ms) and VC4-6 (11 ms) over their ideal in the Fig. 7 network)\n"
    );
    files.push(("table_s.csv".into(), csv));
    files.push(("table_s_conclusions.csv".into(), csv2));
}

fn fig_vc(runs: &Runs, hetero: bool, text: &mut String, files: &mut Vec<(String, String)>) {
    let (id, title) = if hetero {
        (
            "fig7",
            "Fig. 7 — per-VC TCP goodput, VC1-3 at 6 ms, VC4-6 at 11 ms",
        )
    } else {
        (
            "fig2",
            "Fig. 2 — per-VC TCP goodput (LBO 2K, HBO 6K, buffer 8K cells)",
        )
    };
    let _ = writeln!(text, "{title} ({id}.svg)");
    let keys: Vec<Key> = Pol::ALL
        .map(|p| Key {
            hetero,
            ..Key::table1(p)
        })
        .to_vec();
    let first = &runs.of(&keys[0])[0];
    let _ = write!(text, "  {:<11}", "VC (MCR)");
    for v in &first.vcs {
        let _ = write!(text, " {:>12}", format!("{} ({:.0})", v.name, v.mcr_mbps));
    }
    text.push('\n');
    let mut csv = String::from("policy,vc,mcr_mbps,ideal_goodput_mbps,mcr_goodput_mbps,goodput_mbps,goodput_ci95,runs_mcr_met,runs\n");
    let mut plot = Plot::new(
        title,
        "MCR (Mb/s of cells)",
        "TCP goodput (Mb/s, mean over seeds)",
    );
    let ideal: Vec<(f64, f64)> = first
        .vcs
        .iter()
        .map(|v| (v.mcr_mbps, v.ideal_goodput_mbps))
        .collect();
    let mcrline: Vec<(f64, f64)> = first
        .vcs
        .iter()
        .map(|v| (v.mcr_mbps, v.mcr_goodput_mbps))
        .collect();
    let _ = write!(text, "  {:<11}", "ideal");
    for v in &first.vcs {
        let _ = write!(text, " {:>12.2}", v.ideal_goodput_mbps);
    }
    text.push('\n');
    let _ = write!(text, "  {:<11}", "MCR");
    for v in &first.vcs {
        let _ = write!(text, " {:>12.2}", v.mcr_goodput_mbps);
    }
    text.push('\n');
    for (p, k) in Pol::ALL.iter().zip(&keys) {
        let rs = runs.of(k);
        let mut pts = Vec::new();
        let _ = write!(text, "  {:<11}", p.label());
        for (i, v) in first.vcs.iter().enumerate() {
            let s = Summary::of(&rs.iter().map(|r| r.vcs[i].goodput_mbps).collect::<Vec<_>>());
            let met = rs.iter().filter(|r| r.vcs[i].mcr_met).count();
            let mark = if s.mean >= v.mcr_goodput_mbps {
                ' '
            } else {
                '!'
            };
            let _ = write!(text, " {:>11.2}{mark}", s.mean);
            pts.push((v.mcr_mbps, s.mean));
            let _ = writeln!(
                csv,
                "{},{},{},{:.4},{:.4},{:.4},{:.4},{met},{}",
                p.csv(),
                v.name,
                v.mcr_mbps,
                v.ideal_goodput_mbps,
                v.mcr_goodput_mbps,
                s.mean,
                s.ci95.unwrap_or(f64::NAN),
                rs.len()
            );
        }
        text.push('\n');
        plot.series.push(Series::line(p.label(), pts));
    }
    let _ = writeln!(
        text,
        "  (! = mean below the MCR's TCP-payload equivalent)\n"
    );
    plot.series.push(Series::line(
        "ideal (MCR + equal share of the excess)",
        ideal,
    ));
    plot.series.push(Series::line("MCR", mcrline));
    files.push((format!("{id}.svg"), plot.to_svg()));
    files.push((format!("{id}.csv"), csv));
}

fn fig_lbo(runs: &Runs, fairness: bool, text: &mut String, files: &mut Vec<(String, String)>) {
    let (id, title, ylab) = if fairness {
        (
            "fig4",
            "Figs. 4/6 — fairness index vs LBO (HBO 6K, buffer 8K cells)",
            "fairness index (eq. 4)",
        )
    } else {
        (
            "fig3",
            "Figs. 3/5 — total TCP goodput vs LBO (HBO 6K, buffer 8K cells)",
            "total TCP goodput (Mb/s)",
        )
    };
    let _ = writeln!(text, "{title} ({id}.svg)");
    let _ = write!(text, "  {:<11}", "LBO (cells)");
    for l in LBOS {
        let _ = write!(text, " {l:>9}");
    }
    text.push('\n');
    let mut plot = Plot::new(title, "LBO (cells)", ylab);
    let mut csv = String::from("policy,lbo,value,ci95\n");
    for p in Pol::ALL {
        let _ = write!(text, "  {:<11}", p.label());
        let mut pts = Vec::new();
        for lbo in LBOS {
            let k = Key {
                lbo,
                ..Key::table1(p)
            };
            let s = runs.summary(&k, |r| {
                if fairness {
                    r.fairness_index
                } else {
                    r.total_goodput_mbps
                }
            });
            let _ = write!(text, " {:>9.4}", s.mean);
            pts.push((lbo as f64, s.mean));
            let _ = writeln!(
                csv,
                "{},{lbo},{:.6},{:.6}",
                p.csv(),
                s.mean,
                s.ci95.unwrap_or(f64::NAN)
            );
        }
        text.push('\n');
        plot.series.push(Series::line(p.label(), pts));
    }
    text.push('\n');
    files.push((format!("{id}.svg"), plot.to_svg()));
    files.push((format!("{id}.csv"), csv));
}

fn table2(runs: &Runs, text: &mut String, files: &mut Vec<(String, String)>) {
    let _ = writeln!(
        text,
        "Table 2 — heterogeneous delays (VC1-3 6 ms, VC4-6 11 ms): published values withheld from our copy; ours only"
    );
    let _ = writeln!(
        text,
        "  {:<11} {:>18} {:>15} {:>9} {:>22}",
        "policy", "fairness", "goodput (Mb/s)", "MCR met", "VC1-3 / VC4-6 vs ideal"
    );
    let mut csv = String::from(
        "policy,fairness,fairness_ci95,goodput_mbps,goodput_ci95,runs_all_mcr_met,runs,short_delay_over_ideal,long_delay_over_ideal\n",
    );
    for p in Pol::ALL {
        let k = Key {
            hetero: true,
            ..Key::table1(p)
        };
        let rs = runs.of(&k);
        let fi = runs.summary(&k, |r| r.fairness_index);
        let gp = runs.summary(&k, |r| r.total_goodput_mbps);
        let met = rs.iter().filter(|r| r.all_mcr_met).count();
        let ratio = |lo: usize, hi: usize| {
            let v: Vec<f64> = rs
                .iter()
                .map(|r| {
                    let x: f64 = r.vcs[lo..hi].iter().map(|v| v.goodput_mbps).sum();
                    let f: f64 = r.vcs[lo..hi].iter().map(|v| v.ideal_goodput_mbps).sum();
                    x / f
                })
                .collect();
            Summary::of(&v).mean
        };
        let (a, b) = (ratio(0, 3), ratio(3, 6));
        let _ = writeln!(
            text,
            "  {:<11} {:>18} {:>15} {:>5}/{:<3} {:>10.3} / {:.3}",
            p.label(),
            fmt_s(&fi, 4),
            fmt_s(&gp, 2),
            met,
            rs.len(),
            a,
            b
        );
        let _ = writeln!(
            csv,
            "{},{:.6},{:.6},{:.4},{:.4},{met},{},{a:.4},{b:.4}",
            p.csv(),
            fi.mean,
            fi.ci95.unwrap_or(f64::NAN),
            gp.mean,
            gp.ci95.unwrap_or(f64::NAN),
            rs.len()
        );
    }
    text.push('\n');
    files.push(("table_2.csv".into(), csv));
}

/// `qoslab reproduce gfr-kim2001`: runs, prints, writes the files.
pub fn run(args: super::ReproduceArgs) -> Result<(), ReproduceError> {
    let opts = Options {
        seeds: args.seeds,
        ..args.options()
    };
    let t0 = std::time::Instant::now();
    let outcome = reproduce(&opts)?;
    super::publish(NAME, args.out, &outcome, None, t0)
}
