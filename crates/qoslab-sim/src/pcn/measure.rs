//! Measurement (§10.3, §11.6, §12): time-binned link rates, over-admission,
//! over-termination, termination times, fairness, marked fractions, delay; and the result
//! of a run (`summary.json`).
//!
//! ## Delay (not in the draft; issue 15)
//! The draft gives no delay figures; these are ours, for voice and video calls.
//! - **One-way delay** of a data packet: its arrival at the egress − the time it entered
//!   the PCN domain at its ingress. For randomized traffic that is *after* the source's
//!   U(0, randomize) delay ([G §5.17]): the randomization models where the packet was
//!   before the domain, not time inside it. Request packets (signalling) are not samples.
//!   It is the IEA's fixed path time (propagation on every hop, unlimited links included,
//!   plus one transmission per PCN link: `prop_tx_ns`) plus the time spent waiting in
//!   PCN-link FIFOs. The engine carries that waiting time, summed over the hops, in the
//!   packet's event (32 bits of ns: exact up to 4.29 s; more is recorded at 4.29 s and
//!   counted in `queueing_saturated`), so the event stays one `u64` and no per-packet
//!   table is needed.
//! - **Jitter and IPDV** (opt-in, `[pcn.measure] delay_variation = true`: they cost
//!   +1.2 % instructions, which would take the delay measurement past its 5 % budget) per
//!   IEA over its aggregate: consecutive egress arrivals of the
//!   IEA's data packets, whatever flow they belong to (`qoslab_algo::stats::DelayVariation`:
//!   RFC 3550 §6.4.1 interarrival jitter, RFC 3393 IPDV of adjacent arrivals). The engine
//!   does not keep per-flow state at the egress; for an aggregate on one FIFO path this is
//!   the variation seen by packets adjacent in time.
//! - **Sojourn** per PCN link: arrival at the link → start of transmission (0 when the
//!   FIFO was empty) of every data packet that entered the FIFO (requests bypass it).
//! - Samples from `[pcn.measure] delay_from` to the end (default: the run kind's window);
//!   quantiles from `qoslab_algo::stats::LogHistogram` (nearest rank; count, mean, min,
//!   max exact). Per IEA the histogram holds the *waiting time* and the fixed path time is
//!   added when it is read: each percentile is within 0.78 % of the exact waiting time,
//!   so closer than that to the exact delay, and a packet that did not wait (most of them
//!   below AR) costs one counter. The class figure merges the IEAs: exactly so when they
//!   share one fixed path time (single link), otherwise each IEA's buckets are moved by
//!   its fixed time (`LogHistogram::merge_shifted`), within 1.56 %.

pub use crate::measure::delay::DelayStats;
use qoslab_algo::Duration;
use serde::Serialize;

/// Bits per fixed-width time bin over [0, duration).
#[derive(Clone, Debug)]
pub struct Bins {
    width: u64,
    pub bits: Vec<u64>,
}

impl Bins {
    pub fn new(width: Duration, duration: Duration) -> Bins {
        let w = width.as_nanos().max(1);
        let n = duration.as_nanos().div_ceil(w) as usize;
        Bins {
            width: w,
            bits: vec![0; n],
        }
    }
    #[inline]
    pub fn add(&mut self, t_ns: u64, bits: u64) {
        if let Some(b) = self.bits.get_mut((t_ns / self.width) as usize) {
            *b += bits;
        }
    }
    pub fn width_s(&self) -> f64 {
        self.width as f64 * 1e-9
    }
    /// Mean rate (bit/s) of each bin.
    pub fn rates(&self) -> Vec<f64> {
        let w = self.width_s();
        self.bits.iter().map(|&b| b as f64 / w).collect()
    }
}

/// Over-admission on one link (§10.3): OA % = 100·(X − D)/D, X = throughput of admitted
/// calls' packets (data and their requests) in the window, D = AR − rate of the request
/// packets of rejected calls in the window.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OverAdmission {
    pub x_bps: f64,
    pub d_bps: f64,
    pub rejected_signalling_bps: f64,
    pub oa_pct: f64,
}

/// Over-termination on one link (§12): OT % = 100·(SR − rate after termination)/SR.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct OverTermination {
    /// Measured throughput over the OT window.
    pub rate_bps: f64,
    pub ot_pct: f64,
    /// Nominal rate (active flows × nominal mean) at the window's start and end.
    pub nominal_from_bps: f64,
    pub nominal_to_bps: f64,
    pub ot_nominal_pct: f64,
}

/// Termination time (§10.3, §12): first termination of a flow crossing the link → the
/// termination after which its nominal PCN rate < SR. `table_s` adds the measuring time
/// of the scheme (§12.1: 0.1 s STM, 0.2 s CL).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TerminationTime {
    pub first_s: Option<f64>,
    pub done_s: Option<f64>,
    pub raw_s: Option<f64>,
    pub table_s: Option<f64>,
}

