//! STM PCN-egress-node, per ingress-egress aggregate: draft-satoh-pcn-st-marking-02 §3.2.2
//! with the §10.4 values.
//!
//! §3.2.2: "The PCN-egress-node always measures the receiving rate per PCN-ingress-node
//! regardless of whether receiving marked packets or not. When the PCN-egress-node receives
//! L-sequential marked packets from a PCN-ingress-node, it sends a packet of information
//! about the receiving rate to the PCN-ingress-node at an interval that is shorter than the
//! measuring interval of the PCN-ingress-node. If the PCN-egress-node receives M-sequential
//! unmarked packets, it sends a packet for canceling termination to the PCN-ingress-node."
//! §10.4: L = 100, M = 20, "Interval between sending the receiving rate = 33.3 ms".
//!
//! Choices the text leaves open (map §1.4, §5 items 9–10), all knobs of [`StmEgressParams`]:
//! - Receiving rate `R` = bits received (all PCN packets, marked or not) in the sliding
//!   window `(now − rate_window, now]`, divided by `rate_window` (default 33.3 ms), rounded
//!   down to a whole bit/s. While the aggregate is younger than the window (its first
//!   packet arrived less than `rate_window` ago) the bits are divided by its age instead,
//!   so that a newly appearing aggregate is not reported at a fraction of its rate (with
//!   the full window, an aggregate starting above SR would report R ≈ age/window·S at its
//!   100th mark and the ingress would terminate most of it at once). The window keeps its
//!   packets in a ring (`VecDeque`) that grows to the largest number of packets in one
//!   window and then no longer allocates.
//! - A report goes out at once when the L-th consecutive marked packet arrives (unless a
//!   report was sent less than `report_interval` ago: then at `last + report_interval`), and
//!   then every `report_interval`, via [`StmEgress::poll`].
//! - [`ReportGating::WhileMarkedRun`] (Variant A, default): periodic reports continue only
//!   while every packet since the L-th mark was marked; one unmarked packet stops them.
//!   [`ReportGating::UntilCancel`] (Variant B): once L consecutive marks are seen, report
//!   every `report_interval` until the cancel.
//! - First report ([`FirstReport`], set with [`StmEgress::with_first_report`]; not a field
//!   of [`StmEgressParams`] so that the agreed struct stays as it is): at the L-th mark
//!   (default, the map's reading) or one report interval later. §3.2.2 says only that the
//!   egress "sends ... at an interval". Evidence for the choice (`pcn::loop_tests`): when
//!   an aggregate jumps from 0.9·AR to 1.25·SR, MkTB (Literal threshold reading) reaches
//!   its full zone within ~8 ms and the 100th mark comes ~9 ms after the jump, so a report
//!   at once carries a 33.3 ms window that is mostly pre-jump traffic (R ≈ 0.53·S in the
//!   CBR test) and the ingress terminates S − 0.95·R ≈ half the aggregate in one round
//!   (OT 37 %); one interval later the window lies wholly after the jump and each round
//!   removes ≈ y·S. (With the Deficit reading the full zone starts ~32 ms after the jump
//!   and a report at once is already ≈ right.)
//! - Cancel: sent once per alarm episode (an episode starts with the first report), when the
//!   M-th consecutive unmarked packet arrives. An M-unmarked run with no report sent before
//!   sends nothing.
//! - "Marked" means any mark (`PcnMark::is_marked`).

use std::collections::VecDeque;

use super::{rate_bps, PcnMark};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

/// When periodic reports stop (map §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReportGating {
    /// Variant A: only while the most recent ≥ L packets are all marked (default).
    #[default]
    WhileMarkedRun,
    /// Variant B: from the L-th consecutive mark until the cancel.
    UntilCancel,
}

impl ReportGating {
    pub fn name(self) -> &'static str {
        match self {
            ReportGating::WhileMarkedRun => "while-marked-run",
            ReportGating::UntilCancel => "until-cancel",
        }
    }
}

