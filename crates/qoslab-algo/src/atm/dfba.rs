//! DFBA: Differential Fair Buffer Allocation (Goyal, Jain, Fahmy & Vandalore).
//!
//! # Sources, and exactly what each gave us
//! * **[S1]** R. Goyal, R. Jain, S. Fahmy, B. Vandalore, M. Goyal, ATM Forum/98-0885R1
//!   (Feb. 1999), the text moved into the TM baseline as "VII.2.3 GFR Implementation Using
//!   Differential Fair Buffer Allocation" (stored copy of
//!   `www.cse.wustl.edu/~jain/atmf/ftp/atm98-0885r1.htm`, `pages` corpus of the `search`
//!   tool). Only the page's opening was returned; it states that DFBA uses the current queue
//!   length as its load indicator, that it allocates buffer capacity to the VCs **in
//!   proportion to their MCRs**, and: "DFBA tries to keep the total buffer occupancy (X)
//!   between L and H. When X falls below L …" (cut there; the variable table is an image).
//! * **[S2]** the seed (Kim et al. 2001) §2: above LBO every tagged frame is discarded,
//!   above HBO every frame; between the two, untagged frames are dropped "in a probabilistic
//!   manner if a VC has larger buffer occupancy than its fair share"; below LBO DFBA does not
//!   allocate fairly (everything is accepted).
//! * **[S3]** a peer implementation (read, not copied): luayats, `src/user/muxwfqbuffman.c`
//!   (`DFBA=1`, TU Dresden's YATS ATM simulator). Its drop probability for an untagged frame
//!   is exactly (D3) below, with `W_i/W` = the VC's MCR over the sum of **all configured**
//!   VCs' MCRs, `Z = 1`, `α = 0.5`; tagged frames are refused (EPD) from `X ≥ L`, every
//!   frame from `X ≥ H`; one uniform draw per frame, dropped iff `u ≤ P`.
//! * **[S4]** the authors' own slides presenting 98-0885R1 ("98-0885R1 Proposal To Move The
//!   DFBA Text To Baseline", Goyal, Jain, Fahmy, Vandalore, M. Goyal; stored transcript at
//!   `www.slideserve.com/lulu/98-0885r1-proposal-to-move-the-dfba-text-to-baseline`, `pages`
//!   corpus, read in session 7). Its slides give the whole rule: the variables (`W_i` =
//!   weight of VC *i* = `MCR_i/(GFR capacity)`, `W = Σ W_i`, `L` low and `H` high threshold,
//!   `X_i` per-VC occupancy, `X = Σ X_i`, `Z_i` a parameter in [0, 1]); the regions
//!   "`X ≤ L`: no loss" (accept all frames), "`X > L`: drop all CLP1", "`X > L` and
//!   `X_i > X·W_i/W`: probabilistic loss of CLP0", "`X > H`: EPD" (drop all); the
//!   region figure (the VC's normalised queue `X_i·W/W_i` against the total `X`): between
//!   L and H, below the diagonal `X_i·W/W_i = X` "drop all low priority, do not drop high
//!   priority", above it "drop all low priority, drop high priority with probability P";
//!   and `P{drop} = Z_i·(α·(X_i − X·W_i/W)/(X·(1 − W_i/W)) + (1 − α)·(X − L)/(H − L))`
//!   (the transcript keeps the formula's pieces, not its layout). **Every clause of
//!   (D1)–(D4) below is the slides' rule**; [S3] and the seed agree with it.
//! * Not readable here (tried: `search` in all four corpora with the scheme's name, its
//!   variables and phrases; `find_string` "DFBA", "Differential Fair Buffer Allocation"):
//!   the body of ATM Forum/98-0405 (only its abstract and header: `atm98-0405.txt` /
//!   `.htm`), /97-0831, the LCN'98 and Int. J. Satellite Commun. 2001 papers, Goyal's 1999
//!   thesis (abstracts).
//!
//! # The rule (variables of [S1]/[S3])
//! `X` total occupancy, `X_i` VC *i*'s occupancy, `L` = LBO, `H` = HBO, `W_i` VC *i*'s
//! weight (its MCR), `W = Σ W_j`, `Z_i ∈ (0, 1]` a per-VC scale of the drop probability,
//! `α ∈ [0, 1]` the mix between the VC's excess and the global load. At a frame's first
//! cell:
//!
//! * **(D1)** `X ≤ L`: accept (tagged frames too) [S1, S2, S3, S4 "no loss"].
//! * **(D2)** `L < X ≤ H`, CLP=1: drop the frame [S2, S3, S4 "drop all CLP1"].
//! * **(D3)** `L < X ≤ H`, CLP=0 and `X_i > X·W_i/W` (above its MCR-proportional share of
//!   the current *occupancy* `X`, not of the buffer size [S1, S2, S4]): drop with
//!   `P = Z_i·( α·(X_i − X·W_i/W) / (X·(1 − W_i/W)) + (1 − α)·(X − L)/(H − L) )` [S3, S4];
//!   otherwise accept (no draw) [S4 "do not drop high priority"].
//! * **(D4)** `X > H`: drop [S2, S3, S4 "EPD"].
//!
//! # Choices where the sources differ or are silent (documented parameters)
//! * Boundaries: [S2] says "exceeds LBO/HBO" and [S4] "`X > L`", "`X > H`" (so `X = L` is
//!   still (D1), `X = H` still (D2)/(D3)); [S3] switches at `X ≥ L` and `X ≥ H`. We follow
//!   [S2] and [S4]; the difference is one cell of occupancy.
//! * The trigger of (D3): [S3] compares `X_i` with the *equal* share `X/N` while its own
//!   formula uses the MCR-weighted share; we use the weighted share `X·W_i/W` in both places,
//!   as [S1] ("proportional to the MCRs") and [S2] ("its fair share") say.
//! * `W_i = MCR_i` (cells/s); only the ratio `W_i/W` enters, so scaling the weights by
//!   `C_GFR` ([S4]: `W_i = MCR_i/(GFR capacity)`) changes nothing.
//! * Which VCs make up `W` ([`ActiveSet`]): `Configured` (every VC of the buffer: [S3], and
//!   [S4]'s `W = Σ W_i` names no restriction; the engine's choice) or `Backlogged` (VCs with cells
//!   in the buffer, plus the arriving VC; a knob).
//! * When `W_i/W = 1` (the only VC counted), `X_i ≤ X = X·W_i/W`, so (D3) never drops and
//!   the `0/0` of the first term never arises.
//! * `P` is clamped to `[0, 1]`; one uniform `u ∈ [0, 1)` is drawn per frame that reaches
//!   (D3)'s probabilistic branch, and the frame is dropped iff `u < P` ([S3]: `u ≤ P`; the
//!   two differ on a set of probability zero).
//! * `Z_i` and `α` are not given by Kim et al. nor in [S4]; [S3] uses `Z = 1`, `α = 0.5`.
//!   They are parameters here (the reproduction's values are in its notes). [S4] allows
//!   `Z_i = 0` (no probabilistic drop: DFBA is then Double-EPD); we refuse it, since that
//!   is the `double-epd` policy.
//! * Decisions per frame at its first cell ([S4]: "`X > H`: EPD", a frame-level discard);
//!   PPD on overflow as for every policy.

use super::buffer::CellDropReason;
use super::cell::CellView;
use super::epd::check_lbo_hbo;
use crate::error::ConfigError;
use crate::rng::RandomSource;

const SOURCE: &str = "Goyal, Jain, Fahmy & Vandalore, DFBA (ATM Forum/98-0405, 98-0885R1)";

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
        // (D3) [S3]: P = Z_i·(α·(X_i − X·W_i/W)/(X·(1 − W_i/W)) + (1 − α)·(X − L)/(H − L)).
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
        // (D1) X ≤ L: accept everything [S1 "falls below L", S2, S3, S4 "no loss"].
        if x <= self.lbo {
            return Ok(());
        }
        // (D4) X > H: drop everything [S2 "exceeds HBO", S3, S4 "X > H: EPD"].
        if x > self.hbo {
            return Err(CellDropReason::HboAll);
        }
        // (D2) L < X ≤ H: tagged frames are dropped [S2 "exceeds LBO", S3, S4 "drop all CLP1"].
        if cell.clp {
            return Err(CellDropReason::LboTagged);
        }
        // (D3) untagged: probabilistic drop if above the MCR-weighted fair share X·W_i/W
        // [S1 "proportional to the MCRs", S2 "larger … than its fair share"].
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
