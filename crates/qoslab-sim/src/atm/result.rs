//! Results of an ATM run (serialisable: `summary.json`) and the measures of Kim et al.

use serde::Serialize;
use std::collections::BTreeMap;

/// One run's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AtmResult {
    pub name: String,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub policy: String,
    /// Per VC, in scenario order.
    pub vcs: Vec<VcResult>,
    /// Σ per-VC TCP goodput, Mb/s.
    pub total_goodput_mbps: f64,
    /// Kim et al. eq. (4) with f_i = the VC's ideal goodput (eq. (2)'s w_i in TCP payload).
    pub fairness_index: f64,
    /// Every VC's goodput >= its MCR's TCP-payload equivalent.
    pub all_mcr_met: bool,
    pub ports: Vec<PortResult>,
    /// Payload fraction of the cell stream for full segments: mss / (cells · 53 B).
    pub payload_efficiency: f64,
    /// Cells transmitted on any port (cell-hops) and events processed.
    pub cell_hops: u64,
    pub events: u64,
    /// Occupancy samples per switch port (only when sampling was asked for; absent from
    /// `summary.json` otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub queue_series: Vec<QueueSeries>,
}

/// Occupancy of one switch port's buffer sampled every `interval_s` from t = 0: sample `k`
/// is the state at `k·interval_s` (after every event before that time).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueueSeries {
    /// "A->B"
    pub port: String,
    pub interval_s: f64,
    /// Cells in the buffer.
    pub total: Vec<u32>,
    /// Per VC (scenario order), cells of that VC in the buffer.
    pub per_vc: Vec<Vec<u32>>,
}

/// Verdicts of a channel's PCR check GCRA(1/PCR, CDVT) at the UNI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PcrCheckResult {
    pub cells: u64,
    pub conforming: u64,
    /// Discarded at the UNI (also counted under `pcr-nonconforming`).
    pub nonconforming: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VcResult {
    pub name: String,
    pub mcr_mbps: f64,
    /// Eq. (2) weight w_i, Mb/s of cells.
    pub weight_mbps: f64,
    /// w_i · payload efficiency: the fair share f_i of eq. (4) in TCP goodput.
    pub ideal_goodput_mbps: f64,
    /// MCR · payload efficiency.
    pub mcr_goodput_mbps: f64,
    pub goodput_mbps: f64,
    pub mcr_met: bool,
    /// Per TCP connection, Mb/s.
    pub connection_goodput_mbps: Vec<f64>,
    pub tcp_timeouts: u64,
    pub tcp_retransmits: u64,
    /// TCP counters over the measurement window [warmup, end) only.
    pub window: VcWindowResult,
    /// Forward channel (data) counters.
    pub data: ChannelResult,
    /// Reverse channel (ACK) counters.
    pub acks: ChannelResult,
}

/// A VC's TCP counters over the measurement window [warmup, end), summed over its
/// connections: where the cells a VC got through the bottleneck went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VcWindowResult {
    pub tcp_timeouts: u64,
    pub tcp_retransmits: u64,
    /// Data segments that reached the receivers (new, out of order or duplicate).
    pub segments_received: u64,
    /// Of those, segments carrying only bytes already received (spurious retransmissions:
    /// they used the bottleneck but add nothing to goodput).
    pub duplicate_segments: u64,
}

/// Counters of one direction of a VC over the whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ChannelResult {
    pub cells_sent: u64,
    pub cells_delivered: u64,
    pub cells_dropped_clp0: u64,
    pub cells_dropped_clp1: u64,
    pub cells_in_flight: u64,
    /// Cells tagged CLP=1 by F-GCRA at the UNI.
    pub cells_tagged: u64,
    pub cells_dropped_by_reason: BTreeMap<String, u64>,
    pub frames_sent: u64,
    pub frames_delivered: u64,
    /// Frames whose last cell was dropped in the network.
    pub frames_lost_in_network: u64,
    /// Frames whose last cell arrived but that reassembly discarded: a cell of theirs was
    /// lost (CRC/length check fails).
    pub frames_discarded_own_loss: u64,
    /// Frames with every cell delivered, discarded because reassembly had merged them with
    /// the remnant of a frame whose last cell was lost.
    pub frames_discarded_merged: u64,
    pub frames_in_flight: u64,
    /// The PCR check's verdicts (only for a VC with `cdvt`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pcr_check: Option<PcrCheckResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortResult {
    /// "A->B"
    pub name: String,
    pub cells_arrived: u64,
    pub cells_sent: u64,
    pub cells_dropped_clp0: u64,
    pub cells_dropped_clp1: u64,
    pub cells_dropped_by_reason: BTreeMap<String, u64>,
    pub cells_queued_at_end: u64,
    /// Frames refused at their first cell, per reason: [CLP=0, CLP=1] (the policy's counters).
    pub frames_refused_by_reason: BTreeMap<String, [u64; 2]>,
    /// Frames that lost a cell after some of theirs were accepted (PPD / overflow): [CLP=0, CLP=1].
    pub frames_partially_lost: [u64; 2],
    /// Frames whose every cell was accepted: [CLP=0, CLP=1].
    pub frames_complete: [u64; 2],
    pub max_occupancy: u32,
    /// Time-average occupancy over [warmup, end) (cells).
    pub mean_occupancy: f64,
    /// Cells whose transmission started in [warmup, end).
    pub cells_sent_window: u64,
    /// `cells_sent_window` over the cell slots of the window (window · rate / 424 bits):
    /// 1 − this is the fraction of the window the output link idled.
    pub utilization: f64,
}

/// Kim et al. eq. (4): (Σ x_i/f_i)² / (N · Σ (x_i/f_i)²) (Jain's index of the normalised
/// throughputs). 1 when every VC gets the same multiple of its fair share.
pub fn fairness_index(x: &[f64], f: &[f64]) -> f64 {
    let r: Vec<f64> = x.iter().zip(f).map(|(x, f)| x / f).collect();
    let s: f64 = r.iter().sum();
    let s2: f64 = r.iter().map(|v| v * v).sum();
    if s2 == 0.0 {
        return 0.0;
    }
    s * s / (r.len() as f64 * s2)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fairness_index_examples() {
        assert!((fairness_index(&[1.0, 2.0], &[1.0, 2.0]) - 1.0).abs() < 1e-12);
        // ratios 1 and 0: (1)^2 / (2 * 1) = 0.5
        assert!((fairness_index(&[1.0, 0.0], &[1.0, 1.0]) - 0.5).abs() < 1e-12);
        // ratios 1, 3: 16 / (2 * 10) = 0.8
        assert!((fairness_index(&[1.0, 6.0], &[1.0, 2.0]) - 0.8).abs() < 1e-12);
    }
}
