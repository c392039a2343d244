//! Scripted, hand-computed tests of the GFR buffer policies.

use super::*;
use crate::rng::{Rng, ScriptedUniform};
use crate::time::Time;
use CellDropReason::*;

const A: CellVerdict = CellVerdict::Accept;
const fn d(r: CellDropReason) -> CellVerdict {
    CellVerdict::Drop(r)
}

/// A buffer with a clock and a scripted RNG.
struct Sw {
    b: GfrBuffer,
    rng: ScriptedUniform,
    now: Time,
}

impl Sw {
    fn new(cap: u32, n: u32, p: BufferPolicy, draws: &[f64]) -> Self {
        Sw {
            b: GfrBuffer::new(cap, n, p).unwrap(),
            rng: ScriptedUniform::new(draws),
            now: Time::ZERO,
        }
    }
    fn at_ms(&mut self, ms: u64) -> &mut Self {
        self.now = Time::from_millis(ms);
        self
    }
    /// One cell `k` of an `n`-cell frame.
    fn cell(&mut self, vc: u32, clp: bool, k: u32, n: u32) -> CellVerdict {
        self.b
            .on_arrival(self.now, CellView::of_frame(vc, clp, k, n), &mut self.rng)
    }
    /// A whole `n`-cell frame at one instant; the verdicts of its cells.
    fn frame(&mut self, vc: u32, clp: bool, n: u32) -> Vec<CellVerdict> {
        (0..n).map(|k| self.cell(vc, clp, k, n)).collect()
    }
    fn depart(&mut self, vc: u32, k: u32) {
        for _ in 0..k {
            self.b.on_departure(self.now, vc);
        }
    }
    fn occ(&self) -> u32 {
        self.b.occupancy()
    }
}

#[test]
fn tail_drop_is_per_cell_and_ppd_drops_the_rest_but_keeps_the_eom() {
    // Capacity 3, one 6-cell frame; after the 4th cell is lost one cell departs.
    let run = |p: BufferPolicy| {
        let mut s = Sw::new(3, 1, p, &[0.5]);
        let mut v: Vec<_> = (0..4).map(|k| s.cell(0, false, k, 6)).collect();
        s.depart(0, 1);
        v.push(s.cell(0, false, 4, 6));
        v.push(s.cell(0, false, 5, 6));
        (v, s)
    };
    let (v, s) = run(BufferPolicy::TailDrop);
    // No PPD: cell 4 fits again after the departure; cell 5 finds the buffer full.
    assert_eq!(v, vec![A, A, A, d(BufferFull), A, d(BufferFull)]);
    assert_eq!(s.occ(), 3);
    let (v, s) = run(BufferPolicy::TailDropPpd);
    // PPD: cell 4 is discarded although there is room; the EOM cell 5 is kept.
    assert_eq!(v, vec![A, A, A, d(BufferFull), d(PartialPacketDiscard), A]);
    assert_eq!(s.occ(), 3);
    let c = s.b.counters().per_vc[0];
    assert_eq!(c.partially_lost_frames, [1, 0]);
    assert_eq!(c.complete_frames, [0, 0]);
    assert_eq!(c.dropped(PartialPacketDiscard), 1);
}

#[test]
fn epd_refuses_exactly_the_frames_that_start_above_the_threshold() {
    let mut s = Sw::new(8, 2, BufferPolicy::Epd(EpdParams { threshold: 4 }), &[0.5]);
    // X = 0: a 5-cell frame is accepted whole (only the first cell is checked).
    assert_eq!(s.frame(0, false, 5), vec![A; 5]);
    // X = 5 > 4: a 3-cell frame is refused, end-of-frame cell included.
    assert_eq!(s.frame(1, false, 3), vec![d(EpdFrame); 3]);
    s.depart(0, 1);
    // X = 4, not above the threshold: accepted → X = 7.
    assert_eq!(s.frame(1, false, 3), vec![A; 3]);
    // X = 7: refused (EPD is CLP-blind).
    assert_eq!(s.frame(0, true, 2), vec![d(EpdFrame); 2]);
    s.depart(0, 3);
    // X = 4: a 6-cell frame is accepted, fills the buffer (8) after 4 cells, then the 5th
    // cell overflows and PPD drops the 6th (the EOM finds no room, so it is lost too).
    assert_eq!(
        s.frame(0, false, 6),
        vec![A, A, A, A, d(BufferFull), d(PartialPacketDiscard)]
    );
    assert_eq!(s.occ(), 8);
    let c = s.b.counters().total();
    assert_eq!(c.refused_frames[EpdFrame.index()], [1, 1]);
    assert_eq!(c.complete_frames, [2, 0]);
    assert_eq!(c.partially_lost_frames, [1, 0]);
    assert_eq!(c.dropped(EpdFrame), 5);
    assert_eq!(c.arrived_frames, [4, 1]);
    // The frame after a PPD'd frame starts cleanly (X = 8 > 4 → refused by EPD, not PPD).
    assert_eq!(s.frame(0, false, 1), vec![d(EpdFrame)]);
}

