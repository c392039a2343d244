//! CL edge behaviour for flow termination as the CL documents the draft cites simulated it:
//! draft-briscoe-tsvwg-cl-phb-03 (Briscoe et al., "Pre-Congestion Notification marking",
//! 20 Oct 2006) App. B §10.4.1 "Flow Pre-emption Model and key parameters", word for word the
//! same model as draft-zhang-pcn-performance-evaluation-02 (Zhang, Charny, Liatsos,
//! Le Faucheur, 9 Jul 2007) §4.1 "Termination Model and Key Parameters". The edge roles are
//! those of draft-briscoe-tsvwg-cl-architecture-04 (25 Oct 2006) §3.2.1–§3.2.2 and §4.1/§4.3.
//!
//! Why this and not RFC 6661 ([`super::cl_edge`]) for the reproduction: the draft
//! (draft-satoh-pcn-st-marking-02) compares STM with "CL [draft-briscoe-tsvwg-cl-phb-03]"
//! (abstract), takes its CL parameters from "[I-D.briscoe-tsvwg-cl-phb],
//! [I-D.charny-pcn-single-marking], and [I-D.zhang-pcn-performance-evaluation]" (§10.5), and
//! describes the CL timing as those documents' model: "200 ms for CL" of measuring (§10.3) =
//! the egress's 100 ms Sustainable-Aggregate-Rate interval + the ingress's 100 ms sending-rate
//! interval, and "The CL needs time for measuring SAR and the sending rate and latency one-way
//! time from the PCN-egress-node to PCN-ingress-node" (§12). RFC 6661 (2012) postdates the
//! draft (2009). The texts were read in the `ysoftwareab/know-your-ietf-well` mirror of IETF
//! drafts (files `draft-briscoe-tsvwg-cl-phb-03.txt`, `draft-zhang-pcn-performance-
//! evaluation-02.txt`, `draft-briscoe-tsvwg-cl-architecture-04.txt`,
//! `draft-charny-pcn-single-marking-03.txt`).
//!
//! ## Egress ([`ClPhbEgress`])
//! - "When an egress gateway receives a marked packet from the ingress, it will start
//!   measuring its Sustainable-Aggregate-Rate for this ingress, if it is not already in the
//!   pre-emption mode." (cl-phb-03 §10.4.1; "marked" = pre-emption marked, §3.3.)
//! - "If a marked packet arrives while the egress is already in the pre-emption mode, the
//!   packet is ignored." (It neither restarts nor extends the interval.)
//! - "The measurement is interval based, with 100ms measurement interval" (`interval`).
//! - SAR = the rate of the aggregate's traffic "*excluding* any packets that are pre-emption
//!   marked" (§3.3; cl-architecture §4.3), i.e. not-marked + admission-marked bits over the
//!   interval. The report carries the three rates ([`ClReport`], `thm_bps` = admission-marked,
//!   `etm_bps` = pre-emption-marked, for information); `sar_bps()` is the SAR.
//! - "At the end of the measurement interval, the egress sends the measured
//!   Sustainable-Aggregate-Rate to the ingress, and leaves the pre-emption mode." The next
//!   pre-emption-marked packet opens a new interval.
//! - \[G\] The interval is `[first marked packet, + interval)`; a packet arriving exactly at
//!   its end falls after it (the interval closes first; a marked packet then opens the next).
//!
//! ## Ingress ([`ClPhbIngress`])
//! - "When the ingress receives the sustainable rate from the egress, it starts its own
//!   interval immediately (unless it is already in a measurement interval), and measures its
//!   sending rate to that egress. Then at the end of that measurement interval, it pre-empts
//!   the necessary amount of traffic. The ingress then leaves the pre-emption mode until the
//!   next time it receives the sustainable rate estimate from the egress."
//! - "the ingress used the same length of the measurement interval as the egress" (the engine
//!   passes `send_window`, 100 ms in every scenario).
//! - There is no wait between terminations: a report received after a termination starts the
//!   next interval at once, even when the egress measured it before the termination took
//!   effect (the cause of the over-termination zhang-02 §4.2 explains for differing RTTs).
//! - The necessary amount: pre-empt only if `S > SAR + Error1`, and then enough to bring the
//!   sending rate to `SAR − Error2` (cl-phb-03 §10.4.1, "to avoid excessive pre-emption due to
//!   the rate measurement errors"; cl-architecture §3.2.2 "Ingress-Aggregate-Rate >
//!   Sustainable-Aggregate-Rate + error" and "New Ingress-Aggregate-Rate <
//!   Sustainable-Aggregate-Rate − error"). cl-phb-03 used "2-5%"; zhang-02 §4.1, the same
//!   model two versions later, and the draft name no error terms, so both default to 0 \[G\].
//!   \[G\] The errors are fractions of SAR, in parts per million (integer arithmetic):
//!   `error1_ppm`, `error2_ppm`.
//! - \[G\] A report that arrives while the ingress is already measuring does not start an
//!   interval, but its SAR replaces the earlier one: the amount is decided at the end of the
//!   interval with the latest "sustainable rate estimate from the egress". (With the draft's
//!   1 ms one-way delays this only matters when a report and the interval's end coincide.)
//! - When the next interval starts, relative to an order: the egress's intervals follow each
//!   other while pre-emption-marked packets keep arriving, and the ingress's interval has the
//!   same length, so the report of the egress interval after the one that caused an order
//!   arrives δ after the order (δ: from the end of that egress interval to the next marked
//!   packet, microseconds under overload), whatever the one-way delay. The next sending-rate
//!   interval therefore starts δ after the order.
//! - Option ([`ClPhbIngressParams::wait_after_order`], off by default): RFC 6661 §3.3.2's
//!   RECOMMENDED spacing ("enough time elapses between successive termination events to
//!   allow the effects of previous termination events to be reflected in the measurements";
//!   RFC 6661 postdates the draft and cites it for this), also draft-briscoe-tsvwg-cl-
//!   architecture-04 §5.6 (an option for slowed pre-emption: "the ingress gateway knows when
//!   measurements should reflect that it has pre-empted flows"). With it, a report whose SAR
//!   interval began before the last order + the one-way delay is ignored (neither starts an
//!   interval nor updates SAR), the rule [`super::cl_edge::ClIngress`] applies to RFC 6661's
//!   periods. The next interval then starts one egress interval later (about 100 ms after
//!   the order), as in zhang-02 Fig. 4.4 read as session 7 read it.
//!
//! Victim selection is the engine's (cl-phb-03 §10.4.3: "The exact algorithm for selecting
//! which flows to pre-empt ... is subject of further study").
//!
//! Rates are bits in the interval × 10⁹ / interval ns, rounded down. Every entry point first
//! closes what ended at or before `now`; the engine calls `poll(now)` at `next_wakeup()`.

