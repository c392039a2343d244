//! RFC 2859 Time Sliding Window Three Colour Marker (TSWTCM, here TSW3CM).
//!
//! The rate estimator is the TSW of [`super::tsw`] (RFC 2859 §4.1, Figure 2, checked against
//! the RFC text), initialised to CTR ("avg-rate = CTR"). RFC 2859 §2.0: "The marker uses the
//! estimated rate to probabilistically associate packets with one of the three colours",
//! which "reduces the likelihood of dropping multiple packets within a TCP window"; §1.0:
//! packets "contributing to sending rate below or equal to the CTR" are green, those
//! "contributing to the portion of the rate between the CTR and PTR" yellow, and the rest
//! red. The marker (RFC 2859 §4.2):
//!
//! ```text
//! if avg_rate <= CTR:                      green
//! else if avg_rate <= PTR:                 P0 = (avg_rate − CTR)/avg_rate
//!                                          yellow with prob. P0, else green
//! else:                                    P1 = (avg_rate − PTR)/avg_rate
//!                                          P2 = (PTR − CTR)/avg_rate
//!                                          red with prob. P1, yellow with prob. P2,
//!                                          green with prob. 1 − (P1 + P2)
//! ```
//!
//! **Verification status.** The §4.2 pseudo-code above and the colour-aware behaviour below
//! could *not* be checked against the RFC text (the qoslab reference search found §1–§2 and
//! Figure 2 of §4.1, but not §4.2 or any colour-aware clause); they are the previous
//! author's reading, consistent with the §1.0/§2.0 description above and with the ns-2
//! `TSW3CMPolicy` (a uniform value in (0, avg-rate] compared with PTR, then CTR: the same
//! distribution).
//! If RFC 2859 defines no colour-aware mode, `mode = "aware"` is a qoslab extension.
//!
//! Choices left open, documented:
//! - One uniform `u ∈ [0,1)` decides: red iff `u < P1`, else yellow iff `u < P1 + P2` (or
//!   `u < P0` between CTR and PTR), else green. No uniform is drawn when `avg_rate <= CTR`.
//!   (ns-2 draws `avg·(1−u)` and compares it with PTR and CTR, which gives the same
//!   distribution.)
//! - Colour-aware mode: the estimator counts every packet (it meters the whole stream), and
//!   the packet leaves with the *worse* of its pre-colour and the colour drawn above, so a
//!   colour is never improved: a yellow packet can become red but not green, red stays red.
//!   A uniform is still drawn when `avg_rate > CTR`, so the random stream does not depend on
//!   the pre-colours.
//! - Rates are [`Rate`]s in bit/s; the estimator works in bytes/s (`f64`).
//! - Default window as in [`super::tsw::DEFAULT_WINDOW`] (1 s).

use crate::error::ConfigError;
use crate::meter::tsw::{Tsw, TswParams};
use crate::meter::{ColorCounters, ColorMode, MeterVerdict};
use crate::packet::{Color, PacketView};
use crate::rng::RandomSource;
use crate::time::{Duration, Time};
use crate::units::Rate;

/// Validated TSW3CM settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tsw3cmParams {
    pub mode: ColorMode,
    /// Committed Target Rate.
    pub ctr: Rate,
    /// Peak Target Rate.
    pub ptr: Rate,
    pub window: Duration,
}

impl Tsw3cmParams {
    pub fn new(
        mode: ColorMode,
        ctr: Rate,
        ptr: Rate,
        window: Duration,
    ) -> Result<Self, ConfigError> {
        if ctr.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "ctr",
                "0 bit/s",
                "> 0 bit/s (RFC 2859 §4.1 starts the estimate at CTR)",
            ));
        }
        // RFC 2859 §1: packets "between the CTR and PTR are marked yellow"; P2 = (PTR - CTR)
        // / avg-rate is a probability only if PTR >= CTR.
        if ptr < ctr {
            return Err(ConfigError::relation(
                "PTR >= CTR",
                "RFC 2859 §4.2",
                format!("PTR = {} bit/s < CTR = {} bit/s", ptr.bps(), ctr.bps()),
            ));
        }
        TswParams::new(window, ctr)?;
        Ok(Tsw3cmParams {
            mode,
            ctr,
            ptr,
            window,
        })
    }
}