/// When the first report of a run of L marks goes out (an addition to the agreed API, set
/// with [`StmEgress::with_first_report`]; the text leaves it open, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FirstReport {
    /// At the L-th consecutive mark, with R over the trailing `rate_window` (map §1.4
    /// reading; default).
    #[default]
    AtLthMark,
    /// One `report_interval` after the L-th mark (if the run is still unbroken under
    /// Variant A), with R over the trailing `rate_window`: with the default 33.3 ms window
    /// that is exactly the interval since the L-th mark.
    OneIntervalLater,
}

impl FirstReport {
    pub fn name(self) -> &'static str {
        match self {
            FirstReport::AtLthMark => "at-lth-mark",
            FirstReport::OneIntervalLater => "one-interval-later",
        }
    }
}

/// STM egress settings (§3.2.2, §10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmEgressParams {
    /// L: consecutive marked packets before reporting (100).
    pub l_marks: u32,
    /// M: consecutive unmarked packets before cancelling (20).
    pub m_unmarked: u32,
    /// Interval between rate reports (33.3 ms).
    pub report_interval: Duration,
    /// Receiving-rate window (33.3 ms, \[G\]).
    pub rate_window: Duration,
    pub gating: ReportGating,
}

impl StmEgressParams {
    /// §10.4: L = 100, M = 20, reports every 33.3 ms; R over the last 33.3 ms; Variant A.
    pub fn draft_defaults() -> StmEgressParams {
        StmEgressParams {
            l_marks: 100,
            m_unmarked: 20,
            report_interval: Duration(33_300_000),
            rate_window: Duration(33_300_000),
            gating: ReportGating::WhileMarkedRun,
        }
    }
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.l_marks == 0 {
            return Err(ConfigError::out_of_range(
                "l_marks",
                0,
                ">= 1 (L sequential marked packets, §3.2.2)",
            ));
        }
        if self.m_unmarked == 0 {
            return Err(ConfigError::out_of_range(
                "m_unmarked",
                0,
                ">= 1 (M sequential unmarked packets, §3.2.2)",
            ));
        }
        if self.report_interval == Duration::ZERO {
            return Err(ConfigError::out_of_range("report_interval", "0 s", "> 0 s"));
        }
        if self.rate_window == Duration::ZERO {
            return Err(ConfigError::out_of_range("rate_window", "0 s", "> 0 s"));
        }
        Ok(())
    }
}

/// What the egress sends to the ingress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EgressSignal {
    /// The receiving rate R measured over `(window_start, now]`.
    Report { rate_bps: u64, window_start: Time },
    /// "a packet for canceling termination".
    Cancel,
}

/// Counters of an [`StmEgress`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StmEgressCounters {
    pub packets: u64,
    pub marked_packets: u64,
    pub reports: u64,
    pub cancels: u64,
}

/// STM egress state for one ingress-egress aggregate.
#[derive(Clone, Debug)]
pub struct StmEgress {
    params: StmEgressParams,
    run_marked: u32,
    run_unmarked: u32,
    /// A report was sent and no cancel since.
    alarm: bool,
    last_report: Option<Time>,
    next_report: Option<Time>,
    window: VecDeque<(Time, u64)>,
    window_bits: u128,
    first_seen: Option<Time>,
    first_report: FirstReport,
    counters: StmEgressCounters,
}

impl StmEgress {
    pub fn new(p: StmEgressParams) -> Result<Self, ConfigError> {
        p.validate()?;
        Ok(StmEgress {
            params: p,
            run_marked: 0,
            run_unmarked: 0,
            alarm: false,
            last_report: None,
            next_report: None,
            window: VecDeque::new(),
            window_bits: 0,
            first_seen: None,
            first_report: FirstReport::AtLthMark,
            counters: StmEgressCounters::default(),
        })
    }
    /// [`StmEgress::new`] with the first report timed by `first`.
    pub fn with_first_report(p: StmEgressParams, first: FirstReport) -> Result<Self, ConfigError> {
        let mut e = StmEgress::new(p)?;
        e.first_report = first;
        Ok(e)
    }
    pub fn params(&self) -> &StmEgressParams {
        &self.params
    }
    pub fn first_report(&self) -> FirstReport {
        self.first_report
    }
    pub fn counters(&self) -> &StmEgressCounters {
        &self.counters
    }
    /// True between the first report of an episode and its cancel.
    pub fn alarm(&self) -> bool {
        self.alarm
    }

