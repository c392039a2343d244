//! Kim, Choi, Chung & Chon's buffer management for GFR: a dynamic per-VC threshold and a
//! per-VC service-rate estimate over one FIFO ("New Buffer Management Scheme to Support
//! TCP/IP Traffic over ATM GFR service", the seed paper, §3).
//!
//! # The rules (seed §3.1–3.2)
//! * Eq. (1): `Th_i = w_i / C_GFR × min(max(QT, LBO), HBO)` (cells), `QT` the total buffer
//!   occupancy.
//! * Eq. (2): `w_i = MCR_i + (C_GFR − Σ_{j=1..N} MCR_j) / N` (MCR plus an equal share of the
//!   unreserved GFR capacity).
//! * Eq. (3): `r_i ← (1 − α)·I_i^k / T_i^k + α·r_i`, `0 < α ≪ 1`.
//! * §3.2, at a frame's first cell (`X_i` = VC *i*'s occupancy):
//!   - **(K1)** CLP=1, `QT ≤ LBO`: drop if `X_i > Th_i` and `r_i > w_i`;
//!   - **(K2)** CLP=1, `QT > LBO`: drop if `X_i > Th_i`;
//!   - **(K3)** CLP=0, `QT ≤ HBO`: drop if `r_i > w_i` and `X_i > Th_i`;
//!   - **(K4)** `QT > HBO`: drop every frame ("as like Double-EPD").
//!
//! # Choices the paper leaves open (each is a parameter or written here)
//! * **Units**: `w_i`, `MCR_i`, `C_GFR` and `r_i` are all in cells/s, so `r_i > w_i` compares
//!   like with like; `Th_i`, `QT`, `X_i`, LBO, HBO are in cells.
//! * **Decisions per frame** at its first cell (the paper speaks of "packets"); the rest of
//!   an accepted frame is dropped only by overflow and then PPD (see
//!   [`buffer`](super::buffer)).
//! * **When `r_i` is updated** ([`RateSample`]): a cell switch does not know a frame's length
//!   `I_i^k` at its first cell. Default `PreviousFrame`: at the first cell of frame *k*,
//!   `I` = cells of frame *k−1* that arrived (accepted or not) and `T` = time between the
//!   first cells of frames *k−1* and *k*; i.e. the rate of the VC's last inter-frame
//!   interval, then the decision uses the updated `r_i`. The first frame of a VC updates
//!   nothing (`r_i` starts at `initial_rate`, default 0); `T = 0` updates nothing.
//!   Alternative `AtEndOfFrame`: at the end-of-frame cell of frame *k*, `I` = its cells,
//!   `T` = time since the first cell of frame *k−1* (`I_i^k` exactly as in eq. 3, used from
//!   frame *k+1* on).
//! * **N and ΣMCR in eq. (2)** ([`ActiveSet`]): default `Configured` (the paper: "N is the
//!   number of GFR VC"); `Backlogged` counts the VCs with cells queued plus the arriving one,
//!   and sums their MCRs only.
//! * **"exceeds"** is strict (`>`), occupancies counted before the arriving cell.

use super::buffer::CellDropReason;
use super::cell::CellView;
use super::dfba::{check_mcrs, ActiveSet};
use super::epd::check_lbo_hbo;
use crate::error::ConfigError;
use crate::time::Time;

const SOURCE: &str = "Kim, Choi, Chung & Chon, GFR buffer management, §3";

/// When the service-rate estimate of eq. (3) takes a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RateSample {
    /// At a frame's first cell: previous frame's cells over the time between first cells.
    #[default]
    PreviousFrame,
    /// At a frame's last cell: its cells over the time since the previous frame's first cell.
    AtEndOfFrame,
}

/// Settings of Kim et al.'s scheme.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicThresholdParams {
    pub lbo: u32,
    pub hbo: u32,
    /// `C_GFR`, the capacity allocated to GFR (cells/s).
    pub c_gfr_cells_per_sec: f64,
    /// `MCR_i` per VC (cells/s), indexed by VC id.
    pub mcr_cells_per_sec: Vec<f64>,
    /// `α` of eq. (3), `0 < α < 1`.
    pub alpha: f64,
    /// `N` and the `ΣMCR` of eq. (2).
    pub n_counts: ActiveSet,
    pub rate_sample: RateSample,
    /// `r_i` before the first sample (cells/s, ≥ 0).
    pub initial_rate: f64,
}

