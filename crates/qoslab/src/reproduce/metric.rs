//! How a table cell is extracted from one run's [`RunResult`].
//!
//! Rates are in Mb/s (10⁶ bit/s), or Kb/s where the variant says so, over the measurement
//! window [warmup, end); queue lengths in packets as seen by arriving packets (the
//! simulator's `length` summary), probabilities as fractions. A metric that cannot be computed (a link or flow missing from the results)
//! gives `None`, printed as "n/a" — never a made-up number.

use qoslab_algo::Color;
use qoslab_sim::result::{QueueResult, RunResult};

/// A set of flows, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowSel {
    All,
    /// Flows whose name starts with this prefix (e.g. "C1/" for the hosts of LAN C1).
    Prefix(String),
    /// Flows with one of these names (e.g. "w1".."w10", the workstations of one LAN).
    Names(Vec<String>),
    /// The instances of one flow group: names that are the group's name followed by an
    /// instance number, with or without an underscore ("tcp" selects "tcp1".."tcp10",
    /// "tcp14" selects "tcp14_1".., not "tcp1460_1"). The group of a name is the name
    /// without its trailing `_?[0-9]+`, as `scenarios/rfc4828/summarize.py` groups flows.
    Group(String),
}

impl FlowSel {
    pub fn matches(&self, name: &str) -> bool {
        match self {
            FlowSel::All => true,
            FlowSel::Prefix(p) => name.starts_with(p.as_str()),
            FlowSel::Names(names) => names.iter().any(|n| n == name),
            FlowSel::Group(g) => group_of(name) == g,
        }
    }
}

/// `name` without its trailing instance number `_?[0-9]+` (the whole name if none).
pub fn group_of(name: &str) -> &str {
    let t = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if t.len() == name.len() {
        return name;
    }
    t.strip_suffix('_').unwrap_or(t)
}

/// A per-flow quantity of [`Metric::FlowMean`] and [`Metric::FlowMedian`] (rates in Kb/s).
///
/// The TFRC oscillation figures (RFC 4828 App. C; defined in
/// `qoslab_sim::stats::TfrcOscillation`) exist only for TFRC flows with at least one
/// feedback in the measurement window (the roughness: at least one pair of consecutive
/// feedbacks with p > 0); other flows have none and are left out of the mean or median.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowStat {
    /// Every byte the source put on the wire (headers and retransmissions included), Kb/s.
    SendRate,
    /// Payload bytes sent (headers excluded, retransmissions included), Kb/s.
    SendPayload,
    /// Unique application bytes delivered in order, Kb/s.
    Goodput,
    /// Mean loss event rate p over the feedbacks (a TFRC flow's view of its losses).
    PMean,
    /// Coefficient of variation (std / mean) of the loss event rate p over the feedbacks.
    PCov,
    /// The same, each p weighted by how long the sender held it.
    PTimeCov,
    /// Mean |ln(p_k / p_(k-1))| over consecutive feedbacks with p > 0.
    PRoughness,
    /// Coefficient of variation of the allowed rate X over the feedbacks.
    XCov,
    /// Mean, and 99th percentile, of the flow's one-way delay, ms (`measure::delay`).
    DelayMeanMs,
    DelayP99Ms,
    /// The flow's RFC 3550 interarrival jitter at the end of the window, ms.
    JitterMs,
}

impl FlowStat {
    /// The flow's value, None when it has none (see above).
    fn of(self, f: &qoslab_sim::result::FlowResult) -> Option<f64> {
        let osc = || f.tfrc.as_ref().filter(|o| o.samples > 0);
        match self {
            FlowStat::SendRate => Some(f.send_rate_bps / 1e3),
            FlowStat::SendPayload => Some(f.send_payload_bps / 1e3),
            FlowStat::Goodput => Some(f.goodput_bps / 1e3),
            FlowStat::PMean => osc().map(|o| o.p_mean),
            FlowStat::PCov => osc().map(|o| o.p_cov),
            FlowStat::PTimeCov => osc().map(|o| o.p_time_cov),
            FlowStat::PRoughness => osc().filter(|o| o.p_pairs > 0).map(|o| o.p_roughness),
            FlowStat::XCov => osc().map(|o| o.x_cov),
            FlowStat::DelayMeanMs => delayed(f).map(|d| d.one_way.mean_ns * 1e-6),
            FlowStat::DelayP99Ms => delayed(f).map(|d| d.one_way.p99_ns as f64 * 1e-6),
            FlowStat::JitterMs => delayed(f).map(|d| d.jitter_rfc3550_ns * 1e-6),
        }
    }
}

