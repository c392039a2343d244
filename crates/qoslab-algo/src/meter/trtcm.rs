//! RFC 2698 two rate Three Color Marker (trTCM), colour-blind and colour-aware.
//!
//! Two independent token buckets: P (rate PIR, depth PBS) and C (rate CIR, depth CBS), both
//! full at time 0 (§3). A packet is red if it exceeds P, else yellow if it exceeds C, else
//! green.
//!
//! Choices the RFC leaves open (see also [`super::token_bucket`]):
//! - Accrual is continuous and exact (bit·ns tokens, no rounding); tokens beyond a bucket's
//!   depth are lost ("incremented by one PIR times per second up to PBS").
//! - Rates are [`Rate`]s in bit/s (the RFC's bytes of IP packets per second × 8).
//! - [`TrTcm::earliest_green`] implements RFC 2963 §3.5's T2 (the G-trRAS section; the
//!   trTCM is §3.4's configuration target), rounded up to the next ns, for a packet that is
//!   green (or any packet in colour-blind mode). It is also the trTCM's [`GreenOracle`]
//!   answer. In colour-aware mode a pre-coloured yellow or red packet is never green; the
//!   caller treats its T2 as `Time::NEVER`
//!   ([`Meter::can_color_green`](super::Meter::can_color_green) says which).
//! - Asked about a `now` earlier than the meter's last update (the last packet it metered),
//!   the answer uses the tokens of both buckets at that last update and is never earlier
//!   than it: the meter keeps no history, and a packet metered "earlier" is taken at the
//!   last update anyway.

use crate::error::ConfigError;
use crate::meter::token_bucket::TokenBucket;
use crate::meter::{ColorCounters, ColorMode, MeterVerdict};
use crate::packet::{Color, PacketView};
use crate::shaper::GreenOracle;
use crate::time::Time;
use crate::units::Rate;

/// Validated trTCM settings.
///
/// Rules checked: CIR > 0 (qoslab: a zero rate never refills), RFC 2698 §2 "The PIR must be
/// equal to or greater than the CIR", and "The PBS and the CBS ... must be configured to be
/// greater than 0". The §2 recommendation that they be at least the largest IP packet is
/// advice and not enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrTcmParams {
    pub mode: ColorMode,
    pub cir: Rate,
    /// Committed burst size in bytes.
    pub cbs: u64,
    pub pir: Rate,
    /// Peak burst size in bytes.
    pub pbs: u64,
}

impl TrTcmParams {
    pub fn new(
        mode: ColorMode,
        cir: Rate,
        cbs: u64,
        pir: Rate,
        pbs: u64,
    ) -> Result<Self, ConfigError> {
        if cir.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "cir",
                "0 bit/s",
                "> 0 bit/s (a zero-rate bucket never refills)",
            ));
        }
        // RFC 2698 §2: "The PIR must be equal to or greater than the CIR."
        if pir < cir {
            return Err(ConfigError::relation(
                "PIR >= CIR",
                "RFC 2698 §2",
                format!("PIR = {} bit/s < CIR = {} bit/s", pir.bps(), cir.bps()),
            ));
        }
        // RFC 2698 §2: "The PBS and the CBS ... must be configured to be greater than 0."
        if cbs == 0 {
            return Err(ConfigError::out_of_range(
                "cbs",
                "0 B",
                "> 0 bytes (RFC 2698 §2: PBS and CBS must be greater than 0)",
            ));
        }
        if pbs == 0 {
            return Err(ConfigError::out_of_range(
                "pbs",
                "0 B",
                "> 0 bytes (RFC 2698 §2: PBS and CBS must be greater than 0)",
            ));
        }
        Ok(TrTcmParams {
            mode,
            cir,
            cbs,
            pir,
            pbs,
        })
    }
}

/// The trTCM meter/marker.
#[derive(Clone, Debug)]
pub struct TrTcm {
    params: TrTcmParams,
    p: TokenBucket,
    c: TokenBucket,
    stats: ColorCounters,
}