/// The TSW three-colour marker.
#[derive(Clone, Debug)]
pub struct Tsw3cm {
    params: Tsw3cmParams,
    tsw: Tsw,
    ctr: f64,
    ptr: f64,
    stats: ColorCounters,
}

impl Tsw3cm {
    /// RFC 2859 §4.1 "Initially: avg-rate = CTR; t-front = 0".
    pub fn new(params: Tsw3cmParams) -> Self {
        Tsw3cm {
            params,
            tsw: Tsw::new(TswParams {
                window: params.window,
                initial_rate: params.ctr,
            }),
            ctr: params.ctr.bytes_per_sec(),
            ptr: params.ptr.bytes_per_sec(),
            stats: ColorCounters::default(),
        }
    }
    pub fn params(&self) -> &Tsw3cmParams {
        &self.params
    }
    pub fn estimator(&self) -> &Tsw {
        &self.tsw
    }
    pub fn counters(&self) -> &ColorCounters {
        &self.stats
    }

    pub fn mark<R: RandomSource>(&mut self, now: Time, pkt: &PacketView, rng: &mut R) -> Color {
        let avg = self.tsw.update(now, pkt.size);
        let drawn = if avg <= self.ctr {
            // "If avg-rate <= CTR the packet is marked green"
            Color::Green
        } else if avg <= self.ptr {
            // "P0 = (avg-rate - CTR) / avg-rate; with probability P0 ... yellow"
            let p0 = (avg - self.ctr) / avg;
            if rng.uniform() < p0 {
                Color::Yellow
            } else {
                Color::Green
            }
        } else {
            // "P1 = (avg-rate - PTR) / avg-rate; P2 = (PTR - CTR) / avg-rate; with
            // probability P1 ... red; with probability P2 ... yellow"
            let p1 = (avg - self.ptr) / avg;
            let p2 = (self.ptr - self.ctr) / avg;
            let u = rng.uniform();
            if u < p1 {
                Color::Red
            } else if u < p1 + p2 {
                Color::Yellow
            } else {
                Color::Green
            }
        };
        let color = match self.params.mode {
            ColorMode::Blind => drawn,
            ColorMode::Aware => drawn.max(pkt.color),
        };
        self.stats.record(MeterVerdict::Pass(color), pkt.size);
        color
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, ScriptedUniform};
    use proptest::prelude::*;

    fn mk(mode: ColorMode) -> Tsw3cm {
        // CTR = 8 kbit/s = 1000 B/s, PTR = 16 kbit/s = 2000 B/s, window 1 s.
        Tsw3cm::new(
            Tsw3cmParams::new(mode, Rate(8000), Rate(16_000), Duration::from_secs(1)).unwrap(),
        )
    }

    #[test]
    fn params_rules() {
        assert!(
            Tsw3cmParams::new(ColorMode::Blind, Rate(2), Rate(1), DEFAULT_WINDOW_FOR_TEST).is_err()
        );
        assert!(
            Tsw3cmParams::new(ColorMode::Blind, Rate(0), Rate(1), DEFAULT_WINDOW_FOR_TEST).is_err()
        );
        assert!(Tsw3cmParams::new(ColorMode::Blind, Rate(1), Rate(1), Duration::ZERO).is_err());
        assert!(
            Tsw3cmParams::new(ColorMode::Blind, Rate(1), Rate(1), DEFAULT_WINDOW_FOR_TEST).is_ok()
        );
    }
    const DEFAULT_WINDOW_FOR_TEST: Duration = crate::meter::tsw::DEFAULT_WINDOW;

