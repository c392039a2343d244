//! Green rate adaptive shapers G-srRAS and G-trRAS (RFC 2963 §3).
//!
//! "The main idea of the green RAS is to couple the shaper with the downstream meter so
//! that the green RAS knows at what time the packet at the head of its queue would be
//! accepted as green by the meter" (§3.1). The head leaves at `min(T1, T2)`:
//! - T1 is the plain RAS schedule ([`Ras`], with all of its documented choices; §3.3/§3.5:
//!   "the shaping rate of the G-srRAS is calculated in the same way as for the srRAS");
//! - T2 is the earliest instant the meter would colour the head green, asked of a
//!   [`GreenOracle`] (the integrator implements it for the srTCM/trTCM; `Time::NEVER` when
//!   the packet exceeds CBS/PBS).
//!
//! Choices the text leaves open, and what is done here:
//! - **"The current time t"** of §3.3's `T2 = max(t, t + (B − Tc(t))/CIR)`: the latest
//!   instant the shaper has seen (the `now` of its latest `on_arrival`/`release`), and not
//!   before the head reached the head. `next_release` is thus a pure function of the
//!   shaper's and the meter's states. Since the meter's tokens only grow between meter
//!   events, any `t` not later than the green instant gives the same T2.
//! - **T2 is never cached**: it is asked of the oracle at every `next_release`/`release`.
//!   The meter's state changes whenever a packet passes it (this shaper's own releases,
//!   and any other traffic metered by the same meter), so the caller must re-query
//!   `next_release` after each such event and re-arm its timer (module docs of
//!   [`shaper`](super), rule 2). A timer armed for an old T2 that is no longer valid is
//!   harmless: `release` re-evaluates and returns `None`.
//! - **After a green release** (at T2 < T1) the next head starts at that instant, exactly
//!   as after a rate release: its T1 is the RAS schedule from there.
//! - **Same instant**: a release at T1 = T2 counts as a rate release (not in
//!   [`ShaperStats::green_releases`]).
//!
//! Because the underlying RAS re-evaluates its rate at every event (see [`ras`](super::ras)),
//! a green RAS never releases a packet later than the plain RAS fed the same arrivals.

use super::ras::{Ras, RasKind, RasParams};
use super::{Dropped, GreenOracle, ShaperStats};
use crate::packet::PacketView;
use crate::time::Time;

/// A G-srRAS or G-trRAS (per its [`RasParams::kind`]).
#[derive(Clone, Debug)]
pub struct GreenRas {
    ras: Ras,
}

impl GreenRas {
    /// "The G-srRAS must be configured in the same way as the srRAS" (§3.2; §3.4 for the
    /// G-trRAS): the same validated [`RasParams`].
    pub fn new(params: RasParams) -> Self {
        GreenRas {
            ras: Ras::new(params),
        }
    }

    pub fn params(&self) -> &RasParams {
        self.ras.params()
    }
    pub fn kind(&self) -> RasKind {
        self.ras.kind()
    }
    /// The plain RAS inside (its EAR, shaping rate, T1 schedule).
    pub fn ras(&self) -> &Ras {
        &self.ras
    }

    /// As [`Ras::on_arrival`].
    pub fn on_arrival(&mut self, now: Time, id: u64, pkt: PacketView) -> Result<(), Dropped> {
        self.ras.on_arrival(now, id, pkt)
    }

    /// T1: the head's release instant by the rate schedule (None if empty).
    pub fn t1(&self) -> Option<Time> {
        self.ras.next_release()
    }

    /// T2: the earliest instant the meter behind `oracle` would colour the head green
    /// (None if empty; `Time::NEVER` if never).
    pub fn t2<O: GreenOracle + ?Sized>(&self, oracle: &O) -> Option<Time> {
        let size = self.ras.head_size()?;
        // "the current time t": the latest instant seen, not before the head got there.
        let t = self.ras.last_now().max(self.ras.head_since());
        // RFC 2963 §3.3: "T2 is equal to max(t, t+(B-Tc(t))/CIR)" — computed by the meter;
        // the max with t is re-applied in case an oracle answers an earlier instant.
        Some(oracle.earliest_green(t, size).max(t))
    }

    /// `min(T1, T2)` (None if empty). Re-query after every event that changes the meter.
    pub fn next_release<O: GreenOracle + ?Sized>(&self, oracle: &O) -> Option<Time> {
        let t1 = self.t1()?;
        let t2 = self.t2(oracle)?;
        // RFC 2963 §3.3: "it will leave this queue not sooner than min(T1, T2)"
        Some(t1.min(t2))
    }