use super::cl_edge::ClReport;
use super::{rate_bps, PcnMark, Terminate};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

fn rate(bits: u128, over: Duration) -> u64 {
    rate_bps(bits, over.as_nanos())
}

/// Egress settings (cl-phb-03 §10.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClPhbEgressParams {
    /// SAR measurement interval: "100ms measurement interval chosen in all simulations".
    pub interval: Duration,
}

impl ClPhbEgressParams {
    pub fn draft_defaults() -> ClPhbEgressParams {
        ClPhbEgressParams {
            interval: Duration::from_millis(100),
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.interval == Duration::ZERO {
            return Err(ConfigError::out_of_range("t_meas", "0 s", "> 0 s"));
        }
        Ok(())
    }
}

/// cl-phb-03 egress for one aggregate (module docs).
#[derive(Clone, Debug)]
pub struct ClPhbEgress {
    params: ClPhbEgressParams,
    /// Start of the current SAR interval: Some = "pre-emption mode".
    window: Option<Time>,
    /// Bits by mark in the current interval: NM, AM, PM.
    bits: [u128; 3],
    pending: [Option<ClReport>; 2],
    reports: u64,
    ignored_marks: u64,
}

impl ClPhbEgress {
    pub fn new(p: ClPhbEgressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClPhbEgress {
            params: p,
            window: None,
            bits: [0; 3],
            pending: [None, None],
            reports: 0,
            ignored_marks: 0,
        })
    }
    /// SAR reports sent so far.
    pub fn reports(&self) -> u64 {
        self.reports
    }
    /// Pre-emption-marked packets that arrived in pre-emption mode ("the packet is ignored").
    pub fn ignored_marks(&self) -> u64 {
        self.ignored_marks
    }
    /// In pre-emption mode (measuring SAR).
    pub fn measuring(&self) -> bool {
        self.window.is_some()
    }

