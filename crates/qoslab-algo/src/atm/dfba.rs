//! DFBA: Differential Fair Buffer Allocation (Goyal, Jain, Fahmy & Vandalore).
//!
//! # Source and what we could read of it
//! R. Goyal, R. Jain, S. Fahmy, B. Vandalore, "Buffer Management for the GFR Service",
//! ATM Forum/98-0405 (July 1998), moved into the TM baseline text as "VII.2.3 GFR
//! Implementation Using Differential Fair Buffer Allocation" by ATM Forum/98-0885R1 (1999).
//! Through the `search` tool we could read only the abstracts and the first lines of
//! VII.2.3 ("DFBA tries to keep the total buffer occupancy (X) between L and H. When X
//! falls below L …"); the rule body was not retrievable. The seed (§2) paraphrases it:
//! above LBO all tagged packets are discarded, above HBO all packets are discarded, and
//! between the two untagged packets are dropped probabilistically if the VC's buffer
//! occupancy is larger than its fair share.
//!
//! The rule below is the DFBA rule as published in the DFBA papers by Goyal et al. (1998)
//! and Goyal's thesis, **written down from our reading of those papers, not checked against
//! 98-0405 here** (flag for review). Variables: `X` total occupancy, `X_i` VC *i*'s
//! occupancy, `L` = LBO, `H` = HBO, `W_i` VC *i*'s weight (MCR-proportional),
//! `W = Σ W_j` over the active VCs, `Z_i ∈ (0, 1]` a per-VC scale of the drop probability,
//! `α ∈ [0, 1]` the mix between the VC's excess and the global load. At a frame's first
//! cell:
//!
//! * **(D1)** `X ≤ L`: accept (the buffer is under-loaded; tagged frames too).
//! * **(D2)** `L < X ≤ H`, CLP=1: drop the frame.
//! * **(D3)** `L < X ≤ H`, CLP=0 and `X_i > X·W_i/W` (above its fair share): drop with
//!   `P = Z_i·( α·(X_i − X·W_i/W) / (X·(1 − W_i/W)) + (1 − α)·(X − L)/(H − L) )`;
//!   otherwise accept.
//! * **(D4)** `X > H`: drop.
//!
//! # Choices we made (documented parameters)
//! * `W_i = MCR_i` (cells/s); only the ratio `W_i/W` enters, so scaling the weights by
//!   `C_GFR` (as in `W_i = MCR_i/C_GFR`) changes nothing.
//! * "Active" VCs ([`ActiveSet`]): `Backlogged` (default: VCs with cells in the buffer,
//!   plus the arriving VC) or all `Configured` VCs.
//! * When `W_i/W = 1` (the only active VC), `X_i ≤ X = X·W_i/W`, so (D3) never drops and
//!   the `0/0` of the first term never arises.
//! * `P` is clamped to `[0, 1]`; one uniform `u` is drawn per frame that reaches (D3)'s
//!   probabilistic branch, and the frame is dropped iff `u < P`.
//! * Decisions per frame at its first cell; PPD on overflow as for every policy.

use super::buffer::CellDropReason;
use super::cell::CellView;
use super::epd::check_lbo_hbo;
use crate::error::ConfigError;
use crate::rng::RandomSource;

const SOURCE: &str = "Goyal, Jain, Fahmy & Vandalore, ATM Forum/98-0405 (DFBA)";

/// Which VCs count as "active" when a scheme sums weights or counts VCs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ActiveSet {
    /// Every configured VC of the buffer.
    Configured,
    /// VCs with at least one cell in the buffer, plus the VC of the arriving cell.
    #[default]
    Backlogged,
}

/// DFBA settings. Thresholds in cells, rates in cells/s.
#[derive(Clone, Debug, PartialEq)]
pub struct DfbaParams {
    /// `L` (LBO).
    pub lbo: u32,
    /// `H` (HBO).
    pub hbo: u32,
    /// MCR per VC (cells/s, > 0), indexed by VC id; the weights `W_i`.
    pub mcr_cells_per_sec: Vec<f64>,
    /// `Z_i` in (0, 1]: one value for all VCs, or one per VC.
    pub z: Vec<f64>,
    /// `α` in [0, 1].
    pub alpha: f64,
    pub active: ActiveSet,
}

