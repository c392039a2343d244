//! RED — Random Early Detection (S. Floyd, V. Jacobson, "Random Early Detection Gateways
//! for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993), following the behaviour of ns-2's
//! `queue/red.cc`, which the seeds' simulations ran.
//!
//! # The algorithm (Floyd & Jacobson §4, Fig. 2)
//! On each arrival:
//! 1. update the average queue `avg ← (1 − w_q)·avg + w_q·q` (§4, eq. 1), where `q` is the
//!    occupancy *before* the arriving packet is added; after an idle period of length `t`
//!    the average first decays as if `m = ⌊t / idle_pkt_time⌋` empty-queue samples had been
//!    taken: `avg ← (1 − w_q)^m · avg` (§4, "when the queue is empty");
//! 2. if `min_th ≤ avg < max_th`: `p_b = max_p·(avg − min_th)/(max_th − min_th)` and the
//!    packet is dropped (or ECN-marked) with `p_a = p_b / (1 − count·p_b)` (§4, "count");
//! 3. if `avg ≥ max_th`: the packet is dropped ("forced").
//!
//! The gentle variant (Floyd, "Recommendation on using the gentle_ variant of RED", 2000;
//! ns-2 `gentle_`) replaces step 3 by a second linear piece: between `max_th` and
//! `2·max_th`, `p_b` rises from `max_p` to 1; only at `avg ≥ 2·max_th` is the drop forced.
//!
//! # Choices the paper leaves open (all follow ns-2 `red.cc` unless said otherwise)
//! * **Sample point.** The average is updated on every arrival with the queue length seen
//!   by that arrival, before it is added (ns-2 `enque`). Departures do not sample.
//! * **Idle periods.** The queue is idle from the first [`Red::on_departure`] that leaves it
//!   empty until the next arrival. That arrival computes `m = ⌊idle / idle_pkt_time⌋`
//!   (integer division of nanoseconds; ns-2: `int(ptc·(now − idletime))`) and then does
//!   the normal update, so the total factor is `(1 − w_q)^(m+1)` (ns-2's estimator with
//!   `m + 1`; the paper applies only `(1 − w_q)^m`). `(1 − w_q)^m` is computed with
//!   `libm::pow` rather than ns-2's loop of `m` multiplications (same value up to rounding,
//!   O(1) time). ns-2 starts the idle period when the link finishes its last packet and
//!   finds the queue empty: an engine that wants exactly that calls `on_departure` at that
//!   instant; calling it when the last packet starts its transmission makes every idle
//!   period one transmission time longer. The state starts idle at time zero.
//! * **Count.** `count` is incremented on every arrival and reset to 0 by every early or
//!   forced drop and every mark. When `avg` enters the early region (or re-enters it after
//!   the instantaneous queue was nearly empty), that first packet is never dropped and
//!   `count` is set to 1 (ns-2's `old` flag); the paper instead starts with `count = 0` and
//!   may drop that packet with `p_a = p_b`. The caller may call [`Red::on_overflow`] when it
//!   drops an admitted packet for lack of buffer, which resets `count` as ns-2 does.
//! * **Nearly empty queue.** No early or forced drop happens while the instantaneous queue
//!   (in the measuring unit) holds at most 1 (ns-2: `qlen > 1`); such an arrival also
//!   leaves the early region (`old = 0`).
//! * **`wait`** (ns-2 `wait_`, default true there, false here): if set, the spreading is
//!   `p_a = 0` while `count·p_b < 1`, `p_b/(2 − count·p_b)` while `count·p_b < 2`, and 1
//!   after, which makes the gap between drops uniform on `[1/p_b, 2/p_b]` instead of
//!   `[1, 1/p_b]`. Without it, `p_a = p_b/(1 − count·p_b)`, or 1 once `count·p_b ≥ 1`.
//! * **Byte mode** (`byte_mode`, ns-2 `bytes_`): the paper scales `p_b` by
//!   `size / max_size` *before* the count spreading; ns-2 (and we) spread first, with the
//!   count measured in mean-size packets (`⌊count_bytes / mean_pkt_size⌋`, integer
//!   division as in ns-2), and then scale: `p_a ← p_a·size/mean_pkt_size` if `p_a < 1`,
//!   capped at 1. Byte mode is independent of the unit in which the queue is measured
//!   ([`QueueUnit`]); the thresholds are in that unit.
//! * **Random draw.** One uniform `u ∈ [0, 1)` is drawn for every arrival in the early
//!   region after the first (also when `p_a` is 0 or 1, as ns-2 does, so the stream's use
//!   does not depend on `p_a`); the packet is dropped if `u < p_a`, so the probability is
//!   exactly `p_a` (ns-2 uses `u ≤ p_a`).
//! * **ECN** ([`Ecn`]): no ECT bit exists in [`PacketView`], so all packets are taken to be
//!   ECN-capable when ECN is on. ns-2 (`setbit_`) marks only early (unforced, including
//!   gentle-region) drops and still drops forced ones: [`Ecn::MarkEarly`]. [`Ecn::MarkAll`]
//!   marks forced ones too. Marks reset `count` like drops.
//! * **Gentle slope.** `p_b = max_p + (1 − max_p)·(avg − max_th)/max_th` on
//!   `[max_th, 2·max_th)`, evaluated with the *current* `max_p` (ns-2 evaluates the gentle
//!   line with the initial `max_p` even when Adaptive RED has changed it: option
//!   [`RedConfig::ns2_gentle_initial_max_p`]).
//! * **Thresholds** `0 ≤ min_th < max_th` are required (ns-2 tolerates `min_th = max_th`
//!   with a division hack).
//!
//! # ns-2.35's `use_mark_p_` (option [`RedConfig::ns2_use_mark_p`], off by default)
//! ns-2.35's `tcl/lib/ns-default.tcl` sets `Queue/RED set use_mark_p_ true` (a late
//! addition: ns-2's own test suites set it back to false, "The default is being changed to
//! true"). With it, `red.cc`'s `enque` never takes the forced-drop branch at
//! `avg ≥ max_th` (`2·max_th` gentle): such an arrival goes through the early-drop code with
//! `p_b = 1` (`calculate_p_new`), the `old` rule, the count spreading and the byte-mode
//! scaling. With `wait` and byte mode the spreading gives `p_a = 0` until `count_bytes`
//! reaches one mean packet size since the last drop, so above `max_th` small packets pass
//! between drops instead of being dropped every time (issue 14, finding 12: TFRC-SP's
//! drop rate at RFC 4828 B.4's byte-mode RED halves). In packet mode the outcome is the
//! same as a forced drop (count ≥ 1 gives `p_a = 1`) except for the `old` rule's first
//! packet. The paper (§4: "if max_th ≤ avg: mark the arriving packet") and ns-2 before this
//! default force the drop, which stays our default. ns-2 also uses `mark_p_` to mark only
//! while `p_b ≤ mark_p_` under ECN; that part is not modelled, so the option is refused
//! with ECN.

use super::AqmStats;
use crate::{Color, ConfigError, DropReason, Duration, PacketView, QueueView, RandomSource};
use crate::{Time, Verdict};

