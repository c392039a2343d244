//! A closed loop of the sans-IO PCN pieces without the engine: CBR flows on one metered
//! link (never physically congested, no queue), STM marker → STM egress → STM ingress with
//! zero signalling delay, and a termination step that removes random flows. It checks that
//! the pieces compose as §3 describes (all packets marked above SR, reports after L marks,
//! terminations of about y·S per 100 ms round, reports stopping once the rate is below SR
//! and the MkTB has refilled past its threshold), not a
//! published number: the C-table reproductions belong to the engine (`qoslab reproduce`).

use super::*;
use crate::rng::Rng;
use crate::time::{Duration, Time};
use crate::units::Rate;

const FLOW_BPS: u64 = 64_000; // CBR voice, §10.2
const PKT_BITS: u64 = 1280;
const PERIOD_NS: u64 = 20_000_000;

struct LoopResult {
    first_termination: Option<Time>,
    /// The termination after which (active flows × 64 kb/s) < SR (§12 definition).
    below_sr_at: Option<Time>,
    terminations: u32,
    orders: Vec<Terminate>,
    final_flows: usize,
    cancels: u64,
}

/// `flows` CBR flows with random phases from t = 0, for `secs` seconds.
fn run_loop(flows: usize, reading: MkThresholdReading, secs: u64) -> LoopResult {
    run_loop_from(
        flows,
        flows,
        0,
        reading,
        FirstReport::AtLthMark,
        RoundStart::BackToBack,
        secs,
    )
}

/// `base` flows from t = 0, then `flows − base` more from period `add_period` on (each at
/// a random phase within one 20 ms packet interval, §12), for `secs` seconds.
fn run_loop_from(
    flows: usize,
    base: usize,
    add_period: u64,
    reading: MkThresholdReading,
    first: FirstReport,
    rounds: RoundStart,
    secs: u64,
) -> LoopResult {
    let (ar, sr) = (Rate::from_mbps(64), Rate::from_mbps(128)); // Term CBR, map §4.3
    let mut p = StmParams::draft_defaults(ar, sr);
    p.mk_threshold_reading = reading;
    let mut marker = StmMarker::new(p).unwrap();
    let mut egress =
        StmEgress::with_first_report(StmEgressParams::draft_defaults(), first).unwrap();
    let mut ingress =
        StmIngress::with_round_start(StmIngressParams::draft_defaults(), rounds).unwrap();
    let mut rng = Rng::stream(11, "pcn-loop/phases");
    let mut victims = Rng::stream(11, "pcn-loop/victims");
    let mut order: Vec<(u64, usize)> = (0..flows).map(|i| (rng.below(PERIOD_NS), i)).collect();
    order.sort_unstable();
    let mut active: Vec<bool> = (0..flows).map(|f| f < base).collect();
    let mut n_active = base;
    let mut res = LoopResult {
        first_termination: None,
        below_sr_at: None,
        terminations: 0,
        orders: Vec::new(),
        final_flows: 0,
        cancels: 0,
    };
    for period in 0..secs * 1_000_000_000 / PERIOD_NS {
        if period == add_period && add_period > 0 {
            for a in &mut active[base..] {
                *a = true;
            }
            n_active = flows;
        }
        for &(phase, f) in &order {
            if !active[f] {
                continue;
            }
            let now = Time(period * PERIOD_NS + phase);
            // Deadlines first (the engine would order them before the packet).
            while let Some(w) = egress.next_wakeup().filter(|w| *w <= now) {
                if let Some(EgressSignal::Report { rate_bps, .. }) = egress.poll(w) {
                    ingress.on_report(w, rate_bps);
                }
            }
            while let Some(w) = ingress.next_wakeup().filter(|w| *w <= now) {
                if let Some(t) = ingress.poll(w) {
                    res.terminations += 1;
                    res.orders.push(t);
                    res.first_termination.get_or_insert(w);
                    let mut k = t.rate_bps.div_ceil(FLOW_BPS) as usize; // ceil, map §1.5
                    while k > 0 && n_active > 0 {
                        let v = victims.below(flows as u64) as usize;
                        if active[v] {
                            active[v] = false;
                            n_active -= 1;
                            k -= 1;
                        }
                    }
                    if res.below_sr_at.is_none() && (n_active as u64) * FLOW_BPS < sr.bps() {
                        res.below_sr_at = Some(w);
                    }
                }
            }
            if !active[f] {
                continue;
            }
            ingress.on_send(now, PKT_BITS);
            let mark = marker.on_packet(now, PKT_BITS, PcnMark::NotMarked);
            match egress.on_packet(now, PKT_BITS, mark) {
                Some(EgressSignal::Report { rate_bps, .. }) => ingress.on_report(now, rate_bps),
                Some(EgressSignal::Cancel) => ingress.on_cancel(now),
                None => {}
            }
        }
    }
    res.final_flows = n_active;
    res.cancels = egress.counters().cancels;
    res
}

