//! The PCN engine on short runs: determinism, conservation, the traffic models' mean rates,
//! the measured marking function, and the draft's qualitative conclusions that short runs
//! can show (map §6).

use qoslab_sim::pcn::{parse_str, run, PcnResult, PcnSpec};

fn spec(text: &str) -> PcnSpec {
    parse_str(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn adm(traffic: &str, rate: &str, interval: &str, topo: &str, scheme: &str, dur: u32) -> PcnSpec {
    spec(&format!(
        r#"[pcn]
kind = "admission"
scheme = "{scheme}"
duration = "{dur}s"
link_rate = "{rate}"
[pcn.traffic]
model = "{traffic}"
[pcn.topology]
{topo}
[pcn.admission]
call_interval = "{interval}"
[pcn.measure]
oa_from = "{}s"
oa_to = "{dur}s"
"#,
        dur / 2
    ))
}

fn static_run(traffic: &str, rate: &str, flows: u32, scheme: &str, dur: u32) -> PcnSpec {
    spec(&format!(
        r#"[pcn]
kind = "static"
scheme = "{scheme}"
duration = "{dur}s"
link_rate = "{rate}"
admissible = 0.5
supportable = 0.9
[pcn.traffic]
model = "{traffic}"
[pcn.topology]
kind = "single"
[pcn.population]
base_flows = {flows}
start_spread = "1s"
[pcn.measure]
static_from = "2s"
"#
    ))
}

fn term(scheme: &str, final_flows: u32) -> PcnSpec {
    term_with(scheme, final_flows, "")
}

/// The CL the draft compares with (scenarios/pcn-stm/term-*.toml): cl-phb-03 §3.2's meter and
/// §10.4.1's edge model.
const CL_PHB_03: &str = r#"[pcn.cl]
excess_meter = "cl-phb-03"
edge = "cl-phb-03"
"#;

fn term_with(scheme: &str, final_flows: u32, extra: &str) -> PcnSpec {
    spec(&format!(
        r#"[pcn]
kind = "termination"
scheme = "{scheme}"
duration = "14s"
link_rate = "320Mbps"
[pcn.traffic]
model = "cbr"
randomize = "50ms"
[pcn.topology]
kind = "single"
[pcn.population]
base_flows = 900
final_flows = {final_flows}
extra_at = "4s"
[pcn.measure]
ot_from = "9s"
ot_to = "14s"
{extra}"#
    ))
}

fn json(r: &PcnResult) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn same_seed_same_bytes_other_seed_other_run() {
    let s = adm(
        "vbr",
        "20Mbps",
        "20ms",
        "kind = \"rtt\"\ningresses = 7",
        "stm",
        20,
    );
    let a = run(&s, 3).unwrap();
    let b = run(&s, 3).unwrap();
    assert_eq!(json(&a), json(&b));
    let c = run(&s, 4).unwrap();
    assert_ne!(json(&a), json(&c));
    assert!(a.ieas.iter().map(|i| i.admitted).sum::<u64>() > 100);
}

#[test]
fn conservation_holds_per_iea_and_per_link() {
    // Parking lot with randomized traffic and termination: packets on every kind of path,
    // in flight at the end, flows terminated while packets are under way.
    let mut s = term("stm", 4000);
    s.topology = qoslab_sim::pcn::spec::TopologySpec::ParkingLot {
        bottlenecks: 3,
        link_delay: qoslab_algo::Duration::from_millis(1),
        vertical_delay: qoslab_algo::Duration::from_millis(1),
    };
    s.duration = qoslab_algo::Duration::from_secs(6);
    s.measure.ot_from = qoslab_algo::Duration::from_secs(5);
    s.measure.ot_to = qoslab_algo::Duration::from_secs(6);
    let r = run(&s, 1).unwrap();
    assert_eq!(r.conservation, "ok");
    let mut in_flight = 0;
    for i in &r.ieas {
        assert_eq!(i.sent, i.delivered + i.dropped + i.in_flight, "{}", i.name);
        in_flight += i.in_flight;
    }
    assert!(in_flight > 0);
    for l in &r.links {
        assert_eq!(
            l.arrived,
            l.forwarded + l.dropped + l.in_flight,
            "{}",
            l.name
        );
        assert_eq!(l.fifo_overflows, 0);
    }
    assert!(r.terminations.len() > 2);
}

#[test]
fn traffic_models_have_their_nominal_mean_rates() {
    // Below AR nothing is marked, so this also measures the offered rate alone.
    for (model, flows, nominal, tol) in [
        ("cbr", 100u32, 64_000.0, 0.002),
        ("vbr", 600, 21_760.0, 0.03),
        ("svd", 60, 4_080_000.0, 0.04),
    ] {
        let s = static_run(model, "1Gbps", flows, "stm", 62);
        let r = run(&s, 2).unwrap();
        let l = &r.links[0];
        let per_flow = l.static_rate_bps.unwrap() / f64::from(flows);
        assert!(
            (per_flow / nominal - 1.0).abs() < tol,
            "{model}: {per_flow} bit/s per flow vs {nominal}"
        );
        assert_eq!(
            l.out_marks[1] + l.out_marks[2],
            0,
            "{model}: marks below AR"
        );
    }
}

#[test]
fn stm_marking_function_follows_fig2() {
    // VBR on the B.3 VBR link: AR = 1800 flows, SR = 3240 flows.
    let sr = 78_336_000.0 * 0.9;
    let frac = |flows: u32, scheme: &str| {
        let r = run(&static_run("vbr", "78.336Mbps", flows, scheme, 14), 1).unwrap();
        let l = &r.links[0];
        let m = l.static_marked_fraction.unwrap();
        (l.static_rate_bps.unwrap() / sr, m[0] + m[1])
    };
    let (x, y) = frac(1400, "stm");
    assert!(x < 0.5 / 0.9 && y < 0.002, "below AR: {x} {y}");
    // Between AR and SR: r/(N·SR), N = 3 (§3, App. D).
    let (x, y) = frac(2700, "stm");
    assert!(x > 0.6 && x < 0.95);
    assert!(
        (y - x / 3.0).abs() < 0.03,
        "partial zone: rate {x} SR, marked {y}"
    );
    let (x, y) = frac(4000, "stm");
    assert!(x > 1.1 && y > 0.9, "above SR: {x} {y}");
    // Fractional marking (App. E): 1/N of the traffic between AR and SR, whatever the rate.
    let (x, y) = frac(2700, "fractional");
    assert!(
        (y - 1.0 / 3.0).abs() < 0.03,
        "fractional: rate {x} SR, marked {y}"
    );
}

#[test]
fn single_link_over_admission_is_near_zero() {
    // Map §6 (B.3): STM OA is small on a single link (published CBR 0.065 %).
    let r = run(
        &adm("cbr", "128Mbps", "12ms", "kind = \"single\"", "stm", 40),
        1,
    )
    .unwrap();
    let oa = r.links[0].over_admission.as_ref().unwrap().oa_pct;
    assert!(oa.abs() < 1.0, "OA {oa} %");
    let i = &r.ieas[0];
    assert_eq!(i.offered, i.admitted + i.blocked);
    assert!(i.blocked > i.admitted, "load 5 AR: most calls blocked");
}

#[test]
fn stm_terminates_little_by_little_cl_in_one_step() {
    // Map §6 (C.1, §3.3.2, §6): STM terminates "little by little" in 100 ms rounds of about
    // y·S, so it is slower than CL, which terminates S − SAR at once.
    let s = run(&term("stm", 4000), 1).unwrap();
    let c = run(&term("cl", 4000), 1).unwrap();
    assert!(
        s.terminations.len() >= 5,
        "{} STM rounds",
        s.terminations.len()
    );
    let biggest = s.terminations.iter().map(|t| t.flows).max().unwrap();
    assert!(
        biggest < 1000,
        "STM's largest round {biggest} flows (3100 over SR·2)"
    );
    let ot_s = s.links[0].over_termination.as_ref().unwrap().ot_pct;
    assert!(ot_s > -1.0 && ot_s < 40.0, "STM OT {ot_s} %");
    let tt_s = s.links[0].termination_time.as_ref().unwrap().raw_s.unwrap();
    // CL (RFC 6661) can end exactly at SR in nominal terms (2000 flows × 64 kb/s), which the
    // "rate < SR" termination time never sees: time its orders instead.
    let tt_c = c.terminations.last().unwrap().t_s - c.terminations[0].t_s;
    assert!(tt_s >= 0.3 && tt_s > tt_c, "STM {tt_s} s vs CL {tt_c} s");
    let first_c = c.terminations[0].flows;
    assert!(
        first_c > 1500,
        "CL's first order removes most of the excess: {first_c} flows"
    );
    let ot_c = c.links[0].over_termination.as_ref().unwrap().ot_pct;
    assert!(ot_c > -1.0, "CL must bring the rate below SR: OT {ot_c}");
}

#[test]
fn cl_phb_03_first_order_is_sending_rate_minus_sar() {
    // cl-phb-03 §10.4.1 (the draft's CL, §10.3 "200 ms for CL"): the first PM packet opens the
    // egress's 100 ms SAR interval; the report (1 ms later) opens the ingress's 100 ms
    // sending-rate interval; at its end S − SAR is terminated. The load steps from 900 to
    // 4000 flows at 4 s (2.0 SR; SR = 2000 flows = 128 Mb/s), ramping over ≤ 70 ms.
    let c = run(&term_with("cl", 4000, CL_PHB_03), 1).unwrap();
    let t0 = &c.terminations[0];
    let dt = t0.t_s - 4.0;
    assert!(
        (0.2..0.3).contains(&dt),
        "first order {dt} s after the step"
    );
    let sr = 128e6;
    assert!(
        (t0.reported_bps as f64 / sr - 1.0).abs() < 0.02,
        "SAR {} vs SR",
        t0.reported_bps
    );
    assert!(
        (t0.sending_bps as f64 / (2.0 * sr) - 1.0).abs() < 0.03,
        "S {}",
        t0.sending_bps
    );
    assert_eq!(t0.amount_bps, t0.sending_bps - t0.reported_bps);
    let ot = c.links[0].over_termination.as_ref().unwrap().ot_pct;
    assert!(ot > -1.0 && ot < 5.0, "OT {ot} %");
}

#[test]
fn cl_upper_limit_victims_stay_within_the_amount() {
    // RFC 6661 §3.3.2 (MAY): "select a set of PCN-flows whose sum of upper rate limits is up
    // to the traffic rate to be terminated" — CBR's upper limit is its 64 kb/s peak, so every
    // order removes floor(amount / 64 kb/s) flows; the default removes the ceiling.
    let extra = format!("{CL_PHB_03}victims = \"upper-limit\"\n");
    let u = run(&term_with("cl", 4000, &extra), 1).unwrap();
    let d = run(&term_with("cl", 4000, CL_PHB_03), 1).unwrap();
    for t in &u.terminations {
        assert_eq!(t.flows, t.amount_bps / 64_000, "{t:?}");
    }
    let t = &d.terminations[0];
    assert_eq!(t.flows, t.amount_bps.div_ceil(64_000), "{t:?}");
}

#[test]
#[ignore = "known mismatch, see scenarios/pcn-stm/RESULTS.md ('The CL 2.0 SR gap, session 7'): with the draft's own CL (cl-phb-03 §3.2 meter, §10.4.1 edge) as with RFC 5670/6661's, our CL over-terminates far less than the draft's at 2.0 SR (about 1 % vs 12.4 %), our STM more (about 14 % vs 3.5 %: the orders after the crossing that the draft's written MkTB forces, RESULTS.md 'Session 9 audit', test qoslab-algo pcn::loop_tests::mktb_hang_over_after_an_overload_outlasts_the_report_interval); no reading of the draft's measurement that the texts support closes it"]
fn stm_over_terminates_less_than_cl_at_2sr() {
    // Map §6 (C.1): at 2.0 SR, STM's OT is clearly below CL's (3.5 vs 12.4 for CBR).
    let s = run(&term("stm", 4000), 1).unwrap();
    let c = run(&term_with("cl", 4000, CL_PHB_03), 1).unwrap();
    let ot_s = s.links[0].over_termination.as_ref().unwrap().ot_pct;
    let ot_c = c.links[0].over_termination.as_ref().unwrap().ot_pct;
    assert!(ot_s < ot_c, "OT STM {ot_s} % vs CL {ot_c} %");
}

fn plt_term(scheme: &str) -> PcnSpec {
    spec(&format!(
        r#"[pcn]
kind = "termination"
scheme = "{scheme}"
duration = "10s"
link_rate = "64Mbps"
[pcn.traffic]
model = "cbr"
randomize = "50ms"
[pcn.topology]
kind = "parking-lot"
bottlenecks = 3
[pcn.population]
base_flows = 180
final_flows = 800
extra_at = "3s"
[pcn.measure]
ot_from = "6s"
ot_to = "10s"
{CL_PHB_03}"#
    ))
}

#[test]
fn parking_lot_cl_over_terminates_upstream_stm_evenly() {
    // Map §6 (C.5, §5.2, §12.3): at 2.0 SR on every link of a parking lot, CL's OT is
    // largest on the upstream link (the long-haul aggregate's excess-traffic marks from
    // every link add up at its egress) and falls downstream; STM's is about the same on
    // every link. A scaled-down lot (3 bottlenecks, SR = 400 flows) keeps the effect.
    let ot = |r: &PcnResult| -> Vec<f64> {
        r.links
            .iter()
            .filter_map(|l| l.over_termination.as_ref().map(|o| o.ot_pct))
            .collect()
    };
    let (cr, sr) = (
        run(&plt_term("cl"), 1).unwrap(),
        run(&plt_term("stm"), 1).unwrap(),
    );
    let (c, s) = (ot(&cr), ot(&sr));
    eprintln!("OT per bottleneck, upstream first: CL {c:?}, STM {s:?}");
    // Map §6 (C.6, §12.3): at 2.0 SR the long-haul aggregate's termination time is longer
    // with STM ("over one second larger than those of CL"; here 1.0 s vs 0.3 s in the table
    // convention, the full run 1.08 vs 0.26 s: the direction holds, the 1 s margin does not).
    let long_tt = |r: &PcnResult| {
        let i = r
            .ieas
            .iter()
            .find(|i| i.name.starts_with("long-haul"))
            .unwrap();
        i.termination_time.as_ref().unwrap().table_s.unwrap()
    };
    let (tt_s, tt_c) = (long_tt(&sr), long_tt(&cr));
    eprintln!("long-haul termination time (table): STM {tt_s} s, CL {tt_c} s");
    assert!(tt_s > tt_c + 0.5, "STM {tt_s} s vs CL {tt_c} s");
    assert_eq!((c.len(), s.len()), (3, 3));
    assert!(
        c[0] > c[2] + 5.0 && c[0] > c[1],
        "CL: upstream {} vs downstream {}",
        c[0],
        c[2]
    );
    let spread = |v: &[f64]| {
        v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
    };
    assert!(
        spread(&s) < spread(&c) / 2.0,
        "STM spread {:?} vs CL {:?}",
        s,
        c
    );
}

#[test]
fn at_1_25_sr_stm_over_terminates_cbr_more_than_cl_and_stm_takes_longer_at_2_sr() {
    // Map §6 (C.1, §12.1): at 1.25 SR "the proposed control was inferior to the CL control
    // in the case of CBR" (published OT 3.26 vs 0.53 %); STM terminates little by little, so
    // its termination time grows with the overload (published 0.4 s at 1.25 SR, 1.3 s at
    // 2.0 SR: 5 vs 14 rounds of y = 5 %).
    let s125 = run(&term("stm", 2500), 1).unwrap();
    let c125 = run(&term_with("cl", 2500, CL_PHB_03), 1).unwrap();
    let s200 = run(&term("stm", 4000), 1).unwrap();
    let ot = |r: &PcnResult| r.links[0].over_termination.as_ref().unwrap().ot_pct;
    let raw = |r: &PcnResult| r.links[0].termination_time.as_ref().unwrap().raw_s.unwrap();
    eprintln!(
        "1.25 SR: OT STM {} CL {}; STM raw time 1.25 SR {} s, 2.0 SR {} s",
        ot(&s125),
        ot(&c125),
        raw(&s125),
        raw(&s200)
    );
    assert!(
        ot(&s125) > ot(&c125) + 1.0,
        "OT STM {} % vs CL {} %",
        ot(&s125),
        ot(&c125)
    );
    assert!(ot(&c125) > -1.0 && ot(&c125) < 3.0, "CL OT {}", ot(&c125));
    assert!(
        raw(&s200) > 2.0 * raw(&s125) && raw(&s200) >= 0.6,
        "STM time 2.0 SR {} s vs 1.25 SR {} s",
        raw(&s200),
        raw(&s125)
    );
    // More rounds at 2.0 SR than at 1.25 SR, each a fraction of the excess.
    assert!(s200.terminations.len() > s125.terminations.len() + 3);
}

#[test]
fn stm_admission_is_little_affected_by_synchronization() {
    // Map §6 (B.4, §4.1, §11.4.1): with CBR on the RTT topology STM and STM with randomized
    // CBR (U(0, 50 ms) per packet) over-admit about the same (published k = 10: 0.750 vs
    // 0.786 %; k = 70: 0.890 vs 0.867 %): STM is "little affected by synchronization".
    // k = 10 ingresses, B.4's link and load (5·AR, the single-link call rate split over them).
    let oa = |randomize: &str| {
        let s = spec(&format!(
            r#"[pcn]
kind = "admission"
scheme = "stm"
duration = "40s"
link_rate = "128Mbps"
[pcn.traffic]
model = "cbr"
randomize = "{randomize}"
[pcn.topology]
kind = "rtt"
ingresses = 10
[pcn.admission]
call_interval = "12ms"
call_interval_of = "all"
[pcn.measure]
oa_from = "20s"
oa_to = "40s"
"#
        ));
        let r = run(&s, 1).unwrap();
        r.links[0].over_admission.as_ref().unwrap().oa_pct
    };
    let (plain, randomized) = (oa("0ms"), oa("50ms"));
    eprintln!("B.4 k = 10: STM {plain} %, STM(r) {randomized} %");
    assert!(plain.abs() < 2.0 && randomized.abs() < 2.0);
    assert!(
        (plain - randomized).abs() < 0.5,
        "STM {plain} % vs STM(r) {randomized} %"
    );
}

#[test]
fn cl_counts_in_flight_packets_of_terminated_flows_only_when_they_are_not_discarded() {
    // RESULTS.md "The CL 2.0 SR gap, session 7", reading 11: with U(0, 50 ms) randomization,
    // an order of A leaves A × 25 ms of its flows' packets on their way to the ingress. By
    // default (zhang-02 §2.2: a terminated flow "sends no more packets from that time on")
    // the ingress discards them; if they are forwarded instead, the sending-rate interval
    // that starts right after the order counts them, S over-reads by A/4 while SAR stays at
    // SR, and a second order of about A/4 follows (OT ≈ 25 % at 2.0 SR).
    let nd = format!("{CL_PHB_03}[pcn.edge]\ndiscard_terminated = false\n");
    let d = run(&term_with("cl", 4000, CL_PHB_03), 1).unwrap();
    let f = run(&term_with("cl", 4000, &nd), 1).unwrap();
    let ot = |r: &PcnResult| r.links[0].over_termination.as_ref().unwrap().ot_pct;
    eprintln!(
        "orders (amount bit/s): discard {:?}, forward {:?}; OT {} vs {}",
        d.terminations
            .iter()
            .map(|t| t.amount_bps)
            .collect::<Vec<_>>(),
        f.terminations
            .iter()
            .map(|t| t.amount_bps)
            .collect::<Vec<_>>(),
        ot(&d),
        ot(&f)
    );
    let a1 = f.terminations[0].amount_bps as f64;
    let a2 = f.terminations[1].amount_bps as f64;
    assert!(
        (a2 / (a1 / 4.0) - 1.0).abs() < 0.2,
        "second order {a2} vs A/4 = {}",
        a1 / 4.0
    );
    let d2: u64 = d.terminations[1..].iter().map(|t| t.amount_bps).sum();
    assert!((d2 as f64) < a1 / 20.0, "default: later orders {d2} bit/s");
    assert!(ot(&f) > 20.0 && ot(&f) < 30.0 && ot(&d) < 3.0);
    assert!(f.ieas[0].discarded_at_ingress == 0 && d.ieas[0].discarded_at_ingress > 0);
}

#[test]
fn cl_next_sending_rate_interval_starts_just_after_an_order_unless_the_ingress_waits() {
    // RESULTS.md "Session 16 (s16-cl)": cl-phb-03 §10.4.1's ingress starts a sending-rate
    // interval on each report received while idle; the egress's intervals follow each other
    // under overload, so the report after an order arrives microseconds after it and the next
    // interval starts then (d ≈ 0). With the victims' randomized packets forwarded
    // (`discard_terminated = false`) that interval counts A × E[(U − d)+] / 100 ms = A/4 of
    // them (U ~ U(0, 50 ms)). With `ingress_wait = "after-order"` (RFC 6661 §3.3.2's spacing)
    // that report is ignored, the next interval starts at least one egress interval later
    // (d ≥ 50 ms: E[(U − d)+] = 0) and the victims' packets add nothing.
    let fwd = "[pcn.edge]\ndiscard_terminated = false\n";
    let none = format!("{CL_PHB_03}ingress_wait = \"none\"\n{fwd}");
    let wait = format!("{CL_PHB_03}ingress_wait = \"after-order\"\n{fwd}");
    let f = run(&term_with("cl", 4000, &none), 1).unwrap();
    let g = run(&term_with("cl", 4000, &wait), 1).unwrap();
    let ot = |r: &PcnResult| r.links[0].over_termination.as_ref().unwrap().ot_pct;
    let times = |r: &PcnResult| r.terminations.iter().map(|t| t.t_s).collect::<Vec<_>>();
    let (tf, tg) = (times(&f), times(&g));
    eprintln!("orders at {tf:?} (OT {}) vs {tg:?} (OT {})", ot(&f), ot(&g));
    // Same first order (the runs are identical until then).
    assert_eq!(f.terminations[0], g.terminations[0]);
    let a1 = g.terminations[0].amount_bps as f64;
    // No wait: the next order one interval (100 ms) plus under 1 ms after the first.
    assert!(
        tf.len() >= 2 && tf[1] - tf[0] > 0.1 && tf[1] - tf[0] < 0.101,
        "{tf:?}"
    );
    assert!((f.terminations[1].amount_bps as f64 / (a1 / 4.0) - 1.0).abs() < 0.2);
    // Wait: any later order comes at least two intervals later and the victims' packets add
    // nothing (later orders under A/20, against A/4).
    assert!(tg.len() < 2 || tg[1] - tg[0] >= 0.2, "{tg:?}");
    let later: u64 = g.terminations[1..].iter().map(|t| t.amount_bps).sum();
    assert!((later as f64) < a1 / 20.0, "later orders {later} bit/s");
    assert!(ot(&f) > 20.0 && ot(&g) < 3.0);
}

#[test]
fn fairness_ratio_grows_with_time_and_bottlenecks_and_stm_is_close_to_cl() {
    // Map §6 (B.8, §11.6): the short-haul / long-haul throughput ratio on the first link,
    // "the average throughput ... during the simulation time" (over [0, t]), grows with time
    // and with the number of bottlenecks, and STM is close to CL (published at 40 s: PLT2
    // 1.11 / 1.15, PLT5 1.31 / 1.28). Scaled down: 32 Mb/s links (AR = 250 flows) and the
    // B.7 call rate per IEA scaled with them (5·AR per link), 40 s.
    let ratios = |scheme: &str, n: u32| -> Vec<f64> {
        let s = spec(&format!(
            r#"[pcn]
kind = "admission"
scheme = "{scheme}"
duration = "40s"
link_rate = "32Mbps"
[pcn.traffic]
model = "cbr"
[pcn.topology]
kind = "parking-lot"
bottlenecks = {n}
[pcn.admission]
call_interval = "96ms"
call_interval_of = "iea"
[pcn.measure]
oa_from = "20s"
oa_to = "40s"
fairness_bin = "10s"
"#
        ));
        let r = run(&s, 1).unwrap();
        r.fairness.iter().map(|p| p.cumulative_ratio).collect()
    };
    let (s2, s5, c2, c5) = (
        ratios("stm", 2),
        ratios("stm", 5),
        ratios("cl", 2),
        ratios("cl", 5),
    );
    eprintln!(
        "cumulative ratio at 10..40 s: STM PLT2 {s2:?} PLT5 {s5:?}; CL PLT2 {c2:?} PLT5 {c5:?}"
    );
    for (r2, r5) in [(&s2, &s5), (&c2, &c5)] {
        assert_eq!((r2.len(), r5.len()), (4, 4));
        assert!(r5.windows(2).all(|w| w[1] > w[0]), "PLT5 grows: {r5:?}");
        assert!(
            r5[3] > 1.2 && r5[3] > r2[3] + 0.15,
            "PLT5 {r5:?} vs PLT2 {r2:?}"
        );
        assert!(r2[3] > 1.0 && r2[3] > r2[0], "PLT2 {r2:?}");
    }
    assert!((s2[3] - c2[3]).abs() < 0.1 && (s5[3] - c5[3]).abs() < 0.1);
}
