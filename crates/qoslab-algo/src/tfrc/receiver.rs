//! TFRC receiver: receive rate, feedback timer and first-loss seeding (RFC 5348 §6,
//! RFC 4828 §1 and §4.6 for TFRC-SP).
//!
//! - **Loss event rate** from a [`LossHistory`] (RFC 5348 §5, RFC 4828 §3).
//! - **Feedback** (RFC 5348 §6.1, §6.2; RFC 4828 §4.6): on the first data packet; whenever
//!   the loss event rate `p` has increased (a new loss event, or for TFRC-SP a further loss in
//!   a short interval) "without waiting for the end of an RTT"; otherwise when the feedback
//!   timer expires, once per RTT `R` (the RTT carried in the latest data packet), if data
//!   arrived since the last feedback. When the timer expired with nothing received, no
//!   feedback is sent, the timer restarts after R and the next data packet triggers
//!   feedback at once.
//! - **X_recv** (RFC 5348 §6.2): data bytes received since the last feedback divided by the
//!   time since it. Choice: when that time is shorter than R (feedback sent early on a loss),
//!   the previous feedback window is included, so X_recv spans at least about one RTT. The
//!   very first feedback (first packet) reports X_recv = 0: one packet gives no rate (the
//!   sender's X_recv_set starts with Infinity, so a 0 is harmless).
//! - **First loss event** (RFC 5348 §6.3.1): the interval before the first loss is seeded
//!   with `1/p0`, where `p0` is the loss event rate at which the throughput equation gives
//!   the receive rate over the most recent RTT, `X_target = X_recv` (RFC 3448 §6.3.1's
//!   rule; no further halving), with `s` the received segment size — or, for TFRC-SP, the
//!   nominal segment size (RFC 4828 §1: "TFRC-SP uses the segment size of 1460 bytes, rather
//!   than the actual segment size"). If no rate or RTT is known yet, the raw number of
//!   packets before the loss is used.
//! - **No RTT yet**: until a data packet carries the sender's RTT there is no feedback
//!   timer; feedback is then sent for every data packet (at the sender's initial rate of one
//!   packet per second), so a lost first feedback cannot stall the connection.
//! - **t_recvdata / t_delay** refer to the most recently *arrived* new data packet.
//!
//! ## ns-2 differs (`tcp/tfrc-sink.cc`; see [`ns2`](super::ns2))
//! - **Seed of the first interval** (`adjust_history`): `b_to_p()` of `est_thput()` times
//!   the packet size, with the `rtt_` and `tzero_` the revealing packet carries, the capped
//!   timeout factor and `fsize_` as s, a bisection that stops at the first p within ±5 %;
//!   the interval is 1/p truncated and the report at that arrival carries that p: option
//!   [`Ns2Compat::first_seed_by_b_to_p`] (session 15; it is flushed after eight loss events,
//!   but at 14 B and p = 0.5 it sets a flow's first seconds). When the revealing packet
//!   carries no RTT (sent before the sender's first feedback: `rtt_ = tzero_ = 0`, one
//!   packet, reported as p = 1): option [`Ns2Compat::first_seed_without_rtt_is_one`]; it
//!   holds a flow at one packet per tens of seconds until a packet gets through.
//! - **Feedback**: on a new loss event at once, otherwise on the first packet arriving at
//!   least R after the last report; the timer (1.5 R) only covers a silent sender — and
//!   reports once more, with X_recv = one packet per second, when the last report was sent
//!   at a data arrival and nothing arrived since: option
//!   [`Ns2Compat::idle_report_after_arrival`] (fired 1.5 R after that report). The rest of
//!   ns-2's timing (a report at the arrival revealing a new loss event or carrying the
//!   sender's `UrgentFlag`, else at the first arrival at least R after the last report; the
//!   timer 1.5 R after every report) and its X_recv (`est_thput`: packets since the last
//!   report over the time since it when that is ≥ R, else packets received in the last R
//!   over R): option [`Ns2Compat::report_at_arrival`] (session 12). The timer is armed by a
//!   report made with an RTT only, not by the first packet carrying one: option
//!   [`Ns2Compat::report_timer_armed_by_report`].
//! - **The order of the report timer and an arrival at one instant**: ns-2 compares two
//!   doubles (the timer's `clock + 1.5·rtt_`, the arrival's send double plus the links'
//!   `txt + delay_`); option [`Ns2Compat::report_timer_after_arrival`] takes the arrival
//!   first, option [`Ns2Compat::double_clock_report_ties`] keeps ns-2's doubles (the
//!   packet's [`DataPacket::ns2_frac`], the path from [`Receiver::set_ns2_path`]) and
//!   orders by them, sending two reports at one instant when the timer goes first and the
//!   arrival reveals a loss event (session 17).
//! - **Loss events** use the sender's feedback round (`PreciseLoss_`):
//!   [`Ns2Compat::loss_event_needs_new_round`], read from [`DataPacket::round`].

use std::collections::VecDeque;

use super::equation::loss_rate_for_throughput;
use super::loss_history::{LossHistory, LossHistoryParams};
use super::ns2::{ns2_b_to_p, with_frac, Ns2PathDelays};
use super::{DataPacket, Feedback, Ns2Compat, SmallPacketParams};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// Validated receiver settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverParams {
    history: LossHistoryParams,
    init_segment: Option<u32>,
    /// ns-2 option [`Ns2Compat::idle_report_after_arrival`].
    ns2_idle_report: bool,
    /// ns-2 option [`Ns2Compat::report_at_arrival`].
    ns2_report_at_arrival: bool,
    /// ns-2 option [`Ns2Compat::report_timer_after_arrival`] (with `ns2_report_at_arrival`).
    ns2_timer_after_arrival: bool,
    /// ns-2 option [`Ns2Compat::first_seed_without_rtt_is_one`].
    ns2_seed_one_without_rtt: bool,
    /// ns-2 option [`Ns2Compat::report_timer_armed_by_report`] (with `ns2_report_at_arrival`).
    ns2_timer_armed_by_report: bool,
    /// ns-2 option [`Ns2Compat::first_seed_by_b_to_p`].
    ns2_seed_b_to_p: bool,
    /// ns-2 option [`Ns2Compat::double_clock_report_ties`] (with `ns2_report_at_arrival`).
    ns2_report_ties: bool,
}

