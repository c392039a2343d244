//! STM PCN-ingress-node flow termination, per ingress-egress aggregate:
//! draft-satoh-pcn-st-marking-02 §3.3.2 with the §10.4 values.
//!
//! On a rate report the ingress measures its sending rate S to that egress over the
//! measuring interval (§10.4: "Interval for measuring sending rate = 100 ms"), keeps the
//! minimum R_min of the receiving rates reported during it, and at its end terminates flows
//! of total rate **S − (1 − y)·min(R_min, S)** (§10.4: "Extra percentage ... for termination
//! at one time = 5.0", y = 0.05; min() because after a termination the receiving rate can
//! exceed the sending rate, §3.3.2). A cancel stops terminating and measuring at once.
//!
//! Choices the text leaves open (map §1.5, §5 item 11):
//! - Rounds run back to back ([`RoundStart::BackToBack`], default, map §5 item 11): when a
//!   round that received a report ends, the next round starts at that instant. A round that
//!   ends without a report terminates nothing and the ingress returns to idle; the next
//!   report starts a new round at its arrival time. The other reading of §3.3.2 ("As soon
//!   as a PCN-ingress-node receives a packet with information about a receiving rate ... it
//!   starts measuring"), [`RoundStart::NextReport`], returns to idle after every
//!   termination, so that each round starts at the next report's arrival (set with
//!   [`StmIngress::with_round_start`]; `StmIngressParams` is the agreed struct).
//! - S counts every bit handed to [`StmIngress::on_send`] in `[start, start + interval)`,
//!   divided by the interval, rounded down to a whole bit/s.
//! - The amount is computed in `f64` and rounded to the nearest bit/s (it is ≥ y·S ≥ 0).
//! - Which flows to terminate is the engine's choice.
//! - Calls need not come exactly at [`StmIngress::next_wakeup`]: every entry point first
//!   closes the rounds that ended at or before `now`; a due [`Terminate`] is kept until
//!   [`StmIngress::poll`] (if two became due without a poll, the later one is kept).
//!   A report or a sent packet at exactly a round's end belongs to the next round.

use super::rate_bps;
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// STM ingress settings (§10.4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StmIngressParams {
    /// Interval for measuring the sending rate (100 ms).
    pub measure_interval: Duration,
    /// y: extra fraction terminated per round (0.05).
    pub extra_fraction: f64,
}

impl StmIngressParams {
    pub fn draft_defaults() -> StmIngressParams {
        StmIngressParams {
            measure_interval: Duration::from_millis(100),
            extra_fraction: 0.05,
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
        if !(self.extra_fraction >= 0.0 && self.extra_fraction < 1.0) {
            return Err(ConfigError::out_of_range(
                "extra_fraction",
                self.extra_fraction,
                "0 <= y < 1 (extra fraction terminated per round, §3.3.2)",
            ));
        }
        Ok(())
    }
    /// §3.2.2: the egress reports "at an interval that is shorter than the measuring
    /// interval of the PCN-ingress-node".
    pub fn check_with_egress(&self, e: &super::StmEgressParams) -> Result<(), ConfigError> {
        if e.report_interval >= self.measure_interval {
            return Err(ConfigError::relation(
                "report interval < ingress measuring interval",
                "draft-satoh-pcn-st-marking-02 §3.2.2",
                format!(
                    "report_interval = {} ns, measure_interval = {} ns",
                    e.report_interval.as_nanos(),
                    self.measure_interval.as_nanos()
                ),
            ));
        }
        Ok(())
    }
}

/// When the next measuring round starts after a termination (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RoundStart {
    /// At once, at the end of the round that terminated (default).
    #[default]
    BackToBack,
    /// At the next report's arrival.
    NextReport,
}

impl RoundStart {
    pub fn name(self) -> &'static str {
        match self {
            RoundStart::BackToBack => "back-to-back",
            RoundStart::NextReport => "next-report",
        }
    }
}

/// A termination order: terminate flows of total rate `rate_bps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terminate {
    /// STM: S − (1 − y)·min(R_min, S); CL: max(0, S − SAR).
    pub rate_bps: u64,
    /// S measured over the round.
    pub sending_rate_bps: u64,
    /// STM: R_min over the round's reports; CL: the SAR acted on.
    pub min_report_bps: u64,
}

#[derive(Clone, Copy, Debug)]
struct Round {
    end: Time,
    bits: u128,
    r_min: Option<u64>,
}

/// Counters of an [`StmIngress`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StmIngressCounters {
    pub reports: u64,
    pub cancels: u64,
    pub rounds: u64,
    pub terminations: u64,
}

