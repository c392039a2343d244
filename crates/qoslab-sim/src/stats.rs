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
    /// Packets lost to configured loss: on the wire after leaving the queue (counted in
    /// `arrivals` and `departures`), or, for a drop list, on entering the link before the
    /// queue (in neither).
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

/// Online statistics of the loss event rate p and the allowed rate X that one TFRC sender
/// holds right after each feedback packet, over the measurement window: how much p (and so
/// X) oscillates. RFC 4828 App. C asks whether the §3 step rule for short loss intervals
/// makes "the average loss event rate" oscillate more than the gradual rule it describes,
/// but names no measure; these are ours.
///
/// A *sample* is the pair (p, X) read from the sender after it has processed a feedback
/// packet (RFC 5348 §4.3 / RFC 4828 §3: p only ever changes there). X also falls when the
/// nofeedback timer expires (RFC 5348 §4.4); those changes are not sampled, so the X
/// figures are "X as set by feedback". What is computed (population statistics, divisor n):
///
/// * `p_mean`, `p_std` (Welford's online algorithm), `p_cov = p_std / p_mean`: the spread
///   of p across feedbacks, scale-free so that runs at different drop rates compare;
/// * `p_time_mean`, `p_time_std`, `p_time_cov`: the same with each sample weighted by how
///   long p held that value (from its feedback to the next one, the last one to the end of
///   the run; time before the first sample in the window is not covered). Feedback comes
///   about once per RTT, so the two differ when the RTT, or the feedback rate, changes with p;
/// * `x_mean_bps`, `x_std_bps`, `x_cov`: X (bytes/s of the equation; TFRC-SP: on-wire bytes
///   with the header allowance) as bit/s;
/// * `p_roughness`: the mean of |ln(p_k / p_(k-1))| over consecutive samples k-1, k in the
///   window with both p > 0 (`p_pairs` of them; unchanged p counts as 0). A CoV measures
///   how widely p wanders, not how fast; the roughness measures the typical relative jump
///   of p from one feedback to the next, i.e. the oscillation itself (a slow drift and a
///   saw-tooth of equal spread have equal CoV but very different roughness). It is a
///   logarithm so a jump from 0.01 to 0.02 counts as one from 0.2 to 0.4; since
///   X ∝ p^(-1/2) at small p, |Δ ln X| ≈ roughness / 2 per feedback. Samples with p = 0
///   (before the first loss event) are left out of it: their logarithm is undefined.
///   They are counted in `zero_p_samples`, and in the mean, std and CoV of p.
///
/// A CoV whose mean is 0 (every p = 0) is reported as 0: no variation. With no samples
/// every figure is 0 and `samples` = 0 says so.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TfrcOscillation {
    n: u64,
    p_mean: f64,
    p_m2: f64,
    x_mean: f64,
    x_m2: f64,
    zero_p: u64,
    /// The previous sample: (time, p); None before the first.
    prev: Option<(Time, f64)>,
    rough_n: u64,
    rough_sum: f64,
    /// ∫ p dt and ∫ p² dt in (·)·ns, and the ns they cover.
    area_p: f64,
    area_p2: f64,
    area_ns: u64,
}

/// The figures of a [`TfrcOscillation`] (see there for what each one is).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TfrcOscillationSummary {
    /// Feedback packets received in the measurement window (= samples).
    pub samples: u64,
    /// Of them, samples with p = 0.
    pub zero_p_samples: u64,
    pub p_mean: f64,
    pub p_std: f64,
    pub p_cov: f64,
    pub p_time_mean: f64,
    pub p_time_std: f64,
    pub p_time_cov: f64,
    /// Mean |ln(p_k / p_(k-1))| over consecutive samples with both p > 0.
    pub p_roughness: f64,
    /// Consecutive sample pairs the roughness is averaged over.
    pub p_pairs: u64,
    pub x_mean_bps: f64,
    pub x_std_bps: f64,
    pub x_cov: f64,
}

