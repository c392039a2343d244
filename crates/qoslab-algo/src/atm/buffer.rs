//! `GfrBuffer`: the occupancy accounting and frame state of a shared FIFO cell buffer at a
//! switch output port, with the GFR buffer-acceptance policies.
//!
//! The engine owns the FIFO of cells; this type owns the decisions: call
//! [`GfrBuffer::on_arrival`] for every arriving cell (an [`CellVerdict::Accept`] means the
//! engine must enqueue it, and occupancy has grown by one) and [`GfrBuffer::on_departure`]
//! when a cell leaves the FIFO for the link.
//!
//! # Frame handling common to all policies
//! * A frame starts at a cell with `first_of_frame` (or at any cell of a VC with no open
//!   frame) and ends at its `last_of_frame` cell.
//! * Frame-level policies (EPD, Double-EPD, DFBA, Kim et al.) decide at the first cell; a
//!   refused frame has **all** its cells dropped, end-of-frame cell included (nothing of it
//!   is queued, so the reassembler needs no delimiter), with the refusing reason.
//! * **Overflow**: a cell that finds the buffer full (`occupancy = capacity`) is dropped as
//!   [`CellDropReason::BufferFull`].
//! * **PPD** (Partial Packet Discard, Armitage & Adams 1993; Romanow & Floyd 1995 §IV): after
//!   a cell of a frame is lost to overflow, the rest of that frame is dropped as
//!   [`CellDropReason::PartialPacketDiscard`] — **except the end-of-frame cell, which is kept
//!   (if there is room) when an earlier cell of the frame was queued**, so the AAL5
//!   reassembler can delimit the corrupted frame and the next frame is not merged into it
//!   (the usual PPD choice). Every policy but [`BufferPolicy::TailDrop`] applies PPD.
//! * [`BufferPolicy::TailDrop`] is plain cell-level tail drop: each cell independently,
//!   no PPD; [`BufferPolicy::TailDropPpd`] is tail drop plus PPD.
//!
//! Occupancy is counted in cells; thresholds compare the occupancy *before* the arriving
//! cell; `vc` must be `< n_vcs` (a larger id is dropped as [`CellDropReason::UnknownVc`]).

use super::cell::CellView;
use super::dfba::DfbaParams;
use super::dynamic_threshold::{DynamicThresholdParams, RateState};
use super::epd::{DoubleEpdParams, EpdParams};
use crate::error::ConfigError;
use crate::rng::RandomSource;
use crate::time::Time;

/// The buffer-acceptance policy (a closed enum: static dispatch).
#[derive(Clone, Debug, PartialEq)]
pub enum BufferPolicy {
    /// Cell-level tail drop, no PPD.
    TailDrop,
    /// Cell-level tail drop with PPD (extra variant beyond the agreed API).
    TailDropPpd,
    /// Romanow–Floyd EPD (with PPD).
    Epd(EpdParams),
    /// Guérin–Heinanen Double-EPD (with PPD).
    DoubleEpd(DoubleEpdParams),
    /// Goyal et al. DFBA (with PPD).
    Dfba(DfbaParams),
    /// Kim et al.'s dynamic threshold and service-rate scheme (with PPD).
    DynamicThreshold(DynamicThresholdParams),
}

impl BufferPolicy {
    pub fn name(&self) -> &'static str {
        match self {
            BufferPolicy::TailDrop => "tail-drop",
            BufferPolicy::TailDropPpd => "tail-drop+ppd",
            BufferPolicy::Epd(_) => "epd",
            BufferPolicy::DoubleEpd(_) => "double-epd",
            BufferPolicy::Dfba(_) => "dfba",
            BufferPolicy::DynamicThreshold(_) => "dynamic-threshold",
        }
    }
    fn ppd(&self) -> bool {
        !matches!(self, BufferPolicy::TailDrop)
    }
}

/// The decision for one arriving cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellVerdict {
    /// Enqueue it (occupancy has been increased by one).
    Accept,
    Drop(CellDropReason),
}