/// The unit in which the instantaneous and average queue, and thus the thresholds, are
/// measured (ns-2 `queue_in_bytes_`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum QueueUnit {
    #[default]
    Packets,
    Bytes,
}

impl QueueUnit {
    /// The whole queue's length in this unit.
    pub fn total(self, q: &QueueView) -> u64 {
        match self {
            QueueUnit::Packets => q.pkts as u64,
            QueueUnit::Bytes => q.bytes,
        }
    }
    /// The length of colour `c`'s packets in this unit.
    pub fn of_color(self, q: &QueueView, c: Color) -> u64 {
        match self {
            QueueUnit::Packets => q.pkts_by_color[c.index()] as u64,
            QueueUnit::Bytes => q.bytes_by_color[c.index()],
        }
    }
}

/// What ECN does to RED's decisions (all packets are taken to be ECN-capable).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Ecn {
    /// No marking: early and forced decisions drop.
    #[default]
    Off,
    /// Early (probabilistic) decisions mark, forced ones drop (ns-2 `setbit_`, RFC 3168 §7).
    MarkEarly,
    /// Early and forced decisions both mark.
    MarkAll,
}

/// The settings of a RED queue, before validation by [`RedParams::new`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RedConfig {
    /// Minimum threshold, in [`unit`](Self::unit)s.
    pub min_th: f64,
    /// Maximum threshold, in [`unit`](Self::unit)s.
    pub max_th: f64,
    /// Drop probability at `avg = max_th` (ns-2 `1/linterm_`). Adaptive RED's initial value.
    pub max_p: f64,
    /// EWMA weight of the average queue, in (0, 1]; 1 makes the average instantaneous.
    pub w_q: f64,
    /// The gentle variant: `p_b` rises from `max_p` to 1 between `max_th` and `2·max_th`.
    pub gentle: bool,
    /// Unit in which queue lengths and thresholds are measured.
    pub unit: QueueUnit,
    /// Scale the drop probability by `size / mean_pkt_size` (ns-2 `bytes_`).
    pub byte_mode: bool,
    /// Mean packet size in bytes, used by byte mode and the byte-mode count.
    pub mean_pkt_size: u32,
    /// Mark instead of drop.
    pub ecn: Ecn,
    /// ns-2's `wait_` spreading (see the module documentation).
    pub wait: bool,
    /// Transmission time of a mean-size packet on the output link, the unit of idle decay
    /// (ns-2: `1/ptc`).
    pub idle_pkt_time: Duration,
    /// ns-2.35's default `use_mark_p_ true`: no forced drop at `avg ≥ max_th`; such
    /// arrivals take the early-drop path with `p_b = 1` (module documentation). Default
    /// false (the paper).
    pub ns2_use_mark_p: bool,
    /// ns-2's gentle line for Adaptive RED: from the *initial* `max_p` at `max_th` to 1 at
    /// `2·max_th`, whatever the adapted `max_p` (ns-2 `red.cc` computes `v_c`, `v_d` once
    /// in `reset()`), so `p_b` jumps at `max_th` from the adapted `max_p` to the initial
    /// one. Default false: the line starts at the current `max_p` (continuous; Floyd's
    /// gentle recommendation). No effect without Adaptive RED.
    pub ns2_gentle_initial_max_p: bool,
}

impl RedConfig {
    /// The four classic parameters and the idle unit; the rest defaults to packet-measured,
    /// non-gentle, packet-mode RED without ECN or `wait`, with a 500-byte mean packet
    /// (ns-2's `mean_pktsize_` default). Change fields with struct-update syntax.
    pub fn new(min_th: f64, max_th: f64, max_p: f64, w_q: f64, idle_pkt_time: Duration) -> Self {
        RedConfig {
            min_th,
            max_th,
            max_p,
            w_q,
            gentle: false,
            unit: QueueUnit::Packets,
            byte_mode: false,
            mean_pkt_size: 500,
            ecn: Ecn::Off,
            wait: false,
            idle_pkt_time,
            ns2_use_mark_p: false,
            ns2_gentle_initial_max_p: false,
        }
    }
}

/// Validated RED settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RedParams {
    cfg: RedConfig,
}

/// Checks one precedence's curve: thresholds, `max_p` and `w_q`.
pub(crate) fn validate_curve(
    min_th: f64,
    max_th: f64,
    max_p: f64,
    w_q: f64,
) -> Result<(), ConfigError> {
    if !(min_th.is_finite() && min_th >= 0.0) {
        return Err(ConfigError::out_of_range("min_th", min_th, "finite, >= 0"));
    }
    if !max_th.is_finite() {
        return Err(ConfigError::out_of_range("max_th", max_th, "finite"));
    }
    if min_th >= max_th {
        return Err(ConfigError::relation(
            "min_th < max_th",
            "Floyd & Jacobson 1993 §4",
            format!("min_th = {min_th}, max_th = {max_th}"),
        ));
    }
    if !(max_p > 0.0 && max_p <= 1.0) {
        return Err(ConfigError::out_of_range("max_p", max_p, "(0, 1]"));
    }
    if !(w_q > 0.0 && w_q <= 1.0) {
        return Err(ConfigError::out_of_range("w_q", w_q, "(0, 1]"));
    }
    Ok(())
}

/// Checks the settings shared by every precedence.
pub(crate) fn validate_shared(
    mean_pkt_size: u32,
    idle_pkt_time: Duration,
) -> Result<(), ConfigError> {
    if mean_pkt_size == 0 {
        return Err(ConfigError::out_of_range(
            "mean_pkt_size",
            mean_pkt_size,
            ">= 1 byte",
        ));
    }
    if idle_pkt_time == Duration::ZERO {
        return Err(ConfigError::out_of_range(
            "idle_pkt_time",
            idle_pkt_time,
            "> 0",
        ));
    }
    Ok(())
}

impl RedParams {
    /// Validates `cfg`: `0 ≤ min_th < max_th` (finite), `max_p ∈ (0, 1]`, `w_q ∈ (0, 1]`,
    /// `mean_pkt_size ≥ 1`, `idle_pkt_time > 0`.
    pub fn new(cfg: RedConfig) -> Result<RedParams, ConfigError> {
        validate_curve(cfg.min_th, cfg.max_th, cfg.max_p, cfg.w_q)?;
        validate_shared(cfg.mean_pkt_size, cfg.idle_pkt_time)?;
        if cfg.ns2_use_mark_p && cfg.ecn != Ecn::Off {
            // ns-2 marks under use_mark_p_ only while p_b <= mark_p_ (drops above): not
            // modelled, so the combination would not be ns-2's.
            return Err(ConfigError::relation(
                "ns2_use_mark_p without ECN",
                "ns-2.35 red.cc: with use_mark_p_, ECN marks only while p_b <= mark_p_ (not modelled)",
                "ns2_use_mark_p = true with ECN on".to_string(),
            ));
        }
        Ok(RedParams { cfg })
    }
    /// The validated settings.
    pub fn config(&self) -> &RedConfig {
        &self.cfg
    }
}

