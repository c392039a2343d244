//! RIO — RED with In and Out (D. Clark, W. Fang, "Explicit Allocation of Best-Effort
//! Packet Delivery Service", IEEE/ACM ToN 6(4), 1998), with two precedences (In = green,
//! Out = yellow) or three (green/yellow/red, the "RIO algorithm \[Clark\] that we have
//! extended to support three drop priorities" of RFC 2963 App. A).
//!
//! Each precedence has its own RED curve (`min_th`, `max_th`, `max_p`, optional gentle
//! region) **and its own EWMA weight** `w_q`: with `w_q = 1` a precedence's average is the
//! instantaneous length of its queue, the "prompt feedback" of Hori, Ikenaga & Oie 2001
//! (seed 002, §3.C: `w_qout = 1` for Out, `w_qin = 0.002` for In). The per-precedence drop
//! decision is RED's, with the same open choices resolved as in [`red`](super::red)
//! (count spreading, `wait`, byte mode, nearly-empty rule, ECN, idle decay).
//!
//! # Coupling: which packets a precedence's average counts
//! A precedence measures a *virtual queue*:
//! * [`Coupling::Coupled`] (Clark & Fang's RIO; ns-2 dsRED "RIO-C"): precedence `c` counts
//!   the packets of `c` and of every more-preferred precedence. With two precedences the In
//!   average counts In packets and the Out average counts all packets, exactly Clark &
//!   Fang's `avg_in` and `avg_total`; with three, green counts green, yellow counts green +
//!   yellow, red counts everything.
//! * [`Coupling::Decoupled`] (ns-2 dsRED "RIO-D"): each precedence counts its own packets.
//!
//! **Default: coupled.** RFC 2963 App. A describes its three-colour queue as Clark's RIO
//! "extended to support three drop priorities"; Clark & Fang's RIO is coupled, and its
//! natural extension is the nested virtual queues above. The App. A thresholds agree:
//! red 100–200, yellow 200–400, green 400–800 packets are staggered so that, with nested
//! averages (red's ≥ yellow's ≥ green's), red is dropped first, then yellow, and green only
//! when green traffic alone fills 400 packets. Seed 002 describes the same coupling for
//! two colours ("an average queue of total packets including In and Out packets [is used
//! for Out]").
//!
//! # When each average is updated
//! [`AvgSampling::MemberArrivals`] (default): an average is sampled on the arrival of a
//! packet that belongs to its virtual queue, like RED samples its queue on arrivals. This is
//! Clark & Fang's pseudo-code (an In arrival updates `avg_in` and `avg_total`, an Out
//! arrival only `avg_total`), ns-2 dsRED RIO-C/RIO-D and ALTQ's `rio.c`.
//! [`AvgSampling::EveryArrival`] samples every average on every arrival; in coupled
//! two-colour RIO it changes only when the In average is sampled. ns-2's own
//! `queue/rio.cc` is not followed by default: it updates the total average only on In
//! arrivals, a bug its header acknowledges; [`AvgSampling::Ns2InArrivalsOnly`] reproduces it
//! for the port of ns-2's `test-suite-rio.tcl` (issue 14).
//!
//! # Other choices
//! * In two-precedence mode red packets are judged, counted and averaged as Out (yellow).
//! * Each precedence keeps its own count since its last drop, counting arrivals of its own
//!   colour(s) only (ns-2 `edv_in_`/`edv_out_`). Every drop resets it, forced ones included
//!   (Floyd & Jacobson §4, "count ← 0" in both branches). ns-2's `queue/rio.cc` resets the
//!   Out count only at an Out early drop (and at entry into the early region): its Out
//!   branch leaves the count as it is at a forced drop, unlike its In branch;
//!   [`RioConfig::ns2_out_forced_keeps_count`] reproduces that (off by default).
//! * The nearly-empty rule (no drop while the queue holds at most 1) looks at the
//!   precedence's own virtual queue (ns-2 rio.cc: `in_qlen` for In, the total for Out).
//! * Idle decay is per virtual queue: a virtual queue is idle from the first departure that
//!   leaves it empty until the next arrival of one of its members; an arrival that samples
//!   it without joining it ([`AvgSampling::EveryArrival`]) applies the decay so far and the
//!   idle period goes on. All precedences share one `idle_pkt_time`.
//! * ns-2 dsRED's coupled average mixes the weights of the member precedences
//!   (`Σ w_j·q_j`); we use the precedence's own weight on its whole virtual queue, so that
//!   `w_q = 1` is exactly the instantaneous queue.
//! * No ordering between the precedences' thresholds is imposed (experiments may invert
//!   them); each precedence must be a valid RED curve.

use super::red::{
    decide, to_verdict, validate_curve, validate_shared, Curve, DropState, Ecn, Estimator,
    QueueUnit, Shared,
};
use super::AqmStats;
use crate::{Color, ConfigError, Duration, PacketView, QueueView, RandomSource, Time, Verdict};

/// The RED curve and EWMA weight of one precedence.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RioLevel {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    /// EWMA weight of this precedence's average, in (0, 1]; 1 = prompt feedback.
    pub w_q: f64,
    /// Gentle region between `max_th` and `2·max_th`.
    pub gentle: bool,
}

