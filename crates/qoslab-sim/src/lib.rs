//! # qoslab-sim — a deterministic discrete-event packet simulator
//!
//! A run is a pure function of (scenario, seed): `Simulator::new(scenario, seed)?.run()`
//! returns a serialisable [`result::RunResult`]. Integer-nanosecond time, events ordered by
//! (time, insertion sequence), packets in a recycled arena, flat tables indexed by ids.
//!
//! ## Layer map
//! | module | what it models |
//! |---|---|
//! | [`scenario`] | TOML scenario files → validated, resolved `Scenario` |
//! | [`event`] | the event queue (link events and timers in two binary heaps on one (time, seq) key) |
//! | [`arena`] | packets in a free-list arena |
//! | [`net`] | links with egress queues and disciplines; static routing |
//! | [`traffic`] | open-loop sources (CBR, Poisson) |
//! | [`transport`] | TCP (sans-IO state machines) and wire headers |
//! | [`sim`] | the engine: event dispatch, forwarding, delivery, conservation check; `sim::web` turns web-pool requests into TCP transfers |
//! | [`build`] | scenario settings → validated queue, TCP and TFRC configurations (shared by the reader and the engines) |
//! | [`measure`] | delay: one-way delay, jitter, RTT samples, queue sojourn (hooks in `sim`) |
//! | [`stats`], [`result`], [`output`] | counters, queue-length distributions, results and files |
//! | [`pcn`] | the PCN domain engine (call-level traffic, admission, termination), beside `sim` |

pub mod arena;
pub mod atm;
pub mod build;
pub mod event;
pub mod measure;
pub mod net;
pub mod output;
pub mod pcn;
pub mod result;
pub mod scenario;
pub mod sim;
pub mod stats;
pub mod traffic;
pub mod transport;

pub use result::RunResult;
pub use sim::Simulator;
