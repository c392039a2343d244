//! Property tests: whatever the policy and the arrival/departure sequence, the buffer's
//! accounting is conserved and bounded.

use proptest::prelude::*;

use super::*;
use crate::rng::Rng;
use crate::time::Time;

const N_VCS: u32 = 3;
const CAP: u32 = 12;

#[derive(Clone, Debug)]
enum Op {
    /// The next cell of `vc` (a new frame of `len` cells with `clp` if none is open).
    Cell { vc: u32, len: u32, clp: bool },
    /// A departure of `vc` (possibly spurious, when it has no cell queued).
    Depart { vc: u32 },
    /// Time advances by this many µs.
    Wait { us: u64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (0..N_VCS, 1u32..8, any::<bool>()).prop_map(|(vc, len, clp)| Op::Cell { vc, len, clp }),
        3 => (0..N_VCS).prop_map(|vc| Op::Depart { vc }),
        1 => (0u64..3000).prop_map(|us| Op::Wait { us }),
    ]
}

fn policy() -> impl Strategy<Value = BufferPolicy> {
    let mcr = vec![100.0, 200.0, 300.0];
    let m2 = mcr.clone();
    prop_oneof![
        Just(BufferPolicy::TailDrop),
        Just(BufferPolicy::TailDropPpd),
        (0..=CAP).prop_map(|threshold| BufferPolicy::Epd(EpdParams { threshold })),
        (0..=CAP, 0..=CAP).prop_map(|(a, b)| BufferPolicy::DoubleEpd(DoubleEpdParams {
            lbo: a.min(b),
            hbo: a.max(b)
        })),
        (0..=CAP, 0..=CAP, 0.0..=1.0f64, 0.01..=1.0f64, any::<bool>()).prop_map(
            move |(a, b, alpha, z, bl)| BufferPolicy::Dfba(DfbaParams {
                lbo: a.min(b),
                hbo: a.max(b),
                mcr_cells_per_sec: mcr.clone(),
                z: vec![z],
                alpha,
                active: if bl {
                    ActiveSet::Backlogged
                } else {
                    ActiveSet::Configured
                },
            })
        ),
        (
            0..=CAP,
            0..=CAP,
            0.01..0.99f64,
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(
                move |(a, b, alpha, bl, eof)| BufferPolicy::DynamicThreshold(
                    DynamicThresholdParams {
                        lbo: a.min(b),
                        hbo: a.max(b),
                        c_gfr_cells_per_sec: 1000.0,
                        mcr_cells_per_sec: m2.clone(),
                        alpha,
                        n_counts: if bl {
                            ActiveSet::Backlogged
                        } else {
                            ActiveSet::Configured
                        },
                        rate_sample: if eof {
                            RateSample::AtEndOfFrame
                        } else {
                            RateSample::PreviousFrame
                        },
                        initial_rate: 0.0,
                    }
                )
            ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn occupancy_is_conserved_and_bounded(p in policy(), ops in prop::collection::vec(op(), 1..300), seed in any::<u64>()) {
        let mut b = GfrBuffer::new(CAP, N_VCS, p).unwrap();
        let mut rng = Rng::from_seed(seed);
        let mut now = Time::ZERO;
        // Per VC: (position in the open frame, its length, its CLP).
        let mut open = [(0u32, 0u32, false); N_VCS as usize];
        let mut queued = [0u32; N_VCS as usize]; // the engine's own FIFO count per VC
        let mut spurious = 0u64;
        for o in ops {
            match o {
                Op::Cell { vc, len, clp } => {
                    let f = &mut open[vc as usize];
                    if f.0 == 0 {
                        *f = (0, len, clp);
                    }
                    let cell = CellView::of_frame(vc, f.2, f.0, f.1);
                    f.0 += 1;
                    if f.0 == f.1 {
                        f.0 = 0;
                    }
                    if b.on_arrival(now, cell, &mut rng) == CellVerdict::Accept {
                        queued[vc as usize] += 1;
                    }
                }
                Op::Depart { vc } => {
                    if queued[vc as usize] > 0 {
                        queued[vc as usize] -= 1;
                    } else {
                        spurious += 1;
                    }
                    b.on_departure(now, vc);
                }
                Op::Wait { us } => now += crate::time::Duration::from_micros(us),
            }
            prop_assert!(b.occupancy() <= CAP);
            let mut sum = 0;
            for vc in 0..N_VCS {
                let c = &b.counters().per_vc[vc as usize];
                let occ = b.vc_occupancy(vc);
                sum += occ;
                prop_assert_eq!(occ, queued[vc as usize]);
                prop_assert_eq!(c.accepted_total() - c.departed_cells, occ as u64);
                prop_assert_eq!(c.arrived_total(), c.accepted_total() + c.dropped_total());
                // Every frame ends complete, refused, or partially lost (at most once each).
                let refused: u64 = c.refused_frames.iter().flatten().sum();
                let ended = c.complete_frames.iter().sum::<u64>()
                    + refused
                    + c.partially_lost_frames.iter().sum::<u64>();
                prop_assert!(ended <= c.arrived_frames.iter().sum::<u64>());
            }
            prop_assert_eq!(sum, b.occupancy());
            prop_assert_eq!(b.counters().spurious_departures, spurious);
        }
    }

    #[test]
    fn a_tagged_frame_is_all_or_nothing_under_frame_policies_without_overflow(
        lbo in 0u32..6, extra in 0u32..6, ops in prop::collection::vec(op(), 1..200)
    ) {
        // With a buffer far larger than HBO + the longest frame, no overflow happens, so
        // Double-EPD accepts or refuses each frame whole.
        let hbo = lbo + extra;
        let cap = hbo + 8 * 200;
        let mut b = GfrBuffer::new(cap, N_VCS, BufferPolicy::DoubleEpd(DoubleEpdParams { lbo, hbo })).unwrap();
        let mut rng = Rng::from_seed(1);
        let mut open = [(0u32, 0u32, false, None::<bool>); N_VCS as usize];
        for o in ops {
            match o {
                Op::Cell { vc, len, clp } => {
                    let f = &mut open[vc as usize];
                    if f.0 == 0 {
                        *f = (0, len, clp, None);
                    }
                    let cell = CellView::of_frame(vc, f.2, f.0, f.1);
                    let accepted = b.on_arrival(Time::ZERO, cell, &mut rng) == CellVerdict::Accept;
                    match f.3 {
                        None => f.3 = Some(accepted),
                        Some(first) => prop_assert_eq!(first, accepted),
                    }
                    f.0 += 1;
                    if f.0 == f.1 {
                        f.0 = 0;
                    }
                }
                Op::Depart { vc } => b.on_departure(Time::ZERO, vc),
                Op::Wait { .. } => {}
            }
        }
        prop_assert_eq!(b.counters().total().partially_lost_frames, [0, 0]);
    }
}