/// 2500 flows = 1.25·SR (Table C.1 CBR set-up, without the 50 s warm-up at 0.9·AR).
#[test]
fn stm_loop_terminates_below_sr_little_by_little() {
    let sr_flows = 2000;
    for reading in [MkThresholdReading::Literal, MkThresholdReading::Deficit] {
        let r = run_loop(2500, reading, 3);
        let first = r.first_termination.expect("terminated");
        let below = r.below_sr_at.expect("went below SR");
        let ot = 100.0 * (sr_flows - r.final_flows) as f64 / sr_flows as f64;
        let tt = (below.as_nanos() - first.as_nanos()) as f64 * 1e-9;
        eprintln!(
            "{reading:?}: {} terminations, first at {first:?}, below SR at {below:?} (raw time {tt:.3} s), \
             {} flows left, OT {ot:.2} %, {} cancels",
            r.terminations, r.final_flows, r.cancels
        );
        // The link is never physically congested, so R ≈ S: every order is y·S = 5 % of S
        // (min(R_min, S) = S) up to the sliding-window noise of R_min (≤ 3 % here), i.e.
        // termination "little by little" (§6): 1.25 → < 1.0 takes at least 4 rounds.
        for t in &r.orders {
            let f = t.rate_bps as f64 / t.sending_rate_bps as f64;
            assert!((0.05 - 1e-9..0.08).contains(&f), "{reading:?}: {t:?}");
        }
        // Rounds are back to back, 100 ms apart.
        let rounds_to_cross = ((below.as_nanos() - first.as_nanos()) / 100_000_000) as u32 + 1;
        assert!(rounds_to_cross >= 4, "{reading:?}: {rounds_to_cross}");
        assert!(tt >= 0.3 - 1e-9, "{reading:?}: {tt}");
        assert!(
            r.final_flows < sr_flows && r.final_flows > 1000,
            "{reading:?}"
        );
        // Once below SR, the marking stops being total after the MkTB hang-over: reports
        // stop (Variant A), a round ends without a report and the ingress goes idle. At
        // most a few rounds terminate after the crossing.
        assert!(r.terminations <= rounds_to_cross + 3, "{reading:?}");
        assert_eq!(r.terminations as usize, r.orders.len());
    }
    let lit = run_loop(2500, MkThresholdReading::Literal, 3);
    let def = run_loop(2500, MkThresholdReading::Deficit, 3);
    // The deficit reading leaves the full zone sooner (hang-over ≈ 2 ms vs 8 ms of SR
    // deficit, map §8): never more terminated than with the literal reading.
    assert!(def.final_flows >= lit.final_flows);
}