impl RioLevel {
    /// A non-gentle precedence.
    pub const fn new(min_th: f64, max_th: f64, max_p: f64, w_q: f64) -> RioLevel {
        RioLevel {
            min_th,
            max_th,
            max_p,
            w_q,
            gentle: false,
        }
    }
}

/// The precedences of a RIO queue, from most to least preferred.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum RioLevels {
    /// Clark & Fang's In (green) and Out (yellow; red packets are judged as Out).
    Two { in_: RioLevel, out: RioLevel },
    /// Green, yellow and red (RFC 2963 App. A).
    Three {
        green: RioLevel,
        yellow: RioLevel,
        red: RioLevel,
    },
}

/// Which packets a precedence's average counts (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Coupling {
    /// Precedence `c` counts its packets and those of all more-preferred precedences.
    #[default]
    Coupled,
    /// Each precedence counts only its own packets.
    Decoupled,
}

/// On which arrivals the averages are sampled (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum AvgSampling {
    /// An average is sampled when a packet of its virtual queue arrives.
    #[default]
    MemberArrivals,
    /// Every average is sampled on every arrival.
    EveryArrival,
    /// ns-2.35's `queue/rio.cc` (`Queue/RED/RIO`, the RIO of its `test-suite-rio.tcl`):
    /// the averages are sampled only on arrivals of the most-preferred precedence (In); an
    /// arrival of any other precedence samples none, so the Out (total) average stands still
    /// while only Out packets arrive. Not Clark & Fang's RIO: rio.cc's own header records it
    /// as a bug ("RIO does not calculate a new average queue length when an OUT packet
    /// arrives"). For reproducing ns-2 only (issue 14, finding 33).
    Ns2InArrivalsOnly,
}

/// The settings of a RIO queue, before validation by [`RioParams::new`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RioConfig {
    pub levels: RioLevels,
    pub coupling: Coupling,
    pub sampling: AvgSampling,
    /// Unit of queue lengths and thresholds.
    pub unit: QueueUnit,
    /// Scale drop probabilities by `size / mean_pkt_size`.
    pub byte_mode: bool,
    pub mean_pkt_size: u32,
    pub ecn: Ecn,
    /// ns-2's `wait_` spreading.
    pub wait: bool,
    /// ns-2.35's `queue/rio.cc`: a forced drop of a packet of a less-preferred precedence
    /// (Out; yellow and red with three) — average at or above its forced threshold, or the
    /// buffer full ([`Rio::on_overflow`]) — leaves that precedence's `count` /
    /// `count_bytes` as they are; only its early drops (and entry into its early region)
    /// restart them. rio.cc's In branch resets its counts at a forced drop ("bug-fix from
    /// Philip Liu"), its Out branch does not. The count keeps growing through a run of
    /// forced drops, so with `wait` the first Out early drop after it comes much sooner (at
    /// `count·p_b ≥ 1`) than with Floyd & Jacobson's reset. Not Clark & Fang's RIO (whose
    /// precedences are RED, resetting at every drop); for reproducing ns-2 only (issue 14,
    /// finding 34: `test-suite-rio.tcl` `notGentle`). Default false.
    pub ns2_out_forced_keeps_count: bool,
    /// Transmission time of a mean-size packet on the output link (idle decay unit).
    pub idle_pkt_time: Duration,
}

impl RioConfig {
    /// Two-precedence RIO, coupled, sampled on member arrivals, queue in packets, packet
    /// mode, 500-byte mean packet, no ECN, no `wait`.
    pub fn two(in_: RioLevel, out: RioLevel, idle_pkt_time: Duration) -> RioConfig {
        RioConfig::with_levels(RioLevels::Two { in_, out }, idle_pkt_time)
    }
    /// Three-precedence RIO with the same defaults as [`RioConfig::two`].
    pub fn three(
        green: RioLevel,
        yellow: RioLevel,
        red: RioLevel,
        idle_pkt_time: Duration,
    ) -> RioConfig {
        RioConfig::with_levels(RioLevels::Three { green, yellow, red }, idle_pkt_time)
    }
    fn with_levels(levels: RioLevels, idle_pkt_time: Duration) -> RioConfig {
        RioConfig {
            levels,
            coupling: Coupling::Coupled,
            sampling: AvgSampling::MemberArrivals,
            unit: QueueUnit::Packets,
            byte_mode: false,
            mean_pkt_size: 500,
            ecn: Ecn::Off,
            wait: false,
            ns2_out_forced_keeps_count: false,
            idle_pkt_time,
        }
    }
}

/// Validated RIO settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RioParams {
    cfg: RioConfig,
    /// The precedences in order; entries past `n` repeat the last one and are unused.
    levels: [RioLevel; 3],
    n: usize,
}