// ---------------------------------------------------------------------------------------
// The arithmetic shared by RED, Adaptive RED and RIO.
// ---------------------------------------------------------------------------------------

/// The average queue of one (virtual) queue and its idle bookkeeping (ns-2 `edv_.v_ave`,
/// `idle_`, `idletime_`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Estimator {
    pub(crate) avg: f64,
    /// Start of the current idle period, if the queue is idle.
    idle_since: Option<Time>,
}

impl Estimator {
    /// Average 0, idle since time zero (ns-2 `reset`).
    pub(crate) const fn new() -> Self {
        Estimator {
            avg: 0.0,
            idle_since: Some(Time::ZERO),
        }
    }

    /// One EWMA step with sample `q` at `now`. If the queue was idle, the average first
    /// decays by `(1 − w_q)^m`, `m = ⌊idle / idle_pkt_time⌋`. `ends_idle` is false only
    /// for RIO's sampling of a virtual queue that the arriving packet does not join: the
    /// idle period then continues from the instant up to which it has been accounted.
    pub(crate) fn sample(
        &mut self,
        now: Time,
        q: u64,
        w_q: f64,
        idle_pkt_time: Duration,
        ends_idle: bool,
    ) {
        let keep = 1.0 - w_q;
        let mut decayed = self.avg;
        if let Some(since) = self.idle_since {
            // Floyd & Jacobson §4: "m ← f(time − q_time); avg ← (1 − w_q)^m avg".
            // ns-2: m = int(ptc * (now - idletime_)), ptc = 1/idle_pkt_time.
            let m = now.saturating_since(since).as_nanos() / idle_pkt_time.as_nanos();
            // pow(x, 0) = 1 exactly (also for x = 0), so m = 0 leaves the average as it is.
            decayed *= libm::pow(keep, m as f64);
            self.idle_since = if ends_idle {
                None
            } else {
                Some(since + idle_pkt_time.saturating_mul(m))
            };
        }
        // Floyd & Jacobson §4, eq. (1): avg ← (1 − w_q)·avg + w_q·q.
        self.avg = keep * decayed + w_q * q as f64;
    }

    /// The queue was seen empty at `now`: an idle period starts unless one is running.
    pub(crate) fn note_empty(&mut self, now: Time) {
        if self.idle_since.is_none() {
            self.idle_since = Some(now);
        }
    }
}

/// The drop curve of one precedence, with its current `max_p`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Curve {
    pub(crate) min_th: f64,
    pub(crate) max_th: f64,
    pub(crate) max_p: f64,
    pub(crate) gentle: bool,
    /// The `max_p` the gentle line starts from at `max_th`: the current `max_p`, or with
    /// [`RedConfig::ns2_gentle_initial_max_p`] the initial one.
    pub(crate) gentle_max_p: f64,
}

impl Curve {
    /// The average from which drops are forced: `max_th`, or `2·max_th` when gentle.
    fn forced_from(&self) -> f64 {
        if self.gentle {
            2.0 * self.max_th
        } else {
            self.max_th
        }
    }

    /// `p_b` for an average in the early region `[min_th, forced_from)`.
    pub(crate) fn p_b(&self, avg: f64) -> f64 {
        let p = if avg < self.max_th {
            // Floyd & Jacobson §4: p_b ← max_p (avg − min_th)/(max_th − min_th).
            self.max_p * (avg - self.min_th) / (self.max_th - self.min_th)
        } else {
            // Gentle RED: p_b rises linearly from max_p at max_th to 1 at 2·max_th.
            let m = self.gentle_max_p;
            m + (1.0 - m) * (avg - self.max_th) / self.max_th
        };
        p.clamp(0.0, 1.0)
    }
}

/// Settings shared by all precedences of a queue that the drop decision needs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Shared {
    pub(crate) byte_mode: bool,
    pub(crate) mean_pkt_size: u32,
    pub(crate) wait: bool,
    pub(crate) ecn: Ecn,
    /// ns-2.35's `use_mark_p_`: no forced drops from the average (module documentation).
    pub(crate) ns2_use_mark_p: bool,
    /// A forced drop leaves `count` as it is (ns-2.35 `queue/rio.cc`, Out precedences:
    /// [`RioConfig::ns2_out_forced_keeps_count`](super::rio::RioConfig)); false = Floyd &
    /// Jacobson's `count ← 0`.
    pub(crate) forced_keeps_count: bool,
}

/// The spreading of drops since the last one (ns-2 `edv_.count`, `count_bytes`, `old`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct DropState {
    count: u64,
    count_bytes: u64,
    /// Whether the previous arrival was already in the early region (ns-2 `old`).
    in_region: bool,
}

impl DropState {
    pub(crate) fn reset_count(&mut self) {
        self.count = 0;
        self.count_bytes = 0;
    }

    /// What every arrival does first: counts itself (ns-2: `count` and `count_bytes` tally
    /// every arrival since the last drop), then, outside the early region (ns-2: no early
    /// or forced drop unless `avg >= min_th` and the queue holds more than one packet),
    /// leaves the region and passes. True if the packet passes here; [`decide`] goes on
    /// otherwise. Shared by [`decide`] and [`Red::judge`]'s short path (session 17), so
    /// both make exactly the same updates.
    #[inline(always)]
    pub(crate) fn arrive(&mut self, avg: f64, min_th: f64, inst: u64, size: u32) -> bool {
        self.count += 1;
        self.count_bytes += size as u64;
        if !(avg >= min_th && inst > 1) {
            self.in_region = false;
            return true;
        }
        false
    }
}

/// The drop decision before ECN is applied.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Outcome {
    Pass,
    Early,
    Forced,
}

/// The final drop probability `p_a` from `p_b` and the count (see the module docs).
pub(crate) fn p_a(p_b: f64, st: &DropState, size: u32, sh: &Shared) -> f64 {
    let count = if sh.byte_mode {
        // ns-2 modify_p: count in mean-size packets, integer division.
        (st.count_bytes / sh.mean_pkt_size as u64) as f64
    } else {
        st.count as f64
    };
    let cp = count * p_b;
    let mut p = if sh.wait {
        // ns-2 wait_: uniform inter-drop gap on [1/p_b, 2/p_b].
        if cp < 1.0 {
            0.0
        } else if cp < 2.0 {
            p_b / (2.0 - cp)
        } else {
            1.0
        }
    } else if cp < 1.0 {
        // Floyd & Jacobson §4: p_a ← p_b/(1 − count·p_b).
        p_b / (1.0 - cp)
    } else {
        1.0
    };
    if sh.byte_mode && p < 1.0 {
        // Byte mode: p ← p·PacketSize/MeanPacketSize (ns-2 order: after the spreading).
        p = p * size as f64 / sh.mean_pkt_size as f64;
    }
    p.min(1.0)
}