/// The §12 set-up in miniature: 0.9·AR (900 flows) for 1 s, then 1600 more flows (1.25·SR
/// in total). With the first report at the L-th mark, the report's 33.3 ms window is
/// mostly pre-jump traffic and (with the Literal threshold reading) the first order removes
/// about half the aggregate; with the first report one interval later, or with the Deficit
/// reading (whose full zone starts ~32 ms after the jump), every order is ≈ y·S (see the
/// `stm_egress` module docs).
#[test]
fn stm_loop_after_a_jump_from_below_ar() {
    for reading in [MkThresholdReading::Literal, MkThresholdReading::Deficit] {
        for first in [FirstReport::AtLthMark, FirstReport::OneIntervalLater] {
            let r = run_loop_from(2500, 900, 50, reading, first, RoundStart::BackToBack, 3);
            let t0 = r.first_termination.expect("terminated");
            let below = r.below_sr_at.expect("went below SR");
            assert!(t0 > Time::from_secs(1));
            let ot = 100.0 * (2000 - r.final_flows as i64) as f64 / 2000.0;
            eprintln!(
                "jump, {reading:?}, {first:?}: {} terminations, raw time {:.3} s, {} flows left, OT {ot:.2} %",
                r.terminations,
                (below.as_nanos() - t0.as_nanos()) as f64 * 1e-9,
                r.final_flows
            );
            let f0 = r.orders[0].rate_bps as f64 / r.orders[0].sending_rate_bps as f64;
            match (reading, first) {
                // Literal: the full zone starts 2 ms of SR deficit below the size, ~8 ms
                // after the jump; the 100th mark ~9 ms after it.
                (MkThresholdReading::Literal, FirstReport::AtLthMark) => {
                    assert!(f0 > 0.3, "{reading:?}: {:?}", r.orders[0])
                }
                // Deficit: 8 ms of SR deficit, drained at 0.25·SR: ~32 ms, so the window of
                // a report at once already lies (almost) wholly after the jump.
                _ => {
                    for t in &r.orders {
                        let f = t.rate_bps as f64 / t.sending_rate_bps as f64;
                        assert!((0.05 - 1e-9..0.08).contains(&f), "{reading:?}: {t:?}");
                    }
                    assert!(r.terminations >= 4);
                }
            }
            assert!(r.final_flows < 2000 && r.final_flows > 1000);
        }
    }
}

/// The other §3.3.2 reading: after each termination the ingress waits for the next report
/// (rounds ≥ 100 ms apart instead of exactly 100 ms).
#[test]
fn stm_loop_rounds_started_by_reports() {
    let r = run_loop_from(
        2500,
        900,
        50,
        MkThresholdReading::Literal,
        FirstReport::OneIntervalLater,
        RoundStart::NextReport,
        3,
    );
    let t0 = r.first_termination.expect("terminated");
    let below = r.below_sr_at.expect("went below SR");
    eprintln!(
        "jump, Literal, OneIntervalLater, NextReport: {} terminations, raw time {:.3} s, {} flows left, OT {:.2} %",
        r.terminations,
        (below.as_nanos() - t0.as_nanos()) as f64 * 1e-9,
        r.final_flows,
        100.0 * (2000 - r.final_flows as i64) as f64 / 2000.0
    );
    for t in &r.orders {
        let f = t.rate_bps as f64 / t.sending_rate_bps as f64;
        assert!((0.05 - 1e-9..0.08).contains(&f), "{t:?}");
    }
    // ≥ 4 rounds to cross, each ≥ 100 ms after the previous.
    assert!(below.as_nanos() - t0.as_nanos() >= 300_000_000);
    assert!(r.final_flows < 2000 && r.final_flows > 1000);
}

/// Below SR (0.9·SR) nothing is ever terminated.
#[test]
fn stm_loop_below_sr_never_terminates() {
    let r = run_loop(1800, MkThresholdReading::Literal, 2);
    assert_eq!(r.terminations, 0);
    assert_eq!(r.final_flows, 1800);
}