impl DynamicThresholdParams {
    pub(crate) fn validate(&self, capacity: u32, n_vcs: u32) -> Result<(), ConfigError> {
        check_lbo_hbo(self.lbo, self.hbo, capacity, SOURCE)?;
        check_mcrs(&self.mcr_cells_per_sec, n_vcs, SOURCE)?;
        let c = self.c_gfr_cells_per_sec;
        if !(c.is_finite() && c > 0.0) {
            return Err(ConfigError::out_of_range(
                "c_gfr_cells_per_sec",
                c,
                "finite and > 0",
            ));
        }
        let sum: f64 = self.mcr_cells_per_sec.iter().sum();
        if sum > c {
            return Err(ConfigError::relation(
                "sum of MCR_i <= C_GFR",
                SOURCE,
                format!("sum of MCRs {sum} cells/s > C_GFR {c} cells/s"),
            ));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(ConfigError::out_of_range(
                "alpha",
                self.alpha,
                "0 < alpha < 1 (eq. 3)",
            ));
        }
        if !(self.initial_rate.is_finite() && self.initial_rate >= 0.0) {
            return Err(ConfigError::out_of_range(
                "initial_rate",
                self.initial_rate,
                "finite and >= 0 cells/s",
            ));
        }
        Ok(())
    }

    /// Eq. (2): `w_i = MCR_i + (C_GFR − Σ MCR_j)/N` over the VCs `n_counts` selects.
    pub fn weight(&self, vc_occ: &[u32], i: usize) -> f64 {
        let (sum, n) = match self.n_counts {
            ActiveSet::Configured => (
                self.mcr_cells_per_sec.iter().sum::<f64>(),
                self.mcr_cells_per_sec.len(),
            ),
            ActiveSet::Backlogged => {
                let mut sum = 0.0;
                let mut n = 0usize;
                for (j, (&m, &o)) in self.mcr_cells_per_sec.iter().zip(vc_occ).enumerate() {
                    if o > 0 || j == i {
                        sum += m;
                        n += 1;
                    }
                }
                (sum, n)
            }
        };
        self.mcr_cells_per_sec[i] + (self.c_gfr_cells_per_sec - sum) / n as f64
    }

    /// Eq. (1): `Th_i = w_i / C_GFR × min(max(QT, LBO), HBO)` in cells.
    pub fn threshold(&self, w_i: f64, qt: u32) -> f64 {
        w_i / self.c_gfr_cells_per_sec * qt.max(self.lbo).min(self.hbo) as f64
    }
}

/// Per-VC state of eq. (3): the estimate and what the next sample needs.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub(crate) struct RateState {
    /// `r_i` (cells/s).
    pub r: f64,
    /// First-cell time of the current frame and of the one before.
    pub cur_start: Option<Time>,
    pub prev_start: Option<Time>,
    /// Cells of the current frame so far.
    pub cur_cells: u32,
}

impl RateState {
    fn sample(&mut self, alpha: f64, cells: u32, since: Option<Time>, now: Time) {
        if let Some(t0) = since {
            let dt = now.saturating_since(t0).as_nanos();
            if dt > 0 {
                // Eq. (3): r ← (1 − α)·I/T + α·r, I in cells, T in s.
                let inst = cells as f64 * 1e9 / dt as f64;
                self.r = (1.0 - alpha) * inst + alpha * self.r;
            }
        }
    }

    /// A cell of this VC arrived (before the admission decision).
    pub fn on_cell(
        &mut self,
        p: &DynamicThresholdParams,
        now: Time,
        cell: &CellView,
        starts: bool,
    ) {
        if starts {
            if p.rate_sample == RateSample::PreviousFrame {
                self.sample(p.alpha, self.cur_cells, self.cur_start, now);
            }
            self.prev_start = self.cur_start;
            self.cur_start = Some(now);
            self.cur_cells = 0;
        }
        self.cur_cells = self.cur_cells.saturating_add(1);
        if cell.last_of_frame && p.rate_sample == RateSample::AtEndOfFrame {
            let since = self.prev_start;
            self.sample(p.alpha, self.cur_cells, since, now);
        }
    }
}

impl DynamicThresholdParams {
    /// §3.2 at a frame's first cell. `r_i` is the VC's current estimate.
    pub(crate) fn admit_frame(
        &self,
        qt: u32,
        vc_occ: &[u32],
        cell: &CellView,
        r_i: f64,
    ) -> Result<(), CellDropReason> {
        // (K4) "If buffer occupancy exceeds HBO, all incoming packets are dropped."
        if qt > self.hbo {
            return Err(CellDropReason::HboAll);
        }
        let i = cell.vc as usize;
        let w_i = self.weight(vc_occ, i);
        let th_i = self.threshold(w_i, qt);
        let over_th = vc_occ[i] as f64 > th_i;
        let over_rate = r_i > w_i;
        if cell.clp {
            // (K1) QT ≤ LBO: X_i > Th_i and r_i > w_i; (K2) QT > LBO: X_i > Th_i.
            let drop = if qt <= self.lbo {
                over_th && over_rate
            } else {
                over_th
            };
            if drop {
                return Err(CellDropReason::DynamicThresholdTagged);
            }
        } else if over_rate && over_th {
            // (K3) untagged, QT ≤ HBO: r_i > w_i and X_i > Th_i.
            return Err(CellDropReason::DynamicThresholdUntagged);
        }
        Ok(())
    }
}
