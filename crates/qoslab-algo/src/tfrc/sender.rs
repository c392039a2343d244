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
use super::ns2::{frac_of, Ns2PathDelays};
use super::{DataPacket, Feedback, Ns2Compat, Ns2Frac, Ns2Rto, Variant};
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
            t_rto: self.t_rto().unwrap_or(Duration::ZERO),
            ecn_ce: false,
            round: self.round,
            urgent: self.urgent,
            ns2_frac: self.ns2_frac(clock, now),
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

    /// ns-2 option [`Ns2Compat::double_clock_report_ties`]: the parts below the nanosecond of
    /// this send's double `clock` (the send timer's shadow with
    /// [`Ns2Compat::double_clock_ties`], else the double nearest `now`) and of R, which the
    /// receiver rebuilds as ns-2 carries them (`tcp/tfrc.cc` `sendpkt()`: `timestamp` and
    /// `rtt`).
    fn ns2_frac(&self, clock: f64, now: Time) -> Ns2Frac {
        if !self.params.ns2.double_clock_report_ties {
            return Ns2Frac::default();
        }
        Ns2Frac {
            send: frac_of(clock, now.as_nanos()),
            rtt: self
                .r
                .map_or(0, |r| frac_of(r, Duration::from_secs_f64(r).as_nanos())),
        }
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
        let exact = now
            .saturating_since(fb.t_recvdata)
            .saturating_sub(fb.t_delay);
        let r_sample = if self.params.ns2.double_clock_rtt_sample {
            // ns-2 option: tcp/tfrc.cc recv() / update_rtt(): `now - (timestamp_echo +
            // timestamp_offset)` in double seconds of the absolute clock.
            let ts = secs(fb.t_recvdata);
            let offset = fb.t_delay.as_secs_f64_exact();
            match &self.ns2_path {
                Some(path) => {
                    let queued = exact.saturating_sub(path.base()).as_secs_f64_exact();
                    path.rtt_sample(ts, queued, offset)
                }
                None => secs(now) - (ts + offset),
            }
        } else {
            exact.as_secs_f64()
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
#[path = "sender_tests.rs"]
mod tests;
