//! Adaptive RED (S. Floyd, R. Gummadi, S. Shenker, "Adaptive RED: An Algorithm for
//! Increasing the Robustness of RED's Active Queue Management", 2001), as ns-2's `red.cc`
//! runs it with `adaptive_ 1`.
//!
//! Adaptive RED is [`Red`] whose `max_p` is steered so that the average queue stays in the
//! target band `[min_th + 0.4·(max_th − min_th), min_th + 0.6·(max_th − min_th)]` (§4,
//! Fig. 6): at most once per `interval` (0.5 s),
//! * if `avg` is above the band and `max_p < top` (0.5): `max_p ← max_p + α` with
//!   `α = min(0.01, max_p/4)` (additive increase);
//! * if `avg` is below the band and `max_p > bottom` (0.01): `max_p ← β·max_p`, `β = 0.9`
//!   (multiplicative decrease).
//!
//! # Choices the paper leaves open
//! * **No timer.** The paper says "every interval seconds"; being sans-IO, we do it lazily
//!   on arrivals, as ns-2 does: each arrival first updates the average, then, if more than
//!   `interval` has passed since the last *change* of `max_p` (ns-2 `lastset`, starting at
//!   time zero; strictly more, as ns-2's `now > lastset + interval`), applies the rule to
//!   the new average, and finally takes the RED decision with the possibly new `max_p`.
//!   Like ns-2, a check that leaves `max_p` unchanged (average in the band, or at a bound)
//!   does not restart the interval, so the next out-of-band arrival may adapt at once.
//! * **Bounds.** The guards are ns-2's (`max_p < top` to increase, `max_p > bottom` to
//!   decrease); in addition the result is clamped to `[bottom, top]`, so `max_p` never
//!   leaves that range (ns-2 and the paper's pseudo-code can overshoot by one step). Against
//!   ns-2.35 in RFC 4828 B.4's Adaptive RED set-up (issue 14, finding 13) max_p stayed in
//!   0.07..0.19 in both simulators, so the clamp did not act there.
//! * **Gentle slope** uses the current `max_p` (see [`red`](super::red)).
//! * **Automatic parameters** ([`AdaptiveRedParams::automatic`]) follow ns-2's
//!   `initialize_params` for `q_weight_ = 0`, `thresh_ = 0`, `maxthresh_ = 0`, with the
//!   paper's recommendations (§5): link capacity `C` in mean-size packets per second,
//!   `w_q = 1 − exp(−1/C)` (the average's time constant `−1/ln(1 − w_q)` is then `C`
//!   arrivals, one second at line rate, ten 100-ms round trips), computed as
//!   `−expm1(−1/C)` for precision; `min_th = max(5, target_delay·C/2)`,
//!   `max_th = 3·min_th`, gentle on, initial `max_p = 0.1` (ns-2 `linterm_ 10`), queue in
//!   packets. ns-2 additionally lowers `bottom` to `80000/bandwidth` on links faster than
//!   8 Mb/s when `bottom_ = 0`; we keep the paper's 0.01 (set
//!   [`AdaptiveRedConfig::bottom`] to reproduce ns-2).

use super::red::{Red, RedConfig, RedParams};
use super::AqmStats;
use crate::{ConfigError, Duration, PacketView, QueueView, RandomSource, Rate, Time, Verdict};

/// The adaptation settings, before validation by [`AdaptiveRedParams::new`].
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct AdaptiveRedConfig {
    /// Minimum time between changes of `max_p` (paper: 0.5 s).
    pub interval: Duration,
    /// Cap of the additive step; the step is `min(alpha, max_p/4)` (paper: 0.01).
    pub alpha: f64,
    /// Multiplicative decrease factor (paper: 0.9).
    pub beta: f64,
    /// Upper bound of `max_p` (paper: 0.5).
    pub top: f64,
    /// Lower bound of `max_p` (paper: 0.01).
    pub bottom: f64,
}

impl Default for AdaptiveRedConfig {
    /// The paper's values: interval 0.5 s, α ≤ 0.01, β = 0.9, `max_p ∈ [0.01, 0.5]`.
    fn default() -> Self {
        AdaptiveRedConfig {
            interval: Duration::from_millis(500),
            alpha: 0.01,
            beta: 0.9,
            top: 0.5,
            bottom: 0.01,
        }
    }
}

