//! Meters and markers: they look at a packet (size, pre-colour), update their state and
//! return a colour — or, for a policer, a drop.
//!
//! | file | algorithm | source |
//! |---|---|---|
//! | [`token_bucket`] | exact token bucket (bit·ns tokens), [`TbPolicer`] | RFC 2697/2698 §3 bucket rules |
//! | [`srtcm`] | single rate Three Color Marker, RFC 2963 §3.3 T2 | RFC 2697 |
//! | [`trtcm`] | two rate Three Color Marker, RFC 2963 §3.5 T2 | RFC 2698 |
//! | [`tsw`] | Time Sliding Window estimator and two-colour TSW tagger | Clark & Fang 1998; RFC 2859 §4.1 |
//! | [`tsw3cm`] | TSW three colour marker | RFC 2859 |
//!
//! All meters are sans-IO: they take `now` and never read a clock; the probabilistic ones
//! take `&mut impl RandomSource`. Time 0 is the start of the run or trace: token buckets are
//! full then (RFC 2697/2698 §3) and the TSW's `t_front` is 0 (RFC 2859 §4.1).
//!
//! [`Meter`] is the closed set of meters a chain or a simulated edge router can hold (no dyn
//! dispatch on the per-packet path); each keeps [`ColorCounters`].

pub mod srtcm;
pub mod token_bucket;
pub mod trtcm;
pub mod tsw;
pub mod tsw3cm;

pub use srtcm::{SrTcm, SrTcmParams};
pub use token_bucket::{PolicerAction, TbPolicer, TbPolicerParams, TokenBucket};
pub use trtcm::{TrTcm, TrTcmParams};
pub use tsw::{Tsw, Tsw2cm, Tsw2cmParams, TswParams};
pub use tsw3cm::{Tsw3cm, Tsw3cmParams};

use crate::packet::{Color, PacketView};
use crate::rng::RandomSource;
use crate::shaper::GreenOracle;
use crate::time::Time;
use crate::verdict::DropReason;

/// Whether a meter looks at the packet's pre-colour (RFC 2697/2698 §1 "Color-Blind" and
/// "Color-Aware" modes). In colour-aware mode no meter ever improves a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ColorMode {
    #[default]
    Blind,
    Aware,
}

/// The outcome of metering one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeterVerdict {
    /// The packet continues with this colour.
    Pass(Color),
    /// The packet is discarded (only policers drop).
    Drop(DropReason),
}

impl MeterVerdict {
    /// The colour, if the packet was not dropped.
    pub fn color(self) -> Option<Color> {
        match self {
            MeterVerdict::Pass(c) => Some(c),
            MeterVerdict::Drop(_) => None,
        }
    }
}

/// Packets and bytes per outgoing colour, and drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColorCounters {
    /// Packets passed, by colour ([`Color::index`]).
    pub pkts: [u64; 3],
    /// Bytes passed, by colour.
    pub bytes: [u64; 3],
    pub dropped_pkts: u64,
    pub dropped_bytes: u64,
}

impl ColorCounters {
    pub fn record(&mut self, v: MeterVerdict, size: u32) {
        match v {
            MeterVerdict::Pass(c) => {
                self.pkts[c.index()] += 1;
                self.bytes[c.index()] += size as u64;
            }
            MeterVerdict::Drop(_) => {
                self.dropped_pkts += 1;
                self.dropped_bytes += size as u64;
            }
        }
    }
    /// Total packets seen (passed + dropped).
    pub fn total_pkts(&self) -> u64 {
        self.pkts.iter().sum::<u64>() + self.dropped_pkts
    }
}

/// [`Meter::earliest_green`]: T2 of the TCMs (RFC 2963 §3.3/§3.5), `NEVER` for the others.
impl GreenOracle for Meter {
    fn earliest_green(&self, now: Time, size: u32) -> Time {
        Meter::earliest_green(self, now, size)
    }
}

/// Any meter, as one closed enum.
#[derive(Clone, Debug)]
pub enum Meter {
    SrTcm(SrTcm),
    TrTcm(TrTcm),
    Tsw2cm(Tsw2cm),
    Tsw3cm(Tsw3cm),
    Policer(TbPolicer),
}