/// RED's decision for one arrival, given the average just updated and the instantaneous
/// length `inst` (before the arrival) of the queue that average measures.
pub(crate) fn decide<R: RandomSource>(
    st: &mut DropState,
    curve: &Curve,
    avg: f64,
    inst: u64,
    size: u32,
    sh: &Shared,
    rng: &mut R,
) -> Outcome {
    if st.arrive(avg, curve.min_th, inst, size) {
        return Outcome::Pass;
    }
    decide_in_region(st, curve, avg, size, sh, rng)
}

/// [`decide`] once the arrival is in the early region or beyond (`avg >= min_th`, queue
/// longer than one packet; its count already updated by [`DropState::arrive`]).
pub(crate) fn decide_in_region<R: RandomSource>(
    st: &mut DropState,
    curve: &Curve,
    avg: f64,
    size: u32,
    sh: &Shared,
    rng: &mut R,
) -> Outcome {
    let beyond = avg >= curve.forced_from();
    if beyond && !sh.ns2_use_mark_p {
        // Floyd & Jacobson §4: "else if max_th ≤ avg: mark the arriving packet; count ← 0"
        // (gentle: from 2·max_th). ns-2 rio.cc's Out branch keeps the count.
        if !sh.forced_keeps_count {
            st.reset_count();
        }
        return Outcome::Forced;
    }
    if !st.in_region {
        // ns-2: avg has just entered [min_th, ...): this packet passes, count restarts at 1.
        st.in_region = true;
        st.count = 1;
        st.count_bytes = size as u64;
        return Outcome::Pass;
    }
    // ns-2.35 use_mark_p_: beyond the forced threshold calculate_p_new gives p_b = 1.
    let p_b = if beyond { 1.0 } else { curve.p_b(avg) };
    let p = p_a(p_b, st, size, sh);
    // Floyd & Jacobson §4: "with probability p_a: mark the arriving packet; count ← 0".
    if rng.uniform() < p {
        st.reset_count();
        Outcome::Early
    } else {
        Outcome::Pass
    }
}

/// Turns an outcome into a verdict under the ECN policy, and counts it.
pub(crate) fn to_verdict(
    outcome: Outcome,
    ecn: Ecn,
    color: Color,
    stats: &mut AqmStats,
) -> Verdict {
    let c = color.index();
    match outcome {
        Outcome::Pass => Verdict::Enqueue,
        Outcome::Early if ecn != Ecn::Off => {
            stats.early_marks[c] += 1;
            Verdict::Mark(DropReason::Early)
        }
        Outcome::Early => {
            stats.early_drops[c] += 1;
            Verdict::Drop(DropReason::Early)
        }
        Outcome::Forced if ecn == Ecn::MarkAll => {
            stats.forced_marks[c] += 1;
            Verdict::Mark(DropReason::Forced)
        }
        Outcome::Forced => {
            stats.forced_drops[c] += 1;
            Verdict::Drop(DropReason::Forced)
        }
    }
}

// ---------------------------------------------------------------------------------------
// The RED queue.
// ---------------------------------------------------------------------------------------

/// The state of one RED queue (see the module documentation).
#[derive(Clone, Debug)]
pub struct Red {
    params: RedParams,
    est: Estimator,
    drop: DropState,
    /// Current `max_p` (changed only by Adaptive RED).
    max_p: f64,
    stats: AqmStats,
}

impl Red {
    pub fn new(params: RedParams) -> Red {
        Red {
            params,
            est: Estimator::new(),
            drop: DropState::default(),
            max_p: params.cfg.max_p,
            stats: AqmStats::default(),
        }
    }

    /// Decides on an arriving packet. `q` is the occupancy before the packet is added.
    /// The buffer limit is not checked here: the caller applies its
    /// [`QueueLimit`](super::QueueLimit) after an `Enqueue` or `Mark` verdict.
    pub fn on_arrival<R: RandomSource>(
        &mut self,
        now: Time,
        pkt: &PacketView,
        q: &QueueView,
        rng: &mut R,
    ) -> Verdict {
        self.sample(now, q);
        self.judge(pkt, q, rng)
    }

    /// Notes a departure; `q_after` is the occupancy after the packet left. An empty queue
    /// starts an idle period (unless one is running).
    pub fn on_departure(&mut self, now: Time, q_after: &QueueView) {
        if q_after.pkts == 0 {
            self.est.note_empty(now);
        }
    }

    /// The caller dropped a packet this queue had admitted, for lack of buffer: like
    /// ns-2's forced drop on overflow, this resets the count since the last drop.
    pub fn on_overflow(&mut self) {
        self.drop.reset_count();
    }

    /// Step 1: the average update (including idle decay).
    pub(crate) fn sample(&mut self, now: Time, q: &QueueView) {
        let c = &self.params.cfg;
        self.est
            .sample(now, c.unit.total(q), c.w_q, c.idle_pkt_time, true);
    }

    /// Steps 2 and 3: the decision, given the updated average. Always inlined into
    /// `on_arrival` (session 11: left to the compiler, it became a call of its own on every
    /// RED arrival once `decide` grew by one option, +1.3 % instructions on the RED bench
    /// dumbbell; `bench/README.md`).
    #[inline(always)]
    pub(crate) fn judge<R: RandomSource>(
        &mut self,
        pkt: &PacketView,
        q: &QueueView,
        rng: &mut R,
    ) -> Verdict {
        let c = &self.params.cfg;
        let inst = c.unit.total(q);
        // Below the early region (about two thirds of the arrivals on the RED bench
        // dumbbell) the packet passes with its count updated, as `decide` would do it:
        // answered before the curve and the shared settings are gathered (session 17).
        if self.drop.arrive(self.est.avg, c.min_th, inst, pkt.size) {
            return Verdict::Enqueue;
        }
        let curve = Curve {
            min_th: c.min_th,
            max_th: c.max_th,
            max_p: self.max_p,
            gentle: c.gentle,
            gentle_max_p: if c.ns2_gentle_initial_max_p {
                // ns-2 red.cc: v_c, v_d are set in reset() from the initial max_p.
                c.max_p
            } else {
                self.max_p
            },
        };
        let sh = Shared {
            byte_mode: c.byte_mode,
            mean_pkt_size: c.mean_pkt_size,
            wait: c.wait,
            ecn: c.ecn,
            ns2_use_mark_p: c.ns2_use_mark_p,
            forced_keeps_count: false,
        };
        let outcome = decide_in_region(&mut self.drop, &curve, self.est.avg, pkt.size, &sh, rng);
        to_verdict(outcome, sh.ecn, pkt.color, &mut self.stats)
    }

    pub(crate) fn set_max_p(&mut self, max_p: f64) {
        self.max_p = max_p;
    }

    /// The average queue, in the configured unit, as of the last arrival.
    pub fn avg(&self) -> f64 {
        self.est.avg
    }
    /// The current `max_p`.
    pub fn max_p(&self) -> f64 {
        self.max_p
    }
    pub fn params(&self) -> &RedParams {
        &self.params
    }
    /// Early/forced drops and marks so far, per colour.
    pub fn stats(&self) -> &AqmStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ScriptedUniform;
    use crate::Rng;
    use proptest::prelude::*;

