//! The ATM engine: segmentation sizes, reassembly discards, conservation, determinism,
//! scenario errors naming file, line and key.

use qoslab_sim::atm::scenario::parse_str;
use qoslab_sim::atm::{AtmResult, AtmScenario, AtmSim};

const KIM: &str = include_str!("../../../scenarios/gfr-kim2001/table1.toml");

/// The Table 1 scenario with tail-drop of `size` cells, shortened, with edits.
fn kim(size: u32, secs: u64, edits: &[(&str, &str)]) -> AtmScenario {
    let mut text = KIM
        .replace("policy = \"dynamic-threshold\"", "policy = \"tail-drop\" #")
        .replace("size = 8192", &format!("size = {size}"))
        .replace("lbo = 2048", "#")
        .replace("hbo = 6144", "#")
        .replace("duration = \"30s\"", &format!("duration = \"{secs}s\""))
        .replace("warmup = \"5s\"", "warmup = \"1s\"");
    for (a, b) in edits {
        assert!(text.contains(a), "{a}");
        text = text.replace(a, b);
    }
    parse_str(&text, "table1.toml").expect("valid")
}

fn run(sc: AtmScenario, seed: u64) -> AtmResult {
    AtmSim::new(sc, seed).unwrap().run().unwrap()
}

/// No loss (one connection per VC, 32 KB windows: at most 6 × 683 cells in the 8K buffer):
/// every data frame is exactly its cells, every ACK one cell, per framing.
#[test]
fn segmentation_sizes_in_the_engine() {
    for (framing, header, data_cells, ack_cells) in [
        ("raw", "0B", 20u64, 1u64),
        ("raw", "40B", 21, 1),
        ("vc-mux", "40B", 21, 1),
        ("llc-snap", "40B", 22, 2),
    ] {
        let sc = kim(
            8192,
            3,
            &[
                ("framing = \"raw\"", &format!("framing = \"{framing}\"")),
                ("header = \"0B\"", &format!("header = \"{header}\"")),
                ("connections = 5", "connections = 1"),
                ("rwnd = \"65535B\"", "rwnd = \"32000B\""),
                ("mfs = 20 ", "mfs = 22 "),
            ],
        );
        let r = run(sc, 1);
        for v in &r.vcs {
            for (c, n) in [(&v.data, data_cells), (&v.acks, ack_cells)] {
                assert_eq!(c.cells_dropped_clp0 + c.cells_dropped_clp1, 0, "{framing}");
                assert!(
                    c.frames_delivered > 100,
                    "{framing}: {}",
                    c.frames_delivered
                );
                // Delivered cells = whole delivered frames + the partial frames in flight.
                assert!(c.cells_delivered >= n * c.frames_delivered, "{framing}");
                assert!(
                    c.cells_delivered < n * (c.frames_delivered + c.frames_in_flight + 1),
                    "{framing} {n}: {c:?}"
                );
                assert!(c.cells_sent <= n * c.frames_sent, "{framing}");
            }
        }
        let eff = 960.0 / (data_cells as f64 * 53.0);
        assert!((r.payload_efficiency - eff).abs() < 1e-12);
        // Never above the payload ceiling of the line rate (+ one frame per VC: the window
        // [1 s, 3 s) starts in the middle of frames).
        let slack = 6.0 * 960.0 * 8.0 / 2.0 / 1e6;
        assert!(
            r.total_goodput_mbps <= 51.84 * eff + slack,
            "{framing} {} {}",
            r.total_goodput_mbps,
            51.84 * eff
        );
    }
}

/// A 64-cell tail-drop buffer loses cells in the middle of frames: those frames reach the
/// far edge without a cell and are discarded there (counted), and TCP never receives them.
#[test]
fn lost_cells_discard_their_frames_at_reassembly() {
    let r = run(kim(64, 3, &[("tagging = true", "tagging = false")]), 1);
    let (mut own, mut merged, mut lost, mut delivered, mut cells_del) = (0, 0, 0, 0, 0);
    for v in &r.vcs {
        own += v.data.frames_discarded_own_loss;
        merged += v.data.frames_discarded_merged;
        lost += v.data.frames_lost_in_network;
        delivered += v.data.frames_delivered;
        cells_del += v.data.cells_delivered;
        assert!(v.data.cells_dropped_clp0 > 0);
        assert_eq!(v.data.cells_dropped_clp1, 0, "no tagging without F-GCRA");
    }
    assert!(own > 0 && merged > 0 && lost > 0, "{own} {merged} {lost}");
    // Cells of discarded frames did reach the far edge...
    assert!(cells_del > 20 * delivered);
    // ...but only whole frames count: goodput <= delivered frames' payload.
    let window = r.duration_s; // goodput counts [warmup, end), frames the whole run
    let payload_mbps = delivered as f64 * 960.0 * 8.0 / (window - r.warmup_s) / 1e6;
    assert!(r.total_goodput_mbps <= payload_mbps + 1e-9);
    let port = r.ports.iter().find(|p| p.name == "SW1->SW2").unwrap();
    assert_eq!(port.max_occupancy, 64);
    assert!(port.cells_dropped_by_reason["buffer-full"] > 0);
}

