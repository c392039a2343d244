//! F-GCRA(T, f): the frame-based GCRA of the GFR conformance definitions.
//!
//! # Source and what we could verify of it
//! ITU-T I.371.1 (11/2000), "Guaranteed Frame Rate ATM Transfer Capability": §6.3
//! "Conformance definition and QoS commitments" with §6.3.1 "Cell conformance", §6.3.2
//! "Frame conformance and F-GCRA(T,τ)", §6.3.4 "UPC/NPC actions", and Appendix I
//! "Additional material related to the F-GCRA". These clause numbers and titles are
//! verified: we read them in the recommendation's table of contents (itu.int, through the
//! `search` tool). The clause *bodies* were not readable there. The ATM Forum's text of the
//! same algorithm is TM 4.1 (AF-TM-0121.000, 1999), service category GFR with conformance
//! definitions GFR.1 and GFR.2; its clause numbers could **not** be verified (no copy of TM
//! 4.1 or of its table of contents is in the searchable corpora; an earlier version of this
//! code cited "§4.5.7", which we could not confirm and have removed). A peer simulator
//! (luayats, `src/user/lbframe.c`) cites "TM 4.1, Appendix VI, p. 98" for the F-GCRA; we
//! could not check that either, so we do not cite it as fact.
//!
//! F-GCRA(T, f) has `T = 1/MCR` and `f = BT + CDVT` and decides which frames are
//! *eligible* for the MCR guarantee. The algorithm below is the F-GCRA as it is universally
//! restated (e.g. by the GFR papers the seed cites; the peer simulator's continuous-state
//! form decides the same frames); the clause labels used in the comments are ours:
//!
//! * **(F1) first cell of a frame** at time `ta`: the frame is *eligible* iff its cells are
//!   CLP=0 and `ta ≥ TAT − f` (not early); if eligible, `TAT ← max(ta, TAT) + T`.
//! * **(F2) every further cell** of an eligible frame: `TAT ← TAT + T`. Cells of an
//!   ineligible frame leave `TAT` unchanged.
//!
//! So a whole frame is judged at its first cell, and "frame conforms" means its *cells*
//! fit the MCR contract with tolerance `f`.
//!
//! GFR.2 vs GFR.1 ([`GfrConformance`]): under GFR.2 the network **tags** (sets CLP=1 on)
//! every cell of a frame the F-GCRA finds ineligible, so switches can tell eligible frames
//! by CLP alone (the seed, §3: "supports GFR service according to GFR.2"). Under GFR.1 the
//! network does not tag; it must identify eligible frames itself, and the verdict is
//! [`FGcraVerdict::Ineligible`].
//!
//! # Cell conformance (outside the F-GCRA proper)
//! GFR conformance also requires that a frame has at most MFS cells and that all cells of a
//! frame carry the same CLP (I.371.1 §6.3.1–§6.3.2: which of the two clauses states which
//! rule we could not read). We check both here, per cell, because they are
//! per-frame facts the F-GCRA's state already tracks:
//! * the cells after the MFS-th cell of a frame are [`FGcraVerdict::NonConforming`]
//!   (the first MFS cells keep the frame's verdict: we cannot know at the first cell that a
//!   frame will be too long). Non-conforming cells do not advance `TAT`.
//! * a cell whose CLP differs from the frame's first cell is `NonConforming`.
//!
//! The PCR cell check GCRA(1/PCR, CDVT) (I.371.1 §6.3.1) is [`super::Gcra`], not part of
//! this type.
//!
//! # Exact time (an open choice, documented)
//! `T = 1/MCR` is generally not a whole number of nanoseconds. With `MCR = num/den` cells/s
//! ([`CellRate`]), every time is kept in the unit "ns × num": `ta` is `ta_ns·num`, `T` is
//! exactly `den·10⁹`, `f` is `f_ns·num`. Comparisons and updates are then exact integer
//! operations in `u128`; nothing is rounded.
//!
//! Time is expected to be non-decreasing; the state starts at `TAT = 0`, so the first frame
//! is eligible. A `first_of_frame` cell while a frame is open starts a new frame (the
//! previous end-of-frame cell was lost upstream); a continuation cell with no open frame is
//! treated as the first cell of a frame.

use super::cell::{CellRate, CellView};
use crate::error::ConfigError;
use crate::time::{Duration, Time};

const NS_PER_SEC: u128 = 1_000_000_000;

/// Which GFR conformance definition the network applies (TM 4.1's GFR.1 / GFR.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GfrConformance {
    /// GFR.1: the network does not tag ineligible frames.
    Gfr1,
    /// GFR.2: the network tags (CLP=1) every cell of an ineligible frame.
    #[default]
    Gfr2,
}

