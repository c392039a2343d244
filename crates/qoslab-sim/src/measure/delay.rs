//! Delay measurement of the IP engine: per flow one-way delay (and its split into queueing
//! and propagation + transmission), RFC 3550 jitter, RFC 3393 / RFC 5481 delay variation,
//! TCP RTT samples; per queue the sojourn time by colour.
//!
//! # What is measured, and where
//! The engine calls four hooks (`sim.rs`), each a few instructions and allocation-free once
//! a histogram has its buckets (see [`qoslab_algo::stats::quantile`]):
//!
//! - **queue arrival** (`Packet::queue_at = now`, when the packet enters an ingress shaper,
//!   and when it has to wait in an egress FIFO; a packet that finds the link idle and the
//!   FIFO empty starts serialising at once, a sojourn of 0: [`DelayMeasure::on_sojourn`]);
//! - **shaper release** ([`on_shaper_release`]): the time held in an ingress shaper is added
//!   to the packet's `queued_ns`;
//! - **start of transmission** ([`DelayMeasure::on_dequeue`]): the packet's *sojourn* in
//!   this egress queue, `now − queue_at` (0 when it found the link idle and the FIFO empty),
//!   is added to its `queued_ns` and recorded for the queue under the packet's colour. The
//!   sojourn is the waiting time before serialisation starts (CoDel's "sojourn time",
//!   RFC 8289 §3, and the `W_q` of queueing theory); the packet's own transmission time is
//!   not in it;
//! - **delivery** of a data packet (UDP, TCP data, TFRC data) to its sink
//!   ([`DelayMeasure::on_deliver`]): one-way delay `D = now − sent_at`, from the source
//!   putting it on the wire to its arrival at the destination node (every hop's waiting,
//!   serialisation and propagation); queueing `Q = queued_ns`; the rest `D − Q` is the
//!   propagation and transmission part (Σ serialisation + Σ propagation over the hops: the
//!   same for every packet of one size on one path).
//!
//! plus the RTT of TCP senders ([`DelayMeasure::on_rtt`]): each sample `R` the sender hands
//! its RFC 6298 estimator (RFC 7323 timestamps, or the one timed segment per RTT; Karn's
//! rule applied), before the estimator's clock-granularity rounding.
//!
//! ACKs and TFRC feedback are not flow delay samples (they travel the other way) but are
//! queue sojourn samples. Retransmitted TCP segments are samples like any other: their
//! `sent_at` is the retransmission's.
//!
//! # Window
//! Samples are taken in the measurement window: deliveries, dequeues and RTT samples at
//! times in `[warmup, end)`. A packet sent before the warm-up and delivered after it is a
//! sample (its whole delay counts). Jitter and IPDV start afresh at the warm-up.
//!
//! # Delay variation
//! - `jitter_rfc3550_ns`: RFC 3550 §6.4.1 interarrival jitter `J` after the last packet
//!   ([`qoslab_algo::stats::Rfc3550Jitter`]);
//! - `ipdv_mean_abs_ns`, `ipdv_max_abs_ns`: RFC 3393 IPDV between consecutive arrivals,
//!   RFC 5481 §4.1's selection function ([`qoslab_algo::stats::Ipdv`]);
//! - `pdv_p99_ns`: RFC 5481 §4.2 PDV, `D − D_min` (RFC 3393 with the minimum-delay packet
//!   as the selection function's reference), at the 99th percentile: `p99 − min` of the
//!   one-way delay. RFC 5481 §6.5 suggests a high percentile without fixing it; we take the
//!   99th, one of the percentiles reported anyway. `p99 − p50` (the example) is
//!   `p99_ns − p50_ns` of the same record.
//!
//! # Accuracy
//! Means, minima, maxima, jitter and IPDV are exact (integer ns, f64 only for the final
//! division and J's update). Percentiles come from [`LogHistogram`]: within 1/128 (0.78 %)
//! of the exact nearest-rank percentile.

use qoslab_algo::stats::{DelayVariation, LogHistogram, Quantiles};
use qoslab_algo::{Color, Duration, Time};
use serde::Serialize;

use crate::arena::Packet;

/// One flow's delay state.
#[derive(Clone, Debug)]
pub struct FlowDelay {
    one_way: LogHistogram,
    queueing_sum: u128,
    queueing_max: u64,
    /// RFC 3550 jitter and RFC 3393 IPDV, fed one delay difference per packet.
    variation: DelayVariation,
    /// TCP senders' RTT samples (no buckets unless samples come).
    rtt: LogHistogram,
    /// Since the last series sample (whole run): packets, Σ delay, max delay.
    iv_n: u64,
    iv_sum: u128,
    iv_max: u64,
}

