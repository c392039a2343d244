//! # ns-2-style web traffic (`PagePool/WebTraf`), as used by RFC 4828 App. B.3/B.4
//!
//! RFC 4828 App. B.3 ("Packet Dropping Behavior at Routers with Drop-Tail Queues") and B.4
//! ("... with AQM") load a 3 Mb/s link with five long-lived TCP flows, five TFRC(-SP) flows
//! and "web traffic" whose number of *sessions* (10 .. 1600) sets the congestion level; "the
//! web traffic uses a data packet size of 512 bytes". The web traffic is ns-2's
//! `PagePool/WebTraf` (webcache/webtraf.{cc,tcl}), driven by Sally Floyd's `web.tcl`
//! helper (the one in ns-2's wireless-scripts by Gurtov & Floyd). This module is a
//! sans-IO generator of the same model: it says *when* to open *which* transfer of *how
//! many bytes*; the engine runs the TCP transfers and reports when each one completes.
//!
//! ## The model (ns-2 WebTraf semantics, checked against webtraf.cc / webtraf.tcl)
//!
//! ```text
//! session s: starts at its start time; client c(s) drawn once, uniformly among `clients`
//!   page p (p = 0 .. pages_per_session-1):
//!     at page start:  server drawn uniformly among `servers`;
//!                     n = max(1, ceil(objects_per_page draw)) objects
//!     object k = 0 is requested at the page start; object k+1 is requested an
//!                     `inter_object` draw after object k was *requested* (not completed)
//!     each object:    size = max(1, ceil(object_size draw)) units (segments or bytes)
//!     page done:      when all n transfers have completed
//!     next page:      starts an `inter_page` draw after the page is done
//!   session done after its last page is done (sessions do not restart)
//! ```
//!
//! * Inter-object times do **not** wait for completions: ns-2's `WebPage` timer fires
//!   `interObj` after each launch whatever the state of earlier transfers.
//! * Inter-page times **do**: since 2001 ns-2's default `interPageOption_ = 1` measures the
//!   inter-page time "from the end of a page to the start of the next", a page ending when
//!   every object's response has completed (`doneObj` upcalls). Hence
//!   [`WebTraffic::on_transfer_complete`]. (ns-2's option 0, page-start to page-start with
//!   overlapping pages, is not provided.)
//!
//! ## Defaults (see [`WebTrafficSettings::default`])
//!
//! Confirmed from ns-2 sources: the WebTraf mechanics above; `RandomVariable/ParetoII`
//! ("Pareto of the second kind", Lomax) with `avg_` the mean and scale `avg_·(shape_−1)`;
//! inter-object time exponential with mean 10 ms in every ns-2 WebTraf script; Floyd's
//! `web.tcl`: 10 pages per session, a *constant* 10 objects per page, exponential
//! inter-page time of mean 1 s, object sizes ParetoII with mean 60 packets and shape 1.05,
//! each session starting at a uniform time in [0, stop), 10 client/server node pairs, and a
//! second pool with half as many sessions in the reverse direction. Confirmed from RFC 4828:
//! 512-byte web packets, 100-second runs.
//! **Assumed** (the `[VOIPSIMS]` scripts were not retrievable): that RFC 4828's runs used
//! `web.tcl` with those defaults (varying only the number of sessions), so stop = 100 s.
//!
//! ## Choices the sources leave open, and what is done here
//!
//! 1. **Integer rounding.** Object counts and sizes are `ceil` of the draw, as in ns-2, but
//!    at least 1: ns-2 would create a page with no object (which never completes and stalls
//!    the session) or a zero-packet transfer on a zero draw. The realised mean of a ceiled
//!    draw is up to one unit above the distribution's mean (≈ +0.5 for continuous draws);
//!    `mean` is the mean of the continuous draw, as ns-2's `avg_`.
//! 2. **Units.** [`SizeUnit::Segments`] multiplies the count by the segment payload (512 B
//!    by default): ns-2 sizes web objects in packets of the TCP agent's `packetSize_`.
//! 3. **Time rounding.** Drawn durations are rounded to the nearest nanosecond
//!    (`Duration::from_secs_f64`); uniform start times are floored to the nanosecond.
//! 4. **Random streams.** ns-2 draws everything from one global stream, so the values a
//!    session gets depend on how its events interleave with the rest of the network. Here
//!    the passed [`Rng`] draws, in session order, each session's start time, client and the
//!    seed of a private stream; the private stream then draws, in a fixed order (server,
//!    object count, then per object: size, then gap to the next object; per page end: the
//!    inter-page gap), so **a session's pages, objects, sizes and gaps are a function of the
//!    seed alone**, identical whatever the queue discipline (common random numbers across a
//!    table's rows). Only *when* pages start depends on the network.
//! 5. **The request leg** ([`RequestLeg`]). ns-2's WebTraf (`launch-req` in
//!    `webtraf.tcl`) first sends the request as one data packet (`advanceby 1`: a full
//!    `packetSize_` segment, 512 B + headers) over a fresh one-way TCP from client to
//!    server; when that TCP has the packet acknowledged (`done-req`), the server (mode 0: no
//!    processing delay, `WebServer::job_arrival`) starts the response over a fresh TCP, so
//!    a response starts about one client–server RTT after its launch, and a page ends that
//!    much later. A [`Request`] is emitted at the launch instant; with
//!    [`RequestLeg::Segment`] (the default: the model is ns-2's) the engine first runs that
//!    one-segment request transfer and starts the response when it completes; with
//!    [`RequestLeg::None`] it starts the response at once (the model before issue 14's
//!    session 6). On one object over an idle path the engine's timeline matches ns-2.35's
//!    WebTraf with `syn_ false` to 0.3 ms (bench/ns2/seeds/README.md section 9.2).
//!    The request packets belong to the pool's flow, as ns-2's `FID_ASSIGNING_MODE_ 2`
//!    gives requests and responses the pool's one flow id. Not modelled: ns-2.35's default
//!    `syn_ true` sends a 40-byte SYN before the first data packet of every TCP (requests
//!    and responses alike); our TCP has no handshake. Nor ns-2.35's sticky initial window:
//!    its `TcpAgent::timeout` sets an agent's `windowInit_` to 1 for good when a transfer's
//!    first packet is lost, and WebTraf reuses agents (request then response, then other
//!    objects) without restoring it, so most of its later transfers start with one packet;
//!    ours are fresh TCPs with the configured initial window, as RFC 3390 / RFC 5681 §3.1
//!    give a new connection (bench/ns2/seeds/README.md section 11, finding 22).
//! 6. **Completion.** "Complete" is what the engine reports; ns-2's one-way TCP calls
//!    `done` when the sender has every data packet acknowledged. Reports for an unknown
//!    session, a page that is not the session's current one, or beyond the number of
//!    launched objects are ignored and counted ([`IgnoredCompletions`]); a completion time
//!    earlier than a time already seen is taken as that time, so event times never go back.
//! 7. **Huge draws** (ParetoII with shape near 1 is extremely heavy-tailed) saturate: counts
//!    at `u32::MAX` objects, sizes at `u64::MAX` bytes, durations at `Duration::MAX`.
//! 8. **Ties.** Timers due at the same instant are served in session order.
//!
//! ## Use
//!
//! ```text
//! at web.next_event_time():      while let Some(r) = web.poll(now) { open transfer r }
//! when a transfer completes:     web.on_transfer_complete(now, r.session, r.page, r.object)
//! ```
//!
//! Per request there is no allocation: session states and the timer heap (one entry per
//! session at most) are allocated once in [`WebTraffic::new`].

