//! # ATM cell layer carrying TCP over GFR VCs
//!
//! An engine of its own beside the IP engine ([`crate::sim`]): its own scenario
//! ([`spec::AtmScenario`], read from TOML by [`scenario`]), its own results
//! ([`result::AtmResult`]) and its own conservation check, in cells and in frames.
//! It was written for Kim, Choi, Chung & Chon, "New Buffer Management Scheme to Support
//! TCP/IP Traffic over ATM GFR service" (2001), reproduced by `qoslab reproduce gfr-kim2001`.
//!
//! ## Layer map
//! | file | what it models |
//! |---|---|
//! | [`cell`] | 53-byte cells; datagram → cells (AAL5 VC-mux / LLC-SNAP, or the paper's raw 48-B cut) |
//! | [`spec`] | the validated scenario: nodes (edge routers, switches), links, VCs, buffer policy, TCP |
//! | [`scenario`] | TOML → [`spec::AtmScenario`], errors naming file, line and key |
//! | [`buffer`] | admission to a switch output port's shared FIFO (the policy's one call site) |
//! | [`engine`] | ports, edge routers (segmentation, reassembly, TCP ends), switches, run loop |
//! | [`result`] | per-VC goodput, eq. (4) fairness, MCR met, drops by cause and CLP |

pub mod buffer;
pub mod cell;
pub mod engine;
pub mod result;
pub mod scenario;
pub mod spec;

pub use engine::AtmSim;
pub use result::AtmResult;
pub use spec::AtmScenario;