#[test]
fn epd_ppd_keeps_the_eom_when_there_is_room() {
    let mut s = Sw::new(4, 1, BufferPolicy::Epd(EpdParams { threshold: 2 }), &[0.5]);
    let mut v: Vec<_> = (0..5).map(|k| s.cell(0, false, k, 7)).collect();
    s.depart(0, 2);
    v.push(s.cell(0, false, 5, 7));
    v.push(s.cell(0, false, 6, 7));
    assert_eq!(
        v,
        vec![A, A, A, A, d(BufferFull), d(PartialPacketDiscard), A]
    );
}

#[test]
fn double_epd_at_the_lbo_and_hbo_boundaries() {
    let p = BufferPolicy::DoubleEpd(DoubleEpdParams { lbo: 3, hbo: 6 });
    let mut s = Sw::new(10, 1, p, &[0.5]);
    for _ in 0..3 {
        assert_eq!(s.frame(0, false, 1), vec![A]);
    }
    // X = 3 = LBO: not exceeded, a tagged frame is accepted → X = 4.
    assert_eq!(s.frame(0, true, 2), vec![A, A]);
    assert_eq!(s.occ(), 5);
    // X = 5 > LBO: tagged frames refused, untagged accepted up to HBO.
    assert_eq!(s.frame(0, true, 2), vec![d(LboTagged); 2]);
    assert_eq!(s.frame(0, false, 1), vec![A]);
    // X = 6 = HBO: accepted → 7.
    assert_eq!(s.frame(0, false, 1), vec![A]);
    // X = 7 > HBO: every frame refused.
    assert_eq!(s.frame(0, false, 3), vec![d(HboAll); 3]);
    assert_eq!(s.frame(0, true, 1), vec![d(LboTagged)]);
    s.depart(0, 1);
    assert_eq!(s.frame(0, false, 1), vec![A]);
}

fn dfba(draws: &[f64]) -> Sw {
    let p = DfbaParams {
        lbo: 4,
        hbo: 8,
        mcr_cells_per_sec: vec![100.0, 300.0],
        z: vec![1.0],
        alpha: 0.5,
        active: ActiveSet::Configured,
    };
    Sw::new(12, 2, BufferPolicy::Dfba(p), draws)
}

#[test]
fn dfba_drop_probability_by_hand() {
    let p = DfbaParams {
        lbo: 4,
        hbo: 8,
        mcr_cells_per_sec: vec![100.0, 300.0],
        z: vec![1.0],
        alpha: 0.5,
        active: ActiveSet::Configured,
    };
    // X = 7, X_0 = 4, W_0/W = 1/4: fair 1.75; excess 2.25/5.25 = 3/7; load 3/4.
    let want = 0.5 * (3.0 / 7.0) + 0.5 * 0.75;
    assert!((p.drop_probability(0, 7, 4, 0.25) - want).abs() < 1e-12);
    // X = 8, X_0 = 5: excess 3/6, load 1 → 0.75.
    assert!((p.drop_probability(0, 8, 5, 0.25) - 0.75).abs() < 1e-12);
    // Z = 0.5 halves it.
    let p2 = DfbaParams {
        z: vec![0.5, 1.0],
        ..p.clone()
    };
    assert!((p2.drop_probability(0, 8, 5, 0.25) - 0.375).abs() < 1e-12);
    assert!((p2.drop_probability(1, 8, 5, 0.25) - 0.75).abs() < 1e-12);
}