use core::cmp::Reverse;
use std::collections::BinaryHeap;

use qoslab_algo::{ConfigError, Duration, RandomSource, Rng, Time};
use serde::Serialize;

/// A distribution of non-negative values, named after the ns-2 `RandomVariable` it mirrors.
/// Times are in seconds, counts and sizes in their own units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "dist", rename_all = "kebab-case")]
pub enum Dist {
    /// Always `value` (ns-2 `RandomVariable/Constant`).
    Constant { value: f64 },
    /// Exponential with the given mean: `-mean · ln(1 − U)` (ns-2 `RandomVariable/Exponential`).
    Exponential { mean: f64 },
    /// Uniform on `[lo, hi)` (ns-2 `RandomVariable/Uniform`).
    Uniform { lo: f64, hi: f64 },
    /// Pareto (type I) with the given mean and shape α > 1: minimum `x_m = mean·(α−1)/α`,
    /// value `x_m / (1 − U)^(1/α)` (ns-2 `RandomVariable/Pareto`).
    Pareto { mean: f64, shape: f64 },
    /// Pareto of the second kind (Lomax) with the given mean and shape α > 1: scale
    /// `λ = mean·(α−1)`, value `λ·((1 − U)^(−1/α) − 1)`, support `[0, ∞)`
    /// (ns-2 `RandomVariable/ParetoII`, the one WebTraf scripts use for object sizes).
    #[serde(rename = "pareto2")]
    ParetoII { mean: f64, shape: f64 },
}

