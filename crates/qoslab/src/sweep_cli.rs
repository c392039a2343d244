//! `qoslab sweep` and `qoslab run --format parquet`: the command-line side of [`super`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use clap::{Args, ValueEnum};

use super::arrow::parquet_bytes;
use super::set::parse_cli_value;
use super::{load_any, plan, run_any, run_local, AnyOutput, Store};

/// `qoslab sweep SCENARIO --set key=v1,v2,... --seeds N --out DIR`.
#[derive(Args, Debug)]
pub struct SweepArgs {
    pub scenario: PathBuf,
    /// A key path and its values: `link[G1->G2].queue.max_p=0.05,0.1,0.2` (repeat for a
    /// grid; values are TOML values, or strings: `link[G1->G2].rate=50Mbps,70Mbps`).
    #[arg(long = "set", value_name = "KEY=V1,V2,...")]
    pub set: Vec<String>,
    /// Run seeds 1..=N of every point.
    #[arg(long, default_value_t = 1)]
    pub seeds: u64,
    /// The store directory (a Parquet dataset: one file per finished cell); rerunning the
    /// same sweep into it runs only the missing cells.
    #[arg(long)]
    pub out: PathBuf,
    /// Threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// After the runs, merge the store's one-row cell files into larger part files
    /// (resumable as before: a merged cell counts as done).
    #[arg(long)]
    pub compact: bool,
}

/// Output formats of `qoslab run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// `flows.csv`, `queues.csv` and the series as CSV.
    #[default]
    Csv,
    /// The same tables as Parquet files (`flows.parquet`, ...).
    Parquet,
}

/// Splits `key=v1,v2` (commas inside brackets, braces or quotes do not split).
fn parse_set(s: &str) -> Result<(String, Vec<toml_edit::Value>), String> {
    let (key, vals) = s
        .split_once('=')
        .ok_or_else(|| format!("--set `{s}`: expected KEY=V1,V2,..."))?;
    let mut out = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0);
    let b: Vec<(usize, char)> = vals.char_indices().collect();
    for &(i, c) in &b {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(parse_cli_value(&vals[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(parse_cli_value(&vals[start..]));
    if out.iter().any(|v| v.as_str() == Some("")) {
        return Err(format!("--set `{s}`: an empty value"));
    }
    Ok((key.trim().to_string(), out))
}

/// Runs a sweep; `Err((exit code, message))`.
pub fn sweep(a: SweepArgs) -> Result<(), (u8, String)> {
    let bad = |m: String| (2u8, format!("error: {m}"));
    let shown = a.scenario.display().to_string();
    let text = std::fs::read_to_string(&a.scenario)
        .map_err(|e| bad(format!("{shown}: cannot read: {e}")))?;
    let grid = a
        .set
        .iter()
        .map(|s| parse_set(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    if a.seeds == 0 {
        return Err(bad("--seeds must be at least 1".into()));
    }
    let seeds: Vec<u64> = (1..=a.seeds).collect();
    let mut store = Store::open(&a.out, &text).map_err(bad)?;
    let cells = plan(&text, &shown, &grid, &seeds, &store).map_err(|e| bad(e.to_string()))?;
    let threads = a.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let before = cells.iter().filter(|c| c.done).count();
    let t0 = Instant::now();
    let bar = Mutex::new(crate::progress::Bar::new(!a.quiet, "sweeping"));
    let progress = |d: usize, n: usize| {
        let el = t0.elapsed().as_secs_f64();
        let rate = (d - before) as f64 / el.max(1e-9);
        bar.lock().expect("no panics hold it").update(
            d as f64 / n as f64,
            &format!("{d}/{n} runs, {rate:.1} runs/s"),
        );
    };
    let cancel = AtomicBool::new(false);
    let ran = run_local(&text, &shown, &cells, &store, threads, &progress, &cancel)
        .map_err(|e| (1u8, format!("error: {e}")))?;
    bar.into_inner().expect("no panics hold it").finish();
    if !a.quiet {
        let wall = t0.elapsed().as_secs_f64();
        println!(
            "{} cells ({} points x {} seeds): {} run now, {} already in {}; {:.2} s, {:.2} runs/s on {} threads",
            cells.len(),
            cells.len() / seeds.len(),
            seeds.len(),
            ran,
            before,
            a.out.display(),
            wall,
            ran as f64 / wall.max(1e-9),
            threads
        );
    }
    if a.compact {
        let c = store
            .compact()
            .map_err(|e| (1u8, format!("error: compacting: {e}")))?;
        if !a.quiet {
            println!(
                "compacted {} cell files into {} part files ({} stale cell files removed)",
                c.cells, c.parts, c.stale
            );
        }
    }
    Ok(())
}

/// Writes `summary.json` and a Parquet file per table of a finished run (of any kind);
/// returns the number of files.
pub fn write_parquet(out: &AnyOutput, dir: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let w = |name: &str, b: &[u8]| {
        std::fs::write(dir.join(name), b).map_err(|e| format!("writing {name}: {e}"))
    };
    w("summary.json", out.summary_json().as_bytes())?;
    let tables = out.tables(false).map_err(|e| e.to_string())?;
    for (name, batch) in &tables {
        w(&format!("{name}.parquet"), &parquet_bytes(batch)?)?;
    }
    Ok(tables.len() + 1)
}

/// `qoslab run --format parquet` on a PCN or ATM scenario file: runs it and writes
/// `summary.json` and its tables (`sweep::engines`) as Parquet files; `Err((exit code,
/// message))`.
pub fn run_parquet(
    path: &Path,
    seed: Option<u64>,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<(), (u8, String)> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| (2, format!("error: {shown}: cannot read: {e}")))?;
    let sc = load_any(&text, &shown, &[]).map_err(|e| (2, format!("error: {e}")))?;
    let seed = seed.unwrap_or(sc.seed());
    let out = out.unwrap_or_else(|| PathBuf::from("out").join(sc.name()));
    let name = sc.name().to_string();
    let t0 = Instant::now();
    let o = run_any(sc, seed, |_| true).map_err(|e| (1, format!("internal error: {e}")))?;
    let n = write_parquet(&o, &out).map_err(|e| (1, format!("internal error: {e}")))?;
    if !quiet {
        println!(
            "{} run `{name}` seed {seed}: wrote {} ({n} files), {:.3} s",
            o.kind().name().to_uppercase(),
            out.display(),
            t0.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