    const PKT_TIME: Duration = Duration(1_000_000); // 1 ms per mean-size packet

    fn q_of(pkts: u32, size: u32) -> QueueView {
        let mut q = QueueView::EMPTY;
        for _ in 0..pkts {
            q.push(size, Color::Green);
        }
        q
    }

    fn red(cfg: RedConfig) -> Red {
        Red::new(RedParams::new(cfg).unwrap())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn rejects_each_broken_rule() {
        let ok = RedConfig::new(5.0, 15.0, 0.1, 0.002, PKT_TIME);
        assert!(RedParams::new(ok).is_ok());
        let rel = |cfg| matches!(RedParams::new(cfg), Err(ConfigError::Relation { .. }));
        let oor = |cfg, name: &str| matches!(RedParams::new(cfg), Err(ConfigError::OutOfRange { param, .. }) if param == name);
        assert!(rel(RedConfig { min_th: 15.0, ..ok }));
        assert!(rel(RedConfig { max_th: 4.0, ..ok }));
        assert!(oor(RedConfig { min_th: -1.0, ..ok }, "min_th"));
        assert!(oor(
            RedConfig {
                max_th: f64::INFINITY,
                ..ok
            },
            "max_th"
        ));
        assert!(oor(RedConfig { max_p: 0.0, ..ok }, "max_p"));
        assert!(oor(RedConfig { max_p: 1.5, ..ok }, "max_p"));
        assert!(oor(RedConfig { w_q: 0.0, ..ok }, "w_q"));
        assert!(oor(
            RedConfig {
                w_q: f64::NAN,
                ..ok
            },
            "w_q"
        ));
        assert!(oor(
            RedConfig {
                mean_pkt_size: 0,
                ..ok
            },
            "mean_pkt_size"
        ));
        assert!(oor(
            RedConfig {
                idle_pkt_time: Duration::ZERO,
                ..ok
            },
            "idle_pkt_time"
        ));
        let msg = RedParams::new(RedConfig { min_th: 20.0, ..ok })
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("min_th < max_th") && msg.contains("Floyd & Jacobson"),
            "{msg}"
        );
    }

    #[test]
    fn average_follows_the_ewma_over_arrivals() {
        // w_q = 0.5, arrivals back to back at t = 0 (no idle time has passed: m = 0).
        // avg0 = 0
        // arrival sees q=4: avg = 0.5*0   + 0.5*4 = 2
        // arrival sees q=2: avg = 0.5*2   + 0.5*2 = 2
        // arrival sees q=8: avg = 0.5*2   + 0.5*8 = 5
        // arrival sees q=0: avg = 0.5*5   + 0.5*0 = 2.5
        let mut r = red(RedConfig::new(100.0, 200.0, 0.1, 0.5, PKT_TIME));
        let mut rng = ScriptedUniform::new(&[0.5]);
        let t = Time::ZERO;
        for (qlen, want) in [(4, 2.0), (2, 2.0), (8, 5.0), (0, 2.5)] {
            assert_eq!(
                r.on_arrival(t, &PacketView::new(500), &q_of(qlen, 500), &mut rng),
                Verdict::Enqueue
            );
            assert!(close(r.avg(), want), "{} vs {want}", r.avg());
        }
    }

    #[test]
    fn average_in_bytes_uses_the_byte_count() {
        // w_q = 0.25, queue of 3 packets of 1000 B = 3000 B: avg = 0.25*3000 = 750 (bytes);
        // measured in packets the same arrival gives 0.25*3 = 0.75.
        let cfg = RedConfig::new(10_000.0, 20_000.0, 0.1, 0.25, PKT_TIME);
        let mut rb = red(RedConfig {
            unit: QueueUnit::Bytes,
            ..cfg
        });
        let mut rp = red(RedConfig {
            min_th: 10.0,
            max_th: 20.0,
            ..cfg
        });
        let mut rng = ScriptedUniform::new(&[0.5]);
        rb.on_arrival(Time::ZERO, &PacketView::new(1000), &q_of(3, 1000), &mut rng);
        rp.on_arrival(Time::ZERO, &PacketView::new(1000), &q_of(3, 1000), &mut rng);
        assert!(close(rb.avg(), 750.0));
        assert!(close(rp.avg(), 0.75));
    }

    #[test]
    fn idle_decay_applies_m_empty_samples() {
        // w_q = 0.5, idle_pkt_time = 1 ms.
        // t=0: arrival sees q=8 -> the state starts idle at 0, m = 0: avg = 0.5*8 = 4.
        // t=0: departure leaves the queue empty -> idle from t = 0.
        // t=3.5 ms: arrival sees q=0: m = floor(3.5/1) = 3,
        //   avg = 0.5 * (0.5^3 * 4) + 0.5*0 = 0.25.
        let mut r = red(RedConfig::new(100.0, 200.0, 0.1, 0.5, PKT_TIME));
        let mut rng = ScriptedUniform::new(&[0.5]);
        r.on_arrival(Time::ZERO, &PacketView::new(500), &q_of(8, 500), &mut rng);
        assert!(close(r.avg(), 4.0));
        r.on_departure(Time::ZERO, &QueueView::EMPTY);
        r.on_arrival(
            Time::from_micros(3_500),
            &PacketView::new(500),
            &QueueView::EMPTY,
            &mut rng,
        );
        assert!(close(r.avg(), 0.25), "{}", r.avg());
        // The idle period ended with that arrival: 10 ms later, with no departure leaving
        // the queue empty in between, there is no decay: avg = 0.5*0.25 + 0.5*2 = 1.125.
        r.on_arrival(
            Time::from_millis(13),
            &PacketView::new(500),
            &q_of(2, 500),
            &mut rng,
        );
        assert!(close(r.avg(), 1.125), "{}", r.avg());
    }

    #[test]
    fn idle_start_is_the_first_empty_departure() {
        // Departures at 1 ms and 2 ms both leave the queue empty; the idle period starts
        // at 1 ms. Arrival at 3 ms: m = 2; avg = 0.5 * (0.25 * 4) = 0.5.
        let mut r = red(RedConfig::new(100.0, 200.0, 0.1, 0.5, PKT_TIME));
        let mut rng = ScriptedUniform::new(&[0.5]);
        r.on_arrival(Time::ZERO, &PacketView::new(500), &q_of(8, 500), &mut rng); // avg 4
        r.on_departure(Time::from_millis(1), &QueueView::EMPTY);
        r.on_departure(Time::from_millis(2), &QueueView::EMPTY);
        r.on_arrival(
            Time::from_millis(3),
            &PacketView::new(500),
            &QueueView::EMPTY,
            &mut rng,
        );
        assert!(close(r.avg(), 0.5), "{}", r.avg());
    }

    /// A RED with w_q = 1 (avg = instantaneous queue), thresholds 10 and 20, max_p = 0.1.
    fn prompt(cfg: impl FnOnce(RedConfig) -> RedConfig) -> Red {
        red(cfg(RedConfig::new(10.0, 20.0, 0.1, 1.0, PKT_TIME)))
    }

