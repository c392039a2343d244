//! CL edge behaviour for flow termination: RFC 6661 ("PCN Boundary Node Behaviour for the
//! Controlled Load (CL) Mode of Operation", Charny, Huang, Karagiannis, Menth, Taylor, 2012;
//! the draft's [I-D.ietf-pcn-cl-edge-behaviour] reference), §3.2–§3.5, with the Decision
//! Point collocated with the PCN-ingress-node (§1.1, §3.1: it "MAY be collocated"). The
//! draft-satoh-pcn-st-marking-02 constraints: §10.3 "200 ms for CL" (measuring time) and §12
//! "The CL needs time for measuring SAR and the sending rate".
//!
//! - **Egress** ([`ClEgress`], §3.2.1): per ingress, the PCN traffic is metered continuously
//!   in back-to-back measurement periods of `t_meas` (100 ms \[G\]: §3.5.1 recommends "on the
//!   order of 100 to 500 ms"; 100 ms makes the draft's 200 ms with the sending-rate
//!   measurement), aligned at time 0 ("the operation of PCN is not affected if the starting
//!   and ending times of the measurement intervals for different ingress-egress-aggregates
//!   are different"). At the end of each period it computes NM-rate, ThM-rate and ETM-rate
//!   (bits/s here, octets/s in the RFC: a unit change only) and reports them ([`ClReport`]).
//!   Reports that cannot change the Decision Point's termination state are not generated:
//!   §3.3.2 acts only on a report with a non-zero ETM-rate and on the report that follows it,
//!   so only the reports of a period with ETM traffic and of the period after one are sent (as
//!   if every report were sent and the others ignored). Admission in the draft uses the
//!   per-packet EWMA CLE (§11.1), not these reports; RFC 6661 §3.3.1's per-period CLE is not
//!   used.
//! - **Decision Point / ingress** ([`ClIngress`], §3.3.2, §3.4):
//!   1. On a report with ETM-rate > 0 while idle, it "MUST request the PCN-ingress-node to
//!      provide an estimate of the rate (PCN-sent-rate)". The ingress measures its sending
//!      rate S to that egress over `send_window` from that instant (100 ms \[G\]; §3.4: "The
//!      way this rate estimate is derived is a matter of implementation").
//!   2. It "MUST then wait, for both the requested rate ... and the next report". If that next
//!      report "also includes a non-zero value for the ETM-rate", then SAR = NM-rate +
//!      ThM-rate "for the latest reported interval", and the amount to terminate is
//!      "PCN-sent-rate − SAR" ([`Terminate`], only when positive: "If the difference ... is
//!      positive"). Either way it returns to idle.
//!   3. Spacing: "it is RECOMMENDED that enough time elapses between successive termination
//!      events to allow the effects of previous termination events to be reflected in the
//!      measurements upon which the termination decisions are based". \[G\] A report whose
//!      period began before `last termination + one_way_delay` (the termination's effect
//!      reaches the egress one one-way delay later) is ignored.
//!
//! Flow selection (§3.3.2 "MAY use upper rate limits ... up to the traffic rate to be
//! terminated") is the engine's.
//!
//! Rates are bits in the period × 10⁹ / period ns, rounded down. Every entry point first
//! closes what ended at or before `now`; the engine calls `poll(now)` at `next_wakeup()`.

use super::{rate_bps, PcnMark, Terminate};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// CL egress settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClEgressParams {
    /// RFC 6661 T_meas (100 ms \[G\]).
    pub t_meas: Duration,
}

impl ClEgressParams {
    pub fn draft_defaults() -> ClEgressParams {
        ClEgressParams {
            t_meas: Duration::from_millis(100),
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.t_meas == Duration::ZERO {
            return Err(ConfigError::out_of_range("t_meas", "0 s", "> 0 s"));
        }
        Ok(())
    }
}

/// An egress report for one measurement period (RFC 6661 §3.2.2), bits/s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClReport {
    pub nm_bps: u64,
    pub thm_bps: u64,
    pub etm_bps: u64,
    pub period_start: Time,
}

impl ClReport {
    /// §3.3.2 step 1: "SAR = NM-rate + ThM-rate".
    pub fn sar_bps(&self) -> u64 {
        self.nm_bps.saturating_add(self.thm_bps)
    }
}

