//! Property tests of the shapers: causality, FIFO order, conservation of bytes, the RAS
//! rate bounds, token-bucket conformance, and "a green RAS is never later than its RAS".

use proptest::prelude::*;

use super::fifo::{time_to_serve, units};
use super::testkit::{drive, TestMeter, Trace};
use super::*;
use crate::units::Rate;

const CASES: u32 = 256;

fn arrivals() -> impl Strategy<Value = Vec<(Time, u32)>> {
    // Gaps of 0 (simultaneous, 1 in 4) to 20 ms; sizes 0..=1500 B.
    let gap = prop_oneof![1 => Just(0u64), 3 => 0u64..20_000_000];
    prop::collection::vec((gap, 0u32..=1500), 1..60).prop_map(|v| {
        let mut t = 0u64;
        v.into_iter()
            .map(|(g, s)| {
                t += g;
                (Time(t), s)
            })
            .collect()
    })
}

/// Valid srRAS / trRAS parameters; `extra_buffer` is the buffer beyond MIR_th.
fn ras_params(extra_buffer: std::ops::Range<u64>) -> impl Strategy<Value = RasParams> {
    (
        any::<bool>(),
        (
            100_000u64..2_000_000,
            0u64..2_000_000,
            0u64..4_000_000,
            0u64..1_000_000,
        ),
        (0u64..5_000, 0u64..5_000, 0u64..10_000, extra_buffer),
        1u64..500,
    )
        .prop_map(|(two, (cir, dp, dm, dl), (cth, dpt, dmt, db), k_ms)| {
            let (pir, mir) = (cir + dp, cir + dp + dm);
            let (pir_th, mir_th) = (cth + dpt, cth + dpt + dmt);
            let ear_window = Duration::from_millis(k_ms);
            if two {
                RasParams::two_rate(&TrRasConfig {
                    cir: Rate(cir),
                    pir: Rate(pir),
                    mir: Rate(mir),
                    line_rate: Rate(mir + dl),
                    cir_th: cth,
                    pir_th,
                    mir_th,
                    buffer: (mir_th + db).max(1),
                    ear_window,
                })
            } else {
                RasParams::single_rate(&SrRasConfig {
                    cir: Rate(cir),
                    mir: Rate(mir),
                    line_rate: Rate(mir + dl),
                    cir_th: cth,
                    mir_th,
                    buffer: (mir_th + db).max(1),
                    ear_window,
                })
            }
            .expect("valid by construction")
        })
}

/// Conservation at every step: arrived = released + dropped + held.
fn conserved(s: &Shaper) {
    let st = s.stats();
    assert_eq!(
        st.arrived_bytes,
        st.released_bytes + st.dropped_bytes + s.bytes()
    );
    assert_eq!(st.arrivals, st.releases + st.drops() + s.len() as u64);
}

