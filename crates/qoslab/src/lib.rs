//! `qoslab` — the command line's library: everything the `qoslab` binary (`main.rs`, a thin
//! argument parser) runs, so that integration tests use it as `qoslab::...`.
//!
//! # Layer map
//!
//! ```text
//!   main.rs (binary: clap, exit codes)
//!      │
//!      ├── condition ── chain files, traces (CSV, pcap, pcapng) through conditioners
//!      │                 └── qoslab_sim::scenario::parse_chain_str (the one stage parser)
//!      ├── reproduce ── experiments: variants × seeds → tables and figures beside the
//!      │      │          published values
//!      │      ├── plot ──── dependency-free SVG plots
//!      │      └── progress  the progress bar (stderr, terminals only)
//!      └── summary ──── the text summary of one run
//!
//!   below all of them: qoslab_sim (scenarios, engine, results)
//!                      qoslab_algo (the sans-IO algorithms, time, units)
//! ```
//!
//! | module | what |
//! |---|---|
//! | [`condition`] | `qoslab condition`: a packet trace through a chain of meters, markers, policers and shapers |
//! | [`fuzzing`] | entry points shared by the fuzz targets (`fuzz/`) and the stable corpus replay test |
//! | [`reproduce`] | `qoslab reproduce`: reruns a document's tables and figures (`rio-hori2001`, `rfc2963`) |
//! | [`output_csv`] | the CSV files of a PCN or ATM run (`ieas.csv`, `links.csv`, `vcs.csv`, `ports.csv`, ...) |
//! | [`output_validate`] | what `qoslab validate` prints per flow: path, base one-way delay, base RTT |
//! | [`plot`] | SVG line/step plots, CDFs and histograms, byte-identical across runs |
//! | [`progress`] | a progress bar on stderr, silent on pipes and short runs |
//! | [`summary`] | the human-readable summary table of `qoslab run` |
//! | [`sweep`] | parameter sweeps (key-path overrides, cells in a resumable Parquet store), Arrow/Parquet tables of a run |
//!
//! Exit status of the binary: 0 success, 2 bad input (scenario, chain or trace file),
//! 1 internal failure (including a failed conservation check).

pub mod condition;
pub mod fuzzing;
pub mod output_csv;
pub mod output_validate;
pub mod plot;
pub mod progress;
pub mod reproduce;
pub mod summary;
pub mod sweep;