#[test]
fn dfba_deterministic_regions_and_scripted_probabilistic_region() {
    // Draws: the first VC-0 frame between L and H gets 0.58, the second 0.60, the third 0.74.
    let mut s = dfba(&[0.58, 0.60, 0.74, 0.0]);
    // (D1) X ≤ L = 4: everything accepted, tagged too.
    for _ in 0..3 {
        assert_eq!(s.frame(0, false, 1), vec![A]);
    }
    assert_eq!(s.frame(0, true, 1), vec![A]); // X = 3
    assert_eq!(s.frame(1, false, 1), vec![A]); // X = 4 = L
                                               // X = 5: VC 1 holds 1 ≤ 5·3/4 → accepted without a draw.
    assert_eq!(s.frame(1, false, 1), vec![A]);
    // (D2) X = 6 > L: tagged frames refused.
    assert_eq!(s.frame(1, true, 2), vec![d(LboTagged); 2]);
    // VC 1 at X = 6: 2 ≤ 4.5 → accepted (no draw) → X = 7.
    assert_eq!(s.frame(1, false, 1), vec![A]);
    // (D3) X = 7, X_0 = 4 > 1.75: P = 0.5·3/7 + 0.5·0.75 = 0.5893. u = 0.58 → drop.
    assert_eq!(s.frame(0, false, 2), vec![d(DfbaProbabilistic); 2]);
    // Same state, u = 0.60 ≥ P → accepted (1 cell) → X = 8, X_0 = 5.
    assert_eq!(s.frame(0, false, 1), vec![A]);
    // X = 8 = H: P = 0.75, u = 0.74 → drop.
    assert_eq!(s.frame(0, false, 1), vec![d(DfbaProbabilistic)]);
    // VC 1 at X = 8: 3 ≤ 6 → accepted, no draw → X = 9.
    assert_eq!(s.frame(1, false, 1), vec![A]);
    // (D4) X = 9 > H: everything refused.
    assert_eq!(s.frame(1, false, 1), vec![d(HboAll)]);
    assert_eq!(s.frame(0, false, 1), vec![d(HboAll)]);
    let c = s.b.counters().total();
    assert_eq!(c.refused_frames[DfbaProbabilistic.index()], [2, 0]);
    assert_eq!(c.dropped(DfbaProbabilistic), 3);
}

#[test]
fn dfba_only_active_vc_is_never_above_its_share() {
    let p = DfbaParams {
        lbo: 2,
        hbo: 8,
        mcr_cells_per_sec: vec![100.0, 300.0],
        z: vec![1.0],
        alpha: 0.5,
        active: ActiveSet::Backlogged,
    };
    // Draw 0.0 would drop any frame with P > 0: none must be dropped.
    let mut s = Sw::new(12, 2, BufferPolicy::Dfba(p), &[0.0]);
    for _ in 0..8 {
        assert_eq!(s.frame(0, false, 1), vec![A]);
    }
}

fn kim(n_counts: ActiveSet, rate_sample: RateSample) -> DynamicThresholdParams {
    DynamicThresholdParams {
        lbo: 10,
        hbo: 20,
        c_gfr_cells_per_sec: 1000.0,
        mcr_cells_per_sec: vec![100.0, 300.0],
        alpha: 0.5,
        n_counts,
        rate_sample,
        initial_rate: 0.0,
    }
}

#[test]
fn kim_weights_and_thresholds_by_hand() {
    let p = kim(ActiveSet::Configured, RateSample::PreviousFrame);
    // Eq. (2): w_i = MCR_i + (1000 − 400)/2.
    assert_eq!(p.weight(&[0, 0], 0), 400.0);
    assert_eq!(p.weight(&[0, 0], 1), 600.0);
    // Eq. (1): Th = w/C × min(max(QT, LBO), HBO).
    assert_eq!(p.threshold(400.0, 5), 4.0); // QT below LBO → LBO
    assert!((p.threshold(400.0, 15) - 6.0).abs() < 1e-12);
    assert!((p.threshold(600.0, 15) - 9.0).abs() < 1e-12);
    assert_eq!(p.threshold(400.0, 25), 8.0); // QT above HBO → HBO
                                             // N counting the backlogged VCs only: VC 0 alone → w_0 = 100 + 900/1.
    let pb = kim(ActiveSet::Backlogged, RateSample::PreviousFrame);
    assert_eq!(pb.weight(&[3, 0], 0), 1000.0);
    assert_eq!(pb.weight(&[3, 2], 0), 400.0);
    assert_eq!(pb.weight(&[0, 2], 0), 400.0); // the arriving VC counts
}

