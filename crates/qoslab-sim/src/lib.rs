//! # qoslab-sim — a deterministic discrete-event packet simulator
//!
//! ## Layer map
//! | module | what it models |
//! |---|---|
//! | [`scenario`] | TOML scenario files → validated, resolved `Scenario` |
//!
//! (filled in as the engine lands)

pub mod scenario;
pub mod transport;