impl Dist {
    /// The distribution's mean.
    pub fn mean(&self) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            Dist::Exponential { mean } => mean,
            Dist::Uniform { lo, hi } => (lo + hi) / 2.0,
            Dist::Pareto { mean, .. } | Dist::ParetoII { mean, .. } => mean,
        }
    }

    /// One draw (one uniform consumed, none for `Constant`).
    pub fn sample(&self, rng: &mut impl RandomSource) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            // 1 − U lies in (0, 1], so ln and the negative powers below stay finite.
            Dist::Exponential { mean } => -mean * libm::log(1.0 - rng.uniform()),
            Dist::Uniform { lo, hi } => lo + (hi - lo) * rng.uniform(),
            Dist::Pareto { mean, shape } => {
                let xm = mean * (shape - 1.0) / shape;
                xm / libm::pow(1.0 - rng.uniform(), 1.0 / shape)
            }
            Dist::ParetoII { mean, shape } => {
                let scale = mean * (shape - 1.0);
                scale * (libm::pow(1.0 - rng.uniform(), -1.0 / shape) - 1.0)
            }
        }
    }

    /// Checks the parameters; `param` names the setting in the error.
    fn check(&self, param: &'static str) -> Result<(), ConfigError> {
        let finite_nonneg = |v: f64| v.is_finite() && v >= 0.0;
        match *self {
            Dist::Constant { value } if !finite_nonneg(value) => Err(ConfigError::out_of_range(
                param,
                format!("constant {value}"),
                "a finite value >= 0",
            )),
            Dist::Exponential { mean } if !(mean.is_finite() && mean > 0.0) => {
                Err(ConfigError::out_of_range(
                    param,
                    format!("exponential mean {mean}"),
                    "a finite mean > 0",
                ))
            }
            Dist::Uniform { lo, hi } if !(finite_nonneg(lo) && finite_nonneg(hi)) => {
                Err(ConfigError::out_of_range(
                    param,
                    format!("uniform [{lo}, {hi})"),
                    "finite bounds >= 0",
                ))
            }
            Dist::Uniform { lo, hi } if lo > hi => Err(ConfigError::relation(
                "uniform lo <= hi",
                "definition of the uniform distribution",
                format!("{param}: lo {lo} > hi {hi}"),
            )),
            Dist::Pareto { mean, shape } | Dist::ParetoII { mean, shape }
                if !(mean.is_finite() && mean > 0.0) =>
            {
                Err(ConfigError::out_of_range(
                    param,
                    format!("pareto mean {mean} (shape {shape})"),
                    "a finite mean > 0",
                ))
            }
            // A Pareto law has a finite mean only for shape > 1, and ns-2 parameterises it
            // by that mean (scale = avg_·(shape_−1)).
            Dist::Pareto { shape, .. } | Dist::ParetoII { shape, .. }
                if !(shape.is_finite() && shape > 1.0) =>
            {
                Err(ConfigError::out_of_range(
                    param,
                    format!("pareto shape {shape}"),
                    "a finite shape > 1 (the mean is infinite otherwise)",
                ))
            }
            _ => Ok(()),
        }
    }
}

/// What one unit of an object size is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "unit", rename_all = "lowercase")]
pub enum SizeUnit {
    /// Sizes count segments of `bytes` payload bytes each (ns-2: packets of the web TCP's
    /// `packetSize_`; 512 B in RFC 4828 App. B.3).
    Segments { bytes: u32 },
    /// Sizes count bytes.
    Bytes,
}

/// Whether an object's response waits for a request transfer (module doc, choice 5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RequestLeg {
    /// ns-2 WebTraf: one segment from client to server over its own TCP; the response
    /// starts when it is acknowledged.
    #[default]
    Segment,
    /// The response starts at the launch instant (no request traffic).
    None,
}

