//! CL edge behaviour for flow termination (the comparison scheme of
//! draft-satoh-pcn-st-marking-02; timing constrained by §10.3 "200 ms for CL" and §12 "The
//! CL needs time for measuring SAR and the sending rate"; algorithm from the CL references,
//! map §1.7 \[X/G\]).
//!
//! - **Egress** ([`ClEgress`]): per ingress, the *sustainable aggregate rate* (SAR) = the
//!   rate of the packets that are not PM-marked. A SAR window of `sar_window` (100 ms \[G\])
//!   opens when a PM packet arrives while no window is open; at its end the egress sends
//!   [`SarReport`] (SAR, window start). If a PM packet was seen in the window (the opening
//!   one counts), the next window opens back to back; otherwise the egress goes idle.
//! - **Ingress** ([`ClIngress`]): on a SAR report while idle, it measures its sending rate S
//!   over the next `measure_interval` (100 ms \[G\]), then orders
//!   [`Terminate`]`{ rate_bps: max(0, S − SAR) }` in one step. Reports that arrive while it
//!   measures are ignored. Hold-off: a report whose window began before
//!   `last termination + one_way_delay` is stale (the window saw traffic from before the
//!   termination took effect at the egress) and is ignored.
//!
//! Rates are bits in the window × 10⁹ / window ns, rounded down. As in
//! [`super::stm_ingress`], every entry point first closes what ended at or before `now`;
//! the engine calls `poll(now)` at `next_wakeup()`.

use super::{PcnMark, Terminate, NS_PER_S};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// CL egress settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClEgressParams {
    /// SAR measuring window (100 ms \[G\]).
    pub sar_window: Duration,
}

impl ClEgressParams {
    pub fn draft_defaults() -> ClEgressParams {
        ClEgressParams {
            sar_window: Duration::from_millis(100),
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.sar_window == Duration::ZERO {
            return Err(ConfigError::out_of_range("sar_window", "0 s", "> 0 s"));
        }
        Ok(())
    }
}

/// A SAR report from the egress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SarReport {
    pub sar_bps: u64,
    pub window_start: Time,
}

#[derive(Clone, Copy, Debug)]
struct Window {
    start: Time,
    end: Time,
    bits: u128,
    saw_pm: bool,
}

/// CL egress termination state for one aggregate.
#[derive(Clone, Debug)]
pub struct ClEgress {
    params: ClEgressParams,
    window: Option<Window>,
    pending: Option<(Time, SarReport)>,
    reports: u64,
}

impl ClEgress {
    pub fn new(p: ClEgressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClEgress {
            params: p,
            window: None,
            pending: None,
            reports: 0,
        })
    }
    pub fn reports(&self) -> u64 {
        self.reports
    }

    fn advance(&mut self, now: Time) {
        while let Some(w) = self.window {
            if now < w.end {
                break;
            }
            let t = self.params.sar_window.as_nanos() as u128;
            let sar = (w.bits * NS_PER_S / t).min(u64::MAX as u128) as u64;
            self.pending = Some((
                w.end,
                SarReport {
                    sar_bps: sar,
                    window_start: w.start,
                },
            ));
            self.reports += 1;
            self.window = if w.saw_pm {
                Some(Window {
                    start: w.end,
                    end: w.end + self.params.sar_window,
                    bits: 0,
                    saw_pm: false,
                })
            } else {
                None
            };
        }
    }

    /// One PCN packet from this aggregate's ingress.
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) {
        self.advance(now);
        let pm = mark == PcnMark::ExcessMarked;
        match &mut self.window {
            Some(w) => {
                if pm {
                    w.saw_pm = true;
                } else {
                    w.bits += bits as u128;
                }
            }
            None if pm => {
                self.window = Some(Window {
                    start: now,
                    end: now + self.params.sar_window,
                    bits: 0,
                    saw_pm: true,
                })
            }
            None => {}
        }
    }

    pub fn poll(&mut self, now: Time) -> Option<SarReport> {
        self.advance(now);
        self.pending.take().map(|(_, r)| r)
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match (self.pending, self.window) {
            (Some((t, _)), _) => Some(t),
            (None, Some(w)) => Some(w.end),
            (None, None) => None,
        }
    }
}

/// CL ingress settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClIngressParams {
    /// Sending-rate measuring interval (100 ms \[G\]).
    pub measure_interval: Duration,
    /// One-way egress→ingress delay for the hold-off rule.
    pub one_way_delay: Duration,
}