impl DfbaParams {
    pub(crate) fn validate(&self, capacity: u32, n_vcs: u32) -> Result<(), ConfigError> {
        check_lbo_hbo(self.lbo, self.hbo, capacity, SOURCE)?;
        check_mcrs(&self.mcr_cells_per_sec, n_vcs, SOURCE)?;
        if self.z.len() != 1 && self.z.len() != n_vcs as usize {
            return Err(ConfigError::relation(
                "one Z for all VCs or one Z per VC",
                SOURCE,
                format!("{} values of Z for {n_vcs} VCs", self.z.len()),
            ));
        }
        for &z in &self.z {
            if !(z > 0.0 && z <= 1.0) {
                return Err(ConfigError::out_of_range("dfba.z", z, "0 < Z <= 1"));
            }
        }
        if !(0.0..=1.0).contains(&self.alpha) {
            return Err(ConfigError::out_of_range(
                "dfba.alpha",
                self.alpha,
                "0 <= alpha <= 1",
            ));
        }
        Ok(())
    }

    fn z(&self, vc: usize) -> f64 {
        if self.z.len() == 1 {
            self.z[0]
        } else {
            self.z[vc]
        }
    }

    /// The DFBA drop probability of (D3) for a VC holding `xi` of `x` cells with weight
    /// share `share = W_i/W < 1` (see the module docs), clamped to [0, 1].
    pub fn drop_probability(&self, vc: usize, x: u32, xi: u32, share: f64) -> f64 {
        let (x, xi) = (x as f64, xi as f64);
        let fair = x * share;
        let excess = (xi - fair) / (x * (1.0 - share));
        let load = (x - self.lbo as f64) / (self.hbo as f64 - self.lbo as f64);
        (self.z(vc) * (self.alpha * excess + (1.0 - self.alpha) * load)).clamp(0.0, 1.0)
    }

    /// DFBA at a frame's first cell. `vc_occ` holds every VC's occupancy; `x` is their sum.
    pub(crate) fn admit_frame(
        &self,
        x: u32,
        vc_occ: &[u32],
        cell: &CellView,
        rng: &mut impl RandomSource,
    ) -> Result<(), CellDropReason> {
        // (D1) X ≤ L: accept everything.
        if x <= self.lbo {
            return Ok(());
        }
        // (D4) X > H: drop everything.
        if x > self.hbo {
            return Err(CellDropReason::HboAll);
        }
        // (D2) L < X ≤ H: tagged frames are dropped.
        if cell.clp {
            return Err(CellDropReason::LboTagged);
        }
        // (D3) untagged: probabilistic drop if above the MCR-weighted fair share X·W_i/W.
        let i = cell.vc as usize;
        let xi = vc_occ[i];
        let share = weight_share(&self.mcr_cells_per_sec, vc_occ, i, self.active);
        if share >= 1.0 || (xi as f64) <= x as f64 * share {
            return Ok(());
        }
        let p = self.drop_probability(i, x, xi, share);
        if rng.uniform() < p {
            Err(CellDropReason::DfbaProbabilistic)
        } else {
            Ok(())
        }
    }
}

/// `W_i / Σ_{j active} W_j` with the weights `w` (the arriving VC `i` is always active).
pub(crate) fn weight_share(w: &[f64], vc_occ: &[u32], i: usize, active: ActiveSet) -> f64 {
    let total: f64 = match active {
        ActiveSet::Configured => w.iter().sum(),
        ActiveSet::Backlogged => w
            .iter()
            .zip(vc_occ)
            .enumerate()
            .filter(|&(j, (_, &o))| o > 0 || j == i)
            .map(|(_, (&wj, _))| wj)
            .sum(),
    };
    w[i] / total
}

/// Every VC has a finite MCR > 0, one per VC.
pub(crate) fn check_mcrs(mcr: &[f64], n_vcs: u32, source: &'static str) -> Result<(), ConfigError> {
    if mcr.len() != n_vcs as usize {
        return Err(ConfigError::relation(
            "one MCR per VC",
            source,
            format!("{} MCR values for {n_vcs} VCs", mcr.len()),
        ));
    }
    for &m in mcr {
        if !(m.is_finite() && m > 0.0) {
            return Err(ConfigError::out_of_range(
                "mcr_cells_per_sec",
                m,
                "finite and > 0 cells/s",
            ));
        }
    }
    Ok(())
}
