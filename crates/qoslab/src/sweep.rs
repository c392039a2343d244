//! Parameter sweeps: a scenario, a grid of key-path values ([`set`]) and a list of seeds →
//! one run per (point, seed) cell, each cell's figures in a Parquet file of its own in a
//! store directory, written as the run finishes. A run is a pure function of (scenario
//! text, overrides, seed), so a cell is named by a hash of exactly those: calling the same
//! sweep again finds the cells already there and runs only the missing ones (an
//! interrupted sweep loses only the runs in progress and never writes a cell twice).
//!
//! Used by `qoslab sweep` (all local cores, [`run_local`]) and by the Python package
//! (`qoslab.sweep`, which plans with [`plan`], runs cells with [`run_cell`] on a thread
//! pool or a Dask cluster and stores them with [`Store::write`]).
//!
//! A store holds `sweep.json` (the hash of the base scenario text: a store refuses a sweep
//! of another scenario) and `cell-<key>.parquet` files of one row each: the point's values
//! (one column per key path, typed as the TOML values), `seed`, `cell`, and the figures of
//! [`cell_batch`]. Files appear by rename, so a killed sweep leaves no partial cell.

#[path = "sweep_arrow.rs"]
pub mod arrow;
#[path = "sweep_cli.rs"]
pub mod cli;
#[path = "sweep_engines.rs"]
pub mod engines;
#[path = "sweep_set.rs"]
pub mod set;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use arrow_array::{ArrayRef, RecordBatch};
use qoslab_algo::Time;
use qoslab_sim::scenario::spec::Scenario;
use qoslab_sim::scenario::ScenarioError;
use qoslab_sim::Simulator;

pub use engines::{load_any, run_any, AnyOutput, AnyScenario, Kind};
pub use set::{Override, OverrideError};

use self::arrow::{one_f64, one_str, one_u64, toml_column, RunOutput};

/// A refused scenario: a key path that leads nowhere, a value the reader refuses, or (ATM)
/// a network the engine refuses to build.
#[derive(Clone, Debug)]
pub enum SetError {
    Override(OverrideError),
    Scenario(ScenarioError),
    Engine(String),
}

impl std::fmt::Display for SetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetError::Override(e) => e.fmt(f),
            SetError::Scenario(e) => e.fmt(f),
            SetError::Engine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SetError {}

/// Applies `overrides` to `text` and reads the result with the IP scenario reader (any
/// kind of scenario: [`load_any`]).
pub fn load_str(text: &str, file: &str, overrides: &[Override]) -> Result<Scenario, SetError> {
    let edited = set::apply(text, overrides).map_err(SetError::Override)?;
    qoslab_sim::scenario::parse_str(&edited, file).map_err(SetError::Scenario)
}

/// Why a run did not produce results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The check asked to stop (Ctrl-C).
    Cancelled,
    /// The engine refused the scenario or the conservation check failed.
    Failed(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Cancelled => write!(f, "cancelled"),
            RunError::Failed(m) => write!(f, "{m}"),
        }
    }
}

/// Events a slice of [`drive`] aims at between two calls of the check: about 10 ms of work.
pub const EVENTS_PER_CHECK: u64 = 1 << 17;

/// Runs `sim` to its end in slices of simulated time, asking `keep_going(fraction done)`
/// between slices; `Err(Cancelled)` as soon as it says no.
///
/// The slices adapt so that each holds about [`EVENTS_PER_CHECK`] events (halved when one
/// held twice that, doubled when it held half), which bounds the wall time between checks
/// without a hook in the engine's event loop. Results do not depend on the slicing:
/// `run_until(t)` processes exactly the events before `t`, and the next call goes on from
/// there (`driven_run_equals_one_shot_run` checks it).
pub fn drive(sim: &mut Simulator, keep_going: impl FnMut(f64) -> bool) -> Result<(), RunError> {
    let end = sim.end();
    drive_with(
        end,
        |t| {
            let before = sim.events_processed();
            sim.run_until(t);
            sim.events_processed() - before
        },
        keep_going,
    )
}