    #[test]
    fn count_spreads_the_drop_probability() {
        // avg = q = 15 at every arrival: p_b = 0.1 * (15-10)/(20-10) = 0.05.
        // 1st arrival enters the region: passes, count = 1, no draw.
        // 2nd: count = 2: p_a = 0.05/(1 - 0.1) = 0.0555..; u = 0.06  -> pass
        // 3rd: count = 3: p_a = 0.05/(1 - 0.15) = 0.0588..; u = 0.0585 -> drop, count = 0
        // 4th: count = 1: p_a = 0.05/(1 - 0.05) = 0.05263..; u = 0.0527 -> pass
        // 5th: count = 2: p_a = 0.0555..; u = 0.0555 -> drop
        let mut r = prompt(|c| c);
        let mut rng = ScriptedUniform::new(&[0.06, 0.0585, 0.0527, 0.0555]);
        let q = q_of(15, 500);
        let p = PacketView::new(500);
        let got: Vec<Verdict> = (0..5)
            .map(|_| r.on_arrival(Time::ZERO, &p, &q, &mut rng))
            .collect();
        use Verdict::*;
        let early = Drop(DropReason::Early);
        assert_eq!(got, vec![Enqueue, Enqueue, early, Enqueue, early]);
        assert_eq!(r.stats().early_drops, [2, 0, 0]);
        // p_a reaches 1 at count = 1/p_b - 1 = 19 (0.05/(1 - 0.95) = 1): without drops the
        // 19th arrival in the region is dropped whatever u is.
        let mut r = prompt(|c| c);
        let mut never = ScriptedUniform::new(&[0.999_999]);
        let verdicts: Vec<Verdict> = (0..20)
            .map(|_| r.on_arrival(Time::ZERO, &p, &q, &mut never))
            .collect();
        // Arrival 1 enters (count 1); arrivals 2..=18 have p_a <= 0.05/(1-0.9) = 0.5;
        // arrival 19 has count 19 -> p_a = 1; arrival 20 restarts at count 1.
        assert!(verdicts[..18].iter().all(|v| *v == Enqueue));
        assert_eq!(verdicts[18], early);
        assert_eq!(verdicts[19], Enqueue);
    }