/// CL egress measurement state for one aggregate.
#[derive(Clone, Debug)]
pub struct ClEgress {
    params: ClEgressParams,
    /// Index k of the current period [k·T, (k+1)·T).
    k: u64,
    /// Bits by mark in the current period: NM, ThM, ETM.
    bits: [u128; 3],
    /// Did the previous period carry ETM traffic?
    prev_etm: bool,
    /// Reports due (at most two when one call closes two periods).
    pending: [Option<ClReport>; 2],
    reports: u64,
}

impl ClEgress {
    pub fn new(p: ClEgressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClEgress {
            params: p,
            k: 0,
            bits: [0; 3],
            prev_etm: false,
            pending: [None, None],
            reports: 0,
        })
    }
    /// Reports generated so far.
    pub fn reports(&self) -> u64 {
        self.reports
    }

    fn period_end(&self, k: u64) -> Time {
        Time((k + 1) * self.params.t_meas.as_nanos())
    }

    fn push(&mut self, r: ClReport) {
        self.reports += 1;
        // At most two reports fall due between polls: the one for a period with ETM traffic
        // and the one for the period after it (a third needs a new ETM packet, i.e. a call).
        debug_assert!(self.pending[1].is_none(), "a CL report would be lost");
        if self.pending[0].is_none() {
            self.pending[0] = Some(r);
        } else {
            self.pending[1] = Some(r);
        }
    }

    /// Closes every period that ended at or before `now` (§3.2.1: rates "calculated at the end
    /// of each measurement period based on the PCN-traffic observed during that period").
    fn advance(&mut self, now: Time) {
        let t = self.params.t_meas.as_nanos();
        let k_now = now.as_nanos() / t;
        while self.k < k_now {
            let etm = self.bits[2] > 0;
            if etm || self.prev_etm {
                let rate = |b: u128| rate_bps(b, t);
                self.push(ClReport {
                    nm_bps: rate(self.bits[0]),
                    thm_bps: rate(self.bits[1]),
                    etm_bps: rate(self.bits[2]),
                    period_start: Time(self.k * t),
                });
            }
            self.prev_etm = etm;
            self.bits = [0; 3];
            // Empty periods after a quiet one produce nothing: skip them at once.
            self.k = if etm { self.k + 1 } else { k_now };
        }
    }

    /// One PCN packet from this aggregate's ingress.
    #[inline]
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) {
        self.advance(now);
        self.bits[mark as usize] += bits as u128;
    }

    pub fn poll(&mut self, now: Time) -> Option<ClReport> {
        self.advance(now);
        let r = self.pending[0].take();
        self.pending[0] = self.pending[1].take();
        r
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        if let Some(r) = self.pending[0] {
            return Some(r.period_start + self.params.t_meas);
        }
        // A report is due at the end of this period if it carries ETM traffic or the
        // previous one did.
        (self.bits[2] > 0 || self.prev_etm).then(|| self.period_end(self.k))
    }
}

/// CL ingress / Decision Point settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClIngressParams {
    /// PCN-sent-rate measuring interval (100 ms \[G\]).
    pub send_window: Duration,
    /// One-way egress→ingress delay, for the spacing rule.
    pub one_way_delay: Duration,
}