/// When sessions start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SessionStart {
    /// Each session independently at `from + U·(to − from)` (Floyd's `web.tcl`:
    /// `U · stop`). `from == to` starts all sessions at once.
    Uniform { from: Time, to: Time },
    /// Session 0 at `first`, each next one an exponential gap of mean `mean_gap` later
    /// (ns-2's large-scale web example: Poisson session arrivals).
    Poisson { first: Time, mean_gap: Duration },
}

/// Unvalidated web-traffic settings. Build one (e.g. from `Default`), then
/// [`WebTrafficParams::new`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WebTrafficSettings {
    /// Number of sessions (RFC 4828 Tables 12–21: 10 .. 1600). Default 10.
    pub sessions: u32,
    /// Pages per session (ns-2 `create-session` argument). Default 10 (`web.tcl`
    /// `opt(numPage)`).
    pub pages_per_session: u32,
    /// Seconds from a page's completion to the next page's start. Default exponential,
    /// mean 1 s (`web.tcl` `opt(interpage)`).
    pub inter_page: Dist,
    /// Objects per page (ceiled, at least 1). Default constant 10 (`web.tcl`
    /// `opt(pagesize)`).
    pub objects_per_page: Dist,
    /// Seconds between the requests of consecutive objects of a page. Default exponential,
    /// mean 10 ms (`web.tcl` and ns-2's WebTraf examples).
    pub inter_object: Dist,
    /// Object size in `size_unit`s (ceiled, at least 1). Default ParetoII, mean 60, shape
    /// 1.05 (`web.tcl` `opt(objSize)`, `opt(shape)`).
    pub object_size: Dist,
    /// Default 512-byte segments (RFC 4828 App. B.3: "the web traffic uses a data packet
    /// size of 512 bytes").
    pub size_unit: SizeUnit,
    /// Default uniform over [0 s, 100 s) (`web.tcl` with RFC 4828's 100-second runs).
    pub session_start: SessionStart,
    /// Number of client nodes; each session picks one uniformly. Default 10 (`web.tcl`
    /// `opt(numWebNodes)`).
    pub clients: u32,
    /// Number of server nodes; each page picks one uniformly. Default 10.
    pub servers: u32,
    /// The request leg before each response (module doc, choice 5). Default
    /// [`RequestLeg::Segment`] (ns-2 WebTraf). The model only carries it: the engine runs it.
    pub request: RequestLeg,
}

impl Default for WebTrafficSettings {
    fn default() -> Self {
        WebTrafficSettings {
            sessions: 10,
            pages_per_session: 10,
            inter_page: Dist::Exponential { mean: 1.0 },
            objects_per_page: Dist::Constant { value: 10.0 },
            inter_object: Dist::Exponential { mean: 0.01 },
            object_size: Dist::ParetoII {
                mean: 60.0,
                shape: 1.05,
            },
            size_unit: SizeUnit::Segments { bytes: 512 },
            session_start: SessionStart::Uniform {
                from: Time::ZERO,
                to: Time::from_secs(100),
            },
            clients: 10,
            servers: 10,
            request: RequestLeg::Segment,
        }
    }
}

/// Validated web-traffic settings; [`WebTraffic`] cannot fail once given one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct WebTrafficParams {
    s: WebTrafficSettings,
}

impl WebTrafficParams {
    /// Checks every rule; returns the first broken one.
    pub fn new(s: WebTrafficSettings) -> Result<WebTrafficParams, ConfigError> {
        let at_least_one = |param: &'static str, v: u32| {
            if v == 0 {
                Err(ConfigError::out_of_range(param, v, ">= 1"))
            } else {
                Ok(())
            }
        };
        at_least_one("sessions", s.sessions)?;
        at_least_one("pages_per_session", s.pages_per_session)?;
        at_least_one("clients", s.clients)?;
        at_least_one("servers", s.servers)?;
        s.inter_page.check("inter_page")?;
        s.objects_per_page.check("objects_per_page")?;
        s.inter_object.check("inter_object")?;
        s.object_size.check("object_size")?;
        if let SizeUnit::Segments { bytes: 0 } = s.size_unit {
            return Err(ConfigError::out_of_range(
                "size_unit.bytes",
                0,
                ">= 1 byte per segment",
            ));
        }
        if let SessionStart::Uniform { from, to } = s.session_start {
            if from > to {
                return Err(ConfigError::relation(
                    "session_start from <= to",
                    "definition of the uniform distribution",
                    format!("from {from} > to {to}"),
                ));
            }
        }
        Ok(WebTrafficParams { s })
    }

    pub fn settings(&self) -> &WebTrafficSettings {
        &self.s
    }
}

