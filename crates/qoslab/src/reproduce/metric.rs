//! How a table cell is extracted from one run's [`RunResult`].
//!
//! Rates are in Mb/s (10⁶ bit/s) over the measurement window [warmup, end); queue lengths
//! in packets as seen by arriving packets (the simulator's `length` summary), probabilities
//! as fractions. A metric that cannot be computed (a link or flow missing from the results)
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
}

impl FlowSel {
    fn matches(&self, name: &str) -> bool {
        match self {
            FlowSel::All => true,
            FlowSel::Prefix(p) => name.starts_with(p.as_str()),
            FlowSel::Names(names) => names.iter().any(|n| n == name),
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
            | Metric::QueueP99(l) => Some(l),
            Metric::GoodputMbps(_) | Metric::DeliveredMbps(..) => None,
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
        }
    }
}
