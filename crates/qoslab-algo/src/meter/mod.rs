//! Meters and markers: they look at a packet (size, pre-colour), update their state and
//! return a colour — or, for a policer, a drop.
//!
//! | file | algorithm | source |
//! |---|---|---|
//! | [`token_bucket`] | exact token bucket (bit·ns tokens), [`TbPolicer`] | RFC 2697/2698 §3 bucket rules |
//! | [`srtcm`] | single rate Three Color Marker, RFC 2963 §3.2 T2 | RFC 2697 |
//! | [`trtcm`] | two rate Three Color Marker, RFC 2963 §3.4 T2 | RFC 2698 |
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

    /// The earliest instant at which a green packet of `size` bytes would leave this meter
    /// green (RFC 2963 §3.2/§3.4 T2; for a policer: in profile). Meters without a
    /// deterministic answer (the TSW markers) return `Time::NEVER`, so a green RAS in front of
    /// them falls back to its shaping schedule T1 (min(T1, NEVER) = T1). Never mutates.
    pub fn earliest_green(&self, now: Time, size: u32) -> Time {
        match self {
            Meter::SrTcm(m) => m.earliest_green(now, size),
            Meter::TrTcm(m) => m.earliest_green(now, size),
            Meter::Policer(m) => m.earliest_in_profile(now, size),
            Meter::Tsw2cm(_) | Meter::Tsw3cm(_) => Time::NEVER,
        }
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
}