    fn evict(&mut self, now: Time) {
        let w = self.params.rate_window.as_nanos();
        while let Some(&(t, b)) = self.window.front() {
            // keep t > now − W
            if now.as_nanos().saturating_sub(t.as_nanos()) >= w {
                self.window.pop_front();
                self.window_bits -= b as u128;
            } else {
                break;
            }
        }
    }

    /// The receiving rate over `(now − rate_window, now]`, bit/s (rounded down); over the
    /// aggregate's age instead while it is younger than the window (module docs).
    pub fn receiving_rate(&mut self, now: Time) -> u64 {
        self.evict(now);
        let w = self.params.rate_window.as_nanos();
        let age = self
            .first_seen
            .map_or(0, |t| now.as_nanos().saturating_sub(t.as_nanos()));
        let span = if age > 0 && age < w { age } else { w };
        rate_bps(self.window_bits, span)
    }

    fn report(&mut self, now: Time) -> EgressSignal {
        let rate_bps = self.receiving_rate(now);
        self.alarm = true;
        self.last_report = Some(now);
        self.next_report = Some(now + self.params.report_interval);
        self.counters.reports += 1;
        EgressSignal::Report {
            rate_bps,
            window_start: Time(
                now.as_nanos()
                    .saturating_sub(self.params.rate_window.as_nanos()),
            ),
        }
    }

    /// One PCN packet from this aggregate's ingress.
    pub fn on_packet(&mut self, now: Time, bits: u64, mark: PcnMark) -> Option<EgressSignal> {
        self.counters.packets += 1;
        self.first_seen.get_or_insert(now);
        self.window.push_back((now, bits));
        self.window_bits += bits as u128;
        self.evict(now);
        if mark.is_marked() {
            self.counters.marked_packets += 1;
            self.run_marked = self.run_marked.saturating_add(1);
            self.run_unmarked = 0;
            let start = match self.params.gating {
                // Each new run of L marks may (re)start the reports.
                ReportGating::WhileMarkedRun => self.run_marked == self.params.l_marks,
                ReportGating::UntilCancel => {
                    !self.alarm
                        && self.next_report.is_none()
                        && self.run_marked >= self.params.l_marks
                }
            };
            if start {
                let earliest = match self.first_report {
                    FirstReport::AtLthMark => now,
                    FirstReport::OneIntervalLater => now + self.params.report_interval,
                };
                match self.last_report {
                    Some(t) if earliest < t + self.params.report_interval => {
                        // at most one report per interval
                        self.next_report = Some(t + self.params.report_interval);
                    }
                    _ if earliest > now => self.next_report = Some(earliest),
                    _ => return Some(self.report(now)),
                }
            }
            None
        } else {
            self.run_unmarked = self.run_unmarked.saturating_add(1);
            self.run_marked = 0;
            if self.params.gating == ReportGating::WhileMarkedRun {
                self.next_report = None;
            }
            if self.alarm && self.run_unmarked == self.params.m_unmarked {
                self.alarm = false;
                self.next_report = None;
                self.counters.cancels += 1;
                return Some(EgressSignal::Cancel);
            }
            None
        }
    }

    /// A due periodic report, if any (call at [`StmEgress::next_wakeup`]).
    pub fn poll(&mut self, now: Time) -> Option<EgressSignal> {
        match self.next_report {
            Some(t) if now >= t => Some(self.report(now)),
            _ => None,
        }
    }