impl TfrcOscillation {
    /// One sample at `now`: the sender holds loss event rate `p` and allowed rate `x_bytes`
    /// (bytes/s). Samples must come in time order.
    #[inline]
    pub fn on_sample(&mut self, now: Time, p: f64, x_bytes: f64) {
        self.n += 1;
        let n = self.n as f64;
        // Welford: mean_n = mean_(n-1) + (v - mean_(n-1))/n; M2 += (v - mean_(n-1))(v - mean_n)
        let d = p - self.p_mean;
        self.p_mean += d / n;
        self.p_m2 += d * (p - self.p_mean);
        let x = x_bytes * 8.0;
        let d = x - self.x_mean;
        self.x_mean += d / n;
        self.x_m2 += d * (x - self.x_mean);
        if p <= 0.0 {
            self.zero_p += 1;
        }
        if let Some((t0, p0)) = self.prev {
            self.hold(t0, p0, now);
            if p0 > 0.0 && p > 0.0 {
                self.rough_n += 1;
                self.rough_sum += libm::fabs(libm::log(p / p0));
            }
        }
        self.prev = Some((now, p));
    }

    /// p0 held over [t0, t).
    #[inline]
    fn hold(&mut self, t0: Time, p0: f64, t: Time) {
        let dt = t.saturating_since(t0).as_nanos();
        self.area_p += p0 * dt as f64;
        self.area_p2 += p0 * p0 * dt as f64;
        self.area_ns += dt;
    }

    /// Ends the window at `end`: the last sample's p held until then (calling it again with
    /// the same `end` adds nothing).
    pub fn close(&mut self, end: Time) {
        if let Some((t0, p0)) = self.prev {
            self.hold(t0, p0, end);
            self.prev = Some((end.max(t0), p0));
        }
    }

    pub fn samples(&self) -> u64 {
        self.n
    }

