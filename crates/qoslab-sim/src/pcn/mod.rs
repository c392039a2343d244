//! # The PCN domain engine (draft-satoh-pcn-st-marking-02 and its CL comparison)
//!
//! A packet-level simulator of a PCN domain, composed beside the IP/TCP engine
//! ([`crate::sim`]) rather than inside it: PCN runs need call-level traffic (Poisson call
//! arrivals, admission by a request/response exchange, flow termination), tens of millions
//! of packets per run and a specialised event set, none of which the IP engine has.
//!
//! A run is a pure function of (scenario, seed): [`run`]`(&spec, seed)` returns a
//! serialisable [`PcnResult`] (written as `summary.json` by `qoslab run`), and fails if the
//! conservation check (per IEA and per link: sent = delivered + dropped + in flight) does
//! not hold. The algorithms (markers, CLE, STM and CL edge state machines) are those of
//! `qoslab_algo::pcn`; this module only drives them.
//!
//! ## Layer map
//! | file | what it models | draft |
//! |---|---|---|
//! | [`spec`] | the validated scenario (every open choice is a field) | §10, map §5 |
//! | [`parse`] | TOML `[pcn]` files → [`PcnSpec`], errors with file:line:key | |
//! | [`topology`] | single link, RTT, parking lots: PCN links and IEA paths | §10.1, Figs. A.1–A.3 |
//! | [`traffic`] | CBR, on-off VBR and SVD sources; randomization | §10.2, §11.4.1, §12 |
//! | [`events`] | the event set: a timing wheel ordered by (time, packed payload) | |
//! | [`marking`] | the marker of each PCN link (STM, fractional, CL) | §3.1, §14, §10.5 |
//! | [`edge`] | egress/ingress state machines per IEA (STM or CL) | §3.2, §3.3, §10.5 |
//! | [`engine`] | calls, signalling, forwarding, termination, conservation | §10.1, §10.3 |
//! | [`measure`] | OA, OT, termination times, fairness, marked fractions; the result | §10.3, §11.6, §12 |
//!
//! ## Signalling model (§10.1, map §1.8)
//! A call request travels the IEA's path as a PCN packet of the traffic's packet size: it is
//! metered (and may be marked) at each PCN link but bypasses the FIFO (propagation plus
//! transmission time, no queueing). At the egress its own mark updates the CLE (switch
//! `request_updates_cle`), the egress answers with the current CLE, and the answer reaches
//! the ingress after the reverse path's propagation and transmission times. The call is
//! admitted iff CLE < threshold (`qoslab_algo::pcn::admit`); blocked calls are lost.
//! Reports and cancels (termination) return after the one-way propagation delay, with no
//! queueing and no capacity use.

pub mod edge;
pub mod engine;
pub mod events;
pub mod marking;
pub mod measure;
pub mod parse;
pub mod spec;
pub mod topology;
pub mod traffic;

pub use engine::{run, run_driven};
pub use measure::PcnResult;
pub use parse::{is_pcn_scenario, load, parse_str};
pub use spec::PcnSpec;