/// Settings of one VC's F-GCRA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FGcraParams {
    /// The MCR; `T = 1/MCR`.
    pub mcr: CellRate,
    /// `f = BT + CDVT` (the burst tolerance implied by MBS plus the CDV tolerance).
    pub tolerance: Duration,
    /// Maximum frame size in cells (MFS in cells, ≥ 1).
    pub mfs_cells: u32,
    pub conformance: GfrConformance,
}

/// The per-cell decision of the F-GCRA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FGcraVerdict {
    /// The cell's frame is eligible (CLP=0 and in the MCR contract): pass it unchanged.
    Eligible,
    /// GFR.2: the frame is ineligible; pass the cell with CLP set to 1. Also returned for
    /// frames that arrive already tagged (setting CLP=1 again changes nothing).
    Tag,
    /// GFR.1 only: the frame is ineligible; pass the cell unchanged (the network does not
    /// tag under GFR.1). Extra variant beyond the agreed API, never returned under GFR.2.
    Ineligible,
    /// The cell breaks GFR cell conformance: it is beyond the MFS-th cell of its frame, or
    /// its CLP differs from its frame's first cell. The network may discard it.
    NonConforming,
}

/// What the F-GCRA has seen and decided, in cells and frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FGcraCounters {
    pub cells: u64,
    pub frames: u64,
    /// Frames found eligible at their first cell.
    pub eligible_frames: u64,
    /// Ineligible frames whose first cell was CLP=0 (tagged under GFR.2).
    pub ineligible_untagged_frames: u64,
    /// Frames that arrived already tagged (CLP=1 at the first cell).
    pub tagged_by_source_frames: u64,
    pub eligible_cells: u64,
    /// Cells returned as [`FGcraVerdict::Tag`] or [`FGcraVerdict::Ineligible`].
    pub ineligible_cells: u64,
    /// Cells after the MFS-th cell of a frame.
    pub nonconforming_mfs_cells: u64,
    /// Cells whose CLP differs from their frame's first cell.
    pub nonconforming_clp_cells: u64,
}

/// F-GCRA(T, f) for one VC (see the module docs).
#[derive(Clone, Debug)]
pub struct FGcra {
    p: FGcraParams,
    /// `T` in units of ns·num: `den·10⁹`.
    t_units: u128,
    /// `f` in units of ns·num.
    f_units: u128,
    /// Theoretical arrival time in units of ns·num.
    tat: u128,
    in_frame: bool,
    frame_eligible: bool,
    frame_clp: bool,
    frame_cells: u32,
    counters: FGcraCounters,
}

impl FGcra {
    pub fn new(p: FGcraParams) -> Result<Self, ConfigError> {
        if p.mfs_cells == 0 {
            return Err(ConfigError::out_of_range("mfs_cells", 0, ">= 1 cell"));
        }
        let num = p.mcr.num() as u128;
        Ok(FGcra {
            t_units: p.mcr.den() as u128 * NS_PER_SEC,
            f_units: p.tolerance.as_nanos() as u128 * num,
            tat: 0,
            in_frame: false,
            frame_eligible: false,
            frame_clp: false,
            frame_cells: 0,
            counters: FGcraCounters::default(),
            p,
        })
    }

    pub fn params(&self) -> &FGcraParams {
        &self.p
    }
    pub fn counters(&self) -> &FGcraCounters {
        &self.counters
    }
    /// The theoretical arrival time in ns (rounded down), for reports and tests.
    pub fn tat_ns(&self) -> u64 {
        (self.tat / self.p.mcr.num() as u128).min(u64::MAX as u128) as u64
    }
    /// Whether the frame currently open (or last seen) was found eligible.
    pub fn frame_eligible(&self) -> bool {
        self.frame_eligible
    }

