//! The Time Sliding Window (TSW) rate estimator and the two-colour TSW tagger (TSW2CM).
//!
//! # Estimator (Clark & Fang 1998 §3.3; RFC 2859 §4.1, Figure 2)
//!
//! RFC 2859 §2.0 splits the TSWTCM into "two independent components: a rate estimator, and
//! a marker"; §4.1's Figure 2 ("Example Rate Estimator Algorithm", with `AVG_INTERVAL` the
//! "time window over which history is kept", here the window) reads, on each arrival of
//! `pkt_size` bytes at `now`:
//!
//! ```text
//! Bytes_in_win = avg-rate * AVG_INTERVAL
//! New_bytes    = Bytes_in_win + pkt_size
//! avg-rate     = New_bytes / (now - t-front + AVG_INTERVAL)
//! t-front      = now
//! ```
//!
//! "Initially: AVG_INTERVAL = a constant; avg-rate = CTR; t-front = 0" (the TSW2CM starts
//! at its target rate). This module follows the figure line by line (checked against the
//! RFC text; the figure is presented as an example estimator, and qoslab uses exactly it).
//!
//! Choices left open, documented:
//! - The estimator is defined in real arithmetic, so `avg_rate` is an `f64` in **bytes per
//!   second** (`pkt_size` is in bytes); `now − t_front` is computed exactly in integer ns and
//!   converted to seconds once (exact below 2⁵³ ns ≈ 104 days).
//! - Time going backwards (not in the RFC, which assumes arrival order): a `now` before
//!   `t_front` counts as zero elapsed time and `t_front` is not moved back.
//! - Time 0 is the start of the run (or of the trace), as in ns-2.
//! - Default window: **1 s**, the default `winLen` of the ns-2 DiffServ module
//!   (`dsPolicy.cc`, Nortel), which the RIO seed paper (Hori et al. 2001) used for its TSW
//!   taggers. Clark & Fang discuss a window "in the order of an RTT" for a tagger in the host
//!   and a longer one at the edge; callers choose via [`TswParams::new`].
//!
//! # TSW2CM (Clark & Fang "probabilistic tagging"; RIO seed §2)
//!
//! After updating the estimate: if `avg_rate ≤ target` the packet is In (green); otherwise it
//! is Out (yellow) with probability `(avg_rate − target)/avg_rate`, so that Out packets are
//! spread out instead of marking whole bursts (Clark & Fang's fix for TCP). Choices:
//! - One uniform `u ∈ [0,1)` is drawn only when `avg_rate > target`; Out iff `u < p`.
//! - Colour-aware mode: the estimator counts every packet, but a packet already yellow or red
//!   keeps its colour (no uniform drawn); only green packets can be tagged Out.

use crate::error::ConfigError;
use crate::meter::{ColorCounters, ColorMode, MeterVerdict};
use crate::packet::{Color, PacketView};
use crate::rng::RandomSource;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Default TSW window: 1 s (ns-2 DiffServ `winLen` default).
pub const DEFAULT_WINDOW: Duration = Duration::from_secs(1);

/// Validated estimator settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TswParams {
    pub window: Duration,
    /// Initial `avg_rate` (the target rate: RFC 2859 "avg-rate = CTR").
    pub initial_rate: Rate,
}

impl TswParams {
    pub fn new(window: Duration, initial_rate: Rate) -> Result<Self, ConfigError> {
        if window == Duration::ZERO {
            return Err(ConfigError::out_of_range(
                "window",
                "0 s",
                "> 0 (RFC 2859 §4.1 divides by now - t_front + win_length)",
            ));
        }
        Ok(TswParams {
            window,
            initial_rate,
        })
    }
}

/// The TSW rate estimator.
#[derive(Clone, Debug, PartialEq)]
pub struct Tsw {
    /// Window length in seconds.
    win_s: f64,
    /// Estimated rate in bytes per second.
    avg_rate: f64,
    t_front: Time,
}

