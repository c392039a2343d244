//! RFC 2697 single rate Three Color Marker (srTCM), colour-blind and colour-aware.
//!
//! Two token buckets share one rate, CIR: the committed bucket C (depth CBS) and the excess
//! bucket E (depth EBS). Both start full (§3). Tokens go to C; "if Tc is less than CBS, Tc is
//! incremented by one, else if Te is less then EBS, Te is incremented by one" (§3), i.e.
//! tokens that would overflow C go to E, and tokens that would overflow E are lost.
//!
//! Choices the RFC leaves open (see also [`super::token_bucket`]):
//! - Accrual is continuous and exact (bit·ns tokens, no rounding). At each packet the C
//!   bucket is advanced first and exactly the part of the accrual that C cannot hold is given
//!   to E, which is the continuous limit of the §3 one-token-at-a-time rule.
//! - The RFC measures CIR in bytes of IP packets per second; qoslab takes it as a [`Rate`] in
//!   bit/s (CIR bytes/s = CIR bit/s / 8), and packet sizes are IP total lengths.
//! - [`SrTcm::earliest_green`] implements RFC 2963 §3.3's T2 (the G-srRAS section; the
//!   srTCM is §3.2's configuration target) and rounds up to the next ns. It is also the
//!   srTCM's [`GreenOracle`] answer. It answers for a packet that is green (or any packet in
//!   colour-blind mode); in colour-aware mode a pre-coloured yellow or red packet can never
//!   become green and the caller should treat its T2 as `Time::NEVER`
//!   ([`Meter::can_color_green`](super::Meter::can_color_green) says which).
//! - Asked about a `now` earlier than the meter's last update (the last packet it metered),
//!   the answer uses the tokens at that last update and is never earlier than it: the meter
//!   keeps no history, and a packet metered "earlier" is taken at the last update anyway.

use crate::error::ConfigError;
use crate::meter::token_bucket::TokenBucket;
use crate::meter::{ColorCounters, ColorMode, MeterVerdict};
use crate::packet::{Color, PacketView};
use crate::shaper::GreenOracle;
use crate::time::Time;
use crate::units::Rate;

/// Validated srTCM settings.
///
/// Rules checked: CIR > 0 (qoslab: a zero rate never refills), and RFC 2697 §2 "CBS and EBS
/// must be configured so that at least one of them is larger than 0". RFC 2697 §2 also
/// recommends that a non-zero CBS/EBS be at least the largest IP packet; that is advice, not
/// enforced: a larger packet simply can never take those tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrTcmParams {
    pub mode: ColorMode,
    pub cir: Rate,
    /// Committed burst size in bytes.
    pub cbs: u64,
    /// Excess burst size in bytes.
    pub ebs: u64,
}

impl SrTcmParams {
    pub fn new(mode: ColorMode, cir: Rate, cbs: u64, ebs: u64) -> Result<Self, ConfigError> {
        if cir.bps() == 0 {
            return Err(ConfigError::out_of_range(
                "cir",
                "0 bit/s",
                "> 0 bit/s (a zero-rate bucket never refills)",
            ));
        }
        // RFC 2697 §2: "The CBS and EBS must be configured so that at least one of them is
        // larger than 0."
        if cbs == 0 && ebs == 0 {
            return Err(ConfigError::relation(
                "CBS > 0 or EBS > 0",
                "RFC 2697 §2",
                "CBS = 0 and EBS = 0: at least one of them must be larger than 0",
            ));
        }
        Ok(SrTcmParams {
            mode,
            cir,
            cbs,
            ebs,
        })
    }
}

/// The srTCM meter/marker.
#[derive(Clone, Debug)]
pub struct SrTcm {
    params: SrTcmParams,
    c: TokenBucket,
    e: TokenBucket,
    stats: ColorCounters,
}

impl SrTcm {
    /// Both buckets full at time 0 (RFC 2697 §3: "Tc(0) = CBS and ... Te(0) = EBS").
    pub fn new(params: SrTcmParams) -> Self {
        SrTcm {
            params,
            c: TokenBucket::full(params.cir, params.cbs),
            e: TokenBucket::full(params.cir, params.ebs),
            stats: ColorCounters::default(),
        }
    }