/// Validated Adaptive RED settings: the RED settings (whose `max_p` is the initial value)
/// and the adaptation settings.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct AdaptiveRedParams {
    red: RedParams,
    cfg: AdaptiveRedConfig,
}

impl AdaptiveRedParams {
    /// Validates: `interval > 0`, `alpha > 0`, `0 < beta < 1`, `0 < bottom ≤ top ≤ 1`, and
    /// the initial `max_p` within `[bottom, top]`.
    pub fn new(red: RedParams, cfg: AdaptiveRedConfig) -> Result<Self, ConfigError> {
        if cfg.interval == Duration::ZERO {
            return Err(ConfigError::out_of_range("interval", cfg.interval, "> 0"));
        }
        if !(cfg.alpha > 0.0 && cfg.alpha.is_finite()) {
            return Err(ConfigError::out_of_range("alpha", cfg.alpha, "finite, > 0"));
        }
        if !(cfg.beta > 0.0 && cfg.beta < 1.0) {
            return Err(ConfigError::out_of_range("beta", cfg.beta, "(0, 1)"));
        }
        if !(cfg.bottom > 0.0 && cfg.top <= 1.0 && cfg.bottom <= cfg.top) {
            return Err(ConfigError::relation(
                "0 < bottom <= top <= 1",
                "Floyd, Gummadi & Shenker 2001 §4 (max_p kept in [0.01, 0.5])",
                format!("bottom = {}, top = {}", cfg.bottom, cfg.top),
            ));
        }
        let p0 = red.config().max_p;
        if !(cfg.bottom <= p0 && p0 <= cfg.top) {
            return Err(ConfigError::relation(
                "bottom <= initial max_p <= top",
                "Floyd, Gummadi & Shenker 2001 §4",
                format!("max_p = {p0}, range [{}, {}]", cfg.bottom, cfg.top),
            ));
        }
        Ok(AdaptiveRedParams { red, cfg })
    }

    /// ns-2's automatic settings for a link of `link_rate`, packets of `mean_pkt_size`
    /// bytes and a target queueing delay (paper: 5 ms); see the module documentation.
    pub fn automatic(
        link_rate: Rate,
        mean_pkt_size: u32,
        target_delay: Duration,
    ) -> Result<Self, ConfigError> {
        if link_rate.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "link_rate",
                link_rate.bps(),
                "> 0 bit/s",
            ));
        }
        if mean_pkt_size == 0 {
            return Err(ConfigError::out_of_range(
                "mean_pkt_size",
                mean_pkt_size,
                ">= 1 byte",
            ));
        }
        if target_delay == Duration::ZERO {
            return Err(ConfigError::out_of_range(
                "target_delay",
                target_delay,
                "> 0",
            ));
        }
        // C: link capacity in mean-size packets per second (ns-2 ptc).
        let c = link_rate.bytes_per_sec() / mean_pkt_size as f64;
        // ns-2: q_w = 1 - exp(-1/C); computed as -expm1(-1/C) to keep precision for large C.
        let w_q = -libm::expm1(-1.0 / c);
        // ns-2: th_min = max(5, target_delay * C / 2); th_max = 3 * th_min.
        let min_th = (target_delay.as_secs_f64() * c / 2.0).max(5.0);
        let max_th = 3.0 * min_th;
        let red = RedParams::new(RedConfig {
            gentle: true,
            mean_pkt_size,
            ..RedConfig::new(
                min_th,
                max_th,
                0.1,
                w_q,
                link_rate.tx_time(mean_pkt_size as u64),
            )
        })?;
        AdaptiveRedParams::new(red, AdaptiveRedConfig::default())
    }

    pub fn red(&self) -> &RedParams {
        &self.red
    }
    pub fn config(&self) -> &AdaptiveRedConfig {
        &self.cfg
    }
}

/// The state of an Adaptive RED queue.
#[derive(Clone, Debug)]
pub struct AdaptiveRed {
    red: Red,
    cfg: AdaptiveRedConfig,
    /// When `max_p` last changed (ns-2 `lastset`).
    last_set: Time,
}