/// [`drive`] for any engine: `run_until(t)` processes the events before `t` and returns
/// how many it processed.
pub fn drive_with(
    end: Time,
    mut run_until: impl FnMut(Time) -> u64,
    mut keep_going: impl FnMut(f64) -> bool,
) -> Result<(), RunError> {
    let mut slice = (end.0 / 1000).max(1);
    let mut t = Time::ZERO;
    while t < end {
        if !keep_going(t.0 as f64 / end.0 as f64) {
            return Err(RunError::Cancelled);
        }
        t = Time(t.0.saturating_add(slice).min(end.0));
        let n = run_until(t);
        if n > 2 * EVENTS_PER_CHECK && slice > 1 {
            slice /= 2;
        } else if n < EVENTS_PER_CHECK / 2 {
            slice = slice.saturating_mul(2);
        }
    }
    Ok(())
}

/// Builds, drives and finishes a run, keeping its series for the tables.
pub fn run_output(
    scenario: Scenario,
    seed: u64,
    keep_going: impl FnMut(f64) -> bool,
) -> Result<RunOutput, RunError> {
    let mut sim = Simulator::new(scenario, seed).map_err(RunError::Failed)?;
    drive(&mut sim, keep_going)?;
    collect(sim)
}

/// Collects a simulator that has run to its end into the run's tables (with the
/// conservation check of `finish`).
pub fn collect(mut sim: Simulator) -> Result<RunOutput, RunError> {
    let links = sim.links.iter().map(|l| l.name.clone()).collect();
    let flows = sim.flows.iter().map(|f| f.name.clone()).collect();
    let queue_samples = std::mem::take(&mut sim.samples);
    let flow_samples = std::mem::take(&mut sim.flow_samples);
    let tcp_samples = std::mem::take(&mut sim.tcp_samples);
    let tfrc_samples = std::mem::take(&mut sim.tfrc_samples);
    let tfrc_series = sim.scenario.output.tfrc_series;
    let result = sim.finish().map_err(RunError::Failed)?;
    Ok(RunOutput {
        result,
        links,
        flows,
        queue_samples,
        flow_samples,
        tcp_samples,
        tfrc_samples,
        tfrc_series,
    })
}

/// The points of a grid: the Cartesian product of the keys' values, the first key varying
/// slowest.
pub fn points(grid: &[(String, Vec<toml_edit::Value>)]) -> Vec<Vec<Override>> {
    let mut out: Vec<Vec<Override>> = vec![Vec::new()];
    for (key, vals) in grid {
        out = out
            .into_iter()
            .flat_map(|p| {
                vals.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push(Override::new(key.clone(), v.clone()));
                    q
                })
            })
            .collect();
    }
    out
}

/// FNV-1a, 64 bits: a stable name for a text (not for security: cells are named, not
/// authenticated).
fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
/// The splitmix64 finaliser (a bijection): spreads FNV's last-byte differences over all
/// digits, so names of neighbouring cells do not look alike.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The hash of a base scenario text, as 16 hex digits.
pub fn text_key(text: &str) -> String {
    format!("{:016x}", fnv1a(text.as_bytes(), FNV_OFFSET))
}

/// The name of the cell (base text, point, seed): 16 hex digits of two independent FNV-1a
/// passes (32 hex digits in all).
pub fn cell_key(text: &str, point: &[Override], seed: u64) -> String {
    let mut s = String::with_capacity(text.len() + 64);
    s.push_str(text);
    for o in point {
        s.push('\u{1}');
        s.push_str(&o.key);
        s.push('\u{2}');
        s.push_str(&o.value_text());
    }
    s.push('\u{3}');
    s.push_str(&seed.to_string());
    let a = mix(fnv1a(s.as_bytes(), FNV_OFFSET));
    let b = mix(fnv1a(s.as_bytes(), 0x6c62_272e_07bb_0142));
    format!("{a:016x}{b:016x}")
}