impl ReceiverParams {
    /// `init_segment`: the `s` used to seed the first loss interval (RFC 5348 §6.3.1);
    /// `None` = the size of the received packets (standard TFRC), `Some(n)` with n >= 1
    /// (TFRC-SP: the nominal segment size, RFC 4828 §1).
    pub fn new(history: LossHistoryParams, init_segment: Option<u32>) -> Result<Self, ConfigError> {
        if init_segment == Some(0) {
            return Err(ConfigError::out_of_range(
                "init_segment",
                0,
                ">= 1 byte (RFC 5348 §6.3.1: segment size of the equation)",
            ));
        }
        Ok(ReceiverParams {
            history,
            init_segment,
            ns2_idle_report: false,
            ns2_report_at_arrival: false,
            ns2_timer_after_arrival: false,
            ns2_seed_one_without_rtt: false,
            ns2_timer_armed_by_report: false,
            ns2_seed_b_to_p: false,
            ns2_report_ties: false,
        })
    }
    /// Standard TFRC with RFC 5348 defaults.
    pub fn standard() -> Self {
        ReceiverParams {
            history: LossHistoryParams::standard(),
            init_segment: None,
            ns2_idle_report: false,
            ns2_report_at_arrival: false,
            ns2_timer_after_arrival: false,
            ns2_seed_one_without_rtt: false,
            ns2_timer_armed_by_report: false,
            ns2_seed_b_to_p: false,
            ns2_report_ties: false,
        }
    }
    /// TFRC-SP: short-interval rule and nominal segment size from `sp`.
    pub fn small_packet(sp: &SmallPacketParams) -> Self {
        ReceiverParams {
            history: LossHistoryParams::small_packet(sp.short_rule()),
            init_segment: Some(sp.nominal_segment()),
            ns2_idle_report: false,
            ns2_report_at_arrival: false,
            ns2_timer_after_arrival: false,
            ns2_seed_one_without_rtt: false,
            ns2_timer_armed_by_report: false,
            ns2_seed_b_to_p: false,
            ns2_report_ties: false,
        }
    }
    /// The same settings with the receiver-side ns-2 behaviour of `ns2` switched on
    /// (`loss_event_needs_new_round`, see [`ns2`](super::ns2)). Not RFC behaviour.
    pub fn with_ns2(mut self, ns2: Ns2Compat) -> Self {
        self.history = self.history.with_ns2(ns2);
        self.ns2_idle_report = ns2.idle_report_after_arrival;
        self.ns2_report_at_arrival = ns2.report_at_arrival;
        // Option 27 decides the order at a tie itself, from the same yield as 21.
        self.ns2_timer_after_arrival = ns2.report_at_arrival
            && (ns2.report_timer_after_arrival || ns2.double_clock_report_ties);
        self.ns2_report_ties = ns2.report_at_arrival && ns2.double_clock_report_ties;
        self.ns2_seed_one_without_rtt = ns2.first_seed_without_rtt_is_one;
        self.ns2_timer_armed_by_report = ns2.report_at_arrival && ns2.report_timer_armed_by_report;
        self.ns2_seed_b_to_p = ns2.first_seed_by_b_to_p;
        self
    }
    pub fn history(&self) -> &LossHistoryParams {
        &self.history
    }
    pub fn init_segment(&self) -> Option<u32> {
        self.init_segment
    }
}

/// Why a feedback packet was sent, counted per reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeedbackReason {
    FirstPacket,
    NoRttYet,
    LossRateIncreased,
    Timer,
    /// The timer had expired with nothing received; this packet triggers the feedback.
    AfterIdleTimer,
}

/// Receiver counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverStats {
    pub packets: u64,
    pub bytes: u64,
    /// Feedback packets sent, indexed by [`FeedbackReason`] as declared.
    pub feedbacks: [u64; 5],
    /// Feedback timer expiries with no data received (no feedback sent).
    pub idle_timer_expiries: u64,
}

/// Arrival times kept for ns-2's receive-rate estimate (packets in the last R); at most this
/// many packets are counted per RTT.
const ARRIVALS: usize = 1024;

/// ns-2's nack timer interval (`tcp/tfrc-sink.cc` `nextpkt()`: 1.5·`rtt_`), used by the
/// report-timing and idle-report options.
fn ns2_nack_interval(r: Duration) -> Duration {
    Duration(r.as_nanos() * 3 / 2)
}

/// A TFRC / TFRC-SP receiver (see the module docs).
#[derive(Clone, Debug)]
pub struct Receiver {
    params: ReceiverParams,
    history: LossHistory,
    started: bool,
    rtt: Option<Duration>,
    /// (send timestamp, arrival) of the most recent new data packet.
    last_data: (Time, Time),
    last_size: u32,
    /// ns-2 report-timing option: arrival times of the latest new data packets (at most
    /// [`ARRIVALS`], oldest first; empty and unallocated when the option is off) and packets
    /// received since the last report, for `est_thput()`.
    arrivals: VecDeque<Time>,
    pkts_since_report: u64,
    bytes: u64,
    window_start: Time,
    prev_bytes: u64,
    prev_start: Option<Time>,
    last_p: f64,
    deadline: Time,
    /// ns-2 option `report_timer_after_arrival`: the deadline at which `on_timeout` has
    /// yielded once already.
    yielded: Time,
    idle_expired: bool,
    /// ns-2 option `first_seed_without_rtt_is_one`: the p the next report carries (the
    /// seed's, set at the first loss event), instead of the history's.
    seed_p: Option<f64>,
    /// The last feedback was sent at the arrival instant of the last data packet (ns-2
    /// idle-report option).
    fb_at_arrival: bool,
    /// ns-2 option `double_clock_report_ties` (all unused when it is off): the path's
    /// forward delays; the doubles of the report timer's deadline and of the clock at which
    /// it was scheduled, of the last report, of the event being handled (an arrival's or the
    /// timer's) and of `rtt_`; the doubles of `arrivals`; and an arrival's report held
    /// behind the timer's at one instant (sent by the next `on_timeout`).
    ns2_path: Option<Ns2PathDelays>,
    sh_deadline: f64,
    sh_deadline_set: f64,
    sh_report: f64,
    sh_clock: f64,
    sh_rtt: f64,
    arrivals_d: VecDeque<f64>,
    pending: Option<(Time, Feedback)>,
    stats: ReceiverStats,
}

impl Receiver {
    pub fn new(params: ReceiverParams) -> Self {
        Receiver {
            params,
            history: LossHistory::new(params.history),
            started: false,
            rtt: None,
            last_data: (Time::ZERO, Time::ZERO),
            last_size: 0,
            arrivals: VecDeque::new(),
            pkts_since_report: 0,
            bytes: 0,
            window_start: Time::ZERO,
            prev_bytes: 0,
            prev_start: None,
            last_p: 0.0,
            deadline: Time::NEVER,
            yielded: Time::NEVER,
            idle_expired: false,
            seed_p: None,
            fb_at_arrival: false,
            ns2_path: None,
            sh_deadline: f64::INFINITY,
            sh_deadline_set: 0.0,
            sh_report: 0.0,
            sh_clock: 0.0,
            sh_rtt: 0.0,
            arrivals_d: VecDeque::new(),
            pending: None,
            stats: ReceiverStats::default(),
        }
    }

    pub fn params(&self) -> &ReceiverParams {
        &self.params
    }
    pub fn history(&self) -> &LossHistory {
        &self.history
    }
    pub fn stats(&self) -> &ReceiverStats {
        &self.stats
    }
    /// The current loss event rate.
    pub fn loss_event_rate(&self, now: Time) -> f64 {
        self.history.loss_event_rate(now)
    }
    /// The feedback timer's deadline (None: not armed, before an RTT is known).
    pub fn poll_timeout(&self) -> Option<Time> {
        if let Some((t, _)) = self.pending {
            return Some(t);
        }
        (!self.deadline.is_never()).then_some(self.deadline)
    }

