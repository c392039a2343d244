//! Receiver-side loss history: loss detection, loss events, loss intervals and the loss
//! event rate `p` of TFRC (RFC 5348 §5, RFC 3448 §5) and of TFRC-SP (RFC 4828 §3, App. C).
//!
//! ## What is implemented
//! - **Loss detection** (RFC 5348 §5.1): a packet is lost when at least `NDUPACK = 3`
//!   packets with a higher sequence number have arrived and it has not. A packet carrying
//!   an ECN Congestion Experienced mark counts as a loss at its own (arrival/send) time.
//! - **Loss time** (RFC 5348 §5.2): the lost packet's nominal time is interpolated between
//!   the last packet received before it (`S_before`, `T_before`) and the first received
//!   after it (`S_after`, `T_after`):
//!   `T_loss = T_before + (T_after - T_before)·(S_loss - S_before)/(S_after - S_before)`.
//!   Which clock `T` is read from is selectable ([`LossTimeBase`]): the sender timestamps
//!   carried in each data packet (RFC 5348 §3.2.1; the default, free of queueing jitter
//!   at the receiver and what RFC 5348 implementations such as farstream use) or the
//!   arrival times at the receiver (the wording of RFC 3448 §5.2).
//! - **Loss events** (RFC 5348 §5.2): a lost packet starts a new loss event only if its
//!   `T_loss` is *more than* one RTT after the `T_loss` of the first loss of the current
//!   event; otherwise it joins the current event.
//! - **Loss intervals** (RFC 5348 §5.3): a closed interval runs from the first lost packet
//!   of one loss event up to (not including) the first lost packet of the next: length
//!   `N = S_next - S_start`. The open interval `I_0` runs from the first loss of the most
//!   recent event to the highest sequence number received, inclusive:
//!   `I_0 = S_max - S_start + 1`.
//! - **Average loss interval** (RFC 5348 §5.4 = RFC 3448 §5.4): n = 8, weights
//!   (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2), `I_tot0` over `I_0..I_{k-1}`, `I_tot1` over
//!   `I_1..I_k`, `I_mean = max(I_tot0, I_tot1)/W_tot`, `p = 1/I_mean`, where `k <= 8` is the
//!   number of closed intervals (fewer than 8 at the start of a connection: the sums run
//!   over those that exist). With no loss event yet, `p = 0`.
//! - **First loss event** (RFC 5348 §6.3.1): the history reports
//!   [`PacketOutcome::first_loss_event`]; the receiver then seeds the interval before it with
//!   [`LossHistory::seed_first_interval`] (a synthetic length computed from the receive
//!   rate, see [`receiver`](super::receiver)).
//! - **TFRC-SP** (RFC 4828 §3), when [`LossHistoryParams::small_packet`] is set:
//!   a closed interval of duration at most 2 RTTs (`T_loss(next) - T_loss(start) <= 2R`)
//!   with N packets and K lost or marked packets has length N/K instead of N; and `I_0` is
//!   left out of the average (`I_tot = I_tot1`) while at most two RTTs have passed since
//!   its start. With [`ShortIntervalRule::Gradual`] (App. C) the number of counted losses
//!   falls linearly from K (<= 1 RTT) through 2K/3 (2 RTTs) and K/3 (3 RTTs) to 1 (>= 4 RTTs).
//!
//! ## Choices the texts leave open
//! - **R** is the RTT carried in the most recent data packet (RFC 5348 §6: the receiver
//!   learns R from the sender). While no packet has carried one, R = 0: every loss starts
//!   its own event and every interval counts as long.
//! - **Short/long is decided when an interval closes**, with the R of that moment; the
//!   length is then fixed. The open interval is re-evaluated at every query, its duration
//!   measured to "now" in the chosen time base (`T_latest + (now - arrival_latest)`).
//! - **Late packets**: a packet that arrives after it was declared lost (or after a later
//!   packet forced the window forward) is counted as late and otherwise ignored; the loss
//!   is not undone. Duplicates are ignored.
//! - **Window**: sequence numbers are tracked in a 256-packet window above the oldest
//!   undecided one. A packet 256 or more ahead forces the oldest holes to be declared lost
//!   (counted in `forced_losses`) — only reachable with reordering or bursts of > 253 losses.
//! - **History discounting** (RFC 5348 §5.5, optional) is not implemented (ns-2's form is an
//!   option, below).
//! - **Per-packet path**: fixed-size arrays only, no allocation; `p` costs 9 multiplies.
//!
//! ## ns-2 differs (`tcp/tfrc-sink.cc`, read for RFC 4828's App. B; see [`ns2`](super::ns2))
//! - **Loss events** (`PreciseLoss_ 1`, default): a new event also needs a newer sender
//!   round than the one that revealed the current event, so a run of consecutive losses is
//!   one event however long it lasts. The largest single cause of ns-2's higher rates at
//!   p ≥ 0.2. Option [`Ns2Compat::loss_event_needs_new_round`].
//! - **TFRC-SP short intervals** (`ShortIntervals_`): K + 1 losses and integer N/(K+1) for a
//!   closed short interval. Option [`Ns2Compat::sp_ns2_short_counting`]. With
//!   `ShortIntervals_ 1` (the value of ns-2's VoIP validation test) the short current
//!   interval I_0 is *not* left out of the average (only values 2–9 do that, as RFC 4828 §3
//!   says); ns-2 decides whether an interval is short from the receiver's clock minus the
//!   event's *sender* timestamp at its reports, so an interval no report saw long stays
//!   short; and every loss revealed with a new event's first loss counts in the interval
//!   that closes: option [`Ns2Compat::sp_ns2_short_flags`] (session 12).
//! - **History discounting** (`discount_ 1`, `minDiscountRatio_ 0.5`, default on): when the
//!   open interval exceeds twice the average of the closed ones, older intervals are
//!   weighted down (factor ≥ 0.5), permanently once the interval closes: option
//!   [`Ns2Compat::history_discounting`] (session 12; for TFRC-SP the open interval's raw
//!   count is compared with closed intervals divided by their losses, so it acts often).
//! - **Loss detection** (`numPkts_ 1`, default; 3 before ns-2.30-ish): a gap is a loss at the
//!   first later packet, instead of NDUPACK = 3 (RFC 5348 §5.1); lost packets' times are
//!   interpolated between the previous maximum and the new packet (the same rule as here).
//!   Option [`Ns2Compat::loss_at_first_later_packet`] (`ndupack = 1`). Below one packet per
//!   RTT (RFC 4828 B.1 at p ≥ 0.2) NDUPACK = 3 delays each loss by three arrivals, several
//!   RTTs, during which the open interval grows past the loss and feedback carries a lower
//!   p: the first mechanism by which our `ns2_compat` TFRC parted from ns-2.35 there
//!   (`bench/ns2/seeds/TFRC_HIGH_LOSS.md`).
//! - **Counting**: interval lengths are integers; the open interval counts from the packet
//!   after the event start (one less than `I_0` here); while fewer than 8 intervals exist
//!   `smooth_ 1` averages I_0 with the closed ones instead of using I_0 alone.

