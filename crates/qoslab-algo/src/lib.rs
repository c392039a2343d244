//! # qoslab-algo — QoS mechanisms as sans-IO state machines
//!
//! Every algorithm here takes the current time `now` and a small [`PacketView`] and returns
//! a decision. None reads a clock, schedules an event, does I/O or touches a global random
//! generator: randomness is passed in as `&mut impl RandomSource`. Time-driven algorithms
//! expose `next_wakeup()`/deadlines and let the caller own the event queue. The same code
//! therefore serves the simulator (`qoslab-sim`), packet traces (`qoslab condition`) and,
//! later, Python.
//!
//! Settings are apart from state (Linux `red_parms` vs `red_vars`): each algorithm has a
//! `*Params` type validated once by `new(..) -> Result<_, ConfigError>`; nothing fails later.
//!
//! ## Layer map
//! | module | what it models |
//! |---|---|
//! | [`time`], [`units`] | integer nanosecond `Time`/`Duration`, `Rate` in bit/s |
//! | [`rng`] | deterministic xoshiro256++ streams and variates |
//! | [`packet`], [`verdict`], [`error`] | the packet view, colours, typed verdicts, config errors |
//! | [`queue`] | queue management: drop-tail limits, RED, Adaptive RED, RIO, three-colour RIO |
//! | [`meter`] | meters/markers: token buckets, srTCM, trTCM, TSW, TSW2CM, TSW3CM |
//! | [`shaper`] | shapers: token-bucket shaper, srRAS/trRAS and their green variants |
//! | [`pcn`] | PCN marking (draft-satoh-pcn-st-marking-02 STM, fractional, CL) and the PCN edge logic (CLE, reports, termination) |
//! | [`atm`] | ATM GFR: AAL5 sizing, F-GCRA (GFR.1/GFR.2), GFR buffer policies (tail drop, EPD/PPD, Double-EPD, DFBA, Kim et al.) |
//! | [`stats`] | delay measures: log-linear quantile histogram (error ≤ 1/128), RFC 3550 jitter, RFC 3393 IPDV |
//! | [`tfrc`] | TFRC (RFC 5348) and TFRC-SP (RFC 4828): equation, loss history, sender, receiver, RFC 4828 Tables 1–4 |

pub mod atm;
pub mod error;
pub mod meter;
pub mod packet;
pub mod pcn;
pub mod queue;
pub mod rng;
pub mod shaper;
pub mod stats;
pub mod tfrc;
pub mod time;
pub mod units;
pub mod verdict;

pub use error::ConfigError;
pub use packet::{Color, PacketView, QueueView};
pub use rng::{RandomSource, Rng};
pub use time::{Duration, Time};
pub use units::Rate;
pub use verdict::{DropReason, Verdict};
