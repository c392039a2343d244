//! `qoslab reproduce pcn-stm`: the tables and figures of draft-satoh-pcn-st-marking-02
//! (Appendices B and C) on the PCN engine (`qoslab_sim::pcn`), ours beside the published
//! value and the difference.
//!
//! | file | what |
//! |---|---|
//! | `configs.rs` | the scenario files (compiled in) and the variants each table derives |
//! | `tables.rs` | the tables: which runs, which metric, which published cell |
//! | `figures.rs` | marking function, PCN rate through a termination, fairness over time |
//! | `published.rs` | `data/pcn-stm/*.csv` |
//! | `cli.rs` | `qoslab run` / `qoslab validate` of a PCN scenario file |
//!
//! This is a parallel path to the IP engine's `Experiment` framework (which is built around
//! that engine's `Scenario`); it reuses its runner (`par_map`), statistics (`Summary`),
//! progress bar and file writing. Runs are collected by job index, so the output files are
//! byte-identical whatever `--jobs`.

pub mod cli;
pub mod configs;
pub mod figures;
pub mod published;
pub mod tables;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use qoslab_sim::pcn::{PcnResult, PcnSpec};

use super::{runner, Outcome, ReproduceArgs, ReproduceError};

pub const NAME: &str = "pcn-stm";

/// The run configurations a reproduction needs, deduplicated by key, in first-use order.
#[derive(Default)]
pub struct Plan {
    pub keys: Vec<String>,
    pub specs: Vec<PcnSpec>,
    index: BTreeMap<String, usize>,
    /// Configurations whose rate series are kept (figures).
    pub keep_series: Vec<bool>,
}

impl Plan {
    pub fn want(&mut self, c: Result<(String, PcnSpec), String>) -> Result<usize, ReproduceError> {
        let (key, spec) = c.map_err(ReproduceError::Definition)?;
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        self.keys.push(key.clone());
        self.specs.push(spec);
        self.keep_series.push(false);
        self.index.insert(key, self.keys.len() - 1);
        Ok(self.keys.len() - 1)
    }
}

/// The results: per configuration, one result per seed (seeds 1..=n in order).
pub struct Results {
    pub runs: Vec<Vec<PcnResult>>,
}

impl Results {
    /// The metric of every seed of configuration `c` (NaN where it does not apply).
    pub fn vals(&self, c: usize, f: impl Fn(&PcnResult) -> Option<f64>) -> Vec<f64> {
        self.runs[c]
            .iter()
            .map(|r| f(r).unwrap_or(f64::NAN))
            .collect()
    }
}

pub struct Options {
    pub table: Option<String>,
    pub seeds: u32,
    pub quick: bool,
    pub threads: usize,
    pub progress: bool,
}

/// `qoslab reproduce pcn-stm ...`.
pub fn run(args: ReproduceArgs) -> Result<(), ReproduceError> {
    let seeds = args.seeds.unwrap_or(if args.quick { 1 } else { 5 });
    if seeds == 0 {
        return Err(ReproduceError::BadArgs("--seeds must be at least 1".into()));
    }
    let o = args.options();
    let opts = Options {
        table: o.table,
        seeds,
        quick: o.quick,
        threads: o.threads,
        progress: o.progress,
    };
    let t0 = std::time::Instant::now();
    let (outcome, engine) = reproduce_timed(&opts)?;
    super::publish(NAME, args.out, &outcome, Some(&engine), t0)
}

/// Plans, runs and renders the selected tables and figures. The outcome does not depend on
/// the number of threads.
pub fn reproduce(opts: &Options) -> Result<Outcome, ReproduceError> {
    reproduce_timed(opts).map(|(o, _)| o)
}

