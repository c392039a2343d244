//! TFRC sender (RFC 5348 §4, §8.2.1) with the TFRC-SP changes of RFC 4828 §3.
//!
//! The application offers packets of a fixed data size `s` at a fixed maximum rate (or
//! always, when no application rate is given); the sender sends them no faster than the
//! allowed rate `X`.
//!
//! ## Rate updates (RFC 5348 §4.3, on each feedback)
//! 1. `R_sample = (now - t_recvdata) - t_delay`.
//! 2. `R = R_sample` on the first feedback, else `R = q·R + (1-q)·R_sample`, q = 0.9.
//! 3. `RTO = max(4R, 2s/X)` (with the X before this feedback).
//! 4. `recv_limit` from `X_recv_set` (see below); then if `p > 0`:
//!    `X = max(min(X_Bps, recv_limit), s/t_mbi)` with `X_Bps` the equation and
//!    t_mbi = 64 s; else, at most once per R (slow start): `X = max(min(2X, recv_limit),
//!    initial_rate)`, `tld = now`.
//! 5. The nofeedback timer is restarted to expire after RTO.
//!
//! `X_recv_set` (RFC 5348 §4.3): it starts as {Infinity} at the first feedback. Typical
//! feedback: add X_recv, drop entries older than 2R, `recv_limit = 2·max(X_recv_set)`. When
//! the whole interval covered by the feedback was data-limited (RFC 5348 §8.2.1 test):
//! if the feedback reports a higher p, halve every entry, take `0.85·X_recv`, replace the set
//! by its maximum ("maximize") and use `recv_limit = max(X_recv_set)`; otherwise maximize and
//! use `2·max(X_recv_set)`.
//!
//! ## Nofeedback timer (RFC 5348 §4.4)
//! Before any feedback, `X = max(X/2, s/t_mbi)` (unless idle since the timer was set).
//! After: nothing if the sender was idle since the timer was set and (p > 0 and
//! `X_recv < recover_rate`, or p = 0 and `X < 2·recover_rate`), `recover_rate` being the
//! initial rate; else if p = 0 `X = max(X/2, s/t_mbi)`; else if `X_Bps > 2·X_recv`
//! `update_limits(X_recv)` else `update_limits(X_Bps/2)`, where `update_limits(l)` sets
//! `X_recv_set = {max(l, s/t_mbi)/2}` and recomputes X as in step 4 (so X halves). Here
//! X_recv is `max(X_recv_set)`. The timer restarts after `max(4R, 2s/X)` (`2s/X` before the
//! first RTT sample; 2 s at start, RFC 5348 §4.2).
//!
//! ## Initial rate (RFC 5348 §4.2)
//! One packet per second until the first feedback; then `initial_rate = W_init/R` with
//! `W_init = min(4s, max(2s, 4380))` ([`InitialRate::Rfc5348`]). [`InitialRate::Rfc3448`]
//! instead uses RFC 3448 §4.3's slow-start floor `s/R` (one packet per RTT), inside the same
//! RFC 5348 machinery (RFC 3448's `2·X_recv` cap is the `X_recv_set` rule with one entry).
//!
//! ## TFRC-SP (RFC 4828 §3, §4.2, §4.3)
//! `X_Bps` uses the nominal segment size (1460 B). The allowed data rate is
//! `X·s_true/(s_true + H)`, i.e. packets leave at `X/(s_true + H)` per second; and never
//! closer than the Min Interval (10 ms). Choices: every quantity the RFCs state "in
//! packets" — one packet/s before feedback, `s/t_mbi`, `2s/X` in the timers, `W_init`'s 2 to
//! 4 packets — uses the packet's share of X, `s_true + H` bytes; X_recv (data bytes) is
//! converted to the same unit, `X_recv·(s_true + H)/s_true`, so all comparisons are
//! comparisons of packet rates. For standard TFRC both conversions are the identity.
//!
//! ## Choices the RFCs leave open
//! - **Scheduling** (RFC 5348 §4.6): packet k+1 is due `gap` after packet k was sent,
//!   `gap = max(s/X, s/app_rate, Min Interval)` computed with the current X. No send
//!   credit is kept for late polls (RFC 5348 §4.6 allows some burstiness; a punctual caller
//!   never needs it). When X changes, the next packet is rescheduled from the last one with
//!   the new gap (possibly to an instant already past: then it is due at once).
//! - **Application** (neither RFC defines it): by default the application offers a packet
//!   whenever `s/app_rate` has passed since the last one was sent (the `app_rate` term of
//!   `gap`): a packet X did not allow is never made up for, as for an interactive source
//!   that produces its data at send time. With [`SenderParams::with_app_backlog`] the
//!   application instead produces packet k at `start + k·s/app_rate` into an unbounded
//!   send buffer and the sender sends while the buffer holds packets, `max(s/X_inst, Min
//!   Interval)` apart: after a period below the application rate it sends faster than the
//!   application until the backlog is gone, so over a long run it sends at the application
//!   rate whenever the mean of X allows it. This is ns-2's set-up of RFC 4828 App. B
//!   (`Agent/TFRC` with `SndrType_ 1` fed by a CBR, `maxqueue_` unbounded): at B.1 p = 0.2
//!   its TFRC-SP 14 B flows send 50.0 packets/s with the backlog and 45.8–46.4 with
//!   `maxqueue_ 2` (one flow, seeds 1–3, [50 s, 500 s); `bench/ns2/seeds/README.md`
//!   finding 37). The §8.2.1 test counts a packet sent as soon as the application produced
//!   it as data-limited.
//! - **Data-limited** (RFC 5348 §8.2.1): a send is "not data-limited" when the rate gap
//!   `s/X` is the binding term of `gap` (a TFRC-SP sender held back by the Min Interval is
//!   data-limited: it cannot use X). With no application rate the sender is never
//!   data-limited.
//! - **R_sample <= 0** (feedback computed at the same instant as the data) is floored at
//!   1 µs.
//! - **Oscillation prevention** (RFC 5348 §4.5, optional; off by default, on with
//!   [`SenderParams::with_oscillation_prevention`]): at each feedback `R_sqmean =
//!   sqrt(R_sample)` on the first, else `q2·R_sqmean + (1-q2)·sqrt(R_sample)` (q2 = 0.9,
//!   [`OSCILLATION_Q2`], or the caller's), and packets are spaced at `X_inst = X·R_sqmean /
//!   sqrt(R_sample)` instead of X (with the R_sample of the latest feedback; X before the
//!   first feedback). X itself, the RTO's and nofeedback timer's `2s/X` and the `X_recv`
//!   comparisons are unchanged; the data-limited test above compares the `X_inst` gap.
//! - **X_recv_set** holds at most 8 entries (feedback comes about once per RTT and entries
//!   live 2 RTTs); when full the oldest is dropped.
//!
//! ## Below one packet per RTT (observed at RFC 4828 B.1's high drop rates)
//! With p ≥ 0.2 the allowed rate falls below one packet per RTT, and the RFC 5348 rules
//! above then keep X well under the equation's X_Bps (X/X_Bps ≈ 0.1 at feedback instants
//! for 1460 B, p = 0.5): X_recv (bytes since the last feedback / time since it) collapses
//! after every lost packet and X ≤ 2·X_recv; and the §8.2.1 test, as written here, calls an
//! interval data-limited when three or more packets were sent between two feedbacks more
//! than R apart (NotLimited1 and NotLimited2 are both taken and not refreshed before the
//! last send), which applies the smaller limit (0.85·X_recv, no factor 2). Both follow the
//! RFC text as implemented; neither was changed.
//!
//! ## ns-2 differs (`tcp/tfrc.cc`, `tcp/formula.h`; see [`ns2`](super::ns2))
//! - **Equation**: t_RTO = `tzero_`, TCP's RTO in 100 ms ticks ([`Ns2Rto`]; 0.5 s for a
//!   240 ms RTT instead of 4R = 0.96 s) and the timeout factor capped at 1: options
//!   [`Ns2Compat::tcp_rto_in_equation`], [`Ns2Compat::cap_timeout_factor`].
//! - **Receive-rate limit**: at least one packet per RTT, `max(2·X_recv, s/R)`: option
//!   [`Ns2Compat::recv_limit_floor`]. No X_recv_set: the X_recv of the latest report alone,
//!   option [`Ns2Compat::recv_limit_latest_report`]. No §8.2.1 data-limited test (ns-2's
//!   `datalimited_` means "the application had nothing to send").
//! - **Rate rule**: after slow start, if X_Bps ≤ X then X = X_Bps at once, capped by the
//!   receive-rate limit (`decrease_rate`, `maxHeavyRounds_ 0`); else X grows by s/R per
//!   RTT since the last change, at most 2 packets per RTT per feedback (`increase_rate`),
//!   capped by X_Bps and the receive-rate limit: option [`Ns2Compat::gradual_increase`]
//!   (not reproduced: ns-2 leaves slow start at the equation's rate without the receive-rate
//!   cap, and after a data-limited period raises the cap to the initial rate).
//! - **RTT filter**: weight `df_` = 0.95 (RFC q = 0.9): option [`Ns2Compat::rtt_filter_df`]
//!   (session 13).
//! - **Slow start** (session 13): a rise of X is approached by a per-packet ramp from the old
//!   X (`slow_increase_ 1`): option [`Ns2Compat::slow_start_ramp`]; a packet leaves at once at
//!   every slow-start feedback: option [`Ns2Compat::slow_start_send_at_feedback`]; before the
//!   first feedback X = `InitRate_` = 300 data bytes/s and the nofeedback timer 2·s/X:
//!   option [`Ns2Compat::init_rate_300`].
//! - **Oscillation prevention** (`ca_ 1`, ns-2's default): RFC 5348 §4.5 as above
//!   (`update_rtt()`: `sqrtrtt_` is the EWMA of sqrt(R_sample) seeded with the first
//!   sample's root, `rttcur_` the latest raw sample, `now - (timestamp_echo +
//!   timestamp_offset)` as our R_sample but in double seconds of the absolute clock, so at a
//!   constant RTT it varies by the clock's rounding and the factor is not exactly 1: option
//!   [`Ns2Compat::double_clock_rtt_sample`], session 16; `nextpkt()`: interval `size_/(rate_·sqrtrtt_ /
//!   sqrt(rttcur_))`, then TFRC-SP's Min Interval, no other clamp; factor 1 before the first
//!   feedback), with q2 = `df_` = 0.95, which the RFC allows ("q2 should be set similarly to
//!   q"): [`SenderParams::with_oscillation_prevention`]`(0.95)`. In slow start with
//!   `slow_increase_ 1` (default) ns-2 spaces packets by its ramp `oldrate_` without the
//!   factor: option [`Ns2Compat::slow_start_ramp`] (session 13). Its interval is computed
//!   when a packet is sent (a feedback does not reschedule the pending timer; here it does,
//!   as for X): option [`Ns2Compat::send_timer_fixed_at_send`] (session 12).
//! - **Nofeedback timer**: expires after max(2R, 2s/X) (RFC: max(4R, 2s/X)), halves X
//!   directly (no X_recv_set) and sends a packet at once; the next feedback restores the
//!   equation's rate through the rate rule. Each expiry, like each feedback, advances the
//!   round and sets `UrgentFlag` until the next feedback: option
//!   [`Ns2Compat::nofeedback_halves_rate`] (session 12; measured alone in session 9 it
//!   changed little, with 9, 11 and 12 it is what brings TFRC-SP at p ≥ 0.4 to ns-2's rate).
//! - **Application** (ns-2's RFC 4828 App. B set-up, not a TFRC rule): its CBR-fed agent
//!   queues the application's packets without bound (`maxqueue_`):
//!   [`SenderParams::with_app_backlog`] (session 12, finding 37).
//! - **TFRC-SP** (`voip_ 1`): header allowance `headersize_` = 32 B (RFC 4828 §3: H = 40):
//!   option [`Ns2Compat::sp_header_32`] (session 13); Min Interval from
//!   `voip_max_pkt_rate_` = 100 packets/s (10 ms, as here).

