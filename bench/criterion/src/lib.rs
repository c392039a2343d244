//! criterion benchmarks of qoslab's hot paths (issue 13), so that a regression shows up as a
//! number: `cargo bench -p qoslab-bench` (all), `cargo bench -p qoslab-bench -- event_set`
//! (one group). The benchmarks are in `benches/hot_paths.rs`; `bench/README.md` explains
//! what each one measures and records the figures. This library is empty on purpose: it
//! only gives the benchmarks a package, outside the test suite (see `Cargo.toml`).
