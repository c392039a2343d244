//! `qoslab reproduce <name> [--table T] [--seeds N] [--quick] [--out DIR]`: reruns the
//! tables and figures of a document and prints them beside the published values.
//!
//! | file | what |
//! |---|---|
//! | `experiment.rs` | the data model: experiment, variants, tables, rows, figures |
//! | `metric.rs` | how a cell is read from a run's results |
//! | `runner.rs` | the (variant, seed) jobs over all cores, results by job index |
//! | `stats.rs` | mean and Student-t 95 % interval over seeds |
//! | `published.rs` | the published-data files under `data/` |
//! | `report.rs`, `figures.rs` | text and CSV tables, SVG figures |
//! | `html.rs`, `html_table.rs`, `html_doc.rs` | the HTML report per reproduction and the index page |
//! | `rio_hori2001.rs`, `rfc2963.rs`, `rfc4828.rs` | the experiments |
//!
//! Seeds: `--seeds N` runs seeds 1..=N of every variant (a variant marked deterministic
//! runs once). Results are collected by job index, so output files are byte-identical
//! whatever the number of threads. Output goes to `--out DIR` (default
//! `out/reproduce/<name>/`): `report.txt` (what is printed), `table_<id>.csv`,
//! `table_<id>_runs.csv` (every run's value), `<figure id>.svg`, `compare_table_<id>.svg`
//! and `index.html` (the HTML report, [`html`]); without `--out`, also the index page
//! `out/reproduce/index.html` over every reproduction there. Formats: `docs/outputs.md`.

pub mod experiment;
pub mod figures;
pub mod gfr_kim2001;
pub mod gfr_kim2001_cli;
pub mod html;
pub mod html_doc;
pub mod html_table;
pub mod metric;
pub mod pcn_stm;
pub mod published;
pub mod report;
pub mod rfc2963;
pub mod rfc4828;
pub mod rio_hori2001;
pub mod runner;
pub mod stats;

use std::fmt::Write as _;
use std::path::PathBuf;

use experiment::{Experiment, SeedPolicy};
use report::{CellResult, TableResult};
use runner::RunOutput;
use stats::Summary;

/// The command line of `qoslab reproduce`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ReproduceArgs {
    /// Experiment: rio-hori2001, rfc2963, rfc4828, pcn-stm or gfr-kim2001.
    pub name: String,
    /// Run only this table or figure (e.g. 1, 4, a3, fig2).
    #[arg(long)]
    pub table: Option<String>,
    /// Run seeds 1..=N of every variant.
    #[arg(long)]
    pub seeds: Option<u32>,
    /// A shortened run (shorter simulated time, fewer seeds).
    #[arg(long)]
    pub quick: bool,
    /// Output directory (default: out/reproduce/<name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Why `reproduce` failed.
#[derive(Debug)]
pub enum ReproduceError {
    UnknownExperiment {
        name: String,
        known: Vec<&'static str>,
    },
    UnknownTable {
        experiment: &'static str,
        table: String,
        known: Vec<&'static str>,
    },
    BadArgs(String),
    /// The engine refuses a scenario of the experiment (a feature it lacks).
    Unsupported(Vec<String>),
    /// A run failed (a refused scenario, a failed conservation check).
    Run {
        variant: String,
        seed: u64,
        msg: String,
    },
    /// The experiment's definition or a published-data file is broken.
    Definition(String),
    Io {
        path: PathBuf,
        err: std::io::Error,
    },
}

impl ReproduceError {
    /// 2 for bad command-line input, 1 otherwise (as the rest of the CLI).
    pub fn exit_code(&self) -> u8 {
        match self {
            ReproduceError::UnknownExperiment { .. }
            | ReproduceError::UnknownTable { .. }
            | ReproduceError::BadArgs(_) => 2,
            ReproduceError::Unsupported(_)
            | ReproduceError::Run { .. }
            | ReproduceError::Definition(_)
            | ReproduceError::Io { .. } => 1,
        }
    }
}