/// The figures of one finished cell, one row: the point's values, `seed`, `cell`,
/// `events`, `goodput_bps` (all flows), `jain_index`, then per reported queue
/// `queue[<link>].{utilisation, throughput_bps, ql_mean, ql_time_mean, ql_p99, drops,
/// marks}` and per flow `flow[<name>].{goodput_bps, drop_rate}` (window figures, as in
/// `summary.json`).
pub fn cell_batch(
    point: &[Override],
    seed: u64,
    key: &str,
    r: &qoslab_sim::RunResult,
) -> RecordBatch {
    let mut cols: Vec<(String, ArrayRef)> = point
        .iter()
        .map(|o| (o.key.clone(), toml_column(&o.value)))
        .collect();
    cols.push(("seed".into(), one_u64(seed)));
    cols.push(("cell".into(), one_str(key)));
    cols.push(("events".into(), one_u64(r.events)));
    cols.push(("goodput_bps".into(), one_f64(r.aggregate.goodput_bps)));
    cols.push(("jain_index".into(), one_f64(r.aggregate.jain_index)));
    for q in &r.queues {
        let m = &q.measured;
        let p = |f: &str| format!("queue[{}].{f}", q.link);
        cols.push((p("utilisation"), one_f64(q.utilisation)));
        cols.push((p("throughput_bps"), one_f64(q.throughput_bps)));
        cols.push((p("ql_mean"), one_f64(q.length.mean)));
        cols.push((p("ql_time_mean"), one_f64(q.length.time_mean)));
        cols.push((p("ql_p99"), one_f64(q.length.p99 as f64)));
        cols.push((p("drops"), one_u64(m.total_drops())));
        cols.push((p("marks"), one_u64(m.marks.iter().sum())));
    }
    for f in &r.flows {
        let p = |x: &str| format!("flow[{}].{x}", f.name);
        cols.push((p("goodput_bps"), one_f64(f.goodput_bps)));
        cols.push((p("drop_rate"), one_f64(f.drop_rate)));
    }
    RecordBatch::try_from_iter(cols).expect("one-row columns of distinct names")
}

/// Runs one cell (a scenario of any kind) and returns its Parquet file's bytes.
pub fn run_cell(
    text: &str,
    file: &str,
    point: &[Override],
    seed: u64,
    keep_going: impl FnMut(f64) -> bool,
) -> Result<Vec<u8>, CellError> {
    let sc = load_any(text, file, point).map_err(CellError::Set)?;
    let out = run_any(sc, seed, keep_going).map_err(CellError::Run)?;
    let key = cell_key(text, point, seed);
    arrow::parquet_bytes(&out.cell_batch(point, seed, &key)).map_err(CellError::Io)
}

/// Why a cell has no results.
#[derive(Debug)]
pub enum CellError {
    Set(SetError),
    Run(RunError),
    Io(String),
}

impl std::fmt::Display for CellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellError::Set(e) => e.fmt(f),
            CellError::Run(e) => e.fmt(f),
            CellError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// A store directory of cells: loose `cell-<key>.parquet` files of one row, and
/// `part-<hash>.parquet` files of many rows made by [`Store::compact`].
pub struct Store {
    pub dir: PathBuf,
    /// The cells in part files (read when the store is opened).
    compacted: std::collections::BTreeSet<String>,
}

/// What [`Store::compact`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Loose cell files merged (and removed).
    pub cells: usize,
    /// Part files written.
    pub parts: usize,
    /// Loose cell files removed because a part already held their cell (left by a
    /// compaction stopped between writing its part and removing the files).
    pub stale: usize,
}

