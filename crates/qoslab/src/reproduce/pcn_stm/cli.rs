//! `qoslab run` and `qoslab validate` for PCN scenario files (a top-level `[pcn]` table):
//! the hook the CLI calls before reading a file as an IP-engine scenario.

use std::path::{Path, PathBuf};

use qoslab_sim::pcn::spec::TopologySpec;

/// Is `path` a PCN scenario file? (False if it cannot be read: the normal path reports it.)
pub fn is_pcn_file(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| qoslab_sim::pcn::is_pcn_scenario(&t))
}

/// Errors: (exit code, message).
pub type Failure = (u8, String);

fn load(path: &Path) -> Result<qoslab_sim::pcn::PcnSpec, Failure> {
    qoslab_sim::pcn::load(path).map_err(|e| (2, format!("error: {e}")))
}

pub fn validate(path: &Path) -> Result<(), Failure> {
    let s = load(path)?;
    let topo = match &s.topology {
        TopologySpec::Single { .. } => "single link".to_string(),
        TopologySpec::Rtt { ingresses, .. } => format!("RTT with {ingresses} ingresses"),
        TopologySpec::ParkingLot { bottlenecks, .. } => {
            format!("parking lot with {bottlenecks} bottlenecks")
        }
    };
    println!(
        "{}: ok — PCN scenario `{}`: {:?} run, {:?}, {} traffic, {}, C = {} bit/s, AR = {} bit/s, SR = {} bit/s, {} s, seed {}",
        path.display(),
        s.name,
        s.kind,
        s.scheme,
        s.traffic.model,
        topo,
        s.link_rate.bps(),
        s.admissible_rate.bps(),
        s.supportable_rate.bps(),
        s.duration.as_secs_f64(),
        s.seed
    );
    Ok(())
}

pub fn run(
    path: &Path,
    seed: Option<u64>,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<(), Failure> {
    let s = load(path)?;
    let seed = seed.unwrap_or(s.seed);
    let out = out.unwrap_or_else(|| PathBuf::from("out").join(&s.name));
    let t0 = std::time::Instant::now();
    let r = qoslab_sim::pcn::run(&s, seed).map_err(|e| (1, format!("internal error: {e}")))?;
    let wall = t0.elapsed().as_secs_f64();
    let json = serde_json::to_string_pretty(&r).map_err(|e| (1, format!("internal error: {e}")))?;
    std::fs::create_dir_all(&out)
        .and_then(|_| std::fs::write(out.join("summary.json"), json + "\n"))
        .and_then(|_| crate::output_csv::write(&out, &crate::output_csv::pcn_files(&r)))
        .map_err(|e| (1, format!("internal error: writing {}: {e}", out.display())))?;
    if !quiet {
        println!(
            "PCN run `{}` seed {seed}: {:?}, {:?}",
            r.name, r.kind, r.scheme
        );
        for l in &r.links {
            let mut line = format!(
                "  link {}: {} packets, marks {:?} (none/threshold-or-AM/excess-PM), FIFO overflows {}, max backlog {:.1} packets",
                l.name, l.arrived, l.out_marks, l.fifo_overflows, l.max_backlog_packets
            );
            if let Some(o) = &l.over_admission {
                line.push_str(&format!(
                    "; OA {:.3} % (X {:.0}, D {:.0} bit/s)",
                    o.oa_pct, o.x_bps, o.d_bps
                ));
            }
            if let Some(o) = &l.over_termination {
                line.push_str(&format!(
                    "; OT {:.3} % (rate {:.0} bit/s)",
                    o.ot_pct, o.rate_bps
                ));
            }
            if let Some(t) = &l.termination_time {
                line.push_str(&format!(
                    "; termination time raw {} s, table {} s",
                    crate::output_csv::secs_opt(t.raw_s),
                    crate::output_csv::secs_opt(t.table_s)
                ));
            }
            if let Some(s) = &l.sojourn {
                line.push_str(&format!(
                    "; sojourn mean {:.3} ms, p99 {:.3} ms",
                    s.mean_ns * 1e-6,
                    s.p99_ns as f64 * 1e-6
                ));
            }
            if let (Some(r), Some(m)) = (l.static_rate_bps, l.static_marked_fraction) {
                line.push_str(&format!(
                    "; rate {r:.0} bit/s, marked {:.4} / {:.4}",
                    m[0], m[1]
                ));
            }
            println!("{line}");
        }
        let (off, adm): (u64, u64) = r
            .ieas
            .iter()
            .fold((0, 0), |a, i| (a.0 + i.offered, a.1 + i.admitted));
        if off > 0 {
            println!(
                "  calls: {off} offered, {adm} admitted, {} blocked",
                off - adm
            );
        }
        if let Some(d) = &r.delay {
            let o = &d.one_way;
            println!(
                "  one-way delay ({}, {} packets from {} s): mean {:.3} ms, p50 {:.3}, p90 {:.3}, p99 {:.3}, min {:.3}, max {:.3} ms",
                d.traffic,
                o.samples,
                d.from_s,
                o.mean_ns * 1e-6,
                o.p50_ns as f64 * 1e-6,
                o.p90_ns as f64 * 1e-6,
                o.p99_ns as f64 * 1e-6,
                o.min_ns as f64 * 1e-6,
                o.max_ns as f64 * 1e-6
            );
        }
        if !r.terminations.is_empty() {
            println!(
                "  terminations: {} events, {} flows",
                r.terminations.len(),
                r.terminations.iter().map(|t| t.flows).sum::<u64>()
            );
        }
        println!("wrote {} (summary.json and CSV files)", out.display());
        eprintln!(
            "wall {:.3} s, {} events, {} packet-hops, {:.0} ns per packet-hop",
            wall,
            r.events,
            r.packet_hops,
            wall * 1e9 / r.packet_hops.max(1) as f64
        );
    }
    Ok(())
}
