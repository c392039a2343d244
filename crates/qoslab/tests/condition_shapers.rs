//! `qoslab condition` with shaper stages, through the binary: rate adaptive shapers in front
//! of a trTCM on a crafted bursty trace (RFC 2963's motivation: shaping removes burstiness
//! so that more packets are green), the green RAS never later than the plain one, and
//! refused couplings.

use std::path::PathBuf;

mod common;
use common::{data, run};

fn tmp(name: &str) -> PathBuf {
    common::tmp_in("condition_shapers", name)
}

/// Exact decimal seconds ("0.001200000") to ns.
fn ns(s: &str) -> u64 {
    let (i, f) = s.split_once('.').unwrap_or((s, ""));
    let f = format!("{f:0<9}");
    i.parse::<u64>().unwrap() * 1_000_000_000 + f.parse::<u64>().unwrap()
}

/// One output row.
#[derive(Debug)]
struct Row {
    arrival: u64,
    color: String,
    /// None if dropped (or for a chain without a shaper: the arrival).
    departure: Option<u64>,
}

/// Conditions burst.csv through `chain` and parses the output.
fn condition(chain: &str, out: &str) -> (Vec<Row>, String) {
    let out = tmp(out);
    let (code, stderr) = run(&data(chain), &data("burst.csv"), &out);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (t, c, d) = (
        col("time").unwrap(),
        col("color").unwrap(),
        col("departure"),
    );
    let rows = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let arrival = ns(f[t]);
            Row {
                arrival,
                color: f[c].to_string(),
                departure: match d {
                    None => Some(arrival),
                    Some(i) if f[i].is_empty() => None,
                    Some(i) => Some(ns(f[i])),
                },
            }
        })
        .collect();
    (rows, stderr)
}

fn greens(rows: &[Row]) -> usize {
    rows.iter().filter(|r| r.color == "green").count()
}

#[test]
fn trras_spreads_the_bursts_within_its_delay_bound_and_gets_more_green() {
    let (alone, _) = condition("trtcm.toml", "alone.csv");
    let (shaped, stderr) = condition("trras_trtcm.toml", "trras.csv");
    assert_eq!((alone.len(), shaped.len()), (200, 200));
    // The occupancy never exceeds the buffer and the shaping rate is never below CIR, so a
    // packet waits at most buffer/CIR = 64 000 B × 8 / 1 Mbit/s = 0.512 s (plus the
    // rounding up of each release to a whole ns: at most 1 ns per packet queued ahead).
    let bound = 512_000_000 + 200;
    for r in &shaped {
        let d = r
            .departure
            .expect("the 64 KB buffer never overflows on this trace");
        assert!(r.arrival <= d && d <= r.arrival + bound, "{r:?}");
    }
    // Shaping delays most packets of a burst.
    assert!(
        shaped
            .iter()
            .filter(|r| r.departure > Some(r.arrival))
            .count()
            > 100
    );
    // Departures are in FIFO order.
    assert!(shaped.windows(2).all(|w| w[0].departure <= w[1].departure));
    // Unshaped (hand computed, RFC 2698 §3): each burst finds the committed bucket full
    // (3000 B: 89.2 ms of idle time refill it), so packets 1 and 2 are green; the other
    // eight come within 10.8 ms, which add 10.8 ms × 125 B/ms = 1350 B < 1500 B: not green.
    // 2 × 20 bursts = 40 green. Shaped, the packets are spread out and many more fit CIR.
    let (g0, g1) = (greens(&alone), greens(&shaped));
    assert_eq!(g0, 40);
    assert!(g1 >= g0 + 40, "shaped greens {g1} vs unshaped {g0}");
    assert!(
        stderr.contains("stage 1 trras: released 200/300000 B"),
        "{stderr}"
    );
    assert!(stderr.contains("shaper delay: mean "), "{stderr}");
}

#[test]
fn g_trras_is_never_later_than_trras() {
    let (plain, _) = condition("trras_trtcm.toml", "plain.csv");
    let (green, stderr) = condition("g_trras_trtcm.toml", "green.csv");
    let mut earlier = 0;
    for (p, g) in plain.iter().zip(&green) {
        assert_eq!(p.arrival, g.arrival);
        if let Some(pd) = p.departure {
            let gd = g.departure.expect("not dropped when the plain RAS kept it");
            assert!(gd <= pd, "{g:?} later than {p:?}");
            earlier += usize::from(gd < pd);
        }
    }
    // The coupling matters on this trace: some packets leave early because they are green.
    assert!(earlier > 0);
    // (No claim on the green count: RFC 2963 appendix A.3 reports that the G-trRAS trades
    // "a slight decrease in the amount of green traffic" for more yellow, and so it does on
    // this trace.)
    assert!(
        stderr.contains("stage 1 g-trras: released 200/300000 B ("),
        "{stderr}"
    );
    assert!(!stderr.contains("(0 early for green)"), "{stderr}");
}

#[test]
fn bad_coupling_is_exit_2_with_the_rule() {
    let out = tmp("never.csv");
    let (code, stderr) = run(&data("bad_coupling.toml"), &data("burst.csv"), &out);
    assert_eq!(code, 2, "{stderr}");
    for want in [
        "bad_coupling.toml:3:",
        "stage[0].kind = \"g-trras\"",
        "RFC 2963 §3.5: a G-trRAS must be followed by the trTCM it is coupled to",
        "the next stage is a `srtcm`",
    ] {
        assert!(stderr.contains(want), "{stderr:?} lacks {want:?}");
    }
    assert!(!out.exists());
}