impl Tsw {
    pub fn new(params: TswParams) -> Self {
        Tsw {
            win_s: params.window.as_secs_f64(),
            avg_rate: params.initial_rate.bytes_per_sec(),
            t_front: Time::ZERO,
        }
    }

    /// Updates the estimate with a packet of `size` bytes arriving at `now` and returns the new
    /// estimate in bytes per second.
    pub fn update(&mut self, now: Time, size: u32) -> f64 {
        // RFC 2859 §4.1 (Figure 2): Bytes_in_win = avg-rate * AVG_INTERVAL
        let bytes_in_win = self.avg_rate * self.win_s;
        // New_bytes = Bytes_in_win + pkt_size
        let new_bytes = bytes_in_win + size as f64;
        // avg-rate = New_bytes / (now - t-front + AVG_INTERVAL)
        let elapsed = now.saturating_since(self.t_front).as_secs_f64();
        self.avg_rate = new_bytes / (elapsed + self.win_s);
        // t-front = now (never moved back, see the module docs)
        self.t_front = self.t_front.max(now);
        self.avg_rate
    }

    /// Current estimate in bytes per second.
    pub fn rate_bytes_per_sec(&self) -> f64 {
        self.avg_rate
    }
    /// Current estimate in bit/s.
    pub fn rate_bps(&self) -> f64 {
        self.avg_rate * 8.0
    }
    pub fn t_front(&self) -> Time {
        self.t_front
    }
}

/// Validated TSW2CM settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tsw2cmParams {
    pub mode: ColorMode,
    pub target: Rate,
    pub window: Duration,
}

impl Tsw2cmParams {
    pub fn new(mode: ColorMode, target: Rate, window: Duration) -> Result<Self, ConfigError> {
        if target.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "target",
                "0 bit/s",
                "> 0 bit/s (every packet would be Out)",
            ));
        }
        TswParams::new(window, target)?;
        Ok(Tsw2cmParams {
            mode,
            target,
            window,
        })
    }
}

/// The two-colour TSW tagger: In (green) / Out (yellow).
#[derive(Clone, Debug)]
pub struct Tsw2cm {
    params: Tsw2cmParams,
    tsw: Tsw,
    target_bytes_per_sec: f64,
    stats: ColorCounters,
}

impl Tsw2cm {
    pub fn new(params: Tsw2cmParams) -> Self {
        Tsw2cm {
            params,
            tsw: Tsw::new(TswParams {
                window: params.window,
                initial_rate: params.target,
            }),
            target_bytes_per_sec: params.target.bytes_per_sec(),
            stats: ColorCounters::default(),
        }
    }
    pub fn params(&self) -> &Tsw2cmParams {
        &self.params
    }
    pub fn estimator(&self) -> &Tsw {
        &self.tsw
    }
    pub fn counters(&self) -> &ColorCounters {
        &self.stats
    }

    pub fn mark<R: RandomSource>(&mut self, now: Time, pkt: &PacketView, rng: &mut R) -> Color {
        let rate = self.tsw.update(now, pkt.size);
        let color = if self.params.mode == ColorMode::Aware && pkt.color != Color::Green {
            // Colour-aware: a pre-coloured Out (or red) packet is never promoted.
            pkt.color
        } else if rate <= self.target_bytes_per_sec {
            Color::Green
        } else {
            // Out with probability (avg_rate - target) / avg_rate (Clark & Fang).
            let p_out = (rate - self.target_bytes_per_sec) / rate;
            if rng.uniform() < p_out {
                Color::Yellow
            } else {
                Color::Green
            }
        };
        self.stats.record(MeterVerdict::Pass(color), pkt.size);
        color
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, ScriptedUniform};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn estimator_hand_computed() {
        // Window 1 s, initial rate 1000 B/s (8 kbit/s).
        let mut t = Tsw::new(TswParams::new(Duration::from_secs(1), Rate(8000)).unwrap());
        // At t = 1 s, 500 B: (1000·1 + 500) / (1 - 0 + 1) = 750 B/s.
        assert!(close(t.update(Time::from_secs(1), 500), 750.0));
        // At t = 1.5 s, 1000 B: (750 + 1000) / (0.5 + 1) = 1166.666... B/s.
        assert!(close(t.update(Time::from_millis(1500), 1000), 1750.0 / 1.5));
        // Same instant, 0.5 s later clock unchanged: (1166.67 + 100) / (0 + 1) = 1266.67.
        assert!(close(
            t.update(Time::from_millis(1500), 100),
            1750.0 / 1.5 + 100.0
        ));
        assert_eq!(t.t_front(), Time::from_millis(1500));
        assert!(TswParams::new(Duration::ZERO, Rate(1)).is_err());
    }