/// Delay figures of one IEA (module doc: what each one is). Times in ns.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct IeaDelay {
    /// One-way delay, ingress → egress, of the data packets delivered from `delay_from` on.
    pub one_way: DelayStats,
    /// The fixed part: propagation ingress → egress + one transmission per PCN link.
    pub prop_tx_ns: u64,
    /// Waiting time in PCN-link FIFOs (one-way − `prop_tx_ns`): mean and largest.
    pub queueing_mean_ns: f64,
    pub queueing_max_ns: u64,
    /// Packets whose waiting time exceeded 4.29 s (recorded at 4.29 s; should be 0).
    pub queueing_saturated: u64,
    /// RFC 3550 §6.4.1 interarrival jitter over the IEA's consecutive egress arrivals
    /// (null unless `[pcn.measure] delay_variation = true`).
    pub jitter_rfc3550_ns: Option<f64>,
    /// RFC 3393 IPDV of consecutive egress arrivals: mean and largest |IPDV| (null unless
    /// `delay_variation = true`).
    pub ipdv_mean_abs_ns: Option<f64>,
    pub ipdv_max_abs_ns: Option<u64>,
    /// RFC 5481 §4.2 PDV at the 99th percentile: `p99_ns − min_ns`.
    pub pdv_p99_ns: u64,
}

/// One-way delay of the run's traffic class (every flow of a run has the same traffic
/// type): all IEAs' samples together.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ClassDelay {
    /// `cbr`, `vbr` or `svd` (the `[pcn.traffic] model`).
    pub traffic: String,
    /// Samples from this time on (s).
    pub from_s: f64,
    pub one_way: DelayStats,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkResult {
    pub name: String,
    pub arrived: u64,
    pub forwarded: u64,
    pub dropped: u64,
    pub in_flight: u64,
    pub requests: u64,
    /// Packets leaving the link's marker as [not marked, threshold/AM, excess/PM].
    pub out_marks: [u64; 3],
    /// Physical FIFO overflows (should be 0) and the largest backlog seen, in packets.
    pub fifo_overflows: u64,
    pub max_backlog_packets: f64,
    pub over_admission: Option<OverAdmission>,
    pub over_termination: Option<OverTermination>,
    pub termination_time: Option<TerminationTime>,
    /// Static runs: offered rate and marked fractions over [static_from, end).
    pub static_rate_bps: Option<f64>,
    pub static_marked_fraction: Option<[f64; 2]>,
    /// Mean rate per `series_bin` (bit/s).
    pub series_bin_s: f64,
    pub rate_series_bps: Vec<f64>,
    /// FIFO sojourn (arrival → start of transmission) of the data packets arriving from
    /// `delay_from` on; null when `[pcn.measure] delay = false`.
    pub sojourn: Option<DelayStats>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct IeaResult {
    pub name: String,
    pub offered: u64,
    pub admitted: u64,
    pub blocked: u64,
    pub sent: u64,
    pub delivered: u64,
    /// Dropped anywhere: FIFO overflows and packets of terminated flows discarded at the
    /// ingress (`discarded_at_ingress`, randomized traffic only).
    pub dropped: u64,
    pub discarded_at_ingress: u64,
    pub in_flight: u64,
    pub active_at_end: u64,
    pub terminated_flows: u64,
    pub reports: u64,
    pub cancels: u64,
    pub termination_time: Option<TerminationTime>,
    /// Delay figures; null when `[pcn.measure] delay = false`.
    pub delay: Option<IeaDelay>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TerminationEvent {
    pub t_s: f64,
    pub iea: u32,
    pub amount_bps: u64,
    /// The ingress's measured sending rate S and the report it used (STM: R_min, CL: SAR).
    pub sending_bps: u64,
    pub reported_bps: u64,
    pub flows: u64,
}

/// Short-haul / long-haul throughput ratio on the first link (§11.6), per bin and
/// cumulative over [0, t].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FairnessPoint {
    pub t_s: f64,
    pub window_ratio: f64,
    pub cumulative_ratio: f64,
}

/// The result of one PCN run (`summary.json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PcnResult {
    pub name: String,
    pub seed: u64,
    pub kind: super::spec::RunKind,
    pub scheme: super::spec::Scheme,
    pub duration_s: f64,
    pub events: u64,
    pub packet_hops: u64,
    pub links: Vec<LinkResult>,
    pub ieas: Vec<IeaResult>,
    pub terminations: Vec<TerminationEvent>,
    pub fairness: Vec<FairnessPoint>,
    /// One-way delay of the traffic class over all IEAs; null when delay is off.
    pub delay: Option<ClassDelay>,
    /// "ok" (the check is run before a result exists; a failure is an error instead).
    pub conservation: &'static str,
}

pub(crate) fn over_admission(
    admitted_bits: u64,
    rejected_bits: u64,
    window_s: f64,
    ar_bps: f64,
) -> OverAdmission {
    let x = admitted_bits as f64 / window_s;
    let rej = rejected_bits as f64 / window_s;
    let d = ar_bps - rej;
    OverAdmission {
        x_bps: x,
        d_bps: d,
        rejected_signalling_bps: rej,
        oa_pct: 100.0 * (x - d) / d,
    }
}

pub(crate) fn fairness(short: &Bins, long: &Bins) -> Vec<FairnessPoint> {
    let w = short.width_s();
    let (mut cs, mut cl) = (0u64, 0u64);
    short
        .bits
        .iter()
        .zip(&long.bits)
        .enumerate()
        .map(|(k, (&s, &l))| {
            cs += s;
            cl += l;
            FairnessPoint {
                t_s: (k + 1) as f64 * w,
                window_ratio: s as f64 / l as f64,
                cumulative_ratio: cs as f64 / cl as f64,
            }
        })
        .collect()
}