    /// ns-2 option [`Ns2Compat::double_clock_report_ties`]: the flow's path as ns-2's links
    /// delay its packets (the forward delays and the forward base delay,
    /// [`Ns2PathDelays::with_fwd_base`]); without it an arrival's double is the double
    /// nearest its nanosecond.
    pub fn set_ns2_path(&mut self, path: Ns2PathDelays) {
        self.ns2_path = Some(path);
    }

    /// Option `double_clock_report_ties`: ns-2's double of this arrival at `now`, and the
    /// clock at which ns-2 scheduled it (the last link's start).
    fn arrival_double(&self, now: Time, pkt: &DataPacket) -> (f64, f64) {
        match &self.ns2_path {
            Some(path) => {
                let ts = with_frac(pkt.send_time.as_nanos(), pkt.ns2_frac.send);
                let queued = now
                    .saturating_since(pkt.send_time)
                    .saturating_sub(path.fwd_base())
                    .as_secs_f64_exact();
                path.arrival(ts, queued)
            }
            None => {
                let t = now.as_nanos() as f64 / 1e9;
                (t, t)
            }
        }
    }

    /// At least R since the last report (`tcp/tfrc-sink.cc` `recv()` / `est_thput()`: `now -
    /// last_report_sent >= rtt_`; with option `double_clock_report_ties` in ns-2's doubles).
    fn r_since_report(&self, now: Time, r: Duration) -> bool {
        if self.params.ns2_report_ties {
            self.sh_clock - self.sh_report >= self.sh_rtt
        } else {
            now.saturating_since(self.window_start) >= r
        }
    }

    /// A data packet arrived at `now`. Returns the feedback to send now, if any.
    pub fn on_packet(&mut self, now: Time, pkt: &DataPacket) -> Option<Feedback> {
        if !self.params.ns2_report_ties {
            return self.packet(now, pkt);
        }
        // ns-2 option double_clock_report_ties: a report still held behind a timer's goes
        // first (not reached in a simulation: two arrivals at one nanosecond).
        let held = self.pending.take().map(|(_, fb)| fb);
        let (a, a_set) = self.arrival_double(now, pkt);
        // common/scheduler.cc: the earlier double first; equal doubles in the order they
        // were scheduled. A timer already late (not called at its instant) goes first.
        let timer_first = !self.deadline.is_never()
            && now >= self.deadline
            && (now > self.deadline
                || self.sh_deadline < a
                || (self.sh_deadline == a && self.sh_deadline_set <= a_set));
        let timer_fb = if timer_first {
            self.sh_clock = if now == self.deadline {
                self.sh_deadline
            } else {
                now.as_nanos() as f64 / 1e9
            };
            self.ns2_timer(now)
        } else {
            None
        };
        self.sh_clock = a;
        let fb = self.packet(now, pkt);
        // Two reports at one instant (tfrc-sink.cc: the timer's sendpkt(), then the
        // arrival's, at one clock): the first now, the second behind it from on_timeout.
        let mut out = held.into_iter().chain(timer_fb).chain(fb);
        let first = out.next();
        if let Some(next) = out.next() {
            self.pending = Some((now, next));
        }
        first
    }

    fn packet(&mut self, now: Time, pkt: &DataPacket) -> Option<Feedback> {
        self.stats.packets += 1;
        self.stats.bytes += pkt.size as u64;
        // RFC 5348 §6.2: X_recv counts the data received.
        self.bytes += pkt.size as u64;
        if let Some(r) = pkt.rtt {
            self.rtt = Some(r);
            if self.params.ns2_report_ties {
                // tcp/tfrc-sink.cc recv(): rtt_ = tfrch->rtt, the sender's double.
                self.sh_rtt = with_frac(r.as_nanos(), pkt.ns2_frac.rtt);
            }
        }
        let out =
            self.history
                .on_packet(now, pkt.seq, pkt.send_time, pkt.rtt, pkt.ecn_ce, pkt.round);
        if !out.late_or_duplicate {
            self.last_data = (pkt.send_time, now);
            self.last_size = pkt.size;
            if self.params.ns2_report_at_arrival {
                if self.arrivals.len() == ARRIVALS {
                    self.arrivals.pop_front();
                }
                self.arrivals.push_back(now);
                if self.params.ns2_report_ties {
                    // tcp/tfrc-sink.cc recv(): rtvec_[seqno%hsz] = now, the arrival's double.
                    if self.arrivals_d.len() == ARRIVALS {
                        self.arrivals_d.pop_front();
                    }
                    self.arrivals_d.push_back(self.sh_clock);
                }
                self.pkts_since_report += 1;
            }
        }
        if !self.started {
            // RFC 5348 §6.3: feedback on the first data packet.
            self.started = true;
            self.window_start = now;
            return Some(self.feedback(now, FeedbackReason::FirstPacket));
        }
        if out.first_loss_event {
            self.seed_first_interval(now, pkt);
        }
        if self.rtt.is_none() {
            return Some(self.feedback(now, FeedbackReason::NoRttYet));
        }
        if self.deadline.is_never() && !self.params.ns2_timer_armed_by_report {
            self.deadline = now + self.rtt.unwrap_or(Duration::ZERO);
            self.sh_deadline = self.deadline.as_nanos() as f64 / 1e9;
            self.sh_deadline_set = self.sh_clock;
        }
        if self.params.ns2_report_at_arrival {
            // ns-2 option (tfrc-sink.cc recv(): congestionEvent, or UrgentFlag once rtt_ has
            // passed since the last report).
            let r = self.rtt.unwrap_or(Duration::ZERO);
            if out.new_loss_events > 0 {
                return Some(self.feedback(now, FeedbackReason::LossRateIncreased));
            }
            if pkt.urgent || self.r_since_report(now, r) {
                return Some(self.feedback(now, FeedbackReason::AfterIdleTimer));
            }
            return None;
        }
        // RFC 5348 §6.1: if p has increased, send feedback without waiting for the timer.
        if self.history.loss_event_rate(now) > self.last_p {
            return Some(self.feedback(now, FeedbackReason::LossRateIncreased));
        }
        if self.idle_expired {
            return Some(self.feedback(now, FeedbackReason::AfterIdleTimer));
        }
        None
    }