use super::equation::ShortIntervalRule;
use super::Ns2Compat;
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// RFC 5348 §5.1: "NDUPACK = 3".
pub const NDUPACK: u32 = 3;
/// RFC 5348 §5.4: n = 8 loss intervals in the average.
pub const N_INTERVALS: usize = 8;
/// RFC 5348 §5.4: "w_i = 1, 0 <= i < n/2; w_i = 2(n-i)/(n+2)" gives for n = 8 these.
pub const WEIGHTS: [f64; N_INTERVALS] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

const WIN: u64 = 256;
const WORDS: usize = (WIN / 64) as usize;

/// Which timestamps loss times are interpolated from (RFC 5348 §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossTimeBase {
    /// The sender's send timestamp carried in each data packet.
    SenderTimestamp,
    /// The arrival time at the receiver (RFC 3448 §5.2 wording).
    Arrival,
}

/// Validated settings of a [`LossHistory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossHistoryParams {
    ndupack: u32,
    time_base: LossTimeBase,
    small_packet: Option<ShortIntervalRule>,
    /// ns-2 `PreciseLoss_` (see [`Ns2Compat::loss_event_needs_new_round`]).
    new_round_per_event: bool,
    /// ns-2 `ShortIntervals_` counting (see [`Ns2Compat::sp_ns2_short_counting`]).
    ns2_short_counting: bool,
    /// ns-2 `ShortIntervals_ 1` flags (see [`Ns2Compat::sp_ns2_short_flags`]).
    ns2_short_flags: bool,
    /// ns-2 history discounting (see [`Ns2Compat::history_discounting`]).
    ns2_discount: bool,
}

impl LossHistoryParams {
    /// `ndupack` in 1..=64 (RFC 5348 §5.1 uses 3); `small_packet = Some(rule)` selects the
    /// TFRC-SP loss-interval rules of RFC 4828 §3.
    pub fn new(
        ndupack: u32,
        time_base: LossTimeBase,
        small_packet: Option<ShortIntervalRule>,
    ) -> Result<Self, ConfigError> {
        if ndupack == 0 || ndupack > 64 {
            return Err(ConfigError::out_of_range(
                "ndupack",
                ndupack,
                "1..=64 packets (RFC 5348 §5.1: NDUPACK = 3)",
            ));
        }
        Ok(LossHistoryParams {
            ndupack,
            time_base,
            small_packet,
            new_round_per_event: false,
            ns2_short_counting: false,
            ns2_short_flags: false,
            ns2_discount: false,
        })
    }
    /// The same settings with ns-2's loss-event rule when
    /// `ns2.loss_event_needs_new_round`, its short-interval counting when
    /// `ns2.sp_ns2_short_counting` and `ndupack = 1` when `ns2.loss_at_first_later_packet`
    /// (see [`ns2`](super::ns2)). Not RFC behaviour.
    pub fn with_ns2(mut self, ns2: Ns2Compat) -> Self {
        self.new_round_per_event = ns2.loss_event_needs_new_round;
        self.ns2_short_counting = ns2.sp_ns2_short_counting;
        self.ns2_short_flags = ns2.sp_ns2_short_flags && ns2.sp_ns2_short_counting;
        self.ns2_discount = ns2.history_discounting;
        if ns2.loss_at_first_later_packet {
            // ns-2 tfrc-sink.cc (numPkts_ 1): a gap is a loss at the first later arrival.
            self.ndupack = 1;
        }
        self
    }
    /// ns-2's `ShortIntervals_ 1` flags in force: the option, on a TFRC-SP history.
    fn sp_ns2_flags(&self) -> bool {
        self.ns2_short_flags && self.small_packet.is_some()
    }
    /// Whether ns-2's loss-event rule is on.
    pub fn new_round_per_event(&self) -> bool {
        self.new_round_per_event
    }
    /// Standard TFRC, RFC 5348 defaults.
    pub fn standard() -> Self {
        LossHistoryParams {
            ndupack: NDUPACK,
            time_base: LossTimeBase::SenderTimestamp,
            small_packet: None,
            new_round_per_event: false,
            ns2_short_counting: false,
            ns2_short_flags: false,
            ns2_discount: false,
        }
    }
    /// TFRC-SP with the given short-interval rule, otherwise RFC 5348 defaults.
    pub fn small_packet(rule: ShortIntervalRule) -> Self {
        LossHistoryParams {
            small_packet: Some(rule),
            ..Self::standard()
        }
    }
    pub fn ndupack(&self) -> u32 {
        self.ndupack
    }
    pub fn time_base(&self) -> LossTimeBase {
        self.time_base
    }
    pub fn small_packet_rule(&self) -> Option<ShortIntervalRule> {
        self.small_packet
    }
}

/// What one arriving packet caused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketOutcome {
    /// Packets newly declared lost or found marked.
    pub losses: u32,
    /// Loss events started (including the first one).
    pub new_loss_events: u32,
    /// The very first loss event of the connection was detected: seed the history now.
    pub first_loss_event: bool,
    /// The packet was a duplicate or arrived after being declared lost.
    pub late_or_duplicate: bool,
}

/// Counters of a [`LossHistory`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LossStats {
    pub packets: u64,
    pub lost: u64,
    pub marked: u64,
    pub loss_events: u64,
    pub late_or_duplicate: u64,
    pub forced_losses: u64,
}

#[derive(Clone, Copy, Debug)]
struct OpenInterval {
    start_seq: u64,
    start_time: Time,
    losses: u32,
    /// Sender round of the arrival that revealed the event's first loss (ns-2 rule).
    round: u64,
    /// ns-2 flags option: a report saw this interval long.
    seen_long: bool,
    /// ns-2 flags option: losses of the revealing arrival still to come that were counted
    /// in the interval that closed.
    skip: u64,
}

/// The receiver's loss history (see the module docs).
#[derive(Clone, Debug)]
pub struct LossHistory {
    params: LossHistoryParams,
    started: bool,
    first_seq: u64,
    /// Oldest sequence number not yet classified as received or lost.
    base: u64,
    received: [u64; WORDS],
    marked: [u64; WORDS],
    times: [Time; WIN as usize],
    /// Received packets in the window not yet classified (all have seq >= `base`; when the
    /// packet at `base` is missing, all are above it).
    pending: u32,
    highest: u64,
    /// (S_before, T_before): the last packet classified as received.
    before: Option<(u64, Time)>,
    open: Option<OpenInterval>,
    /// Closed intervals, most recent first (I_1, I_2, ...).
    closed: [f64; N_INTERVALS],
    n_closed: usize,
    /// ns-2 discounting option: each closed interval's lasting discount (`mult[]`), and the
    /// factor of the open interval (`mult_factor_`).
    mult: [f64; N_INTERVALS],
    mult_factor: f64,
    rtt: Duration,
    latest_time: Time,
    latest_arrival: Time,
    /// Highest sender round seen in an arriving packet.
    round: u64,
    stats: LossStats,
}

fn bit(words: &[u64; WORDS], i: u64) -> bool {
    words[(i / 64) as usize] >> (i % 64) & 1 == 1
}
fn set_bit(words: &mut [u64; WORDS], i: u64, v: bool) {
    let m = 1u64 << (i % 64);
    if v {
        words[(i / 64) as usize] |= m;
    } else {
        words[(i / 64) as usize] &= !m;
    }
}