/// `run()` checks conservation in cells and frames per channel and per port and fails if it
/// does not hold; these runs (heavy loss, no loss, every framing) must all pass it, and the
/// counters must add up as reported.
#[test]
fn conservation_in_cells_and_frames() {
    for (size, framing) in [(20, "raw"), (300, "vc-mux"), (8192, "llc-snap")] {
        let r = run(
            kim(
                size,
                2,
                &[("framing = \"raw\"", &format!("framing = \"{framing}\""))],
            ),
            3,
        );
        for v in &r.vcs {
            for c in [&v.data, &v.acks] {
                assert_eq!(
                    c.cells_sent,
                    c.cells_delivered
                        + c.cells_dropped_clp0
                        + c.cells_dropped_clp1
                        + c.cells_in_flight
                );
                assert_eq!(
                    c.frames_sent,
                    c.frames_delivered
                        + c.frames_lost_in_network
                        + c.frames_discarded_own_loss
                        + c.frames_discarded_merged
                        + c.frames_in_flight
                );
            }
        }
        for p in &r.ports {
            assert_eq!(
                p.cells_arrived,
                p.cells_sent + p.cells_dropped_clp0 + p.cells_dropped_clp1 + p.cells_queued_at_end
            );
        }
    }
}

#[test]
fn same_seed_gives_identical_json_and_seeds_differ() {
    let a = serde_json::to_string(&run(kim(1000, 2, &[]), 7)).unwrap();
    let b = serde_json::to_string(&run(kim(1000, 2, &[]), 7)).unwrap();
    let c = serde_json::to_string(&run(kim(1000, 2, &[]), 8)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c, "the start-time jitter stream depends on the seed");
    // Without jitter the run does not depend on the seed (tail drop draws nothing).
    let nj = |s| {
        serde_json::to_string(&run(
            kim(
                1000,
                2,
                &[("start_jitter = \"100ms\"", "start_jitter = \"0s\"")],
            ),
            s,
        ))
        .unwrap()
        .replace("\"seed\":1,", "")
        .replace("\"seed\":2,", "")
    };
    assert_eq!(nj(1), nj(2));
}

/// Bad scenarios: (edit of the Table 1 file, line expected, key path, words of the message).
#[test]
fn scenario_errors_name_file_line_and_key() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("lbo = 2048", "lbo = 7000", "buffer.lbo", "LBO <= HBO"),
        ("size = 8192", "size = 0", "buffer.size", ">= 1"),
        (
            "policy = \"dynamic-threshold\"",
            "policy = \"red\"",
            "buffer.policy",
            "double-epd",
        ),
        ("alpha = 0.1", "alpha = 1.5", "buffer.alpha", "(0, 1)"),
        (
            "framing = \"raw\"",
            "framing = \"aal2\"",
            "framing",
            "vc-mux",
        ),
        (
            "connections = 5",
            "connections = 0",
            "vc[0].connections",
            ">= 1",
        ),
        (
            "path = [\"R{i}\", \"SW1\", \"SW2\", \"D{i}\"]",
            "path = [\"R{i}\", \"SW2\", \"D{i}\"]",
            "vc[0].path[1]",
            "no [[link]]",
        ),
        (
            "path = [\"R{i}\", \"SW1\", \"SW2\", \"D{i}\"]",
            "path = [\"R{i}\", \"SW1\", \"D{i}\", \"SW2\"]",
            "vc[0].path[2]",
            "inner nodes",
        ),
        (
            "path = [\"R{i}\", \"SW1\", \"SW2\", \"D{i}\"]",
            "path = [\"R{i}\", \"SW9\", \"SW2\", \"D{i}\"]",
            "vc[0].path[1]",
            "no node",
        ),
        (
            "mcr = [\"2Mbps\"",
            "mcr = [\"60Mbps\"",
            "vc[0].mcr",
            "MCR <= PCR",
        ),
        ("mbs = 200", "mbs = 10", "vc[0].mbs", "MBS >= MFS"),
        (
            "mss = \"960B\"",
            "msss = \"960B\"",
            "tcp.msss",
            "unknown key",
        ),
        (
            "c_gfr = \"51.84Mbps\"",
            "c_gfr = \"30Mbps\"",
            "c_gfr",
            "Σ MCR",
        ),
        (
            "warmup = \"5s\"",
            "warmup = \"40s\"",
            "warmup",
            "below duration",
        ),
        ("atm = true", "atm = false", "atm", "atm = true"),
    ];
    for (from, to, path, words) in cases {
        assert!(KIM.contains(from), "{from}");
        let text = KIM.replacen(from, to, 1);
        let line = text
            .lines()
            .position(|l| {
                l.contains(to.split('=').next().unwrap().trim())
                    && l.contains(to.split('=').nth(1).unwrap_or("").trim())
            })
            .map(|i| i + 1);
        let e = parse_str(&text, "table1.toml").expect_err(to);
        let shown = e.to_string();
        assert_eq!(e.file(), "table1.toml");
        assert_eq!(e.line(), line, "{to}: {shown}");
        assert!(e.path().starts_with(path), "{to}: {shown}");
        assert!(shown.contains(words), "{to}: {shown}");
    }
}

