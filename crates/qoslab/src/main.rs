//! `qoslab` — the command line: parses the arguments and maps failures to exit codes; the
//! work is done by the library (`qoslab::condition`, `qoslab::reproduce`, ...; see its
//! layer map in `lib.rs`).
//!
//! Exit status: 0 success, 2 bad input (scenario, chain or trace file), 1 internal failure
//! (including a failed conservation check).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use qoslab::{condition, progress, reproduce, summary};

#[derive(Parser)]
#[command(
    name = "qoslab",
    version,
    about = "A fast, exact packet-level laboratory for network QoS mechanisms"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a scenario: print a summary, write summary.json and CSVs.
    Run {
        scenario: PathBuf,
        /// Master seed (overrides the scenario's `seed`).
        #[arg(long)]
        seed: Option<u64>,
        /// Output directory (default: out/<scenario name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
        /// Table format (`summary.json` is JSON in both).
        #[arg(long, value_enum, default_value_t)]
        format: qoslab::sweep::cli::Format,
    },
    /// Run a scenario over a grid of key-path values and seeds, resumably, into Parquet.
    Sweep(qoslab::sweep::cli::SweepArgs),
    /// Check a scenario file and describe it, without running it.
    Validate { scenario: PathBuf },
    /// Run a chain of conditioners (meters, markers, shapers) over a packet trace.
    Condition(condition::ConditionArgs),
    /// Rerun the tables and figures of a reproduced document beside the published values.
    Reproduce(reproduce::ReproduceArgs),
}

/// An error with its exit status.
struct Failure {
    code: u8,
    msg: String,
}

use qoslab::reproduce::gfr_kim2001_cli as atm;
fn atm_failure((code, msg): (u8, String)) -> Failure {
    Failure { code, msg }
}
fn bad_input(msg: impl std::fmt::Display) -> Failure {
    Failure {
        code: 2,
        msg: format!("error: {msg}"),
    }
}
fn internal(msg: impl std::fmt::Display) -> Failure {
    Failure {
        code: 1,
        msg: format!("internal error: {msg}"),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let res = match cli.cmd {
        Cmd::Run {
            scenario,
            seed,
            out,
            quiet,
            format,
        } if atm::is_atm_file(&scenario) => match format {
            qoslab::sweep::cli::Format::Csv => {
                atm::run(&scenario, seed, out, quiet).map_err(atm_failure)
            }
            _ => qoslab::sweep::cli::run_parquet(&scenario, seed, out, quiet).map_err(atm_failure),
        },
        Cmd::Run {
            scenario,
            seed,
            out,
            quiet,
            format,
        } => cmd_run(&scenario, seed, out, quiet, format),
        Cmd::Sweep(args) => qoslab::sweep::cli::sweep(args).map_err(atm_failure),
        Cmd::Validate { scenario } if atm::is_atm_file(&scenario) => {
            atm::validate(&scenario).map_err(atm_failure)
        }
        Cmd::Validate { scenario } => cmd_validate(&scenario),
        Cmd::Condition(args) => condition::run(args).map_err(|e| Failure {
            code: e.exit_code() as u8,
            msg: format!("error: {e}"),
        }),
        Cmd::Reproduce(args) => reproduce::run(args).map_err(|e| Failure {
            code: e.exit_code(),
            msg: format!("error: {e}"),
        }),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.msg);
            ExitCode::from(f.code)
        }
    }
}

fn load(path: &Path) -> Result<qoslab_sim::scenario::spec::Scenario, Failure> {
    qoslab_sim::scenario::load(path).map_err(bad_input)
}

fn cmd_validate(path: &Path) -> Result<(), Failure> {
    if reproduce::pcn_stm::cli::is_pcn_file(path) {
        return reproduce::pcn_stm::cli::validate(path)
            .map_err(|(code, msg)| Failure { code, msg });
    }
    let s = load(path)?;
    println!(
        "{}: ok — scenario `{}`: {} nodes, {} unidirectional links, {} flows, {} s (warm-up {} s), seed {}",
        path.display(),
        s.name,
        s.nodes.len(),
        s.links.len(),
        s.flows.len(),
        s.duration.as_secs_f64(),
        s.warmup.as_secs_f64(),
        s.seed
    );
    print!("{}", qoslab::output_validate::describe(&s));
    Ok(())
}

/// Creates `dir` if needed and proves a file can be written in it.
fn check_writable(dir: &Path) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        bad_input(format!(
            "output directory {} cannot be written: {e} (choose another with --out)",
            dir.display()
        ))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(".qoslab-write-check");
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

fn cmd_run(
    path: &Path,
    seed: Option<u64>,
    out: Option<PathBuf>,
    quiet: bool,
    format: qoslab::sweep::cli::Format,
) -> Result<(), Failure> {
    if reproduce::pcn_stm::cli::is_pcn_file(path) {
        if format != qoslab::sweep::cli::Format::Csv {
            return qoslab::sweep::cli::run_parquet(path, seed, out, quiet).map_err(atm_failure);
        }
        return reproduce::pcn_stm::cli::run(path, seed, out, quiet)
            .map_err(|(code, msg)| Failure { code, msg });
    }
    let s = load(path)?;
    let seed = seed.unwrap_or(s.seed);
    let out = out.unwrap_or_else(|| PathBuf::from("out").join(&s.name));
    // Outputs are checked before the run, not after it (issue 12): a place that cannot be
    // written is bad input (exit 2), found in milliseconds rather than after the simulation.
    check_writable(&out)?;
    let mut sim = qoslab_sim::Simulator::new(s, seed).map_err(bad_input)?;
    let t0 = Instant::now();
    let mut bar = progress::Bar::new(!quiet, "simulating");
    let end = sim.end();
    let steps = 200u64;
    for k in 1..=steps {
        let t = qoslab_algo::Time(end.0 / steps * k);
        sim.run_until(if k == steps { end } else { t });
        bar.update(
            k as f64 / steps as f64,
            &format!(
                "{:.1}/{:.1} s simulated",
                sim.now().as_secs_f64(),
                end.as_secs_f64()
            ),
        );
    }
    bar.finish();
    let wall = t0.elapsed().as_secs_f64();
    let events = sim.events_processed();
    if format == qoslab::sweep::cli::Format::Parquet {
        let o = qoslab::sweep::collect(sim).map_err(internal)?;
        if !quiet {
            print!("{}", summary::render(&o.result));
        }
        let o = qoslab::sweep::AnyOutput::Ip(Box::new(o));
        let n = qoslab::sweep::cli::write_parquet(&o, &out).map_err(internal)?;
        if !quiet {
            println!("wrote {} ({n} files)", out.display());
        }
        return Ok(());
    }
    let (r, files) = qoslab_sim::output::run_and_render(sim).map_err(internal)?;
    qoslab_sim::output::write_files(&out, &files)
        .map_err(|e| internal(format!("writing {}: {e}", out.display())))?;
    if !quiet {
        print!("{}", summary::render(&r));
        println!("wrote {} ({} files)", out.display(), files.files.len());
        eprintln!(
            "wall {:.3} s, {} events, {:.2} M events/s",
            wall,
            events,
            events as f64 / wall / 1e6
        );
    }
    Ok(())
}