impl TrTcm {
    /// Both buckets full at time 0 (RFC 2698 §3: "Tp(0) = PBS and ... Tc(0) = CBS").
    pub fn new(params: TrTcmParams) -> Self {
        TrTcm {
            params,
            p: TokenBucket::full(params.pir, params.pbs),
            c: TokenBucket::full(params.cir, params.cbs),
            stats: ColorCounters::default(),
        }
    }

    pub fn params(&self) -> &TrTcmParams {
        &self.params
    }
    /// The peak bucket P (as of the last packet).
    pub fn peak(&self) -> &TokenBucket {
        &self.p
    }
    /// The committed bucket C (as of the last packet).
    pub fn committed(&self) -> &TokenBucket {
        &self.c
    }
    pub fn counters(&self) -> &ColorCounters {
        &self.stats
    }

    /// Meters a packet of `pkt.size` bytes arriving at `now` and returns its colour.
    pub fn mark(&mut self, now: Time, pkt: &PacketView) -> Color {
        self.p.advance(now);
        self.c.advance(now);
        let b = pkt.size;
        let pre = match self.params.mode {
            ColorMode::Blind => Color::Green,
            ColorMode::Aware => pkt.color,
        };
        // RFC 2698 §3: "If the packet has been precolored as red or if Tp(t)-B < 0, the
        // packet is red" (colour-blind: "If Tp(t)-B < 0, the packet is red").
        let color = if pre == Color::Red || !self.p.conforms(b) {
            Color::Red
        // "else if the packet has been precolored as yellow or if Tc(t)-B < 0, the packet is
        // yellow and Tp is decremented by B"
        } else if pre == Color::Yellow || !self.c.conforms(b) {
            self.p.take(b);
            Color::Yellow
        } else {
            // "else the packet is green and both Tp and Tc are decremented by B."
            self.p.take(b);
            self.c.take(b);
            Color::Green
        };
        self.stats.record(MeterVerdict::Pass(color), b);
        color
    }

    /// RFC 2963 §3.5: the earliest instant at which a packet of `size` bytes would be green,
    /// `T2 = max(t, t + (B - Tc(t))/CIR, t + (B - Tp(t))/PIR)`, and `Time::NEVER` if
    /// `B > CBS` or `B > PBS`. Does not change the meter.
    pub fn earliest_green(&self, now: Time, size: u32) -> Time {
        // RFC 2963 §3.5: "T2 is equal to max(t, t+(B-Tc(t))/CIR, t+(B-Tp(t))/PIR)"; "If B is
        // larger than CBS ... or PBS ... then T2 is set to infinity": each `earliest` is
        // NEVER when B exceeds that bucket's depth, and max keeps NEVER.
        self.c.earliest(now, size).max(self.p.earliest(now, size))
    }
}