    /// The next periodic report deadline.
    pub fn next_wakeup(&self) -> Option<Time> {
        self.next_report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NM: PcnMark = PcnMark::NotMarked;
    const TM: PcnMark = PcnMark::ThresholdMarked;

    fn egress(gating: ReportGating) -> StmEgress {
        StmEgress::new(StmEgressParams {
            gating,
            ..StmEgressParams::draft_defaults()
        })
        .unwrap()
    }

    /// Packets of 1280 bits every 100 µs = 12.8 Mb/s.
    fn t(i: u64) -> Time {
        Time::from_micros(100 * i)
    }

    #[test]
    fn report_after_exactly_l_marks_not_after_l_minus_1() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        for i in 0..99 {
            assert_eq!(e.on_packet(t(i), 1280, TM), None, "packet {i}");
        }
        assert_eq!(e.next_wakeup(), None);
        // The 100th: a report. The aggregate is 9.9 ms old (< 33.3 ms), so R is over its
        // age: 100 packets = 128,000 bit / 0.0099 s = 12,929,292 bit/s (rounded down); over
        // the whole window it would be 3,843,843 bit/s.
        let s = e.on_packet(t(99), 1280, TM).unwrap();
        assert_eq!(
            s,
            EgressSignal::Report {
                rate_bps: 12_929_292,
                window_start: Time(0),
            }
        );
        assert_eq!(e.next_wakeup(), Some(t(99) + Duration(33_300_000)));
    }