/// STM ingress termination state for one aggregate.
#[derive(Clone, Debug)]
pub struct StmIngress {
    params: StmIngressParams,
    round: Option<Round>,
    pending: Option<(Time, Terminate)>,
    round_start: RoundStart,
    counters: StmIngressCounters,
}

impl StmIngress {
    pub fn new(p: StmIngressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(StmIngress {
            params: p,
            round: None,
            pending: None,
            round_start: RoundStart::BackToBack,
            counters: StmIngressCounters::default(),
        })
    }
    /// [`StmIngress::new`] with the given [`RoundStart`].
    pub fn with_round_start(p: StmIngressParams, r: RoundStart) -> Result<Self, ConfigError> {
        let mut i = StmIngress::new(p)?;
        i.round_start = r;
        Ok(i)
    }
    pub fn round_start(&self) -> RoundStart {
        self.round_start
    }
    pub fn params(&self) -> &StmIngressParams {
        &self.params
    }
    pub fn counters(&self) -> &StmIngressCounters {
        &self.counters
    }
    /// True while a measuring round is open.
    pub fn measuring(&self) -> bool {
        self.round.is_some()
    }

    /// The termination amount for sending rate `s` and minimum report `r_min`.
    pub fn amount(&self, s: u64, r_min: u64) -> u64 {
        let m = r_min.min(s) as f64;
        let a = s as f64 - (1.0 - self.params.extra_fraction) * m;
        libm::round(a.max(0.0)) as u64
    }

    fn advance(&mut self, now: Time) {
        while let Some(r) = self.round {
            if now < r.end {
                break;
            }
            self.counters.rounds += 1;
            match r.r_min {
                Some(r_min) => {
                    let s = rate_bps(r.bits, self.params.measure_interval.as_nanos());
                    let term = Terminate {
                        rate_bps: self.amount(s, r_min),
                        sending_rate_bps: s,
                        min_report_bps: r_min,
                    };
                    self.counters.terminations += 1;
                    self.pending = Some((r.end, term));
                    self.round = match self.round_start {
                        RoundStart::BackToBack => Some(Round {
                            end: r.end + self.params.measure_interval,
                            bits: 0,
                            r_min: None,
                        }),
                        RoundStart::NextReport => None,
                    };
                }
                None => self.round = None, // no report in the round → idle
            }
        }
    }

    /// A PCN data packet of `bits` sent to this aggregate's egress.
    pub fn on_send(&mut self, now: Time, bits: u64) {
        self.advance(now);
        if let Some(r) = &mut self.round {
            r.bits += bits as u128;
        }
    }

    /// A receiving-rate report from the egress.
    pub fn on_report(&mut self, now: Time, rate_bps: u64) {
        self.advance(now);
        self.counters.reports += 1;
        match &mut self.round {
            Some(r) => r.r_min = Some(r.r_min.map_or(rate_bps, |m| m.min(rate_bps))),
            None => {
                self.round = Some(Round {
                    end: now + self.params.measure_interval,
                    bits: 0,
                    r_min: Some(rate_bps),
                })
            }
        }
    }

    /// A cancel from the egress: stop terminating and measuring at once.
    pub fn on_cancel(&mut self, now: Time) {
        self.advance(now);
        self.counters.cancels += 1;
        self.round = None;
    }

    /// A due termination, if any.
    pub fn poll(&mut self, now: Time) -> Option<Terminate> {
        self.advance(now);
        self.pending.take().map(|(_, t)| t)
    }