/// The CL pieces in the same loop: RFC 5670 excess-traffic-meter at SR → CL egress (rates by
/// mark per 100 ms period, RFC 6661 §3.2) → Decision Point (a report with ETM starts the
/// PCN-sent-rate measurement; the next one gives SAR = NM + ThM; terminate sent-rate − SAR,
/// §3.3.2). On one link, SAR ≈ SR, so one order brings the aggregate to about SR (§12: "CL
/// terminates S − SAR").
#[test]
fn cl_loop_terminates_to_about_sr_in_one_step() {
    let (ar, sr) = (Rate::from_mbps(64), Rate::from_mbps(128));
    let flows = 2500usize;
    let mut marker = ClMarker::draft_defaults(ar, sr).unwrap();
    let mut egress = ClEgress::new(ClEgressParams::draft_defaults()).unwrap();
    let mut ingress = ClIngress::new(ClIngressParams::draft_defaults(Duration::ZERO)).unwrap();
    let mut rng = Rng::stream(11, "pcn-loop/phases");
    let mut ramp = Rng::stream(11, "pcn-loop/cl-ramp");
    let mut victims = Rng::stream(11, "pcn-loop/victims");
    let mut order: Vec<(u64, usize)> = (0..flows).map(|i| (rng.below(PERIOD_NS), i)).collect();
    order.sort_unstable();
    let mut active = vec![true; flows];
    let mut n_active = flows;
    let mut orders = Vec::new();
    for period in 0..150u64 {
        for &(phase, f) in &order {
            if !active[f] {
                continue;
            }
            let now = Time(period * PERIOD_NS + phase);
            while let Some(w) = egress.next_wakeup().filter(|w| *w <= now) {
                if let Some(rep) = egress.poll(w) {
                    ingress.on_report(w, rep);
                }
            }
            while let Some(w) = ingress.next_wakeup().filter(|w| *w <= now) {
                if let Some(t) = ingress.poll(w) {
                    orders.push((w, t));
                    let mut k = t.rate_bps.div_ceil(FLOW_BPS) as usize;
                    while k > 0 && n_active > 0 {
                        let v = victims.below(flows as u64) as usize;
                        if active[v] {
                            active[v] = false;
                            n_active -= 1;
                            k -= 1;
                        }
                    }
                }
            }
            if !active[f] {
                continue;
            }
            ingress.on_send(now, PKT_BITS);
            let mark = marker.on_packet(now, PKT_BITS, PcnMark::NotMarked, &mut ramp);
            egress.on_packet(now, PKT_BITS, mark);
        }
    }
    let effective: Vec<_> = orders.iter().filter(|(_, t)| t.rate_bps > 0).collect();
    eprintln!(
        "CL: {} orders ({} non-zero), {n_active} flows left, OT {:.2} %",
        orders.len(),
        effective.len(),
        100.0 * (2000.0 - n_active as f64) / 2000.0
    );
    // S ≈ 160 Mb/s, SAR ≈ 128 Mb/s: the first order is ≈ 32 Mb/s ≈ 500 flows.
    let (_, first) = effective[0];
    assert!(
        (first.sending_rate_bps as f64 / 160e6 - 1.0).abs() < 0.01,
        "{first:?}"
    );
    assert!(
        (first.min_report_bps as f64 / 128e6 - 1.0).abs() < 0.02,
        "{first:?}"
    );
    // After it the aggregate sits within 2 % of SR, and later orders change little.
    assert!((n_active as f64 / 2000.0 - 1.0).abs() < 0.02, "{n_active}");
}