    pub fn summary(&self) -> TfrcOscillationSummary {
        let cov = |std: f64, mean: f64| if mean > 0.0 { std / mean } else { 0.0 };
        let n = self.n.max(1) as f64;
        let p_std = libm::sqrt((self.p_m2 / n).max(0.0));
        let x_std = libm::sqrt((self.x_m2 / n).max(0.0));
        let (p_time_mean, p_time_std) = if self.area_ns == 0 {
            (0.0, 0.0)
        } else {
            let t = self.area_ns as f64;
            let m = self.area_p / t;
            (m, libm::sqrt((self.area_p2 / t - m * m).max(0.0)))
        };
        TfrcOscillationSummary {
            samples: self.n,
            zero_p_samples: self.zero_p,
            p_mean: self.p_mean,
            p_std,
            p_cov: cov(p_std, self.p_mean),
            p_time_mean,
            p_time_std,
            p_time_cov: cov(p_time_std, p_time_mean),
            p_roughness: if self.rough_n == 0 {
                0.0
            } else {
                self.rough_sum / self.rough_n as f64
            },
            p_pairs: self.rough_n,
            x_mean_bps: self.x_mean,
            x_std_bps: x_std,
            x_cov: cov(x_std, self.x_mean),
        }
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
    fn tfrc_oscillation_hand_computed() {
        let mut o = TfrcOscillation::default();
        // (t ns, p, X bytes/s)
        for (t, p, x) in [
            (0, 0.0, 100.0),
            (10, 0.1, 200.0),
            (30, 0.2, 300.0),
            (40, 0.1, 200.0),
        ] {
            o.on_sample(Time(t), p, x);
        }
        o.close(Time(50));
        o.close(Time(50)); // a second close adds nothing
        let s = o.summary();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert_eq!((s.samples, s.zero_p_samples, s.p_pairs), (4, 1, 2));
        // p: 0, .1, .2, .1 -> mean .4/4 = .1; squared deviations .01, 0, .01, 0 -> var .02/4
        assert!(close(s.p_mean, 0.1));
        assert!(close(s.p_std, 0.005f64.sqrt()), "{}", s.p_std);
        assert!(close(s.p_cov, 0.005f64.sqrt() / 0.1));
        // X in bit/s: 800, 1600, 2400, 1600 -> mean 1600; var (640000·2)/4 = 320000
        assert!(close(s.x_mean_bps, 1600.0));
        assert!(close(s.x_std_bps, 320000f64.sqrt()));
        assert!(close(s.x_cov, 320000f64.sqrt() / 1600.0));
        // pairs with both p > 0: (.1 -> .2) and (.2 -> .1), |ln 2| each; (0 -> .1) left out
        assert!(close(s.p_roughness, std::f64::consts::LN_2));
        // held: 0 over 10 ns, .1 over 20, .2 over 10, .1 over 10 (to the end, 50):
        // ∫p = 2 + 2 + 1 = 5 over 50 ns -> .1; ∫p² = .2 + .4 + .1 = .7 -> .014; var .004
        assert!(close(s.p_time_mean, 0.1));
        assert!(close(s.p_time_std, 0.004f64.sqrt()), "{}", s.p_time_std);
        assert!(close(s.p_time_cov, 0.004f64.sqrt() / 0.1));
    }

    #[test]
    fn tfrc_oscillation_degenerate() {
        let s = TfrcOscillation::default().summary();
        assert_eq!(s, TfrcOscillationSummary::default());
        // only p = 0: CoV of p is 0 (no variation), no roughness pairs
        let mut o = TfrcOscillation::default();
        o.on_sample(Time(0), 0.0, 10.0);
        o.on_sample(Time(5), 0.0, 20.0);
        let s = o.summary();
        assert_eq!(
            (s.p_cov, s.p_time_cov, s.p_roughness, s.p_pairs),
            (0.0, 0.0, 0.0, 0)
        );
        assert_eq!(s.zero_p_samples, 2);
        assert!(s.x_cov > 0.0);
    }

    proptest::proptest! {
        /// Welford agrees with the two-pass formulas; the roughness and the CoVs of p do not
        /// change when every p is scaled by the same factor; the time mean lies in [min, max].
        #[test]
        fn tfrc_oscillation_invariants(
            ps in proptest::collection::vec(1e-4f64..0.9, 1..40),
            gaps in proptest::collection::vec(1u64..1_000_000, 40),
            scale in 0.01f64..1.0,
        ) {
            let mut a = TfrcOscillation::default();
            let mut b = TfrcOscillation::default();
            let mut t = 0u64;
            for (p, g) in ps.iter().zip(&gaps) {
                t += g;
                a.on_sample(Time(t), *p, 1000.0 / p.sqrt());
                b.on_sample(Time(t), p * scale, 1000.0);
            }
            a.close(Time(t + 7));
            b.close(Time(t + 7));
            let (sa, sb) = (a.summary(), b.summary());
            let n = ps.len() as f64;
            let mean = ps.iter().sum::<f64>() / n;
            let var = ps.iter().map(|p| (p - mean) * (p - mean)).sum::<f64>() / n;
            proptest::prop_assert!((sa.p_mean - mean).abs() < 1e-12);
            proptest::prop_assert!((sa.p_std - var.sqrt()).abs() < 1e-9);
            proptest::prop_assert!((sa.p_roughness - sb.p_roughness).abs() < 1e-9);
            proptest::prop_assert!((sa.p_cov - sb.p_cov).abs() < 1e-6);
            proptest::prop_assert!((sa.p_time_cov - sb.p_time_cov).abs() < 1e-6);
            proptest::prop_assert_eq!(sa.p_pairs, ps.len() as u64 - 1);
            proptest::prop_assert_eq!(sb.x_std_bps, 0.0);
            let (lo, hi) = ps.iter().fold((1.0f64, 0.0f64), |(l, h), p| (l.min(*p), h.max(*p)));
            proptest::prop_assert!(sa.p_time_mean >= lo - 1e-12 && sa.p_time_mean <= hi + 1e-12);
        }
    }

    #[test]
    fn jain() {
        assert_eq!(jain_index(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain_index(&[1.0, 0.0]) - 0.5).abs() < 1e-12);
    }
}