/// RFC 5348 §5.4 average loss interval over `i0` (the open interval) and `closed`
/// (`I_1..I_k`, most recent first, at most 8 used). `exclude_open` is TFRC-SP's rule for a
/// short current interval (RFC 4828 §3: "I_tot = I_tot1"). Returns `None` with no closed
/// interval.
pub fn average_loss_interval(i0: f64, closed: &[f64], exclude_open: bool) -> Option<f64> {
    let k = closed.len().min(N_INTERVALS);
    if k == 0 {
        return None;
    }
    let (mut i_tot0, mut i_tot1, mut w_tot) = (0.0, 0.0, 0.0);
    // RFC 5348 §5.4: for (i = 0 to n-1) { I_tot0 += I_i * w_i; W_tot += w_i }
    for (i, w) in WEIGHTS.iter().enumerate().take(k) {
        let ii = if i == 0 { i0 } else { closed[i - 1] };
        i_tot0 += ii * w;
        w_tot += w;
    }
    // RFC 5348 §5.4: for (i = 1 to n) { I_tot1 += I_i * w_(i-1) }
    for (i, w) in WEIGHTS.iter().enumerate().take(k) {
        i_tot1 += closed[i] * w;
    }
    // RFC 4828 §3: "If the current loss interval I_0 is 'short' then I_tot = I_tot1;
    // else I_tot = max(I_tot0, I_tot1)"; RFC 5348 §5.4: I_tot = max(I_tot0, I_tot1).
    let i_tot = if exclude_open {
        i_tot1
    } else {
        i_tot0.max(i_tot1)
    };
    Some(i_tot / w_tot)
}

impl LossHistory {
    pub fn new(params: LossHistoryParams) -> Self {
        LossHistory {
            params,
            started: false,
            first_seq: 0,
            base: 0,
            received: [0; WORDS],
            marked: [0; WORDS],
            times: [Time::ZERO; WIN as usize],
            pending: 0,
            highest: 0,
            before: None,
            open: None,
            closed: [0.0; N_INTERVALS],
            n_closed: 0,
            mult: [1.0; N_INTERVALS],
            mult_factor: 1.0,
            rtt: Duration::ZERO,
            latest_time: Time::ZERO,
            latest_arrival: Time::ZERO,
            round: 0,
            stats: LossStats::default(),
        }
    }

    pub fn params(&self) -> &LossHistoryParams {
        &self.params
    }
    pub fn stats(&self) -> &LossStats {
        &self.stats
    }
    /// The RTT the history currently uses (from the latest data packet that carried one).
    pub fn rtt(&self) -> Duration {
        self.rtt
    }
    /// Highest sequence number received (0 before the first packet).
    pub fn highest_seq(&self) -> u64 {
        self.highest
    }
    /// Sequence number of the first packet received.
    pub fn first_seq(&self) -> u64 {
        self.first_seq
    }
    /// Whether a loss event has happened.
    pub fn has_loss(&self) -> bool {
        self.open.is_some()
    }
    /// Closed intervals, most recent first.
    pub fn closed_intervals(&self) -> &[f64] {
        &self.closed[..self.n_closed]
    }
    /// Sequence number of the first loss of the current loss event.
    pub fn current_event_start(&self) -> Option<u64> {
        self.open.map(|o| o.start_seq)
    }

    /// Records one arriving data packet: sequence number, the sender's send timestamp,
    /// the sender's RTT estimate carried in it (if any), its ECN-CE mark and the sender's
    /// feedback round (read only with ns-2's loss-event rule; pass 0 otherwise).
    pub fn on_packet(
        &mut self,
        now: Time,
        seq: u64,
        send_time: Time,
        rtt: Option<Duration>,
        ce: bool,
        round: u64,
    ) -> PacketOutcome {
        let mut out = PacketOutcome::default();
        self.stats.packets += 1;
        // Monotone, so a reordered old packet cannot lower it (ns-2 takes the round of the
        // newest packet, which is the same without reordering).
        self.round = self.round.max(round);
        if let Some(r) = rtt {
            self.rtt = r;
        }
        let t = match self.params.time_base {
            LossTimeBase::SenderTimestamp => send_time,
            LossTimeBase::Arrival => now,
        };
        if !self.started {
            self.started = true;
            self.first_seq = seq;
            self.base = seq;
            self.highest = seq;
        }
        if seq < self.base || (seq < self.base + WIN && bit(&self.received, seq % WIN)) {
            self.stats.late_or_duplicate += 1;
            out.late_or_duplicate = true;
            return out;
        }
        self.latest_time = t;
        self.latest_arrival = now;
        // Make room: a packet beyond the window forces the oldest holes to be decided.
        while seq >= self.base + WIN {
            self.resolve_head(true, (seq, t), &mut out);
        }
        let i = seq % WIN;
        set_bit(&mut self.received, i, true);
        set_bit(&mut self.marked, i, ce);
        self.times[i as usize] = t;
        self.highest = self.highest.max(seq);
        self.pending += 1;
        while self.pending > 0 {
            if !self.resolve_head(false, (seq, t), &mut out) {
                break;
            }
        }
        out
    }

    /// Decides the packet at `base` if possible. Returns false if it must wait.
    fn resolve_head(&mut self, force: bool, newest: (u64, Time), out: &mut PacketOutcome) -> bool {
        let s = self.base;
        let i = s % WIN;
        if bit(&self.received, i) {
            set_bit(&mut self.received, i, false);
            self.pending -= 1;
            let t = self.times[i as usize];
            self.before = Some((s, t));
            if bit(&self.marked, i) {
                set_bit(&mut self.marked, i, false);
                // RFC 5348 §5.1: a marked packet is a loss, at its own time.
                self.stats.marked += 1;
                self.register_loss(s, t, 1, out);
            }
            self.base += 1;
            return true;
        }
        // RFC 5348 §5.1: lost once NDUPACK packets with higher numbers have arrived.
        if self.pending >= self.params.ndupack || force {
            let after = self.first_received_after(s).unwrap_or(newest);
            let (s_b, t_b) = self.before.unwrap_or(after);
            let t_loss = interpolate((s_b, t_b), after, s);
            if force && self.pending < self.params.ndupack {
                self.stats.forced_losses += 1;
            }
            self.stats.lost += 1;
            // The losses this arrival reveals from s on (the gap up to `after`).
            let run = after.0.saturating_sub(s).max(1);
            self.register_loss(s, t_loss, run, out);
            self.base += 1;
            return true;
        }
        false
    }

    fn first_received_after(&self, s: u64) -> Option<(u64, Time)> {
        (s + 1..self.base + WIN)
            .find(|&q| bit(&self.received, q % WIN))
            .map(|q| (q, self.times[(q % WIN) as usize]))
    }