/// "Object `object` is launched now: its response is `bytes` from `server` to `client`" (the
/// engine first runs the request leg if [`WebTrafficSettings::request`] says so: module doc,
/// choice 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    /// When the object was due (≤ the `now` it was polled at).
    pub at: Time,
    pub session: u32,
    /// Page index within the session, from 0.
    pub page: u32,
    /// Object index within the page, from 0.
    pub object: u32,
    /// Client index in `0..clients` (fixed per session).
    pub client: u32,
    /// Server index in `0..servers` (fixed per page).
    pub server: u32,
    /// Response size in bytes.
    pub bytes: u64,
}

/// Completion reports that were ignored, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IgnoredCompletions {
    /// Session index out of range.
    pub unknown_session: u64,
    /// The page is not the session's current page (late, early or finished session).
    pub not_current_page: u64,
    /// Object index not launched yet, or more completions than launched objects.
    pub unexpected_object: u64,
}

/// Counters of a generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WebStats {
    pub sessions_started: u64,
    pub sessions_finished: u64,
    pub pages_started: u64,
    pub pages_finished: u64,
    pub requests: u64,
    /// Sum of `Request::bytes` (saturating).
    pub bytes_requested: u64,
    pub transfers_completed: u64,
    pub ignored: IgnoredCompletions,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the session's start time (timer pending).
    NotStarted,
    /// Objects of the current page still to request (timer pending for the next one).
    Launching,
    /// All objects of the current page requested; waiting for their completions.
    Draining,
    /// Between pages (timer pending for the next page start).
    Thinking,
    Finished,
}

#[derive(Clone, Debug)]
struct Session {
    rng: Rng,
    client: u32,
    phase: Phase,
    /// Index of the current page (valid from the first page start on).
    page: u32,
    server: u32,
    objects: u32,
    launched: u32,
    done: u32,
}

/// The generator: one per pool of sessions (RFC 4828: one forward, one reverse pool).
#[derive(Clone, Debug)]
pub struct WebTraffic {
    p: WebTrafficParams,
    sessions: Vec<Session>,
    /// Pending timers: (due time, session). At most one per session.
    timers: BinaryHeap<Reverse<(Time, u32)>>,
    /// Latest time seen (polls and completions), so no timer is set in the past.
    last: Time,
    stats: WebStats,
}

impl WebTraffic {
    /// Draws every session's start, client and private random stream from `rng`.
    pub fn new(params: WebTrafficParams, mut rng: Rng) -> WebTraffic {
        let s = params.s;
        let n = s.sessions as usize;
        let mut sessions = Vec::with_capacity(n);
        let mut timers = BinaryHeap::with_capacity(n);
        let mut poisson_next = match s.session_start {
            SessionStart::Poisson { first, .. } => first,
            SessionStart::Uniform { from, .. } => from,
        };
        for i in 0..s.sessions {
            let start = match s.session_start {
                SessionStart::Uniform { from, to } => {
                    let span = (to - from).as_nanos();
                    // Floor to the nanosecond; U < 1 keeps the start below `to` when span > 0.
                    let off = ((rng.uniform() * span as f64) as u64).min(span.saturating_sub(1));
                    from + Duration(off)
                }
                SessionStart::Poisson { mean_gap, .. } => {
                    let t = poisson_next;
                    let gap = rng.exponential(mean_gap.as_secs_f64());
                    poisson_next = t + Duration::from_secs_f64(gap);
                    t
                }
            };
            // ns-2 `picksrc()`: a uniformly chosen client per session.
            let client = rng.below(s.clients as u64) as u32;
            let stream = Rng::from_seed(rng.next_u64());
            sessions.push(Session {
                rng: stream,
                client,
                phase: Phase::NotStarted,
                page: 0,
                server: 0,
                objects: 0,
                launched: 0,
                done: 0,
            });
            timers.push(Reverse((start, i)));
        }
        WebTraffic {
            p: params,
            sessions,
            timers,
            last: Time::ZERO,
            stats: WebStats::default(),
        }
    }

    pub fn params(&self) -> &WebTrafficParams {
        &self.p
    }

    pub fn stats(&self) -> &WebStats {
        &self.stats
    }