    #[test]
    fn an_unmarked_packet_resets_the_run() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        for i in 0..99 {
            e.on_packet(t(i), 1280, TM);
        }
        assert_eq!(e.on_packet(t(99), 1280, NM), None);
        for i in 100..199 {
            assert_eq!(e.on_packet(t(i), 1280, TM), None);
        }
        assert!(matches!(
            e.on_packet(t(199), 1280, TM),
            Some(EgressSignal::Report { .. })
        ));
    }

    #[test]
    fn reports_repeat_every_interval_and_rate_is_the_window() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        let mut reports = Vec::new();
        // 1 s of marked packets every 100 µs, polling at each wake-up before the packet.
        for i in 0..10_000 {
            let now = t(i);
            while let Some(w) = e.next_wakeup() {
                if w > now {
                    break;
                }
                if let Some(s) = e.poll(w) {
                    reports.push((w, s));
                }
            }
            if let Some(s) = e.on_packet(now, 1280, TM) {
                reports.push((now, s));
            }
        }
        let times: Vec<u64> = reports.iter().map(|r| r.0.as_nanos()).collect();
        assert_eq!(times[0], 9_900_000);
        for w in times.windows(2) {
            assert_eq!(w[1] - w[0], 33_300_000);
        }
        assert_eq!(
            times.len(),
            1 + (1_000_000_000 - 100_000 - 9_900_000) / 33_300_000
        );
        // Polled before the packet of the same instant: the window (now − 33.3 ms, now)
        // holds 332 packets: 332·1280 bit / 0.0333 s = 12,761,561.56 → 12,761,561 bit/s.
        match reports[3].1 {
            EgressSignal::Report { rate_bps, .. } => assert_eq!(rate_bps, 12_761_561),
            _ => panic!("not a report"),
        }
        assert_eq!(e.counters().reports as usize, reports.len());
    }

    #[test]
    fn cancel_after_exactly_m_unmarked_once_per_episode() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        for i in 0..100 {
            e.on_packet(t(i), 1280, TM);
        }
        assert!(e.alarm());
        for i in 100..119 {
            assert_eq!(e.on_packet(t(i), 1280, NM), None, "unmarked {}", i - 99);
        }
        // Variant A: the first unmarked packet stopped the periodic reports.
        assert_eq!(e.next_wakeup(), None);
        assert_eq!(e.on_packet(t(119), 1280, NM), Some(EgressSignal::Cancel));
        assert!(!e.alarm());
        // No second cancel.
        for i in 120..200 {
            assert_eq!(e.on_packet(t(i), 1280, NM), None);
        }
        assert_eq!(e.counters().cancels, 1);
    }

    #[test]
    fn no_cancel_without_a_report() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        for i in 0..50 {
            e.on_packet(t(i), 1280, TM);
        }
        for i in 50..100 {
            assert_eq!(e.on_packet(t(i), 1280, NM), None);
        }
    }

    #[test]
    fn variant_b_keeps_reporting_through_unmarked_packets_until_cancel() {
        let mut e = egress(ReportGating::UntilCancel);
        for i in 0..100 {
            e.on_packet(t(i), 1280, TM);
        }
        // Alternate marked/unmarked: never 20 unmarked in a row.
        for i in 100..1000 {
            e.on_packet(t(i), 1280, if i % 2 == 0 { NM } else { TM });
        }
        let due = e.next_wakeup().unwrap();
        assert!(due <= t(1000));
        assert!(matches!(e.poll(due), Some(EgressSignal::Report { .. })));
        // With Variant A the first unmarked packet would have stopped them.
        let mut a = egress(ReportGating::WhileMarkedRun);
        for i in 0..100 {
            a.on_packet(t(i), 1280, TM);
        }
        a.on_packet(t(100), 1280, NM);
        assert_eq!(a.next_wakeup(), None);
        // Variant B stops at the cancel.
        for i in 1000..1020 {
            e.on_packet(t(i), 1280, NM);
        }
        assert_eq!(e.counters().cancels, 1);
        assert_eq!(e.next_wakeup(), None);
    }

    #[test]
    fn a_new_run_within_the_interval_waits_for_it() {
        let mut e = egress(ReportGating::WhileMarkedRun);
        for i in 0..100 {
            e.on_packet(t(i), 1280, TM);
        }
        e.on_packet(t(100), 1280, NM);
        for i in 101..200 {
            e.on_packet(t(i), 1280, TM);
        }
        // 100 new marks reached at t(200) = 20 ms < 9.9 ms + 33.3 ms: scheduled, not sent.
        assert_eq!(e.on_packet(t(200), 1280, TM), None);
        assert_eq!(e.next_wakeup(), Some(t(99) + Duration(33_300_000)));
    }

    #[test]
    fn first_report_one_interval_later() {
        let mut e = StmEgress::with_first_report(
            StmEgressParams::draft_defaults(),
            FirstReport::OneIntervalLater,
        )
        .unwrap();
        for i in 0..100 {
            assert_eq!(e.on_packet(t(i), 1280, TM), None);
        }
        // Scheduled at the 100th mark (9.9 ms) + 33.3 ms = 43.2 ms.
        assert_eq!(e.next_wakeup(), Some(t(432)));
        for i in 100..432 {
            e.on_packet(t(i), 1280, TM);
        }
        // R over (9.9 ms, 43.2 ms): the 332 packets after the 100th mark.
        match e.poll(t(432)) {
            Some(EgressSignal::Report {
                rate_bps,
                window_start,
            }) => {
                assert_eq!(window_start, t(99));
                assert_eq!(rate_bps, 332 * 1280 * 1_000_000_000 / 33_300_000);
            }
            other => panic!("{other:?}"),
        }
        // Variant A: an unmarked packet before the first report cancels it.
        let mut e = StmEgress::with_first_report(
            StmEgressParams::draft_defaults(),
            FirstReport::OneIntervalLater,
        )
        .unwrap();
        for i in 0..100 {
            e.on_packet(t(i), 1280, TM);
        }
        e.on_packet(t(100), 1280, NM);
        assert_eq!(e.next_wakeup(), None);
        assert_eq!(e.counters().reports, 0);
    }

    #[test]
    fn params_are_validated() {
        let mut p = StmEgressParams::draft_defaults();
        p.l_marks = 0;
        assert!(StmEgress::new(p).is_err());
        let mut p = StmEgressParams::draft_defaults();
        p.m_unmarked = 0;
        assert!(StmEgress::new(p).is_err());
        let mut p = StmEgressParams::draft_defaults();
        p.report_interval = Duration::ZERO;
        assert!(StmEgress::new(p).is_err());
    }
}