use super::equation::{throughput, throughput_capped, throughput_general, DEFAULT_B, T_RTO_FACTOR};
use super::ns2::Ns2PathDelays;
use super::{DataPacket, Feedback, Ns2Compat, Ns2Rto, Variant};
use crate::error::ConfigError;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// RFC 5348 §4.3: "t_mbi is the maximum back-off interval of 64 seconds".
pub const T_MBI_S: f64 = 64.0;
/// RFC 5348 §4.3: "q ... a recommended value of 0.9".
pub const RTT_FILTER_Q: f64 = 0.9;
/// ns-2 `Agent/TFRC df_` (`tcl/lib/ns-default.tcl`): the RTT filter's weight with
/// [`Ns2Compat::rtt_filter_df`].
pub const NS2_RTT_FILTER_DF: f64 = 0.95;
/// RFC 5348 §4.5: "The constant q2 should be set similarly to q, and we recommend a value
/// of 0.9 as the default."
pub const OSCILLATION_Q2: f64 = 0.9;
/// RFC 5348 §4.2: initial nofeedback timer, 2 seconds.
pub const INITIAL_NOFEEDBACK: Duration = Duration::from_secs(2);
/// ns-2 `Agent/TFRC InitRate_` (`tcl/lib/ns-default.tcl`): data bytes/s before the first
/// feedback with [`Ns2Compat::init_rate_300`].
pub const NS2_INIT_RATE: f64 = 300.0;
/// ns-2 `Agent/TFRC headersize_` (`tcl/lib/ns-default.tcl`): TFRC-SP's header allowance H
/// with [`Ns2Compat::sp_header_32`].
pub const NS2_HEADERSIZE: u32 = 32;
const SET_CAP: usize = 8;

/// The initial rate rule used from the first feedback on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialRate {
    /// RFC 5348 §4.2: `W_init/R`, `W_init = min(4s, max(2s, 4380))`.
    Rfc5348,
    /// RFC 3448 §4.3: `s/R`.
    Rfc3448,
}

/// Validated sender settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SenderParams {
    segment_size: u32,
    app_rate: Option<Rate>,
    variant: Variant,
    initial_rate: InitialRate,
    ns2: Ns2Compat,
    /// RFC 5348 §4.5's q2 when oscillation prevention is on.
    oscillation_q2: Option<f64>,
    /// The application's packets wait in an unbounded send buffer (see
    /// [`SenderParams::with_app_backlog`]).
    app_backlog: bool,
}

impl SenderParams {
    /// `segment_size` data bytes per packet, >= 1 (TFRC-SP: at most 1500, RFC 4828 §1:
    /// "data packets of at most 1500 bytes"); `app_rate`: the application's maximum data
    /// rate in bit/s (`None`: always has data), > 0.
    pub fn new(
        segment_size: u32,
        app_rate: Option<Rate>,
        variant: Variant,
        initial_rate: InitialRate,
    ) -> Result<Self, ConfigError> {
        if segment_size == 0 {
            return Err(ConfigError::out_of_range("segment_size", 0, ">= 1 byte"));
        }
        if app_rate == Some(Rate(0)) {
            return Err(ConfigError::out_of_range(
                "app_rate",
                0,
                "> 0 bit/s, or none",
            ));
        }
        if matches!(variant, Variant::SmallPacket(_)) && segment_size > 1500 {
            return Err(ConfigError::relation(
                "TFRC-SP data packets of at most 1500 bytes",
                "RFC 4828 §1",
                format!("segment_size = {segment_size}; use standard TFRC for larger packets"),
            ));
        }
        Ok(SenderParams {
            segment_size,
            app_rate,
            variant,
            initial_rate,
            ns2: Ns2Compat::RFC,
            oscillation_q2: None,
            app_backlog: false,
        })
    }
    /// The same settings with RFC 5348 §4.5's optional oscillation prevention (see the
    /// module docs), `q2` the weight of the old `R_sqmean` ([`OSCILLATION_Q2`] = 0.9 is the
    /// RFC's recommendation; ns-2's `ca_ 1` uses its `df_` = 0.95). `0 <= q2 < 1`.
    pub fn with_oscillation_prevention(mut self, q2: f64) -> Result<Self, ConfigError> {
        if !(0.0..1.0).contains(&q2) {
            return Err(ConfigError::relation(
                "0 <= q2 < 1",
                "RFC 5348 §4.5",
                format!("q2 = {q2}: R_sqmean = q2*R_sqmean + (1-q2)*sqrt(R_sample)"),
            ));
        }
        self.oscillation_q2 = Some(q2);
        Ok(self)
    }
    /// RFC 5348 §4.5's q2 if oscillation prevention is on.
    pub fn oscillation_q2(&self) -> Option<f64> {
        self.oscillation_q2
    }
    /// The same settings with an application that queues its packets in an unbounded send
    /// buffer instead of offering them at most at its rate (see the module docs,
    /// "Application"). Only meaningful with an application rate. The RFCs leave the
    /// application open; this is ns-2's set-up of RFC 4828 App. B (`Agent/TFRC`, `SndrType_
    /// 1`, fed by `Application/Traffic/CBR`, `maxqueue_` unbounded by default in
    /// `tcl/lib/ns-default.tcl`; `tcp/tfrc.cc` `sendmsg()` queues, `nextpkt()` sends while
    /// `maxseq_ > seqno_`).
    pub fn with_app_backlog(mut self, on: bool) -> Self {
        self.app_backlog = on;
        self
    }
    /// Whether the application's packets wait in an unbounded send buffer.
    pub fn app_backlog(&self) -> bool {
        self.app_backlog
    }
    /// The same settings with the sender-side ns-2 behaviours of `ns2` switched on
    /// (`tcp_rto_in_equation`, `cap_timeout_factor`; see [`ns2`](super::ns2)). Not RFC
    /// behaviour; for comparisons with ns-2 results only.
    pub fn with_ns2(mut self, ns2: Ns2Compat) -> Self {
        self.ns2 = ns2;
        self
    }
    pub fn ns2(&self) -> Ns2Compat {
        self.ns2
    }
    pub fn segment_size(&self) -> u32 {
        self.segment_size
    }
    pub fn app_rate(&self) -> Option<Rate> {
        self.app_rate
    }
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    pub fn initial_rate(&self) -> InitialRate {
        self.initial_rate
    }
}

/// Sender counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderStats {
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub feedbacks: u64,
    pub data_limited_feedbacks: u64,
    pub nofeedback_expiries: u64,
    /// Nofeedback expiries that reduced X.
    pub nofeedback_reductions: u64,
}

/// A TFRC / TFRC-SP sender (see the module docs).
#[derive(Clone, Debug)]
pub struct Sender {
    params: SenderParams,
    /// Bytes of X one packet uses: s (standard) or s_true + H (TFRC-SP).
    s_pkt: f64,
    /// Segment size in the equation: s (standard) or the nominal segment (TFRC-SP).
    s_eq: f64,
    min_interval: Duration,
    app_gap: Duration,
    /// When the application produced its first packet (the sender's creation).
    app_start: Time,
    x: f64,
    x_calc: f64,
    p: f64,
    r: Option<f64>,
    rto: f64,
    tld: Option<Time>,
    initial_rate: f64,
    set: [(Time, f64); SET_CAP],
    n_set: usize,
    next_seq: u64,
    last_sched: Option<Time>,
    next_send: Time,
    nofeedback_deadline: Time,
    sent_since_timer: bool,
    // RFC 5348 §8.2.1 (signed nanoseconds; i128::MIN = unset).
    /// ns-2 `round_id`: feedbacks received plus nofeedback expiries.
    round: u64,
    /// ns-2 `tzero_` estimator (used with `Ns2Compat::tcp_rto_in_equation`).
    ns2_rto: Ns2Rto,
    not_limited1: i128,
    not_limited2: i128,
    t_new: i128,
    t_next: i128,
    stats: SenderStats,
    /// ns-2 option [`Ns2Compat::gradual_increase`]: the last rate change (`last_change_`).
    ns2_last_change: Time,
    /// RFC 5348 §4.5: R_sqmean (None before the first feedback or when the option is off).
    r_sqmean: Option<f64>,
    /// RFC 5348 §4.5: X_inst / X = R_sqmean / sqrt(R_sample); exactly 1 when off.
    inst_factor: f64,
    /// ns-2 `UrgentFlag` (see [`DataPacket::urgent`]).
    urgent: bool,
    /// ns-2 option [`Ns2Compat::slow_start_ramp`]: the ramp's rate (`oldrate_`, unit of X),
    /// its step per packet (`delta_`), and whether the latest packet was spaced by it.
    ns2_ramp: f64,
    ns2_ramp_delta: f64,
    ns2_ramp_on: bool,
    /// ns-2 option [`Ns2Compat::double_clock_ties`]: the double "shadows" of `next_send` and
    /// `nofeedback_deadline` (absolute seconds, computed as ns-2's `clock() + delay`), the
    /// order in which each was last scheduled, and an expiry held back behind a packet due
    /// at its nanosecond.
    sh_send: f64,
    sh_nf: f64,
    sh_send_order: u64,
    sh_nf_order: u64,
    sh_orders: u64,
    nf_deferred: bool,
    /// ns-2 option [`Ns2Compat::double_clock_rtt_sample`]: the path's delays as ns-2's links
    /// add them ([`Sender::set_ns2_path`]).
    ns2_path: Option<Ns2PathDelays>,
}

/// ns-2 `tcp/tfrc.h` `SMALLFLOAT`: the ramp of [`Ns2Compat::slow_start_ramp`] runs while it is
/// more than this below X.
const NS2_SMALLFLOAT: f64 = 1e-7;

fn ns(t: Time) -> i128 {
    t.as_nanos() as i128
}

/// The double nearest an integer instant (a correctly rounded division): the shadow of an
/// event whose ns-2 double is not known here ([`Ns2Compat::double_clock_ties`]).
fn secs(t: Time) -> f64 {
    t.as_nanos() as f64 / 1e9
}

impl Sender {
    /// A sender whose first packet may leave at `now` (RFC 5348 §4.2: X = 1 packet/s,
    /// nofeedback timer 2 s).
    pub fn new(params: SenderParams, now: Time) -> Self {
        let (s_pkt, s_eq, min_interval) = match params.variant {
            Variant::Standard => (
                params.segment_size as f64,
                params.segment_size as f64,
                Duration::ZERO,
            ),
            Variant::SmallPacket(sp) => (
                // RFC 4828 §3: the allowance s_true/(s_true + H); ns-2 option
                // sp_header_32: H = `headersize_` = 32 B.
                (params.segment_size
                    + if params.ns2.sp_header_32 {
                        NS2_HEADERSIZE
                    } else {
                        sp.header()
                    }) as f64,
                sp.nominal_segment() as f64,
                sp.min_interval(),
            ),
        };
        let app_gap = params
            .app_rate
            .map_or(Duration::ZERO, |r| r.tx_time(params.segment_size as u64));
        // RFC 5348 §4.2: "the value of X is set to 1 packet/second" and the nofeedback timer
        // to 2 s. ns-2 option init_rate_300: `InitRate_` = 300 data bytes/s and the timer
        // 2·size_/rate_ (tfrc.cc start()).
        let (x0, nofeedback0_secs, nofeedback0) = if params.ns2.init_rate_300 {
            let x = NS2_INIT_RATE * s_pkt / params.segment_size as f64;
            let secs = 2.0 * s_pkt / x;
            (x, secs, Duration::from_secs_f64(secs))
        } else {
            (s_pkt, INITIAL_NOFEEDBACK.as_secs_f64(), INITIAL_NOFEEDBACK)
        };
        let nofeedback_deadline = if params.ns2.double_clock_ties {
            Time::from_secs_f64(secs(now) + nofeedback0_secs)
        } else {
            now + nofeedback0
        };
        Sender {
            params,
            s_pkt,
            s_eq,
            min_interval,
            app_gap,
            app_start: now,
            x: x0,
            x_calc: f64::INFINITY,
            p: 0.0,
            r: None,
            rto: nofeedback0.as_secs_f64(),
            tld: None,
            initial_rate: 0.0,
            set: [(Time::ZERO, 0.0); SET_CAP],
            n_set: 0,
            next_seq: 0,
            last_sched: None,
            next_send: now,
            nofeedback_deadline,
            sent_since_timer: false,
            round: 0,
            ns2_rto: Ns2Rto::new(Ns2Rto::NS2_TICK, Duration::ZERO),
            not_limited1: i128::MIN,
            not_limited2: i128::MIN,
            t_new: i128::MIN,
            t_next: i128::MIN,
            stats: SenderStats::default(),
            ns2_last_change: now,
            r_sqmean: None,
            inst_factor: 1.0,
            urgent: true,
            ns2_ramp: s_pkt,
            ns2_ramp_delta: 0.0,
            ns2_ramp_on: false,
            // tcp/tfrc.cc start(): the nofeedback timer 2·size_/rate_ after the start.
            sh_send: secs(now),
            sh_nf: secs(now) + nofeedback0_secs,
            sh_send_order: 0,
            sh_nf_order: 1,
            sh_orders: 2,
            nf_deferred: false,
            ns2_path: None,
        }
    }