    pub fn params(&self) -> &SrTcmParams {
        &self.params
    }
    /// The committed bucket C (as of the last packet).
    pub fn committed(&self) -> &TokenBucket {
        &self.c
    }
    /// The excess bucket E (as of the last packet).
    pub fn excess(&self) -> &TokenBucket {
        &self.e
    }
    pub fn counters(&self) -> &ColorCounters {
        &self.stats
    }

    /// Accrues tokens up to `now`: C first, its overflow into E (RFC 2697 §3).
    fn advance(&mut self, now: Time) {
        let spill = self.c.advance(now);
        // E's own clock is kept in step but it accrues only what C could not hold.
        self.e.sync_clock(now);
        self.e.add_units(spill);
    }

    /// Meters a packet of `pkt.size` bytes arriving at `now` and returns its colour.
    pub fn mark(&mut self, now: Time, pkt: &PacketView) -> Color {
        self.advance(now);
        let b = pkt.size;
        let pre = match self.params.mode {
            ColorMode::Blind => Color::Green,
            ColorMode::Aware => pkt.color,
        };
        // RFC 2697 §3 colour-blind: "If Tc(t)-B >= 0, the packet is green and Tc is
        // decremented by B"; colour-aware adds "If the packet has been precolored as green
        // and ...".
        let color = if pre == Color::Green && self.c.conforms(b) {
            self.c.take(b);
            Color::Green
        // "else if Te(t)-B >= 0, the packets is yellow and Te is decremented by B"; aware:
        // "If the packet has been precolored as green or yellow and if Te(t)-B >= 0".
        } else if pre <= Color::Yellow && self.e.conforms(b) {
            self.e.take(b);
            Color::Yellow
        } else {
            // "else the packet is red and neither Tc nor Te is decremented."
            Color::Red
        };
        self.stats.record(MeterVerdict::Pass(color), b);
        color
    }

    /// RFC 2963 §3.2: the earliest instant at which a packet of `size` bytes would be green,
    /// `T2 = max(t, t + (B - Tc(t))/CIR)`, and `Time::NEVER` if `B > CBS`. Does not change
    /// the meter.
    pub fn earliest_green(&self, now: Time, size: u32) -> Time {
        // RFC 2963 §3.3: "If B is larger than CBS ... then T2 is set to infinity" (handled by
        // `earliest`). C accrues at CIR until full, and B <= CBS, so (B - Tc(t))/CIR is
        // exact. A `now` before the last update uses Tc at the last update (module docs).
        self.c.earliest(now, size)
    }
}

