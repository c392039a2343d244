//! Minimal wiring of `qoslab condition` for the meter work; the integrator replaces this file.

mod condition;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "qoslab", about = "qoslab: packet-level QoS laboratory")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a packet trace through a chain of traffic conditioners.
    Condition(condition::ConditionArgs),
}

fn main() {
    match Cli::parse().cmd {
        Cmd::Condition(args) => {
            if let Err(e) = condition::run(args) {
                eprintln!("qoslab condition: {e}");
                std::process::exit(e.exit_code());
            }
        }
    }
}