    /// When to call [`StmIngress::poll`] next.
    pub fn next_wakeup(&self) -> Option<Time> {
        match (self.pending, self.round) {
            (Some((t, _)), _) => Some(t),
            (None, Some(r)) => Some(r.end),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::StmEgressParams;
    use super::*;

    fn ingress() -> StmIngress {
        StmIngress::new(StmIngressParams::draft_defaults()).unwrap()
    }
    fn ms(x: u64) -> Time {
        Time::from_millis(x)
    }

    /// Sends 1280-bit packets every `gap_us` µs in [from, to).
    fn send(i: &mut StmIngress, from: Time, to: Time, gap_us: u64) {
        let mut t = from;
        while t < to {
            i.on_send(t, 1280);
            t += Duration::from_micros(gap_us);
        }
    }

    #[test]
    fn amount_is_s_minus_95_percent_of_min_r_s() {
        let i = ingress();
        // S = 160 Mb/s, R_min = 128 Mb/s: 160 − 0.95·128 = 38.4 Mb/s.
        assert_eq!(i.amount(160_000_000, 128_000_000), 38_400_000);
        // R_min > S (after a termination, propagation lag): min(R_min, S) = S → y·S.
        assert_eq!(i.amount(100_000_000, 120_000_000), 5_000_000);
        assert_eq!(i.amount(0, 5), 0);
    }

    #[test]
    fn one_round_with_hand_computed_s_and_r_min() {
        let mut i = ingress();
        assert_eq!(i.next_wakeup(), None);
        send(&mut i, ms(0), ms(50), 10); // idle: not counted
        i.on_report(ms(50), 100_000_000);
        assert_eq!(i.next_wakeup(), Some(ms(150)));
        // 1280 bit every 10 µs = 128 Mb/s for the whole round [50, 150) ms.
        send(&mut i, ms(50), ms(150), 10);
        i.on_report(ms(83), 90_000_000);
        i.on_report(ms(116), 95_000_000);
        assert_eq!(i.poll(ms(149)), None);
        // S = 10,000 pkts · 1280 / 0.1 s = 128 Mb/s; R_min = 90 Mb/s;
        // 128 − 0.95·90 = 42.5 Mb/s.
        assert_eq!(
            i.poll(ms(150)),
            Some(Terminate {
                rate_bps: 42_500_000,
                sending_rate_bps: 128_000_000,
                min_report_bps: 90_000_000,
            })
        );
        // Back to back: the next round runs [150, 250).
        assert!(i.measuring());
        assert_eq!(i.next_wakeup(), Some(ms(250)));
        // No report in it → idle, nothing terminated.
        send(&mut i, ms(150), ms(250), 10);
        assert_eq!(i.poll(ms(250)), None);
        assert!(!i.measuring());
        assert_eq!(i.counters().rounds, 2);
        assert_eq!(i.counters().terminations, 1);
    }

    #[test]
    fn cancel_stops_at_once() {
        let mut i = ingress();
        i.on_report(ms(0), 1_000);
        send(&mut i, ms(0), ms(60), 10);
        i.on_cancel(ms(60));
        assert!(!i.measuring());
        assert_eq!(i.next_wakeup(), None);
        assert_eq!(i.poll(ms(200)), None);
    }

    #[test]
    fn a_late_poll_still_gets_the_due_termination() {
        let mut i = ingress();
        i.on_report(ms(0), 64_000_000);
        send(&mut i, ms(0), ms(100), 10);
        // The next call is a report at 130 ms: it closes round 1 (due at 100 ms) and counts
        // in round 2.
        i.on_report(ms(130), 1);
        assert_eq!(i.next_wakeup(), Some(ms(100)));
        let t = i.poll(ms(130)).unwrap();
        assert_eq!(t.sending_rate_bps, 128_000_000);
        assert_eq!(t.rate_bps, 128_000_000 - 60_800_000);
        assert_eq!(i.next_wakeup(), Some(ms(200)));
        assert_eq!(i.poll(ms(200)).unwrap().min_report_bps, 1);
    }

    #[test]
    fn next_report_reading_waits_for_a_report_after_each_termination() {
        let mut i = StmIngress::with_round_start(
            StmIngressParams::draft_defaults(),
            RoundStart::NextReport,
        )
        .unwrap();
        i.on_report(ms(0), 100_000_000);
        send(&mut i, ms(0), ms(100), 10);
        assert_eq!(i.poll(ms(100)).unwrap().rate_bps, 128_000_000 - 95_000_000);
        assert!(!i.measuring());
        assert_eq!(i.next_wakeup(), None);
        send(&mut i, ms(100), ms(120), 10); // idle: not counted
        i.on_report(ms(120), 200_000_000);
        assert_eq!(i.next_wakeup(), Some(ms(220)));
        send(&mut i, ms(120), ms(220), 10);
        // S = 128 Mb/s < R: y·S.
        assert_eq!(i.poll(ms(220)).unwrap().rate_bps, 6_400_000);
    }

    #[test]
    fn params_are_validated() {
        let mut p = StmIngressParams::draft_defaults();
        p.extra_fraction = 1.0;
        assert!(StmIngress::new(p).is_err());
        p.extra_fraction = -0.1;
        assert!(StmIngress::new(p).is_err());
        let p = StmIngressParams::draft_defaults();
        assert!(p
            .check_with_egress(&StmEgressParams::draft_defaults())
            .is_ok());
        let mut e = StmEgressParams::draft_defaults();
        e.report_interval = Duration::from_millis(100);
        let err = p.check_with_egress(&e).unwrap_err().to_string();
        assert!(
            err.contains("report interval < ingress measuring interval"),
            "{err}"
        );
    }
}