    /// Judge one cell of this VC arriving at `now`.
    pub fn on_cell(&mut self, now: Time, cell: CellView) -> FGcraVerdict {
        self.counters.cells += 1;
        let ta = now.as_nanos() as u128 * self.p.mcr.num() as u128;
        if cell.first_of_frame || !self.in_frame {
            // (F1) a new frame, judged as a whole at its first cell.
            self.in_frame = true;
            self.frame_cells = 0;
            self.frame_clp = cell.clp;
            self.counters.frames += 1;
            // Eligible iff CLP=0 and not early: ta ≥ TAT − f  ⇔  ta + f ≥ TAT.
            self.frame_eligible = !cell.clp && ta.saturating_add(self.f_units) >= self.tat;
            if cell.clp {
                self.counters.tagged_by_source_frames += 1;
            } else if self.frame_eligible {
                self.counters.eligible_frames += 1;
            } else {
                self.counters.ineligible_untagged_frames += 1;
            }
        }
        self.frame_cells = self.frame_cells.saturating_add(1);
        if cell.last_of_frame {
            self.in_frame = false;
        }

        // Cell conformance: at most MFS cells per frame, one CLP value per frame.
        if self.frame_cells > self.p.mfs_cells {
            self.counters.nonconforming_mfs_cells += 1;
            return FGcraVerdict::NonConforming;
        }
        if cell.clp != self.frame_clp {
            self.counters.nonconforming_clp_cells += 1;
            return FGcraVerdict::NonConforming;
        }

        if self.frame_eligible {
            // (F1) first cell: TAT ← max(ta, TAT) + T; (F2) further cells: TAT ← TAT + T.
            if self.frame_cells == 1 {
                self.tat = self.tat.max(ta);
            }
            self.tat = self.tat.saturating_add(self.t_units);
            self.counters.eligible_cells += 1;
            FGcraVerdict::Eligible
        } else {
            self.counters.ineligible_cells += 1;
            match self.p.conformance {
                GfrConformance::Gfr2 => FGcraVerdict::Tag,
                GfrConformance::Gfr1 => FGcraVerdict::Ineligible,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gcra(mcr_cps: u64, f_us: u64, mfs: u32, c: GfrConformance) -> FGcra {
        FGcra::new(FGcraParams {
            mcr: CellRate::per_sec(mcr_cps).unwrap(),
            tolerance: Duration::from_micros(f_us),
            mfs_cells: mfs,
            conformance: c,
        })
        .unwrap()
    }

    /// Feed a frame of `n` cells, one every `gap_us` µs from `t0_us`; return the verdicts.
    fn frame(g: &mut FGcra, t0_us: u64, gap_us: u64, n: u32, clp: bool) -> Vec<FGcraVerdict> {
        (0..n)
            .map(|k| {
                g.on_cell(
                    Time::from_micros(t0_us + k as u64 * gap_us),
                    CellView::of_frame(0, clp, k, n),
                )
            })
            .collect()
    }

    use FGcraVerdict::*;

    #[test]
    fn scripted_sequence_tags_exactly_the_hand_computed_frames() {
        // MCR = 1000 cells/s → T = 1 ms; f = 2.5 ms; MFS = 4 cells. Cells back to back 10 µs.
        let mut g = gcra(1000, 2500, 4, GfrConformance::Gfr2);
        // Frame A, 3 cells at t = 0: TAT 0 ≤ 0 + f → eligible. TAT = 0 + 3 ms.
        assert_eq!(frame(&mut g, 0, 10, 3, false), vec![Eligible; 3]);
        assert_eq!(g.tat_ns(), 3_000_000);
        // Frame B at t = 100 µs: TAT − f = 0.5 ms > 0.1 ms → early → ineligible, all tagged.
        assert_eq!(frame(&mut g, 100, 10, 3, false), vec![Tag; 3]);
        assert_eq!(g.tat_ns(), 3_000_000, "ineligible frames leave TAT alone");
        // Frame C at t = 500 µs: TAT − f = 500 µs ≤ 500 µs → eligible (boundary, ≥).
        // TAT = max(0.5, 3) + 2·1 = 5 ms.
        assert_eq!(frame(&mut g, 500, 10, 2, false), vec![Eligible; 2]);
        assert_eq!(g.tat_ns(), 5_000_000);
        // Frame D at t = 2499 µs: TAT − f = 2500 µs > 2499 → tagged.
        assert_eq!(frame(&mut g, 2499, 10, 1, false), vec![Tag]);
        // Frame E at t = 2500 µs: eligible; TAT = 5 + 1 = 6 ms.
        assert_eq!(frame(&mut g, 2500, 10, 1, false), vec![Eligible]);
        assert_eq!(g.tat_ns(), 6_000_000);
        // Frame F at t = 20 ms (idle): eligible; TAT = max(20, 6) + 4 = 24 ms.
        assert_eq!(frame(&mut g, 20_000, 10, 4, false), vec![Eligible; 4]);
        assert_eq!(g.tat_ns(), 24_000_000);
        // Frame G at 40 ms, 6 cells > MFS 4: first 4 eligible, cells 5 and 6 non-conforming
        // and not charged: TAT = 40 + 4 = 44 ms.
        assert_eq!(
            frame(&mut g, 40_000, 10, 6, false),
            vec![
                Eligible,
                Eligible,
                Eligible,
                Eligible,
                NonConforming,
                NonConforming
            ]
        );
        assert_eq!(g.tat_ns(), 44_000_000);
        // Frame H at 60 ms, CLP=1 from the source: ineligible (Tag keeps CLP=1), TAT unchanged.
        assert_eq!(frame(&mut g, 60_000, 10, 2, true), vec![Tag; 2]);
        assert_eq!(g.tat_ns(), 44_000_000);
        let c = g.counters();
        assert_eq!(c.frames, 8);
        assert_eq!(c.eligible_frames, 5);
        assert_eq!(c.ineligible_untagged_frames, 2);
        assert_eq!(c.tagged_by_source_frames, 1);
        assert_eq!(c.nonconforming_mfs_cells, 2);
        assert_eq!(c.cells, 3 + 3 + 2 + 1 + 1 + 4 + 6 + 2);
    }

    #[test]
    fn burst_beyond_f_is_tagged_from_the_first_early_frame() {
        // T = 1 ms, f = 3 ms: 2-cell frames every 100 µs. Frame k (k = 0..) starts at
        // 0.1k ms; eligible frames add 2 ms each. Hand computation:
        // k=0: TAT 0 → eligible, TAT 2.  k=1 (0.1): 2−3 ≤ 0.1 → eligible, TAT 4.
        // k=2 (0.2): 4−3 = 1 > 0.2 → tag. k=3 (0.3): tag … until ta ≥ 1 ms (k=10): eligible, TAT 6.
        let mut g = gcra(1000, 3000, 10, GfrConformance::Gfr2);
        let mut verdicts = Vec::new();
        for k in 0..12u64 {
            verdicts.push(frame(&mut g, 100 * k, 10, 2, false)[0]);
        }
        let expect: Vec<_> = (0..12)
            .map(|k| if k <= 1 || k == 10 { Eligible } else { Tag })
            .collect();
        assert_eq!(verdicts, expect);
        assert_eq!(g.tat_ns(), 6_000_000);
    }

    #[test]
    fn gfr1_does_not_tag() {
        let mut g = gcra(1000, 0, 10, GfrConformance::Gfr1);
        assert_eq!(frame(&mut g, 0, 10, 2, false), vec![Eligible; 2]);
        assert_eq!(frame(&mut g, 100, 10, 2, false), vec![Ineligible; 2]);
        assert_eq!(frame(&mut g, 200, 10, 1, true), vec![Ineligible]);
    }

    #[test]
    fn mixed_clp_within_a_frame_is_nonconforming() {
        let mut g = gcra(1000, 0, 10, GfrConformance::Gfr2);
        let t = Time::ZERO;
        assert_eq!(g.on_cell(t, CellView::of_frame(0, false, 0, 3)), Eligible);
        assert_eq!(
            g.on_cell(t, CellView::of_frame(0, true, 1, 3)),
            NonConforming
        );
        assert_eq!(g.on_cell(t, CellView::of_frame(0, false, 2, 3)), Eligible);
        assert_eq!(g.counters().nonconforming_clp_cells, 1);
    }

    #[test]
    fn fractional_t_is_exact() {
        // MCR = 1 Mbit/s of cells = 10⁶/424 cells/s → T = 424 µs exactly.
        let mcr = CellRate::from_line_rate(crate::units::Rate::from_mbps(1)).unwrap();
        let mut g = FGcra::new(FGcraParams {
            mcr,
            tolerance: Duration::ZERO,
            mfs_cells: 100,
            conformance: GfrConformance::Gfr2,
        })
        .unwrap();
        // 3 cells at t = 0 → TAT = 1272 µs. A frame at 1271.999 µs is early, at 1272 µs not.
        assert_eq!(frame(&mut g, 0, 0, 3, false), vec![Eligible; 3]);
        assert_eq!(g.tat_ns(), 1_272_000);
        assert_eq!(
            g.on_cell(
                Time::from_nanos(1_271_999),
                CellView::of_frame(0, false, 0, 1)
            ),
            Tag
        );
        assert_eq!(
            g.on_cell(
                Time::from_nanos(1_272_000),
                CellView::of_frame(0, false, 0, 1)
            ),
            Eligible
        );
        // MCR = 3 cells/s: T = 333 333 333.3̅ ns; after 3 cells TAT is exactly 1 s.
        let mut g = gcra(3, 0, 10, GfrConformance::Gfr2);
        assert_eq!(frame(&mut g, 0, 0, 3, false), vec![Eligible; 3]);
        assert_eq!(g.tat_ns(), 1_000_000_000);
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(CellRate::per_sec(0).is_err());
        assert!(CellRate::new(1, 0).is_err());
        assert!(FGcra::new(FGcraParams {
            mcr: CellRate::per_sec(1).unwrap(),
            tolerance: Duration::ZERO,
            mfs_cells: 0,
            conformance: GfrConformance::Gfr2,
        })
        .is_err());
    }
}