/// Common checks on a finished trace: causality, FIFO order, everything admitted released.
fn causal_fifo_complete(tr: &Trace) {
    for (id, dep) in tr.departure.iter().enumerate() {
        assert_eq!(
            dep.is_some(),
            !tr.dropped[id],
            "packet {id}: released iff admitted"
        );
        if let Some(d) = dep {
            assert!(
                *d >= tr.arrival[id],
                "packet {id} left at {d} before arriving"
            );
        }
    }
    assert!(
        tr.order.windows(2).all(|w| w[0] < w[1]),
        "FIFO order: {:?}",
        tr.order
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// A RAS releases nothing before its arrival, keeps FIFO order, conserves bytes, and
    /// serves each packet at a rate in [CIR, MIR]: the time from reaching the head
    /// (max(arrival, previous release)) to leaving is in [ceil(L/MIR), ceil(L/CIR)].
    #[test]
    fn ras_is_causal_fifo_and_rate_bounded(p in ras_params(0..20_000), arr in arrivals()) {
        let mut s = Shaper::new(ShaperParams::Ras(p));
        let mut meter = TestMeter::new(1, 1);
        let tr = drive(&mut s, &arr, &mut meter, conserved);
        causal_fifo_complete(&tr);
        let mut prev: Option<Time> = None;
        for &id in &tr.order {
            let id = id as usize;
            let d = tr.departure[id].unwrap();
            let h = prev.map_or(tr.arrival[id], |p| p.max(tr.arrival[id]));
            let work = units(tr.size[id] as u64);
            let lo = time_to_serve(work, p.mir().bps());
            let hi = time_to_serve(work, p.cir().bps());
            prop_assert!(d - h >= lo && d - h <= hi,
                "packet {id}: service {:?} not in [{:?}, {:?}]", d - h, lo, hi);
            prev = Some(d);
        }
        prop_assert_eq!(s.stats().green_releases, 0);
    }

    /// A green RAS never releases a packet later than the plain RAS on the same arrivals
    /// (buffer large enough for no drops), whatever the meter's CIR and CBS.
    #[test]
    fn green_ras_never_later_than_ras(
        p in ras_params(100_000..100_001),
        arr in arrivals(),
        meter_rate in 1_000u64..500_000,
        cbs in 0u64..5_000,
    ) {
        let mut plain = Shaper::new(ShaperParams::Ras(p));
        let mut green = Shaper::new(ShaperParams::GreenRas(p));
        let tp = drive(&mut plain, &arr, &mut TestMeter::new(meter_rate, cbs), conserved);
        let tg = drive(&mut green, &arr, &mut TestMeter::new(meter_rate, cbs), conserved);
        causal_fifo_complete(&tg);
        for id in 0..arr.len() {
            prop_assert!(!tp.dropped[id] && !tg.dropped[id]);
            let (dp, dg) = (tp.departure[id].unwrap(), tg.departure[id].unwrap());
            prop_assert!(dg <= dp, "packet {id}: green {dg} later than plain {dp}");
        }
        // The rate schedule still bounds each service time from above.
        let mut prev: Option<Time> = None;
        for &id in &tg.order {
            let id = id as usize;
            let d = tg.departure[id].unwrap();
            let h = prev.map_or(tg.arrival[id], |q| q.max(tg.arrival[id]));
            prop_assert!(d - h <= time_to_serve(units(tg.size[id] as u64), p.cir().bps()));
            prev = Some(d);
        }
    }

    /// A token-bucket shaper is causal, FIFO, conserves bytes and its output conforms:
    /// the bytes released at instants in [t_i, t_j] are at most depth + rate·(t_j − t_i).
    #[test]
    fn token_bucket_output_conforms(
        rate in 50_000u64..5_000_000,
        depth in 1u64..6_000,
        buffer in 1u64..20_000,
        arr in arrivals(),
    ) {
        let p = TokenBucketParams::new(Rate(rate), depth, buffer).unwrap();
        let mut s = Shaper::new(ShaperParams::TokenBucket(p));
        let tr = drive(&mut s, &arr, &mut TestMeter::new(1, 1), conserved);
        causal_fifo_complete(&tr);
        for (id, &sz) in tr.size.iter().enumerate() {
            if sz as u64 > depth {
                prop_assert!(tr.dropped[id], "oversize packet {id} admitted");
            }
        }
        let rel: Vec<(Time, u64)> = tr
            .order
            .iter()
            .map(|&id| (tr.departure[id as usize].unwrap(), tr.size[id as usize] as u64))
            .collect();
        for i in 0..rel.len() {
            let mut bytes = 0u64;
            for j in i..rel.len() {
                bytes += rel[j].1;
                let allowance = units(depth) + (rel[j].0 - rel[i].0).0 as u128 * rate as u128;
                prop_assert!(units(bytes) <= allowance,
                    "releases {i}..={j}: {bytes} B exceed the profile");
            }
        }
    }
}

#[test]
fn shaper_kinds() {
    let sr = RasParams::single_rate(&SrRasConfig {
        cir: Rate(8_000),
        mir: Rate(8_000),
        line_rate: Rate(8_000),
        cir_th: 0,
        mir_th: 0,
        buffer: 1,
        ear_window: Duration::from_secs(1),
    })
    .unwrap();
    let tr = RasParams::two_rate(&TrRasConfig {
        cir: Rate(8_000),
        pir: Rate(8_000),
        mir: Rate(8_000),
        line_rate: Rate(8_000),
        cir_th: 0,
        pir_th: 0,
        mir_th: 0,
        buffer: 1,
        ear_window: Duration::from_secs(1),
    })
    .unwrap();
    let tb = TokenBucketParams::new(Rate(8_000), 1, 1).unwrap();
    let kinds: Vec<ShaperKind> = [
        ShaperParams::TokenBucket(tb),
        ShaperParams::Ras(sr),
        ShaperParams::Ras(tr),
        ShaperParams::GreenRas(sr),
        ShaperParams::GreenRas(tr),
    ]
    .into_iter()
    .map(|p| Shaper::new(p).kind())
    .collect();
    use ShaperKind::*;
    assert_eq!(kinds, vec![TokenBucket, SrRas, TrRas, GSrRas, GTrRas]);
}