    /// `run`: the losses the same arrival reveals from `seq` on, `seq` included (ns-2 flags
    /// option).
    fn register_loss(&mut self, seq: u64, t: Time, run: u64, out: &mut PacketOutcome) {
        out.losses += 1;
        let flags = self.params.sp_ns2_flags();
        match self.open {
            None => {
                self.open = Some(OpenInterval {
                    start_seq: seq,
                    start_time: t,
                    losses: 1,
                    round: self.round,
                    seen_long: false,
                    skip: if flags { run - 1 } else { 0 },
                });
                out.new_loss_events += 1;
                out.first_loss_event = true;
                self.stats.loss_events += 1;
            }
            Some(ref mut cur) => {
                // RFC 5348 §5.2: a new loss event only if T_loss is more than one RTT after
                // the start of the current loss event. ns-2 option (PreciseLoss_): and only
                // if the arrival revealing it carries a newer sender round.
                let new_round = !self.params.new_round_per_event || self.round > cur.round;
                if t > cur.start_time + self.rtt && new_round {
                    let n = seq - cur.start_seq;
                    let d = t.saturating_since(cur.start_time);
                    let len = if flags {
                        // ns-2 option (ShortIntervals_ 1 flags): the whole gap revealed now is
                        // counted here; short unless a report saw it long, or if the next
                        // event starts less than 2 R after this one (new_loss()).
                        let k = (cur.losses as u64 + run).max(1);
                        let short = d < self.rtt.saturating_mul(2) || !cur.seen_long;
                        if short && self.rtt > Duration::ZERO {
                            ((n / k) as f64).max(1.0)
                        } else {
                            n as f64
                        }
                    } else if self.params.ns2_short_counting && self.params.small_packet.is_some() {
                        // ns-2 option: K + 1 losses (the loss opening the next interval is
                        // counted in this one too) and N/K rounded down (integer division).
                        let l = effective_length(
                            self.params.small_packet,
                            n,
                            cur.losses + 1,
                            d,
                            self.rtt,
                        );
                        if l < n as f64 {
                            libm::floor(l).max(1.0)
                        } else {
                            l
                        }
                    } else {
                        effective_length(self.params.small_packet, n, cur.losses, d, self.rtt)
                    };
                    self.push_closed(len);
                    self.open = Some(OpenInterval {
                        start_seq: seq,
                        start_time: t,
                        losses: 1,
                        round: self.round,
                        seen_long: false,
                        skip: if flags { run - 1 } else { 0 },
                    });
                    out.new_loss_events += 1;
                    self.stats.loss_events += 1;
                } else if cur.skip > 0 {
                    // ns-2 flags option: already counted in the interval that closed.
                    cur.skip -= 1;
                } else {
                    cur.losses += 1;
                }
            }
        }
    }

    fn push_closed(&mut self, len: f64) {
        self.closed.copy_within(0..N_INTERVALS - 1, 1);
        self.closed[0] = len;
        self.n_closed = (self.n_closed + 1).min(N_INTERVALS);
        if self.params.ns2_discount {
            // ns-2 (est_loss_WALI(): multiply_array(mult, mult_factor_), then the shift): the
            // open interval's factor stays on the older intervals; the new one has weight 1.
            for m in &mut self.mult {
                *m *= self.mult_factor;
            }
            self.mult.copy_within(0..N_INTERVALS - 1, 1);
            self.mult[0] = 1.0;
            self.mult_factor = 1.0;
        }
    }

    /// ns-2 discounting option: the weighted average of the closed intervals with their
    /// lasting discounts (`weighted_average1(1, ...)`).
    fn ns2_closed_average(&self) -> Option<f64> {
        let (mut num, mut den) = (0.0, 0.0);
        let n = self.n_closed;
        for ((w, m), len) in WEIGHTS.iter().zip(&self.mult[..n]).zip(&self.closed[..n]) {
            let w = w * m;
            num += w * len;
            den += w;
        }
        (den > 0.0).then(|| num / den)
    }

    /// Seeds the interval before the first loss event (RFC 5348 §6.3.1) with `len` packets
    /// (clamped to >= 1). Ignored unless exactly the first loss event is open and no closed
    /// interval exists yet.
    pub fn seed_first_interval(&mut self, len: f64) {
        if self.open.is_some() && self.n_closed == 0 {
            let len = if len.is_finite() { len.max(1.0) } else { 1e12 };
            self.push_closed(len);
        }
    }

    /// The number of packets before the first loss (the unseeded RFC 3448-style first
    /// interval), for a receiver that has no receive rate to seed with.
    pub fn packets_before_first_loss(&self) -> u64 {
        match self.open {
            Some(o) if self.n_closed == 0 => o.start_seq.saturating_sub(self.first_seq).max(1),
            _ => 0,
        }
    }

    /// Time since the start of the current interval, to `now` in the chosen time base.
    fn open_duration(&self, now: Time, o: &OpenInterval) -> Duration {
        let t_now = self.latest_time + now.saturating_since(self.latest_arrival);
        t_now.saturating_since(o.start_time)
    }

    /// ns-2 flags option: a report is being made at `now` (`est_loss_WALI()` clears the open
    /// interval's short flag when `now - lastloss > ShortRtts_*rtt_`). No effect otherwise.
    pub fn note_report(&mut self, now: Time) {
        let two_r = self.rtt.saturating_mul(2);
        if let Some(o) = self.open.as_mut() {
            if now.saturating_since(o.start_time) > two_r {
                o.seen_long = true;
            }
        }
        if self.params.ns2_discount {
            // ns-2 est_loss_WALI(): ratio = 2·average/sample[0], mult_factor_ = max(ratio,
            // minDiscountRatio_ 0.5) when the ratio is below 1.
            if let (Some(o), Some(ave)) = (self.open, self.ns2_closed_average()) {
                let n0 = self.highest.saturating_sub(o.start_seq);
                if n0 > 0 {
                    let ratio = 2.0 * ave / n0 as f64;
                    if ratio < 1.0 {
                        self.mult_factor = ratio.max(0.5);
                    }
                }
            }
        }
    }

    /// ns-2 flags option: whether the open interval is short for ns-2 at `now`.
    fn ns2_open_short(&self, now: Time, o: &OpenInterval) -> bool {
        !(o.seen_long || now.saturating_since(o.start_time) > self.rtt.saturating_mul(2))
    }

    /// The length of the open interval `I_0` as it would enter the average.
    pub fn open_interval(&self, now: Time) -> Option<f64> {
        let o = self.open?;
        if self.params.sp_ns2_flags() {
            // ns-2 option: sample[0] counts the packets after the event's first loss;
            // sample/losses (integer division) while short.
            let n = self.highest.saturating_sub(o.start_seq);
            let k = (o.losses as u64).max(1);
            return Some(
                if self.ns2_open_short(now, &o) && self.rtt > Duration::ZERO {
                    (n / k) as f64
                } else {
                    n as f64
                },
            );
        }
        let n = self.highest.saturating_sub(o.start_seq) + 1;
        let d = self.open_duration(now, &o);
        Some(effective_length(
            self.params.small_packet,
            n,
            o.losses,
            d,
            self.rtt,
        ))
    }

    /// RFC 5348 §5.4 average loss interval `I_mean` (None before the first loss event is
    /// seeded).
    pub fn average_interval(&self, now: Time) -> Option<f64> {
        let o = self.open?;
        let i0 = self.open_interval(now)?;
        // RFC 4828 §3: "the calculation of the average loss interval can include the most
        // recent loss interval only if more than two round-trip times have passed since the
        // beginning of that loss interval".
        let exclude = self.params.small_packet.is_some()
            && !self.params.sp_ns2_flags()
            && self.open_duration(now, &o) <= self.rtt.saturating_mul(2);
        if self.params.ns2_discount {
            // ns-2 option: I_tot0 with the closed weights scaled by mult_factor·mult[i],
            // I_tot1 with mult[i], each over its own weights (weighted_average1()).
            let k = self.n_closed;
            if k == 0 {
                return None;
            }
            let (mut n0, mut d0) = (WEIGHTS[0] * i0, WEIGHTS[0]);
            let n = k.min(N_INTERVALS - 1);
            for ((w, m), len) in WEIGHTS[1..]
                .iter()
                .zip(&self.mult[..n])
                .zip(&self.closed[..n])
            {
                let w = w * self.mult_factor * m;
                n0 += w * len;
                d0 += w;
            }
            let ave1 = self.ns2_closed_average()?;
            let ave0 = n0 / d0;
            return Some(if exclude { ave1 } else { ave0.max(ave1) });
        }
        average_loss_interval(i0, self.closed_intervals(), exclude)
    }

