//! Statistics: per-queue and per-flow counters, the queue-length distribution seen by
//! arriving packets, time averages and time series.
//!
//! Counters are cumulative from time zero. At the end of the warm-up the simulator takes a
//! snapshot; reported "measured" figures are (final − snapshot), so the hot path increments
//! one set of counters only. The conservation check uses the cumulative counters.

use qoslab_algo::{Color, DropReason, Time};
use serde::Serialize;

/// Cumulative counters of one queue (a link's egress queue).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct QueueCounters {
    pub arrivals: u64,
    pub arrival_bytes: u64,
    /// Packets that left the queue onto the link.
    pub departures: u64,
    pub departure_bytes: u64,
    /// Drops by [`DropReason::index`] and [`Color::index`].
    pub drops: [[u64; 3]; 5],
    pub drop_bytes: [[u64; 3]; 5],
    /// ECN marks by colour.
    pub marks: [u64; 3],
    /// Packets lost on the wire (configured loss) after leaving the queue.
    pub wire_losses: u64,
    /// Nanoseconds the link spent serialising.
    pub busy_ns: u64,
    /// Arrivals per colour.
    pub arrivals_by_color: [u64; 3],
}

impl QueueCounters {
    pub fn total_drops(&self) -> u64 {
        self.drops.iter().flatten().sum()
    }
    pub fn drops_for(&self, r: DropReason) -> u64 {
        self.drops[r.index()].iter().sum()
    }
    pub fn drops_of_color(&self, c: Color) -> u64 {
        self.drops.iter().map(|row| row[c.index()]).sum()
    }
    /// Component-wise difference `self − earlier`.
    pub fn since(&self, e: &QueueCounters) -> QueueCounters {
        let mut d = *self;
        d.arrivals -= e.arrivals;
        d.arrival_bytes -= e.arrival_bytes;
        d.departures -= e.departures;
        d.departure_bytes -= e.departure_bytes;
        for r in 0..5 {
            for c in 0..3 {
                d.drops[r][c] -= e.drops[r][c];
                d.drop_bytes[r][c] -= e.drop_bytes[r][c];
            }
        }
        for c in 0..3 {
            d.marks[c] -= e.marks[c];
            d.arrivals_by_color[c] -= e.arrivals_by_color[c];
        }
        d.wire_losses -= e.wire_losses;
        d.busy_ns -= e.busy_ns;
        d
    }
}

/// Queue length in packets as seen by arriving packets (before they are added), and the
/// time-weighted queue length, over the measurement window.
#[derive(Clone, Debug, Default)]
pub struct QueueLengthStats {
    /// hist[k] = arrivals that found k packets waiting.
    pub hist: Vec<u64>,
    pub n: u64,
    pub sum: u64,
    pub sum_sq: u128,
    /// ∫ q(t) dt in packet·ns, and the time it covers.
    pub area: u128,
    pub area_ns: u64,
    pub last_change: Time,
    pub last_len: u32,
    pub recording: bool,
}

impl QueueLengthStats {
    #[inline]
    pub fn on_arrival(&mut self, len: u32) {
        if !self.recording {
            return;
        }
        let k = len as usize;
        if k >= self.hist.len() {
            self.hist.resize(k + 1, 0);
        }
        self.hist[k] += 1;
        self.n += 1;
        self.sum += len as u64;
        self.sum_sq += (len as u128) * (len as u128);
    }

    /// Called whenever the waiting-queue length changes (and at the end of a run).
    #[inline]
    pub fn on_change(&mut self, now: Time, new_len: u32) {
        if self.recording {
            let dt = now.0 - self.last_change.0;
            self.area += self.last_len as u128 * dt as u128;
            self.area_ns += dt;
        }
        self.last_change = now;
        self.last_len = new_len;
    }

    pub fn start(&mut self, now: Time, len: u32) {
        self.recording = true;
        self.last_change = now;
        self.last_len = len;
    }

    pub fn summary(&self) -> QueueLengthSummary {
        let n = self.n.max(1) as f64;
        let mean = self.sum as f64 / n;
        let var = (self.sum_sq as f64 / n - mean * mean).max(0.0);
        let pct = |q: f64| -> u32 {
            if self.n == 0 {
                return 0;
            }
            let target = libm::ceil(q * self.n as f64) as u64;
            let mut acc = 0;
            for (k, &c) in self.hist.iter().enumerate() {
                acc += c;
                if acc >= target.max(1) {
                    return k as u32;
                }
            }
            self.hist.len().saturating_sub(1) as u32
        };
        QueueLengthSummary {
            samples: self.n,
            mean: if self.n == 0 { 0.0 } else { mean },
            std: libm::sqrt(var),
            p_empty: if self.n == 0 {
                0.0
            } else {
                self.hist.first().copied().unwrap_or(0) as f64 / n
            },
            p90: pct(0.9),
            p99: pct(0.99),
            max: self.hist.len().saturating_sub(1) as u32,
            time_mean: if self.area_ns == 0 {
                0.0
            } else {
                self.area as f64 / self.area_ns as f64
            },
        }
    }
}

