//! A TFRC flow's path in ns-2.35's double-second arithmetic, for the TFRC `ns2_compat`
//! options `double_clock_rtt_sample` (finding 54, session 16; the sender) and
//! `double_clock_report_ties` (session 17; the receiver): built once per flow at set-up,
//! off the per-packet path. Out of `sim.rs`, which builds the network.

use qoslab_algo::Duration;

use crate::net::link::Link;
use crate::net::routing::Routes;

/// A TFRC flow's path as ns-2.35's links delay its packets (`link/delay.cc`: each link
/// schedules the arrival `8.*size/bandwidth_ + delay_` after the clock, in double seconds),
/// data packets of `sizes.0` wire bytes from `ends.0` to `ends.1`, feedback of `sizes.1`
/// back, with the engine's integer base RTT and forward base delay over the same links; for
/// TFRC's ns-2 options `double_clock_rtt_sample` and `double_clock_report_ties`. `None` when a direction has no route or more links than `Ns2PathDelays` holds.
pub(super) fn ns2_path_delays(
    routes: &Routes,
    links: &[Link],
    ends: (u32, u32),
    sizes: (u32, u32),
) -> Option<qoslab_algo::tfrc::Ns2PathDelays> {
    // One direction: ns-2's per-link doubles and the engine's integer delay over them.
    let walk = |from: u32, to: u32, size: u32| -> Option<(Vec<f64>, Duration)> {
        let path = routes.path(from, to)?;
        let mut base = Duration::ZERO;
        let d = path
            .iter()
            .map(|&li| {
                let l = &links[li as usize];
                base = base + l.delay + l.rate.tx_time(size as u64);
                // ns-2: txtime(p) = 8. * size / bandwidth_, then txt + delay_.
                8.0 * size as f64 / l.rate.0 as f64 + l.delay.as_secs_f64_exact()
            })
            .collect();
        Some((d, base))
    };
    let (fwd, fwd_base) = walk(ends.0, ends.1, sizes.0)?;
    let (rev, rev_base) = walk(ends.1, ends.0, sizes.1)?;
    qoslab_algo::tfrc::Ns2PathDelays::new(&fwd, &rev, fwd_base + rev_base)
        .map(|p| p.with_fwd_base(fwd_base))
}

#[cfg(test)]
mod tests {
    use crate::scenario::parse_str;
    use crate::Simulator;
    use qoslab_algo::Duration;

    /// Two links each way (duplex 1 Gb/s 10 ms, then 10 Mb/s 20 ms): the doubles are added
    /// link by link, the forward base (option 27's queueing reference) is the data packet's
    /// one-way delay and the base RTT adds the feedback's.
    #[test]
    fn a_two_link_path_in_ns2_doubles_with_its_forward_base() {
        let text = r#"
duration = "1s"
node = [{ name = "a" }, { name = "r" }, { name = "b" }]
link = [
  { from = "a", to = "r", rate = "1Gbps", delay = "10ms", queue = { kind = "drop-tail", limit = "100p" } },
  { from = "r", to = "b", rate = "10Mbps", delay = "20ms", queue = { kind = "drop-tail", limit = "100p" } },
]
"#;
        let sim = Simulator::new(parse_str(text, "t.toml").unwrap(), 1).unwrap();
        let p = super::ns2_path_delays(&sim.routes, &sim.links, (0, 2), (46, 40)).unwrap();
        // 46 B: 368 ns at 1 Gb/s, 36.8 us at 10 Mb/s; 40 B: 32 us and 320 ns.
        let fwd = Duration(10_000_368 + 20_036_800);
        assert_eq!(p.fwd_base(), fwd);
        assert_eq!(p.base(), fwd + Duration(20_032_000 + 10_000_320));
        let (d1, d2) = (8.0 * 46.0 / 1e9 + 0.01, 8.0 * 46.0 / 1e7 + 0.02);
        assert_eq!(p.arrival(3.0, 0.0), ((3.0 + d1) + d2, 3.0 + d1));
        let (e1, e2) = (8.0 * 40.0 / 1e7 + 0.02, 8.0 * 40.0 / 1e9 + 0.01);
        assert_eq!(
            p.rtt_sample(3.0, 0.0, 0.0),
            ((((3.0 + d1) + d2) + e1) + e2) - 3.0
        );
    }
}
