//! RFC 6298 retransmission timer: SRTT/RTTVAR, RTO bounds, exponential backoff, Karn.
//!
//! Choices the RFC leaves open, and what is done here:
//! - **Arithmetic**: integer nanoseconds. (2.3) is evaluated as
//!   `RTTVAR = (3·RTTVAR + |SRTT − R'|) / 4` then `SRTT = (7·SRTT + R') / 8`, each division
//!   truncating (≤ 1 ns error per sample). RTTVAR is updated first, with the old SRTT, as
//!   (2.3) requires.
//! - **Clock granularity G** (`clock_granularity`), when G > 0, acts in three places, like the
//!   tick-based timers of BSD and ns-2 (`tcpTick_`):
//!   1. each RTT sample is quantised to whole ticks, rounded to the nearest tick and at
//!      least one tick (`max(1, round(R/G))·G`, the rounding of ns-2's `rtt_update` with
//!      timestamps; ns-2 without timestamps instead counts the tick boundaries crossed from
//!      a random clock phase, which we do not model so that runs stay deterministic);
//!   2. the G term of (2.2)/(2.3): `RTO = SRTT + max(G, K·RTTVAR)`, K = 4;
//!   3. that RTO is rounded **up** to a whole number of ticks.
//!
//!   Then `min_rto` (2.4) and `max_rto` (2.5) are applied. With G = 500 ms (old BSD) every
//!   RTT below 750 ms is measured as 500 ms, so the first sample gives
//!   `RTO = 500 + max(500, 4·250) = 1500 ms`; with G = 50 ms a 120 ms RTT is measured as
//!   100 ms and gives `RTO = 100 + max(50, 200) = 300 ms`. The timer itself is then exact
//!   (it expires `RTO` after it is armed, not at the next tick of a free-running clock, so
//!   BSD's "up to one tick early" jitter is not reproduced). G = 0 disables all three.
//! - **Backoff** (5.5): the RTO doubles on every expiry, up to `max_rto`; the backed-off value
//!   is kept until the next valid RTT sample (Karn's algorithm), which resets the backoff.
//! - **Karn's rule** (RFC 6298 §3) is applied by the sender: it never feeds a sample taken
//!   from a retransmitted segment.
//!
//! # ns-2 timer ([`RttEstimator::ns2`], `TcpParams::ns2_compat`)
//! ns-2's one-way `TcpAgent` (`rtt_update`, `rtt_timeout`, `rtt_backoff`, unchanged in these
//! respects from 1997 to its `rfc2988_` rewrite of 2002) keeps the Jacobson/Karels estimator
//! in integer ticks of G = `tcpTick_`:
//! - a sample is counted in whole ticks, at least one. ns-2 without timestamps counts the
//!   tick boundaries crossed from a random clock phase (`boot_time_`), whose mean is `R/G`;
//!   we use the deterministic `max(1, round(R/G))` as in the RFC mode above (documented
//!   deviation: no RNG inside the sender);
//! - `srtt8` (SRTT·8) and `rttvar4` (RTTVAR·4) are integers: `delta = R − srtt8/8`,
//!   `srtt8 += delta`, `rttvar4 += |delta| − rttvar4/4` (each `/` truncating, each result
//!   floored at 1); the first sample sets `srtt8 = 8R`, `rttvar4 = 2R`;
//! - `RTO = (8·rttvar4 + srtt8) / 8` ticks, truncated: SRTT + 4·RTTVAR **without** RFC 6298's
//!   `max(G, ·)` term. Because the integer RTTVAR stops decaying at 2/4 tick when every
//!   sample is one tick, a path whose RTT is below one tick has RTO = 3 ticks for good
//!   (300 ms with ns-2's 2000-era `tcpTick_ 0.1`), where the RFC mode decays to 2 ticks;
//! - the timeout is `RTO·backoff`, then at most `max_rto`, at least `min_rto` (ns-2's
//!   `minrto_`, added in 2001 with default 0) and at least two ticks;
//! - backoff doubles while it is below 64× **or** the backed-off timeout is still below
//!   `max_rto` (ns-2.35's `rtt_backoff` with `rfc2988_ true`, its default since 2002/03;
//!   the ns-2 of 1997–2001 stopped at 64×, which with a 0.4 s RTO is 25.6 s where ns-2.35
//!   goes on to `maxrto_` = 60 s: issue 14, finding 39); beyond 8× the SRTT is discarded
//!   (`rttvar4 += srtt8/8`, `srtt8 = 0`), so the next sample starts the estimator afresh. A
//!   valid sample resets the backoff (ns-2 `newack`: `t_backoff_ = 1` only when a timed
//!   segment is acknowledged). Not modelled: ns-2.35 with `rfc2988_` also raises an RTO below
//!   `minrto_` to `minrto_` *before* the backoff (`minrto_·backoff`), where this timer clamps
//!   after it (`max(RTO·backoff, min_rto)`, the pre-2002 order); the two differ only while
//!   the unbacked RTO is below `min_rto`.