    #[test]
    fn wait_option_spreads_uniformly() {
        // p_b = 0.05 (avg 15). With wait: p_a = 0 while count*0.05 < 1 (count < 20);
        // count = 20: p_a = 0.05/(2 - 1) = 0.05; count = 30: p_a = 0.05/(2-1.5) = 0.1;
        // count >= 40: 1.
        let sh = Shared {
            byte_mode: false,
            mean_pkt_size: 500,
            wait: true,
            ecn: Ecn::Off,
            ns2_use_mark_p: false,
            forced_keeps_count: false,
        };
        let st = |count| DropState {
            count,
            count_bytes: 0,
            in_region: true,
        };
        assert_eq!(p_a(0.05, &st(19), 500, &sh), 0.0);
        assert!(close(p_a(0.05, &st(20), 500, &sh), 0.05));
        assert!(close(p_a(0.05, &st(30), 500, &sh), 0.1));
        assert_eq!(p_a(0.05, &st(40), 500, &sh), 1.0);
        // A u of 0 never drops with p_a = 0.
        let mut r = prompt(|c| RedConfig { wait: true, ..c });
        let mut zero = ScriptedUniform::new(&[0.0]);
        for _ in 0..19 {
            assert_eq!(
                r.on_arrival(Time::ZERO, &PacketView::new(500), &q_of(15, 500), &mut zero),
                Verdict::Enqueue
            );
        }
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::new(500), &q_of(15, 500), &mut zero),
            Verdict::Drop(DropReason::Early)
        );
    }

    #[test]
    fn gentle_region_probabilities() {
        // max_p = 0.1, max_th = 20, gentle: p_b(avg) = 0.1 + 0.9*(avg - 20)/20.
        let c = Curve {
            min_th: 10.0,
            max_th: 20.0,
            max_p: 0.1,
            gentle: true,
            gentle_max_p: 0.1,
        };
        // ns-2's gentle line after Adaptive RED moved max_p to 0.05: the linear part uses
        // 0.05, the gentle part still starts at the initial 0.1 (a jump at max_th).
        let ns2 = Curve { max_p: 0.05, ..c };
        assert!(close(ns2.p_b(15.0), 0.025));
        assert!(close(ns2.p_b(20.0), 0.1));
        assert!(close(ns2.p_b(30.0), 0.55));
        assert!(close(c.p_b(15.0), 0.05)); // linear part: 0.1*5/10
        assert!(close(c.p_b(20.0), 0.1)); // continuous at max_th
        assert!(close(c.p_b(30.0), 0.55)); // 0.1 + 0.9*10/20
        assert!(close(c.p_b(39.0), 0.955)); // 0.1 + 0.9*19/20
                                            // A gentle RED at avg = 30 draws (no forced drop); a non-gentle one forces.
        let p = PacketView::new(500);
        let q = q_of(30, 500);
        let mut g = prompt(|c| RedConfig { gentle: true, ..c });
        // 1st: enters the region (pass). 2nd: count 2: p_a = 0.55/(1-1.1) -> count*p_b >= 1 -> 1.
        let mut rng = ScriptedUniform::new(&[0.9]);
        assert_eq!(g.on_arrival(Time::ZERO, &p, &q, &mut rng), Verdict::Enqueue);
        assert_eq!(
            g.on_arrival(Time::ZERO, &p, &q, &mut rng),
            Verdict::Drop(DropReason::Early)
        );
        // After that drop count = 0. With avg 25: p_b = 0.1 + 0.9*5/20 = 0.325; the next
        // arrival has count 1: p_a = 0.325/0.675 = 0.48148 < u = 0.4815 -> pass.
        let q25 = q_of(25, 500);
        let mut rng = ScriptedUniform::new(&[0.4815, 0.4814]);
        assert_eq!(
            g.on_arrival(Time::ZERO, &p, &q25, &mut rng),
            Verdict::Enqueue
        );
        // count 2: p_a = 0.325/(1-0.65) = 0.92857 > 0.4814 -> drop
        assert_eq!(
            g.on_arrival(Time::ZERO, &p, &q25, &mut rng),
            Verdict::Drop(DropReason::Early)
        );
        let mut n = prompt(|c| c);
        assert_eq!(
            n.on_arrival(Time::ZERO, &p, &q, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
    }

    #[test]
    fn ns2_use_mark_p_lets_small_packets_through_above_max_th() {
        // Byte mode, queue in bytes, thresholds 2500 / 7500 B, w_q = 1, wait, mean 500 B;
        // the queue holds 8000 B >= max_th at every arrival.
        let cfg = RedConfig {
            unit: QueueUnit::Bytes,
            byte_mode: true,
            wait: true,
            ..RedConfig::new(2500.0, 7500.0, 0.1, 1.0, PKT_TIME)
        };
        let q = q_of(16, 500);
        let small = PacketView::new(232);
        let big = PacketView::new(1500);
        let mut rng = ScriptedUniform::new(&[0.5]);
        let early = Verdict::Drop(DropReason::Early);
        // The paper (default): every arrival is a forced drop.
        let mut r = red(cfg);
        for _ in 0..6 {
            assert_eq!(
                r.on_arrival(Time::ZERO, &small, &q, &mut rng),
                Verdict::Drop(DropReason::Forced)
            );
        }
        // ns-2.35's use_mark_p_: p_b = 1, then modify_p with count = floor(count_bytes/500):
        //  1st: avg enters the region (old = 0): pass, count_bytes = 232;
        //  2nd: count_bytes 464 -> count 0 -> wait: 0 * 1 < 1 -> p_a = 0: pass;
        //  3rd: 696 -> count 1 -> 1 <= 1 < 2: p_a = 1/(2 - 1) = 1 (not scaled: p_a = 1): drop;
        //  4th, 5th: 232, 464 -> pass; 6th: 696 -> drop.
        let mut r = red(RedConfig {
            ns2_use_mark_p: true,
            ..cfg
        });
        let got: Vec<Verdict> = (0..6)
            .map(|_| r.on_arrival(Time::ZERO, &small, &q, &mut rng))
            .collect();
        use Verdict::Enqueue;
        assert_eq!(got, vec![Enqueue, Enqueue, early, Enqueue, Enqueue, early]);
        // A 1500 B packet after a drop: count_bytes 1500 -> count 3 -> count * 1 >= 2: p_a = 1.
        assert_eq!(r.on_arrival(Time::ZERO, &big, &q, &mut rng), early);
        assert_eq!(r.on_arrival(Time::ZERO, &big, &q, &mut rng), early);
        assert_eq!(r.stats().forced_drops, [0, 0, 0]);
        assert_eq!(r.stats().early_drops, [4, 0, 0]);
        // Refused with ECN (ns-2's mark_p_ rule is not modelled).
        assert!(matches!(
            RedParams::new(RedConfig {
                ns2_use_mark_p: true,
                ecn: Ecn::MarkEarly,
                ..cfg
            }),
            Err(ConfigError::Relation { .. })
        ));
    }

    #[test]
    fn forced_drops_above_max_th_or_twice_max_th() {
        let p = PacketView::with_color(500, Color::Yellow);
        let mut rng = ScriptedUniform::new(&[0.999]);
        // Non-gentle: avg = 20 = max_th -> forced.
        let mut r = prompt(|c| c);
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(20, 500), &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        assert_eq!(r.stats().forced_drops, [0, 1, 0]);
        // Gentle: avg = 39 -> not forced (enters the region: pass), avg = 40 -> forced.
        let mut g = prompt(|c| RedConfig { gentle: true, ..c });
        assert_eq!(
            g.on_arrival(Time::ZERO, &p, &q_of(39, 500), &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            g.on_arrival(Time::ZERO, &p, &q_of(40, 500), &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        // No drop at all while the instantaneous queue holds <= 1 packet, even with avg
        // above max_th (w_q small, avg stays high).
        let mut r = red(RedConfig::new(10.0, 20.0, 0.1, 0.01, PKT_TIME));
        for _ in 0..2000 {
            r.on_arrival(Time::ZERO, &p, &q_of(30, 500), &mut rng);
        }
        assert!(r.avg() > 20.0);
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(1, 500), &mut rng),
            Verdict::Enqueue
        );
    }

    #[test]
    fn ecn_marks_instead_of_dropping() {
        let p = PacketView::new(500);
        let mut zero = ScriptedUniform::new(&[0.0]);
        let mut mark_early = prompt(|c| RedConfig {
            ecn: Ecn::MarkEarly,
            ..c
        });
        assert_eq!(
            mark_early.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut zero),
            Verdict::Enqueue
        );
        assert_eq!(
            mark_early.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut zero),
            Verdict::Mark(DropReason::Early)
        );
        // Forced: still a drop under MarkEarly, a mark under MarkAll.
        assert_eq!(
            mark_early.on_arrival(Time::ZERO, &p, &q_of(25, 500), &mut zero),
            Verdict::Drop(DropReason::Forced)
        );
        let mut mark_all = prompt(|c| RedConfig {
            ecn: Ecn::MarkAll,
            ..c
        });
        assert_eq!(
            mark_all.on_arrival(Time::ZERO, &p, &q_of(25, 500), &mut zero),
            Verdict::Mark(DropReason::Forced)
        );
        assert_eq!(mark_early.stats().early_marks, [1, 0, 0]);
        assert_eq!(mark_early.stats().forced_drops, [1, 0, 0]);
        assert_eq!(mark_all.stats().forced_marks, [1, 0, 0]);
        // A mark resets the count like a drop: after the early mark above count = 0, the
        // next arrival in the region has count 1 and p_a = 0.05/0.95 = 0.0526.
        let mut m = prompt(|c| RedConfig {
            ecn: Ecn::MarkEarly,
            ..c
        });
        let mut rng = ScriptedUniform::new(&[0.0, 0.0527, 0.0526]);
        m.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng); // enters
        assert_eq!(
            m.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Mark(DropReason::Early)
        );
        assert_eq!(
            m.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Enqueue
        ); // 0.0527 > p_a
           // count 2 now: p_a = 0.05/0.9 = 0.0556 > 0.0526 -> mark
        assert_eq!(
            m.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Mark(DropReason::Early)
        );
    }

    #[test]
    fn byte_mode_scales_by_size_after_spreading() {
        let sh = Shared {
            byte_mode: true,
            mean_pkt_size: 500,
            wait: false,
            ecn: Ecn::Off,
            ns2_use_mark_p: false,
            forced_keeps_count: false,
        };
        // count_bytes = 1250 -> count = floor(1250/500) = 2; p_b = 0.05:
        // p_a = 0.05/(1 - 0.1) = 0.0555..; scaled by 1000/500: 0.1111..
        let st = DropState {
            count: 99,
            count_bytes: 1250,
            in_region: true,
        };
        assert!(close(p_a(0.05, &st, 1000, &sh), 0.05 / 0.9 * 2.0));
        // A 40-byte packet: 0.0555.. * 40/500 = 0.004444..
        assert!(close(p_a(0.05, &st, 40, &sh), 0.05 / 0.9 * 0.08));
        // Capped at 1: p_b = 0.6, count 1 (count_bytes 500): 0.6/0.4 = 1.5 -> 1 (no scaling).
        let st1 = DropState {
            count: 1,
            count_bytes: 500,
            in_region: true,
        };
        assert_eq!(p_a(0.6, &st1, 40, &sh), 1.0);
        // p_b = 0.3, count 1: 0.3/0.7 = 0.4286 < 1, scaled by 1500/500 = 3 -> 1.2857 -> 1.
        assert_eq!(p_a(0.3, &st1, 1500, &sh), 1.0);
        // Packet mode ignores the size: count 99 * 0.05 >= 1 -> 1.
        let pk = Shared {
            byte_mode: false,
            ..sh
        };
        assert_eq!(p_a(0.05, &st, 40, &pk), 1.0);
    }

    #[test]
    fn byte_mode_end_to_end() {
        // Queue in packets (avg 15 -> p_b 0.05), byte mode, mean 500.
        // 1st arrival (1000 B): enters, count_bytes = 1000.
        // 2nd (100 B): count_bytes = 1100 -> count 2 -> p_a = 0.05/0.9*100/500 = 0.01111
        let mut r = prompt(|c| RedConfig {
            byte_mode: true,
            ..c
        });
        let mut rng = ScriptedUniform::new(&[0.0112, 0.0110]);
        let q = q_of(15, 500);
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::new(1000), &q, &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::new(100), &q, &mut rng),
            Verdict::Enqueue
        );
        // 3rd (100 B): count_bytes 1200 -> count 2 -> same p_a 0.01111 > 0.0110 -> drop.
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::new(100), &q, &mut rng),
            Verdict::Drop(DropReason::Early)
        );
    }

    #[test]
    fn overflow_resets_the_count() {
        let p = PacketView::new(500);
        let q = q_of(15, 500);
        // Arrival 1 enters the region (count 1, no draw); arrivals 2..=5 draw u = 0.9 and
        // pass (p_a <= 0.05/0.75 = 0.0667). Arrival 6 draws u = 0.06: with count 6,
        // p_a = 0.05/0.7 = 0.0714 > 0.06 -> drop; after an overflow the count restarts:
        // count 1 -> p_a = 0.05/0.95 = 0.0526 < 0.06 -> pass.
        let script = [0.9, 0.9, 0.9, 0.9, 0.06];
        let mut plain = prompt(|c| c);
        let mut over = prompt(|c| c);
        let (mut r1, mut r2) = (ScriptedUniform::new(&script), ScriptedUniform::new(&script));
        for _ in 0..5 {
            assert_eq!(
                plain.on_arrival(Time::ZERO, &p, &q, &mut r1),
                Verdict::Enqueue
            );
            assert_eq!(
                over.on_arrival(Time::ZERO, &p, &q, &mut r2),
                Verdict::Enqueue
            );
        }
        over.on_overflow();
        assert_eq!(
            plain.on_arrival(Time::ZERO, &p, &q, &mut r1),
            Verdict::Drop(DropReason::Early)
        );
        assert_eq!(
            over.on_arrival(Time::ZERO, &p, &q, &mut r2),
            Verdict::Enqueue
        );
    }

    #[test]
    fn re_entering_the_region_restarts_the_count() {
        // avg = q (w_q = 1). Arrivals at q = 15 (p_b = 0.05): 1st enters, 2nd..5th have
        // count 2..5 (u = 0.9, pass). One arrival at q = 5 (< min_th) leaves the region.
        // Back at q = 15: that arrival re-enters and passes without a draw; the next has
        // count 2: p_a = 0.05/0.9 = 0.0556 < u = 0.06 -> pass (had the region not been
        // left, count 6 and 7 would give 0.0714 and 0.0769 > 0.06 -> drops).
        let mut r = prompt(|c| c);
        let mut rng = ScriptedUniform::new(&[0.9, 0.9, 0.9, 0.9, 0.06]);
        let p = PacketView::new(500);
        for _ in 0..5 {
            assert_eq!(
                r.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
                Verdict::Enqueue
            );
        }
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(5, 500), &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Enqueue
        );
    }

    #[test]
    fn a_forced_drop_resets_the_count() {
        // q = 15: enter, then count 2..5 with u = 0.9 (pass). q = 25: forced, count 0 (the
        // region flag stays set). q = 15: count 1: p_a = 0.05/0.95 = 0.0526 < u = 0.053
        // -> pass (without the reset, count 7: p_a = 0.0769 -> drop).
        let mut r = prompt(|c| c);
        let mut rng = ScriptedUniform::new(&[0.9, 0.9, 0.9, 0.9, 0.053]);
        let p = PacketView::new(500);
        for _ in 0..5 {
            r.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng);
        }
        let v = r.on_arrival(Time::ZERO, &p, &q_of(25, 500), &mut rng);
        assert_eq!(v, Verdict::Drop(DropReason::Forced));
        assert_eq!(
            r.on_arrival(Time::ZERO, &p, &q_of(15, 500), &mut rng),
            Verdict::Enqueue
        );
    }

    #[derive(Clone, Debug)]
    enum Op {
        Arrive { gap_us: u64, size: u32 },
        Depart { gap_us: u64 },
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        prop::collection::vec(
            prop_oneof![
                (0u64..3_000, 40u32..1500).prop_map(|(gap_us, size)| Op::Arrive { gap_us, size }),
                (0u64..3_000).prop_map(|gap_us| Op::Depart { gap_us }),
            ],
            1..300,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The average stays within [0, largest instantaneous queue seen]; nothing is dropped
        /// or marked while the average is below min_th; and every drop is counted.
        #[test]
        fn average_bounded_and_no_drop_below_min_th(
            ops in ops(),
            w_q in 0.001f64..=1.0,
            min_th in 0.0f64..20.0,
            span in 1.0f64..30.0,
            gentle: bool,
            wait: bool,
            bytes: bool,
            byte_mode: bool,
            seed: u64,
        ) {
            let unit = if bytes { QueueUnit::Bytes } else { QueueUnit::Packets };
            let scale = if bytes { 500.0 } else { 1.0 };
            let cfg = RedConfig {
                gentle, wait, unit, byte_mode, ecn: Ecn::Off,
                ..RedConfig::new(min_th * scale, (min_th + span) * scale, 0.1, w_q, PKT_TIME)
            };
            let mut r = red(cfg);
            let mut rng = Rng::from_seed(seed);
            let mut q = QueueView::EMPTY;
            let mut sizes = std::collections::VecDeque::new();
            let mut now = Time::ZERO;
            let mut max_seen = 0u64;
            let mut dropped = 0u64;
            for op in ops {
                match op {
                    Op::Arrive { gap_us, size } => {
                        now += Duration::from_micros(gap_us);
                        max_seen = max_seen.max(unit.total(&q));
                        let v = r.on_arrival(now, &PacketView::new(size), &q, &mut rng);
                        prop_assert!(r.avg() >= 0.0 && r.avg() <= max_seen as f64 * (1.0 + 1e-12));
                        if r.avg() < cfg.min_th {
                            prop_assert_eq!(v, Verdict::Enqueue);
                        }
                        match v {
                            Verdict::Enqueue => { q.push(size, Color::Green); sizes.push_back(size); }
                            Verdict::Drop(_) => dropped += 1,
                            Verdict::Mark(_) => prop_assert!(false, "ECN is off"),
                        }
                    }
                    Op::Depart { gap_us } => {
                        now += Duration::from_micros(gap_us);
                        if let Some(s) = sizes.pop_front() {
                            q.pop(s, Color::Green);
                        }
                        r.on_departure(now, &q);
                    }
                }
            }
            let s = r.stats();
            prop_assert_eq!(s.early_drops[0] + s.forced_drops[0], dropped);
        }
    }
}