    #[test]
    fn green_below_ctr_without_drawing() {
        // t = 1 s, 500 B: avg = (1000 + 500)/2 = 750 <= 1000 -> green.
        let mut m = mk(ColorMode::Blind);
        let mut u = ScriptedUniform::new(&[0.0]);
        assert_eq!(
            m.mark(Time::from_secs(1), &PacketView::new(500), &mut u),
            Color::Green
        );
    }

    #[test]
    fn between_ctr_and_ptr() {
        // t = 0.5 s, 1000 B: avg = (1000 + 1000)/1.5 = 1333.33; P0 = 333.33/1333.33 = 0.25.
        for (u, want) in [(0.2499, Color::Yellow), (0.2501, Color::Green)] {
            let mut m = mk(ColorMode::Blind);
            let mut s = ScriptedUniform::new(&[u]);
            assert_eq!(
                m.mark(Time::from_millis(500), &PacketView::new(1000), &mut s),
                want,
                "u={u}"
            );
        }
    }

    #[test]
    fn above_ptr() {
        // t = 0 s, 3000 B: avg = (1000 + 3000)/(0 + 1) = 4000 B/s > PTR = 2000.
        // P1 = (4000-2000)/4000 = 0.5, P2 = (2000-1000)/4000 = 0.25, green 0.25.
        for (u, want) in [
            (0.0, Color::Red),
            (0.4999, Color::Red),
            (0.5001, Color::Yellow),
            (0.7499, Color::Yellow),
            (0.7501, Color::Green),
        ] {
            let mut m = mk(ColorMode::Blind);
            let mut s = ScriptedUniform::new(&[u]);
            assert_eq!(
                m.mark(Time::ZERO, &PacketView::new(3000), &mut s),
                want,
                "u={u}"
            );
        }
    }

    #[test]
    fn aware_takes_the_worse_colour() {
        // u = 0.9 draws green at avg = 4000 (see above); a yellow pre-colour stays yellow.
        let mut m = mk(ColorMode::Aware);
        let mut s = ScriptedUniform::new(&[0.9]);
        assert_eq!(
            m.mark(
                Time::ZERO,
                &PacketView::with_color(3000, Color::Yellow),
                &mut s
            ),
            Color::Yellow
        );
        // Below CTR a red packet stays red.
        let mut m = mk(ColorMode::Aware);
        assert_eq!(
            m.mark(
                Time::from_secs(9),
                &PacketView::with_color(1, Color::Red),
                &mut s
            ),
            Color::Red
        );
        // A green pre-colour can be demoted.
        let mut m = mk(ColorMode::Aware);
        let mut s = ScriptedUniform::new(&[0.1]);
        assert_eq!(
            m.mark(
                Time::ZERO,
                &PacketView::with_color(3000, Color::Green),
                &mut s
            ),
            Color::Red
        );
    }

    #[test]
    fn long_run_shares() {
        // Send at 3 × CTR = 1.5 × PTR: avg -> 3000 B/s. Green share CTR/avg = 1/3, yellow
        // (PTR-CTR)/avg = 1/3, red 1/3.
        let mut m = mk(ColorMode::Blind);
        let mut rng = Rng::from_seed(11);
        let mut n = [0u32; 3];
        // 30 B every 10 ms = 3000 B/s.
        for i in 0..30_000u64 {
            n[m.mark(Time::from_millis(10 * i), &PacketView::new(30), &mut rng)
                .index()] += 1;
        }
        for c in n {
            let share = c as f64 / 30_000.0;
            assert!((share - 1.0 / 3.0).abs() < 0.02, "{n:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Colour-aware never improves a colour, whatever the traffic.
        #[test]
        fn aware_is_monotone(
            seed in any::<u64>(),
            pkts in prop::collection::vec((0u64..50_000_000, 1u32..3000, 0usize..3), 1..100),
        ) {
            let mut m = mk(ColorMode::Aware);
            let mut rng = Rng::from_seed(seed);
            let mut t = 0;
            for (gap, size, c) in pkts {
                t += gap;
                let pre = Color::ALL[c];
                prop_assert!(m.mark(Time(t), &PacketView::with_color(size, pre), &mut rng) >= pre);
            }
        }
    }
}