use qoslab_algo::Duration;

/// ns-2's integer estimator state, in ticks (see the module doc).
#[derive(Clone, Copy, Debug)]
struct Ns2Ticks {
    /// SRTT·8 in ticks (ns-2 `t_srtt_`); 0 = no estimate.
    srtt8: i64,
    /// RTTVAR·4 in ticks (ns-2 `t_rttvar_`).
    rttvar4: i64,
}

/// SRTT/RTTVAR estimator and RTO computation (RFC 6298 §2 and §5, or ns-2's tick arithmetic).
#[derive(Clone, Debug)]
pub struct RttEstimator {
    /// `Some` for the ns-2 timer.
    ns2: Option<Ns2Ticks>,
    srtt: Option<Duration>,
    rttvar: Duration,
    /// RTO before backoff (after G rounding and min/max clamping).
    base_rto: Duration,
    /// Number of doublings in force (5.5).
    backoff: u32,
    g: Duration,
    min_rto: Duration,
    max_rto: Duration,
    /// The last measurement fed in, before any quantisation (`measure::delay`).
    last_sample: Option<Duration>,
    /// [`Self::rto`], recomputed whenever `base_rto` or `backoff` changes (the sender reads
    /// it on every ACK that restarts the timer; issue 13 session 17).
    rto: Duration,
}

/// RFC 6298 (2.2): K = 4.
const K: u64 = 4;

impl RttEstimator {
    pub fn new(initial_rto: Duration, min_rto: Duration, max_rto: Duration, g: Duration) -> Self {
        let mut e = RttEstimator {
            ns2: None,
            srtt: None,
            rttvar: Duration::ZERO,
            // (2.1) Until a RTT measurement has been made ... RTO <- initial value.
            base_rto: initial_rto,
            backoff: 0,
            g,
            min_rto,
            max_rto,
            last_sample: None,
            rto: Duration::ZERO,
        };
        e.rto = e.compute_rto();
        e
    }

    /// ns-2's timer (module doc, "ns-2 timer"). `g` is `tcpTick_`; zero is taken as 1 ns.
    pub fn ns2(initial_rto: Duration, min_rto: Duration, max_rto: Duration, g: Duration) -> Self {
        let mut e = RttEstimator {
            ns2: Some(Ns2Ticks {
                srtt8: 0,
                rttvar4: 0,
            }),
            g: g.max(Duration(1)),
            ..RttEstimator::new(initial_rto, min_rto, max_rto, g)
        };
        e.rto = e.compute_rto();
        e
    }