#[test]
fn kim_rate_estimate_eq3_previous_frame() {
    let mut s = Sw::new(
        30,
        2,
        BufferPolicy::DynamicThreshold(kim(ActiveSet::Configured, RateSample::PreviousFrame)),
        &[0.5],
    );
    // 1-cell frames every ms: I/T = 1000 cells/s; r = 500, 750, 875, 937.5, 968.75.
    let mut want = 0.0;
    for k in 0..6u64 {
        s.at_ms(k);
        s.frame(0, false, 1);
        if k > 0 {
            want = 0.5 * 1000.0 + 0.5 * want;
        }
        assert!((s.b.rate_estimate(0).unwrap() - want).abs() < 1e-9, "k={k}");
    }
    // A 5-cell frame at 10 ms then a frame at 20 ms: sample 5 cells / 10 ms = 500 cells/s…
    // but the frame before (at 5 ms, 1 cell over 5 ms = 200) is sampled first at 10 ms.
    s.at_ms(10);
    s.frame(1, false, 5);
    s.frame(0, false, 5);
    let r10 = 0.5 * 200.0 + 0.5 * want;
    assert!((s.b.rate_estimate(0).unwrap() - r10).abs() < 1e-9);
    s.at_ms(20);
    s.frame(0, false, 1);
    let r20 = 0.5 * 500.0 + 0.5 * r10;
    assert!((s.b.rate_estimate(0).unwrap() - r20).abs() < 1e-9);
}

#[test]
fn kim_rate_estimate_eq3_at_end_of_frame() {
    let mut s = Sw::new(
        30,
        1,
        BufferPolicy::DynamicThreshold(DynamicThresholdParams {
            mcr_cells_per_sec: vec![100.0],
            ..kim(ActiveSet::Configured, RateSample::AtEndOfFrame)
        }),
        &[0.5],
    );
    // Frame 1: 4 cells at 0..3 ms; no previous frame → no sample.
    for k in 0..4 {
        s.at_ms(k as u64);
        s.cell(0, false, k, 4);
    }
    assert_eq!(s.b.rate_estimate(0), Some(0.0));
    // Frame 2: 2 cells at 10 and 11 ms; at its end I = 2, T = 11 ms → r = 0.5·2/0.011.
    s.at_ms(10);
    s.cell(0, false, 0, 2);
    s.at_ms(11);
    s.cell(0, false, 1, 2);
    assert!((s.b.rate_estimate(0).unwrap() - 0.5 * 2.0 / 0.011).abs() < 1e-9);
}

#[test]
fn kim_untagged_branch_k3_needs_both_rate_and_threshold() {
    let mut s = Sw::new(
        30,
        2,
        BufferPolicy::DynamicThreshold(kim(ActiveSet::Configured, RateSample::PreviousFrame)),
        &[0.5],
    );
    // VC 0 sends 1-cell frames every ms (r → 1000 > w_0 = 400). Th_0 = 0.4·max(QT, 10) = 4.
    for k in 0..5u64 {
        s.at_ms(k);
        assert_eq!(s.frame(0, false, 1), vec![A], "k={k}"); // X_0 = k ≤ 4
    }
    // t = 5 ms: r = 968.75 > 400 and X_0 = 5 > 4 → (K3) drop.
    s.at_ms(5);
    assert_eq!(s.frame(0, false, 2), vec![d(DynamicThresholdUntagged); 2]);
    // (K1) a tagged frame at the same instant (QT = 5 ≤ LBO): same conditions → drop.
    assert_eq!(s.frame(0, true, 1), vec![d(DynamicThresholdTagged)]);
    // VC 1 (r = 0 ≤ w_1) is accepted whatever its occupancy: an 8-cell frame, then another.
    assert_eq!(s.frame(1, false, 8), vec![A; 8]);
    assert_eq!(s.frame(1, false, 2), vec![A; 2]); // X_1 = 8 > Th_1 = 0.6·13, rate low
                                                  // One departure of VC 0: X_0 = 4 = Th_0·… (QT = 14 → Th_0 = 5.6): accepted at the same rate.
    s.depart(0, 1);
    assert_eq!(s.frame(0, false, 1), vec![A]);
}

#[test]
fn kim_tagged_branches_k1_k2_and_k4() {
    let p = kim(ActiveSet::Configured, RateSample::PreviousFrame);
    // (K1) QT ≤ LBO, tagged, X_0 > Th_0 but r_0 low → accepted.
    let mut s = Sw::new(30, 2, BufferPolicy::DynamicThreshold(p.clone()), &[0.5]);
    assert_eq!(s.frame(0, false, 8), vec![A; 8]); // t = 0, QT = 8
    s.at_ms(1000);
    // r_0 = 0.5·8 cells/1 s = 4 ≤ 400; Th_0 = 4 < X_0 = 8; QT = 8 ≤ 10 → accept.
    assert_eq!(s.frame(0, true, 1), vec![A]);
    assert!((s.b.rate_estimate(0).unwrap() - 4.0).abs() < 1e-9);

    // (K2) QT > LBO, tagged, X_0 > Th_0 → drop whatever the rate; untagged (K3) accepted.
    let mut s = Sw::new(30, 2, BufferPolicy::DynamicThreshold(p.clone()), &[0.5]);
    assert_eq!(s.frame(0, false, 12), vec![A; 12]);
    s.at_ms(1000);
    // r_0 = 6 ≤ 400; QT = 12 > 10; Th_0 = 4.8 < 12.
    assert_eq!(s.frame(0, true, 2), vec![d(DynamicThresholdTagged); 2]);
    assert_eq!(s.frame(0, false, 1), vec![A]);
    // …and a tagged frame of VC 1 (X_1 = 0 ≤ Th_1) is accepted above LBO.
    assert_eq!(s.frame(1, true, 1), vec![A]);

    // (K4) QT > HBO: every frame dropped.
    let mut s = Sw::new(30, 2, BufferPolicy::DynamicThreshold(p), &[0.5]);
    assert_eq!(s.frame(1, false, 21), vec![A; 21]);
    assert_eq!(s.frame(0, false, 1), vec![d(HboAll)]);
    assert_eq!(s.frame(0, true, 1), vec![d(HboAll)]);
    s.depart(1, 1); // QT = 20 = HBO: not exceeded
    assert_eq!(s.frame(0, false, 1), vec![A]);
}