impl AdaptiveRed {
    pub fn new(params: AdaptiveRedParams) -> AdaptiveRed {
        AdaptiveRed {
            red: Red::new(params.red),
            cfg: params.cfg,
            last_set: Time::ZERO,
        }
    }

    /// Decides on an arriving packet (`q` before it is added): average update, lazy
    /// adaptation of `max_p`, RED decision. The buffer limit is the caller's.
    pub fn on_arrival<R: RandomSource>(
        &mut self,
        now: Time,
        pkt: &PacketView,
        q: &QueueView,
        rng: &mut R,
    ) -> Verdict {
        self.red.sample(now, q);
        self.adapt(now);
        self.red.judge(pkt, q, rng)
    }

    /// Notes a departure (see [`Red::on_departure`]).
    pub fn on_departure(&mut self, now: Time, q_after: &QueueView) {
        self.red.on_departure(now, q_after);
    }

    /// See [`Red::on_overflow`].
    pub fn on_overflow(&mut self) {
        self.red.on_overflow();
    }

    /// The AIMD rule of §4, applied at most once per interval.
    fn adapt(&mut self, now: Time) {
        // ns-2: if (now > lastset + interval) updateMaxP(new_ave, now).
        if now.saturating_since(self.last_set) <= self.cfg.interval {
            return;
        }
        let rc = self.red.params().config();
        let avg = self.red.avg();
        let max_p = self.red.max_p();
        // Paper §4: target band [min_th + 0.4 (max_th - min_th), min_th + 0.6 (max_th - min_th)].
        let part = 0.4 * (rc.max_th - rc.min_th);
        let new = if avg > rc.max_th - part && max_p < self.cfg.top {
            // Paper: "if (avg > target and max_p <= 0.5): max_p <- max_p + alpha",
            // alpha = min(0.01, max_p/4).
            (max_p + self.cfg.alpha.min(max_p / 4.0)).min(self.cfg.top)
        } else if avg < rc.min_th + part && max_p > self.cfg.bottom {
            // Paper: "elseif (avg < target and max_p >= 0.01): max_p <- max_p * beta".
            (max_p * self.cfg.beta).max(self.cfg.bottom)
        } else {
            return;
        };
        self.red.set_max_p(new);
        self.last_set = now;
    }