    /// The feedback timer fired (call at `poll_timeout()`; early calls do nothing). With
    /// the ns-2 option [`Ns2Compat::report_timer_after_arrival`] the first call at a
    /// deadline yields: it returns `None` and the deadline stays due, to be called again at
    /// the same instant after the data packets arriving then (the engine re-arms the timer
    /// at `now`, behind the events already queued for it).
    pub fn on_timeout(&mut self, now: Time) -> Option<Feedback> {
        if let Some((t, fb)) = self.pending {
            if now >= t {
                self.pending = None;
                return Some(fb);
            }
        }
        if self.deadline.is_never() || now < self.deadline {
            return None;
        }
        if self.params.ns2_timer_after_arrival && self.yielded != self.deadline {
            self.yielded = self.deadline;
            return None;
        }
        if self.params.ns2_report_at_arrival {
            // Option double_clock_report_ties: the timer's own double (on time), else the
            // nearest double.
            self.sh_clock = if now == self.deadline {
                self.sh_deadline
            } else {
                now.as_nanos() as f64 / 1e9
            };
            return self.ns2_timer(now);
        }
        let r = self.rtt.unwrap_or(Duration::ZERO);
        if self.bytes > 0 {
            return Some(self.feedback(now, FeedbackReason::Timer));
        }
        if self.params.ns2_idle_report && self.fb_at_arrival {
            // ns-2 option (tfrc-sink.cc: the nack timer fires 1.5 R after the last report and
            // sendpkt() reports when last_arrival_ >= last_report_sent): report anyway, with
            // est_thput()'s default of one packet per second.
            let due = self.window_start + ns2_nack_interval(r);
            if now >= due {
                let one_pkt = self.last_size as f64;
                let mut fb = self.feedback(now, FeedbackReason::Timer);
                fb.x_recv = one_pkt;
                return Some(fb);
            }
            // At R: as RFC 5348 §6.2 below (a packet arriving from now on is reported at
            // once, as ns-2 does at least rtt_ after the last report), but come back at 1.5 R.
            self.stats.idle_timer_expiries += 1;
            self.idle_expired = true;
            self.deadline = due;
            return None;
        }
        // RFC 5348 §6.2: nothing received since the last feedback: no feedback, restart.
        self.stats.idle_timer_expiries += 1;
        self.idle_expired = true;
        self.deadline = now + r;
        None
    }

    /// ns-2 option [`Ns2Compat::report_at_arrival`]: the nack timer expires at `now`
    /// (`tcp/tfrc-sink.cc` `TfrcNackTimer::expire()` calls `nextpkt(-1)`: `sendpkt()` reports
    /// if `last_arrival_ >= last_report_sent`, and the timer runs 1.5·`rtt_` again whether
    /// or not it reported). With `double_clock_report_ties`, `sh_clock` is the timer's
    /// double.
    fn ns2_timer(&mut self, now: Time) -> Option<Feedback> {
        let r = self.rtt.unwrap_or(Duration::ZERO);
        let fb = if self.bytes > 0 {
            Some(self.feedback(now, FeedbackReason::Timer))
        } else if self.params.ns2_idle_report && self.fb_at_arrival {
            let one_pkt = self.last_size as f64;
            let mut fb = self.feedback(now, FeedbackReason::Timer);
            fb.x_recv = one_pkt;
            Some(fb)
        } else {
            self.stats.idle_timer_expiries += 1;
            None
        };
        self.arm_ns2_timer(now, r);
        fb
    }

    /// ns-2's `nack_timer_.resched(1.5*rtt_)` at `now` (with `double_clock_report_ties`: at
    /// the double `sh_clock`, the deadline that double's nanosecond).
    fn arm_ns2_timer(&mut self, now: Time, r: Duration) {
        if self.params.ns2_report_ties {
            self.sh_deadline = self.sh_clock + 1.5 * self.sh_rtt;
            self.sh_deadline_set = self.sh_clock;
            self.deadline = Time::from_secs_f64(self.sh_deadline).max(now);
        } else {
            self.deadline = now + ns2_nack_interval(r);
        }
    }

    /// X_recv in data bytes per second over the current window (see the module docs).
    fn x_recv(&self, now: Time) -> f64 {
        let elapsed = now.saturating_since(self.window_start);
        let r = self.rtt.unwrap_or(Duration::ZERO);
        if self.params.ns2_report_at_arrival && r > Duration::ZERO {
            // ns-2 option (tfrc-sink.cc est_thput(), packets/s times the packet size): at
            // least rtt_ since the last report: packets since it over that time; else the
            // packets that arrived within rtt_ before the latest arrival, over rtt_; one
            // packet per second when that count is zero.
            let s = self.last_size as f64;
            let pps = if self.params.ns2_report_ties {
                // Option double_clock_report_ties: the same in ns-2's doubles.
                let since = self.sh_clock - self.sh_report;
                if since >= self.sh_rtt {
                    if self.pkts_since_report > 0 {
                        self.pkts_since_report as f64 / since
                    } else {
                        1.0
                    }
                } else {
                    let last = self.arrivals_d.back().copied().unwrap_or(0.0);
                    let n = self
                        .arrivals_d
                        .iter()
                        .rev()
                        .take_while(|&&t| t + self.sh_rtt > last)
                        .count();
                    if n > 0 {
                        n as f64 / self.sh_rtt
                    } else {
                        1.0
                    }
                }
            } else if elapsed >= r {
                if self.pkts_since_report > 0 {
                    self.pkts_since_report as f64 / elapsed.as_secs_f64()
                } else {
                    1.0
                }
            } else {
                let last = self.last_data.1;
                let n = self
                    .arrivals
                    .iter()
                    .rev()
                    .take_while(|&&t| t + r > last)
                    .count();
                if n > 0 {
                    n as f64 / r.as_secs_f64()
                } else {
                    1.0
                }
            };
            return pps * s;
        }
        match self.prev_start {
            Some(ps) if elapsed < r => {
                let span = now.saturating_since(ps).as_secs_f64();
                if span > 0.0 {
                    (self.prev_bytes + self.bytes) as f64 / span
                } else {
                    0.0
                }
            }
            _ if elapsed > Duration::ZERO => self.bytes as f64 / elapsed.as_secs_f64(),
            _ => 0.0,
        }
    }

    /// `pkt`: the packet revealing the first loss (its RTT and t_RTO; without an RTT it was
    /// sent before the sender's first RTT sample).
    fn seed_first_interval(&mut self, now: Time, pkt: &DataPacket) {
        if pkt.rtt.is_none() && self.params.ns2_seed_one_without_rtt {
            // ns-2 option (tfrc-sink.cc adjust_history() with rtt_ = tzero_ = 0: p -> 1, one
            // packet), reported as p = 1 at this arrival.
            self.history.seed_first_interval(1.0);
            self.seed_p = Some(1.0);
            return;
        }
        let x = self.x_recv(now);
        if let (Some(r), true) = (pkt.rtt, self.params.ns2_seed_b_to_p) {
            // ns-2 option (tfrc-sink.cc adjust_history(): p = b_to_p(est_thput()*psize_,
            // rtt_, tzero_, fsize_, 1); false_sample = (int)(1.0/p); nextpkt(p)).
            let s = self.params.init_segment.unwrap_or(pkt.size.max(1)) as f64;
            let t_rto = pkt.t_rto.as_secs_f64();
            let p = ns2_b_to_p(x, r.as_secs_f64(), t_rto, s);
            self.history.seed_first_interval((1.0 / p).trunc());
            self.seed_p = Some(p);
            return;
        }
        let len = match self.rtt {
            Some(r) if x > 0.0 && r > Duration::ZERO => {
                let s = self.params.init_segment.unwrap_or(self.last_size.max(1)) as f64;
                // RFC 5348 §6.3.1: the loss interval that would produce X_target = X_recv.
                1.0 / loss_rate_for_throughput(s, r.as_secs_f64(), x)
            }
            _ => self.history.packets_before_first_loss() as f64,
        };
        self.history.seed_first_interval(len);
    }