impl std::fmt::Display for ReproduceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReproduceError::UnknownExperiment { name, known } => {
                write!(f, "no experiment `{name}` (known: {})", known.join(", "))
            }
            ReproduceError::UnknownTable {
                experiment,
                table,
                known,
            } => {
                write!(
                    f,
                    "{experiment} has no table or figure `{table}` (known: {})",
                    known.join(", ")
                )
            }
            ReproduceError::BadArgs(m) => f.write_str(m),
            ReproduceError::Unsupported(ms) => {
                write!(
                    f,
                    "this experiment cannot run: the engine refuses its scenarios:\n  {}",
                    ms.join("\n  ")
                )
            }
            ReproduceError::Run { variant, seed, msg } => {
                write!(f, "run `{variant}` seed {seed}: {msg}")
            }
            ReproduceError::Definition(m) => write!(f, "experiment definition: {m}"),
            ReproduceError::Io { path, err } => write!(f, "writing {}: {err}", path.display()),
        }
    }
}

/// Names of the experiments, in the order of [`registry`].
pub const NAMES: [&str; 3] = [rio_hori2001::NAME, rfc2963::NAME, rfc4828::NAME];

/// Every experiment (built from their base scenarios; an error is a broken definition).
pub fn registry() -> Result<Vec<Experiment>, ReproduceError> {
    Ok(vec![
        rio_hori2001::experiment().map_err(ReproduceError::Definition)?,
        rfc2963::experiment().map_err(ReproduceError::Definition)?,
        rfc4828::experiment().map_err(ReproduceError::Definition)?,
    ])
}

/// How to run an experiment (the command line minus names and paths).
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub table: Option<String>,
    pub seeds: Option<u32>,
    pub quick: bool,
    /// Worker threads; 0 = all cores.
    pub threads: usize,
    /// Show progress on stderr (see `crate::progress`: a bar on a terminal after 2 s, a line
    /// every 5 s elsewhere).
    pub progress: bool,
}

/// What a reproduction produced: the printed report and the files to write.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub text: String,
    /// (file name, contents), `report.txt` first.
    pub files: Vec<(String, String)>,
    pub runs: usize,
}

/// `qoslab reproduce`: runs, prints the report, writes the files.
pub fn run(args: ReproduceArgs) -> Result<(), ReproduceError> {
    if args.name == gfr_kim2001::NAME {
        return gfr_kim2001::run(args); // the ATM engine's own path
    }
    if args.name == pcn_stm::NAME {
        return pcn_stm::run(args); // the PCN engine's parallel path
    }
    if !NAMES.contains(&args.name.as_str()) {
        return Err(ReproduceError::UnknownExperiment {
            name: args.name,
            known: NAMES
                .iter()
                .copied()
                .chain([gfr_kim2001::NAME, pcn_stm::NAME])
                .collect(),
        });
    }
    let exps = registry()?;
    let exp = exps
        .iter()
        .find(|e| e.name == args.name)
        .expect("every name is registered");
    let opts = Options {
        seeds: args.seeds,
        ..args.options()
    };
    let t0 = std::time::Instant::now();
    let outcome = reproduce(exp, &opts)?;
    publish(exp.name, args.out, &outcome, None, t0)
}

impl ReproduceArgs {
    /// The run options these arguments ask for (seeds left to the experiment's policy).
    pub(crate) fn options(&self) -> Options {
        Options {
            table: self.table.clone(),
            seeds: None,
            quick: self.quick,
            threads: self.jobs.unwrap_or(0),
            progress: true, // a bar on a terminal, throttled lines elsewhere
        }
    }
}