/// One queue's sojourn times by colour (index `Color::index`).
#[derive(Clone, Debug)]
pub struct QueueSojourn {
    /// Recorded only for the links whose queue statistics are reported (`output.monitor`,
    /// or every link when it is empty): the others cost one test per packet.
    monitored: bool,
    /// `monitored` once the measurement window is open.
    on: bool,
    by_color: [LogHistogram; 3],
}

/// The delay state of a run: flat tables indexed by flow id and link id.
#[derive(Clone, Debug, Default)]
pub struct DelayMeasure {
    pub flows: Vec<FlowDelay>,
    pub queues: Vec<QueueSojourn>,
    recording: bool,
    /// Keep the per-interval figures of `delay_series.csv`.
    series: bool,
}

/// Summary of a set of durations, ns (all zero without samples).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DelayStats {
    pub samples: u64,
    pub mean_ns: f64,
    pub min_ns: u64,
    pub p50_ns: u64,
    pub p90_ns: u64,
    pub p99_ns: u64,
    pub max_ns: u64,
}

impl From<Quantiles> for DelayStats {
    fn from(q: Quantiles) -> Self {
        DelayStats {
            samples: q.count,
            mean_ns: q.mean,
            min_ns: q.min,
            p50_ns: q.p50,
            p90_ns: q.p90,
            p99_ns: q.p99,
            max_ns: q.max,
        }
    }
}

/// A flow's delay figures over the measurement window (module doc: what each one is).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FlowDelaySummary {
    /// One-way delay of the flow's data packets delivered in the window.
    pub one_way: DelayStats,
    /// Mean and largest time those packets waited in queues (egress FIFOs and shapers).
    pub queueing_mean_ns: f64,
    pub queueing_max_ns: u64,
    /// Mean propagation + transmission part: `one_way.mean_ns − queueing_mean_ns`.
    pub prop_tx_mean_ns: f64,
    /// RFC 3550 §6.4.1 interarrival jitter after the last packet.
    pub jitter_rfc3550_ns: f64,
    /// RFC 3393 IPDV of consecutive arrivals (RFC 5481 §4.1): mean and largest |ipdv|.
    pub ipdv_mean_abs_ns: f64,
    pub ipdv_max_abs_ns: u64,
    /// RFC 5481 §4.2 PDV at the 99th percentile: `one_way.p99_ns − one_way.min_ns`.
    pub pdv_p99_ns: u64,
    /// TCP flows: the RTT samples of the sender's estimator (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rtt: Option<DelayStats>,
}

/// A queue's sojourn times over the window: all packets, and per colour (green, yellow, red).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SojournSummary {
    pub all: DelayStats,
    pub green: DelayStats,
    pub yellow: DelayStats,
    pub red: DelayStats,
}

/// One row of `delay_series.csv`: a flow's deliveries since the previous sample instant.
#[derive(Clone, Copy, Debug)]
pub struct DelaySample {
    pub t_ns: u64,
    pub flow: u32,
    pub packets: u64,
    pub mean_ns: f64,
    pub max_ns: u64,
}

impl FlowDelay {
    fn new(bound: u64) -> Self {
        FlowDelay {
            one_way: LogHistogram::new(bound),
            queueing_sum: 0,
            queueing_max: 0,
            variation: DelayVariation::default(),
            rtt: LogHistogram::new(bound),
            iv_n: 0,
            iv_sum: 0,
            iv_max: 0,
        }
    }

    pub fn summary(&self, tcp: bool) -> FlowDelaySummary {
        let one_way: DelayStats = self.one_way.summary().into();
        let n = one_way.samples;
        let queueing_mean_ns = if n == 0 {
            0.0
        } else {
            self.queueing_sum as f64 / n as f64
        };
        FlowDelaySummary {
            one_way,
            queueing_mean_ns,
            queueing_max_ns: self.queueing_max,
            prop_tx_mean_ns: one_way.mean_ns - queueing_mean_ns,
            jitter_rfc3550_ns: self.variation.jitter.value(),
            ipdv_mean_abs_ns: self.variation.ipdv.mean_abs(),
            ipdv_max_abs_ns: self.variation.ipdv.max_abs(),
            pdv_p99_ns: one_way.p99_ns - one_way.min_ns,
            rtt: tcp.then(|| self.rtt.summary().into()),
        }
    }
}

impl QueueSojourn {
    fn new(bound: u64, on: bool) -> Self {
        QueueSojourn {
            monitored: on,
            on: false,
            by_color: [
                LogHistogram::new(bound),
                LogHistogram::new(bound),
                LogHistogram::new(bound),
            ],
        }
    }