impl ClIngressParams {
    pub fn draft_defaults(one_way_delay: Duration) -> ClIngressParams {
        ClIngressParams {
            send_window: Duration::from_millis(100),
            one_way_delay,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.send_window == Duration::ZERO {
            return Err(ConfigError::out_of_range("send_window", "0 s", "> 0 s"));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug)]
struct Waiting {
    /// End of the PCN-sent-rate measurement.
    s_end: Time,
    bits: u128,
    /// "the next report from the PCN-egress-node", with its arrival time.
    next: Option<(Time, ClReport)>,
}

/// CL Decision Point (collocated with the ingress) for one aggregate.
#[derive(Clone, Debug)]
pub struct ClIngress {
    params: ClIngressParams,
    waiting: Option<Waiting>,
    last_termination: Option<Time>,
    pending: Option<(Time, Terminate)>,
    ignored_reports: u64,
}

impl ClIngress {
    pub fn new(p: ClIngressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClIngress {
            params: p,
            waiting: None,
            last_termination: None,
            pending: None,
            ignored_reports: 0,
        })
    }
    /// Waiting for the PCN-sent-rate and/or the next report.
    pub fn measuring(&self) -> bool {
        self.waiting.is_some()
    }
    /// Reports not acted on (stale, zero ETM-rate while idle, or beyond the next one).
    pub fn ignored_reports(&self) -> u64 {
        self.ignored_reports
    }

    /// Decides once both the PCN-sent-rate (at `s_end`) and the next report are in.
    fn advance(&mut self, now: Time) {
        let Some(w) = self.waiting else { return };
        let Some((next_at, next)) = w.next else {
            return;
        };
        if now < w.s_end {
            return;
        }
        let at = w.s_end.max(next_at);
        let s = rate_bps(w.bits, self.params.send_window.as_nanos());
        self.waiting = None;
        // "If this next egress-node report also includes a non-zero value for the ETM-rate,
        // the Decision Point MUST determine the amount of PCN-traffic to terminate".
        if next.etm_bps == 0 {
            return;
        }
        let sar = next.sar_bps(); // step 1: "SAR = NM-rate + ThM-rate"
        let amount = s.saturating_sub(sar); // step 2: "PCN-sent-rate − SAR"
        if amount > 0 {
            self.pending = Some((
                at,
                Terminate {
                    rate_bps: amount,
                    sending_rate_bps: s,
                    min_report_bps: sar,
                },
            ));
            self.last_termination = Some(at);
        }
    }

    /// A report from the egress; returns whether it was acted on.
    pub fn on_report(&mut self, now: Time, r: ClReport) -> bool {
        self.advance(now);
        // Spacing (§3.3.2 RECOMMENDED; module docs): the period must have begun after the
        // last termination's effect reached the egress.
        let stale = self
            .last_termination
            .is_some_and(|t| r.period_start < t + self.params.one_way_delay);
        let acted = match &mut self.waiting {
            _ if stale => false,
            // "When the report ... includes a non-zero value of the ETM-rate ..., the Decision
            // Point MUST request the PCN-ingress-node to provide an estimate of the rate".
            None if r.etm_bps > 0 => {
                self.waiting = Some(Waiting {
                    s_end: now + self.params.send_window,
                    bits: 0,
                    next: None,
                });
                true
            }
            None => false,
            Some(w) if w.next.is_none() => {
                w.next = Some((now, r));
                true
            }
            Some(_) => false,
        };
        if !acted {
            self.ignored_reports += 1;
        }
        self.advance(now);
        acted
    }

    /// A PCN data packet sent to this aggregate's egress.
    #[inline]
    pub fn on_send(&mut self, now: Time, bits: u64) {
        self.advance(now);
        if let Some(w) = &mut self.waiting {
            if now < w.s_end {
                w.bits += bits as u128;
            }
        }
    }

    pub fn poll(&mut self, now: Time) -> Option<Terminate> {
        self.advance(now);
        self.pending.take().map(|(_, t)| t)
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match (self.pending, self.waiting) {
            (Some((t, _)), _) => Some(t),
            (None, Some(w)) if w.next.is_some() => Some(w.s_end),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NM: PcnMark = PcnMark::NotMarked;
    const THM: PcnMark = PcnMark::ThresholdMarked;
    const ETM: PcnMark = PcnMark::ExcessMarked;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }
    fn rep(nm: u64, thm: u64, etm: u64, start_ms: u64) -> ClReport {
        ClReport {
            nm_bps: nm,
            thm_bps: thm,
            etm_bps: etm,
            period_start: ms(start_ms),
        }
    }

    /// §3.2.1: rates per period by mark; a report for a period with ETM traffic and for the
    /// period after it, none otherwise.
    #[test]
    fn egress_reports_rates_by_mark_per_period() {
        let mut e = ClEgress::new(ClEgressParams::draft_defaults()).unwrap();
        e.on_packet(ms(10), 1000, NM); // period [0, 100): no ETM
        assert_eq!(e.next_wakeup(), None);
        e.on_packet(ms(150), 1000, NM); // period [100, 200)
        assert_eq!(e.poll(ms(150)), None);
        assert_eq!(e.next_wakeup(), None);
        e.on_packet(ms(160), 3000, THM);
        e.on_packet(ms(199), 500, ETM);
        assert_eq!(e.next_wakeup(), Some(ms(200)));
        assert_eq!(e.poll(ms(199)), None);
        // 1000 bit / 0.1 s = 10 kb/s etc.
        assert_eq!(e.poll(ms(200)), Some(rep(10_000, 30_000, 5_000, 100)));
        // The next period is reported even without ETM traffic (the Decision Point waits for
        // it), then nothing.
        assert_eq!(e.next_wakeup(), Some(ms(300)));
        e.on_packet(ms(250), 2000, NM);
        assert_eq!(e.poll(ms(300)), Some(rep(20_000, 0, 0, 200)));
        assert_eq!(e.next_wakeup(), None);
        e.on_packet(ms(350), 2000, NM);
        assert_eq!(e.poll(ms(1000)), None);
        assert_eq!(e.reports(), 2);
        // A packet that closes two periods at once (ETM in [1000, 1100), then one in
        // [1200, 1300)): both due reports come out in order.
        e.on_packet(ms(1000), 100, ETM);
        e.on_packet(ms(1250), 100, NM);
        assert_eq!(e.poll(ms(1250)), Some(rep(0, 0, 1_000, 1000)));
        assert_eq!(e.poll(ms(1250)), Some(rep(0, 0, 0, 1100)));
        assert_eq!(e.poll(ms(1250)), None);
    }

    /// §3.3.2: a report with ETM starts the PCN-sent-rate request; the next report with ETM
    /// gives SAR = NM + ThM and the order PCN-sent-rate − SAR.
    #[test]
    fn decision_point_terminates_sent_rate_minus_sar() {
        let mut i =
            ClIngress::new(ClIngressParams::draft_defaults(Duration::from_millis(1))).unwrap();
        // Zero ETM while idle: nothing.
        assert!(!i.on_report(ms(101), rep(1, 0, 0, 0)));
        assert!(!i.measuring());
        assert!(i.on_report(ms(201), rep(100_000, 0, 50_000, 100)));
        assert!(i.measuring());
        assert_eq!(i.next_wakeup(), None); // waiting for the next report
                                           // 1000 bits every ms in [201, 301): S = 1 Mb/s.
        for k in 0..100 {
            i.on_send(ms(201 + k), 1000);
        }
        i.on_send(ms(301), 1000); // after the window: not counted
                                  // The next report: NM 600 kb/s + ThM 100 kb/s = SAR 700 kb/s; ETM > 0.
        assert!(i.on_report(ms(301), rep(600_000, 100_000, 1, 200)));
        assert_eq!(i.next_wakeup(), Some(ms(301)));
        assert_eq!(
            i.poll(ms(301)),
            Some(Terminate {
                rate_bps: 300_000,
                sending_rate_bps: 1_000_000,
                min_report_bps: 700_000,
            })
        );
        assert!(!i.measuring());
        // Spacing: a period that began before 301 + 1 ms reflects no termination yet.
        assert!(!i.on_report(ms(401), rep(0, 0, 9, 300)));
        assert!(i.on_report(ms(501), rep(0, 0, 9, 400)));
        // A next report without ETM: no termination.
        for k in 0..100 {
            i.on_send(ms(501 + k), 1000);
        }
        assert!(i.on_report(ms(601), rep(0, 0, 0, 500)));
        assert_eq!(i.poll(ms(700)), None);
        assert!(!i.measuring());
        assert_eq!(i.ignored_reports(), 2);
    }

    /// The decision waits for the later of the sent-rate window and the next report, and
    /// only a positive difference is an order.
    #[test]
    fn decision_waits_for_both_and_skips_non_positive() {
        let mut i = ClIngress::new(ClIngressParams::draft_defaults(Duration::ZERO)).unwrap();
        assert!(i.on_report(ms(0), rep(0, 0, 1, 0)));
        for k in 0..100 {
            i.on_send(ms(k), 1000);
        }
        assert_eq!(i.poll(ms(150)), None); // window closed at 100, no next report yet
                                           // The next report arrives at 160 ms: decided at its arrival.
        assert!(i.on_report(ms(160), rep(0, 0, 1, 0)));
        assert_eq!(i.next_wakeup(), Some(ms(160)));
        let t = i.poll(ms(160)).unwrap();
        assert_eq!(t.rate_bps, 1_000_000);
        // S below SAR: no order, back to idle.
        assert!(i.on_report(ms(400), rep(0, 0, 1, 300)));
        i.on_send(ms(401), 1000);
        assert!(i.on_report(ms(450), rep(5_000_000, 0, 1, 400)));
        assert_eq!(i.poll(ms(500)), None);
        assert!(!i.measuring());
    }

    #[test]
    fn params_are_validated() {
        assert!(ClEgress::new(ClEgressParams {
            t_meas: Duration::ZERO
        })
        .is_err());
        assert!(ClIngress::new(ClIngressParams {
            send_window: Duration::ZERO,
            one_way_delay: Duration::ZERO
        })
        .is_err());
    }
}