    /// Pops the head if `min(T1, T2) <= now`, T2 asked of `oracle` as it is now.
    pub fn release<O: GreenOracle + ?Sized>(
        &mut self,
        now: Time,
        oracle: &O,
    ) -> Option<(u64, PacketView)> {
        let t1 = self.t1()?;
        let t2 = self.t2(oracle)?;
        let at = t1.min(t2);
        if at > now {
            return None;
        }
        self.ras.release_at(at, now, t2 < t1)
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        self.ras.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ras.is_empty()
    }
    /// The occupancy: bytes held, head packet included.
    pub fn bytes(&self) -> u64 {
        self.ras.bytes()
    }
    pub fn stats(&self) -> &ShaperStats {
        self.ras.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shaper::ras::SrRasConfig;
    use crate::shaper::testkit::TestMeter;
    use crate::shaper::NoOracle;
    use crate::time::Duration;
    use crate::units::Rate;

    fn params() -> RasParams {
        // As the srRAS test: CIR 8000, MIR 32 000 bit/s, CIR_th 1000, MIR_th 3000 B, K = 1 s.
        RasParams::single_rate(&SrRasConfig {
            cir: Rate(8_000),
            mir: Rate(32_000),
            line_rate: Rate(80_000),
            cir_th: 1000,
            mir_th: 3000,
            buffer: 10_000,
            ear_window: Duration::from_secs(1),
        })
        .unwrap()
    }

    #[test]
    fn three_back_to_back_packets_with_a_meter() {
        // Meter: srTCM-like committed bucket, CIR 1000 B/s, CBS 2000 B, full at 0.
        // Three 1000 B packets at 0 (EAR 0, 1000, 2000 B/s as in the srRAS test).
        // #1: T1 = 0.25 s, T2 = 0 (2000 B >= 1000) → leaves at 0 (green); meter 1000 B.
        // #2 at the head at 0: q = 2000 → F = 20 000 > EAR 16 000 → T1 = 0.4 s;
        //   T2 = 0 (1000 B) → leaves at 0; meter 0 B.
        // #3 at 0: q = 1000 → F = CIR, EAR 16 000 bit/s → T1 = 8e12/16 000 ns = 0.5 s;
        //   T2 = 0 + 1000 B / 1000 B/s = 1 s → leaves at T1 = 0.5 s (a rate release).
        let mut s = GreenRas::new(params());
        let mut meter = TestMeter::new(1000, 2000);
        for id in 1..=3 {
            s.on_arrival(Time(0), id, PacketView::new(1000)).unwrap();
        }
        assert_eq!(s.t1(), Some(Time::from_millis(250)));
        let mut out = vec![];
        while let Some(t) = s.next_release(&meter) {
            let (id, pkt) = s.release(t, &meter).unwrap();
            assert!(meter.is_green(t, pkt.size) || id == 3);
            meter.meter(t, pkt.size);
            out.push((id, t));
        }
        assert_eq!(
            out,
            vec![(1, Time(0)), (2, Time(0)), (3, Time::from_millis(500))]
        );
        assert_eq!(s.stats().green_releases, 2);
    }

    #[test]
    fn t2_waits_for_tokens() {
        // Meter empty at 0 (CBS 2000 B, drained by a 2000 B packet at 0), CIR 1000 B/s.
        // One 1000 B packet at 0: T1 = 1 s (rate CIR); T2 = 1000 B / 1000 B/s = 1 s → tie,
        // a rate release. A 500 B packet then arrives at 1.2 s: EAR after T = 1.2 s:
        // (1 − e^(−1.2))·500/1.2 ≈ 291.2 B/s < CIR, q = 500 → T1 = 1.2 + 0.5 = 1.7 s; the
        // meter has min(2000, 0 + 0.2 s · 1000 B/s) = 200 B (1000 B taken at 1 s) → T2 =
        // 1.2 + 300/1000 = 1.5 s → a green release at 1.5 s.
        let mut s = GreenRas::new(params());
        let mut meter = TestMeter::new(1000, 2000);
        meter.meter(Time(0), 2000);
        s.on_arrival(Time(0), 1, PacketView::new(1000)).unwrap();
        assert_eq!(s.t2(&meter), Some(Time::from_secs(1)));
        assert_eq!(s.next_release(&meter), Some(Time::from_secs(1)));
        s.release(Time::from_secs(1), &meter).unwrap();
        meter.meter(Time::from_secs(1), 1000);
        assert_eq!(s.stats().green_releases, 0);
        let t = Time::from_millis(1200);
        s.on_arrival(t, 2, PacketView::new(500)).unwrap();
        assert_eq!(s.t1(), Some(Time::from_millis(1700)));
        assert_eq!(s.next_release(&meter), Some(Time::from_millis(1500)));
        assert!(s.release(Time::from_millis(1499), &meter).is_none());
        assert_eq!(s.release(Time::from_millis(1500), &meter).unwrap().0, 2);
        assert_eq!(s.stats().green_releases, 1);
    }

    #[test]
    fn no_oracle_is_the_plain_ras() {
        let mut g = GreenRas::new(params());
        let mut r = Ras::new(params());
        for id in 1..=3 {
            g.on_arrival(Time(id), id, PacketView::new(700)).unwrap();
            r.on_arrival(Time(id), id, PacketView::new(700)).unwrap();
        }
        while let Some(t) = r.next_release() {
            assert_eq!(g.next_release(&NoOracle), Some(t));
            assert_eq!(g.release(t, &NoOracle), r.release(t));
        }
        assert!(g.is_empty());
    }
}