    pub fn summary(&self) -> SojournSummary {
        let [g, y, r] = &self.by_color;
        let mut all = g.clone();
        all.merge(y);
        all.merge(r);
        SojournSummary {
            all: all.summary().into(),
            green: g.summary().into(),
            yellow: y.summary().into(),
            red: r.summary().into(),
        }
    }
}

impl DelayMeasure {
    /// State for `flows` flows and one queue per entry of `monitored` (whether its sojourn
    /// times are recorded) over a run of length `duration` (the bound of every measured
    /// duration); `series`: keep the figures of `delay_series.csv`.
    pub fn new(flows: usize, monitored: &[bool], duration: Duration, series: bool) -> Self {
        let bound = duration.0;
        DelayMeasure {
            flows: (0..flows).map(|_| FlowDelay::new(bound)).collect(),
            queues: monitored
                .iter()
                .map(|&on| QueueSojourn::new(bound, on))
                .collect(),
            recording: false,
            series,
        }
    }

    /// The measurement window opens (at the warm-up).
    pub fn start(&mut self) {
        self.recording = true;
        for q in &mut self.queues {
            q.on = q.monitored;
        }
    }

    /// Packet `p` starts its transmission on link `link` at `now`: its sojourn in the
    /// egress queue ends. `monitored` is the link's own `monitored` flag, which this
    /// table's `QueueSojourn::monitored` copies (and `on` follows), read from the link the
    /// hop already holds: the sojourn is recorded only on monitored links, so on the others
    /// this table is not touched (issue 13 session 14: at 10,000 flows its 256-byte entries
    /// of 40,002 links were one more cache line per dequeue, for a flag that was false).
    #[inline]
    pub fn on_dequeue(&mut self, link: u32, p: &mut Packet, now: Time, monitored: bool) {
        debug_assert_eq!(monitored, self.queues[link as usize].monitored);
        let w = now.0 - p.queue_at.0;
        p.queued_ns += w;
        if monitored {
            self.on_sojourn(link, p.color, w);
        }
    }

    /// A packet of colour `color` starts its transmission on link `link` after a sojourn of
    /// `w` ns in its egress queue: the engine's short cut for a packet that found the link
    /// idle and the FIFO empty (`w` = 0, nothing to add to its `queued_ns`).
    #[inline]
    pub fn on_sojourn(&mut self, link: u32, color: Color, w: u64) {
        let q = &mut self.queues[link as usize];
        if q.on {
            q.by_color[color.index()].record(w);
        }
    }

    /// Data packet `p` reached its destination node at `now`. (Inlined into the engine's
    /// delivery, which holds the packet already: as a call it cost about 15 instructions
    /// per data packet of 81, issue 13 session 17.)
    #[inline(always)]
    pub fn on_deliver(&mut self, p: &Packet, now: Time) {
        let d = now.0 - p.sent_at.0;
        let f = &mut self.flows[p.flow as usize];
        if self.series {
            f.iv_n += 1;
            f.iv_sum += d as u128;
            f.iv_max = f.iv_max.max(d);
        }
        if !self.recording {
            return;
        }
        f.one_way.record(d);
        f.queueing_sum += p.queued_ns as u128;
        f.queueing_max = f.queueing_max.max(p.queued_ns);
        f.variation.on_packet(d);
    }

    /// A TCP sender of `flow` took the RTT sample `r`.
    #[inline]
    pub fn on_rtt(&mut self, flow: u32, r: Duration) {
        if self.recording {
            self.flows[flow as usize].rtt.record(r.0);
        }
    }

    /// Appends one series row per flow (deliveries since the previous call) and resets.
    pub fn sample_series(&mut self, now: Time, out: &mut Vec<DelaySample>) {
        for (i, f) in self.flows.iter_mut().enumerate() {
            out.push(DelaySample {
                t_ns: now.0,
                flow: i as u32,
                packets: f.iv_n,
                mean_ns: if f.iv_n == 0 {
                    0.0
                } else {
                    f.iv_sum as f64 / f.iv_n as f64
                },
                max_ns: f.iv_max,
            });
            (f.iv_n, f.iv_sum, f.iv_max) = (0, 0, 0);
        }
    }
}

/// A packet leaves an ingress shaper at `now`: the time it was held is queueing, and its
/// egress-queue sojourn starts now.
#[inline]
pub fn on_shaper_release(p: &mut Packet, now: Time) {
    p.queued_ns += now.0 - p.queue_at.0;
    p.queue_at = now;
}
