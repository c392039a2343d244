//! The engine alone on one scenario file, for profiling (issue 13): no CLI, no output files.
//! `cargo build --release -p qoslab-bench --bin qoslab-prof`, then
//! `valgrind --tool=callgrind target/release/qoslab-prof SCENARIO [SEED] [DUMP]`.
//! With DUMP, the whole `RunResult` is written there in Rust's `Debug` form (every f64 in
//! its shortest round-trip digits), so two engine builds can be compared byte for byte.
use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), seed, dump) = (args.next(), args.next(), args.next()) else {
        eprintln!("usage: qoslab-prof SCENARIO [SEED] [DUMP]");
        std::process::exit(2);
    };
    let scenario = match qoslab_sim::scenario::load(std::path::Path::new(&path)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let seed = seed.map_or(scenario.seed, |s| s.parse().expect("SEED: an integer"));
    let t0 = std::time::Instant::now();
    let sim = qoslab_sim::Simulator::new(scenario, seed).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let r = sim.run().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    eprintln!("{} events, {:.3} s", r.events, t0.elapsed().as_secs_f64());
    if let Some(d) = dump {
        let mut f = std::fs::File::create(&d).expect("DUMP: a writable path");
        writeln!(f, "{r:#?}").expect("DUMP: written");
    }
}