impl Meter {
    /// Meters `pkt` arriving at `now`. The random source is used only by the TSW markers.
    pub fn mark<R: RandomSource>(
        &mut self,
        now: Time,
        pkt: &PacketView,
        rng: &mut R,
    ) -> MeterVerdict {
        match self {
            Meter::SrTcm(m) => MeterVerdict::Pass(m.mark(now, pkt)),
            Meter::TrTcm(m) => MeterVerdict::Pass(m.mark(now, pkt)),
            Meter::Tsw2cm(m) => MeterVerdict::Pass(m.mark(now, pkt, rng)),
            Meter::Tsw3cm(m) => MeterVerdict::Pass(m.mark(now, pkt, rng)),
            Meter::Policer(m) => m.police(now, pkt),
        }
    }

    /// The earliest instant `>= now` at which this meter, left alone, would colour a green
    /// packet of `size` bytes green: RFC 2963 §3.3's T2 for an srTCM, §3.5's for a trTCM.
    /// Every other meter answers `Time::NEVER`: RFC 2963 §3 couples a green RAS only with a
    /// TCM (§6 leaves other markers "outside the scope"), the TSW markers have no
    /// deterministic answer, and a policer does not colour. A green RAS in front of them
    /// therefore falls back to its rate schedule T1 (min(T1, NEVER) = T1). Never mutates.
    /// For a `now` before the meter's last update, see [`srtcm`]/[`trtcm`].
    pub fn earliest_green(&self, now: Time, size: u32) -> Time {
        match self {
            Meter::SrTcm(m) => m.earliest_green(now, size),
            Meter::TrTcm(m) => m.earliest_green(now, size),
            Meter::Tsw2cm(_) | Meter::Tsw3cm(_) | Meter::Policer(_) => Time::NEVER,
        }
    }

    /// Whether this meter could ever colour a packet arriving with colour `pre` green:
    /// always in colour-blind mode, only a green packet in colour-aware mode (RFC 2697/2698
    /// §3, RFC 2859's markers here never improve a colour either); a policer passes or
    /// remarks, so only a green packet leaves it green. A green RAS treats T2 as `NEVER`
    /// for a head packet this says no to.
    pub fn can_color_green(&self, pre: Color) -> bool {
        let mode = match self {
            Meter::SrTcm(m) => m.params().mode,
            Meter::TrTcm(m) => m.params().mode,
            Meter::Tsw2cm(m) => m.params().mode,
            Meter::Tsw3cm(m) => m.params().mode,
            Meter::Policer(_) => ColorMode::Aware,
        };
        mode == ColorMode::Blind || pre == Color::Green
    }

    pub fn counters(&self) -> &ColorCounters {
        match self {
            Meter::SrTcm(m) => m.counters(),
            Meter::TrTcm(m) => m.counters(),
            Meter::Tsw2cm(m) => m.counters(),
            Meter::Tsw3cm(m) => m.counters(),
            Meter::Policer(m) => m.counters(),
        }
    }

    /// A short name for reports ("srtcm", "trtcm", "tsw2cm", "tsw3cm", "token-bucket").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Meter::SrTcm(_) => "srtcm",
            Meter::TrTcm(_) => "trtcm",
            Meter::Tsw2cm(_) => "tsw2cm",
            Meter::Tsw3cm(_) => "tsw3cm",
            Meter::Policer(_) => "token-bucket",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::time::Duration;
    use crate::units::Rate;