/// F-GCRA at the UNI: with tagging, cells of VCs above their MCR are tagged (CLP=1), none
/// without; a frame longer than MFS loses its cells beyond the MFS-th there (TM 4.1
/// GFR cell conformance), so it never reassembles.
#[test]
fn fgcra_tags_at_the_uni_and_refuses_cells_beyond_mfs() {
    let on = run(kim(8192, 2, &[]), 1);
    let off = run(kim(8192, 2, &[("tagging = true", "tagging = false")]), 1);
    for (a, b) in on.vcs.iter().zip(&off.vcs) {
        assert!(a.data.cells_tagged > 0, "{}", a.name);
        assert_eq!(b.data.cells_tagged, 0);
        assert!(a.data.cells_tagged < a.data.cells_sent);
    }
    // 1000-B datagrams are 21 raw cells, MFS 20: the 21st cell of every frame is refused.
    let r = run(kim(8192, 2, &[("header = \"0B\"", "header = \"40B\"")]), 1);
    for v in &r.vcs {
        let n = v.data.cells_dropped_by_reason["fgcra-nonconforming"];
        assert_eq!(v.data.frames_delivered, 0);
        assert_eq!(n, v.data.frames_lost_in_network);
        assert!(n > 0);
        assert_eq!(v.goodput_mbps, 0.0);
    }
}

/// The PCR check GCRA(1/PCR, CDVT) at the UNI (`cdvt` on a VC): off without `cdvt`; with
/// PCR = the line rate and 1 ns of CDVT every cell conforms (the edge router emits back to
/// back at exactly the PCR, rounded down to whole ns); with CDVT 0 that rounding alone
/// makes cells non-conforming; with PCR = half the line rate about every other cell of a
/// back-to-back frame fails and is discarded, and its frame is lost.
#[test]
fn pcr_check_at_the_uni() {
    let with = |pcr: &str, cdvt: &str| {
        run(
            kim(
                8192,
                2,
                &[(
                    "cdvt = \"1ns\" ",
                    &format!("pcr = \"{pcr}\"\ncdvt = \"{cdvt}\" "),
                )],
            ),
            1,
        )
    };
    // table1.toml has the check on (cdvt = "1ns"); without `cdvt` there is none.
    let off = run(kim(8192, 2, &[("cdvt = \"1ns\" ", "# ")]), 1);
    assert!(off.vcs.iter().all(|v| v.data.pcr_check.is_none()));
    assert!(!serde_json::to_string(&off).unwrap().contains("pcr_check"));

    let r = with("51.84Mbps", "1ns");
    for v in &r.vcs {
        for c in [&v.data, &v.acks] {
            let p = c.pcr_check.expect("checked");
            assert_eq!(p.nonconforming, 0, "{}", v.name);
            assert_eq!(p.cells, p.conforming);
            // Every cell that reached the UNI was judged: all sent, less those still on
            // the first link at the end (0.5 ms of propagation ≈ 62 cell times).
            assert!(p.cells <= c.cells_sent && p.cells + 64 >= c.cells_sent);
            assert!(!c.cells_dropped_by_reason.contains_key("pcr-nonconforming"));
        }
    }

    let r0 = with("51.84Mbps", "0s");
    let nc: u64 = r0
        .vcs
        .iter()
        .map(|v| v.data.pcr_check.unwrap().nonconforming)
        .sum();
    assert!(nc > 0, "integer-ns rounding with CDVT 0");

    let half = with("25.92Mbps", "1ns");
    for v in &half.vcs {
        let p = v.data.pcr_check.unwrap();
        let n = v.data.cells_dropped_by_reason["pcr-nonconforming"];
        assert_eq!(n, p.nonconforming);
        // Back-to-back 20-cell frames at twice the PCR: at least 9 of every 20 fail.
        assert!(p.nonconforming * 20 >= p.cells * 9, "{} {p:?}", v.name);
        assert_eq!(v.data.frames_delivered, 0, "every frame loses a cell");
    }
    let port = half.ports.iter().find(|p| p.name == "R1->SW1");
    assert!(port.is_none(), "edge ports are not reported");
}