impl ClIngressParams {
    pub fn draft_defaults(one_way_delay: Duration) -> ClIngressParams {
        ClIngressParams {
            measure_interval: Duration::from_millis(100),
            one_way_delay,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.measure_interval == Duration::ZERO {
            return Err(ConfigError::out_of_range(
                "measure_interval",
                "0 s",
                "> 0 s",
            ));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug)]
struct Measure {
    end: Time,
    bits: u128,
    sar: u64,
}

/// CL ingress termination state for one aggregate.
#[derive(Clone, Debug)]
pub struct ClIngress {
    params: ClIngressParams,
    measure: Option<Measure>,
    last_termination: Option<Time>,
    pending: Option<(Time, Terminate)>,
    ignored_reports: u64,
}

impl ClIngress {
    pub fn new(p: ClIngressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(ClIngress {
            params: p,
            measure: None,
            last_termination: None,
            pending: None,
            ignored_reports: 0,
        })
    }
    pub fn measuring(&self) -> bool {
        self.measure.is_some()
    }
    /// Reports ignored (stale or while measuring).
    pub fn ignored_reports(&self) -> u64 {
        self.ignored_reports
    }

    fn advance(&mut self, now: Time) {
        if let Some(m) = self.measure {
            if now >= m.end {
                let t = self.params.measure_interval.as_nanos() as u128;
                let s = (m.bits * NS_PER_S / t).min(u64::MAX as u128) as u64;
                self.pending = Some((
                    m.end,
                    Terminate {
                        rate_bps: s.saturating_sub(m.sar),
                        sending_rate_bps: s,
                        min_report_bps: m.sar,
                    },
                ));
                self.last_termination = Some(m.end);
                self.measure = None;
            }
        }
    }

    /// A SAR report; returns whether it was acted on.
    pub fn on_report(&mut self, now: Time, r: SarReport) -> bool {
        self.advance(now);
        let stale = self
            .last_termination
            .is_some_and(|t| r.window_start < t + self.params.one_way_delay);
        if stale || self.measure.is_some() {
            self.ignored_reports += 1;
            return false;
        }
        self.measure = Some(Measure {
            end: now + self.params.measure_interval,
            bits: 0,
            sar: r.sar_bps,
        });
        true
    }

    /// A PCN data packet sent to this aggregate's egress.
    pub fn on_send(&mut self, now: Time, bits: u64) {
        self.advance(now);
        if let Some(m) = &mut self.measure {
            m.bits += bits as u128;
        }
    }

    pub fn poll(&mut self, now: Time) -> Option<Terminate> {
        self.advance(now);
        self.pending.take().map(|(_, t)| t)
    }
    pub fn next_wakeup(&self) -> Option<Time> {
        match (self.pending, self.measure) {
            (Some((t, _)), _) => Some(t),
            (None, Some(m)) => Some(m.end),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NM: PcnMark = PcnMark::NotMarked;
    const PM: PcnMark = PcnMark::ExcessMarked;

    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    #[test]
    fn egress_window_opens_on_pm_and_reports_non_pm_rate() {
        let mut e = ClEgress::new(ClEgressParams::draft_defaults()).unwrap();
        e.on_packet(ms(0), 1000, NM); // no window yet
        assert_eq!(e.next_wakeup(), None);
        e.on_packet(ms(10), 1000, PM); // opens [10, 110)
        assert_eq!(e.next_wakeup(), Some(ms(110)));
        // 100 unmarked packets of 1000 bits and 50 PM packets inside the window.
        for k in 0..100 {
            e.on_packet(ms(10) + Duration::from_micros(500 * k + 1), 1000, NM);
        }
        for k in 0..50 {
            e.on_packet(ms(60) + Duration::from_micros(k), 1000, PM);
        }
        assert_eq!(e.poll(ms(109)), None);
        // SAR = 100·1000 bit / 0.1 s = 1 Mb/s.
        assert_eq!(
            e.poll(ms(110)),
            Some(SarReport {
                sar_bps: 1_000_000,
                window_start: ms(10),
            })
        );
        // PM seen → back-to-back window [110, 210); no PM in it → report, then idle.
        e.on_packet(ms(150), 2000, NM);
        assert_eq!(
            e.poll(ms(210)),
            Some(SarReport {
                sar_bps: 20_000,
                window_start: ms(110),
            })
        );
        assert_eq!(e.next_wakeup(), None);
        assert_eq!(e.reports(), 2);
    }

    #[test]
    fn ingress_terminates_s_minus_sar_with_hold_off() {
        let mut i =
            ClIngress::new(ClIngressParams::draft_defaults(Duration::from_millis(1))).unwrap();
        let r1 = SarReport {
            sar_bps: 100_000,
            window_start: ms(0),
        };
        assert!(i.on_report(ms(101), r1));
        assert!(!i.on_report(ms(120), r1)); // while measuring: ignored
                                            // 1000 bits every ms in [101, 201): S = 100·1000/0.1 = 1 Mb/s.
        for k in 0..100 {
            i.on_send(ms(101 + k), 1000);
        }
        let t = i.poll(ms(201)).unwrap();
        assert_eq!(
            t,
            Terminate {
                rate_bps: 900_000,
                sending_rate_bps: 1_000_000,
                min_report_bps: 100_000,
            }
        );
        // Hold-off: a window that began before 201 + 1 ms is stale.
        let stale = SarReport {
            sar_bps: 1,
            window_start: ms(201),
        };
        assert!(!i.on_report(ms(250), stale));
        let fresh = SarReport {
            sar_bps: 2_000_000,
            window_start: ms(202),
        };
        assert!(i.on_report(ms(303), fresh));
        for k in 0..100 {
            i.on_send(ms(303 + k), 1000);
        }
        // S (1 Mb/s) < SAR: nothing to terminate.
        assert_eq!(i.poll(ms(403)).unwrap().rate_bps, 0);
        assert_eq!(i.ignored_reports(), 2);
    }

    #[test]
    fn params_are_validated() {
        assert!(ClEgress::new(ClEgressParams {
            sar_window: Duration::ZERO
        })
        .is_err());
        assert!(ClIngress::new(ClIngressParams {
            measure_interval: Duration::ZERO,
            one_way_delay: Duration::ZERO
        })
        .is_err());
    }
}