/// [`reproduce`], and a line on the engine's speed (not part of the outcome: it varies).
pub fn reproduce_timed(opts: &Options) -> Result<(Outcome, String), ReproduceError> {
    let q = configs::Quick { on: opts.quick };
    let all = tables::IDS;
    let selected: Vec<&str> = match &opts.table {
        None => all.to_vec(),
        Some(t) => {
            let t = t.to_lowercase().replace(['.', ' '], "");
            let t = t.strip_prefix("table").unwrap_or(&t).to_string();
            match all.iter().find(|id| **id == t) {
                Some(id) => vec![*id],
                None => {
                    return Err(ReproduceError::UnknownTable {
                        experiment: NAME,
                        table: t,
                        known: all.to_vec(),
                    })
                }
            }
        }
    };
    let mut plan = Plan::default();
    let mut defs = Vec::new();
    for id in &selected {
        defs.push(tables::define(id, &mut plan, q)?);
    }
    // Run.
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    };
    let jobs: Vec<(usize, u64)> = (0..plan.specs.len())
        .flat_map(|c| (1..=u64::from(opts.seeds)).map(move |s| (c, s)))
        .collect();
    // Longest first keeps both cores busy to the end (results are stored by index anyway).
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(cost(&plan.specs[jobs[j].0])));
    let ordered: Vec<(usize, u64)> = order.iter().map(|&j| jobs[j]).collect();
    let mut bar = crate::progress::Bar::new(opts.progress, "reproducing pcn-stm");
    let t0 = std::time::Instant::now();
    let out = runner::par_map(
        &ordered,
        threads,
        |&(c, seed)| {
            let t = std::time::Instant::now();
            qoslab_sim::pcn::run(&plan.specs[c], seed).map(|mut r| {
                if !plan.keep_series[c] {
                    for l in &mut r.links {
                        l.rate_series_bps = Vec::new();
                    }
                }
                (r, t.elapsed().as_secs_f64())
            })
        },
        |done, total| bar.update(done as f64 / total as f64, &format!("{done}/{total} runs")),
    );
    bar.finish();
    let wall = t0.elapsed().as_secs_f64();
    let mut slots: Vec<Option<PcnResult>> = (0..jobs.len()).map(|_| None).collect();
    let mut cpu = 0.0;
    let mut hops = 0u64;
    for (k, r) in out.into_iter().enumerate() {
        let (c, seed) = ordered[k];
        let (r, secs) = r.map_err(|msg| ReproduceError::Run {
            variant: plan.keys[c].clone(),
            seed,
            msg,
        })?;
        cpu += secs;
        hops += r.packet_hops;
        slots[order[k]] = Some(r);
    }
    let mut runs: Vec<Vec<PcnResult>> = (0..plan.specs.len()).map(|_| Vec::new()).collect();
    for (j, r) in slots.into_iter().enumerate() {
        runs[jobs[j].0].push(r.expect("every job ran"));
    }
    let res = Results { runs };
    // Render.
    let mode = if opts.quick {
        "quick run (shortened: admission 60 s with OA over 30-60 s; termination 30 s with the extra flows at 10 s and OT over 20-30 s; marking 12 s)"
    } else {
        "full run (admission 300 s, OA over 200-300 s; termination 100 s, extra flows at 50 s, OT over 80-100 s)"
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "pcn-stm — draft-satoh-pcn-st-marking-02 (Satoh, Ueno, Maeda, Phanachet, 2009), Appendices B and C"
    );
    let _ = writeln!(
        text,
        "{mode}\nseeds 1..={}, {} configurations, {} runs; ours = mean over seeds ± 95% Student-t half-width",
        opts.seeds,
        plan.specs.len(),
        jobs.len()
    );
    let mut files = Vec::new();
    for d in &defs {
        let (t, f) = d.render(&res);
        text.push_str(&t);
        text.push('\n');
        files.extend(f);
    }
    let engine = format!(
        "engine: {} packet-hops in {:.1} s of run time ({:.0} ns per packet-hop; {:.1} s wall on {} threads)",
        hops,
        cpu,
        cpu * 1e9 / hops.max(1) as f64,
        wall,
        threads
    );
    text.push_str(tables::NOTES);
    files.insert(0, ("report.txt".to_string(), text.clone()));
    Ok((
        Outcome {
            text,
            files,
            runs: jobs.len(),
        },
        engine,
    ))
}

/// A rough cost (packet-hops) for ordering the jobs, longest first.
fn cost(s: &PcnSpec) -> u64 {
    let per_flow = s.traffic.nominal_bps / (f64::from(s.traffic.packet_bytes) * 8.0);
    let flows = match s.kind {
        qoslab_sim::pcn::spec::RunKind::Admission => {
            s.admissible_rate.bps() as f64 / s.traffic.nominal_bps
        }
        _ => f64::from(s.population.final_flows.max(s.population.base_flows)),
    };
    let links = match s.topology {
        qoslab_sim::pcn::spec::TopologySpec::ParkingLot { bottlenecks, .. } => {
            f64::from(bottlenecks)
        }
        _ => 1.0,
    };
    (per_flow * flows * links * s.duration.as_secs_f64()) as u64
}