impl RioParams {
    /// Validates every precedence as a RED curve (`0 ≤ min_th < max_th`, `max_p ∈ (0, 1]`,
    /// `w_q ∈ (0, 1]`), `mean_pkt_size ≥ 1` and `idle_pkt_time > 0`. Errors name the
    /// precedence ("in", "out", "green", "yellow", "red").
    pub fn new(cfg: RioConfig) -> Result<RioParams, ConfigError> {
        let (levels, n, names): ([RioLevel; 3], usize, &[&'static str]) = match cfg.levels {
            RioLevels::Two { in_, out } => ([in_, out, out], 2, &["in", "out"]),
            RioLevels::Three { green, yellow, red } => {
                ([green, yellow, red], 3, &["green", "yellow", "red"])
            }
        };
        for (lv, name) in levels.iter().zip(names) {
            validate_curve(lv.min_th, lv.max_th, lv.max_p, lv.w_q)
                .map_err(|e| name_level(e, name))?;
        }
        validate_shared(cfg.mean_pkt_size, cfg.idle_pkt_time)?;
        Ok(RioParams { cfg, levels, n })
    }
    pub fn config(&self) -> &RioConfig {
        &self.cfg
    }
    /// The number of precedences, 2 or 3.
    pub fn precedences(&self) -> usize {
        self.n
    }
    /// Whether precedence `l` keeps its drop count at a forced drop (and at an overflow):
    /// [`RioConfig::ns2_out_forced_keeps_count`] for the Out precedences (ns-2 rio.cc's Out
    /// branch); Floyd & Jacobson's reset otherwise.
    #[inline]
    pub fn forced_keeps_count(&self, l: usize) -> bool {
        self.cfg.ns2_out_forced_keeps_count && l > 0
    }
    /// The precedence index (0 = most preferred) that judges packets of colour `c`.
    pub fn level_of(&self, c: Color) -> usize {
        c.index().min(self.n - 1)
    }
}

/// Puts the precedence's name into a curve error ("`max_p` (out)").
fn name_level(e: ConfigError, level: &'static str) -> ConfigError {
    match e {
        ConfigError::OutOfRange {
            param,
            value,
            allowed,
        } => ConfigError::OutOfRange {
            param,
            value: format!("{value} (precedence {level})"),
            allowed,
        },
        ConfigError::Relation {
            rule,
            source,
            detail,
        } => ConfigError::Relation {
            rule,
            source,
            detail: format!("precedence {level}: {detail}"),
        },
    }
}

/// The state of a RIO queue.
#[derive(Clone, Debug)]
pub struct Rio {
    params: RioParams,
    est: [Estimator; 3],
    drop: [DropState; 3],
    stats: AqmStats,
}

impl Rio {
    pub fn new(params: RioParams) -> Rio {
        Rio {
            params,
            est: [Estimator::new(); 3],
            drop: [DropState::default(); 3],
            stats: AqmStats::default(),
        }
    }

    /// Whether packets of precedence `member` belong to precedence `level`'s virtual queue.
    fn belongs(&self, member: usize, level: usize) -> bool {
        match self.params.cfg.coupling {
            // Clark & Fang: avg_in over In packets, avg_total over all packets.
            Coupling::Coupled => member <= level,
            Coupling::Decoupled => member == level,
        }
    }

    /// Length of precedence `level`'s virtual queue in `unit`.
    fn vq_len(&self, q: &QueueView, level: usize, unit: QueueUnit) -> u64 {
        let mut len = 0;
        for c in Color::ALL {
            if self.belongs(self.params.level_of(c), level) {
                len += unit.of_color(q, c);
            }
        }
        len
    }

    /// Decides on an arriving packet (`q` before it is added). The buffer limit is the
    /// caller's.
    pub fn on_arrival<R: RandomSource>(
        &mut self,
        now: Time,
        pkt: &PacketView,
        q: &QueueView,
        rng: &mut R,
    ) -> Verdict {
        let cfg = self.params.cfg;
        let lp = self.params.level_of(pkt.color);
        for l in 0..self.params.n {
            let member = self.belongs(lp, l);
            let sample = match cfg.sampling {
                AvgSampling::MemberArrivals => member,
                AvgSampling::EveryArrival => true,
                // ns-2 rio.cc: an In arrival samples In's and the total average, others none.
                AvgSampling::Ns2InArrivalsOnly => member && lp == 0,
            };
            if sample {
                let len = self.vq_len(q, l, cfg.unit);
                let w_q = self.params.levels[l].w_q;
                self.est[l].sample(now, len, w_q, cfg.idle_pkt_time, member);
            }
        }
        let lv = self.params.levels[lp];
        let curve = Curve {
            min_th: lv.min_th,
            max_th: lv.max_th,
            max_p: lv.max_p,
            gentle: lv.gentle,
            gentle_max_p: lv.max_p,
        };
        let sh = Shared {
            byte_mode: cfg.byte_mode,
            mean_pkt_size: cfg.mean_pkt_size,
            wait: cfg.wait,
            ecn: cfg.ecn,
            // RIO's ns-2 counterpart (dsRED) has no use_mark_p_: forced drops as the paper.
            ns2_use_mark_p: false,
            // ns-2 rio.cc: the Out branch keeps its count at a forced drop.
            forced_keeps_count: self.params.forced_keeps_count(lp),
        };
        let inst = self.vq_len(q, lp, cfg.unit);
        let outcome = decide(
            &mut self.drop[lp],
            &curve,
            self.est[lp].avg,
            inst,
            pkt.size,
            &sh,
            rng,
        );
        to_verdict(outcome, cfg.ecn, pkt.color, &mut self.stats)
    }

    /// Notes a departure; every virtual queue that `q_after` leaves empty starts an idle
    /// period (unless one is running).
    pub fn on_departure(&mut self, now: Time, q_after: &QueueView) {
        for l in 0..self.params.n {
            if self.vq_len(q_after, l, QueueUnit::Packets) == 0 {
                self.est[l].note_empty(now);
            }
        }
    }