    /// The average queue as of the last arrival.
    pub fn avg(&self) -> f64 {
        self.red.avg()
    }
    /// The current `max_p`.
    pub fn max_p(&self) -> f64 {
        self.red.max_p()
    }
    /// The underlying RED queue.
    pub fn red(&self) -> &Red {
        &self.red
    }
    pub fn stats(&self) -> &AqmStats {
        self.red.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ScriptedUniform;
    use crate::{Color, DropReason, Rng};
    use proptest::prelude::*;

    fn q_of(pkts: u32) -> QueueView {
        let mut q = QueueView::EMPTY;
        for _ in 0..pkts {
            q.push(500, Color::Green);
        }
        q
    }

    /// Adaptive RED with thresholds 10/20 (band [14, 16]), w_q = 1 (avg = q), max_p0.
    fn ared(max_p: f64) -> AdaptiveRed {
        let red = RedParams::new(RedConfig::new(
            10.0,
            20.0,
            max_p,
            1.0,
            Duration::from_millis(1),
        ))
        .unwrap();
        AdaptiveRed::new(AdaptiveRedParams::new(red, AdaptiveRedConfig::default()).unwrap())
    }

    fn arrive(a: &mut AdaptiveRed, ms: u64, q: u32) -> Verdict {
        let mut rng = ScriptedUniform::new(&[0.999]);
        a.on_arrival(
            Time::from_millis(ms),
            &PacketView::new(500),
            &q_of(q),
            &mut rng,
        )
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn ns2_gentle_line_keeps_the_initial_max_p() {
        // Gentle, thresholds 10/20, w_q = 1, max_p0 = 0.1, no wait.
        let make = |ns2| {
            let red = RedParams::new(RedConfig {
                gentle: true,
                ns2_gentle_initial_max_p: ns2,
                ..RedConfig::new(10.0, 20.0, 0.1, 1.0, Duration::from_millis(1))
            })
            .unwrap();
            AdaptiveRed::new(AdaptiveRedParams::new(red, AdaptiveRedConfig::default()).unwrap())
        };
        for (ns2, want) in [
            (false, Verdict::Enqueue),
            (true, Verdict::Drop(DropReason::Early)),
        ] {
            let mut a = make(ns2);
            let mut rng = ScriptedUniform::new(&[0.12]);
            let p = PacketView::new(500);
            // t = 501 ms, avg 12 < 14 (band [14, 16]): max_p 0.1 -> 0.09; the arrival enters
            // the early region (passes, count 1).
            let v = a.on_arrival(Time::from_millis(501), &p, &q_of(12), &mut rng);
            assert_eq!(v, Verdict::Enqueue);
            assert!(close(a.max_p(), 0.09));
            // t = 502 ms, avg 20 = max_th (gentle part), count 2:
            //  ours: p_b = 0.09,             p_a = 0.09/(1 - 0.18) = 0.10976 < u = 0.12: pass;
            //  ns-2: p_b = 0.1 (initial max_p), p_a = 0.1/(1 - 0.2) = 0.125 > 0.12: drop.
            let v = a.on_arrival(Time::from_millis(502), &p, &q_of(20), &mut rng);
            assert_eq!(v, want, "ns2_gentle_initial_max_p = {ns2}");
        }
    }

    #[test]
    fn increase_steps_are_min_of_alpha_and_quarter_max_p() {
        let mut a = ared(0.02);
        // t = 0.5 s exactly: not strictly more than the interval since lastset = 0 -> no change.
        arrive(&mut a, 500, 18);
        assert_eq!(a.max_p(), 0.02);
        // t = 0.501 s: avg 18 > 16: alpha = min(0.01, 0.02/4 = 0.005) -> 0.025.
        arrive(&mut a, 501, 18);
        assert!(close(a.max_p(), 0.025));
        // Within the next interval nothing changes.
        arrive(&mut a, 1001, 18);
        assert!(close(a.max_p(), 0.025));
        // t = 1.002 s: alpha = min(0.01, 0.00625) -> 0.03125.
        arrive(&mut a, 1002, 18);
        assert!(close(a.max_p(), 0.03125));
        // From max_p = 0.1: alpha = min(0.01, 0.025) = 0.01 -> 0.11.
        let mut b = ared(0.1);
        arrive(&mut b, 600, 19);
        assert!(close(b.max_p(), 0.11));
    }

    #[test]
    fn decrease_steps_multiply_by_beta() {
        let mut a = ared(0.1);
        arrive(&mut a, 600, 12); // avg 12 < 14: 0.1 * 0.9 = 0.09
        assert!(close(a.max_p(), 0.09));
        arrive(&mut a, 1101, 0); // 0.09 * 0.9 = 0.081
        assert!(close(a.max_p(), 0.081));
    }

    #[test]
    fn in_band_does_not_restart_the_interval() {
        let mut a = ared(0.1);
        arrive(&mut a, 600, 15); // in the band [14, 16]: no change, lastset stays 0
        assert_eq!(a.max_p(), 0.1);
        arrive(&mut a, 601, 17); // out of band 1 ms later: adapts at once -> 0.11
        assert!(close(a.max_p(), 0.11));
    }

    #[test]
    fn max_p_is_clamped_to_its_bounds() {
        // 0.495 + min(0.01, 0.12375) = 0.505 -> clamped to top = 0.5; then no more increases.
        let mut a = ared(0.495);
        arrive(&mut a, 600, 19);
        assert!(close(a.max_p(), 0.5));
        arrive(&mut a, 1200, 19);
        assert!(close(a.max_p(), 0.5));
        // 0.0105 * 0.9 = 0.00945 -> clamped to 0.01.
        let mut b = ared(0.0105);
        arrive(&mut b, 600, 0);
        assert!(close(b.max_p(), 0.01));
    }

    #[test]
    fn the_new_max_p_is_used_for_the_same_arrival() {
        // avg 12 < 14 at t = 0.6 s: max_p 0.5 -> 0.45 before the decision, so
        // p_b = 0.45 * 2/10 = 0.09 and, at count 2, p_a = 0.09/(1 - 0.18) = 0.10976 < u = 0.11.
        let mut a = ared(0.5);
        let mut rng = ScriptedUniform::new(&[0.11]);
        let p = PacketView::new(500);
        a.on_arrival(Time::from_millis(1), &p, &q_of(12), &mut rng); // enters the region
                                                                     // With max_p 0.5, p_b = 0.1, p_a = 0.1/0.8 = 0.125 > 0.11 would drop.
        let v = a.on_arrival(Time::from_millis(600), &p, &q_of(12), &mut rng);
        assert!(close(a.max_p(), 0.45));
        assert_eq!(v, Verdict::Enqueue);
    }

    #[test]
    fn automatic_parameters() {
        // 10 Mb/s, 500-byte packets: C = 1.25e6/500 = 2500 pkt/s.
        // w_q = 1 - exp(-1/2500) = 3.9992e-4; min_th = max(5, 0.005*2500/2 = 6.25) = 6.25;
        // max_th = 18.75; idle_pkt_time = 4000 bits / 1e7 = 400 us.
        let p = AdaptiveRedParams::automatic(Rate::from_mbps(10), 500, Duration::from_millis(5))
            .unwrap();
        let rc = p.red().config();
        assert!((rc.w_q - (1.0 - (-1.0f64 / 2500.0).exp())).abs() < 1e-15);
        assert!(close(rc.min_th, 6.25));
        assert!(close(rc.max_th, 18.75));
        assert!(rc.gentle);
        assert_eq!(rc.idle_pkt_time, Duration::from_micros(400));
        assert_eq!(rc.max_p, 0.1);
        // 1 Mb/s: C = 250 pkt/s, 0.005*250/2 = 0.625 < 5 -> min_th = 5, max_th = 15.
        let p = AdaptiveRedParams::automatic(Rate::from_mbps(1), 500, Duration::from_millis(5))
            .unwrap();
        assert_eq!(
            (p.red().config().min_th, p.red().config().max_th),
            (5.0, 15.0)
        );
        assert!(AdaptiveRedParams::automatic(Rate(0), 500, Duration::from_millis(5)).is_err());
        assert!(
            AdaptiveRedParams::automatic(Rate::from_mbps(1), 0, Duration::from_millis(5)).is_err()
        );
        assert!(AdaptiveRedParams::automatic(Rate::from_mbps(1), 500, Duration::ZERO).is_err());
    }

    #[test]
    fn rejects_each_broken_rule() {
        let red = |max_p| {
            RedParams::new(RedConfig::new(
                5.0,
                15.0,
                max_p,
                0.002,
                Duration::from_millis(1),
            ))
            .unwrap()
        };
        let d = AdaptiveRedConfig::default();
        assert!(AdaptiveRedParams::new(red(0.1), d).is_ok());
        let bad = [
            (
                0.1,
                AdaptiveRedConfig {
                    interval: Duration::ZERO,
                    ..d
                },
            ),
            (0.1, AdaptiveRedConfig { alpha: 0.0, ..d }),
            (0.1, AdaptiveRedConfig { beta: 1.0, ..d }),
            (0.1, AdaptiveRedConfig { bottom: 0.0, ..d }),
            (0.1, AdaptiveRedConfig { bottom: 0.6, ..d }),
            (0.6, d),   // initial max_p above top
            (0.005, d), // initial max_p below bottom
        ];
        for (p0, cfg) in bad {
            assert!(
                AdaptiveRedParams::new(red(p0), cfg).is_err(),
                "{p0} {cfg:?}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// max_p never leaves [bottom, top], whatever the queue does.
        #[test]
        fn max_p_stays_in_bounds(
            steps in prop::collection::vec((0u64..400, 0u32..40), 1..200),
            p0 in 0.01f64..=0.5,
            seed: u64,
        ) {
            let red = RedParams::new(RedConfig {
                gentle: true,
                ..RedConfig::new(10.0, 20.0, p0, 0.2, Duration::from_millis(1))
            }).unwrap();
            let mut a = AdaptiveRed::new(AdaptiveRedParams::new(red, AdaptiveRedConfig::default()).unwrap());
            let mut rng = Rng::from_seed(seed);
            let mut now = Time::ZERO;
            for (gap_ms, q) in steps {
                now += Duration::from_millis(gap_ms);
                a.on_arrival(now, &PacketView::new(500), &q_of(q), &mut rng);
                prop_assert!(a.max_p() >= 0.01 && a.max_p() <= 0.5, "{}", a.max_p());
            }
        }
    }
}
