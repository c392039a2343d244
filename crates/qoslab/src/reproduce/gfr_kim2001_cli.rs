//! `qoslab run` / `qoslab validate` on an ATM scenario file (one with `atm = true`): the
//! hook that lets the CLI dispatch to [`qoslab_sim::atm`].

use std::path::{Path, PathBuf};

use qoslab_sim::atm::scenario::{is_atm, load};
use qoslab_sim::atm::AtmSim;

/// The file is an ATM scenario (unreadable or invalid files answer false: the IP reader
/// reports them).
pub fn is_atm_file(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| is_atm(&t))
}

/// `qoslab validate`: (exit code, message) on failure.
pub fn validate(path: &Path) -> Result<(), (u8, String)> {
    let s = load(path).map_err(|e| (2, format!("error: {e}")))?;
    AtmSim::new(s.clone(), s.seed).map_err(|e| (2, format!("error: {e}")))?;
    println!(
        "{}: ok — ATM scenario `{}`: {} nodes, {} duplex links, {} VCs, {} TCP connections, policy {}, {} s (warm-up {} s), seed {}",
        path.display(),
        s.name,
        s.nodes.len(),
        s.links.len(),
        s.vcs.len(),
        s.vcs.iter().map(|v| v.connections).sum::<u32>(),
        s.buffer.policy.name(),
        s.duration.as_secs_f64(),
        s.warmup.as_secs_f64(),
        s.seed
    );
    Ok(())
}

/// `qoslab run`: prints a per-VC summary and writes `summary.json` to `out`.
pub fn run(
    path: &Path,
    seed: Option<u64>,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<(), (u8, String)> {
    let s = load(path).map_err(|e| (2, format!("error: {e}")))?;
    let seed = seed.unwrap_or(s.seed);
    let out = out.unwrap_or_else(|| PathBuf::from("out").join(&s.name));
    let sim = AtmSim::new(s, seed).map_err(|e| (2, format!("error: {e}")))?;
    let t0 = std::time::Instant::now();
    let r = sim.run().map_err(|e| (1, format!("internal error: {e}")))?;
    let wall = t0.elapsed().as_secs_f64();
    let json = serde_json::to_string_pretty(&r).map_err(|e| (1, e.to_string()))?;
    std::fs::create_dir_all(&out)
        .and_then(|()| std::fs::write(out.join("summary.json"), json + "\n"))
        .and_then(|()| crate::output_csv::write(&out, &crate::output_csv::atm_files(&r)))
        .map_err(|e| (1, format!("internal error: writing {}: {e}", out.display())))?;
    if !quiet {
        println!(
            "{} (seed {}), policy {}: total goodput {:.3} Mb/s, fairness index {:.6}, all MCR met: {}",
            r.name, r.seed, r.policy, r.total_goodput_mbps, r.fairness_index, r.all_mcr_met
        );
        println!(
            "  {:<6} {:>8} {:>10} {:>10} {:>8} {:>12} {:>12}",
            "VC", "MCR", "ideal", "goodput", "MCR met", "cells lost", "frames lost"
        );
        for v in &r.vcs {
            let d = &v.data;
            println!(
                "  {:<6} {:>8.2} {:>10.3} {:>10.3} {:>8} {:>12} {:>12}",
                v.name,
                v.mcr_mbps,
                v.ideal_goodput_mbps,
                v.goodput_mbps,
                v.mcr_met,
                d.cells_dropped_clp0 + d.cells_dropped_clp1,
                d.frames_lost_in_network + d.frames_discarded_own_loss + d.frames_discarded_merged
            );
        }
        println!("wrote {} (summary.json and CSV files)", out.display());
        eprintln!(
            "wall {wall:.3} s, {} events, {} cell-hops ({:.2} M cell-hops/s)",
            r.events,
            r.cell_hops,
            r.cell_hops as f64 / wall / 1e6
        );
    }
    Ok(())
}