    #[test]
    fn enum_dispatch_matches_direct_calls() {
        let p = SrTcmParams::new(ColorMode::Blind, Rate::from_mbps(1), 1500, 1500).unwrap();
        let mut direct = SrTcm::new(p);
        let mut m = Meter::SrTcm(SrTcm::new(p));
        let mut rng = Rng::from_seed(1);
        for i in 0..100u64 {
            let pkt = PacketView::new(500 + (i as u32 * 37) % 1000);
            let now = Time::from_micros(i * 900);
            assert_eq!(
                m.mark(now, &pkt, &mut rng),
                MeterVerdict::Pass(direct.mark(now, &pkt))
            );
        }
        assert_eq!(m.counters(), direct.counters());
        assert_eq!(m.counters().total_pkts(), 100);
        let t = Meter::Tsw2cm(Tsw2cm::new(
            Tsw2cmParams::new(ColorMode::Blind, Rate(1000), Duration::from_secs(1)).unwrap(),
        ));
        assert_eq!(t.earliest_green(Time::ZERO, 1), Time::NEVER);
        assert_eq!(MeterVerdict::Drop(DropReason::Policed).color(), None);
    }

    /// The `GreenOracle` answer of each meter, asked through the trait as a green RAS does.
    fn oracle<O: GreenOracle>(o: &O, now: Time, size: u32) -> Time {
        o.earliest_green(now, size)
    }

    #[test]
    fn green_oracle_srtcm_including_a_now_before_the_last_update() {
        // CIR 8 Mbit/s = 1 B/us, CBS 1500, EBS 1; full at 0.
        let p = SrTcmParams::new(ColorMode::Blind, Rate::from_mbps(8), 1500, 1).unwrap();
        let mut m = SrTcm::new(p);
        let pv = PacketView::new(1500);
        assert_eq!(m.mark(Time::from_micros(1000), &pv), Color::Green); // Tc 0 at 1 ms
                                                                        // Asked at 1.2 ms for 300 B: Tc = 200 → T2 = 1.2 ms + 100 B / 1 B/us = 1.3 ms.
        assert_eq!(
            oracle(&m, Time::from_micros(1200), 300),
            Time::from_micros(1300)
        );
        // Asked at 0.5 ms (before the last update, 1 ms): Tc at the last update is 0, so
        // T2 = 1 ms + 300 B / 1 B/us = 1.3 ms, never earlier than the last update.
        assert_eq!(
            oracle(&m, Time::from_micros(500), 300),
            Time::from_micros(1300)
        );
        // A 0 B packet is green at once, but not before the last update.
        assert_eq!(
            oracle(&m, Time::from_micros(500), 0),
            Time::from_micros(1000)
        );
        // B > CBS: never.
        assert_eq!(oracle(&m, Time::from_micros(500), 1501), Time::NEVER);
        // Through the Meter enum: the same answers.
        let e = Meter::SrTcm(m.clone());
        assert_eq!(
            oracle(&e, Time::from_micros(500), 300),
            Time::from_micros(1300)
        );
    }

    #[test]
    fn green_oracle_trtcm_is_the_later_bucket() {
        // CIR 1 B/us, CBS 1000; PIR 2 B/us, PBS 3000; full at 0.
        let p = TrTcmParams::new(
            ColorMode::Blind,
            Rate::from_mbps(8),
            1000,
            Rate::from_mbps(16),
            3000,
        )
        .unwrap();
        let mut m = TrTcm::new(p);
        // t = 0, 1000 B: green, Tc 0, Tp 2000.
        assert_eq!(m.mark(Time::ZERO, &PacketView::new(1000)), Color::Green);
        // Asked at 100 us for 1000 B: Tc = 100 → C waits 900 us (→ 1000 us); Tp = 2200 →
        // P is ready at 100 us. T2 = max(100, 1000, 100) us = 1000 us.
        assert_eq!(
            oracle(&m, Time::from_micros(100), 1000),
            Time::from_micros(1000)
        );
        // t = 500 us, 500 B: Tc = 500 → green, Tc 0; Tp = min(3000, 2000 + 1000) − 500.
        assert_eq!(
            m.mark(Time::from_micros(500), &PacketView::new(500)),
            Color::Green
        );
        // Asked at 100 us (before the last update, 500 us) for 400 B: Tc at the last update
        // is 0 → 500 us + 400 us = 900 us; Tp = 2500 is enough.
        assert_eq!(
            oracle(&m, Time::from_micros(100), 400),
            Time::from_micros(900)
        );
        // B > CBS (PBS is larger): never.
        assert_eq!(oracle(&m, Time::ZERO, 1001), Time::NEVER);
        assert_eq!(
            oracle(&Meter::TrTcm(m), Time::from_micros(100), 400),
            Time::from_micros(900)
        );
    }