    /// The caller dropped `pkt` for lack of buffer after RIO admitted it: resets the count
    /// of its precedence (ns-2 red.cc, and rio.cc's In branch), except for a less-preferred
    /// precedence under [`RioConfig::ns2_out_forced_keeps_count`] (rio.cc's Out branch).
    pub fn on_overflow(&mut self, pkt: &PacketView) {
        let l = self.params.level_of(pkt.color);
        if !self.params.forced_keeps_count(l) {
            self.drop[l].reset_count();
        }
    }

    /// The average against which packets of colour `c` are judged.
    pub fn avg(&self, c: Color) -> f64 {
        self.est[self.params.level_of(c)].avg
    }
    pub fn params(&self) -> &RioParams {
        &self.params
    }
    /// Early/forced drops and marks per colour.
    pub fn stats(&self) -> &AqmStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ScriptedUniform;
    use crate::{DropReason, Rng};
    use proptest::prelude::*;

    const PKT_TIME: Duration = Duration(1_000_000);

    /// A queue with `g` green, `y` yellow and `r` red 500-byte packets.
    fn q(g: u32, y: u32, r: u32) -> QueueView {
        let mut q = QueueView::EMPTY;
        for (n, c) in [(g, Color::Green), (y, Color::Yellow), (r, Color::Red)] {
            for _ in 0..n {
                q.push(500, c);
            }
        }
        q
    }

    fn rio(cfg: RioConfig) -> Rio {
        Rio::new(RioParams::new(cfg).unwrap())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    const IN: Color = Color::Green;
    const OUT: Color = Color::Yellow;

    /// In (200, 250, 1/50), Out (60, 200, 1/10), both w = 0.5: seed 002 §3.A thresholds.
    fn seed002(w_in: f64, w_out: f64) -> RioConfig {
        RioConfig::two(
            RioLevel::new(200.0, 250.0, 0.02, w_in),
            RioLevel::new(60.0, 200.0, 0.1, w_out),
            PKT_TIME,
        )
    }

    #[test]
    fn coupled_in_and_out_averages() {
        // w_in = w_out = 0.5, coupled, member-arrival sampling.
        // 1) In arrives, queue (in=4, out=6): avg_in  = 0.5*4  = 2; avg_out = 0.5*10 = 5.
        // 2) Out arrives, queue (4, 8):       avg_in unchanged = 2; avg_out = 0.5*5 + 0.5*12 = 8.5.
        // 3) In arrives, queue (6, 8):        avg_in = 0.5*2 + 0.5*6 = 4; avg_out = 0.5*8.5 + 0.5*14 = 11.25.
        let mut r = rio(seed002(0.5, 0.5));
        let mut rng = ScriptedUniform::new(&[0.5]);
        let t = Time::ZERO;
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(4, 6, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0) && close(r.avg(OUT), 5.0));
        r.on_arrival(t, &PacketView::with_color(500, OUT), &q(4, 8, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0) && close(r.avg(OUT), 8.5));
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(6, 8, 0), &mut rng);
        assert!(close(r.avg(IN), 4.0) && close(r.avg(OUT), 11.25));
        // Red packets are Out in two-colour mode: averaged with the Out average.
        assert_eq!(r.avg(Color::Red), r.avg(OUT));
    }