/// Queue samples: one per interval per switch port, per-VC columns adding up to the total,
/// and sampling does not change the run (everything but `events` and the series is equal).
#[test]
fn queue_samples_add_up_and_do_not_perturb_the_run() {
    let sc = kim(
        8192,
        2,
        &[(
            "policy = \"tail-drop\" #",
            "policy = \"dfba\"\nlbo = 2048\nhbo = 6144 #",
        )],
    );
    let plain = run(sc.clone(), 3);
    let sampled = AtmSim::new(sc, 3)
        .unwrap()
        .with_queue_samples(qoslab_algo::Duration::from_millis(100))
        .run()
        .unwrap();
    let s = sampled
        .queue_series
        .iter()
        .find(|s| s.port == "SW1->SW2")
        .expect("bottleneck sampled");
    assert_eq!(s.total.len(), 20);
    assert_eq!(s.per_vc.len(), 6);
    assert!(s.total.iter().any(|&x| x > 0));
    for k in 0..s.total.len() {
        let sum: u32 = s.per_vc.iter().map(|c| c[k]).sum();
        assert_eq!(sum, s.total[k], "sample {k}");
        assert!(s.total[k] <= 8192);
    }
    let strip = |r: &AtmResult| {
        let mut r = r.clone();
        r.events = 0;
        r.queue_series.clear();
        serde_json::to_string(&r).unwrap()
    };
    assert_eq!(strip(&plain), strip(&sampled));
    assert!(plain.queue_series.is_empty());
}

#[test]
fn dfba_share_key() {
    use qoslab_sim::atm::spec::{DfbaShare, PolicySpec};
    let text = KIM.replace("policy = \"dynamic-threshold\"", "policy = \"dfba\"");
    let share = |t: &str| match parse_str(t, "t.toml").unwrap().buffer.policy {
        PolicySpec::Dfba { share, .. } => share,
        p => panic!("{p:?}"),
    };
    assert_eq!(share(&text), DfbaShare::Configured);
    let b = text.replace("alpha = 0.1", "alpha = 0.1\ndfba_share = \"backlogged\"");
    assert_eq!(share(&b), DfbaShare::Backlogged);
    let bad = text.replace("alpha = 0.1", "alpha = 0.1\ndfba_share = \"active\"");
    let e = parse_str(&bad, "t.toml").unwrap_err().to_string();
    assert!(e.contains("dfba_share") && e.contains("backlogged"), "{e}");
}

/// The measurement-window counters (`window`, `cells_sent_window`, `utilization`): with no
/// warm-up they equal the whole run's; with one they are the part after it; and on the
/// Fig. 1 network the bottleneck's budget closes: the cells it sent in the window are the
/// segments the receivers got in it (20 cells each, new or duplicate) give or take the
/// segments on the wire at the window's edges.
#[test]
fn window_counters_cover_the_measurement_window() {
    let r0 = run(kim(300, 2, &[("warmup = \"1s\"", "warmup = \"0s\"")]), 4);
    for v in &r0.vcs {
        assert_eq!(v.window.tcp_timeouts, v.tcp_timeouts);
        assert_eq!(v.window.tcp_retransmits, v.tcp_retransmits);
        assert!(
            v.tcp_timeouts > 0,
            "a 300-cell tail-drop buffer loses frames"
        );
    }
    for p in &r0.ports {
        assert_eq!(p.cells_sent_window, p.cells_sent);
    }
    let r = run(kim(300, 2, &[]), 4);
    let mut dups = 0;
    for v in &r.vcs {
        assert!(v.window.tcp_timeouts <= v.tcp_timeouts);
        assert!(v.window.duplicate_segments <= v.window.segments_received);
        dups += v.window.duplicate_segments;
    }
    assert!(
        dups > 0,
        "Reno's go-back-N after timeouts resends received segments"
    );
    let bn = r.ports.iter().find(|p| p.name == "SW1->SW2").unwrap();
    assert!(bn.cells_sent_window < bn.cells_sent);
    // 1 s at 51.84 Mb/s = 122 264.15 cell slots.
    let slots = 51.84e6 / 424.0;
    assert!((bn.utilization - bn.cells_sent_window as f64 / slots).abs() < 1e-12);
    assert!(
        bn.utilization > 0.5 && bn.utilization <= 1.0 + 1.0 / slots,
        "{}",
        bn.utilization
    );
    let segs: u64 = r.vcs.iter().map(|v| v.window.segments_received).sum();
    let on_wire = 6 * 5 * 70; // at most every window's segments in flight, each edge
    assert!(
        (bn.cells_sent_window as i64 - 20 * segs as i64).unsigned_abs() < 20 * on_wire,
        "{} cells vs {segs} segments",
        bn.cells_sent_window
    );
}