    fn advance(&mut self, now: Time) {
        let Some(start) = self.window else { return };
        let end = start + self.params.interval;
        if now < end {
            return;
        }
        // "At the end of the measurement interval, the egress sends the measured
        // Sustainable-Aggregate-Rate to the ingress, and leaves the pre-emption mode."
        let iv = self.params.interval;
        let r = ClReport {
            nm_bps: rate(self.bits[0], iv),
            thm_bps: rate(self.bits[1], iv),
            etm_bps: rate(self.bits[2], iv),
            period_start: start,
        };
        self.reports += 1;
        debug_assert!(self.pending[1].is_none(), "a CL SAR report would be lost");
        if self.pending[0].is_none() {
            self.pending[0] = Some(r);
        } else {
            self.pending[1] = Some(r);
        }
        self.window = None;
        self.bits = [0; 3];
    }

    /// One PCN packet from this aggregate's ingress.
    #[inline]
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) {
        self.advance(now);
        if mark == PcnMark::ExcessMarked {
            if self.window.is_some() {
                // "If a marked packet arrives while the egress is already in the pre-emption
                // mode, the packet is ignored."
                self.ignored_marks += 1;
            } else {
                // "it will start measuring its Sustainable-Aggregate-Rate for this ingress".
                self.window = Some(now);
            }
        }
        if self.window.is_some() {
            self.bits[mark as usize] += bits as u128;
        }
    }

    pub fn poll(&mut self, now: Time) -> Option<ClReport> {
        self.advance(now);
        let r = self.pending[0].take();
        self.pending[0] = self.pending[1].take();
        r
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        if let Some(r) = self.pending[0] {
            return Some(r.period_start + self.params.interval);
        }
        self.window.map(|s| s + self.params.interval)
    }
}

/// Ingress settings (cl-phb-03 §10.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClPhbIngressParams {
    /// Sending-rate measurement interval ("the same length ... as the egress": 100 ms).
    pub interval: Duration,
    /// Error1 as a fraction of SAR, ppm: pre-empt only if S > SAR·(1 + Error1).
    pub error1_ppm: u32,
    /// Error2 as a fraction of SAR, ppm: pre-empt down to SAR·(1 − Error2).
    pub error2_ppm: u32,
    /// None (cl-phb-03 §10.4.1: no wait, the default) or the one-way delay of RFC 6661
    /// §3.3.2's RECOMMENDED spacing: after an order at T, a report whose SAR interval began
    /// before T + this delay is ignored (module docs).
    pub wait_after_order: Option<Duration>,
}