/// Session 9 audit (issue 10): the MkTB hang-over of the written algorithm, exactly.
/// After an overload MkTB.fill is 0 (§3.1: "MkTB.fill = max(0, MkTB.fill - packet.size)" for
/// every packet); once the rate r drops below SR it refills at SR − r, and every packet stays
/// in the full zone until the fill reaches the threshold: 8 ms·SR/(SR − r) (Literal) or
/// 2 ms·SR/(SR − r) (Deficit, map §8). During that time the egress sees an unbroken marked
/// run and keeps reporting every 33.3 ms (§3.2.2, §10.4), so the ingress orders again. For
/// the hang-over to end before the next report (≤ 33.3 ms), r must be ≤ 0.76·SR (Literal)
/// or ≤ 0.94·SR (Deficit); the published C.1 CBR rows stop at about 0.967 SR.
///
/// Packets of 1280 bits (CBR voice, §10.2) on the Term CBR link (AR 64, SR 128 Mb/s): 100 ms
/// at 2·SR (one every 5 µs), then one every 10.5 µs (121.9 Mb/s = 0.952·SR). MkTB gains
/// 128 Mb/s × 10.5 µs = 1344 bit per gap and loses 1280: +64 bit per packet. Before the
/// j-th slow packet fill = (j − 1)·64 + 1344, so the first packet out of the full zone is
/// j = 15,980 (Literal: 15,979·64 + 1344 = 1,024,000 = MkTB.threshold, not below it) and
/// j = 3,980 (Deficit: 3,979·64 + 1344 = 256,000 = size − threshold): 167.79 ms and
/// 41.79 ms after the drop (8 ms·SR/(SR − r) = 168.0 ms, 2 ms·SR/(SR − r) = 42.0 ms).
#[test]
fn mktb_hang_over_after_an_overload_outlasts_the_report_interval() {
    for (reading, first_out, min_reports) in [
        (MkThresholdReading::Literal, 15_980u64, 5u64),
        (MkThresholdReading::Deficit, 3_980, 1),
    ] {
        let (ar, sr) = (Rate::from_mbps(64), Rate::from_mbps(128));
        let mut p = StmParams::draft_defaults(ar, sr);
        p.mk_threshold_reading = reading;
        let mut m = StmMarker::new(p).unwrap();
        let mut e = StmEgress::new(StmEgressParams::draft_defaults()).unwrap();
        let mut reports_after_drop = 0u64;
        let mut feed = |now: Time, m: &mut StmMarker, e: &mut StmEgress, after: bool| {
            while let Some(w) = e.next_wakeup().filter(|w| *w <= now) {
                if let Some(EgressSignal::Report { .. }) = e.poll(w) {
                    reports_after_drop += u64::from(after);
                }
            }
            let mark = m.on_packet(now, PKT_BITS, PcnMark::NotMarked);
            if let Some(EgressSignal::Report { .. }) = e.on_packet(now, PKT_BITS, mark) {
                reports_after_drop += u64::from(after);
            }
            mark
        };
        let drop_at = 100_000_000u64;
        for k in 0..drop_at / 5_000 {
            feed(Time(k * 5_000), &mut m, &mut e, false);
        }
        // The overload's last packet left MkTB empty (it was at 0 long before).
        assert_eq!(m.mktb_fill_units(), 0, "{reading:?}");
        let last_overload = drop_at - 5_000;
        let mut j = 0u64;
        let out_at = loop {
            j += 1;
            let now = Time(last_overload + j * 10_500);
            let mark = feed(now, &mut m, &mut e, true);
            if mark == PcnMark::NotMarked {
                break now;
            }
            assert_eq!(m.mark_cnt(), 0, "{reading:?}: packet {j} in the full zone");
        };
        assert_eq!(j, first_out, "{reading:?}");
        let hang_ns = out_at.as_nanos() - last_overload;
        assert_eq!(hang_ns, first_out * 10_500, "{reading:?}");
        assert!(hang_ns > 33_300_000, "{reading:?}: {hang_ns} ns");
        // The egress kept reporting through the hang-over, then stopped (Variant A).
        assert!(
            reports_after_drop >= min_reports,
            "{reading:?}: {reports_after_drop} reports after the drop"
        );
        assert_eq!(e.next_wakeup(), None, "{reading:?}");
    }
}