/// Why a cell was dropped; one reason per policy rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellDropReason {
    /// The buffer was full (overflow).
    BufferFull,
    /// EPD refused the frame at its first cell (occupancy > threshold).
    EpdFrame,
    /// The rest of a frame after one of its cells was lost (PPD).
    PartialPacketDiscard,
    /// A CLP=1 frame refused above LBO (Double-EPD; DFBA rule D2).
    LboTagged,
    /// Any frame refused above HBO (Double-EPD; DFBA D4; Kim et al. K4).
    HboAll,
    /// DFBA's probabilistic drop between LBO and HBO (rule D3).
    DfbaProbabilistic,
    /// Kim et al. §3.2, CLP=1 frame (rules K1/K2).
    DynamicThresholdTagged,
    /// Kim et al. §3.2, CLP=0 frame (rule K3).
    DynamicThresholdUntagged,
    /// The cell's VC id is not configured in this buffer.
    UnknownVc,
}

/// Number of [`CellDropReason`]s.
pub const N_DROP_REASONS: usize = 9;

impl CellDropReason {
    pub const ALL: [CellDropReason; N_DROP_REASONS] = [
        CellDropReason::BufferFull,
        CellDropReason::EpdFrame,
        CellDropReason::PartialPacketDiscard,
        CellDropReason::LboTagged,
        CellDropReason::HboAll,
        CellDropReason::DfbaProbabilistic,
        CellDropReason::DynamicThresholdTagged,
        CellDropReason::DynamicThresholdUntagged,
        CellDropReason::UnknownVc,
    ];
    pub const fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            CellDropReason::BufferFull => "buffer-full",
            CellDropReason::EpdFrame => "epd",
            CellDropReason::PartialPacketDiscard => "ppd",
            CellDropReason::LboTagged => "lbo-tagged",
            CellDropReason::HboAll => "hbo",
            CellDropReason::DfbaProbabilistic => "dfba-probabilistic",
            CellDropReason::DynamicThresholdTagged => "dt-tagged",
            CellDropReason::DynamicThresholdUntagged => "dt-untagged",
            CellDropReason::UnknownVc => "unknown-vc",
        }
    }
}

/// Counters of one VC. Arrays `[_; 2]` are indexed by CLP (0 = CLP=0, 1 = CLP=1); a frame's
/// CLP is that of its first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VcBufferCounters {
    pub arrived_cells: [u64; 2],
    pub accepted_cells: [u64; 2],
    pub departed_cells: u64,
    /// Dropped cells per reason ([`CellDropReason::index`]) and CLP.
    pub dropped_cells: [[u64; 2]; N_DROP_REASONS],
    pub arrived_frames: [u64; 2],
    /// Frames whose first cell was dropped, per reason and CLP.
    pub refused_frames: [[u64; 2]; N_DROP_REASONS],
    /// Frames that lost a cell after at least one of their cells was accepted.
    pub partially_lost_frames: [u64; 2],
    /// Frames whose every cell was accepted (counted at the end-of-frame cell).
    pub complete_frames: [u64; 2],
}

impl VcBufferCounters {
    pub fn dropped(&self, r: CellDropReason) -> u64 {
        self.dropped_cells[r.index()].iter().sum()
    }
    pub fn dropped_total(&self) -> u64 {
        self.dropped_cells.iter().flatten().sum()
    }
    pub fn accepted_total(&self) -> u64 {
        self.accepted_cells.iter().sum()
    }
    pub fn arrived_total(&self) -> u64 {
        self.arrived_cells.iter().sum()
    }
    fn add(&mut self, o: &VcBufferCounters) {
        for k in 0..2 {
            self.arrived_cells[k] += o.arrived_cells[k];
            self.accepted_cells[k] += o.accepted_cells[k];
            self.arrived_frames[k] += o.arrived_frames[k];
            self.partially_lost_frames[k] += o.partially_lost_frames[k];
            self.complete_frames[k] += o.complete_frames[k];
            for r in 0..N_DROP_REASONS {
                self.dropped_cells[r][k] += o.dropped_cells[r][k];
                self.refused_frames[r][k] += o.refused_frames[r][k];
            }
        }
        self.departed_cells += o.departed_cells;
    }
}

/// Counters of a [`GfrBuffer`]: per VC, plus the events that belong to no configured VC.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BufferCounters {
    pub per_vc: Vec<VcBufferCounters>,
    /// Cells of unknown VCs (all dropped as [`CellDropReason::UnknownVc`]).
    pub unknown_vc_cells: u64,
    /// `on_departure` calls for a VC with no cell in the buffer (an engine bug; ignored).
    pub spurious_departures: u64,
}