    /// When [`poll`](Self::poll) next has a request; `None` while every unfinished session
    /// waits for completions, and once all sessions are finished.
    pub fn next_event_time(&self) -> Option<Time> {
        self.timers.peek().map(|Reverse((t, _))| *t)
    }

    /// True once every session has finished its last page.
    pub fn is_finished(&self) -> bool {
        self.stats.sessions_finished == self.sessions.len() as u64
    }

    /// The next request due at or before `now`, if any; call until `None`.
    pub fn poll(&mut self, now: Time) -> Option<Request> {
        let &Reverse((due, idx)) = self.timers.peek()?;
        if due > now {
            return None;
        }
        self.timers.pop();
        self.last = self.last.max(now);
        let s = self.p.s;
        let sess = &mut self.sessions[idx as usize];
        match sess.phase {
            Phase::NotStarted | Phase::Thinking => {
                if sess.phase == Phase::NotStarted {
                    self.stats.sessions_started += 1;
                } else {
                    sess.page += 1;
                }
                // Page start (ns-2 `WebTrafSession::expire`): pick a server (`pickdst`), draw
                // the number of objects, and request object 0 at once.
                sess.server = sess.rng.below(s.servers as u64) as u32;
                sess.objects = ceil_at_least_one(s.objects_per_page.sample(&mut sess.rng))
                    .min(u32::MAX as u64) as u32;
                sess.launched = 0;
                sess.done = 0;
                sess.phase = Phase::Launching;
                self.stats.pages_started += 1;
            }
            Phase::Launching => {}
            // Unreachable: no timer is ever pending in these phases.
            Phase::Draining | Phase::Finished => return None,
        }
        // Request the next object (ns-2 `WebPage::expire`: size = ceil(objSize)).
        let units = ceil_at_least_one(s.object_size.sample(&mut sess.rng));
        let bytes = match s.size_unit {
            SizeUnit::Segments { bytes } => units.saturating_mul(bytes as u64),
            SizeUnit::Bytes => units,
        };
        let req = Request {
            at: due,
            session: idx,
            page: sess.page,
            object: sess.launched,
            client: sess.client,
            server: sess.server,
            bytes,
        };
        sess.launched += 1;
        if sess.launched < sess.objects {
            // ns-2 `WebPage::handle`: the next object `interObj` after this launch,
            // whatever the state of earlier transfers.
            let gap = Duration::from_secs_f64(s.inter_object.sample(&mut sess.rng));
            self.timers.push(Reverse((due + gap, idx)));
        } else {
            sess.phase = Phase::Draining;
        }
        self.stats.requests += 1;
        self.stats.bytes_requested = self.stats.bytes_requested.saturating_add(bytes);
        Some(req)
    }

    /// Reports that the transfer of `object` of `page` of `session` completed at `now`.
    /// When it is the page's last outstanding transfer, the next page is scheduled an
    /// `inter_page` draw later (or the session finishes).
    pub fn on_transfer_complete(&mut self, now: Time, session: u32, page: u32, object: u32) {
        let Some(sess) = self.sessions.get_mut(session as usize) else {
            self.stats.ignored.unknown_session += 1;
            return;
        };
        let current = matches!(sess.phase, Phase::Launching | Phase::Draining);
        if !current || sess.page != page {
            self.stats.ignored.not_current_page += 1;
            return;
        }
        if object >= sess.launched || sess.done >= sess.launched {
            self.stats.ignored.unexpected_object += 1;
            return;
        }
        self.last = self.last.max(now);
        sess.done += 1;
        self.stats.transfers_completed += 1;
        if sess.phase == Phase::Draining && sess.done == sess.objects {
            // ns-2 `WebTrafSession::donePage` with `interPageOption_ = 1`: "inter-page
            // time = end of a page to the start of the next".
            self.stats.pages_finished += 1;
            if sess.page + 1 >= self.p.s.pages_per_session {
                sess.phase = Phase::Finished;
                self.stats.sessions_finished += 1;
            } else {
                sess.phase = Phase::Thinking;
                let gap = Duration::from_secs_f64(self.p.s.inter_page.sample(&mut sess.rng));
                self.timers.push(Reverse((self.last + gap, session)));
            }
        }
    }
}

/// `max(1, ceil(x))` as an integer, saturating (NaN cannot occur: draws are finite or +inf).
fn ceil_at_least_one(x: f64) -> u64 {
    (libm::ceil(x) as u64).max(1)
}
