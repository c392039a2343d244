//! What `qoslab validate` prints for each flow of an IP scenario: its path and its base
//! delay, so a study can check its topology before running it (issue 15).
//!
//! - **Path**: the nodes a data packet visits, by the simulator's own routing table
//!   (`qoslab_sim::net::routing::Routes`: hop-count shortest path, ties to the lowest link
//!   index), and the slowest link on it.
//! - **Base one-way delay**: propagation on every link of the path plus one transmission of
//!   a data packet (its wire size: `size` for CBR, Poisson and TFRC; `mss + header` for TCP)
//!   on each, each transmission rounded up to the nanosecond as the engine does
//!   (`Rate::tx_time`). It is what an idle network gives (the delay tests check this).
//! - **Base RTT** (TCP and TFRC): that, plus the way back along the reverse route with one
//!   transmission of the returning packet (TCP `ack_size`, TFRC `feedback_size`) per link:
//!   the RTT sample of a segment sent into an idle path.
//!
//! Times are integer nanoseconds printed in ms with the trailing zeros cut (`20.864 ms`),
//! so there is no float noise.

use std::fmt::Write as _;

use qoslab_sim::net::routing::Routes;
use qoslab_sim::scenario::spec::{FlowKind, Scenario};

/// Integer ns as ms, exact, without trailing zeros.
pub fn ms(ns: u64) -> String {
    let s = format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Bit rate with the largest unit that keeps it whole (`10 Mb/s`, `1.5 Mb/s` as `1500 kb/s`).
fn rate(bps: u64) -> String {
    for (div, unit) in [
        (1_000_000_000, "Gb/s"),
        (1_000_000, "Mb/s"),
        (1_000, "kb/s"),
    ] {
        if bps >= div && bps / div * div == bps {
            return format!("{} {unit}", bps / div);
        }
    }
    format!("{bps} b/s")
}

/// The links from `src` to `dst` (None if there is no route).
fn path(routes: &Routes, src: usize, dst: usize) -> Option<Vec<usize>> {
    let links = routes.path(src as u32, dst as u32)?;
    Some(links.into_iter().map(|l| l as usize).collect())
}

/// Propagation + one transmission of `bytes` on every link of `links`, ns.
fn base_ns(s: &Scenario, links: &[usize], bytes: u32) -> u64 {
    links
        .iter()
        .map(|&l| s.links[l].delay.as_nanos() + s.links[l].rate.tx_time(bytes as u64).as_nanos())
        .sum()
}

/// One line per flow (after the header line `qoslab validate` prints).
pub fn describe(s: &Scenario) -> String {
    let pairs: Vec<(usize, usize)> = s.links.iter().map(|l| (l.from, l.to)).collect();
    let routes = Routes::compute(s.nodes.len(), &pairs);
    let mut out = String::new();
    for f in &s.flows {
        let (kind, size, back) = match &f.kind {
            FlowKind::Cbr { size, .. } => ("cbr", *size, None),
            FlowKind::Poisson { size, .. } => ("poisson", *size, None),
            FlowKind::Tcp(t) => ("tcp", t.mss + t.header, Some(t.ack_size)),
            FlowKind::Tfrc(t) => ("tfrc", t.size, Some(t.feedback_size)),
        };
        let _ = write!(out, "  flow `{}` ({kind}): ", f.name);
        let Some(fwd) = path(&routes, f.src, f.dst) else {
            let _ = writeln!(out, "no route");
            continue;
        };
        let mut nodes = vec![s.nodes[f.src].name.as_str()];
        nodes.extend(fwd.iter().map(|&l| s.nodes[s.links[l].to].name.as_str()));
        let slowest = fwd
            .iter()
            .map(|&l| s.links[l].rate.bps())
            .min()
            .unwrap_or(0);
        let one_way = base_ns(s, &fwd, size);
        let _ = write!(
            out,
            "{} ({} hops, slowest {}); base one-way delay {} ms ({size} B packets)",
            nodes.join(" -> "),
            fwd.len(),
            rate(slowest),
            ms(one_way)
        );
        if let Some(back_bytes) = back {
            match path(&routes, f.dst, f.src) {
                Some(rev) => {
                    let _ = write!(
                        out,
                        ", base RTT {} ms ({back_bytes} B back)",
                        ms(one_way + base_ns(s, &rev, back_bytes))
                    );
                }
                None => {
                    let _ = write!(out, ", no route back");
                }
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ms_is_exact_without_trailing_zeros() {
        assert_eq!(ms(20_864_000), "20.864");
        assert_eq!(ms(30_000_000_000), "30000");
        assert_eq!(ms(1), "0.000001");
        assert_eq!(ms(0), "0");
    }

    #[test]
    fn path_and_base_rtt_of_a_tcp_flow_are_hand_computable() {
        // a -> r -> b, 10 Mb/s 5 ms then 100 Mb/s 1 ms; TCP 1000 B + 40 B, ACK 40 B.
        let text = r#"
duration = "1s"
node = [{ name = "a" }, { name = "r" }, { name = "b" }]
link = [
  { from = "a", to = "r", rate = "10Mbps", delay = "5ms" },
  { from = "r", to = "b", rate = "100Mbps", delay = "1ms" },
]
[[flow]]
name = "f"
src = "a"
dst = "b"
kind = "tcp"
mss = "1000B"
header = "40B"
ack_size = "40B"
"#;
        let s = qoslab_sim::scenario::parse_str(text, "t.toml").unwrap_or_else(|e| panic!("{e}"));
        let d = describe(&s);
        // one way: 5 ms + 1040 B at 10 Mb/s (832 µs) + 1 ms + 1040 B at 100 Mb/s (83.2 µs)
        //   = 6.9152 ms; back: 1 ms + 40 B at 100 Mb/s (3.2 µs) + 5 ms + 40 B at 10 Mb/s
        //   (32 µs) = 6.0352 ms; RTT 12.9504 ms.
        assert_eq!(
            d,
            "  flow `f` (tcp): a -> r -> b (2 hops, slowest 10 Mb/s); base one-way delay 6.9152 ms (1040 B packets), base RTT 12.9504 ms (40 B back)\n"
        );
    }
}