    #[test]
    fn estimator_converges_to_a_constant_rate() {
        // 1000 B every 10 ms = 100 kB/s; after 20 windows the estimate is within 1 %.
        let mut t = Tsw::new(TswParams::new(Duration::from_millis(100), Rate(8)).unwrap());
        let mut r = 0.0;
        for i in 1..=2000u64 {
            r = t.update(Time::from_millis(10 * i), 1000);
        }
        assert!((r - 100_000.0).abs() < 1000.0, "{r}");
    }

    #[test]
    fn tsw2cm_probabilistic_tagging() {
        // Target 8 kbit/s = 1000 B/s, window 1 s. At t = 0.5 s a 1000 B packet:
        // avg = (1000 + 1000)/(0.5 + 1) = 1333.33 B/s > 1000 -> p_out = 333.33/1333.33 = 0.25.
        let p = Tsw2cmParams::new(ColorMode::Blind, Rate(8000), Duration::from_secs(1)).unwrap();
        let mut a = Tsw2cm::new(p);
        let mut u = ScriptedUniform::new(&[0.2499]);
        assert_eq!(
            a.mark(Time::from_millis(500), &PacketView::new(1000), &mut u),
            Color::Yellow
        );
        let mut b = Tsw2cm::new(p);
        let mut u = ScriptedUniform::new(&[0.2501]);
        assert_eq!(
            b.mark(Time::from_millis(500), &PacketView::new(1000), &mut u),
            Color::Green
        );
        // Below target no uniform is consumed: at t = 10 s, avg = (1000 + 1)/(10 + 1) < 1000.
        let mut c = Tsw2cm::new(p);
        let mut u = ScriptedUniform::new(&[0.0]);
        assert_eq!(
            c.mark(Time::from_secs(10), &PacketView::new(1), &mut u),
            Color::Green
        );
    }

    #[test]
    fn tsw2cm_aware_keeps_out_and_long_run_out_share() {
        let p = Tsw2cmParams::new(ColorMode::Aware, Rate(8000), Duration::from_secs(1)).unwrap();
        let mut a = Tsw2cm::new(p);
        let mut u = ScriptedUniform::new(&[0.0]);
        // Far below target, but Out stays Out and red stays red.
        assert_eq!(
            a.mark(
                Time::from_secs(5),
                &PacketView::with_color(10, Color::Yellow),
                &mut u
            ),
            Color::Yellow
        );
        assert_eq!(
            a.mark(
                Time::from_secs(6),
                &PacketView::with_color(10, Color::Red),
                &mut u
            ),
            Color::Red
        );

        // Sending at twice the target for long: avg -> 2·target, p_out -> 1/2, so about half the
        // packets are Out (In traffic ≈ target).
        let p = Tsw2cmParams::new(ColorMode::Blind, Rate(800_000), Duration::from_secs(1)).unwrap();
        let mut m = Tsw2cm::new(p);
        let mut rng = Rng::from_seed(3);
        let mut out = 0;
        let n = 20_000u64;
        for i in 0..n {
            // 1000 B every 5 ms = 200 kB/s = 2 × 100 kB/s target.
            if m.mark(Time::from_millis(5 * i), &PacketView::new(1000), &mut rng) == Color::Yellow {
                out += 1;
            }
        }
        let share = out as f64 / n as f64;
        assert!((share - 0.5).abs() < 0.03, "{share}");
        assert!(Tsw2cmParams::new(ColorMode::Blind, Rate(0), DEFAULT_WINDOW).is_err());
    }
}
