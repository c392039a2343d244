//! Delay measurement of the PCN engine on hand-computable cases: one-way delay exactly
//! propagation + transmission on an idle link, sojourn zero on an idle link and positive on
//! a loaded one, the waiting time carried across several hops, determinism, and a run's
//! other results not depending on the delay switch.

use qoslab_sim::pcn::{parse_str, run, PcnResult, PcnSpec};

fn spec(text: &str) -> PcnSpec {
    parse_str(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

/// A few CBR calls (160 B every 20 ms) on a 100 Mb/s single link of 1 ms: far below AR
/// (50 Mb/s), so nothing is marked and every call is admitted.
fn light_admission() -> PcnSpec {
    spec(
        r#"[pcn]
kind = "admission"
scheme = "stm"
duration = "10s"
link_rate = "100Mbps"
[pcn.traffic]
model = "cbr"
[pcn.topology]
kind = "single"
delay = "1ms"
[pcn.admission]
call_interval = "1s"
[pcn.measure]
oa_from = "5s"
oa_to = "10s"
delay_from = "0s"
delay_variation = true
"#,
    )
}

/// 2.0 SR of randomized CBR on a 3-bottleneck parking lot at 320 Mb/s: FIFOs are busy.
fn loaded_parking_lot(delay: bool) -> PcnSpec {
    spec(&format!(
        r#"[pcn]
kind = "termination"
scheme = "stm"
duration = "3s"
link_rate = "320Mbps"
[pcn.traffic]
model = "cbr"
randomize = "50ms"
[pcn.topology]
kind = "parking-lot"
bottlenecks = 3
link_delay = "1ms"
vertical_delay = "1ms"
[pcn.population]
base_flows = 900
final_flows = 4000
extra_at = "1s"
[pcn.measure]
ot_from = "2s"
ot_to = "3s"
delay = {delay}
delay_variation = {delay}
"#
    ))
}

fn json(r: &PcnResult) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn idle_link_delay_is_exactly_propagation_plus_transmission() {
    let r = run(&light_admission(), 1).unwrap();
    let i = &r.ieas[0];
    assert!(i.admitted >= 3, "{} calls admitted", i.admitted);
    assert_eq!(i.blocked, 0);
    let l = &r.links[0];
    assert_eq!(
        l.out_marks[1] + l.out_marks[2],
        0,
        "nothing marked below AR"
    );
    // 1 ms propagation + 160·8 bit / 100 Mb/s = 12,800 ns transmission.
    let exact = 1_000_000 + 12_800;
    let d = i.delay.as_ref().unwrap();
    assert_eq!(d.prop_tx_ns, exact);
    // Every data packet delivered (requests are not samples).
    let requests = i.offered;
    assert_eq!(d.one_way.samples, i.delivered - requests);
    assert!(d.one_way.samples > 500, "{} samples", d.one_way.samples);
    for v in [
        d.one_way.min_ns,
        d.one_way.p50_ns,
        d.one_way.p90_ns,
        d.one_way.p99_ns,
        d.one_way.max_ns,
    ] {
        assert_eq!(v, exact);
    }
    assert_eq!(d.one_way.mean_ns, exact as f64);
    assert_eq!(
        (d.queueing_mean_ns, d.queueing_max_ns, d.pdv_p99_ns),
        (0.0, 0, 0)
    );
    assert_eq!(
        (d.jitter_rfc3550_ns, d.ipdv_max_abs_ns),
        (Some(0.0), Some(0))
    );
    assert_eq!(d.queueing_saturated, 0);
    // The link never queued: every sojourn sample is 0.
    let s = l.sojourn.as_ref().unwrap();
    assert_eq!(s.samples, l.arrived - l.requests);
    assert_eq!((s.max_ns, s.mean_ns), (0, 0.0));
    // The class figure is the one IEA's.
    let c = r.delay.as_ref().unwrap();
    assert_eq!(c.traffic, "cbr");
    assert_eq!(c.one_way, d.one_way);
}

#[test]
fn loaded_links_queue_and_the_wait_is_carried_across_hops() {
    let r = run(&loaded_parking_lot(true), 1).unwrap();
    let tx = 160 * 8 * 1_000_000_000 / 320_000_000u64; // 4,000 ns
    let mut sojourn_sum = 0.0;
    for l in &r.links {
        let s = l.sojourn.as_ref().unwrap();
        assert!(s.samples > 100_000, "{}: {} samples", l.name, s.samples);
        assert!(s.mean_ns > 0.0 && s.p99_ns > 0, "{}: {s:?}", l.name);
        assert!(s.max_ns <= (l.max_backlog_packets * tx as f64).round() as u64);
        sojourn_sum += s.mean_ns;
    }
    // Long haul: 3 links of 1 ms + 3 transmissions; one-hop IEAs: 1 ms vertical links on
    // each side + 1 ms + one transmission.
    let long = r.ieas[0].delay.as_ref().unwrap();
    assert_eq!(long.prop_tx_ns, 3 * (1_000_000 + tx));
    for i in &r.ieas[1..] {
        let d = i.delay.as_ref().unwrap();
        assert_eq!(d.prop_tx_ns, 3_000_000 + tx, "{}", i.name);
    }
    for i in &r.ieas {
        let d = i.delay.as_ref().unwrap();
        assert!(d.one_way.samples > 10_000, "{}", i.name);
        assert!(d.one_way.min_ns >= d.prop_tx_ns, "{}", i.name);
        assert!(d.one_way.max_ns > d.prop_tx_ns, "{}: never waited", i.name);
        assert!(d.queueing_mean_ns > 0.0 && d.jitter_rfc3550_ns.unwrap() > 0.0);
        assert_eq!(d.queueing_saturated, 0);
    }
    // The long haul waits at every link it crosses: its mean queueing is the sum of the
    // three links' mean sojourns (FIFO, arrivals see the time average), within 15 %.
    let ratio = long.queueing_mean_ns / sojourn_sum;
    assert!(
        (ratio - 1.0).abs() < 0.15,
        "long haul waits {} ns vs Σ sojourn {sojourn_sum} ns",
        long.queueing_mean_ns
    );
    // One-hop IEAs wait at one link: each well below the long haul.
    for i in &r.ieas[1..] {
        let q = i.delay.as_ref().unwrap().queueing_mean_ns;
        assert!(q < 0.7 * long.queueing_mean_ns, "{}: {q}", i.name);
    }
}

#[test]
fn delay_is_deterministic_and_does_not_change_the_run() {
    let on = loaded_parking_lot(true);
    let a = run(&on, 5).unwrap();
    let b = run(&on, 5).unwrap();
    assert_eq!(json(&a), json(&b));
    let c = run(&on, 6).unwrap();
    assert_ne!(
        serde_json::to_string(&a.delay).unwrap(),
        serde_json::to_string(&c.delay).unwrap()
    );
    // Off: the same run (conservation checked inside `run`), without the delay figures.
    let mut off = run(&loaded_parking_lot(false), 5).unwrap();
    assert!(off.delay.is_none());
    assert!(off.links.iter().all(|l| l.sojourn.is_none()));
    assert!(off.ieas.iter().all(|i| i.delay.is_none()));
    let mut stripped = a.clone();
    stripped.delay = None;
    for l in &mut stripped.links {
        l.sojourn = None;
    }
    for i in &mut stripped.ieas {
        i.delay = None;
    }
    off.name.clone_from(&stripped.name);
    assert_eq!(json(&off), json(&stripped));
    for i in &a.ieas {
        assert_eq!(i.sent, i.delivered + i.dropped + i.in_flight);
    }
}

#[test]
fn delay_keys_are_checked() {
    let base = |extra: &str| {
        format!(
            "[pcn]\nkind = \"admission\"\nduration = \"10s\"\nlink_rate = \"100Mbps\"\n[pcn.traffic]\nmodel = \"cbr\"\n[pcn.topology]\nkind = \"single\"\n[pcn.admission]\ncall_interval = \"1s\"\n[pcn.measure]\noa_from = \"5s\"\noa_to = \"10s\"\n{extra}"
        )
    };
    let e = parse_str(&base("delay_from = \"10s\"\n"), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("x.toml:") && e.contains("delay_from"), "{e}");
    let e = parse_str(&base("delay = \"yes\"\n"), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("delay"), "{e}");
    let e = parse_str(&base("delay = false\ndelay_variation = true\n"), "x.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("delay_variation") && e.contains("needs delay"),
        "{e}"
    );
    let s = parse_str(&base(""), "x.toml").unwrap();
    assert!(s.measure.delay && !s.measure.delay_variation);
    assert_eq!(s.measure.delay_from, s.measure.oa_from);
}

/// `run_driven` (slices of simulated time, as the Python bindings drive a run for Ctrl-C)
/// gives exactly `run`'s result, on a run whose OT-window snapshot falls inside a slice;
/// and it stops when asked.
#[test]
fn a_sliced_run_equals_a_one_shot_run() {
    let s = loaded_parking_lot(true);
    let one = serde_json::to_string(&run(&s, 3).unwrap()).unwrap();
    for slices in [1, 7, 1000] {
        let sliced = qoslab_sim::pcn::run_driven(&s, 3, slices, |_| true)
            .unwrap()
            .unwrap();
        assert_eq!(
            serde_json::to_string(&sliced).unwrap(),
            one,
            "{slices} slices"
        );
    }
    let mut asked = 0;
    let stopped = qoslab_sim::pcn::run_driven(&s, 3, 10, |_| {
        asked += 1;
        asked < 2
    })
    .unwrap();
    assert!(stopped.is_none());
    assert_eq!(asked, 2);
}