/// What a cell shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Metric {
    /// Bits per second that left `link`'s queue onto the wire (every packet, headers
    /// included), in Mb/s.
    LinkThroughputMbps(String),
    /// Unique application bytes delivered in order (goodput), summed over the flows, in Mb/s.
    GoodputMbps(FlowSel),
    /// Data bytes (on the wire, retransmissions included) delivered to the receivers,
    /// summed over the flows, of one colour (as marked at the ingress) or all, in Mb/s.
    DeliveredMbps(FlowSel, Option<Color>),
    /// Mean queue length seen by arrivals (packets).
    QueueMean(String),
    /// Its standard deviation.
    QueueStd(String),
    /// Fraction of arrivals that found the queue empty.
    QueueEmpty(String),
    /// 90th and 99th percentiles of the queue length seen by arrivals.
    QueueP90(String),
    QueueP99(String),
    /// Mean sojourn time (waiting before transmission) of the packets that left the queue,
    /// of one colour or all, ms.
    SojournMeanMs(String, Option<Color>),
    /// 99th percentile of the sojourn time of all packets, ms.
    SojournP99Ms(String),
    /// Mean over the selected flows of a per-flow quantity (1 kb/s = 1000 bit/s).
    FlowMean(FlowSel, FlowStat),
    /// Median over the selected flows (the mean of the two middle values for an even count).
    FlowMedian(FlowSel, FlowStat),
    /// Data packets dropped / data packets sent, pooled over the selected flows (None when
    /// they sent nothing).
    PooledDropRate(FlowSel),
    /// One metric divided by another (None when the divisor is 0).
    Ratio(Box<Metric>, Box<Metric>),
    /// The largest of several metrics (those that can be computed).
    Max(Vec<Metric>),
    /// The label of the largest of several (label, metric) pairs, e.g. the segment size
    /// that gives the largest send rate.
    ArgMax(Vec<(f64, Metric)>),
    /// A value computed from the source's equations, not from a run (RFC 4828 Tables 1-4):
    /// a row whose cells are all computed needs no simulation.
    Computed(f64),
}

impl Metric {
    /// The link the metric reads, if any.
    pub fn link(&self) -> Option<&str> {
        match self {
            Metric::LinkThroughputMbps(l)
            | Metric::QueueMean(l)
            | Metric::QueueStd(l)
            | Metric::QueueEmpty(l)
            | Metric::QueueP90(l)
            | Metric::QueueP99(l)
            | Metric::SojournMeanMs(l, _)
            | Metric::SojournP99Ms(l) => Some(l),
            Metric::GoodputMbps(_)
            | Metric::DeliveredMbps(..)
            | Metric::FlowMean(..)
            | Metric::FlowMedian(..)
            | Metric::PooledDropRate(_)
            | Metric::Ratio(..)
            | Metric::Max(_)
            | Metric::ArgMax(_)
            | Metric::Computed(_) => None,
        }
    }

    /// The value of a computed cell (no run needed).
    pub fn computed(&self) -> Option<f64> {
        match self {
            Metric::Computed(v) => Some(*v),
            _ => None,
        }
    }