/// The srTCM downstream of a G-srRAS (RFC 2963 §3.3): T2 = [`SrTcm::earliest_green`].
impl GreenOracle for SrTcm {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        SrTcm::earliest_green(self, now, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::token_bucket::{units, UNITS_PER_BYTE};
    use proptest::prelude::*;

    fn blind(cir: Rate, cbs: u64, ebs: u64) -> SrTcm {
        SrTcm::new(SrTcmParams::new(ColorMode::Blind, cir, cbs, ebs).unwrap())
    }
    fn aware(cir: Rate, cbs: u64, ebs: u64) -> SrTcm {
        SrTcm::new(SrTcmParams::new(ColorMode::Aware, cir, cbs, ebs).unwrap())
    }

    #[test]
    fn rfc2697_rule_cbs_or_ebs_positive() {
        let e = SrTcmParams::new(ColorMode::Blind, Rate(1000), 0, 0).unwrap_err();
        assert!(e.to_string().contains("RFC 2697 §2"), "{e}");
        assert!(SrTcmParams::new(ColorMode::Blind, Rate(1000), 0, 1).is_ok());
        assert!(SrTcmParams::new(ColorMode::Blind, Rate(1000), 1, 0).is_ok());
        assert!(SrTcmParams::new(ColorMode::Blind, Rate(0), 1, 0).is_err());
    }

    #[test]
    fn blind_sequence_with_overflow_from_c_to_e() {
        // CIR = 8 Mbit/s = 1 B/us; CBS = 1000 B, EBS = 500 B; both full at t = 0.
        let mut m = blind(Rate::from_mbps(8), 1000, 500);
        let p = |n| PacketView::new(n);
        // t=0: 600 B: Tc=1000 >= 600 -> green, Tc=400.
        assert_eq!(m.mark(Time::ZERO, &p(600)), Color::Green);
        // t=0: 600 B: Tc=400 < 600, Te=500 < 600 -> red, nothing taken.
        assert_eq!(m.mark(Time::ZERO, &p(600)), Color::Red);
        // t=0: 500 B: Tc=400 < 500, Te=500 >= 500 -> yellow, Te=0.
        assert_eq!(m.mark(Time::ZERO, &p(500)), Color::Yellow);
        assert_eq!(
            (m.committed().tokens_bytes(), m.excess().tokens_bytes()),
            (400, 0)
        );
        // t=0.9 ms: +900 B. C takes 600 to reach CBS=1000, the other 300 overflow into E.
        // Then 1000 B: green, Tc=0, Te=300.
        assert_eq!(m.mark(Time::from_micros(900), &p(1000)), Color::Green);
        assert_eq!(
            (m.committed().tokens_bytes(), m.excess().tokens_bytes()),
            (0, 300)
        );
        // t=1.2 ms: +300 B all to C (Tc=300 < CBS). 300 B: green. Then 300 B: Tc=0, Te=300 -> yellow.
        assert_eq!(m.mark(Time::from_micros(1200), &p(300)), Color::Green);
        assert_eq!(m.mark(Time::from_micros(1200), &p(300)), Color::Yellow);
        // t=10 ms: +8800 B: C fills (1000), E fills (500), rest lost.
        assert_eq!(m.mark(Time::from_millis(10), &p(1)), Color::Green);
        assert_eq!(m.committed().tokens_units(), units(1000) - units(1));
        assert_eq!(m.excess().tokens_units(), units(500));
        assert_eq!(m.counters().pkts, [4, 2, 1]);
        assert_eq!(m.counters().bytes, [600 + 1000 + 300 + 1, 500 + 300, 600]);
    }

    #[test]
    fn overflow_into_e_is_exact_to_the_bit_ns() {
        // CIR = 3 bit/s, CBS = 1 B, EBS = 1 B. Empty C with a 1 B packet at t=0, empty E too.
        let mut m = blind(Rate(3), 1, 1);
        assert_eq!(m.mark(Time::ZERO, &PacketView::new(1)), Color::Green);
        assert_eq!(m.mark(Time::ZERO, &PacketView::new(1)), Color::Yellow);
        // After 3e9 ns: 9e9 bit·ns accrued; C takes 8e9 (= 1 B), E gets the remaining 1e9.
        assert_eq!(
            m.mark(Time::from_secs(3), &PacketView::new(1)),
            Color::Green
        );
        assert_eq!(m.excess().tokens_units(), 1_000_000_000);
        assert_eq!(m.committed().tokens_units(), 0);
        let _ = UNITS_PER_BYTE;
    }

    #[test]
    fn aware_never_improves_a_colour() {
        // Full buckets: in blind mode every colour would come out green.
        let mut m = aware(Rate::from_mbps(8), 1000, 1000);
        // Yellow pre-colour with plenty of C tokens: stays yellow (takes from E, not C).
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(100, Color::Yellow)),
            Color::Yellow
        );
        assert_eq!(
            (m.committed().tokens_bytes(), m.excess().tokens_bytes()),
            (1000, 900)
        );
        // Red stays red and takes nothing.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(100, Color::Red)),
            Color::Red
        );
        assert_eq!(
            (m.committed().tokens_bytes(), m.excess().tokens_bytes()),
            (1000, 900)
        );
        // Yellow with E short: red, even though C has tokens.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(950, Color::Yellow)),
            Color::Red
        );
        // Green: green while C lasts, then yellow from E.
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(1000, Color::Green)),
            Color::Green
        );
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(900, Color::Green)),
            Color::Yellow
        );
        assert_eq!(
            m.mark(Time::ZERO, &PacketView::with_color(1, Color::Green)),
            Color::Red
        );
    }

    #[test]
    fn earliest_green_rfc2963_t2() {
        // CIR = 8 Mbit/s (1 B/us), CBS = 1500, EBS = 0... not allowed to be both 0, EBS = 1.
        let mut m = blind(Rate::from_mbps(8), 1500, 1);
        // Full: T2 = max(t, ...) = t.
        assert_eq!(
            m.earliest_green(Time::from_micros(7), 1500),
            Time::from_micros(7)
        );
        // B > CBS: infinity.
        assert_eq!(m.earliest_green(Time::ZERO, 1501), Time::NEVER);
        // Take 1000 at t=0: Tc = 500. A 1200 B packet asked at t=100us: Tc(t) = 600,
        // T2 = 100us + (1200-600)/1 B/us = 700 us.
        m.mark(Time::ZERO, &PacketView::new(1000));
        let before = m.committed().clone();
        assert_eq!(
            m.earliest_green(Time::from_micros(100), 1200),
            Time::from_micros(700)
        );
        // Does not mutate.
        assert_eq!(m.committed(), &before);
        // At T2 the packet is indeed green; one ns earlier it would not have been.
        let mut early = m.clone();
        assert_ne!(
            early.mark(Time::from_nanos(699_999), &PacketView::new(1200)),
            Color::Green
        );
        assert_eq!(
            m.mark(Time::from_micros(700), &PacketView::new(1200)),
            Color::Green
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Green bytes in any interval [t_i, t_j] are at most CBS + CIR·(t_j - t_i); green +
        /// yellow at most CBS + EBS + CIR·(t_j - t_i); and buckets never exceed their depths.
        #[test]
        fn green_bytes_bounded_by_cbs_plus_cir_t(
            cir_kbps in 1u64..50_000,
            cbs in 0u64..10_000,
            ebs in 1u64..10_000,
            aware_mode in any::<bool>(),
            pkts in prop::collection::vec((0u64..3_000_000, 1u32..3000, 0usize..3), 1..150),
        ) {
            let mode = if aware_mode { ColorMode::Aware } else { ColorMode::Blind };
            let cir = Rate::from_kbps(cir_kbps);
            let mut m = SrTcm::new(SrTcmParams::new(mode, cir, cbs, ebs).unwrap());
            let mut t = 0u64;
            let mut log = Vec::new();
            for (gap, size, c) in pkts {
                t += gap;
                let pre = Color::ALL[c];
                let got = m.mark(Time(t), &PacketView::with_color(size, pre));
                if aware_mode { prop_assert!(got >= pre); }
                prop_assert!(m.committed().tokens_units() <= units(cbs));
                prop_assert!(m.excess().tokens_units() <= units(ebs));
                log.push((t, size as u128, got));
            }
            let r = cir.bps() as u128;
            for i in 0..log.len() {
                let (mut g, mut gy) = (0u128, 0u128);
                for j in i..log.len() {
                    if log[j].2 == Color::Green { g += log[j].1; }
                    if log[j].2 != Color::Red { gy += log[j].1; }
                    let span = (log[j].0 - log[i].0) as u128;
                    prop_assert!(units(g as u64) <= units(cbs) + span * r);
                    prop_assert!(units(gy as u64) <= units(cbs + ebs) + span * r);
                }
            }
        }

        /// earliest_green is exact: green at T2 and not green one ns before (when T2 > now).
        #[test]
        fn earliest_green_is_tight(
            cir_kbps in 1u64..50_000,
            cbs in 1u64..5_000,
            take in 0u32..5_000,
            ask in 0u64..1_000_000,
            size in 1u32..5_000,
        ) {
            let mut m = SrTcm::new(SrTcmParams::new(ColorMode::Blind, Rate::from_kbps(cir_kbps), cbs, 1).unwrap());
            if take > 0 { m.mark(Time::ZERO, &PacketView::new(take)); }
            let t2 = m.earliest_green(Time(ask), size);
            if size as u64 > cbs {
                prop_assert_eq!(t2, Time::NEVER);
            } else {
                prop_assert!(t2 >= Time(ask));
                let mut at = m.clone();
                prop_assert_eq!(at.mark(t2, &PacketView::new(size)), Color::Green);
                if t2 > Time(ask) {
                    let mut before = m.clone();
                    prop_assert_ne!(before.mark(Time(t2.0 - 1), &PacketView::new(size)), Color::Green);
                }
            }
        }
    }
}