    /// Feeds one RTT measurement `r` (already known to be Karn-valid) and collapses any
    /// backoff.
    pub fn sample(&mut self, r: Duration) {
        self.last_sample = Some(r);
        if let Some(t) = self.ns2.as_mut() {
            let g = self.g.0;
            // ns-2 rtt_update: t_rtt_ in whole ticks, at least 1.
            let ticks = (r.0.saturating_add(g / 2) / g).max(1) as i64;
            if t.srtt8 != 0 {
                // d = (m - a0); a1 = 7/8 a0 + 1/8 m, i.e. srtt8 += d.
                let mut delta = ticks - (t.srtt8 >> 3);
                t.srtt8 += delta;
                if t.srtt8 <= 0 {
                    t.srtt8 = 1;
                }
                // var1 = 3/4 var0 + 1/4 |d|, i.e. rttvar4 += |d| - rttvar4/4.
                delta = delta.abs() - (t.rttvar4 >> 2);
                t.rttvar4 += delta;
                if t.rttvar4 <= 0 {
                    t.rttvar4 = 1;
                }
            } else {
                // srtt = rtt, rttvar = rtt / 2.
                t.srtt8 = ticks << 3;
                t.rttvar4 = ticks << 1;
            }
            // t_rtxcur_ = (srtt + 2^rttvar_exp_ * rttvar) in whole ticks (truncated).
            let rtxcur = ((t.rttvar4 << 3) + t.srtt8) >> 3;
            self.base_rto = Duration((rtxcur as u64).saturating_mul(g));
            self.srtt = Some(Duration(t.srtt8 as u64 * g / 8));
            self.rttvar = Duration(t.rttvar4 as u64 * g / 4);
            // newack: t_backoff_ = 1 when the timed segment is acknowledged.
            self.backoff = 0;
            self.rto = self.compute_rto();
            return;
        }
        let r = self.quantise(r);
        match self.srtt {
            None => {
                // (2.2) SRTT <- R, RTTVAR <- R/2
                self.srtt = Some(r);
                self.rttvar = Duration(r.0 / 2);
            }
            Some(srtt) => {
                // (2.3) RTTVAR <- (1 - beta) * RTTVAR + beta * |SRTT - R'|, beta = 1/4
                let diff = srtt.0.abs_diff(r.0);
                self.rttvar = Duration((3 * self.rttvar.0 + diff) / 4);
                //       SRTT <- (1 - alpha) * SRTT + alpha * R', alpha = 1/8
                self.srtt = Some(Duration((7 * srtt.0 + r.0) / 8));
            }
        }
        let srtt = self.srtt.unwrap_or(r);
        // (2.2)/(2.3) RTO <- SRTT + max (G, K*RTTVAR)
        let mut rto = srtt + Duration(self.g.0.max(self.rttvar.0.saturating_mul(K)));
        if self.g.0 > 0 {
            // Timer ticks: round up to a whole number of ticks.
            rto = Duration(rto.0.div_ceil(self.g.0).saturating_mul(self.g.0));
        }
        // (2.4) RTO below the minimum is rounded up; (2.5) a maximum may be placed on it.
        self.base_rto = rto.max(self.min_rto).min(self.max_rto);
        // Karn: a valid sample ends the backoff.
        self.backoff = 0;
        self.rto = self.compute_rto();
    }

    /// [`Self::sample`] without ending the backoff (ns-2's `newack` keeps `t_backoff_` while
    /// an ECN-Echo at a window of one packet is being answered, `ecn_backoff_`).
    pub fn sample_keep_backoff(&mut self, r: Duration) {
        let b = self.backoff;
        self.sample(r);
        self.backoff = b;
        self.rto = self.compute_rto();
    }

    /// (5.5) The host MUST set RTO <- RTO * 2 ("back off the timer"), bounded by max_rto.
    /// ns-2.35 (`rtt_backoff`, `rfc2988_ true`): doubles while below 64× or while the
    /// backed-off timeout is below `max_rto`; beyond 8× the SRTT is discarded.
    pub fn back_off(&mut self) {
        let below_max = self.rto() < self.max_rto;
        if let Some(t) = self.ns2.as_mut() {
            // "if (t_backoff_ < 64 || (rfc2988_ && rtt_timeout() < maxrto_)) t_backoff_ <<= 1"
            // (the shift is capped at 2^62, far beyond any max_rto in nanoseconds).
            if self.backoff < 6 || (below_max && self.backoff < 62) {
                self.backoff += 1;
            }
            if self.backoff > 3 {
                // "If backed off this far, clobber the srtt value, storing it in the mean
                // deviation instead."
                t.rttvar4 += t.srtt8 >> 3;
                t.srtt8 = 0;
                self.srtt = None;
            }
            self.rto = self.compute_rto();
            return;
        }
        if self.rto() < self.max_rto {
            self.backoff += 1;
        }
        self.rto = self.compute_rto();
    }