impl ClPhbIngressParams {
    /// 100 ms, no error terms (zhang-02 §4.1 and the draft name none; module docs).
    pub fn draft_defaults() -> ClPhbIngressParams {
        ClPhbIngressParams {
            interval: Duration::from_millis(100),
            error1_ppm: 0,
            error2_ppm: 0,
            wait_after_order: None,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.interval == Duration::ZERO {
            return Err(ConfigError::out_of_range("send_window", "0 s", "> 0 s"));
        }
        for (k, v) in [("error1", self.error1_ppm), ("error2", self.error2_ppm)] {
            if v >= 1_000_000 {
                return Err(ConfigError::out_of_range(k, v, "< 1 (1,000,000 ppm)"));
            }
        }
        Ok(())
    }
}

/// cl-phb-03 ingress for one aggregate (module docs).
#[derive(Clone, Debug)]
pub struct ClPhbIngress {
    params: ClPhbIngressParams,
    /// (end of the sending-rate interval, bits sent in it): Some = "pre-emption mode".
    window: Option<(Time, u128)>,
    /// The latest SAR received.
    sar_bps: u64,
    pending: Option<(Time, Terminate)>,
    reports_during_interval: u64,
    /// Time of the last order (for `wait_after_order`).
    last_order: Option<Time>,
    reports_ignored_after_order: u64,
}

impl ClPhbIngress {
    pub fn new(p: ClPhbIngressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClPhbIngress {
            params: p,
            window: None,
            sar_bps: 0,
            pending: None,
            reports_during_interval: 0,
            last_order: None,
            reports_ignored_after_order: 0,
        })
    }
    /// Measuring the sending rate.
    pub fn measuring(&self) -> bool {
        self.window.is_some()
    }
    /// Reports that arrived while an interval was running (they only update SAR).
    pub fn reports_during_interval(&self) -> u64 {
        self.reports_during_interval
    }
    /// Reports ignored because their SAR interval began before the last order + the wait.
    pub fn reports_ignored_after_order(&self) -> u64 {
        self.reports_ignored_after_order
    }

    fn advance(&mut self, now: Time) {
        let Some((end, bits)) = self.window else {
            return;
        };
        if now < end {
            return;
        }
        self.window = None;
        // "Then at the end of that measurement interval, it pre-empts the necessary amount".
        let s = rate(bits, self.params.interval);
        let sar = self.sar_bps as u128;
        let ppm = |x: u32| sar * x as u128 / 1_000_000;
        // "the ingress did not trigger pre-emption unless the sending rate it measured was
        // greater than SAR + Error1".
        if (s as u128) <= sar + ppm(self.params.error1_ppm) {
            return;
        }
        // "the ingress pre-empted enough flows to reduce its sending rate to SAR - Error2".
        let target = sar - ppm(self.params.error2_ppm);
        self.last_order = Some(end);
        self.pending = Some((
            end,
            Terminate {
                rate_bps: (s as u128 - target).min(u64::MAX as u128) as u64,
                sending_rate_bps: s,
                min_report_bps: self.sar_bps,
            },
        ));
    }

    /// A SAR report from the egress.
    pub fn on_report(&mut self, now: Time, r: ClReport) {
        self.advance(now);
        if let (Some(w), Some(t)) = (self.params.wait_after_order, self.last_order) {
            if r.period_start < t + w {
                // RFC 6661 §3.3.2 spacing (option): measured before the order took effect.
                self.reports_ignored_after_order += 1;
                return;
            }
        }
        self.sar_bps = r.sar_bps();
        if self.window.is_some() {
            // "(unless it is already in a measurement interval)"; [G] SAR is the latest.
            self.reports_during_interval += 1;
        } else {
            // "it starts its own interval immediately".
            self.window = Some((now + self.params.interval, 0));
        }
    }

    /// A PCN data packet sent to this aggregate's egress.
    #[inline]
    pub fn on_send(&mut self, now: Time, bits: u64) {
        self.advance(now);
        if let Some((end, b)) = &mut self.window {
            if now < *end {
                *b += bits as u128;
            }
        }
    }