    /// ns-2 option [`Ns2Compat::double_clock_rtt_sample`]: the path's delays as ns-2's links
    /// compute them (without it the option takes the doubles nearest the feedback's and the
    /// echoed packet's nanoseconds).
    pub fn set_ns2_path(&mut self, path: Ns2PathDelays) {
        self.ns2_path = Some(path);
    }

    pub fn params(&self) -> &SenderParams {
        &self.params
    }
    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }
    /// Allowed rate X in bytes/s of the equation (TFRC-SP: before the header allowance).
    pub fn allowed_rate(&self) -> f64 {
        self.x
    }
    /// RFC 5348 §4.5: the rate packets are spaced at, `X_inst = X·R_sqmean/sqrt(R_sample)`
    /// with oscillation prevention, else X (bytes/s of the equation, like X).
    pub fn instantaneous_rate(&self) -> f64 {
        self.x * self.inst_factor
    }
    /// RFC 5348 §4.5: `X_inst / X = R_sqmean / sqrt(R_sample)` (exactly 1 without
    /// oscillation prevention or before the first feedback).
    pub fn oscillation_factor(&self) -> f64 {
        self.inst_factor
    }
    /// Allowed data rate in bytes/s (TFRC-SP: `X·s_true/(s_true + H)`, RFC 4828 §3).
    pub fn allowed_data_rate(&self) -> f64 {
        self.x * self.params.segment_size as f64 / self.s_pkt
    }
    /// The equation's rate X_Bps of the last feedback with p > 0 (infinite before).
    pub fn x_calc(&self) -> f64 {
        self.x_calc
    }
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    /// Smoothed RTT (None before the first feedback).
    pub fn rtt(&self) -> Option<Duration> {
        self.r.map(Duration::from_secs_f64)
    }
    /// The t_RTO of the equation ([`DataPacket::t_rto`]): 4R (RFC 5348 §3.1), or ns-2's
    /// `tzero_` with [`Ns2Compat::tcp_rto_in_equation`]; `None` before the first feedback.
    pub fn t_rto(&self) -> Option<Duration> {
        let r = self.r?;
        Some(if self.params.ns2.tcp_rto_in_equation {
            self.ns2_rto.rto()
        } else {
            Duration::from_secs_f64(T_RTO_FACTOR * r)
        })
    }
    /// RTO of RFC 5348 §4.3 step 3, seconds.
    pub fn rto_secs(&self) -> f64 {
        self.rto
    }
    /// When the next packet may leave.
    pub fn next_send_time(&self) -> Time {
        self.next_send
    }
    /// The nofeedback timer's deadline (None while [`Ns2Compat::double_clock_ties`] holds
    /// an expiry back behind the packet due at its instant: `next_send_time()` is then due).
    pub fn poll_timeout(&self) -> Option<Time> {
        if self.nf_deferred {
            None
        } else {
            Some(self.nofeedback_deadline)
        }
    }

    fn gaps(&self) -> (Duration, Duration) {
        // RFC 5348 §4.5: packets leave at X_inst (= X when the option is off: factor 1.0);
        // ns-2 option slow_start_ramp: at the ramp's rate while it runs.
        let rate = if self.ns2_ramp_on {
            self.ns2_ramp
        } else {
            self.x * self.inst_factor
        };
        let rate_gap = Duration::from_secs_f64(self.s_pkt / rate);
        // With a send buffer the application's rate limits what is queued, not the gap.
        let other = if self.backlogged() {
            self.min_interval
        } else {
            self.app_gap.max(self.min_interval)
        };
        (rate_gap, other)
    }

    /// The gap of [`Sender::gaps`] in double seconds, as ns-2 computes it (`tcp/tfrc.cc`
    /// `nextpkt()`: `next = size_/xrate`, at least `1.0/voip_max_pkt_rate_`), for the
    /// shadows of [`Ns2Compat::double_clock_ties`].
    fn gap_secs(&self) -> f64 {
        let rate = if self.ns2_ramp_on {
            self.ns2_ramp
        } else {
            self.x * self.inst_factor
        };
        let other = if self.backlogged() {
            self.min_interval
        } else {
            self.app_gap.max(self.min_interval)
        };
        (self.s_pkt / rate).max(other.as_secs_f64_exact())
    }

    fn ties(&self) -> bool {
        self.params.ns2.double_clock_ties
    }

    /// [`Ns2Compat::double_clock_ties`]: the send timer is due at `t`, whose double is `sh`
    /// (scheduled now, after every deadline scheduled before).
    fn shadow_send(&mut self, t: Time, sh: f64) {
        self.next_send = t;
        self.sh_send = sh;
        self.sh_send_order = self.sh_orders;
        self.sh_orders += 1;
    }

    /// [`Ns2Compat::double_clock_ties`]: the nofeedback timer restarts `delay` seconds after
    /// an event whose double is `clock` (`TimerHandler::resched(delay)`: `clock() + delay`).
    fn shadow_nofeedback(&mut self, clock: f64, delay: f64) {
        self.sh_nf = clock + delay;
        self.nofeedback_deadline = Time::from_secs_f64(self.sh_nf);
        self.sh_nf_order = self.sh_orders;
        self.sh_orders += 1;
    }

    /// ns-2 option [`Ns2Compat::slow_start_ramp`] (`tcp/tfrc.cc` `nextpkt()`: `slow_increase_
    /// && round_id > 2 && rate_change_ == SLOW_START && oldrate_ + SMALLFLOAT < rate_`):
    /// whether the next packet is spaced by the ramp.
    fn ramp_runs(&self) -> bool {
        self.params.ns2.slow_start_ramp
            && self.p == 0.0
            && self.round > 2
            && self.ns2_ramp + NS2_SMALLFLOAT < self.x
    }

    /// The nofeedback timer's multiple of R: 4 (RFC 5348 §4.3 (3), §4.4 (2)), or 2 with
    /// [`Ns2Compat::nofeedback_halves_rate`] (ns-2 `tcp/tfrc.cc`).
    fn nofeedback_rtts(&self) -> f64 {
        if self.params.ns2.nofeedback_halves_rate {
            2.0
        } else {
            4.0
        }
    }

    fn backlogged(&self) -> bool {
        self.params.app_backlog && self.params.app_rate.is_some()
    }

    /// With a send buffer: when the application has produced packet `seq` (one every
    /// `app_gap` from the sender's creation on).
    fn app_ready(&self, seq: u64) -> Time {
        self.app_start + self.app_gap.saturating_mul(seq)
    }

    /// When the packet after one sent at `last` is due: `gap` later, and with a send buffer
    /// not before the application has produced it.
    fn due_after(&self, last: Time) -> Time {
        let (a, b) = self.gaps();
        let t = last + a.max(b);
        if self.backlogged() {
            t.max(self.app_ready(self.next_seq))
        } else {
            t
        }
    }

    /// Sends the next packet if it is due (`now >= next_send_time()`). With
    /// [`Ns2Compat::double_clock_ties`] a nofeedback expiry held back by
    /// [`Sender::on_timeout`] behind this packet runs right after it (then the next call
    /// sends the expiry's packet).
    pub fn poll_transmit(&mut self, now: Time) -> Option<DataPacket> {
        let pkt = self.transmit(now);
        if self.nf_deferred {
            self.nf_deferred = false;
            self.expire(now);
        }
        pkt
    }

    fn transmit(&mut self, now: Time) -> Option<DataPacket> {
        if now < self.next_send {
            return None;
        }
        // Option double_clock_ties: the double of this send (the send timer's own when it
        // fires on time).
        let clock = if now == self.next_send {
            self.sh_send
        } else {
            secs(now)
        };
        // ns-2 option slow_start_ramp (nextpkt(): `oldrate_ = oldrate_ + delta_; xrate =
        // oldrate_`, after the packet is sent).
        self.ns2_ramp_on = self.ramp_runs();
        if self.ns2_ramp_on {
            self.ns2_ramp += self.ns2_ramp_delta;
        }
        let (rate_gap, other_gap) = self.gaps();
        let gap = rate_gap.max(other_gap);
        // With a send buffer, a packet the application produced only now was held back by
        // the application, not by X.
        let waited_for_data = self.backlogged() && self.app_ready(self.next_seq) >= now;
        if rate_gap >= other_gap && !waited_for_data {
            self.mark_not_limited(now);
        }
        // The next packet is due `gap` after this one is actually sent (no credit).
        self.last_sched = Some(now);
        self.next_send = now + gap;
        self.sent_since_timer = true;
        let pkt = DataPacket {
            seq: self.next_seq,
            size: self.params.segment_size,
            send_time: now,
            rtt: self.rtt(),
            t_rto: self.t_rto(),
            ecn_ce: false,
            round: self.round,
            urgent: self.urgent,
        };
        self.next_seq += 1;
        if self.backlogged() {
            self.next_send = self.due_after(now);
        }
        if self.ties() {
            // tcp/tfrc.cc nextpkt(): send_timer_.resched(size_/xrate) after the packet.
            let sh = clock + self.gap_secs();
            let t = Time::from_secs_f64(sh);
            let ready = if self.backlogged() {
                self.app_ready(self.next_seq)
            } else {
                Time::ZERO
            };
            if ready > t {
                self.shadow_send(ready, secs(ready));
            } else {
                self.shadow_send(t, sh);
            }
        }
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += self.params.segment_size as u64;
        Some(pkt)
    }

    /// ns-2 option [`Ns2Compat::nofeedback_idle_needs_no_data`]: is the sender short of
    /// application data at `now` (ns-2 `datalimited_`)? With a send buffer: the next packet
    /// was not produced by the time it was due (or by `now`); without one: the
    /// application's rate, not X, spaces the packets; an unlimited application never is.
    fn data_short(&self, now: Time) -> bool {
        if self.params.app_rate.is_none() {
            false
        } else if self.backlogged() {
            self.app_ready(self.next_seq) > self.next_send.min(now)
        } else {
            let (rate_gap, other_gap) = self.gaps();
            other_gap > rate_gap
        }
    }

    /// RFC 5348 §8.2.1: record that the sender is not data-limited at `now`.
    fn mark_not_limited(&mut self, now: Time) {
        let t = ns(now);
        if self.not_limited1 <= self.t_new {
            // Goal: NotLimited1 > t_new.
            self.not_limited1 = t;
        } else if self.not_limited2 <= self.t_next {
            // Goal: NotLimited2 > t_next.
            self.not_limited2 = t;
        }
    }

    /// RFC 5348 §8.2.1: was the interval covered by this feedback data-limited?
    fn data_limited_interval(&mut self, now: Time, t_recvdata: Time, r: f64) -> bool {
        self.t_new = ns(t_recvdata);
        let t_old = self.t_new - Duration::from_secs_f64(r).as_nanos() as i128;
        self.t_next = ns(now);
        let in_window = |x: i128| t_old < x && x <= self.t_new;
        let limited = !(in_window(self.not_limited1) || in_window(self.not_limited2));
        if self.not_limited1 <= self.t_new && self.not_limited2 > self.t_new {
            self.not_limited1 = self.not_limited2;
        }
        limited
    }

    fn reschedule(&mut self) {
        // ns-2 option slow_start_ramp: the pending packet at the ramp's current rate.
        self.ns2_ramp_on = self.ramp_runs();
        if let Some(last) = self.last_sched {
            self.next_send = self.due_after(last);
            if self.ties() {
                self.shadow_send(self.next_send, secs(self.next_send));
            }
        }
    }

    fn set_max(&self) -> f64 {
        self.set[..self.n_set]
            .iter()
            .fold(0.0f64, |m, e| m.max(e.1))
    }

    fn set_push(&mut self, now: Time, x: f64) {
        if self.n_set == SET_CAP {
            self.set.copy_within(1..SET_CAP, 0);
            self.n_set -= 1;
        }
        self.set[self.n_set] = (now, x);
        self.n_set += 1;
    }

    /// RFC 5348 §4.3 "Update X_recv_set": add X_recv, delete entries older than 2 RTTs.
    fn set_update(&mut self, now: Time, x_recv: f64, r: f64) {
        self.set_push(now, x_recv);
        let cutoff = ns(now) - 2 * Duration::from_secs_f64(r).as_nanos() as i128;
        let mut k = 0;
        for i in 0..self.n_set {
            if ns(self.set[i].0) >= cutoff {
                self.set[k] = self.set[i];
                k += 1;
            }
        }
        self.n_set = k;
    }

    /// RFC 5348 §4.3 "Maximize X_recv_set": add X_recv, delete Infinity, keep the maximum.
    fn set_maximize(&mut self, now: Time, x_recv: f64) {
        self.set_push(now, x_recv);
        let m = self.set[..self.n_set]
            .iter()
            .filter(|e| e.1.is_finite())
            .fold(0.0f64, |m, e| m.max(e.1));
        self.set[0] = (now, m);
        self.n_set = 1;
    }

    /// RFC 5348 §4.3 step 4 after `recv_limit` is known.
    fn recompute_x(&mut self, now: Time, recv_limit: f64, at_feedback: bool) {
        let r = self.r.unwrap_or(0.0);
        // RFC 5348 §4.2: tld starts at -1, so the first slow-start step is always due.
        let doubling_due = match self.tld {
            None => true,
            Some(t) => now.saturating_since(t) >= Duration::from_secs_f64(r),
        };
        if self.p > 0.0 {
            // RFC 5348 §4.3: X_Bps from the equation (RFC 4828 §3: nominal s for TFRC-SP).
            self.x_calc = self.equation(r);
            // RFC 5348 §4.3: X = max(min(X_Bps, recv_limit), s/t_mbi)
            if self.params.ns2.gradual_increase && at_feedback && r > 0.0 {
                // ns-2 option (tfrc.cc increase_rate()/decrease_rate(); not RFC 5348 §4.3):
                // down to min(X_Bps, recv_limit) at once, but up by at most s/R per R since
                // the last change, two packets per RTT at most, capped likewise.
                let x = if self.x_calc > self.x {
                    let rtts =
                        (now.saturating_since(self.ns2_last_change).as_secs_f64() / r).min(2.0);
                    self.x + self.s_pkt / r * rtts
                } else {
                    self.x
                };
                self.x = x.min(self.x_calc).min(recv_limit).max(self.s_pkt / T_MBI_S);
                self.ns2_last_change = now;
            } else {
                self.x = self.x_calc.min(recv_limit).max(self.s_pkt / T_MBI_S);
            }
        } else if doubling_due {
            // RFC 5348 §4.3: X = max(min(2*X, recv_limit), initial_rate); tld = t_now
            let old = self.x;
            self.x = (2.0 * self.x).min(recv_limit).max(self.initial_rate);
            self.tld = Some(now);
            self.ns2_last_change = now;
            if self.params.ns2.slow_start_ramp && r > 0.0 {
                // ns-2 option (tfrc.cc slowstart(): oldrate_ = rate_; rate_ = new;
                // delta_ = (rate_ - oldrate_)/(rate_*rtt_/size_)); a fall starts no ramp.
                self.ns2_ramp = old.min(self.x);
                self.ns2_ramp_delta = (self.x - self.ns2_ramp) / (self.x * r / self.s_pkt);
            }
        }
    }

    /// X_Bps for the current p: RFC 5348 §3.1 with b = 1, t_RTO = 4R, or ns-2's forms.
    fn equation(&self, r: f64) -> f64 {
        let ns2 = self.params.ns2;
        if !ns2.tcp_rto_in_equation && !ns2.cap_timeout_factor {
            return throughput(self.s_eq, r, self.p);
        }
        // ns-2 tfrc.cc: p_to_b(flost, rtt_, tzero_, fsize_, bval_) (see super::ns2).
        let t_rto = if ns2.tcp_rto_in_equation {
            self.ns2_rto.rto().as_secs_f64()
        } else {
            T_RTO_FACTOR * r
        };
        if ns2.cap_timeout_factor {
            throughput_capped(self.s_eq, r, self.p, DEFAULT_B, t_rto)
        } else {
            throughput_general(self.s_eq, r, self.p, DEFAULT_B, t_rto)
        }
    }

    /// ns-2's feedback round (see [`DataPacket::round`]).
    pub fn round(&self) -> u64 {
        self.round
    }

    /// A feedback packet arrived at `now`.
    pub fn on_feedback(&mut self, now: Time, fb: &Feedback) {
        self.stats.feedbacks += 1;
        // ns-2 tfrc.cc recv(): round_id++ (carried in data packets; read only by the ns-2
        // option of the receiver); UrgentFlag = 0.
        self.round += 1;
        self.urgent = false;
        // RFC 5348 §4.3 (1): R_sample = (t_now - t_recvdata) - t_delay
        let r_sample = if self.params.ns2.double_clock_rtt_sample {
            // ns-2 option: tcp/tfrc.cc recv() / update_rtt(): `now - (timestamp_echo +
            // timestamp_offset)` in double seconds of the absolute clock.
            let ts = secs(fb.t_recvdata);
            let offset = fb.t_delay.as_secs_f64_exact();
            match &self.ns2_path {
                Some(path) => {
                    let exact = now
                        .saturating_since(fb.t_recvdata)
                        .saturating_sub(fb.t_delay);
                    let queued = exact.saturating_sub(path.base()).as_secs_f64_exact();
                    path.rtt_sample(ts, queued, offset)
                }
                None => secs(now) - (ts + offset),
            }
        } else {
            now.saturating_since(fb.t_recvdata)
                .saturating_sub(fb.t_delay)
                .as_secs_f64()
        }
        .max(1e-6);
        let first = self.r.is_none();
        // RFC 5348 §4.3 (2): R = q*R + (1-q)*R_sample (ns-2 option: q = df_ = 0.95).
        let q = if self.params.ns2.rtt_filter_df {
            NS2_RTT_FILTER_DF
        } else {
            RTT_FILTER_Q
        };
        let r = match self.r {
            None => r_sample,
            Some(r) => q * r + (1.0 - q) * r_sample,
        };
        self.r = Some(r);
        if let Some(q2) = self.params.oscillation_q2 {
            // RFC 5348 §4.5: R_sqmean = sqrt(R_sample) at the first feedback, else
            // R_sqmean = q2*R_sqmean + (1-q2)*sqrt(R_sample);
            // X_inst = X * R_sqmean / sqrt(R_sample).
            let sq = r_sample.sqrt();
            let m = match self.r_sqmean {
                None => sq,
                Some(m) => q2 * m + (1.0 - q2) * sq,
            };
            self.r_sqmean = Some(m);
            self.inst_factor = m / sq;
        }
        // ns-2 update_rtt(): tzero_ from the same sample (only used with the ns-2 option).
        self.ns2_rto.on_sample(Duration::from_secs_f64(r_sample));
        // RFC 5348 §4.3 (3): RTO = max(4*R, 2*s/X). ns-2 option: max(2R, 2s/X).
        self.rto = (self.nofeedback_rtts() * r).max(2.0 * self.s_pkt / self.x);
        if first {
            // RFC 5348 §4.2: initial_rate = W_init/R, W_init = min(4*s, max(2*s, 4380)).
            self.initial_rate = match self.params.initial_rate {
                InitialRate::Rfc5348 => (4.0 * self.s_pkt).min((2.0 * self.s_pkt).max(4380.0)) / r,
                // RFC 3448 §4.3: X = max(min(2*X, 2*X_recv), s/R)
                InitialRate::Rfc3448 => self.s_pkt / r,
            };
            // X_recv_set starts as {Infinity}.
            self.n_set = 0;
            self.set_push(now, f64::INFINITY);
        }
        // X_recv in the unit of X (packet rate x s_pkt).
        let x_recv = fb.x_recv.max(0.0) * self.s_pkt / self.params.segment_size as f64;
        let p_increased = fb.p > self.p;
        let recv_limit = if self.data_limited_interval(now, fb.t_recvdata, r) {
            self.stats.data_limited_feedbacks += 1;
            if p_increased {
                // RFC 5348 §4.3: halve entries, X_recv = 0.85 * X_recv, maximize,
                // recv_limit = max(X_recv_set).
                for e in &mut self.set[..self.n_set] {
                    e.1 /= 2.0;
                }
                self.set_maximize(now, 0.85 * x_recv);
                self.set_max()
            } else {
                self.set_maximize(now, x_recv);
                2.0 * self.set_max()
            }
        } else {
            self.set_update(now, x_recv, r);
            2.0 * self.set_max()
        };
        // ns-2 option: no X_recv_set, the limit is 2·X_recv of this feedback (not RFC 5348
        // §4.3; see super::ns2). The set is still kept for the nofeedback timer.
        let recv_limit = if self.params.ns2.recv_limit_latest_report && !first {
            2.0 * x_recv
        } else {
            recv_limit
        };
        self.p = fb.p.clamp(0.0, 1.0);
        // ns-2 option: the receive-rate limit never goes below one packet per RTT once
        // there is a loss event rate (not RFC 5348 §4.3; see super::ns2).
        let recv_limit = if self.params.ns2.recv_limit_floor && self.p > 0.0 {
            recv_limit.max(self.s_pkt / r)
        } else {
            recv_limit
        };
        self.recompute_x(now, recv_limit, true);
        // RFC 5348 §4.3 (5): restart the nofeedback timer after RTO.
        self.nofeedback_deadline = now + Duration::from_secs_f64(self.rto);
        if self.ties() {
            // A feedback's ns-2 double is not known here: the double nearest `now`.
            self.shadow_nofeedback(secs(now), self.rto);
        }
        self.sent_since_timer = false;
        if self.params.ns2.slow_start_send_at_feedback && (first || self.p == 0.0) {
            // ns-2 option (tfrc.cc recv(): `slowstart(); nextpkt();` at the first feedback
            // and at every one in slow start): a packet leaves at once (if the application
            // has one) and the send timer restarts from it.
            self.ns2_ramp_on = self.ramp_runs();
            self.next_send = if self.backlogged() {
                now.max(self.app_ready(self.next_seq))
            } else {
                now
            };
            if self.ties() {
                self.shadow_send(self.next_send, secs(self.next_send));
            }
        } else if !(self.params.ns2.send_timer_fixed_at_send && self.p > 0.0) {
            // ns-2 option: out of slow start the packet already scheduled keeps its time.
            self.reschedule();
        }
    }

    /// RFC 5348 §4.4 update_limits(timer_limit).
    fn update_limits(&mut self, now: Time, timer_limit: f64) {
        let tl = timer_limit.max(self.s_pkt / T_MBI_S);
        self.n_set = 0;
        self.set_push(now, tl / 2.0);
        // "Recalculate X as in step (4)": recv_limit = 2 * max(X_recv_set) = tl.
        self.recompute_x(now, tl, false);
    }

    /// The nofeedback timer fired (call at `poll_timeout()`; early calls do nothing). With
    /// [`Ns2Compat::double_clock_ties`], when a packet is due at the same nanosecond and its
    /// double is the earlier (or equal and scheduled first), the expiry waits for the next
    /// [`Sender::poll_transmit`] call, which sends the packet and then runs it (meanwhile
    /// `poll_timeout()` is None; a second call of this one runs it at once).
    pub fn on_timeout(&mut self, now: Time) {
        if self.nf_deferred {
            // Called again before the packet was polled: the expiry runs now.
            self.nf_deferred = false;
            self.expire(now);
            return;
        }
        if now < self.nofeedback_deadline {
            return;
        }
        if self.ties()
            && now == self.nofeedback_deadline
            && now == self.next_send
            && (self.sh_send < self.sh_nf
                || (self.sh_send == self.sh_nf && self.sh_send_order < self.sh_nf_order))
        {
            self.nf_deferred = true;
            return;
        }
        self.expire(now);
    }

    fn expire(&mut self, now: Time) {
        // Option double_clock_ties: the double of this expiry.
        let clock = if now == self.nofeedback_deadline {
            self.sh_nf
        } else {
            secs(now)
        };
        self.stats.nofeedback_expiries += 1;
        // ns-2 reduce_rate_on_no_feedback(): round_id++, UrgentFlag = 1.
        self.round += 1;
        self.urgent = true;
        // ns-2 option nofeedback_idle_needs_no_data: idle only if the application had no
        // packet ready when the next one was due (`datalimited_`).
        let idle = !self.sent_since_timer
            && (!self.params.ns2.nofeedback_idle_needs_no_data || self.data_short(now));
        let before = self.x;
        let halve = |x: f64, s: f64| (x / 2.0).max(s / T_MBI_S);
        if self.r.is_none() {
            // RFC 5348 §4.4: no RTT sample and no feedback yet: halve (unless idle).
            if !idle {
                self.x = halve(self.x, self.s_pkt);
            }
        } else {
            let x_recv = self.set_max();
            let recover = self.initial_rate;
            if idle
                && ((self.p > 0.0 && x_recv < recover) || (self.p == 0.0 && self.x < 2.0 * recover))
            {
                // RFC 5348 §4.4: don't halve the allowed sending rate.
            } else if self.p == 0.0 {
                self.x = halve(self.x, self.s_pkt);
            } else if self.params.ns2.nofeedback_halves_rate {
                // ns-2 option (tfrc.cc reduce_rate_on_no_feedback(): rate_ *= 0.5; not
                // RFC 5348 §4.4's update_limits).
                self.x = halve(self.x, self.s_pkt);
            } else if self.x_calc > 2.0 * x_recv {
                self.update_limits(now, x_recv);
            } else {
                self.update_limits(now, self.x_calc / 2.0);
            }
        }
        if self.x < before {
            self.stats.nofeedback_reductions += 1;
        }
        // RFC 5348 §4.4 (2): restart the timer after max(4*R, 2*s/X) (ns-2 option: 2R).
        let t = (self.nofeedback_rtts() * self.r.unwrap_or(0.0)).max(2.0 * self.s_pkt / self.x);
        self.nofeedback_deadline = now + Duration::from_secs_f64(t);
        if self.ties() {
            self.shadow_nofeedback(clock, t);
        }
        self.sent_since_timer = false;
        if self.params.ns2.nofeedback_halves_rate {
            // ns-2 reduce_rate_on_no_feedback() calls nextpkt(), which sends a packet at
            // once (if the application has one) and restarts the send timer from there; at
            // every expiry, before the first feedback too (finding 54, session 14).
            self.next_send = if self.backlogged() {
                now.max(self.app_ready(self.next_seq))
            } else {
                now
            };
            if self.ties() {
                let sh = if self.next_send == now {
                    clock
                } else {
                    secs(self.next_send)
                };
                self.shadow_send(self.next_send, sh);
            }
        } else {
            self.reschedule();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfrc::equation::{ShortIntervalRule, SmallPacketParams};

    const MS: u64 = 1_000_000;

    fn std_sender(app: Option<Rate>) -> Sender {
        let p = SenderParams::new(1000, app, Variant::Standard, InitialRate::Rfc5348).unwrap();
        Sender::new(p, Time::ZERO)
    }

    fn fb(sent_ms: u64, x_recv: f64, p: f64) -> Feedback {
        Feedback {
            t_recvdata: Time(sent_ms * MS),
            t_delay: Duration::ZERO,
            x_recv,
            p,
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn one_packet_per_second_before_feedback() {
        let mut s = std_sender(None);
        let p = s.poll_transmit(Time::ZERO).unwrap();
        assert_eq!((p.seq, p.size, p.rtt), (0, 1000, None));
        assert_eq!(s.next_send_time(), Time::from_secs(1));
        assert_eq!(s.poll_transmit(Time(999 * MS)), None);
        assert_eq!(s.poll_transmit(Time::from_secs(1)).unwrap().seq, 1);
        assert_eq!(s.poll_timeout(), Some(Time::from_secs(2)));
    }

    #[test]
    fn nofeedback_before_any_feedback_halves() {
        let mut s = std_sender(None);
        s.poll_transmit(Time::ZERO);
        s.on_timeout(Time::from_secs(2));
        // X = max(1000/2, 1000/64) = 500 B/s; next timer after 2*s/X = 4 s.
        assert_eq!(s.allowed_rate(), 500.0);
        assert_eq!(s.poll_timeout(), Some(Time::from_secs(6)));
        // Idle since the timer was set: no further halving.
        s.on_timeout(Time::from_secs(6));
        assert_eq!(s.allowed_rate(), 500.0);
        assert_eq!(s.stats().nofeedback_reductions, 1);
    }

    #[test]
    fn slow_start_doubles_capped_by_twice_x_recv_then_equation() {
        // The sender sends at every feedback's t_recvdata instant, so no interval is
        // data-limited (RFC 5348 §8.2.1).
        let mut s = std_sender(None);
        s.poll_transmit(Time::ZERO);
        // First feedback at 100 ms for the packet sent at 0: R = 0.1 s.
        // W_init = min(4000, max(2000, 4380)) = 4000 B -> initial_rate = 40000 B/s.
        // RTO (old X = 1000 B/s) = max(0.4, 2) = 2 s -> nofeedback at 2.1 s.
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        assert_eq!(s.rtt(), Some(Duration(100 * MS)));
        assert!(close(s.allowed_rate(), 40_000.0));
        assert_eq!(s.poll_timeout(), Some(Time(2100 * MS)));
        // Rescheduled from the packet at 0 with gap 1000/40000 = 25 ms: due now.
        assert_eq!(s.next_send_time(), Time(25 * MS));
        // 200 ms: X_recv_set = {inf@100, 0@100, 30000@200}: X = max(min(80000, inf), 40000).
        s.poll_transmit(Time(100 * MS)).unwrap();
        s.on_feedback(Time(200 * MS), &fb(100, 30_000.0, 0.0));
        assert!(close(s.allowed_rate(), 80_000.0));
        // 300 ms: cutoff 100 ms keeps inf@100: X = 160000.
        s.poll_transmit(Time(200 * MS)).unwrap();
        s.on_feedback(Time(300 * MS), &fb(200, 50_000.0, 0.0));
        assert!(close(s.allowed_rate(), 160_000.0));
        // 400 ms: cutoff 200 ms drops inf and 0: set {30000, 50000, 60000}:
        // X = max(min(320000, 2*60000), 40000) = 120000.
        s.poll_transmit(Time(300 * MS)).unwrap();
        s.poll_transmit(Time(350 * MS)).unwrap();
        s.on_feedback(Time(400 * MS), &fb(300, 60_000.0, 0.0));
        assert!(close(s.allowed_rate(), 120_000.0));
        // 450 ms: less than R since tld = 400 ms: no doubling.
        s.poll_transmit(Time(400 * MS)).unwrap();
        s.on_feedback(Time(450 * MS), &fb(350, 60_000.0, 0.0));
        assert!(close(s.allowed_rate(), 120_000.0));
        assert_eq!(s.stats().data_limited_feedbacks, 0);
        // First loss reported at 500 ms: p = 0.01, R stays 0.1 (all samples 0.1):
        // X_Bps = 112332.23 B/s (equation test), recv_limit = 2*70000 -> X = 112332.23.
        s.on_feedback(Time(500 * MS), &fb(400, 70_000.0, 0.01));
        assert!(
            (s.allowed_rate() - 112_332.234).abs() < 0.01,
            "{}",
            s.allowed_rate()
        );
        assert_eq!(s.loss_event_rate(), 0.01);
        // RTO with the X before this feedback (120000): max(0.4, 2000/120000) = 0.4 s.
        assert_eq!(s.poll_timeout(), Some(Time(900 * MS)));
        // Nofeedback at 900 ms (not idle): X_Bps = 112332 <= 2*max(set) = 140000, so
        // update_limits(X_Bps/2): X = 56166.1.
        s.poll_transmit(Time(890 * MS));
        s.on_timeout(Time(900 * MS));
        assert!(
            (s.allowed_rate() - 56_166.117).abs() < 0.01,
            "{}",
            s.allowed_rate()
        );
        // Next: timer after max(0.4, 2000/56166) = 0.4 s.
        assert_eq!(s.poll_timeout(), Some(Time(1300 * MS)));
        // Second expiry (not idle): set = {28083}: X_Bps > 2*28083 -> update_limits(28083):
        // X = min(X_Bps, 28083.06) = 28083.06: halved again.
        s.poll_transmit(Time(1290 * MS));
        s.on_timeout(Time(1300 * MS));
        assert!(
            (s.allowed_rate() - 28_083.058).abs() < 0.01,
            "{}",
            s.allowed_rate()
        );
        assert_eq!(s.stats().nofeedback_reductions, 2);
    }

    #[test]
    fn rfc3448_initial_rate_is_one_packet_per_rtt() {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc3448).unwrap();
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        // max(min(2*1000, inf), 1000/0.1) = 10000 B/s
        assert!(close(s.allowed_rate(), 10_000.0));
    }

    #[test]
    fn rtt_is_smoothed_with_q_09() {
        let mut s = std_sender(None);
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        // R_sample = (300 - 100) - 20 = 180 ms: R = 0.9*0.1 + 0.1*0.18 = 0.108 s.
        let f = Feedback {
            t_recvdata: Time(100 * MS),
            t_delay: Duration(20 * MS),
            x_recv: 1e5,
            p: 0.0,
        };
        s.on_feedback(Time(300 * MS), &f);
        assert_eq!(s.rtt(), Some(Duration(108 * MS)));
        // ns-2's df_ = 0.95 (option rtt_filter_df): R = 0.95*0.1 + 0.05*0.18 = 0.104 s.
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(Ns2Compat {
                rtt_filter_df: true,
                ..Ns2Compat::RFC
            });
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        assert_eq!(s.rtt(), Some(Duration(100 * MS)));
        s.on_feedback(Time(300 * MS), &f);
        assert_eq!(s.rtt(), Some(Duration(104 * MS)));
    }

    #[test]
    fn app_limited_sender_and_data_limited_feedback() {
        // App: 1000-byte packets at 80 kbit/s = 10 kB/s: one packet per 100 ms.
        let mut s = std_sender(Some(Rate::from_kbps(80)));
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        // X = 40000 B/s > app rate: app gap 100 ms binds -> data-limited sends.
        assert!(s.poll_transmit(Time(99 * MS)).is_none());
        assert_eq!(s.next_send_time(), Time(100 * MS));
        s.poll_transmit(Time(100 * MS)).unwrap();
        assert_eq!(s.next_send_time(), Time(200 * MS));
        s.poll_transmit(Time(200 * MS)).unwrap();
        // Feedback at 300 ms covering the packet sent at 200 ms: all sends in (100, 200]
        // were data-limited -> maximize: set = {10000}, recv_limit = 20000 (not 2*inf):
        // X = max(min(80000, 20000), 40000) = 40000 (the initial rate floor).
        s.on_feedback(Time(300 * MS), &fb(200, 10_000.0, 0.0));
        assert_eq!(s.stats().data_limited_feedbacks, 1);
        assert!(close(s.allowed_rate(), 40_000.0));
        // A loss reported in a data-limited interval: halve {10000} -> 5000, add
        // 0.85*10000 = 8500, maximize -> 8500 = recv_limit: X = min(X_Bps, 8500).
        s.poll_transmit(Time(300 * MS)).unwrap();
        s.on_feedback(Time(400 * MS), &fb(300, 10_000.0, 0.05));
        assert!(close(s.allowed_rate(), 8_500.0), "{}", s.allowed_rate());
    }

    #[test]
    fn tfrc_sp_rate_conversion_and_min_interval() {
        let sp = SmallPacketParams::rfc4828();
        let params =
            SenderParams::new(200, None, Variant::SmallPacket(sp), InitialRate::Rfc5348).unwrap();
        let mut s = Sender::new(params, Time::ZERO);
        // Before feedback: one packet (240 B of X) per second.
        assert_eq!(s.allowed_rate(), 240.0);
        s.poll_transmit(Time::ZERO);
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        // W_init = min(4*240, max(2*240, 4380)) = 960 -> 9600 B/s (4 packets per RTT).
        assert!(close(s.allowed_rate(), 9_600.0));
        // p = 0.2, R = 0.1: X_Bps = 1460/(0.1*sqrt(0.4/3) + 0.4*3*sqrt(0.075)*0.2*2.28)
        //   = 1460/(0.0365148 + 0.1498569) = 7833.8 B/s; data rate = X*200/240 = 6528.2 B/s;
        //   packet gap = 240/7833.8 = 30.64 ms (> 10 ms).
        s.poll_transmit(Time(100 * MS));
        s.on_feedback(Time(200 * MS), &fb(100, 1e6, 0.2));
        let x = throughput(1460.0, 0.1, 0.2);
        assert!((x - 7833.806).abs() < 0.01, "{x}");
        assert!(close(s.allowed_rate(), x));
        assert!(close(s.allowed_data_rate(), x * 200.0 / 240.0));
        assert_eq!(
            s.next_send_time(),
            Time(100 * MS) + Duration::from_secs_f64(240.0 / x)
        );
        // p = 0.05: X_Bps = throughput(1460, 0.1, 0.05) = 53.8 kB/s -> gap 4.5 ms < 10 ms:
        // the Min Interval binds (100 packets/s).
        s.poll_transmit(Time(300 * MS));
        s.on_feedback(Time(400 * MS), &fb(300, 1e6, 0.05));
        assert_eq!(s.next_send_time(), Time(310 * MS));
    }

    /// ns-2's start and TFRC-SP allowance (options `init_rate_300`, `slow_start_send_at_feedback`,
    /// `sp_header_32`; `tcp/tfrc.cc` `start()`, `recv()`), on the TFRC-SP 200-B sender above.
    #[test]
    fn ns2_initial_rate_feedback_send_and_sp_header() {
        let sp = SmallPacketParams::rfc4828();
        let params = |ns2: Ns2Compat| {
            SenderParams::new(200, None, Variant::SmallPacket(sp), InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2)
        };
        let only = |f: fn(&mut Ns2Compat)| {
            let mut n = Ns2Compat::RFC;
            f(&mut n);
            n
        };
        // InitRate_ = 300 data bytes/s: 1.5 packets of 200 B per second, the first 2/3 s
        // apart; the nofeedback timer 2·s/X = 4/3 s (RFC 5348 §4.2: 1 packet/s, 2 s).
        let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
        let mut ns2 = Sender::new(params(only(|n| n.init_rate_300 = true)), Time::ZERO);
        assert!(close(ns2.allowed_data_rate(), 300.0));
        assert_eq!(rfc.poll_timeout(), Some(Time::ZERO + INITIAL_NOFEEDBACK));
        assert_eq!(
            ns2.poll_timeout(),
            Some(Time::ZERO + Duration::from_secs_f64(4.0 / 3.0))
        );
        for s in [&mut rfc, &mut ns2] {
            s.poll_transmit(Time::ZERO).unwrap();
        }
        assert_eq!(rfc.next_send_time(), Time(1000 * MS));
        assert_eq!(
            ns2.next_send_time(),
            Time::ZERO + Duration::from_secs_f64(2.0 / 3.0)
        );
        // A slow-start feedback: ns-2 sends a packet at once (nextpkt() in recv()); RFC 5348
        // §4.6: the next packet stays one gap (240/9600 s = 25 ms) after the last one.
        let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
        let mut ns2 = Sender::new(
            params(only(|n| n.slow_start_send_at_feedback = true)),
            Time::ZERO,
        );
        for s in [&mut rfc, &mut ns2] {
            s.poll_transmit(Time::ZERO).unwrap();
            s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
            s.poll_transmit(Time(100 * MS)).unwrap();
            s.on_feedback(Time(110 * MS), &fb(100, 1e6, 0.0));
        }
        assert_eq!(rfc.next_send_time(), Time(125 * MS));
        assert_eq!(ns2.next_send_time(), Time(110 * MS));
        // p = 0.2 as above: the same X, but ns-2's allowance is 200/(200 + 32) of it where
        // RFC 4828 §3's H = 40 gives 200/240: packets 232/X instead of 240/X apart.
        let mut rfc = Sender::new(params(Ns2Compat::RFC), Time::ZERO);
        let mut ns2 = Sender::new(params(only(|n| n.sp_header_32 = true)), Time::ZERO);
        for s in [&mut rfc, &mut ns2] {
            s.poll_transmit(Time::ZERO);
            s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
            s.poll_transmit(Time(100 * MS));
            s.on_feedback(Time(200 * MS), &fb(100, 1e6, 0.2));
        }
        let x = throughput(1460.0, 0.1, 0.2);
        assert!(close(rfc.allowed_data_rate(), x * 200.0 / 240.0));
        assert!(close(ns2.allowed_data_rate(), x * 200.0 / 232.0));
        assert_eq!(
            ns2.next_send_time(),
            Time(100 * MS) + Duration::from_secs_f64(232.0 / x)
        );
    }

    /// Feeds the sequence of `ns2_options_*`: feedbacks at 100 (R = 0.1 s, p = 0), 200 and
    /// 400 ms (both x_recv = 100 B/s, p = 0.1, R_sample 0.1 s), one packet sent at 0, 100
    /// and 200 ms (never data-limited: each is in the window of the next feedback).
    fn low_receive_rate(ns2: Ns2Compat) -> Sender {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS)).unwrap();
        s.on_feedback(Time(200 * MS), &fb(100, 100.0, 0.1));
        s.poll_transmit(Time(200 * MS)).unwrap();
        let f = Feedback {
            t_delay: Duration(100 * MS),
            ..fb(200, 100.0, 0.1)
        };
        s.on_feedback(Time(400 * MS), &f);
        assert_eq!(s.stats().data_limited_feedbacks, 0);
        assert_eq!(s.rtt(), Some(Duration(100 * MS)));
        s
    }

    #[test]
    fn ns2_recv_limit_floor_and_rounds() {
        // X_Bps = throughput(1000, 0.1, 0.1) = 1000/(0.0258199 + 0.4*0.5809475*0.1*1.32)
        //       = 1000/0.0564944 = 17701 B/s.
        let x_bps = throughput(1000.0, 0.1, 0.1);
        assert!((x_bps - 17_701.0).abs() < 1.0, "{x_bps}");
        // RFC: at 400 ms X_recv_set = {100@200, 100@400} (cutoff 400 - 2R = 200 drops the
        // Infinity and the 0 of 100 ms): recv_limit = 200, X = max(min(17701, 200), 1000/64).
        let rfc = low_receive_rate(Ns2Compat::RFC);
        assert!(close(rfc.allowed_rate(), 200.0), "{}", rfc.allowed_rate());
        // ns-2 floor: recv_limit = max(200, s/R = 10000) -> X = 10000 (one packet per RTT).
        let floor = Ns2Compat {
            recv_limit_floor: true,
            ..Ns2Compat::RFC
        };
        let mut f = low_receive_rate(floor);
        assert!(close(f.allowed_rate(), 10_000.0), "{}", f.allowed_rate());
        // Rounds: three feedbacks, then a nofeedback expiry (timer after RTO = max(0.4 s,
        // 2s/X) = 0.4 s) makes four; data packets carry the count.
        assert_eq!(f.round(), 3);
        f.on_timeout(Time(800 * MS));
        assert_eq!((f.round(), f.stats().nofeedback_expiries), (4, 1));
        assert_eq!(f.poll_transmit(Time(10 * 1000 * MS)).unwrap().round, 4);
    }

    /// A standard sender of `size`-byte packets whose application offers `app` with a backlog
    /// (`with_app_backlog(true)`), under `ns2`; the set-up of the backlogged ns-2 tests.
    fn backlogged_sender(size: u32, app: u64, ns2: Ns2Compat) -> Sender {
        let p = SenderParams::new(
            size,
            Some(Rate(app)),
            Variant::Standard,
            InitialRate::Rfc5348,
        )
        .unwrap()
        .with_ns2(ns2)
        .with_app_backlog(true);
        Sender::new(p, Time::ZERO)
    }

    /// A standard sender (s = 1000 B, R = 0.1 s) out of slow start at p = 0.01 by 200 ms.
    fn after_loss(ns2: Ns2Compat, app: Option<Rate>) -> Sender {
        let p = SenderParams::new(1000, app, Variant::Standard, InitialRate::Rfc5348)
            .unwrap()
            .with_ns2(ns2);
        let mut s = Sender::new(p, Time::ZERO);
        s.poll_transmit(Time::ZERO).unwrap();
        s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
        s.poll_transmit(Time(100 * MS)).unwrap();
        s.on_feedback(Time(200 * MS), &fb(100, 100_000.0, 0.01));
        s
    }

    /// ns-2 option `nofeedback_idle_needs_no_data` (finding 54; `tcp/tfrc.cc`
    /// `reduce_rate_on_no_feedback()` keeps `rate_` only when `datalimited_ || all_idle_`):
    /// a backlogged sender whose next packet, at its own low rate, falls after the
    /// nofeedback expiry has sent nothing since the timer was set, but had data; ns-2 halves
    /// its rate. Without the option RFC 5348 §4.4's idle exception keeps X.
    #[test]
    fn ns2_nofeedback_cuts_a_backlogged_sender_that_sent_nothing() {
        for on in [false, true] {
            let ns2 = Ns2Compat {
                nofeedback_halves_rate: true,
                nofeedback_idle_needs_no_data: on,
                ..Ns2Compat::RFC
            };
            let mut s = backlogged_sender(1000, 800_000, ns2);
            s.poll_transmit(Time::ZERO).unwrap();
            s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
            s.poll_transmit(Time(100 * MS)).unwrap();
            // p = 0.3 and X_recv 2 kB/s: X about 2 kB/s, the next packet about 0.5 s after
            // the last one, after the expiry of the timer set at this feedback.
            s.on_feedback(Time(200 * MS), &fb(100, 2000.0, 0.3));
            let x0 = s.allowed_rate();
            let expiry = s.poll_timeout().unwrap();
            assert!(
                s.next_send_time() > expiry,
                "no packet due before the expiry"
            );
            assert!(s.poll_transmit(Time(expiry.0 - 1)).is_none());
            s.on_timeout(expiry);
            assert_eq!(s.stats().nofeedback_expiries, 1);
            let want = if on { x0 / 2.0 } else { x0 };
            assert!(
                close(s.allowed_rate(), want),
                "on={on}: {} vs {x0}",
                s.allowed_rate()
            );
        }
    }

    /// ns-2 option `nofeedback_halves_rate` before the first feedback (finding 54, session
    /// 14, s14-std14; `tcp/tfrc.cc` `reduce_rate_on_no_feedback()` ends in `nextpkt()` at
    /// every expiry): with 14-B packets at ns-2's initial 300 B/s the timer (2·s/X = 93 ms)
    /// expires before any feedback can return, and the expiry sends a packet at once and
    /// restarts the send timer from it. Until session 14 the option sent at once only after
    /// the first RTT sample, so the packet left one gap of the halved rate after the last one.
    /// Option 25 (`double_clock_ties`): a greedy 14-B sender started at 0.501 s (ns-2's
    /// `InitRate_` 300 B/s, g = 14/300 s). Its second packet is due at (0.501 + g) + g =
    /// 0.5943333333333333 and the nofeedback timer set at the start at 0.501 + 28/300 =
    /// 0.5943333333333334 s (doubles, hand-computed: the two sums round differently), both
    /// 594 333 333 ns. ns-2 runs the smaller double first: the packet, then the expiry,
    /// whose `nextpkt()` sends another. Without the option the deadlines are integer sums,
    /// 501 000 000 + 2 × 46 666 667 = 594 333 334 against 501 000 000 + 93 333 333 =
    /// 594 333 333 ns, and the expiry comes first with one packet.
    #[test]
    fn ns2_double_clock_orders_a_packet_before_an_expiry_due_at_its_nanosecond() {
        let g = 14.0 / 300.0;
        let (a, b) = ((0.501 + g) + g, 0.501 + 28.0 / 300.0);
        assert!(a < b, "{a} {b}");
        assert_eq!((a, b), (0.5943333333333333, 0.5943333333333334));
        // `engine`: as the engine's sender agent (the nofeedback timer, then every packet
        // due); else a driver that takes one event at a time, the timer when it is due.
        let run = |ties: bool, engine: bool| {
            let ns2 = Ns2Compat {
                double_clock_ties: ties,
                ..Ns2Compat::ns2()
            };
            let p = SenderParams::new(14, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2);
            let mut s = Sender::new(p, Time(501_000_000));
            // As the engine's sender agent: the nofeedback timer, then every packet due.
            let mut sent = Vec::new();
            while sent.len() < 4 {
                let nf = s.poll_timeout().unwrap_or(Time::NEVER);
                let now = s.next_send_time().min(nf);
                if engine {
                    s.on_timeout(now);
                    while let Some(pkt) = s.poll_transmit(now) {
                        sent.push((now.0, pkt.seq, s.stats().nofeedback_expiries));
                    }
                } else if nf == now {
                    s.on_timeout(now);
                } else if let Some(pkt) = s.poll_transmit(now) {
                    sent.push((now.0, pkt.seq, s.stats().nofeedback_expiries));
                }
            }
            sent
        };
        let on = run(true, true);
        assert_eq!(run(true, false), on);
        assert_eq!(on[1].0, 547_666_667);
        // Two packets at the tie (the expiry runs inside the first poll_transmit, after its
        // packet; the second is the expiry's).
        assert_eq!(on[2], (594_333_333, 2, 1), "{on:?}");
        assert_eq!(on[3].0, 594_333_333, "{on:?}");
        let off = run(false, true);
        assert_eq!(off[2], (594_333_333, 2, 1), "{off:?}");
        assert!(off[3].0 > 594_333_333, "{off:?}");
    }

    #[test]
    fn ns2_double_clock_rtt_sample_carries_the_clocks_rounding_into_the_factor() {
        // RFC 4828 B.2's path in ns-2.35: one 1 Gb/s, 120 ms link each way, 46-B data and
        // 40-B feedback: `txt + delay_` = 0.120000368 and 0.12000032 s.
        let (d1, d2) = (8.0 * 46.0 / 1e9 + 0.12, 8.0 * 40.0 / 1e9 + 0.12);
        assert_eq!((d1, d2), (0.120000368, 0.12000032));
        // ns-2's samples `((ts + d1) + d2) - ts` for a packet sent at 1 s and at 70 s (the
        // latter as traced in ns-2.35, B.2 b = 0.02 seed 1, TFRC fid 85 at 70.06 s).
        let (c1, c70): (f64, f64) = (((1.0 + d1) + d2) - 1.0, ((70.0 + d1) + d2) - 70.0);
        assert_eq!((c1, c70), (0.24000068799999985, 0.24000068800000918));
        // §4.5 with q2 = 0.95: R_sqmean = 0.95·sqrt(c1) + 0.05·sqrt(c70), over sqrt(c70).
        let want = (0.95 * c1.sqrt() + (1.0 - 0.95) * c70.sqrt()) / c70.sqrt();
        assert_eq!(want, 0.9999999999999816);
        let run = |on: bool| {
            let ns2 = Ns2Compat {
                double_clock_rtt_sample: on,
                ..Ns2Compat::ns2()
            };
            let p = SenderParams::new(14, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2)
                .with_oscillation_prevention(0.95)
                .unwrap();
            let mut s = Sender::new(p, Time::ZERO);
            s.set_ns2_path(Ns2PathDelays::new(&[d1], &[d2], Duration(240_000_688)).unwrap());
            for sent_ms in [1_000, 70_000] {
                s.on_feedback(Time(sent_ms * MS + 240_000_688), &fb(sent_ms, 300.0, 0.0));
            }
            s.oscillation_factor()
        };
        // Integer nanoseconds: both samples are 240 000 688 ns, the factor exactly 1.
        assert_eq!(run(false), 1.0);
        assert_eq!(run(true), want);
    }

    #[test]
    fn ns2_nofeedback_before_the_first_feedback_sends_at_once() {
        let ns2 = Ns2Compat {
            nofeedback_halves_rate: true,
            init_rate_300: true,
            ..Ns2Compat::RFC
        };
        let mut s = backlogged_sender(14, 5600, ns2);
        s.poll_transmit(Time::ZERO).unwrap();
        let t1 = s.next_send_time();
        assert!(close(t1.as_secs_f64(), 14.0 / 300.0), "{t1:?}");
        s.poll_transmit(t1).unwrap();
        let expiry = s.poll_timeout().unwrap();
        assert!(
            close(expiry.as_secs_f64(), 2.0 * 14.0 / 300.0),
            "{expiry:?}"
        );
        // Just before the expiry nothing is due (the next packet is due at it, or later).
        assert!(s.poll_transmit(Time(expiry.0 - 1)).is_none());
        s.on_timeout(expiry);
        assert_eq!(s.stats().nofeedback_expiries, 1);
        assert!(
            close(s.allowed_data_rate(), 150.0),
            "{}",
            s.allowed_data_rate()
        );
        assert_eq!(s.next_send_time(), expiry, "a packet at the expiry");
        assert_eq!(s.poll_transmit(expiry).unwrap().seq, 2);
        // ... and the send timer runs from it at the halved rate.
        let next = s.next_send_time().saturating_since(expiry).as_secs_f64();
        assert!(close(next, 14.0 / 150.0), "{next}");
    }

    #[test]
    fn ns2_nofeedback_halves_rate_and_sends_at_once() {
        let only = Ns2Compat {
            nofeedback_halves_rate: true,
            ..Ns2Compat::RFC
        };
        let x0 = throughput(1000.0, 0.1, 0.01);
        let mut rfc = after_loss(Ns2Compat::RFC, None);
        let mut ns2 = after_loss(only, None);
        assert!(close(rfc.allowed_rate(), x0) && close(ns2.allowed_rate(), x0));
        // RFC 5348 §4.3 (5): the timer runs max(4R, 2s/X) = 0.4 s; ns-2: max(2R, 2s/X) = 0.2 s.
        assert_eq!(rfc.poll_timeout(), Some(Time(600 * MS)));
        assert_eq!(ns2.poll_timeout(), Some(Time(400 * MS)));
        // Last packet at 395 ms; the next is due one gap (s/X = 8.9 ms) later, after 400 ms.
        let gap = Duration::from_secs_f64(1000.0 / x0);
        ns2.poll_transmit(Time(395 * MS)).unwrap();
        assert_eq!(ns2.next_send_time(), Time(395 * MS) + gap);
        assert!(Time(395 * MS) + gap > Time(400 * MS));
        // ns-2 reduce_rate_on_no_feedback(): rate_ halved, a packet at once (nextpkt()), the
        // timer again after max(2R, 2s/X).
        ns2.on_timeout(Time(400 * MS));
        assert!(close(ns2.allowed_rate(), x0 / 2.0));
        assert_eq!(ns2.next_send_time(), Time(400 * MS));
        let t = Duration::from_secs_f64((0.2f64).max(2.0 * 1000.0 / (x0 / 2.0)));
        assert_eq!(ns2.poll_timeout(), Some(Time(400 * MS) + t));
        let pkt = ns2.poll_transmit(Time(400 * MS)).unwrap();
        assert_eq!(pkt.round, 3);
        assert!(pkt.urgent, "ns-2 sets UrgentFlag until the next feedback");
        // RFC 5348 §4.4: X_Bps <= 2 X_recv, so update_limits(X_Bps/2): X halves too, but the
        // next packet stays one (new) gap after the last one.
        rfc.poll_transmit(Time(595 * MS)).unwrap();
        rfc.on_timeout(Time(600 * MS));
        assert!(close(rfc.allowed_rate(), x0 / 2.0));
        assert_eq!(
            rfc.next_send_time(),
            Time(595 * MS) + Duration::from_secs_f64(2000.0 / x0)
        );
    }

    #[test]
    fn ns2_send_timer_fixed_at_send() {
        let only = Ns2Compat {
            send_timer_fixed_at_send: true,
            ..Ns2Compat::RFC
        };
        let mut rfc = after_loss(Ns2Compat::RFC, None);
        let mut ns2 = after_loss(only, None);
        for s in [&mut rfc, &mut ns2] {
            s.poll_transmit(Time(300 * MS)).unwrap();
        }
        let x0 = throughput(1000.0, 0.1, 0.01);
        let due = Time(300 * MS) + Duration::from_secs_f64(1000.0 / x0);
        // A lower p at 310 ms raises X (to min(X_Bps, 2 X_recv) = 200 000 B/s).
        for s in [&mut rfc, &mut ns2] {
            assert_eq!(s.next_send_time(), due);
            let f = Feedback {
                t_delay: Duration(10 * MS),
                ..fb(200, 100_000.0, 0.001)
            };
            s.on_feedback(Time(310 * MS), &f);
        }
        assert!(
            close(rfc.allowed_rate(), 200_000.0),
            "{}",
            rfc.allowed_rate()
        );
        // RFC 5348 §4.6 (here): the pending packet is rescheduled with the new gap;
        // ns-2: it keeps the time set when the last packet left.
        assert_eq!(
            rfc.next_send_time(),
            Time(300 * MS) + Duration::from_secs_f64(1000.0 / rfc.allowed_rate())
        );
        assert_eq!(ns2.next_send_time(), due);
    }

    /// ns-2's `slow_increase_ 1` (`tcp/tfrc.cc` `slowstart()`, `nextpkt()`): R = 0.1 s,
    /// feedback at 100, 200 and 300 ms with p = 0 and a large X_recv: X = W_init/R = 40 000
    /// B/s, then 80 000, then 160 000 B/s (rounds 1, 2, 3). From round 3 on ns-2 spaces the
    /// packets after a rise by a rate that starts at the old X (80 000) and grows by delta =
    /// (160 000 − 80 000)/(160 000·R/s) = 5 000 B/s at every packet sent, so the 16 packets
    /// after the first leave 1000/85 000, 1000/90 000, .., 1000/160 000 s apart; RFC 5348
    /// §4.3: 1000/160 000 s (6.25 ms) at once.
    #[test]
    fn ns2_slow_start_ramp() {
        let only = Ns2Compat {
            slow_start_ramp: true,
            ..Ns2Compat::RFC
        };
        let gaps = |ns2: Ns2Compat| {
            let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2);
            let mut s = Sender::new(p, Time::ZERO);
            s.poll_transmit(Time::ZERO).unwrap();
            for k in 1..=3u64 {
                let now = Time(k * 100 * MS);
                s.on_feedback(now, &fb((k - 1) * 100, 1e9, 0.0));
                assert_eq!(s.round(), k);
                if k < 3 {
                    while s.next_send_time() < Time((k + 1) * 100 * MS) {
                        let t = s.next_send_time().max(now);
                        s.poll_transmit(t).unwrap();
                    }
                }
            }
            assert!(close(s.allowed_rate(), 160_000.0), "{}", s.allowed_rate());
            let mut times = Vec::new();
            let mut now = Time(300 * MS);
            while times.len() < 20 {
                now = now.max(s.next_send_time());
                s.poll_transmit(now).unwrap();
                times.push(now.0 as i64);
            }
            times.windows(2).map(|w| w[1] - w[0]).collect::<Vec<i64>>()
        };
        let ns = |secs: f64| (secs * 1e9) as i64;
        for g in gaps(Ns2Compat::RFC) {
            assert!((g - ns(1000.0 / 160_000.0)).abs() <= 2, "RFC gap {g}");
        }
        let ramp = gaps(only);
        for (k, g) in ramp.iter().enumerate() {
            let rate = (80_000.0 + 5_000.0 * (k + 1) as f64).min(160_000.0);
            assert!(
                (g - ns(1000.0 / rate)).abs() <= 2,
                "gap {k}: {g} ns, expected 1000/{rate} s"
            );
        }
        // Before round 3 nothing is ramped: the packets after the rise to 80 000 B/s at
        // 200 ms left 12.5 ms apart in both (checked through the identical state at 300 ms).
    }

    #[test]
    fn app_backlog_makes_up_for_packets_the_rate_held_back() {
        // The application offers 1000 B every 100 ms (80 kb/s); X is 1 packet/s until the
        // first feedback at 3 s (R = 0.1 s), which sets X = W_init/R = 40 000 B/s (25 ms).
        let run = |backlog: bool| {
            let p = SenderParams::new(
                1000,
                Some(Rate(80_000)),
                Variant::Standard,
                InitialRate::Rfc5348,
            )
            .unwrap()
            .with_app_backlog(backlog);
            let mut s = Sender::new(p, Time::ZERO);
            for t in [0, 1000, 2000] {
                s.poll_transmit(Time(t * MS)).unwrap();
            }
            let f = Feedback {
                t_delay: Duration(2900 * MS),
                ..fb(0, 0.0, 0.0)
            };
            s.on_feedback(Time(3000 * MS), &f);
            let mut times = Vec::new();
            let mut now = Time(3000 * MS);
            while times.len() < 40 {
                now = now.max(s.next_send_time());
                s.poll_transmit(now).unwrap();
                times.push(now.0 / MS);
            }
            times
        };
        // Default: the application's 100 ms gap binds from the last packet on.
        let plain = run(false);
        assert_eq!(&plain[..3], &[3000, 3100, 3200]);
        // Backlog: packets 3..30 were produced by 3 s (one per 100 ms from 0); they leave
        // 25 ms apart until the sender has caught up with the application (packet k at
        // k x 100 ms), then at the application's rate.
        let queued = run(true);
        assert_eq!(&queued[..3], &[3000, 3025, 3050]);
        let caught = queued.iter().position(|&t| t >= 3000 + 25 * 37).unwrap();
        assert_eq!(queued[caught - 1], 3000 + 25 * 36);
        assert_eq!(queued[39] - queued[38], 100);
        assert!(queued[39] < plain[39]);
    }

    #[test]
    fn ns2_gradual_increase() {
        // R = 0.1 s throughout (every sample 0.1 s), s = 1000 B, X_recv = 100 000 B/s (the
        // receive-rate limit, 200 000 B/s, never binds). Feedback at 100 ms (no loss yet),
        // 200 ms (p = 0.1), 300 ms (p = 0.05), 600 ms (p = 0.01), 700 ms (p = 0.2).
        let run = |ns2: Ns2Compat| {
            let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2);
            let mut s = Sender::new(p, Time::ZERO);
            let mut xs = Vec::new();
            s.poll_transmit(Time::ZERO).unwrap();
            s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
            let mut prev = 100;
            for (at, p) in [(200, 0.1), (300, 0.05), (600, 0.01), (700, 0.2)] {
                s.poll_transmit(Time(prev * MS));
                let f = Feedback {
                    t_delay: Duration((at - prev - 100) * MS),
                    ..fb(prev, 100_000.0, p)
                };
                s.on_feedback(Time(at * MS), &f);
                xs.push(s.allowed_rate());
                prev = at;
            }
            assert_eq!(s.stats().data_limited_feedbacks, 0);
            xs
        };
        let eq = |p| throughput(1000.0, 0.1, p);
        // RFC 5348 §4.3: X = min(X_Bps, recv_limit) at every feedback.
        let rfc = run(Ns2Compat::RFC);
        for (x, p) in rfc.iter().zip([0.1, 0.05, 0.01, 0.2]) {
            assert!(close(*x, eq(p)), "{x} vs {}", eq(p));
        }
        let ns2 = run(Ns2Compat {
            gradual_increase: true,
            ..Ns2Compat::RFC
        });
        // 200 ms: down from the initial 40 000 B/s to X_Bps(0.1) = 17 701 at once.
        assert!(close(ns2[0], eq(0.1)));
        // 300 ms: X_Bps(0.05) = 36 857 is higher: up by s/R * (0.1 s / R) = 10 000 B/s.
        assert!(eq(0.05) > ns2[0] + 10_000.0);
        assert!(close(ns2[1], eq(0.1) + 10_000.0), "{}", ns2[1]);
        // 600 ms: three RTTs since the last change, but at most two packets per RTT.
        assert!(eq(0.01) > ns2[1] + 20_000.0);
        assert!(close(ns2[2], eq(0.1) + 30_000.0), "{}", ns2[2]);
        // 700 ms: X_Bps(0.2) is lower: down to it at once.
        assert!(close(ns2[3], eq(0.2)));
    }

    #[test]
    fn ns2_recv_limit_from_the_latest_report() {
        // As low_receive_rate, but X_recv = 5000 B/s at 200 ms and 1000 B/s at 400 ms.
        let run = |ns2: Ns2Compat| {
            let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_ns2(ns2);
            let mut s = Sender::new(p, Time::ZERO);
            s.poll_transmit(Time::ZERO).unwrap();
            s.on_feedback(Time(100 * MS), &fb(0, 0.0, 0.0));
            s.poll_transmit(Time(100 * MS)).unwrap();
            s.on_feedback(Time(200 * MS), &fb(100, 5000.0, 0.1));
            s.poll_transmit(Time(200 * MS)).unwrap();
            let f = Feedback {
                t_delay: Duration(100 * MS),
                ..fb(200, 1000.0, 0.1)
            };
            s.on_feedback(Time(400 * MS), &f);
            assert_eq!(s.stats().data_limited_feedbacks, 0);
            s
        };
        // RFC 5348 §4.3: X_recv_set = {5000@200, 1000@400}: recv_limit = 2*5000 = 10000, below
        // X_Bps = 17701 B/s (p = 0.1, R = 0.1 s).
        assert!(close(run(Ns2Compat::RFC).allowed_rate(), 10_000.0));
        // ns-2 (maxrate_ = 2*rate_since_last_report): 2*1000 = 2000.
        let latest = Ns2Compat {
            recv_limit_latest_report: true,
            ..Ns2Compat::RFC
        };
        assert!(close(run(latest).allowed_rate(), 2000.0));
        // With ns-2's floor as well: max(2000, s/R = 10000) = 10000.
        let both = Ns2Compat {
            recv_limit_floor: true,
            ..latest
        };
        assert!(close(run(both).allowed_rate(), 10_000.0));
    }

    #[test]
    fn ns2_equation_uses_tzero_and_cap() {
        // Every R_sample is 0.1 s = 1 tick of ns-2's 100 ms clock: srtt = 1 tick,
        // rttvar = 1/2 tick, RTO = floor(1 + 4*0.5) = 3 ticks = 0.3 s (and it stays there).
        let t = Ns2Compat {
            tcp_rto_in_equation: true,
            ..Ns2Compat::RFC
        };
        let s = low_receive_rate(t);
        let want = throughput_general(1000.0, 0.1, 0.1, 1.0, 0.3);
        assert!(close(s.x_calc(), want), "{} vs {want}", s.x_calc());
        // p = 0.1 < 8/27: the cap alone changes nothing.
        let c = low_receive_rate(Ns2Compat {
            cap_timeout_factor: true,
            ..Ns2Compat::RFC
        });
        assert!(close(c.x_calc(), throughput(1000.0, 0.1, 0.1)));
        assert_eq!(
            c.params().ns2(),
            Ns2Compat {
                cap_timeout_factor: true,
                ..Ns2Compat::RFC
            }
        );
    }

    /// Feedbacks with R_sample = 0.1 s, 0.4 s, 0.025 s (sqrt: a, 2a, a/2 with a = sqrt(0.1)),
    /// p = 0; returns the sender and X_inst/X after each.
    fn oscillation_run(q2: Option<f64>) -> (Sender, Vec<f64>) {
        let mut p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348).unwrap();
        if let Some(q2) = q2 {
            p = p.with_oscillation_prevention(q2).unwrap();
        }
        let mut s = Sender::new(p, Time::ZERO);
        let mut f = Vec::new();
        for (sent, at) in [(0, 100), (100, 500), (500, 525)] {
            s.poll_transmit(Time(sent * MS)).unwrap();
            s.on_feedback(Time(at * MS), &fb(sent, 40_000.0, 0.0));
            f.push(s.instantaneous_rate() / s.allowed_rate());
        }
        (s, f)
    }

    #[test]
    fn oscillation_prevention_scales_the_spacing() {
        // RFC 5348 §4.5, q2 = 0.9: R_sqmean = a; then 0.9a + 0.1*2a = 1.1a, X_inst/X =
        // 1.1a/2a = 0.55 (the RTT rose: slower); then 0.9*1.1a + 0.1*a/2 = 1.04a, X_inst/X
        // = 1.04a/(a/2) = 2.08 (the RTT fell: faster).
        let (s, f) = oscillation_run(Some(OSCILLATION_Q2));
        let want = [1.0, 0.55, 2.08];
        for (got, want) in f.iter().zip(want) {
            assert!(close(*got, want), "{f:?}");
        }
        // The spacing uses X_inst: the next packet is due s/X_inst after the last (500 ms).
        let gap = Duration::from_secs_f64(1000.0 / s.instantaneous_rate());
        assert_eq!(s.next_send_time(), Time(500 * MS) + gap);
        assert!(close(s.instantaneous_rate(), 2.08 * s.allowed_rate()));
        // ns-2's weight (ca_ 1 with df_ = 0.95): 1.05a / 2a = 0.525, (0.95*1.05 + 0.05*0.5)a
        // / (a/2) = 2.045.
        let (_, f) = oscillation_run(Some(0.95));
        for (got, want) in f.iter().zip([1.0, 0.525, 2.045]) {
            assert!(close(*got, want), "{f:?}");
        }
        // q2 = 0: R_sqmean = sqrt(R_sample), X_inst = X.
        let (_, f) = oscillation_run(Some(0.0));
        assert!(f.iter().all(|x| close(*x, 1.0)), "{f:?}");
    }

    #[test]
    fn oscillation_prevention_off_spaces_at_x_and_leaves_x_alone() {
        let (off, f) = oscillation_run(None);
        assert_eq!(f, vec![1.0; 3]);
        assert_eq!(off.params().oscillation_q2(), None);
        assert_eq!(off.instantaneous_rate(), off.allowed_rate());
        let gap = Duration::from_secs_f64(1000.0 / off.allowed_rate());
        assert_eq!(off.next_send_time(), Time(500 * MS) + gap);
        // The option changes the spacing only, not X, R or the timers.
        let (on, _) = oscillation_run(Some(OSCILLATION_Q2));
        assert_eq!(on.allowed_rate(), off.allowed_rate());
        assert_eq!(on.rtt(), off.rtt());
        assert_eq!(on.poll_timeout(), off.poll_timeout());
        assert_ne!(on.next_send_time(), off.next_send_time());
    }

    #[test]
    fn oscillation_prevention_q2_is_checked() {
        let p = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348).unwrap();
        for bad in [-0.1, 1.0, 1.5, f64::NAN, f64::INFINITY] {
            let e = p.with_oscillation_prevention(bad).unwrap_err();
            assert!(e.to_string().contains("RFC 5348 §4.5"), "{e}");
        }
        assert_eq!(
            p.with_oscillation_prevention(0.9).unwrap().oscillation_q2(),
            Some(0.9)
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// RFC 5348 §4.5: with a constant RTT, R_sqmean = sqrt(R_sample) and X_inst = X.
        #[test]
        fn oscillation_prevention_with_constant_rtt_sends_at_x(
            r_ms in 1u64..2000,
            q2 in 0.0f64..0.999,
            n in 1usize..30,
            p in 0.0f64..0.5,
        ) {
            let params = SenderParams::new(1000, None, Variant::Standard, InitialRate::Rfc5348)
                .unwrap()
                .with_oscillation_prevention(q2)
                .unwrap();
            let mut s = Sender::new(params, Time::ZERO);
            for k in 0..n as u64 {
                let sent = k * r_ms;
                s.poll_transmit(Time(sent * MS));
                let loss = if k == 0 { 0.0 } else { p };
                s.on_feedback(Time((sent + r_ms) * MS), &fb(sent, 50_000.0, loss));
                let ratio = s.instantaneous_rate() / s.allowed_rate();
                proptest::prop_assert!((ratio - 1.0).abs() < 1e-12, "{}", ratio);
            }
        }
    }

    #[test]
    fn params_validation() {
        assert!(SenderParams::new(0, None, Variant::Standard, InitialRate::Rfc5348).is_err());
        assert!(
            SenderParams::new(100, Some(Rate(0)), Variant::Standard, InitialRate::Rfc5348).is_err()
        );
        let sp = SmallPacketParams::new(
            1460,
            40,
            Duration::from_millis(20),
            ShortIntervalRule::Gradual,
        )
        .unwrap();
        let e = SenderParams::new(1600, None, Variant::SmallPacket(sp), InitialRate::Rfc5348)
            .unwrap_err();
        assert!(e.to_string().contains("RFC 4828 §1"), "{e}");
        assert!(SenderParams::new(1600, None, Variant::Standard, InitialRate::Rfc5348).is_ok());
    }
}