    #[test]
    fn green_oracle_is_never_for_non_tcm_meters() {
        let pol = Meter::Policer(TbPolicer::new(
            TbPolicerParams::new(Rate::from_mbps(8), 1500, PolicerAction::Drop).unwrap(),
        ));
        // The policer's bucket is full (it would pass the packet), but it does not colour.
        assert_eq!(oracle(&pol, Time::ZERO, 100), Time::NEVER);
        let tsw = Meter::Tsw3cm(Tsw3cm::new(
            Tsw3cmParams::new(
                ColorMode::Blind,
                Rate(1000),
                Rate(2000),
                Duration::from_secs(1),
            )
            .unwrap(),
        ));
        assert_eq!(oracle(&tsw, Time::ZERO, 1), Time::NEVER);
    }

    #[test]
    fn can_color_green_follows_the_colour_mode() {
        let sr = |mode| {
            Meter::SrTcm(SrTcm::new(
                SrTcmParams::new(mode, Rate(8000), 1000, 1000).unwrap(),
            ))
        };
        let blind = sr(ColorMode::Blind);
        let aware = sr(ColorMode::Aware);
        for c in Color::ALL {
            assert!(blind.can_color_green(c));
            assert_eq!(aware.can_color_green(c), c == Color::Green);
        }
        let pol = Meter::Policer(TbPolicer::new(
            TbPolicerParams::new(Rate(8000), 1500, PolicerAction::Remark(Color::Yellow)).unwrap(),
        ));
        assert!(pol.can_color_green(Color::Green) && !pol.can_color_green(Color::Yellow));
    }

    #[test]
    fn g_srras_coupled_with_a_real_srtcm() {
        use crate::shaper::{GreenRas, RasParams, SrRasConfig};
        // The G-srRAS test of `shaper::green_ras` with the real srTCM as its meter:
        // RAS CIR 8000 bit/s, MIR 32 000 bit/s, CIR_th 1000 B, MIR_th 3000 B, K = 1 s;
        // srTCM CIR 8000 bit/s = 1000 B/s, CBS 2000 B, EBS 1 B, full at 0.
        // Three 1000 B packets at 0:
        // #1: T2 = 0 (Tc 2000) → leaves at 0, green (Tc 1000).
        // #2: T2 = 0 (Tc 1000) → leaves at 0, green (Tc 0).
        // #3: T1 = 0.5 s (rate = EAR 16 000 bit/s, see `green_ras`), T2 = 1000 B / 1000 B/s
        //     = 1 s → leaves at T1 = 0.5 s; then Tc = 500 < 1000 and Te = 1 → red.
        let ras = RasParams::single_rate(&SrRasConfig {
            cir: Rate(8_000),
            mir: Rate(32_000),
            line_rate: Rate(80_000),
            cir_th: 1000,
            mir_th: 3000,
            buffer: 10_000,
            ear_window: Duration::from_secs(1),
        })
        .unwrap();
        let mut g = GreenRas::new(ras);
        let mut m = Meter::SrTcm(SrTcm::new(
            SrTcmParams::new(ColorMode::Blind, Rate(8_000), 2000, 1).unwrap(),
        ));
        for id in 1..=3 {
            g.on_arrival(Time::ZERO, id, PacketView::new(1000)).unwrap();
        }
        let mut rng = Rng::from_seed(1);
        let mut out = vec![];
        while let Some(t) = g.next_release(&m) {
            let (id, pkt) = g.release(t, &m).unwrap();
            out.push((id, t, m.mark(t, &pkt, &mut rng).color().unwrap()));
        }
        assert_eq!(
            out,
            vec![
                (1, Time::ZERO, Color::Green),
                (2, Time::ZERO, Color::Green),
                (3, Time::from_millis(500), Color::Red),
            ]
        );
        assert_eq!(g.stats().green_releases, 2);
    }
}