impl Store {
    /// Opens (creating) the store for sweeps of the base text `text`; refuses a store that
    /// holds a sweep of another scenario text.
    pub fn open(dir: &Path, text: &str) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("sweep store {} cannot be created: {e}", dir.display()))?;
        let manifest = dir.join("sweep.json");
        let want = text_key(text);
        match std::fs::read_to_string(&manifest) {
            Ok(s) => {
                let v: serde_json::Value = serde_json::from_str(&s)
                    .map_err(|e| format!("{}: not a sweep manifest: {e}", manifest.display()))?;
                let have = v
                    .get("scenario_hash")
                    .and_then(|x| x.as_str())
                    .unwrap_or("");
                if have != want {
                    return Err(format!(
                        "sweep store {} holds a sweep of another scenario text (hash {have}, this one {want}): \
                         choose another store or remove it",
                        dir.display()
                    ));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let body = format!(
                    "{{\n  \"format\": \"qoslab-sweep-1\",\n  \"scenario_hash\": \"{want}\"\n}}\n"
                );
                write_atomic(&manifest, body.as_bytes())
                    .map_err(|e| format!("writing {}: {e}", manifest.display()))?;
            }
            Err(e) => return Err(format!("{}: {e}", manifest.display())),
        }
        Store::open_existing(dir)
    }

    /// An existing store, whatever its scenario (for compacting or reading it).
    pub fn open_existing(dir: &Path) -> Result<Store, String> {
        let manifest = dir.join("sweep.json");
        if !manifest.is_file() {
            return Err(format!(
                "{} is not a sweep store (it has no sweep.json)",
                dir.display()
            ));
        }
        let mut store = Store::at(dir);
        for p in store.files("part-")? {
            store.compacted.extend(arrow::read_cell_keys(&p)?);
        }
        Ok(store)
    }

    /// The store at `dir` without checking its manifest or reading its parts: for writing
    /// cells into a store a plan has opened.
    pub fn at(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
            compacted: Default::default(),
        }
    }

    pub fn cell_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("cell-{key}.parquet"))
    }

    /// Whether the cell is done: in a part file or a loose cell file.
    pub fn has(&self, key: &str) -> bool {
        self.compacted.contains(key) || self.cell_path(key).is_file()
    }

    /// Writes a cell's file by rename (never partial, never twice the same cell).
    pub fn write(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        write_atomic(&self.cell_path(key), bytes)
    }

    /// The store's `<prefix>*.parquet` files, by name.
    fn files(&self, prefix: &str) -> Result<Vec<PathBuf>, String> {
        let rd =
            std::fs::read_dir(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let mut out = Vec::new();
        for e in rd {
            let e = e.map_err(|e| format!("{}: {e}", self.dir.display()))?;
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with(prefix) && name.ends_with(".parquet") {
                out.push(e.path());
            }
        }
        out.sort();
        Ok(out)
    }

    /// The key of a loose cell file's name.
    fn key_of(p: &Path) -> Option<&str> {
        p.file_name()?
            .to_str()?
            .strip_prefix("cell-")?
            .strip_suffix(".parquet")
    }

    /// Merges every loose cell file into part files and removes the cell files: one part
    /// per schema (cells of one sweep share theirs unless a grid key's values differ in
    /// type), rows in cell-name order, named `part-<hash of its cell names>.parquet`.
    ///
    /// Safe to stop at any point: a part appears by rename and its cell files are removed
    /// only after; a cell in both a part and a loose file (a compaction stopped between the
    /// two) is read once ([`Store::read`]) and its loose file removed by the next
    /// compaction. Cells written by a sweep running at the same time are left for the next
    /// compaction (only the files listed at the start are merged).
    pub fn compact(&mut self) -> Result<Compacted, String> {
        let mut done = Compacted::default();
        let mut groups: std::collections::BTreeMap<String, Vec<(String, RecordBatch)>> =
            Default::default();
        let mut merged = Vec::new();
        for p in self.files("cell-")? {
            let Some(key) = Store::key_of(&p).map(str::to_string) else {
                continue;
            };
            if self.compacted.contains(&key) {
                std::fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                done.stale += 1;
                continue;
            }
            let b = arrow::read_parquet_files(std::slice::from_ref(&p))?;
            let schema = format!("{:?}", b.schema().fields());
            groups.entry(schema).or_default().push((key, b));
            merged.push(p);
        }
        for (_, mut cells) in groups {
            cells.sort_by(|a, b| a.0.cmp(&b.0));
            let names: String = cells.iter().map(|c| c.0.as_str()).collect();
            let part = self.dir.join(format!("part-{}.parquet", text_key(&names)));
            let batches: Vec<RecordBatch> = cells.iter().map(|c| c.1.clone()).collect();
            let bytes = arrow::parquet_bytes(&arrow::concat_batches(&batches)?)?;
            write_atomic(&part, &bytes).map_err(|e| format!("writing {}: {e}", part.display()))?;
            self.compacted.extend(cells.into_iter().map(|c| c.0));
            done.parts += 1;
        }
        for p in merged {
            std::fs::remove_file(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            done.cells += 1;
        }
        Ok(done)
    }

    /// The rows of `keys`, in that order, each once, from the part files and the loose
    /// cell files (a column a cell lacks is null in its row). A key the store lacks is an
    /// error; a column typed differently in two files too (the caller can fall back to a
    /// promoting reader over [`Store::data_files`]).
    pub fn read(&self, keys: &[String]) -> Result<RecordBatch, String> {
        let want: std::collections::BTreeSet<&str> = keys.iter().map(String::as_str).collect();
        let mut files = self.files("part-")?;
        for k in keys {
            if !self.compacted.contains(k) {
                files.push(self.cell_path(k));
            }
        }
        let all = arrow::read_parquet_files(&files)?;
        arrow::select_cells(&all, keys, &want)
    }

    /// Every data file of the store: parts, then loose cells.
    pub fn data_files(&self) -> Result<Vec<PathBuf>, String> {
        let mut f = self.files("part-")?;
        f.extend(self.files("cell-")?);
        Ok(f)
    }
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// Column names of [`cell_batch`] a grid key may not take.
pub const RESERVED: &[&str] = &["seed", "cell", "events", "goodput_bps", "jain_index"];

/// One cell of a plan.
pub struct Cell {
    pub point: Vec<Override>,
    pub seed: u64,
    pub key: String,
    /// Already in the store.
    pub done: bool,
}

/// Every cell of a sweep in order (points as [`points`], seeds inner; a repeated value or
/// seed gives no second cell), each point checked by the reader first: a bad grid value is
/// refused before any run.
pub fn plan(
    text: &str,
    file: &str,
    grid: &[(String, Vec<toml_edit::Value>)],
    seeds: &[u64],
    store: &Store,
) -> Result<Vec<Cell>, SetError> {
    for (key, _) in grid {
        if RESERVED.contains(&key.as_str()) {
            return Err(SetError::Override(OverrideError {
                key: key.clone(),
                message: format!(
                    "`{key}` names a column of the sweep's results ({}); the run seed comes from the seed list",
                    RESERVED.join(", ")
                ),
            }));
        }
    }
    let mut cells = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in points(grid) {
        load_any(text, file, &p)?;
        for &seed in seeds {
            let key = cell_key(text, &p, seed);
            if !seen.insert(key.clone()) {
                continue; // a value or seed given twice: one cell
            }
            let done = store.has(&key);
            cells.push(Cell {
                point: p.clone(),
                seed,
                key,
                done,
            });
        }
    }
    Ok(cells)
}

/// Runs the cells not yet done on `threads` threads, writing each as it finishes;
/// `progress(done, total)` after each. Returns the number of runs made; the first failure
/// stops the sweep (cells already written stay).
pub fn run_local(
    text: &str,
    file: &str,
    cells: &[Cell],
    store: &Store,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &AtomicBool,
) -> Result<usize, String> {
    let todo: Vec<&Cell> = cells.iter().filter(|c| !c.done).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(cells.len() - todo.len());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = todo.get(i) else { return };
                let keep = |_| !cancel.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed);
                let res = run_cell(text, file, &c.point, c.seed, keep)
                    .map_err(|e| e.to_string())
                    .and_then(|b| {
                        store.write(&c.key, &b).map_err(|e| {
                            format!("writing {}: {e}", store.cell_path(&c.key).display())
                        })
                    });
                match res {
                    Ok(()) => {
                        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                        progress(d, cells.len());
                    }
                    Err(e) => {
                        if !cancel.load(Ordering::Relaxed) {
                            let point: Vec<String> = c
                                .point
                                .iter()
                                .map(|o| format!("{}={}", o.key, o.value_text()))
                                .collect();
                            failure
                                .lock()
                                .expect("no panics hold it")
                                .get_or_insert(format!(
                                    "cell ({}, seed {}): {e}",
                                    point.join(", "),
                                    c.seed
                                ));
                        }
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("no panics hold it") {
        return Err(e);
    }
    if cancel.load(Ordering::Relaxed) {
        return Err("cancelled".into());
    }
    Ok(todo.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SC: &str = r#"name = "tiny"
duration = "2s"
warmup = "0.5s"
[[node]]
name = "S{i}"
count = 2
[[node]]
name = "G"
kind = "router"
[[node]]
name = "D"
[[link]]
from = "S{i}"
to = "G"
count = 2
rate = "10Mbps"
delay = "2ms"
[[link]]
from = "G"
to = "D"
rate = "4Mbps"
delay = "5ms"
queue = { kind = "red", limit = "60p", min_th = 5, max_th = 30, max_p = 0.1, w_q = 0.002 }
[[flow]]
name = "t{i}"
count = 2
src = "S{i}"
dst = "D"
kind = "tcp"
[output]
sample_interval = "10ms"
monitor = ["G->D"]
"#;

    fn parse(text: &str) -> Scenario {
        qoslab_sim::scenario::parse_str(text, "tiny.toml").unwrap()
    }

    #[test]
    fn driven_run_equals_one_shot_run() {
        let one = Simulator::new(parse(SC), 3).unwrap().run().unwrap();
        let mut checks = 0;
        let out = run_output(parse(SC), 3, |_| {
            checks += 1;
            true
        })
        .unwrap();
        assert!(checks > 1, "{checks}");
        assert_eq!(
            qoslab_sim::output::summary_json(&one),
            qoslab_sim::output::summary_json(&out.result)
        );
    }

    #[test]
    fn a_run_stops_when_asked() {
        let mut n = 0;
        let r = run_output(parse(SC), 3, |_| {
            n += 1;
            n < 3
        });
        assert_eq!(r.err(), Some(RunError::Cancelled));
    }

    #[test]
    fn bad_overrides_are_refused_by_the_reader_with_its_location() {
        let e = load_str(
            SC,
            "tiny.toml",
            &[Override::new("link[G->D].queue.max_p", 1.5)],
        )
        .unwrap_err();
        let SetError::Scenario(e) = e else {
            panic!("{e}")
        };
        assert_eq!(e.path(), "link[1].queue.max_p");
        assert_eq!(e.line(), Some(23));
        assert_eq!(e.file(), "tiny.toml");
        let e = load_str(SC, "tiny.toml", &[Override::new("link[G->D].rat", "1Mbps")]).unwrap_err();
        assert!(e.to_string().contains("rat"), "{e}");
    }

    #[test]
    fn grids_are_row_major_and_cells_named_by_content() {
        let g = vec![
            ("a".to_string(), vec![1.into(), 2.into()]),
            ("b".to_string(), vec!["x".into(), "y".into(), "z".into()]),
        ];
        let p = points(&g);
        assert_eq!(p.len(), 6);
        assert_eq!(p[1][0].value_text(), "1");
        assert_eq!(p[1][1].value_text(), "\"y\"");
        assert_eq!(p[3][0].value_text(), "2");
        let k = cell_key(SC, &p[0], 1);
        assert_eq!(k, cell_key(SC, &p[0], 1));
        assert_ne!(k, cell_key(SC, &p[0], 2));
        assert_ne!(k, cell_key(SC, &p[1], 1));
        assert_ne!(k, cell_key(&SC.replace("2s", "3s"), &p[0], 1));
        assert_eq!(k.len(), 32);
    }

    #[test]
    fn local_sweep_resumes_without_duplicates() {
        let dir = std::env::temp_dir().join(format!("qoslab-sweep-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, SC).unwrap();
        let grid = vec![(
            "link[G->D].queue.max_p".to_string(),
            vec![0.05.into(), 0.2.into()],
        )];
        let cells = plan(SC, "tiny.toml", &grid, &[1, 2], &store).unwrap();
        assert_eq!(cells.len(), 4);
        let no = AtomicBool::new(false);
        let n = run_local(SC, "tiny.toml", &cells[..3], &store, 2, &|_, _| {}, &no).unwrap();
        assert_eq!(n, 3);
        let cells = plan(SC, "tiny.toml", &grid, &[1, 2], &store).unwrap();
        assert_eq!(cells.iter().filter(|c| c.done).count(), 3);
        let n = run_local(SC, "tiny.toml", &cells, &store, 2, &|_, _| {}, &no).unwrap();
        assert_eq!(n, 1);
        let files = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(files, 5, "manifest + 4 cells");
        let keys: Vec<String> = cells.iter().map(|c| c.key.clone()).collect();
        let before = store.read(&keys).unwrap();
        assert_eq!(before.num_rows(), 4);
        // compaction: one part file, the same rows in plan order, resume still knows them
        let mut store = Store::open(&dir, SC).unwrap();
        let c = store.compact().unwrap();
        assert_eq!((c.cells, c.parts, c.stale), (4, 1, 0));
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names.iter().any(|n| n.starts_with("part-")), "{names:?}");
        assert_eq!(store.read(&keys).unwrap(), before);
        let store = Store::open(&dir, SC).unwrap();
        assert_eq!(store.read(&keys).unwrap(), before);
        let cells = plan(SC, "tiny.toml", &grid, &[1, 2, 3], &store).unwrap();
        assert_eq!(cells.iter().filter(|c| c.done).count(), 4);
        let n = run_local(SC, "tiny.toml", &cells, &store, 2, &|_, _| {}, &no).unwrap();
        assert_eq!(n, 2, "only the new seed's cells run");
        // a compaction stopped before removing its cell files: a cell in a part and loose
        let stale = store.cell_path(&keys[0]);
        std::fs::write(&stale, arrow::parquet_bytes(&before.slice(0, 1)).unwrap()).unwrap();
        let mut store = Store::open(&dir, SC).unwrap();
        assert_eq!(store.read(&keys).unwrap(), before, "read once");
        let c = store.compact().unwrap();
        assert_eq!((c.cells, c.parts, c.stale), (2, 1, 1));
        let all: Vec<String> = plan(SC, "tiny.toml", &grid, &[1, 2, 3], &store)
            .unwrap()
            .into_iter()
            .map(|c| {
                assert!(c.done);
                c.key
            })
            .collect();
        assert_eq!(store.read(&all).unwrap().num_rows(), 6);
        assert!(store.read(&["nope".to_string()]).is_err());
        assert!(Store::open(&dir, &SC.replace("2s", "3s")).is_err());
        let seed_grid = vec![("seed".to_string(), vec![1.into()])];
        let e = plan(SC, "tiny.toml", &seed_grid, &[1], &store)
            .err()
            .unwrap();
        assert!(e.to_string().contains("names a column"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