/// The summary of a queue-length distribution.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct QueueLengthSummary {
    /// Arrivals observed.
    pub samples: u64,
    /// Mean and standard deviation of the length (packets) seen by arrivals.
    pub mean: f64,
    pub std: f64,
    /// Fraction of arrivals that found the queue empty.
    pub p_empty: f64,
    pub p90: u32,
    pub p99: u32,
    pub max: u32,
    /// Time-averaged length (packets).
    pub time_mean: f64,
}

/// Cumulative counters of one flow (all its packets: data and, for TCP, ACKs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FlowCounters {
    /// Packets/bytes put on the wire by the flow's endpoints (retransmissions included).
    pub sent_pkts: u64,
    pub sent_bytes: u64,
    /// Packets/bytes that reached their destination agent.
    pub delivered_pkts: u64,
    pub delivered_bytes: u64,
    pub dropped_pkts: u64,
    pub dropped_bytes: u64,
    /// Data packets/bytes sent by the source (excludes ACKs), and retransmitted.
    pub data_pkts: u64,
    pub data_bytes: u64,
    /// Payload bytes of those data packets (headers excluded, retransmissions included).
    pub payload_bytes: u64,
    pub retx_pkts: u64,
    /// Unique application bytes delivered in order (goodput numerator).
    pub goodput_bytes: u64,
    /// Data bytes sent per colour as they left the ingress conditioner.
    pub bytes_by_color: [u64; 3],
    /// Data bytes delivered per colour.
    pub delivered_by_color: [u64; 3],
    /// Data packets dropped.
    pub data_dropped: u64,
    /// TCP retransmission timeouts and fast recoveries (0 for other flows).
    pub timeouts: u64,
    pub fast_recoveries: u64,
}

impl FlowCounters {
    pub fn since(&self, e: &FlowCounters) -> FlowCounters {
        let mut d = *self;
        d.sent_pkts -= e.sent_pkts;
        d.sent_bytes -= e.sent_bytes;
        d.delivered_pkts -= e.delivered_pkts;
        d.delivered_bytes -= e.delivered_bytes;
        d.dropped_pkts -= e.dropped_pkts;
        d.dropped_bytes -= e.dropped_bytes;
        d.data_pkts -= e.data_pkts;
        d.data_bytes -= e.data_bytes;
        d.payload_bytes -= e.payload_bytes;
        d.retx_pkts -= e.retx_pkts;
        d.goodput_bytes -= e.goodput_bytes;
        d.data_dropped -= e.data_dropped;
        d.timeouts -= e.timeouts;
        d.fast_recoveries -= e.fast_recoveries;
        for c in 0..3 {
            d.bytes_by_color[c] -= e.bytes_by_color[c];
            d.delivered_by_color[c] -= e.delivered_by_color[c];
        }
        d
    }
}

/// Jain's fairness index of a set of allocations: (Σx)² / (n Σx²); 1 when all equal.
pub fn jain_index(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 1.0;
    }
    let s: f64 = xs.iter().sum();
    let s2: f64 = xs.iter().map(|x| x * x).sum();
    if s2 == 0.0 {
        1.0
    } else {
        s * s / (xs.len() as f64 * s2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_length_summary_hand_computed() {
        let mut s = QueueLengthStats::default();
        s.start(Time(0), 0);
        for len in [0, 0, 2, 4, 4] {
            s.on_arrival(len);
        }
        let q = s.summary();
        // mean = 10/5 = 2; E[x²] = (4+16+16)/5 = 7.2; var = 7.2 - 4 = 3.2
        assert_eq!(q.mean, 2.0);
        assert!((q.std - 3.2f64.sqrt()).abs() < 1e-12);
        assert_eq!(q.p_empty, 0.4);
        assert_eq!(q.p90, 4);
        assert_eq!(q.max, 4);
    }

    #[test]
    fn time_average() {
        let mut s = QueueLengthStats::default();
        s.start(Time(0), 0);
        s.on_change(Time(10), 3); // 0 for 10 ns
        s.on_change(Time(20), 1); // 3 for 10 ns
        s.on_change(Time(40), 1); // 1 for 20 ns
        assert_eq!(s.summary().time_mean, (30.0 + 20.0) / 40.0);
    }

    #[test]
    fn jain() {
        assert_eq!(jain_index(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain_index(&[1.0, 0.0]) - 0.5).abs() < 1e-12);
    }
}
