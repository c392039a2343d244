//! Invariants of the PCN markers on random packet sequences (proptest).

use super::*;
use crate::rng::Rng;
use crate::time::Time;
use crate::units::Rate;
use proptest::prelude::*;

fn trains() -> impl Strategy<Value = Vec<(u64, u64)>> {
    // (gap ns, size bits)
    prop::collection::vec((0u64..500_000, 1u64..12_001), 1..300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// STM: fills stay within [0, size], markCnt < N after every packet, a packet leaves
    /// marked iff it arrived marked or a zone marked it, and marks are never removed.
    #[test]
    fn stm_invariants(ar in 1_000u64..50_000_000, extra in 1u64..50_000_000, n in 1u32..6,
                      deficit in any::<bool>(), pkts in trains()) {
        let mut p = StmParams::draft_defaults(Rate(ar), Rate(ar + extra));
        p.n = n;
        if deficit { p.mk_threshold_reading = MkThresholdReading::Deficit; }
        prop_assume!(p.swtb_size_bits > 0 && p.mktb_size_bits > 0);
        let mut m = StmMarker::new(p).unwrap();
        let mut t = 0;
        for (i, (gap, bits)) in pkts.iter().enumerate() {
            t += gap;
            let arrived = if i % 7 == 3 { PcnMark::ThresholdMarked } else { PcnMark::NotMarked };
            let out = m.on_packet(Time(t), *bits, arrived);
            prop_assert!(out >= arrived);
            prop_assert!(m.swtb_fill_units() <= u(p.swtb_size_bits));
            prop_assert!(m.mktb_fill_units() <= u(p.mktb_size_bits));
            prop_assert!(m.mark_cnt() < n);
        }
        let c = m.counters();
        let set: u64 = c.by_reason_packets.iter().sum();
        prop_assert_eq!(c.marked_packets, c.arrived_marked_packets + set);
        prop_assert!(set <= c.switch_on_packets);
    }

    /// CL termination: the bits that pass without a new PM mark in any interval
    /// [t_i, t_j] are at most depth + SR·(t_j − t_i) (a token bucket's conformance bound),
    /// plus one packet for the size-independent meter, whose last conforming packet may take
    /// the bucket into debt (RFC 5670 B.6: "the token bucket cannot become more negative than
    /// the maximum packet size").
    #[test]
    fn cl_excess_marking_passes_at_most_depth_plus_rate_times_t(
        sr in 1_000u64..10_000_000, depth in 1u64..100_000, pkts in trains(),
        classic in any::<bool>(),
    ) {
        let meter = if classic { ExcessMeter::Classic } else { ExcessMeter::SizeIndependent };
        let mut m = ClTerminationMarker::new(ClTerminationParams {
            supportable_rate: Rate(sr), depth_bits: depth, meter_already_marked: false,
            meter,
        }).unwrap();
        let mut t = 0u64;
        let mut passed: Vec<(u64, u64)> = Vec::new();
        let max_pkt = pkts.iter().map(|p| p.1).max().unwrap_or(0) as u128;
        for (gap, bits) in pkts {
            t += gap;
            if m.on_packet(Time(t), bits, PcnMark::NotMarked) == PcnMark::NotMarked {
                passed.push((t, bits));
            }
            prop_assert!(m.tokens_units() <= u(depth) as i128);
            prop_assert!(m.tokens_units() >= -(u(max_pkt as u64) as i128));
            if classic {
                prop_assert!(m.tokens_units() >= 0);
            }
        }
        let slack = if classic { 0 } else { max_pkt };
        for i in 0..passed.len() {
            let mut sum = 0u128;
            for pj in &passed[i..] {
                sum += pj.1 as u128;
                let span = (pj.0 - passed[i].0) as u128;
                prop_assert!((sum - slack.min(sum)) * 1_000_000_000 <= u(depth) + span * sr as u128);
            }
        }
    }

    /// CL admission: the virtual queue never exceeds its limit; only not-marked packets can
    /// become AM; PM packets stay PM.
    #[test]
    fn cl_admission_invariants(ar in 1_000u64..10_000_000, pkts in trains(), seed in any::<u64>()) {
        let p = ClAdmissionParams::draft_defaults(Rate(ar));
        prop_assume!(p.min_threshold_bits < p.max_threshold_bits);
        let mut m = ClAdmissionMarker::new(p).unwrap();
        let mut rng = Rng::from_seed(seed);
        let mut t = 0;
        for (i, (gap, bits)) in pkts.iter().enumerate() {
            t += gap;
            let arrived = if i % 5 == 0 { PcnMark::ExcessMarked } else { PcnMark::NotMarked };
            let out = m.on_packet(Time(t), *bits, arrived, &mut rng);
            prop_assert!(m.vq_units() <= u(p.limit_bits));
            if arrived == PcnMark::ExcessMarked {
                prop_assert_eq!(out, PcnMark::ExcessMarked);
            } else {
                prop_assert!(out == PcnMark::NotMarked || out == PcnMark::ThresholdMarked);
            }
        }
    }

    /// Fractional: |Cnt| stays within (N − 1)·max size, and the identity
    /// Cnt = N·(bits marked by the counter) − (bits counted) holds when ThTB never marks.
    #[test]
    fn fractional_counter_bounds(ar in 1_000u64..10_000_000, extra in 1u64..10_000_000,
                                 n in 1u32..6, pkts in trains()) {
        let mut p = FractionalParams::draft_like(Rate(ar), Rate(ar + extra));
        p.n = n;
        p.thtb_threshold_bits = 0;
        prop_assume!(p.frtb_size_bits > 0 && p.thtb_size_bits > 0);
        let mut m = FractionalMarker::new(p).unwrap();
        let mut t = 0;
        for (gap, bits) in &pkts {
            t += gap;
            m.on_packet(Time(t), *bits, PcnMark::NotMarked);
            prop_assert!(m.cnt_bits().unsigned_abs() <= (n as u64).saturating_sub(1).max(1) * 12_000);
        }
        let c = m.counters();
        let marked = c.by_reason_bits[MarkReason::PartialZone as usize] as i64;
        prop_assert_eq!(n as i64 * marked - c.switch_on_bits as i64, m.cnt_bits());
    }
}