/// The trTCM downstream of a G-trRAS (RFC 2963 §3.5): T2 = [`TrTcm::earliest_green`].
impl GreenOracle for TrTcm {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        TrTcm::earliest_green(self, now, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::token_bucket::units;
    use proptest::prelude::*;

    fn mk(mode: ColorMode, cir: Rate, cbs: u64, pir: Rate, pbs: u64) -> TrTcm {
        TrTcm::new(TrTcmParams::new(mode, cir, cbs, pir, pbs).unwrap())
    }

    #[test]
    fn rfc2698_rules() {
        let e = TrTcmParams::new(ColorMode::Blind, Rate(2000), 10, Rate(1000), 10).unwrap_err();
        assert!(e.to_string().contains("PIR >= CIR") && e.to_string().contains("RFC 2698"));
        assert!(TrTcmParams::new(ColorMode::Blind, Rate(1000), 0, Rate(1000), 10).is_err());
        assert!(TrTcmParams::new(ColorMode::Blind, Rate(1000), 10, Rate(1000), 0).is_err());
        assert!(TrTcmParams::new(ColorMode::Blind, Rate(0), 10, Rate(1000), 10).is_err());
        // PIR == CIR is allowed.
        assert!(TrTcmParams::new(ColorMode::Blind, Rate(1000), 10, Rate(1000), 10).is_ok());
    }

    #[test]
    fn blind_sequence() {
        // CIR = 8 Mbit/s (1 B/us), CBS = 1000; PIR = 16 Mbit/s (2 B/us), PBS = 2000.
        let mut m = mk(
            ColorMode::Blind,
            Rate::from_mbps(8),
            1000,
            Rate::from_mbps(16),
            2000,
        );
        let p = PacketView::new;
        // t=0: 800: Tp=2000, Tc=1000 -> green; Tp=1200, Tc=200.
        assert_eq!(m.mark(Time::ZERO, &p(800)), Color::Green);
        // t=0: 800: Tp=1200 ok, Tc=200 < 800 -> yellow; Tp=400.
        assert_eq!(m.mark(Time::ZERO, &p(800)), Color::Yellow);
        // t=0: 800: Tp=400 < 800 -> red; nothing taken.
        assert_eq!(m.mark(Time::ZERO, &p(800)), Color::Red);
        assert_eq!(
            (m.peak().tokens_bytes(), m.committed().tokens_bytes()),
            (400, 200)
        );
        // t=300us: Tp = 400 + 600 = 1000, Tc = 200 + 300 = 500. 500 B: green; Tp=500, Tc=0.
        assert_eq!(m.mark(Time::from_micros(300), &p(500)), Color::Green);
        // t=1 ms: Tp = 500 + 1400 = 1900, Tc = 0 + 700 = 700. 1000 B: yellow; Tp = 900.
        assert_eq!(m.mark(Time::from_millis(1), &p(1000)), Color::Yellow);
        // t=10 ms: both full (the excess is lost): Tp=2000, Tc=1000. 1000: green.
        assert_eq!(m.mark(Time::from_millis(10), &p(1000)), Color::Green);
        assert_eq!(
            (m.peak().tokens_bytes(), m.committed().tokens_bytes()),
            (1000, 0)
        );
        assert_eq!(m.counters().pkts, [3, 2, 1]);
    }

    #[test]
    fn aware_corner_cases() {
        let mut m = mk(
            ColorMode::Aware,
            Rate::from_mbps(8),
            1000,
            Rate::from_mbps(16),
            2000,
        );
        // Red pre-colour stays red and takes nothing, even with full buckets.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(100, Color::Red)),
            Color::Red
        );
        assert_eq!(
            (m.peak().tokens_bytes(), m.committed().tokens_bytes()),
            (2000, 1000)
        );
        // Yellow with full C: yellow, takes from P only.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(100, Color::Yellow)),
            Color::Yellow
        );
        assert_eq!(
            (m.peak().tokens_bytes(), m.committed().tokens_bytes()),
            (1900, 1000)
        );
        // Yellow larger than P: red.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(1901, Color::Yellow)),
            Color::Red
        );
        // Green behaves as blind.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(1000, Color::Green)),
            Color::Green
        );
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(100, Color::Green)),
            Color::Yellow
        );
    }

    #[test]
    fn earliest_green_rfc2963_t2() {
        // CIR 1 B/us, CBS 1000; PIR 2 B/us, PBS 1200.
        let mut m = mk(
            ColorMode::Blind,
            Rate::from_mbps(8),
            1000,
            Rate::from_mbps(16),
            1200,
        );
        assert_eq!(
            m.earliest_green(Time::from_micros(5), 1000),
            Time::from_micros(5)
        );
        // B > CBS -> never (even though B <= PBS).
        assert_eq!(m.earliest_green(Time::ZERO, 1001), Time::NEVER);
        // Take 1000 green at t=0: Tc = 0, Tp = 200. For 900 B asked at t=0:
        // C: 900/1 = 900 us; P: (900-200)/2 = 350 us -> T2 = 900 us.
        m.mark(Time::ZERO, &PacketView::new(1000));
        assert_eq!(m.earliest_green(Time::ZERO, 900), Time::from_micros(900));
        // Make P the binding one. CBS 1000 at 1 B/us, PBS 3000 at 2 B/us. At t=1 ms both are
        // full again (Tc: 0 + 1000; Tp: 2000 + 2000 capped at 3000). A 2500 B packet is then
        // yellow (Tc = 1000 < 2500 <= Tp) and leaves Tp = 500, Tc = 1000. For 1000 B asked at
        // 1 ms: C is ready now; P needs (1000 - 500)/2 = 250 us -> T2 = 1.25 ms.
        let mut q = mk(
            ColorMode::Blind,
            Rate::from_mbps(8),
            1000,
            Rate::from_mbps(16),
            3000,
        );
        assert_eq!(q.mark(Time::ZERO, &PacketView::new(1000)), Color::Green);
        assert_eq!(
            q.mark(Time::from_millis(1), &PacketView::new(2500)),
            Color::Yellow
        );
        assert_eq!(
            (q.peak().tokens_bytes(), q.committed().tokens_bytes()),
            (500, 1000)
        );
        let snapshot = (q.peak().clone(), q.committed().clone());
        assert_eq!(
            q.earliest_green(Time::from_millis(1), 1000),
            Time::from_micros(1250)
        );
        assert_eq!((q.peak().clone(), q.committed().clone()), snapshot);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Green bytes in any [t_i, t_j] <= CBS + CIR·T; green + yellow <= PBS + PIR·T; colour-aware
        /// never improves a colour; buckets stay within their depths.
        #[test]
        fn trtcm_envelopes(
            cir_kbps in 1u64..20_000,
            extra_kbps in 0u64..20_000,
            cbs in 1u64..8_000,
            pbs in 1u64..8_000,
            aware_mode in any::<bool>(),
            pkts in prop::collection::vec((0u64..3_000_000, 1u32..3000, 0usize..3), 1..150),
        ) {
            let mode = if aware_mode { ColorMode::Aware } else { ColorMode::Blind };
            let cir = Rate::from_kbps(cir_kbps);
            let pir = Rate::from_kbps(cir_kbps + extra_kbps);
            let mut m = mk(mode, cir, cbs, pir, pbs);
            let mut t = 0u64;
            let mut log = Vec::new();
            for (gap, size, c) in pkts {
                t += gap;
                let pre = Color::ALL[c];
                let got = m.mark(Time(t), &PacketView::with_color(size, pre));
                if aware_mode { prop_assert!(got >= pre); }
                prop_assert!(m.committed().tokens_units() <= units(cbs));
                prop_assert!(m.peak().tokens_units() <= units(pbs));
                log.push((t, size as u64, got));
            }
            for i in 0..log.len() {
                let (mut g, mut gy) = (0u64, 0u64);
                for j in i..log.len() {
                    if log[j].2 == Color::Green { g += log[j].1; }
                    if log[j].2 != Color::Red { gy += log[j].1; }
                    let span = (log[j].0 - log[i].0) as u128;
                    prop_assert!(units(g) <= units(cbs) + span * cir.bps() as u128);
                    prop_assert!(units(gy) <= units(pbs) + span * pir.bps() as u128);
                }
            }
        }

        /// T2 is tight: green at T2, not green one ns before.
        #[test]
        fn earliest_green_is_tight(
            cir_kbps in 1u64..20_000,
            extra_kbps in 0u64..20_000,
            cbs in 1u64..5_000,
            pbs in 1u64..5_000,
            take in 1u32..5_000,
            ask in 0u64..2_000_000,
            size in 1u32..5_000,
        ) {
            let mut m = mk(ColorMode::Blind, Rate::from_kbps(cir_kbps), cbs,
                Rate::from_kbps(cir_kbps + extra_kbps), pbs);
            m.mark(Time::ZERO, &PacketView::new(take));
            let t2 = m.earliest_green(Time(ask), size);
            if size as u64 > cbs || size as u64 > pbs {
                prop_assert_eq!(t2, Time::NEVER);
            } else {
                prop_assert!(t2 >= Time(ask));
                prop_assert_eq!(m.clone().mark(t2, &PacketView::new(size)), Color::Green);
                if t2 > Time(ask) {
                    prop_assert_ne!(m.clone().mark(Time(t2.0 - 1), &PacketView::new(size)), Color::Green);
                }
            }
        }
    }
}