    #[test]
    fn decoupled_in_and_out_averages() {
        // Same arrivals, decoupled: each average counts its own colour only.
        // 1) In,  queue (4, 6): avg_in = 0.5*4 = 2;          avg_out not sampled = 0.
        // 2) Out, queue (4, 8): avg_in = 2;                  avg_out = 0.5*8 = 4.
        // 3) In,  queue (6, 8): avg_in = 0.5*2 + 0.5*6 = 4;  avg_out = 4.
        let mut r = rio(RioConfig {
            coupling: Coupling::Decoupled,
            ..seed002(0.5, 0.5)
        });
        let mut rng = ScriptedUniform::new(&[0.5]);
        let t = Time::ZERO;
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(4, 6, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0) && close(r.avg(OUT), 0.0));
        r.on_arrival(t, &PacketView::with_color(500, OUT), &q(4, 8, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0) && close(r.avg(OUT), 4.0));
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(6, 8, 0), &mut rng);
        assert!(close(r.avg(IN), 4.0) && close(r.avg(OUT), 4.0));
    }

    #[test]
    fn every_arrival_sampling() {
        // Coupled, every arrival samples both averages:
        // 1) In,  (4, 6): avg_in = 2;                  avg_out = 5.
        // 2) Out, (4, 8): avg_in = 0.5*2 + 0.5*4 = 3;  avg_out = 8.5.
        let mut r = rio(RioConfig {
            sampling: AvgSampling::EveryArrival,
            ..seed002(0.5, 0.5)
        });
        let mut rng = ScriptedUniform::new(&[0.5]);
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, IN),
            &q(4, 6, 0),
            &mut rng,
        );
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, OUT),
            &q(4, 8, 0),
            &mut rng,
        );
        assert!(close(r.avg(IN), 3.0) && close(r.avg(OUT), 8.5));
    }

    #[test]
    fn prompt_feedback_w_1_is_the_instantaneous_queue() {
        // Seed 002 §3.C: w_out = 1 (prompt feedback), w_in = 0.002.
        // Out arrival with 70 In + 80 Out queued: avg_out = 150 exactly; avg_in not sampled.
        // In arrival with 70 In + 90 Out: avg_in = 0.002*70 = 0.14; the Out average, sampled
        // too (coupled), uses its own w = 1: avg_out = 160.
        let mut r = rio(seed002(0.002, 1.0));
        let mut rng = ScriptedUniform::new(&[0.99]);
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, OUT),
            &q(70, 80, 0),
            &mut rng,
        );
        assert_eq!(r.avg(OUT), 150.0);
        assert_eq!(r.avg(IN), 0.0);
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, IN),
            &q(70, 90, 0),
            &mut rng,
        );
        assert!(close(r.avg(IN), 0.14));
        assert_eq!(r.avg(OUT), 160.0);
        // The next Out arrival sees 30 packets: the average follows at once.
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, OUT),
            &q(10, 20, 0),
            &mut rng,
        );
        assert_eq!(r.avg(OUT), 30.0);
    }

    #[test]
    fn out_is_dropped_while_in_is_protected() {
        // Prompt feedback for both. Total queue 210 (>= out max_th 200): Out forced;
        // In sees its own 150 < 200 = in min_th: enqueued.
        let mut r = rio(seed002(1.0, 1.0));
        let mut rng = ScriptedUniform::new(&[0.0]);
        let qv = q(150, 60, 0);
        let v_out = r.on_arrival(Time::ZERO, &PacketView::with_color(500, OUT), &qv, &mut rng);
        let v_in = r.on_arrival(Time::ZERO, &PacketView::with_color(500, IN), &qv, &mut rng);
        assert_eq!(v_out, Verdict::Drop(DropReason::Forced));
        assert_eq!(v_in, Verdict::Enqueue);
        assert_eq!(r.stats().forced_drops, [0, 1, 0]);
        // Out early region: total 130 -> p_b = 0.1*(130-60)/140 = 0.05. First Out arrival
        // in the region enters it; the second (count 2) has p_a = 0.05/0.9 = 0.0556.
        let mut r = rio(seed002(1.0, 1.0));
        let mut rng = ScriptedUniform::new(&[0.0556, 0.0555]);
        let qv = q(100, 30, 0);
        let out = PacketView::with_color(500, OUT);
        assert_eq!(
            r.on_arrival(Time::ZERO, &out, &qv, &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            r.on_arrival(Time::ZERO, &out, &qv, &mut rng),
            Verdict::Enqueue
        ); // 0.0556 > p_a
           // count 3: p_a = 0.05/0.85 = 0.0588 > 0.0555 -> drop
        assert_eq!(
            r.on_arrival(Time::ZERO, &out, &qv, &mut rng),
            Verdict::Drop(DropReason::Early)
        );
    }

    /// RFC 2963 App. A: red (100, 200, 0.1), yellow (200, 400, 0.05), green (400, 800, 0.02);
    /// w = 1 here so that averages are instantaneous.
    fn rfc2963(coupling: Coupling) -> Rio {
        rio(RioConfig {
            coupling,
            ..RioConfig::three(
                RioLevel::new(400.0, 800.0, 0.02, 1.0),
                RioLevel::new(200.0, 400.0, 0.05, 1.0),
                RioLevel::new(100.0, 200.0, 0.1, 1.0),
                PKT_TIME,
            )
        })
    }

    #[test]
    fn three_colour_thresholds_coupled() {
        // Queue: 150 green, 100 yellow, 60 red = 310 packets.
        // Coupled: green avg 150 < 400 -> enqueue; yellow avg 250 in [200, 400) -> region
        // (first arrival enters, passes); red avg 310 >= 200 -> forced.
        let mut r = rfc2963(Coupling::Coupled);
        let mut rng = ScriptedUniform::new(&[0.0]);
        let qv = q(150, 100, 60);
        let arrive = |r: &mut Rio, c, rng: &mut ScriptedUniform| {
            r.on_arrival(Time::ZERO, &PacketView::with_color(500, c), &qv, rng)
        };
        assert_eq!(arrive(&mut r, Color::Green, &mut rng), Verdict::Enqueue);
        assert_eq!(arrive(&mut r, Color::Yellow, &mut rng), Verdict::Enqueue);
        assert_eq!(
            arrive(&mut r, Color::Red, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        assert_eq!(r.averages(), [150.0, 250.0, 310.0]);
        // Second yellow: count 2, p_b = 0.05*(250-200)/200 = 0.0125, p_a = 0.0125/0.975
        // = 0.01282 > u = 0 -> drop.
        assert_eq!(
            arrive(&mut r, Color::Yellow, &mut rng),
            Verdict::Drop(DropReason::Early)
        );
        assert_eq!(r.stats().early_drops, [0, 1, 0]);
        assert_eq!(r.stats().forced_drops, [0, 0, 1]);
    }

    #[test]
    fn three_colour_thresholds_decoupled() {
        // Decoupled on the same queue: green 150 < 400, yellow 100 < 200, red 60 < 100:
        // nothing is dropped.
        let mut r = rfc2963(Coupling::Decoupled);
        let mut rng = ScriptedUniform::new(&[0.0]);
        let qv = q(150, 100, 60);
        for c in Color::ALL {
            let v = r.on_arrival(Time::ZERO, &PacketView::with_color(500, c), &qv, &mut rng);
            assert_eq!(v, Verdict::Enqueue);
        }
        assert_eq!(r.averages(), [150.0, 100.0, 60.0]);
    }

    impl Rio {
        fn averages(&self) -> [f64; 3] {
            Color::ALL.map(|c| self.avg(c))
        }
    }

    #[test]
    fn idle_decay_per_virtual_queue() {
        // Two colours, coupled, w = 0.5 for both, 1 ms per packet.
        // t=0: In arrives, queue (4 in, 4 out): avg_in = 2, avg_out = 4.
        // t=0: departure leaves (0 in, 2 out): the In virtual queue is empty -> idle from 0;
        //      the Out one (all packets) is not.
        // t=2.5 ms: In arrives, queue (0, 2): m_in = 2: avg_in = 0.5*(0.25*2) + 0 = 0.25;
        //      avg_out (not idle) = 0.5*4 + 0.5*2 = 3.
        let mut r = rio(seed002(0.5, 0.5));
        let mut rng = ScriptedUniform::new(&[0.5]);
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, IN),
            &q(4, 4, 0),
            &mut rng,
        );
        r.on_departure(Time::ZERO, &q(0, 2, 0));
        r.on_arrival(
            Time::from_micros(2_500),
            &PacketView::with_color(500, IN),
            &q(0, 2, 0),
            &mut rng,
        );
        assert!(close(r.avg(IN), 0.25), "{}", r.avg(IN));
        assert!(close(r.avg(OUT), 3.0), "{}", r.avg(OUT));
    }

    #[test]
    fn non_member_sampling_keeps_the_idle_period() {
        // Every-arrival sampling, coupled, w = 0.5. avg_in = 2 after the first In arrival.
        // In queue empty (idle) from t = 0. An Out arrival at 2.5 ms samples avg_in:
        // m = 2 -> avg_in = 0.5*(0.25*2) = 0.25; the idle period continues, accounted up to
        // 2 ms. An In arrival at 4.2 ms: m = floor(2.2) = 2 -> avg_in = 0.5*(0.25*0.25) =
        // 0.03125.
        let mut r = rio(RioConfig {
            sampling: AvgSampling::EveryArrival,
            ..seed002(0.5, 0.5)
        });
        let mut rng = ScriptedUniform::new(&[0.5]);
        r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, IN),
            &q(4, 4, 0),
            &mut rng,
        );
        r.on_departure(Time::ZERO, &q(0, 2, 0));
        r.on_arrival(
            Time::from_micros(2_500),
            &PacketView::with_color(500, OUT),
            &q(0, 2, 0),
            &mut rng,
        );
        assert!(close(r.avg(IN), 0.25), "{}", r.avg(IN));
        r.on_arrival(
            Time::from_micros(4_200),
            &PacketView::with_color(500, IN),
            &q(0, 3, 0),
            &mut rng,
        );
        assert!(close(r.avg(IN), 0.03125), "{}", r.avg(IN));
    }

    #[test]
    fn ns2_in_arrivals_only_sampling_ignores_out_arrivals() {
        // ns-2 rio.cc, coupled, w = 0.5 for both. An In arrival on (4 in, 4 out) samples
        // avg_in = 0.5*4 = 2 and avg_out (total) = 0.5*8 = 4. An Out arrival on (4, 10)
        // samples nothing (member sampling would give avg_out = 0.5*4 + 0.5*14 = 9). A
        // second In arrival on (6, 10): avg_in = 0.5*2 + 0.5*6 = 4, avg_out = 0.5*4 +
        // 0.5*16 = 10.
        let mut r = rio(RioConfig {
            sampling: AvgSampling::Ns2InArrivalsOnly,
            ..seed002(0.5, 0.5)
        });
        let mut rng = ScriptedUniform::new(&[0.999]);
        let t = Time::ZERO;
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(4, 4, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0), "{}", r.avg(IN));
        assert!(close(r.avg(OUT), 4.0), "{}", r.avg(OUT));
        r.on_arrival(t, &PacketView::with_color(500, OUT), &q(4, 10, 0), &mut rng);
        assert!(close(r.avg(IN), 2.0), "{}", r.avg(IN));
        assert!(close(r.avg(OUT), 4.0), "{}", r.avg(OUT));
        r.on_arrival(t, &PacketView::with_color(500, IN), &q(6, 10, 0), &mut rng);
        assert!(close(r.avg(IN), 4.0), "{}", r.avg(IN));
        assert!(close(r.avg(OUT), 10.0), "{}", r.avg(OUT));
    }

    #[test]
    fn ns2_out_forced_keeps_count_spreads_from_before_the_forced_run() {
        // Seed 002's curves, w = 1 (the average is the queue), wait on. Out: an arrival on
        // (100 in, 30 out) = 130 enters the early region (count 1, passes); 19 arrivals on
        // (150, 60) = 210 >= Out max_th 200 are forced drops; then one on 130 again:
        // p_b = 0.1*(130-60)/140 = 0.05. Floyd & Jacobson (default): every forced drop set
        // count to 0, so count = 1, count*p_b = 0.05 < 1: p_a = 0 (wait), it passes.
        // ns-2 rio.cc's Out branch: count = 1 + 19 + 1 = 21, count*p_b = 1.05:
        // p_a = 0.05/(2 - 1.05) = 0.05263 > u = 0.05: early drop. The same with the last
        // forced drop replaced by an overflow of an Out packet (`on_overflow`).
        let out = PacketView::with_color(500, OUT);
        let run = |keep: bool, overflow_last: bool| {
            let mut r = rio(RioConfig {
                wait: true,
                ns2_out_forced_keeps_count: keep,
                ..seed002(1.0, 1.0)
            });
            let mut rng = ScriptedUniform::new(&[0.05]);
            let t = Time::ZERO;
            assert_eq!(
                r.on_arrival(t, &out, &q(100, 30, 0), &mut rng),
                Verdict::Enqueue
            );
            let forced = if overflow_last { 18 } else { 19 };
            for _ in 0..forced {
                let v = r.on_arrival(t, &out, &q(150, 60, 0), &mut rng);
                assert_eq!(v, Verdict::Drop(DropReason::Forced));
            }
            if overflow_last {
                // Admitted at 130 with count 20 (p_a = 0.05/(2 - 1) = 0.05, u = 0.05 not
                // below it), then dropped by the buffer.
                assert_eq!(
                    r.on_arrival(t, &out, &q(100, 30, 0), &mut rng),
                    Verdict::Enqueue
                );
                r.on_overflow(&out);
            }
            r.on_arrival(t, &out, &q(100, 30, 0), &mut rng)
        };
        assert_eq!(run(false, false), Verdict::Enqueue);
        assert_eq!(run(true, false), Verdict::Drop(DropReason::Early));
        assert_eq!(run(false, true), Verdict::Enqueue);
        assert_eq!(run(true, true), Verdict::Drop(DropReason::Early));

        // The In precedence resets at a forced drop either way (rio.cc's In branch). In
        // (200, 250, 0.02): 240 enters the region; 99 forced drops at 260; then 240:
        // p_b = 0.02*40/50 = 0.016. Reset: count 1, p_a = 0: passes. Kept, count would be
        // 101, count*p_b = 1.616, p_a = 0.016/0.384 = 0.0417 > u = 0.02: a drop.
        let inp = PacketView::with_color(500, IN);
        let mut r = rio(RioConfig {
            wait: true,
            ns2_out_forced_keeps_count: true,
            ..seed002(1.0, 1.0)
        });
        let mut rng = ScriptedUniform::new(&[0.02]);
        let t = Time::ZERO;
        assert_eq!(
            r.on_arrival(t, &inp, &q(240, 0, 0), &mut rng),
            Verdict::Enqueue
        );
        for _ in 0..99 {
            let v = r.on_arrival(t, &inp, &q(260, 0, 0), &mut rng);
            assert_eq!(v, Verdict::Drop(DropReason::Forced));
        }
        assert_eq!(
            r.on_arrival(t, &inp, &q(240, 0, 0), &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(r.stats().forced_drops, [99, 0, 0]);
    }

    #[test]
    fn queue_in_bytes_counts_bytes_per_colour() {
        // Bytes, coupled, w = 1: In thresholds (2000, 4000) B, Out (1000, 2000) B.
        // Queue 3 green x 500 B + 2 yellow x 500 B: In vq 1500 B < 2000 -> enqueue;
        // Out vq 2500 B >= 2000 -> forced.
        let cfg = RioConfig {
            unit: QueueUnit::Bytes,
            ..RioConfig::two(
                RioLevel::new(2000.0, 4000.0, 0.1, 1.0),
                RioLevel::new(1000.0, 2000.0, 0.1, 1.0),
                PKT_TIME,
            )
        };
        let mut r = rio(cfg);
        let mut rng = ScriptedUniform::new(&[0.0]);
        let qv = q(3, 2, 0);
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::with_color(500, IN), &qv, &mut rng),
            Verdict::Enqueue
        );
        assert_eq!(
            r.on_arrival(Time::ZERO, &PacketView::with_color(500, OUT), &qv, &mut rng),
            Verdict::Drop(DropReason::Forced)
        );
        assert_eq!((r.avg(IN), r.avg(OUT)), (1500.0, 2500.0));
    }

    #[test]
    fn ecn_marks_and_overflow_resets_own_count() {
        let mut r = rio(RioConfig {
            ecn: Ecn::MarkAll,
            ..seed002(1.0, 1.0)
        });
        let mut rng = ScriptedUniform::new(&[0.0]);
        let v = r.on_arrival(
            Time::ZERO,
            &PacketView::with_color(500, OUT),
            &q(150, 60, 0),
            &mut rng,
        );
        assert_eq!(v, Verdict::Mark(DropReason::Forced));
        assert_eq!(r.stats().forced_marks, [0, 1, 0]);
        // Out region at total 130 (p_b = 0.05): enter, then count 2 with u = 0.9 passes;
        // an overflow of an Out packet resets the Out count: the next arrival has count 1,
        // p_a = 0.05/0.95 = 0.0526 < u = 0.053 -> pass (count 3 would give 0.0588 -> drop).
        let mut r = rio(seed002(1.0, 1.0));
        let mut rng = ScriptedUniform::new(&[0.9, 0.053]);
        let out = PacketView::with_color(500, OUT);
        let qv = q(100, 30, 0);
        r.on_arrival(Time::ZERO, &out, &qv, &mut rng);
        r.on_arrival(Time::ZERO, &out, &qv, &mut rng);
        r.on_overflow(&PacketView::with_color(500, IN)); // In overflow: Out count untouched
        r.on_overflow(&out);
        assert_eq!(
            r.on_arrival(Time::ZERO, &out, &qv, &mut rng),
            Verdict::Enqueue
        );
    }

    #[test]
    fn nearly_empty_rule_looks_at_the_own_virtual_queue() {
        // In (2, 4, 0.1, w = 0.5), Out (60, 200): In arrivals with 10 In queued raise avg_in:
        // 5, 7.5, ... >= 4 (forced drops happen meanwhile). Then an In arrival with 1 In and
        // 100 Out queued: avg_in = 0.5*avg + 0.5 >= 4 still, but the In virtual queue holds
        // only 1 packet: no drop (the whole queue, 101, would not protect it).
        let mut r = rio(RioConfig::two(
            RioLevel::new(2.0, 4.0, 0.1, 0.5),
            RioLevel::new(60.0, 200.0, 0.1, 1.0),
            PKT_TIME,
        ));
        let mut rng = ScriptedUniform::new(&[0.0]);
        let inp = PacketView::with_color(500, IN);
        for _ in 0..4 {
            r.on_arrival(Time::ZERO, &inp, &q(10, 0, 0), &mut rng);
        }
        assert!(r.avg(IN) > 9.0);
        assert_eq!(
            r.on_arrival(Time::ZERO, &inp, &q(1, 100, 0), &mut rng),
            Verdict::Enqueue
        );
        assert!(r.avg(IN) >= 4.0);
    }

    #[test]
    fn rejects_broken_precedences_naming_them() {
        let good = RioLevel::new(10.0, 20.0, 0.1, 0.002);
        assert!(RioParams::new(RioConfig::two(good, good, PKT_TIME)).is_ok());
        let bad = RioLevel { max_p: 0.0, ..good };
        let e = RioParams::new(RioConfig::two(good, bad, PKT_TIME)).unwrap_err();
        assert!(e.to_string().contains("out"), "{e}");
        let inverted = RioLevel {
            min_th: 30.0,
            ..good
        };
        let e = RioParams::new(RioConfig::three(good, good, inverted, PKT_TIME)).unwrap_err();
        assert!(
            matches!(&e, ConfigError::Relation { detail, .. } if detail.contains("red")),
            "{e}"
        );
        let e = RioParams::new(RioConfig {
            mean_pkt_size: 0,
            ..RioConfig::two(good, good, PKT_TIME)
        });
        assert!(e.is_err());
        let p = RioParams::new(RioConfig::two(good, good, PKT_TIME)).unwrap();
        assert_eq!((p.precedences(), p.level_of(Color::Red)), (2, 1));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Green is never dropped or marked while the green average is below green min_th,
        /// in any coupling and sampling mode, whatever the other colours do; and each
        /// colour's average stays within [0, the largest virtual queue it has sampled].
        #[test]
        fn green_protected_below_its_min_th(
            ops in prop::collection::vec((0u8..4, 0u64..2_000, 40u32..1500), 1..300),
            w in prop::array::uniform3(0.001f64..=1.0),
            decoupled: bool,
            every: bool,
            three: bool,
            seed: u64,
        ) {
            let lv = |i: usize, lo: f64| RioLevel::new(lo, lo + 10.0, 0.1, w[i]);
            let (g, y, r) = (lv(0, 20.0), lv(1, 5.0), lv(2, 2.0));
            let base = if three { RioConfig::three(g, y, r, PKT_TIME) } else { RioConfig::two(g, y, PKT_TIME) };
            let cfg = RioConfig {
                coupling: if decoupled { Coupling::Decoupled } else { Coupling::Coupled },
                sampling: if every { AvgSampling::EveryArrival } else { AvgSampling::MemberArrivals },
                ..base
            };
            let mut rio = rio(cfg);
            let mut rng = Rng::from_seed(seed);
            let mut qv = QueueView::EMPTY;
            let mut fifo = std::collections::VecDeque::new();
            let mut now = Time::ZERO;
            let mut max_seen = [0u64; 3];
            let mut dropped = [0u64; 3];
            for (kind, gap_us, size) in ops {
                now += Duration::from_micros(gap_us);
                if kind == 3 {
                    if let Some((s, c)) = fifo.pop_front() {
                        qv.pop(s, c);
                    }
                    rio.on_departure(now, &qv);
                    continue;
                }
                let c = Color::ALL[kind as usize];
                let n = rio.params().precedences();
                for (l, seen) in max_seen.iter_mut().enumerate().take(n) {
                    *seen = (*seen).max(rio.vq_len(&qv, l, QueueUnit::Packets));
                }
                let v = rio.on_arrival(now, &PacketView::with_color(size, c), &qv, &mut rng);
                for col in Color::ALL {
                    let l = rio.params().level_of(col);
                    prop_assert!(rio.avg(col) >= 0.0 && rio.avg(col) <= max_seen[l] as f64 * (1.0 + 1e-12));
                }
                if c == Color::Green && rio.avg(Color::Green) < 20.0 {
                    prop_assert_eq!(v, Verdict::Enqueue);
                }
                match v {
                    Verdict::Enqueue => {
                        qv.push(size, c);
                        fifo.push_back((size, c));
                    }
                    Verdict::Drop(_) => dropped[c.index()] += 1,
                    Verdict::Mark(_) => prop_assert!(false, "ECN is off"),
                }
            }
            // Every drop verdict was counted under the dropped packet's colour.
            for c in Color::ALL {
                prop_assert_eq!(rio.stats().drops_of(c), dropped[c.index()]);
            }
        }
    }
}
