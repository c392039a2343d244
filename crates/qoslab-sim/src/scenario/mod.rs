//! Scenario files: TOML → validated [`spec::Scenario`].
//!
//! [`parse_str`] and [`load`] read a scenario file and check *everything* (types, units,
//! ranges, names, references, reachability), so that building the network from the
//! resulting [`spec::Scenario`] cannot fail. Errors name the file, line and column, the
//! key path and what is allowed:
//!
//! ```text
//! dumbbell.toml:27:11: link[3].queue.max_p = 1.5: must be in (0, 1]
//! dumbbell.toml:40:7: flow[0].dst = "D21" (i = 21): no node with this name (did you mean "D2"?)
//! ```
//!
//! | file | what |
//! |---|---|
//! | `spec.rs` | the validated form (the contract with the engine) |
//! | `parse.rs` | top level, nodes, links, flows, output; names, references, reachability |
//! | `queue.rs` | drop-tail, RED, RIO queues and link loss |
//! | `flow.rs` | TCP settings and their defaults, CBR, Poisson |
//! | `conditioner.rs` | conditioning stages of links and of chain files ([`parse_chain_str`]) |
//! | `units.rs` | exact quantities: `"70Mbps"`, `"0.1s"`, `"64KiB"`, `"300p"` |
//! | `reader.rs` | typed, located access to the TOML tree; `count`, `{i}`, ranges |
//! | `value.rs` | the TOML tree with the span of every key and value |
//! | `error.rs` | [`ScenarioError`], [`ErrorKind`] |
//!
//! # The format
//!
//! ```toml
//! name = "dumbbell"          # optional; default: the file name without extension
//! seed = 1                   # optional, default 1 (the command line may override it)
//! duration = "20s"           # required, > 0
//! warmup = "5s"              # optional, default 0; statistics cover [warmup, duration)
//!
//! [output]                   # optional
//! sample_interval = "10ms"   # time-series interval; omitted = no time series
//! monitor = ["G1->G2"]       # links to report on (names "A->B"); omitted = every busy link
//! # tcp_series = true        # cwnd, ssthresh, srtt of every TCP sender at each sample
//! #                          #   (tcp_series.csv; needs sample_interval)
//! # tfrc_series = true       # p, X and RTT of every TFRC sender at each feedback received
//! #                          #   (tfrc_series.csv; needs a TFRC flow)
//! # delay_series = true      # per flow: packets, mean and max one-way delay of the data
//! #                          #   delivered in each interval (delay_series.csv; needs
//! #                          #   sample_interval)
//!
//! [[node]]                   # every node forwards; any node may be a flow endpoint
//! name = "S{i}"              # no spaces, braces or "->"
//! count = 20                 # optional: 20 nodes, {i} = 1..=20 in every string of the table
//!                            # (integer expressions too: "C{(i-1)/10+1}")
//! kind = "host"              # "host" (default) or "router"
//!
//! [[node]]
//! name = "G1"
//! kind = "router"
//!
//! [[node]]
//! name = "G2"
//! kind = "router"
//!
//! [[node]]
//! name = "D{i}"
//! count = 20
//!
//! [[link]]                   # duplex by default: two directions "S{i}->G1" and "G1->S{i}"
//! from = "S{i}"
//! to = "G1"
//! count = 20
//! rate = "100Mbps"
//! delay = { from = "3ms", to = "8ms" }    # spread linearly over i (or one value, or a list)
//! queue = { kind = "drop-tail", limit = "1000p" }   # optional, default drop-tail 50p
//! # reverse_queue = { ... }  # queue of the to->from direction (default: same as `queue`)
//! # loss = { packet = 0.01 } # or { byte = 1e-4 }; both directions; reverse_loss overrides;
//! #                          #   `ecn = true` marks ECN-capable packets CE instead of dropping
//! # duplex = false           # one direction only
//!
//! [[link]]
//! from = "G1"
//! to = "G2"
//! rate = "70Mbps"
//! delay = "5ms"
//! queue = { kind = "red", limit = "300p", min_th = 60, max_th = 200, max_p = 0.1, w_q = 0.002 }
//!
//! [[link]]
//! from = "G2"
//! to = "D{i}"
//! count = 20
//! rate = "100Mbps"
//! delay = "5ms"
//!
//! [[flow]]
//! name = "f{i}"
//! count = 20
//! src = "S{i}"
//! dst = "D{i}"
//! kind = "tcp"               # "tcp" (default), "cbr" or "poisson"
//! start = "0s"               # optional, default 0
//! start_jitter = "100ms"     # optional: start + U[0, jitter)
//! # stop = "15s"             # optional, > start
//!
//! [defaults.tcp]             # defaults for every TCP flow, each key overridable per flow
//! variant = "newreno"
//! mss = "500B"
//! ```
//!
//! ## Counted tables
//!
//! A `[[node]]`, `[[link]]` or `[[flow]]` with `count = n` stands for `n` tables,
//! `i = 1..=n`. In each: `{i}` in any string becomes `i`; any value that is not itself a
//! list may be a list of `n` values (the `i`-th is taken); any duration, rate or size may be
//! `{ from = .., to = .. }`, spread linearly over `i` and rounded to the nearest ns, bit/s or
//! byte (halves up). `count` is at most 100 000.
//!
//! ## Quantities
//!
//! Strings with a unit, read exactly (no floating point): durations `"10ns"`, `"200us"`,
//! `"5ms"`, `"1.5s"`; rates in bits per second `"800bps"`, `"64Kbps"`, `"70Mbps"`,
//! `"1.5Gbps"`; sizes `"500B"`, `"64KB"` (64 000), `"64KiB"` (65 536), `"1MB"`; queue
//! limits `"300p"` (packets) or a size. A value finer than the base unit (`"0.5ns"`) is
//! refused, not rounded. See [`units`].
//!
//! ## Queues
//!
//! * `drop-tail`: `limit`.
//! * `red`: `limit`, `min_th`, `max_th` (required; numbers in the queue unit, or `"60p"` /
//!   a size), `max_p` (0.1), `w_q` (0.002), `gentle` (false), `byte_mode` (false),
//!   `queue_unit` (`"packets"` or `"bytes"`), `mean_pkt_size` (`"500B"`), `ecn` (false:
//!   marks only ECN-capable packets, drops the others), `adaptive` (false), `wait` (false).
//!   Defaults are ns-2's, except `gentle`, which follows the original Floyd & Jacobson 1993
//!   RED (ns-2.35 defaults to gentle), and `wait`, the paper's spreading (ns-2 and ns-3
//!   default to `wait`: after a drop, gaps uniform on [1/p_b, 2/p_b]).
//! * `rio`: `limit`, `precedences = [{min_th, max_th, max_p, w_q}, ...]` (2 = In/Out or
//!   3 = green/yellow/red, most preferred first) or named tables `in`/`out` or
//!   `green`/`yellow`/`red`; `coupling` (`"coupled"` = Clark & Fang, default, or
//!   `"decoupled"`), `gentle`, `queue_unit`, `mean_pkt_size`, `wait` (false, as RED's),
//!   `ns2_avg_on_in_arrivals` (false; true = ns-2.35 `queue/rio.cc`, which samples the
//!   averages on In arrivals only), `ns2_out_forced_keeps_count` (false; true = rio.cc's
//!   Out branch, which does not reset the Out count at a forced drop).
//!
//! `limit` defaults to `"50p"` (ns-2's `Queue set limit_ 50`).
//!
//! ## Flows
//!
//! * `tcp`: `variant`, `mss`, `header`, `ack_size`, `rwnd`, `init_cwnd`,
//!   `limited_transmit`, `min_rto`, `max_rto`, `initial_rto`, `clock_granularity`,
//!   `delayed_ack`, `bytes`; defaults in the table of `flow.rs`. Needs a path of links
//!   from `src` to `dst` and back.
//! * `cbr`, `poisson`: `rate` and `size` (on the wire), required. Need a path from `src`
//!   to `dst`.
//!
//! `[defaults.tcp]`, `[defaults.cbr]`, `[defaults.poisson]` and `[defaults.link]` give
//! defaults for the keys of those tables (not `name`, `count`, `from`/`to`, `src`/`dst`);
//! they are checked even when nothing uses them and may not use `{i}` or per-instance
//! lists.
//!
//! ## Errors
//!
//! Key paths count tables from 0 in file order (`link[3]` is the fourth `[[link]]`);
//! `(i = k)` names the instance of a counted table. [`ScenarioError::kind`] classifies
//! errors ([`ErrorKind`]); the CLI exits with status 2 on any of them.

mod conditioner;
pub(crate) mod error;
pub(crate) mod flow;
pub(crate) mod parse;
mod queue;
mod reach;
pub(crate) mod reader;
pub mod spec;
pub mod units;
mod value;
mod web;

pub use conditioner::{parse_chain_str, ChainSpec, StageParams, StageSpec, DEFAULT_K, STAGE_KINDS};
pub use error::{ErrorKind, ScenarioError};
pub use parse::{load, parse_str};
// For the PCN engine's scenario reader (`crate::pcn::parse`).

pub(crate) use reader::{quoted_list, Field, Res, Tbl};