#[test]
fn bad_settings_name_the_broken_rule() {
    let err = |cap, n, p| GfrBuffer::new(cap, n, p).unwrap_err().to_string();
    assert!(err(0, 1, BufferPolicy::TailDrop).contains("capacity_cells"));
    assert!(err(10, 0, BufferPolicy::TailDrop).contains("n_vcs"));
    assert!(err(10, 1, BufferPolicy::Epd(EpdParams { threshold: 11 })).contains("capacity"));
    assert!(err(
        10,
        1,
        BufferPolicy::DoubleEpd(DoubleEpdParams { lbo: 6, hbo: 5 })
    )
    .contains("LBO <= HBO"));
    assert!(err(
        10,
        1,
        BufferPolicy::DoubleEpd(DoubleEpdParams { lbo: 5, hbo: 11 })
    )
    .contains("HBO <= buffer capacity"));
    let k = kim(ActiveSet::Configured, RateSample::PreviousFrame);
    let dt = |f: &dyn Fn(&mut DynamicThresholdParams)| {
        let mut p = k.clone();
        f(&mut p);
        err(30, 2, BufferPolicy::DynamicThreshold(p))
    };
    assert!(dt(&|p| p.c_gfr_cells_per_sec = 399.0).contains("sum of MCR_i <= C_GFR"));
    assert!(dt(&|p| p.alpha = 0.0).contains("alpha"));
    assert!(dt(&|p| p.alpha = 1.0).contains("alpha"));
    assert!(dt(&|p| p.mcr_cells_per_sec = vec![0.0, 1.0]).contains("mcr"));
    assert!(dt(&|p| p.mcr_cells_per_sec = vec![1.0]).contains("one MCR per VC"));
    assert!(dt(&|p| p.lbo = 21).contains("LBO <= HBO"));
    assert!(dt(&|p| p.initial_rate = f64::NAN).contains("initial_rate"));
    let df = DfbaParams {
        lbo: 4,
        hbo: 8,
        mcr_cells_per_sec: vec![1.0, 1.0],
        z: vec![1.0],
        alpha: 0.5,
        active: ActiveSet::Backlogged,
    };
    let dfe = |f: &dyn Fn(&mut DfbaParams)| {
        let mut p = df.clone();
        f(&mut p);
        err(12, 2, BufferPolicy::Dfba(p))
    };
    assert!(dfe(&|p| p.z = vec![0.0]).contains("dfba.z"));
    assert!(dfe(&|p| p.z = vec![1.0, 1.0, 1.0]).contains("one Z"));
    assert!(dfe(&|p| p.alpha = 1.5).contains("dfba.alpha"));
    assert!(dfe(&|p| p.hbo = 13).contains("HBO <= buffer capacity"));
    assert!(GfrBuffer::new(12, 2, BufferPolicy::Dfba(df)).is_ok());
}

#[test]
fn unknown_vc_and_spurious_departures_are_counted_not_panics() {
    let mut b = GfrBuffer::new(4, 1, BufferPolicy::TailDrop).unwrap();
    let mut r = Rng::from_seed(1);
    assert_eq!(
        b.on_arrival(Time::ZERO, CellView::of_frame(7, false, 0, 1), &mut r),
        d(UnknownVc)
    );
    b.on_departure(Time::ZERO, 0);
    b.on_departure(Time::ZERO, 9);
    assert_eq!(b.occupancy(), 0);
    assert_eq!(b.counters().unknown_vc_cells, 1);
    assert_eq!(b.counters().spurious_departures, 2);
}