    fn feedback(&mut self, now: Time, why: FeedbackReason) -> Feedback {
        let x_recv = self.x_recv(now);
        // ns-2 option (sp_ns2_short_flags): a report clears a long open interval's short flag.
        self.history.note_report(now);
        let p = match self.seed_p.take() {
            Some(p) => p,
            None => self.history.loss_event_rate(now),
        };
        self.last_p = p;
        self.prev_bytes = self.bytes;
        self.prev_start = Some(self.window_start);
        self.bytes = 0;
        self.pkts_since_report = 0;
        self.window_start = now;
        self.idle_expired = false;
        self.fb_at_arrival = now == self.last_data.1;
        // RFC 5348 §6.2: the feedback timer restarts after R (ns-2 option: 1.5 R).
        self.sh_report = self.sh_clock;
        match self.rtt {
            Some(r) if self.params.ns2_report_at_arrival => self.arm_ns2_timer(now, r),
            Some(r) => self.deadline = now + r,
            None => self.deadline = Time::NEVER,
        }
        self.stats.feedbacks[why as usize] += 1;
        Feedback {
            t_recvdata: self.last_data.0,
            t_delay: now.saturating_since(self.last_data.1),
            x_recv,
            p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfrc::equation::{throughput, ShortIntervalRule};

    const MS: u64 = 1_000_000;

    fn pkt(seq: u64, send_ms: u64, rtt_ms: Option<u64>) -> DataPacket {
        DataPacket {
            seq,
            size: 1000,
            send_time: Time(send_ms * MS),
            rtt: rtt_ms.map(|r| Duration(r * MS)),
            t_rto: Duration::ZERO,
            ecn_ce: false,
            round: 0,
            urgent: false,
            ns2_frac: Default::default(),
        }
    }

    #[test]
    fn first_packet_gets_feedback() {
        let mut r = Receiver::new(ReceiverParams::standard());
        let fb = r.on_packet(Time(50 * MS), &pkt(0, 0, None)).unwrap();
        assert_eq!(
            fb,
            Feedback {
                t_recvdata: Time(0),
                t_delay: Duration(0),
                x_recv: 0.0,
                p: 0.0
            }
        );
        assert_eq!(r.poll_timeout(), None);
        // Still no RTT: every packet gets feedback.
        assert!(r.on_packet(Time(1050 * MS), &pkt(1, 1000, None)).is_some());
        assert_eq!(r.stats().feedbacks[FeedbackReason::NoRttYet as usize], 1);
    }

    #[test]
    fn ns2_report_at_arrival() {
        // 1000-B packets every 30 ms from 0 (R = 100 ms); seq 10 (due at 300 ms) is lost.
        let opt = Ns2Compat {
            report_at_arrival: true,
            loss_at_first_later_packet: true,
            ..Ns2Compat::RFC
        };
        let mut rfc = Receiver::new(ReceiverParams::standard());
        let mut ns2 = Receiver::new(ReceiverParams::standard().with_ns2(opt));
        let mut got: [Vec<(u64, f64)>; 2] = [Vec::new(), Vec::new()];
        for seq in 0..12u64 {
            let t = seq * 30;
            for (i, r) in [&mut rfc, &mut ns2].into_iter().enumerate() {
                while r.poll_timeout().is_some_and(|d| d < Time(t * MS)) {
                    let d = r.poll_timeout().unwrap();
                    if let Some(fb) = r.on_timeout(d) {
                        got[i].push((d.0 / MS, fb.x_recv));
                    }
                }
                if seq == 10 {
                    continue;
                }
                if let Some(fb) = r.on_packet(Time(t * MS), &pkt(seq, t, Some(100))) {
                    got[i].push((t, fb.x_recv));
                }
            }
        }
        // RFC 5348 §6.2: the timer, once per R; the loss (revealed at 330 ms by NDUPACK = 3
        // only later) gives no early report here.
        let times = |v: &Vec<(u64, f64)>| v.iter().map(|x| x.0).collect::<Vec<_>>();
        assert_eq!(times(&got[0]), vec![0, 100, 200, 300]);
        // ns-2: at the first arrival at least R after the last report (120, 240 ms), and at
        // once at the arrival revealing a new loss event (330 ms, 90 ms after the last).
        assert_eq!(times(&got[1]), vec![0, 120, 240, 330]);
        // est_thput(): 4 packets in 120 ms since the report at 0 = 33 333 B/s; at 330 ms
        // (less than R since the last report) the packets that arrived within R before the
        // latest arrival (240, 270, 330 ms) over R = 30 000 B/s.
        assert!(
            (got[1][1].1 - 4000.0 / 0.12).abs() < 1e-6,
            "{}",
            got[1][1].1
        );
        assert!((got[1][3].1 - 30_000.0).abs() < 1e-6, "{}", got[1][3].1);
        // The timer runs 1.5 R after every report.
        assert_eq!(ns2.poll_timeout(), Some(Time(480 * MS)));
    }

    /// ns-2 option `first_seed_without_rtt_is_one` (finding 54, s14-std14; `tcp/tfrc-sink.cc`
    /// `adjust_history()` with the `rtt_ = tzero_ = 0` of a packet sent before the sender's
    /// first RTT sample): the first loss, revealed by such a packet, seeds an interval of one
    /// packet and its report carries p = 1. Without the option the seed is the four packets
    /// received before the loss (no RTT, no rate to seed with) and p comes from the history.
    #[test]
    fn ns2_first_loss_before_an_rtt_seeds_one_packet() {
        let mut ps = Vec::new();
        for on in [false, true] {
            let ns2 = Ns2Compat {
                loss_at_first_later_packet: true,
                first_seed_without_rtt_is_one: on,
                ..Ns2Compat::RFC
            };
            let mut r = Receiver::new(ReceiverParams::standard().with_ns2(ns2));
            // Packets 0..3 arrive (no RTT yet: every one is reported), 4 is lost, 5 reveals it.
            for seq in 0..4u64 {
                assert!(r
                    .on_packet(Time(seq * 10 * MS), &pkt(seq, seq * 10, None))
                    .is_some());
            }
            let fb = r.on_packet(Time(50 * MS), &pkt(5, 50, None)).unwrap();
            let seed = r.history().closed_intervals()[0];
            assert_eq!(seed, if on { 1.0 } else { 4.0 }, "on={on}");
            ps.push(fb.p);
        }
        assert_eq!(ps[1], 1.0);
        assert!(ps[0] < 0.5, "{ps:?}");
    }

    /// ns-2 option `first_seed_by_b_to_p` (finding 54, session 15; `tcp/tfrc-sink.cc`
    /// `adjust_history()`, `tcp/formula-with-inverse.h` `b_to_p()`). 14-B packets carrying
    /// R = 240 ms and t_RTO = 600 ms (ns-2's `tzero_` after one RTT sample): seq 0 at 0
    /// (reported), 1..3 at 60, 120, 180 ms, 4 lost, 5 at 300 ms reveals the loss. The receive
    /// rate (`est_thput()`: 4 packets in the 300 ms since the last report) is 13.33 packets/s
    /// = 186.67 B/s. ns-2's bisection: p = 1/2 gives 4.93 B/s (too slow: down), 1/4 27.38,
    /// 1/8 98.35, 1/16 204.78 (too fast: up), 3/32 139.25, 5/64 167.58, 9/128 184.78 B/s,
    /// within 5 % (0.990): p = 9/128 = 0.0703, interval (int)(128/9) = 14 packets, and the
    /// report carries 9/128. Off (RFC 5348 §6.3.1): the exact inverse with t_RTO = 4R,
    /// p = 0.05843, interval 17.11 packets. TFRC-SP seeds with s = 1460 B: 1/2 gives 514.3
    /// B/s (up), 3/4 167.4, 5/8 279.8, 11/16 214.3, 23/32 189.0 (1.012): p = 23/32, one
    /// packet.
    #[test]
    fn ns2_first_seed_is_b_to_p_of_the_receive_rate() {
        let ns2 = |on: bool| Ns2Compat {
            report_at_arrival: true,
            loss_at_first_later_packet: true,
            first_seed_by_b_to_p: on,
            ..Ns2Compat::RFC
        };
        let small = |seq: u64, t: u64| DataPacket {
            size: 14,
            t_rto: Duration(600 * MS),
            ..pkt(seq, t, Some(240))
        };
        let sp = SmallPacketParams::rfc4828();
        let mut got = Vec::new();
        for (params, on) in [
            (ReceiverParams::standard(), false),
            (ReceiverParams::standard(), true),
            (ReceiverParams::small_packet(&sp), true),
        ] {
            let mut r = Receiver::new(params.with_ns2(ns2(on)));
            let first = DataPacket {
                size: 14,
                ..pkt(0, 0, None)
            };
            assert!(r.on_packet(Time::ZERO, &first).is_some());
            for (seq, t) in [(1u64, 60u64), (2, 120), (3, 180)] {
                assert!(r.on_packet(Time(t * MS), &small(seq, t)).is_none());
            }
            let fb = r.on_packet(Time(300 * MS), &small(5, 300)).unwrap();
            assert!((fb.x_recv - 4.0 / 0.3 * 14.0).abs() < 1e-9, "{}", fb.x_recv);
            got.push((r.history().closed_intervals()[0], fb.p));
        }
        let x = 4.0 / 0.3 * 14.0;
        let p_rfc = loss_rate_for_throughput(14.0, 0.24, x);
        assert!((p_rfc - 0.058431).abs() < 1e-6, "{p_rfc}");
        assert!((got[0].0 - 1.0 / p_rfc).abs() < 1e-9, "{got:?}");
        assert!(got[0].1 != 9.0 / 128.0, "{got:?}");
        assert_eq!(got[1], (14.0, 9.0 / 128.0));
        assert_eq!(got[2], (1.0, 23.0 / 32.0));
        // ns-2's rates at the bisection's steps, as in the comment above.
        let rate = |p: f64| crate::tfrc::ns2::ns2_p_to_b(p, 0.24, 0.6, 14.0);
        assert!((rate(9.0 / 128.0) - 184.784).abs() < 1e-3);
        assert!((rate(5.0 / 64.0) - 167.578).abs() < 1e-3);
        // Without an RTT or t_RTO ns-2's equation is MAXRATE at every p: p climbs to 1 − 2⁻³².
        assert_eq!(
            crate::tfrc::ns2::ns2_b_to_p(x, 0.0, 0.0, 14.0),
            1.0 - 2f64.powi(-32)
        );
    }

    /// ns-2 option `report_timer_armed_by_report` (finding 54, s14-std14; `tcp/tfrc-sink.cc`
    /// `nextpkt()` arms the nack timer only when it reports with `rtt_ > 0`): the first
    /// packet carrying an RTT, not reported (less than R after the last report), arms no
    /// timer; the next report with an RTT does, 1.5 R after it. Without the option that
    /// packet arms the timer R later.
    #[test]
    fn ns2_report_timer_is_armed_by_a_report_only() {
        for on in [false, true] {
            let ns2 = Ns2Compat {
                report_at_arrival: true,
                report_timer_armed_by_report: on,
                ..Ns2Compat::RFC
            };
            let mut r = Receiver::new(ReceiverParams::standard().with_ns2(ns2));
            // Packet 0 carries no RTT: reported, no timer.
            assert!(r.on_packet(Time::ZERO, &pkt(0, 0, None)).is_some());
            assert_eq!(r.poll_timeout(), None);
            // Packet 1 carries R = 100 ms and arrives 50 ms after that report: no report.
            assert!(r.on_packet(Time(50 * MS), &pkt(1, 50, Some(100))).is_none());
            let want = if on { None } else { Some(Time(150 * MS)) };
            assert_eq!(r.poll_timeout(), want, "on={on}");
            // Packet 2, 120 ms after the last report: reported; the timer 1.5 R after it.
            assert!(r
                .on_packet(Time(120 * MS), &pkt(2, 120, Some(100)))
                .is_some());
            assert_eq!(r.poll_timeout(), Some(Time(270 * MS)), "on={on}");
        }
    }

    /// ns-2 option `report_timer_after_arrival` (finding 54, session 14): a packet arriving
    /// at the instant the 1.5 R timer expires is reported at its arrival. The driver runs
    /// the events of one instant as the engine queues them: the timer (armed at the last
    /// report) before the arrival, and a timer that yielded once more after it. Without
    /// the option the expiry finds nothing since the last report and reports X_recv = one
    /// packet per second, and the packet, 0 s after that report, is not reported.
    #[test]
    fn ns2_report_timer_yields_to_an_arrival_at_its_instant() {
        let ns2 = |after: bool| Ns2Compat {
            report_at_arrival: true,
            idle_report_after_arrival: true,
            report_timer_after_arrival: after,
            ..Ns2Compat::RFC
        };
        let mut reports = Vec::new();
        for after in [false, true] {
            let mut r = Receiver::new(ReceiverParams::standard().with_ns2(ns2(after)));
            let mut got: Vec<(u64, f64)> = Vec::new();
            // 1000-B packets carrying R = 100 ms arrive at 0, 120 and 270 ms = 120 + 1.5 R.
            for (seq, t) in [(0u64, 0u64), (1, 120), (2, 270)] {
                let at = Time(t * MS);
                let timer = |r: &mut Receiver, got: &mut Vec<(u64, f64)>| {
                    if let Some(d) = r.poll_timeout().filter(|&d| d <= at) {
                        if let Some(fb) = r.on_timeout(d) {
                            got.push((d.0 / MS, fb.x_recv));
                        }
                    }
                };
                timer(&mut r, &mut got);
                if let Some(fb) = r.on_packet(at, &pkt(seq, t, Some(100))) {
                    got.push((t, fb.x_recv));
                }
                timer(&mut r, &mut got);
            }
            reports.push(got);
        }
        assert_eq!(reports[0][2], (270, 1000.0), "{:?}", reports[0]);
        assert_eq!(reports[0].len(), 3, "{:?}", reports[0]);
        // On: 1 packet in the 150 ms since the last report, and the timer restarts from it.
        assert_eq!(reports[1].len(), 3, "{:?}", reports[1]);
        assert_eq!(reports[1][2].0, 270);
        assert!(
            (reports[1][2].1 - 1000.0 / 0.15).abs() < 1e-6,
            "{:?}",
            reports[1]
        );
        // With no arrival at its instant the timer reports there, on the second call.
        let mut r = Receiver::new(ReceiverParams::standard().with_ns2(ns2(true)));
        r.on_packet(Time(0), &pkt(0, 0, Some(100))).unwrap();
        r.on_packet(Time(10 * MS), &pkt(1, 10, Some(100)));
        assert_eq!(r.poll_timeout(), Some(Time(150 * MS)));
        assert_eq!(r.on_timeout(Time(150 * MS)), None);
        assert_eq!(r.poll_timeout(), Some(Time(150 * MS)));
        let fb = r.on_timeout(Time(150 * MS)).unwrap();
        assert!((fb.x_recv - 1000.0 / 0.15).abs() < 1e-6);
        assert_eq!(r.poll_timeout(), Some(Time(300 * MS)));
    }

    /// Option 27 (`double_clock_report_ties`): a data packet arrives at the report timer's
    /// nanosecond; the order is that of ns-2's doubles (the timer's `0.1 + 1.5·0.24`, the
    /// arrival's send double plus the link's 0.1 s), not option 21's "arrival first".
    /// Returns the reports at the tie's instant (sent time, echoed send time in ms) and the
    /// next deadline.
    fn tie_run(o27: bool, k: i32) -> (Vec<(u64, u64)>, Option<Time>) {
        let ns2 = Ns2Compat {
            report_at_arrival: true,
            idle_report_after_arrival: true,
            report_timer_after_arrival: true,
            report_timer_armed_by_report: true,
            loss_at_first_later_packet: true,
            double_clock_report_ties: o27,
            ..Ns2Compat::RFC
        };
        let mut r = Receiver::new(ReceiverParams::standard().with_ns2(ns2));
        r.set_ns2_path(tie_path());
        let at = Time(460 * MS);
        // R = 240 ms; packets 0 and 1 sent at 0 and 120 ms arrive 100 ms later; the first
        // is reported and arms the timer 1.5 R later, at 460 ms.
        r.on_packet(Time(100 * MS), &pkt(0, 0, Some(240))).unwrap();
        assert_eq!(r.on_packet(Time(220 * MS), &pkt(1, 120, Some(240))), None);
        assert_eq!(r.poll_timeout(), Some(at));
        // Packet 3 (2 is lost: a new loss event) sent at 360 ms + k·2^-60 s arrives at 460 ms.
        let p3 = DataPacket {
            ns2_frac: super::super::Ns2Frac { send: k, rtt: 0 },
            ..pkt(3, 360, Some(240))
        };
        let mut got = Vec::new();
        // The engine calls the timer first (armed at the last report), which yields ...
        assert_eq!(r.on_timeout(at), None);
        // ... then the arrival, then the timer again while it is due at this instant.
        if let Some(fb) = r.on_packet(at, &p3) {
            got.push((at.0 / MS, fb.t_recvdata.0 / MS));
        }
        while r.poll_timeout() == Some(at) {
            match r.on_timeout(at) {
                Some(fb) => got.push((at.0 / MS, fb.t_recvdata.0 / MS)),
                None => break,
            }
        }
        (got, r.poll_timeout())
    }

    fn tie_path() -> Ns2PathDelays {
        Ns2PathDelays::new(&[0.1], &[0.1], Duration(200 * MS))
            .unwrap()
            .with_fwd_base(Duration(100 * MS))
    }

    #[test]
    fn ns2_report_timer_and_arrival_at_one_nanosecond_go_in_the_order_of_the_doubles() {
        use crate::tfrc::ns2::with_frac;
        // The timer's double (ns-2: the report's clock 0.1 plus 1.5*rtt_) and the k whose
        // arrival double equals it (ulp of 0.36 s: 2^-54 s = 64 units of 2^-60 s).
        let timer = 0.1 + 1.5 * 0.24;
        let arrival = |k: i32| tie_path().arrival(with_frac(360 * MS, k), 0.0).0;
        let k_eq = (-200..=200)
            .map(|i| i * 64)
            .find(|&k| arrival(k) == timer)
            .expect("an arrival double equal to the timer's");
        let (late, early) = (k_eq + 640, k_eq - 640);
        assert!(arrival(late) > timer && arrival(early) < timer);
        for k in [late, k_eq, early] {
            assert_eq!(Time::from_secs_f64(arrival(k)), Time(460 * MS));
        }
        // The timer's double earlier: it reports first (echoing packet 1, sent at 120 ms),
        // then the arrival revealing the loss sends its own report at the same instant
        // (tfrc-sink.cc: two sendpkt() at one clock), and the timer runs 1.5 R from there.
        let (got, next) = tie_run(true, late);
        assert_eq!(got, vec![(460, 120), (460, 360)]);
        assert_eq!(next, Some(Time(820 * MS)));
        // Equal doubles: the timer was scheduled first (at 0.1 s, the arrival at 0.36 s).
        assert_eq!(tie_run(true, k_eq).0, vec![(460, 120), (460, 360)]);
        // The arrival's double earlier: one report, the arrival's.
        assert_eq!(tie_run(true, early).0, vec![(460, 360)]);
        // Option 21 alone: the arrival first whatever the doubles.
        assert_eq!(tie_run(false, late).0, vec![(460, 360)]);
    }

    #[test]
    fn ns2_idle_report_after_arrival() {
        // One packet (1000 B, R = 100 ms) arrives at 50 ms and gets feedback at once; then
        // nothing arrives.
        let only = Ns2Compat {
            idle_report_after_arrival: true,
            ..Ns2Compat::RFC
        };
        let mut rfc = Receiver::new(ReceiverParams::standard());
        let mut ns2 = Receiver::new(ReceiverParams::standard().with_ns2(only));
        for r in [&mut rfc, &mut ns2] {
            assert!(r.on_packet(Time(50 * MS), &pkt(0, 0, Some(100))).is_some());
            assert_eq!(r.poll_timeout(), Some(Time(150 * MS)));
            assert_eq!(r.on_timeout(Time(150 * MS)), None);
        }
        // RFC 5348 §6.2: nothing received, no feedback; the timer restarts after R.
        assert_eq!(rfc.poll_timeout(), Some(Time(250 * MS)));
        assert_eq!(rfc.on_timeout(Time(250 * MS)), None);
        // ns-2: the report is due 1.5 R after the last one (200 ms), X_recv = 1 packet/s.
        assert_eq!(ns2.poll_timeout(), Some(Time(200 * MS)));
        let fb = ns2.on_timeout(Time(200 * MS)).unwrap();
        assert_eq!(
            fb,
            Feedback {
                t_recvdata: Time(0),
                t_delay: Duration(150 * MS),
                x_recv: 1000.0,
                p: 0.0
            }
        );
        // Only once: that report was not sent at an arrival.
        assert_eq!(ns2.poll_timeout(), Some(Time(300 * MS)));
        assert_eq!(ns2.on_timeout(Time(300 * MS)), None);
        assert_eq!(ns2.stats().feedbacks[FeedbackReason::Timer as usize], 1);
        assert_eq!(rfc.stats().feedbacks[FeedbackReason::Timer as usize], 0);

        // A packet arriving between R and 1.5 R after a report sent at an arrival is reported
        // at once, as under RFC 5348 (ns-2: at least rtt_ after the last report), and no idle
        // report follows.
        let mut rfc = Receiver::new(ReceiverParams::standard());
        let mut ns2 = Receiver::new(ReceiverParams::standard().with_ns2(only));
        for r in [&mut rfc, &mut ns2] {
            assert!(r.on_packet(Time(50 * MS), &pkt(0, 0, Some(100))).is_some());
            assert_eq!(r.on_timeout(Time(150 * MS)), None);
            assert_eq!(r.stats().idle_timer_expiries, 1);
            let fb = r
                .on_packet(Time(170 * MS), &pkt(1, 120, Some(100)))
                .unwrap();
            assert_eq!(fb.t_recvdata, Time(120 * MS));
            assert_eq!(
                r.stats().feedbacks[FeedbackReason::AfterIdleTimer as usize],
                1
            );
            assert_eq!(r.poll_timeout(), Some(Time(270 * MS)));
        }
    }

    #[test]
    fn timer_feedback_once_per_rtt_with_receive_rate() {
        let mut r = Receiver::new(ReceiverParams::standard());
        r.on_packet(Time(0), &pkt(0, 0, None)).unwrap();
        // Packets every 10 ms carrying R = 100 ms; the timer is armed at the first one.
        for s in 1..=10u64 {
            assert_eq!(
                r.on_packet(Time(s * 10 * MS), &pkt(s, s * 10, Some(100))),
                None
            );
        }
        assert_eq!(r.poll_timeout(), Some(Time(110 * MS)));
        assert_eq!(r.on_timeout(Time(109 * MS)), None);
        // At 110 ms: 10 packets * 1000 B over 110 ms since the first feedback (at 0):
        // X_recv = 10000 / 0.110 = 90909.09 B/s; last packet 10 sent at 100, arrived at 100.
        let fb = r.on_timeout(Time(110 * MS)).unwrap();
        assert!((fb.x_recv - 10_000.0 / 0.110).abs() < 1e-6, "{}", fb.x_recv);
        assert_eq!(
            (fb.t_recvdata, fb.t_delay, fb.p),
            (Time(100 * MS), Duration(10 * MS), 0.0)
        );
        assert_eq!(r.poll_timeout(), Some(Time(210 * MS)));
    }

    #[test]
    fn idle_timer_then_feedback_on_next_packet() {
        let mut r = Receiver::new(ReceiverParams::standard());
        r.on_packet(Time(0), &pkt(0, 0, None));
        r.on_packet(Time(10 * MS), &pkt(1, 10, Some(100)));
        assert!(r.on_timeout(Time(110 * MS)).is_some());
        // Nothing arrives until 300 ms: the 210 ms expiry sends nothing.
        assert_eq!(r.on_timeout(Time(210 * MS)), None);
        assert_eq!(r.stats().idle_timer_expiries, 1);
        assert_eq!(r.poll_timeout(), Some(Time(310 * MS)));
        let fb = r
            .on_packet(Time(300 * MS), &pkt(2, 300, Some(100)))
            .unwrap();
        assert_eq!(fb.t_recvdata, Time(300 * MS));
        assert_eq!(
            r.stats().feedbacks[FeedbackReason::AfterIdleTimer as usize],
            1
        );
    }

    #[test]
    fn first_loss_seeds_from_receive_rate_and_sends_feedback() {
        // 1000-byte packets every 10 ms (100 kB/s), R = 100 ms. Packet 25 is lost; the loss
        // is detected when 28 arrives (t = 280 ms).
        let mut r = Receiver::new(ReceiverParams::standard());
        let mut fbs = vec![];
        for s in (0..40u64).filter(|&s| s != 25) {
            let now = Time(s * 10 * MS);
            if let Some(d) = r.poll_timeout() {
                if d <= now {
                    fbs.extend(r.on_timeout(d).map(|f| (s, f)));
                }
            }
            if let Some(fb) = r.on_packet(now, &pkt(s, s * 10, Some(100))) {
                fbs.push((s, fb));
                if fb.p > 0.0 {
                    break;
                }
            }
        }
        let (s, fb) = *fbs.last().unwrap();
        assert_eq!(s, 28);
        // Timer feedbacks at 110 ms (packets 1..=10) and 210 ms (11..=20); at 280 ms the
        // window since 210 ms (21..=28 without 25: 7000 B, 70 ms < R) is joined with the
        // previous one (10000 B since 110 ms): X_recv = 17000 B / 0.170 s = 100000 B/s.
        let x = 17_000.0 / 0.170;
        // Seed: p0 with X(1000, 0.1, p0) = X_recv; I_1 = 1/p0. I_0 = 28 - 25 + 1 = 4 < I_1.
        let p0 = loss_rate_for_throughput(1000.0, 0.1, x);
        assert!((throughput(1000.0, 0.1, p0) / x - 1.0).abs() < 1e-9);
        assert!((fb.p - p0).abs() < 1e-12, "{} vs {}", fb.p, p0);
        assert_eq!(r.history().closed_intervals().len(), 1);
    }

    #[test]
    fn sp_seeds_with_nominal_segment() {
        // 200-byte packets every 10 ms, R = 100 ms, packet 20 lost, detected when 23 arrives
        // (230 ms). Timer feedbacks at 110 ms (packets 1..=10) and 210 ms (11..=19: 1800 B).
        // At 230 ms the current window (21, 22, 23: 600 B, 20 ms < R) is joined with the
        // previous one: X_recv = 2400 B / 0.120 s = 20000 B/s.
        // RFC 4828 §1: the seed uses s = 1460, not 200: I_1 = 1/p0 with X(1460, 0.1, p0) = 20000.
        let sp = SmallPacketParams::rfc4828();
        let mut r = Receiver::new(ReceiverParams::small_packet(&sp));
        for s in (0..24u64).filter(|&s| s != 20) {
            let now = Time(s * 10 * MS);
            if let Some(d) = r.poll_timeout() {
                if d <= now {
                    r.on_timeout(d);
                }
            }
            r.on_packet(
                now,
                &DataPacket {
                    size: 200,
                    ..pkt(s, s * 10, Some(100))
                },
            );
        }
        let want = 1.0 / loss_rate_for_throughput(1460.0, 0.1, 20_000.0);
        let seeded = r.history().closed_intervals()[0];
        assert!((seeded / want - 1.0).abs() < 1e-9, "{seeded} vs {want}");
        // With s = 200 the seed would have been far longer (7.3x smaller s per packet).
        assert!(seeded < 1.0 / loss_rate_for_throughput(200.0, 0.1, 20_000.0));
        assert_eq!(
            r.params().history().small_packet_rule(),
            Some(ShortIntervalRule::Step)
        );
    }

    #[test]
    fn params_validation() {
        assert!(ReceiverParams::new(LossHistoryParams::standard(), Some(0)).is_err());
        assert_eq!(
            ReceiverParams::new(LossHistoryParams::standard(), None),
            Ok(ReceiverParams::standard())
        );
    }
}