    pub fn poll(&mut self, now: Time) -> Option<Terminate> {
        self.advance(now);
        self.pending.take().map(|(_, t)| t)
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match (self.pending, self.window) {
            (Some((t, _)), _) => Some(t),
            (None, Some((end, _))) => Some(end),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NM: PcnMark = PcnMark::NotMarked;
    const AM: PcnMark = PcnMark::ThresholdMarked;
    const PM: PcnMark = PcnMark::ExcessMarked;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }
    fn rep(sar: u64, start_ms: u64) -> ClReport {
        ClReport {
            nm_bps: sar,
            thm_bps: 0,
            etm_bps: 1,
            period_start: ms(start_ms),
        }
    }

    /// §10.4.1: the first PM packet opens a 100 ms interval; PM packets in it are ignored;
    /// SAR excludes PM bits; at the end one report, and the mode is left.
    #[test]
    fn egress_measures_sar_from_the_first_marked_packet() {
        let mut e = ClPhbEgress::new(ClPhbEgressParams::draft_defaults()).unwrap();
        // Unmarked traffic outside pre-emption mode is not measured.
        e.on_packet(ms(5), 1000, NM);
        assert!(!e.measuring());
        assert_eq!(e.next_wakeup(), None);
        e.on_packet(ms(10), 500, PM); // opens [10, 110)
        assert!(e.measuring());
        assert_eq!(e.next_wakeup(), Some(ms(110)));
        e.on_packet(ms(20), 3000, NM);
        e.on_packet(ms(30), 1000, AM);
        e.on_packet(ms(40), 700, PM); // ignored: already in pre-emption mode
        e.on_packet(ms(109), 1000, NM);
        assert_eq!(e.poll(ms(109)), None);
        // SAR = (3000 + 1000 + 1000) bits / 0.1 s = 50 kb/s; PM 1200 bits → 12 kb/s.
        let r = e.poll(ms(110)).unwrap();
        assert_eq!(
            r,
            ClReport {
                nm_bps: 40_000,
                thm_bps: 10_000,
                etm_bps: 12_000,
                period_start: ms(10),
            }
        );
        assert_eq!(r.sar_bps(), 50_000);
        assert!(!e.measuring());
        assert_eq!(e.ignored_marks(), 1);
        // A PM packet exactly at an interval's end: the interval closes first, then the
        // packet opens the next one.
        e.on_packet(ms(200), 100, PM); // [200, 300)
        e.on_packet(ms(300), 100, PM); // closes [200, 300), opens [300, 400)
        assert_eq!(e.poll(ms(300)).unwrap().period_start, ms(200));
        assert!(e.measuring());
        assert_eq!(e.next_wakeup(), Some(ms(400)));
        assert_eq!(e.poll(ms(400)).unwrap().period_start, ms(300));
        assert_eq!(e.reports(), 3);
    }

    /// §10.4.1: a report starts the sending-rate interval at once; at its end S − SAR is
    /// pre-empted; the next report starts the next interval with no wait.
    #[test]
    fn ingress_terminates_s_minus_sar_with_no_wait() {
        let mut i = ClPhbIngress::new(ClPhbIngressParams::draft_defaults()).unwrap();
        assert_eq!(i.next_wakeup(), None);
        i.on_send(ms(0), 1000); // not measuring: not counted
        i.on_report(ms(101), rep(700_000, 0));
        assert!(i.measuring());
        assert_eq!(i.next_wakeup(), Some(ms(201)));
        for k in 0..100 {
            i.on_send(ms(101 + k), 1000); // 1 Mb/s
        }
        i.on_send(ms(201), 1000); // at the end: outside [101, 201)
        assert_eq!(
            i.poll(ms(201)),
            Some(Terminate {
                rate_bps: 300_000,
                sending_rate_bps: 1_000_000,
                min_report_bps: 700_000,
            })
        );
        assert!(!i.measuring());
        // The next report (an interval the egress measured before the termination) starts a
        // new interval at once: no hold-off.
        i.on_report(ms(202), rep(700_000, 101));
        assert!(i.measuring());
        for k in 0..100 {
            i.on_send(ms(202 + k), 700);
        }
        // S = 700 kb/s = SAR: not greater, no pre-emption.
        assert_eq!(i.poll(ms(302)), None);
        assert!(!i.measuring());
    }

    /// "(unless it is already in a measurement interval)": a second report does not restart
    /// the interval; its SAR is the one used (the latest) [G].
    #[test]
    fn a_report_during_the_interval_only_updates_sar() {
        let mut i = ClPhbIngress::new(ClPhbIngressParams::draft_defaults()).unwrap();
        i.on_report(ms(0), rep(500_000, 0));
        i.on_report(ms(50), rep(600_000, 0));
        assert_eq!(i.reports_during_interval(), 1);
        assert_eq!(i.next_wakeup(), Some(ms(100)));
        for k in 0..100 {
            i.on_send(ms(k), 1000);
        }
        let t = i.poll(ms(100)).unwrap();
        assert_eq!((t.rate_bps, t.min_report_bps), (400_000, 600_000));
    }

    /// Option `wait_after_order` (RFC 6661 §3.3.2 spacing, off by default): after an order at
    /// T, a report whose SAR interval began before T + the one-way delay neither starts an
    /// interval nor updates SAR; one that began at T + delay or later does. Without the
    /// option the same report starts the next interval at once (previous test).
    #[test]
    fn wait_after_order_ignores_reports_measured_before_the_order_took_effect() {
        let p = ClPhbIngressParams {
            wait_after_order: Some(Duration::from_millis(1)),
            ..ClPhbIngressParams::draft_defaults()
        };
        let mut i = ClPhbIngress::new(p).unwrap();
        i.on_report(ms(101), rep(700_000, 0));
        for k in 0..100 {
            i.on_send(ms(101 + k), 1000);
        }
        // The order, at T = 201 ms.
        assert_eq!(i.poll(ms(201)).unwrap().rate_bps, 300_000);
        // The egress interval that ran while the order was decided: ignored.
        i.on_report(ms(202), rep(500_000, 101));
        assert!(!i.measuring());
        assert_eq!(i.next_wakeup(), None);
        // Began 1 ns before T + 1 ms: still ignored.
        let just_before = ClReport {
            period_start: Time::from_nanos(202_000_000 - 1),
            ..rep(500_000, 0)
        };
        i.on_report(ms(302), just_before);
        assert!(!i.measuring());
        assert_eq!(i.reports_ignored_after_order(), 2);
        // Began at T + 1 ms: starts the next interval, with its own SAR.
        i.on_report(ms(303), rep(650_000, 202));
        assert!(i.measuring());
        for k in 0..100 {
            i.on_send(ms(303 + k), 700);
        }
        assert_eq!(i.poll(ms(403)).unwrap().rate_bps, 50_000);
        // Without the wait the first of those reports starts an interval at once.
        let mut j = ClPhbIngress::new(ClPhbIngressParams::draft_defaults()).unwrap();
        j.on_report(ms(101), rep(700_000, 0));
        for k in 0..100 {
            j.on_send(ms(101 + k), 1000);
        }
        assert!(j.poll(ms(201)).is_some());
        j.on_report(ms(202), rep(500_000, 101));
        assert!(j.measuring());
        assert_eq!(j.reports_ignored_after_order(), 0);
    }

    /// cl-phb-03 §10.4.1 error factors: no pre-emption unless S > SAR·(1 + Error1); then down
    /// to SAR·(1 − Error2).
    #[test]
    fn error_terms_gate_and_deepen_the_order() {
        let p = ClPhbIngressParams {
            error1_ppm: 50_000,
            error2_ppm: 50_000,
            ..ClPhbIngressParams::draft_defaults()
        };
        let mut i = ClPhbIngress::new(p).unwrap();
        // S = 1.05 Mb/s = SAR·1.05 exactly: not greater → nothing.
        i.on_report(ms(0), rep(1_000_000, 0));
        for k in 0..100 {
            i.on_send(ms(k), 1050);
        }
        assert_eq!(i.poll(ms(100)), None);
        // S = 1.06 Mb/s: pre-empt down to 0.95 Mb/s → 110 kb/s.
        i.on_report(ms(200), rep(1_000_000, 100));
        for k in 0..100 {
            i.on_send(ms(200 + k), 1060);
        }
        assert_eq!(i.poll(ms(300)).unwrap().rate_bps, 110_000);
    }

    #[test]
    fn params_are_validated() {
        assert!(ClPhbEgress::new(ClPhbEgressParams {
            interval: Duration::ZERO
        })
        .is_err());
        let p = ClPhbIngressParams::draft_defaults();
        assert!(ClPhbIngress::new(ClPhbIngressParams {
            interval: Duration::ZERO,
            ..p
        })
        .is_err());
        assert!(ClPhbIngress::new(ClPhbIngressParams {
            error2_ppm: 1_000_000,
            ..p
        })
        .is_err());
    }
}