/// Writes `outcome`'s files under `out` (default `out/reproduce/<name>`), prints its report,
/// then on stderr `engine` (a speed line, if any) and the wall time since `t0`: the end of
/// every experiment's `run`.
pub(crate) fn publish(
    name: &str,
    out: Option<PathBuf>,
    outcome: &Outcome,
    engine: Option<&str>,
    t0: std::time::Instant,
) -> Result<(), ReproduceError> {
    let default = out.is_none();
    let dir = out.unwrap_or_else(|| PathBuf::from("out").join("reproduce").join(name));
    write_files(&dir, &outcome.files)?;
    let info = html::RunInfo {
        command: std::env::args().skip(1).collect::<Vec<_>>().join(" "),
        wall_s: t0.elapsed().as_secs_f64(),
        engine,
    };
    let report = html::report_files(name, outcome, &info);
    write_files(&dir, &report)?;
    print!("{}", outcome.text);
    println!(
        "wrote {} ({} files; report: {})",
        dir.display(),
        outcome.files.len() + report.len(),
        dir.join("index.html").display()
    );
    if let Some(root) = dir.parent().filter(|_| default) {
        let idx = html::index_page(root);
        write_files(root, &[("index.html".to_string(), idx)])?;
    }
    if let Some(e) = engine {
        eprintln!("{e}");
    }
    eprintln!(
        "{} runs in {:.1} s wall",
        outcome.runs,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

pub fn write_files(
    dir: &std::path::Path,
    files: &[(String, String)],
) -> Result<(), ReproduceError> {
    std::fs::create_dir_all(dir).map_err(|err| ReproduceError::Io {
        path: dir.to_path_buf(),
        err,
    })?;
    for (name, body) in files {
        let path = dir.join(name);
        std::fs::write(&path, body).map_err(|err| ReproduceError::Io { path, err })?;
    }
    Ok(())
}

/// One (variant, seed) run to do.
struct Job {
    variant: usize,
    seed: u64,
    keep_samples: bool,
    scenario: qoslab_sim::scenario::spec::Scenario,
}

/// Runs what the selected tables and figures need and renders the results.
pub fn reproduce(exp: &Experiment, opts: &Options) -> Result<Outcome, ReproduceError> {
    exp.check().map_err(ReproduceError::Definition)?;
    // What to run.
    let (tables, figures): (Vec<_>, Vec<_>) = match &opts.table {
        None => (exp.tables.iter().collect(), exp.figures.iter().collect()),
        Some(t) => {
            let tables: Vec<_> = exp
                .tables
                .iter()
                .filter(|x| x.id.eq_ignore_ascii_case(&t.replace('.', "")))
                .collect();
            let figures: Vec<_> = exp
                .figures
                .iter()
                .filter(|x| x.id.eq_ignore_ascii_case(&t.replace('.', "")))
                .collect();
            if tables.is_empty() && figures.is_empty() {
                return Err(ReproduceError::UnknownTable {
                    experiment: exp.name,
                    table: t.clone(),
                    known: exp
                        .tables
                        .iter()
                        .map(|x| x.id)
                        .chain(exp.figures.iter().map(|x| x.id))
                        .collect(),
                });
            }
            (tables, figures)
        }
    };
    let seeds = opts.seeds.unwrap_or(if opts.quick {
        exp.quick.seeds
    } else {
        exp.seeds
    });
    if seeds == 0 {
        return Err(ReproduceError::BadArgs("--seeds must be at least 1".into()));
    }
    let mut needed = vec![false; exp.variants.len()];
    let mut samples = vec![false; exp.variants.len()];
    for t in &tables {
        for r in t.rows.iter().filter(|r| r.needs_runs()) {
            needed[r.variant] = true;
        }
    }
    for f in &figures {
        for v in f.kind.variants() {
            needed[v] = true;
            samples[v] |= f.kind.needs_samples();
        }
    }
    // The scenarios as the engine will run them; refuse what it cannot run.
    let mut jobs = Vec::new();
    let mut unsupported: Vec<String> = Vec::new();
    for (vi, v) in exp.variants.iter().enumerate().filter(|(i, _)| needed[*i]) {
        let mut sc = v.scenario.clone();
        if opts.quick {
            sc.duration = exp.quick.duration;
            sc.warmup = exp.quick.warmup;
        }
        if let Err(m) = qoslab_sim::Simulator::new(sc.clone(), 1) {
            unsupported.push(format!("the engine refuses a scenario: {m}"));
            continue;
        }
        let seed_list: Vec<u64> = match v.seeds {
            SeedPolicy::Replicate => (1..=seeds as u64).collect(),
            SeedPolicy::Fixed(s) => vec![s],
        };
        for (k, seed) in seed_list.into_iter().enumerate() {
            jobs.push(Job {
                variant: vi,
                seed,
                keep_samples: samples[vi] && k == 0,
                scenario: sc.clone(),
            });
        }
    }
    if !unsupported.is_empty() {
        // Many variants share a reason: list each distinct message once, at most five.
        unsupported.sort();
        unsupported.dedup();
        let more = unsupported.len().saturating_sub(5);
        unsupported.truncate(5);
        if more > 0 {
            unsupported.push(format!("... and {more} more"));
        }
        return Err(ReproduceError::Unsupported(unsupported));
    }
    // Run.
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    } else {
        opts.threads
    };
    let mut bar = crate::progress::Bar::new(opts.progress, "reproducing");
    let results = runner::par_map(
        &jobs,
        threads,
        |j| runner::run_one(j.scenario.clone(), j.seed, j.keep_samples),
        |done, total| bar.update(done as f64 / total as f64, &format!("{done}/{total} runs")),
    );
    bar.finish();
    let mut outputs: Vec<Vec<(u64, RunOutput)>> =
        (0..exp.variants.len()).map(|_| Vec::new()).collect();
    for (j, r) in jobs.iter().zip(results) {
        let out = r.map_err(|msg| ReproduceError::Run {
            variant: exp.variants[j.variant].key.clone(),
            seed: j.seed,
            msg,
        })?;
        outputs[j.variant].push((j.seed, out));
    }
    // Tables.
    let mode = if opts.quick { "quick run" } else { "full run" };
    let mut text = String::new();
    let _ = writeln!(text, "{} — {}", exp.name, exp.title);
    let _ = writeln!(text, "source: {}", exp.source);
    let _ = writeln!(text, "{mode}: seeds 1..={seeds}, {} runs\n", jobs.len());
    let mut files = Vec::new();
    for t in &tables {
        let published = match t.published {
            Some(f) => Some(published::load(f).map_err(ReproduceError::Definition)?),
            None => None,
        };
        let mut cells = Vec::new();
        for r in &t.rows {
            let runs: &[(u64, RunOutput)] = if r.needs_runs() {
                &outputs[r.variant]
            } else {
                &[]
            };
            let mut row = Vec::new();
            for (col, m) in t.columns.iter().zip(&r.cells) {
                // A computed cell has one value and no seed.
                let (values, seeds): (Vec<f64>, Vec<u64>) = match m.computed() {
                    Some(v) => (vec![v], Vec::new()),
                    None => (
                        runs.iter()
                            .map(|(_, o)| m.extract(&o.result).unwrap_or(f64::NAN))
                            .collect(),
                        runs.iter().map(|(s, _)| *s).collect(),
                    ),
                };
                row.push(CellResult {
                    ours: Summary::of(&values),
                    seeds,
                    values,
                    published: published
                        .as_ref()
                        .and_then(|p| p.value(&t.keys, &r.keys, col.name)),
                });
            }
            cells.push(row);
        }
        let tr = TableResult {
            table: t,
            cells,
            published_notes: published.map(|p| p.notes).unwrap_or_default(),
        };
        let note = match t.rows.iter().find(|r| r.needs_runs()) {
            None => "computed from the source's equations (no simulation)".to_string(),
            Some(r) => {
                let scen = &exp.variants[r.variant].scenario;
                let (dur, warm) = if opts.quick {
                    (
                        exp.quick.duration.as_secs_f64(),
                        exp.quick.warmup.as_secs_f64(),
                    )
                } else {
                    (scen.duration.as_secs_f64(), scen.warmup.as_secs_f64())
                };
                // Whole microseconds: 60 s, not the 60.00000000000001 of ns -> f64 seconds.
                let (dur, warm) = ((dur * 1e6).round() / 1e6, (warm * 1e6).round() / 1e6);
                format!("mean over seeds 1..={seeds}, {dur} s simulated, statistics after {warm} s")
            }
        };
        text.push_str(&tr.to_text(&note));
        text.push('\n');
        files.push((format!("table_{}.csv", t.id), tr.to_csv()));
        files.push((format!("table_{}_runs.csv", t.id), tr.runs_csv()));
    }
    // Figures.
    for f in &figures {
        let svg = figures::draw(f, |v| outputs[v].iter().map(|(_, o)| o).collect());
        files.push((format!("{}.svg", f.id), svg));
        let _ = writeln!(text, "Figure {} — {} ({}.svg)", f.id, f.title, f.id);
    }
    if !exp.notes.is_empty() {
        let _ = writeln!(text, "\nChoices the source leaves open:");
        for n in &exp.notes {
            let _ = writeln!(text, "  - {n}");
        }
    }
    files.insert(0, ("report.txt".to_string(), text.clone()));
    Ok(Outcome {
        text,
        files,
        runs: jobs.len(),
    })
}