    /// The RTO in force: base RTO times 2^backoff, at most `max_rto` (ns-2: then at least
    /// `min_rto` and two ticks).
    #[inline]
    pub fn rto(&self) -> Duration {
        debug_assert_eq!(self.rto, self.compute_rto());
        self.rto
    }

    /// [`Self::rto`] from `base_rto` and `backoff`.
    fn compute_rto(&self) -> Duration {
        let shift = self.backoff.min(62);
        let rto = Duration(self.base_rto.0.saturating_mul(1u64 << shift)).min(self.max_rto);
        if self.ns2.is_some() {
            // rtt_timeout: clamp to maxrto_, then minrto_, then at least 2 * tcp_tick_.
            return rto
                .max(self.min_rto)
                .max(Duration(self.g.0.saturating_mul(2)));
        }
        rto
    }

    /// The last RTT measurement fed in (as taken, before clock-granularity rounding).
    pub fn last_sample(&self) -> Option<Duration> {
        self.last_sample
    }

    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }
    pub fn rttvar(&self) -> Duration {
        self.rttvar
    }
    /// Number of doublings currently applied.
    pub fn backoff_count(&self) -> u32 {
        self.backoff
    }

    fn quantise(&self, r: Duration) -> Duration {
        if self.g.0 == 0 {
            return r;
        }
        let ticks = ((r.0 + self.g.0 / 2) / self.g.0).max(1);
        Duration(ticks * self.g.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }
    fn us(x: u64) -> Duration {
        Duration::from_micros(x)
    }

    #[test]
    fn exact_clock_rfc6298_numbers() {
        let mut e = RttEstimator::new(ms(1000), ms(200), ms(60_000), Duration::ZERO);
        assert_eq!(e.rto(), ms(1000)); // (2.1)
                                       // R = 100 ms: SRTT = 100, RTTVAR = 50, RTO = 100 + max(0, 4*50) = 300 ms.
        e.sample(ms(100));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(ms(100)), ms(50), ms(300))
        );
        // R' = 200 ms: RTTVAR = 3/4*50 + 1/4*|100-200| = 62.5; SRTT = 7/8*100 + 1/8*200 = 112.5;
        // RTO = 112.5 + 4*62.5 = 362.5 ms.
        e.sample(ms(200));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(us(112_500)), us(62_500), us(362_500))
        );
        // R' = 112.5 ms: RTTVAR = 3/4*62.5 + 0 = 46.875; SRTT unchanged; RTO = 112.5 + 187.5 = 300.
        e.sample(us(112_500));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(us(112_500)), us(46_875), ms(300))
        );
    }

    #[test]
    fn min_and_max_rto_clamp() {
        let mut e = RttEstimator::new(ms(1000), ms(200), ms(2000), Duration::ZERO);
        // R = 10 ms: 10 + 4*5 = 30 ms < 200 ms minimum -> 200 ms (2.4).
        e.sample(ms(10));
        assert_eq!(e.rto(), ms(200));
        // Backoff: 400, 800, 1600, then capped at 2000 (2.5), and stays there.
        let seq: Vec<_> = (0..5)
            .map(|_| {
                e.back_off();
                e.rto()
            })
            .collect();
        assert_eq!(seq, vec![ms(400), ms(800), ms(1600), ms(2000), ms(2000)]);
        // Karn: the next valid sample collapses the backoff. R = 10 ms again:
        // RTTVAR = 3/4*5 + 0 = 3.75, SRTT = 10, RTO = 10 + 15 = 25 -> 200 ms.
        e.sample(ms(10));
        assert_eq!((e.backoff_count(), e.rto()), (0, ms(200)));
    }

    #[test]
    fn granularity_500ms_like_old_bsd() {
        let mut e = RttEstimator::new(ms(3000), ms(200), ms(64_000), ms(500));
        // R = 100 ms -> round(0.2 ticks) = 0 -> at least 1 tick = 500 ms.
        // SRTT = 500, RTTVAR = 250, RTO = 500 + max(500, 1000) = 1500 ms (3 whole ticks).
        e.sample(ms(100));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(ms(500)), ms(250), ms(1500))
        );
        // R = 800 ms -> round(1.6) = 2 ticks = 1000 ms. RTTVAR = 3/4*250 + 1/4*500 = 312.5;
        // SRTT = 7/8*500 + 1/8*1000 = 562.5; RTO = 562.5 + 1250 = 1812.5 -> up to 2000 ms.
        e.sample(ms(800));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(us(562_500)), us(312_500), ms(2000))
        );
    }

    #[test]
    fn ns2_integer_ticks_backoff_and_floors() {
        // G = 10 ms. R = 100 ms = 10 ticks: srtt8 = 80, rttvar4 = 20; RTO = (160 + 80)/8 = 30
        // ticks = 300 ms.
        let mut e = RttEstimator::ns2(ms(6000), ms(200), ms(60_000), ms(10));
        assert_eq!(e.rto(), ms(6000)); // rtxcur_init_ until the first sample
        e.sample(ms(100));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(ms(100)), ms(50), ms(300))
        );
        // R = 200 ms = 20 ticks: delta = 20 - 10 = 10, srtt8 = 90; rttvar4 += 10 - 20/4 = 25;
        // RTO = (200 + 90)/8 = 36 ticks (truncated; the RFC's exact value is 362.5 ms).
        e.sample(ms(200));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(us(112_500)), us(62_500), ms(360))
        );
        // Backoff 2, 4, 8: SRTT kept; 16: SRTT discarded (rttvar4 += 90/8 = 11); then 32,
        // 64, 128 (ns-2.35 with rfc2988_: past 64 while below maxrto_), 256 capped at
        // max_rto = 60 s, and no further doubling once there.
        let seq: Vec<_> = (0..9)
            .map(|_| {
                e.back_off();
                (e.rto(), e.srtt().is_some())
            })
            .collect();
        assert_eq!(
            seq,
            vec![
                (ms(720), true),
                (ms(1440), true),
                (ms(2880), true),
                (ms(5760), false),
                (ms(11_520), false),
                (ms(23_040), false),
                (ms(46_080), false),
                (ms(60_000), false),
                (ms(60_000), false),
            ]
        );
        assert_eq!(e.backoff_count(), 8);
        // The next sample starts afresh (srtt8 was 0) and ends the backoff.
        e.sample(ms(100));
        assert_eq!((e.backoff_count(), e.rto()), (0, ms(300)));
        // Floors: two ticks (G = 100 ms, initial RTO 100 ms, min_rto 1 ms: 200 ms), and
        // min_rto after backoff (ns-2 clamps the backed-off value: 300 ms x 1 < 400 ms).
        let f = RttEstimator::ns2(ms(100), ms(1), ms(60_000), ms(100));
        assert_eq!(f.rto(), ms(200));
        let mut m = RttEstimator::ns2(ms(1000), ms(400), ms(60_000), ms(10));
        m.sample(ms(100)); // 30 ticks = 300 ms < min_rto
        assert_eq!(m.rto(), ms(400));
        m.back_off(); // 600 ms
        assert_eq!(m.rto(), ms(600));
    }

    #[test]
    fn granularity_50ms() {
        let mut e = RttEstimator::new(ms(1000), ms(200), ms(60_000), ms(50));
        // R = 120 ms -> round(2.4) = 2 ticks = 100 ms. SRTT 100, RTTVAR 50,
        // RTO = 100 + max(50, 200) = 300 ms.
        e.sample(ms(120));
        assert_eq!(e.rto(), ms(300));
        // R = 130 ms -> round(2.6) = 3 ticks = 150 ms. RTTVAR = 3/4*50 + 1/4*50 = 50;
        // SRTT = 7/8*100 + 1/8*150 = 106.25; RTO = 106.25 + 200 = 306.25 -> up to 350 ms.
        e.sample(ms(130));
        assert_eq!(
            (e.srtt(), e.rttvar(), e.rto()),
            (Some(us(106_250)), ms(50), ms(350))
        );
        // Constant RTT: RTTVAR decays towards 0 and the G term takes over:
        // RTO -> SRTT + G rounded up, never below min_rto.
        for _ in 0..200 {
            e.sample(ms(500));
        }
        // SRTT -> 500 (within truncation), RTTVAR -> ~0: RTO = 500 + 50 = 550 ms.
        assert_eq!(e.rto(), ms(550));
    }
}