    /// The loss event rate `p = 1/I_mean` (RFC 5348 §5.4); 0 before any loss event.
    pub fn loss_event_rate(&self, now: Time) -> f64 {
        match self.average_interval(now) {
            Some(m) if m > 0.0 => (1.0 / m).min(1.0),
            _ => 0.0,
        }
    }
}

/// Interpolated loss time (RFC 5348 §5.2):
/// `T_loss = T_before + (T_after - T_before)·(S_loss - S_before)/(S_after - S_before)`,
/// in signed nanoseconds (reordering can make `T_after < T_before`), rounded to the nearest
/// nanosecond and clamped at zero.
fn interpolate(before: (u64, Time), after: (u64, Time), s_loss: u64) -> Time {
    let (s_b, t_b) = before;
    let (s_a, t_a) = after;
    if s_a <= s_b {
        return t_b;
    }
    let dt = t_a.as_nanos() as f64 - t_b.as_nanos() as f64;
    let frac = (s_loss - s_b) as f64 / (s_a - s_b) as f64;
    let t = t_b.as_nanos() as f64 + dt * frac;
    Time::from_nanos(if t <= 0.0 { 0 } else { libm::round(t) as u64 })
}

/// Length of an interval of `n` packets with `k` losses lasting `d` (RFC 4828 §3, App. C).
fn effective_length(
    rule: Option<ShortIntervalRule>,
    n: u64,
    k: u32,
    d: Duration,
    rtt: Duration,
) -> f64 {
    let n = n.max(1) as f64;
    let k = k.max(1) as f64;
    match rule {
        None => n,
        // An unknown RTT (zero) makes every interval long.
        Some(_) if rtt == Duration::ZERO => n,
        // RFC 4828 §3: "for small loss intervals of at most two round-trip times, if the
        // loss interval consists of N packets including K losses, the size of the loss
        // interval is calculated as N/K".
        Some(ShortIntervalRule::Step) => {
            if d <= rtt.saturating_mul(2) {
                n / k
            } else {
                n
            }
        }
        // RFC 4828 App. C: all losses at one RTT, 2/3 at two, 1/3 at three, one loss from
        // four RTTs on; linear in between.
        Some(ShortIntervalRule::Gradual) => {
            let rtts = d.as_nanos() as f64 / rtt.as_nanos() as f64;
            let f = ((4.0 - rtts) / 3.0).clamp(0.0, 1.0);
            n / (k * f).max(1.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Feeds packets `seqs` sent at `seq * 10 ms`, arriving 5 ms later, carrying R.
    fn feed(
        h: &mut LossHistory,
        seqs: impl IntoIterator<Item = u64>,
        rtt_ms: u64,
    ) -> PacketOutcome {
        let mut total = PacketOutcome::default();
        for s in seqs {
            let o = h.on_packet(
                Time(s * 10 * MS + 5 * MS),
                s,
                Time(s * 10 * MS),
                Some(Duration(rtt_ms * MS)),
                false,
                0,
            );
            total.losses += o.losses;
            total.new_loss_events += o.new_loss_events;
            total.first_loss_event |= o.first_loss_event;
            total.late_or_duplicate |= o.late_or_duplicate;
        }
        total
    }

    #[test]
    fn average_loss_interval_hand_computed() {
        // I_1..I_8 = 100, 80, 60, 120, 90, 70, 110, 50; W_tot = 1+1+1+1+.8+.6+.4+.2 = 6
        // I_tot1 = 100+80+60+120 + 90*.8+70*.6+110*.4+50*.2 = 360+72+42+44+10 = 528 -> 88
        let closed = [100.0, 80.0, 60.0, 120.0, 90.0, 70.0, 110.0, 50.0];
        // I_0 = 30: I_tot0 = 30+100+80+60 + 120*.8+90*.6+70*.4+110*.2 = 270+96+54+28+22 = 470
        // max(470, 528)/6 = 88
        assert_eq!(average_loss_interval(30.0, &closed, false), Some(88.0));
        // I_0 = 300: I_tot0 = 300+240+96+54+28+22 = 740 -> 740/6 = 123.33
        let m = average_loss_interval(300.0, &closed, false).unwrap();
        assert!((m - 740.0 / 6.0).abs() < 1e-12);
        // TFRC-SP with a short current interval: I_tot = I_tot1 = 528 -> 88 even with I_0 = 300.
        assert_eq!(average_loss_interval(300.0, &closed, true), Some(88.0));
        // Fewer than n intervals: k = 1: W_tot = 1, I_tot0 = I_0, I_tot1 = I_1.
        assert_eq!(average_loss_interval(10.0, &[40.0], false), Some(40.0));
        assert_eq!(average_loss_interval(50.0, &[40.0], false), Some(50.0));
        // k = 2: I_0 = 10, I_1 = 20, I_2 = 60: I_tot0 = 30, I_tot1 = 80, W_tot = 2 -> 40.
        assert_eq!(
            average_loss_interval(10.0, &[20.0, 60.0], false),
            Some(40.0)
        );
        assert_eq!(average_loss_interval(10.0, &[], false), None);
    }

    #[test]
    fn no_loss_no_rate() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        let o = feed(&mut h, 0..50, 100);
        assert_eq!(o, PacketOutcome::default());
        assert_eq!(h.loss_event_rate(Time(600 * MS)), 0.0);
        assert_eq!(h.highest_seq(), 49);
    }

    #[test]
    fn ndupack_three_packets_after_the_hole() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        // 0..=4, then 6, 7: seq 5 is not yet lost (2 packets after it).
        assert_eq!(feed(&mut h, (0..5).chain([6, 7]), 100).losses, 0);
        assert!(!h.has_loss());
        // 8 is the third packet above 5: 5 is lost now, first loss event.
        let o = feed(&mut h, [8], 100);
        assert_eq!(
            (o.losses, o.new_loss_events, o.first_loss_event),
            (1, 1, true)
        );
        assert_eq!(h.current_event_start(), Some(5));
        // A late 5 does not undo the loss.
        assert!(feed(&mut h, [5], 100).late_or_duplicate);
        assert_eq!(h.stats().lost, 1);
    }

    #[test]
    fn reordering_within_ndupack_is_not_a_loss() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        assert_eq!(feed(&mut h, [0, 1, 2, 4, 5, 3, 6, 7, 8, 9], 100).losses, 0);
        assert_eq!(h.stats().late_or_duplicate, 0);
        assert_eq!(feed(&mut h, [9], 100).losses, 0);
        assert_eq!(h.stats().late_or_duplicate, 1);
    }

    #[test]
    fn loss_time_interpolation_and_one_rtt_events() {
        // R = 100 ms, sender timestamps seq*10 ms. Losses at 5 (T=50 ms), 12 (T=120 ms),
        // 20 (T=200 ms), 23 (T=230 ms).
        // 12: 120 > 50+100? no -> same event. 20: 200 > 150 -> new event, closed interval
        // I_1 = 20 - 5 = 15 packets. 23: 230 > 300? no -> same event.
        let mut h = LossHistory::new(LossHistoryParams::standard());
        let lost = [5u64, 12, 20, 23];
        let o = feed(&mut h, (0..40).filter(|s| !lost.contains(s)), 100);
        assert_eq!((o.losses, o.new_loss_events), (4, 2));
        assert_eq!(h.closed_intervals(), &[15.0]);
        assert_eq!(h.current_event_start(), Some(20));
        // I_0 = 39 - 20 + 1 = 20; I_mean = max(I_0*1, I_1*1)/1 = 20, p = 0.05.
        assert_eq!(h.loss_event_rate(Time(400 * MS)), 0.05);
    }

    #[test]
    fn interpolation_over_a_burst() {
        // Received 9 (T=90), lost 10..=12, received 13.. (T=130). T_loss(11) =
        // 90 + 40*(11-9)/(13-9) = 110 ms.
        assert_eq!(
            interpolate((9, Time(90 * MS)), (13, Time(130 * MS)), 11),
            Time(110 * MS)
        );
        // Reordered "after" earlier than "before": still linear.
        assert_eq!(
            interpolate((9, Time(90 * MS)), (13, Time(50 * MS)), 10),
            Time(80 * MS)
        );
    }

    #[test]
    fn seeding_the_first_interval() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        let o = feed(&mut h, (0..30).filter(|&s| s != 10), 100);
        assert!(o.first_loss_event);
        // Unseeded: no closed interval, p = 0; the raw count before the loss is 10.
        assert_eq!(h.loss_event_rate(Time(300 * MS)), 0.0);
        assert_eq!(h.packets_before_first_loss(), 10);
        h.seed_first_interval(200.0);
        // I_0 = 29 - 10 + 1 = 20, I_1 = 200 -> I_mean = 200, p = 0.005.
        assert_eq!(h.loss_event_rate(Time(300 * MS)), 0.005);
        // A second seed is ignored.
        h.seed_first_interval(5.0);
        assert_eq!(h.closed_intervals(), &[200.0]);
    }

    #[test]
    fn ecn_mark_is_a_loss_at_its_own_time() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        for s in 0..10u64 {
            let o = h.on_packet(Time(s * 10 * MS), s, Time(s * 10 * MS), None, s == 4, 0);
            assert_eq!(o.first_loss_event, s == 4);
        }
        assert_eq!(h.stats().marked, 1);
        assert_eq!(h.current_event_start(), Some(4));
    }

    #[test]
    fn sp_short_interval_counts_every_loss() {
        // R = 100 ms. Event A starts at seq 5 (T=50) with losses 5, 7, 9 (T <= 150);
        // event B starts at seq 20 (T=200 > 150). Interval A: N = 15, K = 3, duration
        // 150 ms <= 2R -> length N/K = 5 (standard TFRC: 15).
        let lost = [5u64, 7, 9, 20];
        let mut sp = LossHistory::new(LossHistoryParams::small_packet(ShortIntervalRule::Step));
        feed(&mut sp, (0..30).filter(|s| !lost.contains(s)), 100);
        assert_eq!(sp.closed_intervals(), &[5.0]);
        let mut std = LossHistory::new(LossHistoryParams::standard());
        feed(&mut std, (0..30).filter(|s| !lost.contains(s)), 100);
        assert_eq!(std.closed_intervals(), &[15.0]);
    }

    #[test]
    fn sp_long_interval_counts_one_loss() {
        // Losses 5, 7 (event A, T=50, 70) and 30 (T=300): duration 250 ms > 2R = 200 ms ->
        // long: length N = 25 for both variants.
        let lost = [5u64, 7, 30];
        let mut sp = LossHistory::new(LossHistoryParams::small_packet(ShortIntervalRule::Step));
        feed(&mut sp, (0..40).filter(|s| !lost.contains(s)), 100);
        assert_eq!(sp.closed_intervals(), &[25.0]);
    }

    #[test]
    fn sp_gradual_rule() {
        // App. C with R = 100 ms, K = 3 losses (5, 6, 7) at the start of the interval.
        // Next event at seq 5+N, T = (5+N)*10 ms, duration d = N*10 ms.
        // (N = 10 would be exactly 1 RTT after the start: not *more* than one RTT, same event.)
        // N = 11 (1.1 RTT): f = 2.9/3, K f = 2.9 -> 11/2.9; N = 20 (2 RTT): f = 2/3, K f = 2 -> 10;
        // N = 30 (3 RTT): f = 1/3 -> K f = 1 -> 30; N = 25 (2.5 RTT): f = 0.5, K f = 1.5 -> 16.67;
        // N = 45: f = 0 -> 45.
        for (n, want) in [
            (11u64, 11.0 / 2.9),
            (20, 10.0),
            (30, 30.0),
            (25, 25.0 / 1.5),
            (45, 45.0),
        ] {
            let lost = [5u64, 6, 7, 5 + n];
            let mut h =
                LossHistory::new(LossHistoryParams::small_packet(ShortIntervalRule::Gradual));
            feed(&mut h, (0..5 + n + 10).filter(|s| !lost.contains(s)), 100);
            let got = h.closed_intervals()[0];
            assert!((got - want).abs() < 1e-9, "N={n}: {got} vs {want}");
        }
    }

    #[test]
    fn sp_excludes_short_current_interval() {
        // Closed I_1 = 100 (seeded). Current event starts at seq 20 (T=200 ms).
        // Standard: I_0 counted once larger. SP: excluded while <= 2R have passed.
        let mk = |p: LossHistoryParams| {
            let mut h = LossHistory::new(p);
            feed(&mut h, (0..250).filter(|&s| s != 20), 100);
            h.seed_first_interval(100.0);
            h
        };
        let std = mk(LossHistoryParams::standard());
        let sp = mk(LossHistoryParams::small_packet(ShortIntervalRule::Step));
        // Last packet 249 sent at 2490 ms, arrived at 2495 ms. I_0 = 249 - 20 + 1 = 230.
        // At now = 2495 ms the interval is 2.29 s old > 2R: both use max(230, 100) -> 230.
        let now = Time(2495 * MS);
        assert_eq!(std.average_interval(now), Some(230.0));
        assert_eq!(sp.average_interval(now), Some(230.0));
        // Same history but queried while the interval is young: feed only to seq 35.
        let mk2 = |p: LossHistoryParams| {
            let mut h = LossHistory::new(p);
            feed(&mut h, (0..36).filter(|&s| s != 20), 100);
            h.seed_first_interval(10.0);
            h
        };
        // I_0 = 35 - 20 + 1 = 16, I_1 = 10. At 355 ms the interval (start T=200) is 155 ms old.
        let now = Time(355 * MS);
        assert_eq!(
            mk2(LossHistoryParams::standard()).average_interval(now),
            Some(16.0)
        );
        let sp2 = mk2(LossHistoryParams::small_packet(ShortIntervalRule::Step));
        assert_eq!(sp2.average_interval(now), Some(10.0));
        // At 405 ms it is exactly 2R = 200 ms old: still excluded ("more than two RTTs").
        assert_eq!(sp2.average_interval(Time(405 * MS)), Some(10.0));
        // At 410 ms (no new packet) it is 205 ms old > 2R: I_0 = 16 included again.
        assert_eq!(sp2.average_interval(Time(410 * MS)), Some(16.0));
    }

    /// Feeds `0..n` without `lost`, sender timestamps `seq * 10 ms`, R = 5 ms, the sender
    /// round of each packet given by `round(seq)`.
    fn feed_rounds(h: &mut LossHistory, n: u64, lost: &[u64], round: impl Fn(u64) -> u64) {
        for s in (0..n).filter(|s| !lost.contains(s)) {
            let t = Time(s * 10 * MS);
            h.on_packet(t, s, t, Some(Duration(5 * MS)), false, round(s));
        }
    }

    #[test]
    fn ns2_rounds_merge_losses_revealed_together() {
        // Lost 10, 11 (T = 100, 110 ms), 20 (T = 200) and 30 (T = 300); R = 5 ms, so under
        // RFC 5348 §5.2 each loss is more than R after the previous event start: 4 events,
        // closed intervals 11-10 = 1, 20-11 = 9, 30-20 = 10 (most recent first).
        let lost = [10u64, 11, 20, 30];
        let round = |s: u64| match s {
            0..=12 => 0,
            13..=25 => 1, // 10 and 11 are both revealed by the arrival of 14 (round 1)
            _ => 2,       // 20 revealed by 23 (round 1), 30 by 33 (round 2)
        };
        let mut rfc = LossHistory::new(LossHistoryParams::standard());
        feed_rounds(&mut rfc, 40, &lost, round);
        assert_eq!(rfc.closed_intervals(), &[10.0, 9.0, 1.0]);
        // ns-2 (PreciseLoss_): 11 is revealed by the same arrival as 10 (round 1, not newer):
        // same event. 20: round 1 again (revealed by 23) -> same event although 100 ms later.
        // 30: round 2 > 1 -> new event. One closed interval 30 - 10 = 20 with 3 losses.
        // (The round rule alone, with NDUPACK = 3 as in the rounds above.)
        let rounds_only = Ns2Compat {
            loss_event_needs_new_round: true,
            ..Ns2Compat::RFC
        };
        let ns2 = LossHistoryParams::standard().with_ns2(rounds_only);
        assert!(ns2.new_round_per_event());
        assert_eq!(ns2.ndupack(), NDUPACK);
        let mut h = LossHistory::new(ns2);
        feed_rounds(&mut h, 40, &lost, round);
        assert_eq!(h.closed_intervals(), &[20.0]);
        assert_eq!((h.stats().lost, h.stats().loss_events), (4, 2));
        assert_eq!(h.current_event_start(), Some(30));
    }

    #[test]
    fn ns2_loss_at_first_later_packet() {
        // Packets every 10 ms, R = 5 ms; 10 and 20 lost.
        let only = Ns2Compat {
            loss_at_first_later_packet: true,
            ..Ns2Compat::RFC
        };
        let params = LossHistoryParams::standard().with_ns2(only);
        assert_eq!(params.ndupack(), 1);
        assert!(!params.new_round_per_event());
        let mut rfc = LossHistory::new(LossHistoryParams::standard());
        let mut h = LossHistory::new(params);
        feed(&mut rfc, 0..10, 5);
        feed(&mut h, 0..10, 5);
        // ns-2 (numPkts_ 1): the arrival of 11 reveals 10 at once, loss time interpolated
        // between 9 and 11: 100 ms.
        let o = feed(&mut h, [11], 5);
        assert_eq!(
            (o.losses, o.new_loss_events, o.first_loss_event),
            (1, 1, true)
        );
        assert_eq!(h.current_event_start(), Some(10));
        // RFC 5348 §5.1: 10 is lost only once NDUPACK = 3 later packets have arrived: 11, 12
        // reveal nothing, 13 does.
        assert_eq!(feed(&mut rfc, [11, 12], 5).losses, 0);
        assert_eq!(rfc.current_event_start(), None);
        assert_eq!(feed(&mut rfc, [13], 5).losses, 1);
        assert_eq!(rfc.current_event_start(), Some(10));
        feed(&mut h, [12, 13], 5);
        // Up to 19 both agree; the arrival of 21 reveals 20 for ns-2 only (200 ms, more than
        // R after 100 ms): closed interval 20 - 10 = 10, open I_0 = 21 - 20 + 1 = 2. RFC: 20
        // still undecided, I_0 = 21 - 10 + 1 = 12 and no closed interval.
        feed(&mut rfc, 14..20, 5);
        feed(&mut h, 14..20, 5);
        let (o_rfc, o_ns2) = (feed(&mut rfc, [21], 5), feed(&mut h, [21], 5));
        assert_eq!((o_rfc.losses, o_ns2.losses), (0, 1));
        assert_eq!(h.closed_intervals(), &[10.0]);
        assert_eq!(rfc.closed_intervals(), &[] as &[f64]);
        let now = Time(215 * MS);
        assert_eq!(h.open_interval(now), Some(2.0));
        assert_eq!(rfc.open_interval(now), Some(12.0));
        // The RFC history catches up at 23 (21, 22, 23 above 20).
        assert_eq!(feed(&mut rfc, [22, 23], 5).losses, 1);
        assert_eq!(rfc.closed_intervals(), &[10.0]);
    }

    #[test]
    fn ns2_sp_short_counting() {
        // TFRC-SP, R = 100 ms: event A at 5 with losses 5, 7, 9 (K = 3), next event at 20
        // (N = 15, 150 ms <= 2R: short). RFC 4828 §3: 15/3 = 5. ns-2: 15/(3+1) = 3.75,
        // rounded down to 3.
        let lost = [5u64, 7, 9, 20];
        let only = Ns2Compat {
            sp_ns2_short_counting: true,
            ..Ns2Compat::RFC
        };
        let p = LossHistoryParams::small_packet(ShortIntervalRule::Step).with_ns2(only);
        let mut h = LossHistory::new(p);
        feed(&mut h, (0..30).filter(|s| !lost.contains(s)), 100);
        assert_eq!(h.closed_intervals(), &[3.0]);
        // Long intervals are untouched: losses 5, 7 and 30 (250 ms > 2R): N = 25.
        let lost = [5u64, 7, 30];
        let mut h = LossHistory::new(p);
        feed(&mut h, (0..40).filter(|s| !lost.contains(s)), 100);
        assert_eq!(h.closed_intervals(), &[25.0]);
        // Standard TFRC ignores the SP option.
        let lost = [5u64, 7, 9, 20];
        let mut h = LossHistory::new(LossHistoryParams::standard().with_ns2(only));
        feed(&mut h, (0..30).filter(|s| !lost.contains(s)), 100);
        assert_eq!(h.closed_intervals(), &[15.0]);
    }

    #[test]
    fn ns2_sp_short_flags() {
        // TFRC-SP, R = 100 ms, packets every 10 ms: event A at 5; event B starts with the run
        // 20, 21 (revealed by the arrival of 22); event C at 40 (200 ms after B: not short by
        // time, `< 2R` being ns-2's test).
        let lost = [5u64, 20, 21, 40];
        let counting = Ns2Compat {
            sp_ns2_short_counting: true,
            ..Ns2Compat::RFC
        };
        let flags = Ns2Compat {
            sp_ns2_short_flags: true,
            ..counting
        };
        let sp = LossHistoryParams::small_packet(ShortIntervalRule::Step);
        // Option 5 alone: A has K = 1 + 1 (15/2 -> 7), B K = 2 + 1 and 200 ms <= 2R is short
        // for RFC 4828 (20/3 -> 6).
        let mut h = LossHistory::new(sp.with_ns2(counting));
        feed(&mut h, (0..45).filter(|s| !lost.contains(s)), 100);
        assert_eq!(h.closed_intervals(), &[6.0, 7.0]);
        // With the flags: the run's second loss is counted in A (K = 1 + 2: 15/3 = 5), B
        // starts with one loss (K = 1 + 1) and, never seen long by a report, is short:
        // 20/2 = 10.
        let mut h = LossHistory::new(sp.with_ns2(flags));
        feed(&mut h, (0..45).filter(|s| !lost.contains(s)), 100);
        assert_eq!(h.closed_intervals(), &[10.0, 5.0]);
        // A report at 405 ms (receiver clock), 205 ms after B's first loss was sent, sees B
        // long: it closes at its full length 20.
        let mut h = LossHistory::new(sp.with_ns2(flags));
        feed(&mut h, (0..40).filter(|s| !lost.contains(s)), 100);
        h.note_report(Time(405 * MS));
        feed(&mut h, 41..45, 100);
        assert_eq!(h.closed_intervals(), &[20.0, 5.0]);
        // The open interval (C, packets 41..44 after its first loss, one loss) is short and
        // enters the average (no exclusion with ShortIntervals_ 1): max(I_tot0, I_tot1).
        let i0 = h.open_interval(Time(445 * MS)).unwrap();
        assert_eq!(i0, 4.0);
        let want = average_loss_interval(4.0, &[20.0, 5.0], false).unwrap();
        assert_eq!(h.average_interval(Time(445 * MS)), Some(want));
    }

    #[test]
    fn ns2_history_discounting() {
        // Standard TFRC, R = 50 ms, losses at 10, 20, .., 90: eight closed intervals of 10.
        let only = Ns2Compat {
            history_discounting: true,
            ..Ns2Compat::RFC
        };
        let lost: Vec<u64> = (1..10).map(|k| k * 10).collect();
        let mut rfc = LossHistory::new(LossHistoryParams::standard());
        let mut ns2 = LossHistory::new(LossHistoryParams::standard().with_ns2(only));
        for h in [&mut rfc, &mut ns2] {
            feed(h, (0..=150).filter(|s| !lost.contains(s)), 50);
            assert_eq!(h.closed_intervals(), &[10.0; 8]);
        }
        let now = Time(1505 * MS);
        // I_0 = 150 - 90 + 1 = 61. RFC 5348 §5.4: (61 + 10 x 5.0)/6 = 18.5.
        rfc.note_report(now);
        assert_eq!(rfc.average_interval(now), Some(18.5));
        // ns-2: sample[0] = 60 > 2 x 10, so the closed intervals' weights are scaled by
        // max(2 x 10/60, 0.5) = 0.5: (61 + 0.5 x 10 x 5.0)/(1 + 0.5 x 5.0) = 86/3.5.
        ns2.note_report(now);
        assert_eq!(ns2.average_interval(now), Some(86.0 / 3.5));
        // A loss at 151 closes that interval (61); the factor stays on the older intervals.
        for h in [&mut rfc, &mut ns2] {
            feed(h, 152..156, 50);
            assert_eq!(&h.closed_intervals()[..2], &[61.0, 10.0]);
        }
        let now = Time(1555 * MS);
        // Without I_0: RFC (61 + 10 x 5.0)/6 = 18.5; ns-2 (61 + 0.5 x 10 x 5.0)/3.5.
        assert_eq!(
            average_loss_interval(0.0, rfc.closed_intervals(), true),
            Some(111.0 / 6.0)
        );
        assert_eq!(ns2.average_interval(now), Some(86.0 / 3.5));
    }

    #[test]
    fn eight_intervals_kept() {
        // Losses every 20 packets (T every 200 ms > R = 100 ms): each one a new event.
        let mut h = LossHistory::new(LossHistoryParams::standard());
        feed(&mut h, (0..400).filter(|s| s % 20 != 10), 100);
        h.seed_first_interval(1000.0); // ignored: already 19 closed intervals
        assert_eq!(h.closed_intervals(), &[20.0; 8]);
        // I_0 = 399 - 390 + 1 = 10 < 20: I_mean = 20, p = 0.05.
        assert_eq!(h.loss_event_rate(Time(4000 * MS)), 0.05);
        assert_eq!(h.stats().loss_events, 20);
    }

    #[test]
    fn far_jump_forces_the_window() {
        let mut h = LossHistory::new(LossHistoryParams::standard());
        feed(&mut h, [0, 1, 2, 400], 100);
        // 3..=143 had to be decided to make room for 400 (window 256): forced losses.
        assert!(h.stats().lost >= 141);
        assert!(h.stats().forced_losses > 0);
        assert!(h.has_loss());
    }

    #[test]
    fn params_validation() {
        assert!(LossHistoryParams::new(0, LossTimeBase::Arrival, None).is_err());
        assert!(LossHistoryParams::new(65, LossTimeBase::Arrival, None).is_err());
        assert_eq!(
            LossHistoryParams::new(3, LossTimeBase::SenderTimestamp, None),
            Ok(LossHistoryParams::standard())
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Random loss/reorder patterns: every packet is classified exactly once, p is a
        /// probability, closed intervals are >= 1 packet.
        #[test]
        fn classification_conserves_packets(
            drops in proptest::collection::vec(0u8..10, 1..400),
            swaps in proptest::collection::vec(0usize..400, 0..20),
            sp in proptest::bool::ANY,
        ) {
            let params = if sp {
                LossHistoryParams::small_packet(ShortIntervalRule::Step)
            } else {
                LossHistoryParams::standard()
            };
            let mut h = LossHistory::new(params);
            let mut order: Vec<u64> = (0..drops.len() as u64).filter(|&s| s == 0 || drops[s as usize] != 0).collect();
            for &i in &swaps {
                if i + 1 < order.len() && i > 0 { order.swap(i, i + 1); }
            }
            for &s in &order {
                h.on_packet(Time(s * 10 * MS + 5 * MS), s, Time(s * 10 * MS), Some(Duration(50 * MS)), false, 0);
                let p = h.loss_event_rate(Time(s * 10 * MS + 5 * MS));
                proptest::prop_assert!((0.0..=1.0).contains(&p));
            }
            let st = h.stats();
            // decided = received-in-order + late + lost <= highest - first + 1
            let span = h.highest_seq() - h.first_seq() + 1;
            proptest::prop_assert!(st.lost <= span);
            proptest::prop_assert_eq!(st.packets, order.len() as u64);
            for &l in h.closed_intervals() {
                proptest::prop_assert!(l >= 1.0);
            }
        }
    }
}