    pub fn extract(&self, r: &RunResult) -> Option<f64> {
        let queue = |l: &str| -> Option<&QueueResult> { r.queues.iter().find(|q| q.link == l) };
        let mbps = |bytes: u64| bytes as f64 * 8.0 / r.measured_s / 1e6;
        match self {
            Metric::LinkThroughputMbps(l) => queue(l).map(|q| q.throughput_bps / 1e6),
            Metric::QueueMean(l) => queue(l).map(|q| q.length.mean),
            Metric::QueueStd(l) => queue(l).map(|q| q.length.std),
            Metric::QueueEmpty(l) => queue(l).map(|q| q.length.p_empty),
            Metric::QueueP90(l) => queue(l).map(|q| q.length.p90 as f64),
            Metric::QueueP99(l) => queue(l).map(|q| q.length.p99 as f64),
            Metric::SojournMeanMs(l, c) => queue(l).and_then(|q| {
                let s = &q.sojourn;
                let d = match c {
                    None => &s.all,
                    Some(Color::Green) => &s.green,
                    Some(Color::Yellow) => &s.yellow,
                    Some(Color::Red) => &s.red,
                };
                (d.samples > 0).then_some(d.mean_ns * 1e-6)
            }),
            Metric::SojournP99Ms(l) => queue(l).map(|q| q.sojourn.all.p99_ns as f64 * 1e-6),
            Metric::GoodputMbps(sel) => {
                let mut any = false;
                let mut bps = 0.0;
                for f in r.flows.iter().filter(|f| sel.matches(&f.name)) {
                    any = true;
                    bps += f.goodput_bps;
                }
                any.then_some(bps / 1e6)
            }
            Metric::DeliveredMbps(sel, colour) => {
                let mut any = false;
                let mut bytes = 0u64;
                for f in r.flows.iter().filter(|f| sel.matches(&f.name)) {
                    any = true;
                    let d = &f.measured.delivered_by_color;
                    bytes += match colour {
                        Some(c) => d[c.index()],
                        None => d.iter().sum(),
                    };
                }
                any.then(|| mbps(bytes))
            }
            Metric::FlowMean(sel, stat) => {
                let v = flow_values(r, sel, *stat);
                (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
            }
            Metric::FlowMedian(sel, stat) => {
                let mut v = flow_values(r, sel, *stat);
                v.sort_by(f64::total_cmp);
                let n = v.len();
                match n {
                    0 => None,
                    _ if n % 2 == 1 => Some(v[n / 2]),
                    _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
                }
            }
            Metric::PooledDropRate(sel) => {
                let (mut sent, mut dropped) = (0u64, 0u64);
                for f in r.flows.iter().filter(|f| sel.matches(&f.name)) {
                    sent += f.measured.data_pkts;
                    dropped += f.measured.data_dropped;
                }
                (sent > 0).then(|| dropped as f64 / sent as f64)
            }
            Metric::Ratio(a, b) => {
                let (a, b) = (a.extract(r)?, b.extract(r)?);
                (b != 0.0).then(|| a / b)
            }
            Metric::Max(ms) => ms
                .iter()
                .filter_map(|m| m.extract(r))
                .max_by(f64::total_cmp),
            // The first of equal maxima (as Python's `max`, used by scenarios/rfc4828/results.py).
            Metric::ArgMax(ms) => ms
                .iter()
                .filter_map(|(label, m)| Some((*label, m.extract(r)?)))
                .fold(None, |best: Option<(f64, f64)>, (l, v)| match best {
                    Some((_, b)) if b >= v => best,
                    _ => Some((l, v)),
                })
                .map(|(label, _)| label),
            Metric::Computed(v) => Some(*v),
        }
    }
}

/// A flow's delay figures, if it delivered data packets in the window.
fn delayed(
    f: &qoslab_sim::result::FlowResult,
) -> Option<&qoslab_sim::measure::delay::FlowDelaySummary> {
    Some(&f.delay).filter(|d| d.one_way.samples > 0)
}

/// The quantity `stat` of every selected flow that has it, in result order.
fn flow_values(r: &RunResult, sel: &FlowSel, stat: FlowStat) -> Vec<f64> {
    r.flows
        .iter()
        .filter(|f| sel.matches(&f.name))
        .filter_map(|f| stat.of(f))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use qoslab_sim::result::{Aggregate, FlowResult};
    use qoslab_sim::stats::{FlowCounters, TfrcOscillationSummary};

    fn flow(name: &str, tfrc: Option<TfrcOscillationSummary>) -> FlowResult {
        FlowResult {
            name: name.into(),
            kind: "tfrc-sp".into(),
            src: "A".into(),
            dst: "B".into(),
            goodput_bps: 0.0,
            send_rate_bps: 1000.0,
            send_payload_bps: 0.0,
            drop_rate: 0.0,
            measured: FlowCounters::default(),
            total: FlowCounters::default(),
            tfrc,
            delay: Default::default(),
        }
    }

    fn osc(samples: u64, p_cov: f64, p_roughness: f64, p_pairs: u64) -> TfrcOscillationSummary {
        TfrcOscillationSummary {
            samples,
            p_mean: 0.1,
            p_cov,
            p_roughness,
            p_pairs,
            x_cov: 2.0 * p_cov,
            ..TfrcOscillationSummary::default()
        }
    }

    #[test]
    fn tfrc_oscillation_means_skip_flows_without_figures() {
        let r = RunResult {
            scenario: "t".into(),
            seed: 1,
            duration_s: 2.0,
            warmup_s: 1.0,
            measured_s: 1.0,
            events: 0,
            flows: vec![
                flow("sp1", Some(osc(10, 0.2, 0.05, 9))),
                flow("sp2", Some(osc(10, 0.4, 0.0, 0))), // no pair with p > 0
                flow("sp3", Some(osc(0, 0.0, 0.0, 0))),  // no feedback in the window
                flow("sp4", None),                       // not TFRC
                flow("tcp1", Some(osc(5, 9.0, 9.0, 4))), // another group
            ],
            queues: vec![],
            conditioners: vec![],
            webs: vec![],
            aggregate: Aggregate {
                goodput_bps: 0.0,
                jain_index: 1.0,
            },
        };
        let sp = || FlowSel::Group("sp".into());
        let m = |st| Metric::FlowMean(sp(), st).extract(&r);
        // CoV of p: sp1 and sp2 only, (0.2 + 0.4) / 2
        assert!((m(FlowStat::PCov).unwrap() - 0.3).abs() < 1e-12);
        assert!((m(FlowStat::XCov).unwrap() - 0.6).abs() < 1e-12);
        assert!((m(FlowStat::PMean).unwrap() - 0.1).abs() < 1e-12);
        // roughness: sp1 only
        assert_eq!(m(FlowStat::PRoughness), Some(0.05));
        // the send rate still counts every flow of the group: 1 Kb/s each
        assert_eq!(m(FlowStat::SendRate), Some(1.0));
        // no TFRC flow with figures: n/a, not 0
        let none = Metric::FlowMean(FlowSel::Names(vec!["sp4".into()]), FlowStat::PCov);
        assert_eq!(none.extract(&r), None);
        let median = Metric::FlowMedian(sp(), FlowStat::PCov)
            .extract(&r)
            .unwrap();
        assert!((median - 0.3).abs() < 1e-12);
    }
}