impl BufferCounters {
    /// The sum over all VCs.
    pub fn total(&self) -> VcBufferCounters {
        let mut t = VcBufferCounters::default();
        for c in &self.per_vc {
            t.add(c);
        }
        t
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameState {
    /// No frame open: the next cell starts one.
    Idle,
    /// The frame is being accepted cell by cell.
    Accepting,
    /// The rest of the frame is dropped with `reason`; `keep_eom`: accept its last cell.
    Discarding {
        reason: CellDropReason,
        keep_eom: bool,
    },
}

#[derive(Clone, Copy, Debug)]
struct VcState {
    frame: FrameState,
    frame_clp: bool,
    /// Some cell of the open frame was accepted / lost.
    accepted_any: bool,
    lost_any: bool,
}

impl Default for VcState {
    fn default() -> Self {
        VcState {
            frame: FrameState::Idle,
            frame_clp: false,
            accepted_any: false,
            lost_any: false,
        }
    }
}

/// A shared FIFO cell buffer's accounting and acceptance policy (see the module docs).
#[derive(Clone, Debug)]
pub struct GfrBuffer {
    capacity: u32,
    policy: BufferPolicy,
    occupancy: u32,
    vc_occ: Vec<u32>,
    vcs: Vec<VcState>,
    /// Kim et al.'s per-VC rate estimates (empty for other policies).
    rates: Vec<RateState>,
    counters: BufferCounters,
}

impl GfrBuffer {
    /// A buffer of `capacity_cells` cells shared by VCs `0..n_vcs`.
    pub fn new(capacity_cells: u32, n_vcs: u32, policy: BufferPolicy) -> Result<Self, ConfigError> {
        if capacity_cells == 0 {
            return Err(ConfigError::out_of_range("capacity_cells", 0, ">= 1 cell"));
        }
        if n_vcs == 0 {
            return Err(ConfigError::out_of_range("n_vcs", 0, ">= 1"));
        }
        match &policy {
            BufferPolicy::TailDrop | BufferPolicy::TailDropPpd => {}
            BufferPolicy::Epd(p) => p.validate(capacity_cells)?,
            BufferPolicy::DoubleEpd(p) => p.validate(capacity_cells)?,
            BufferPolicy::Dfba(p) => p.validate(capacity_cells, n_vcs)?,
            BufferPolicy::DynamicThreshold(p) => p.validate(capacity_cells, n_vcs)?,
        }
        let n = n_vcs as usize;
        let rates = match &policy {
            BufferPolicy::DynamicThreshold(p) => vec![
                RateState {
                    r: p.initial_rate,
                    ..RateState::default()
                };
                n
            ],
            _ => Vec::new(),
        };
        Ok(GfrBuffer {
            capacity: capacity_cells,
            policy,
            occupancy: 0,
            vc_occ: vec![0; n],
            vcs: vec![VcState::default(); n],
            rates,
            counters: BufferCounters {
                per_vc: vec![VcBufferCounters::default(); n],
                ..BufferCounters::default()
            },
        })
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }
    pub fn n_vcs(&self) -> u32 {
        self.vc_occ.len() as u32
    }
    pub fn policy(&self) -> &BufferPolicy {
        &self.policy
    }
    /// Cells in the buffer.
    pub fn occupancy(&self) -> u32 {
        self.occupancy
    }
    /// Cells of `vc` in the buffer (0 for an unknown VC).
    pub fn vc_occupancy(&self, vc: u32) -> u32 {
        self.vc_occ.get(vc as usize).copied().unwrap_or(0)
    }
    pub fn counters(&self) -> &BufferCounters {
        &self.counters
    }
    /// Kim et al.'s `r_i` (cells/s) for `vc`, if the policy is the dynamic-threshold scheme.
    pub fn rate_estimate(&self, vc: u32) -> Option<f64> {
        self.rates.get(vc as usize).map(|s| s.r)
    }

    /// A cell arrives at `now`. On `Accept` the occupancy has grown by one and the engine
    /// must enqueue the cell.
    pub fn on_arrival(
        &mut self,
        now: Time,
        cell: CellView,
        rng: &mut impl RandomSource,
    ) -> CellVerdict {
        let i = cell.vc as usize;
        if i >= self.vcs.len() {
            self.counters.unknown_vc_cells += 1;
            return CellVerdict::Drop(CellDropReason::UnknownVc);
        }
        let clp = cell.clp as usize;
        self.counters.per_vc[i].arrived_cells[clp] += 1;
        let st = self.vcs[i];
        let starts = cell.first_of_frame || st.frame == FrameState::Idle;
        if let Some(r) = self.rates.get_mut(i) {
            if let BufferPolicy::DynamicThreshold(p) = &self.policy {
                r.on_cell(p, now, &cell, starts);
            }
        }

        if starts {
            let v = &mut self.vcs[i];
            v.frame_clp = cell.clp;
            v.accepted_any = false;
            v.lost_any = false;
            v.frame = FrameState::Accepting;
            self.counters.per_vc[i].arrived_frames[clp] += 1;
            if let Err(reason) = self.admit_frame(&cell, rng) {
                let fclp = cell.clp as usize;
                self.counters.per_vc[i].refused_frames[reason.index()][fclp] += 1;
                let v = &mut self.vcs[i];
                v.lost_any = true;
                v.frame = FrameState::Discarding {
                    reason,
                    keep_eom: false,
                };
                return self.drop_cell(i, &cell, reason);
            }
        } else if let FrameState::Discarding { reason, keep_eom } = st.frame {
            if !(cell.last_of_frame && keep_eom && self.occupancy < self.capacity) {
                return self.drop_cell(i, &cell, reason);
            }
            // PPD keeps the end-of-frame cell of a frame that has cells queued.
            return self.accept(i, &cell);
        }

        // The frame is being accepted: only overflow can stop this cell.
        if self.occupancy >= self.capacity {
            let v = &mut self.vcs[i];
            let fclp = v.frame_clp as usize;
            if starts {
                self.counters.per_vc[i].refused_frames[CellDropReason::BufferFull.index()][fclp] +=
                    1;
            } else if v.accepted_any && !v.lost_any {
                self.counters.per_vc[i].partially_lost_frames[fclp] += 1;
            }
            v.lost_any = true;
            if self.policy.ppd() {
                // PPD: drop the rest of the frame (keeping its end if cells of it are queued).
                v.frame = FrameState::Discarding {
                    reason: CellDropReason::PartialPacketDiscard,
                    keep_eom: v.accepted_any,
                };
            }
            return self.drop_cell(i, &cell, CellDropReason::BufferFull);
        }
        self.accept(i, &cell)
    }

    /// The engine sent a cell of `vc` from the buffer.
    pub fn on_departure(&mut self, _now: Time, vc: u32) {
        match self.vc_occ.get_mut(vc as usize) {
            Some(o) if *o > 0 => {
                *o -= 1;
                self.occupancy -= 1;
                self.counters.per_vc[vc as usize].departed_cells += 1;
            }
            _ => self.counters.spurious_departures += 1,
        }
    }

    fn accept(&mut self, i: usize, cell: &CellView) -> CellVerdict {
        self.occupancy += 1;
        self.vc_occ[i] += 1;
        let c = &mut self.counters.per_vc[i];
        c.accepted_cells[cell.clp as usize] += 1;
        let v = &mut self.vcs[i];
        v.accepted_any = true;
        if cell.last_of_frame {
            if !v.lost_any {
                c.complete_frames[v.frame_clp as usize] += 1;
            }
            v.frame = FrameState::Idle;
        }
        CellVerdict::Accept
    }

    fn drop_cell(&mut self, i: usize, cell: &CellView, reason: CellDropReason) -> CellVerdict {
        self.counters.per_vc[i].dropped_cells[reason.index()][cell.clp as usize] += 1;
        if cell.last_of_frame {
            self.vcs[i].frame = FrameState::Idle;
        }
        CellVerdict::Drop(reason)
    }

    /// The policy's frame decision at a first cell (occupancy counted before the cell).
    fn admit_frame(
        &self,
        cell: &CellView,
        rng: &mut impl RandomSource,
    ) -> Result<(), CellDropReason> {
        let x = self.occupancy;
        match &self.policy {
            BufferPolicy::TailDrop | BufferPolicy::TailDropPpd => Ok(()),
            BufferPolicy::Epd(p) => p.admit_frame(x),
            BufferPolicy::DoubleEpd(p) => p.admit_frame(x, cell),
            BufferPolicy::Dfba(p) => p.admit_frame(x, &self.vc_occ, cell, rng),
            BufferPolicy::DynamicThreshold(p) => {
                let r = self.rates[cell.vc as usize].r;
                p.admit_frame(x, &self.vc_occ, cell, r)
            }
        }
    }
}
