//! Closed-loop tests: a sender and a receiver joined by a fixed-delay path that drops
//! every `k`-th data packet (no queue, no randomness). Relational checks with tolerances.

use super::equation::{throughput, ShortIntervalRule, SmallPacketParams};
use super::*;
use crate::time::{Duration, Time};
use std::collections::VecDeque;

struct Run {
    sender: Sender,
    receiver: Receiver,
    sent: u64,
    sent_after: u64,
    max_burst_gap_violations: u64,
}

/// Runs for `secs` with one-way delay `owd`, dropping data packets with `seq % k == k - 1`
/// (k = 0: no drop). Counts packets sent after `measure_from`.
fn run(sp: Option<SmallPacketParams>, seg: u32, owd: Duration, k: u64, secs: u64) -> Run {
    let variant = sp.map_or(Variant::Standard, Variant::SmallPacket);
    let sp_params = SenderParams::new(seg, None, variant, InitialRate::Rfc5348).unwrap();
    let rp = sp.map_or(ReceiverParams::standard(), |s| {
        ReceiverParams::small_packet(&s)
    });
    let mut snd = Sender::new(sp_params, Time::ZERO);
    let mut rcv = Receiver::new(rp);
    let mut data: VecDeque<(Time, DataPacket)> = VecDeque::new();
    let mut fbs: VecDeque<(Time, Feedback)> = VecDeque::new();
    let end = Time::from_secs(secs);
    let measure_from = Time::from_secs(secs / 2);
    let (mut sent, mut sent_after, mut violations) = (0, 0, 0);
    let mut last_send: Option<Time> = None;
    loop {
        let cands = [
            snd.next_send_time(),
            snd.poll_timeout().unwrap_or(Time::NEVER),
            rcv.poll_timeout().unwrap_or(Time::NEVER),
            data.front().map_or(Time::NEVER, |d| d.0),
            fbs.front().map_or(Time::NEVER, |f| f.0),
        ];
        let now = *cands.iter().min().unwrap();
        if now >= end {
            break;
        }
        if fbs.front().is_some_and(|f| f.0 == now) {
            let (_, fb) = fbs.pop_front().unwrap();
            snd.on_feedback(now, &fb);
        } else if data.front().is_some_and(|d| d.0 == now) {
            let (_, pkt) = data.pop_front().unwrap();
            if let Some(fb) = rcv.on_packet(now, &pkt) {
                fbs.push_back((now + owd, fb));
            }
        } else if rcv.poll_timeout() == Some(now) {
            if let Some(fb) = rcv.on_timeout(now) {
                fbs.push_back((now + owd, fb));
            }
        } else if snd.poll_timeout() == Some(now) {
            snd.on_timeout(now);
        } else if let Some(pkt) = snd.poll_transmit(now) {
            sent += 1;
            if now >= measure_from {
                sent_after += 1;
            }
            if let (Some(l), Some(_)) = (last_send, sp) {
                if now.saturating_since(l) < Duration::from_millis(10) {
                    violations += 1;
                }
            }
            last_send = Some(now);
            if k == 0 || pkt.seq % k != k - 1 {
                data.push_back((now + owd, pkt));
            }
        }
    }
    Run {
        sender: snd,
        receiver: rcv,
        sent,
        sent_after,
        max_burst_gap_violations: violations,
    }
}

#[test]
fn lossless_path_grows_without_loss() {
    let r = run(None, 1000, Duration::from_millis(50), 0, 4);
    assert_eq!(r.receiver.history().stats().lost, 0);
    assert_eq!(r.sender.loss_event_rate(), 0.0);
    // Slow start doubles per RTT (100 ms) from W_init/R = 40 kB/s, capped by 2·X_recv:
    // after 4 s far above 1 MB/s.
    assert!(r.sender.allowed_rate() > 1e6, "{}", r.sender.allowed_rate());
    let rtt = r.sender.rtt().unwrap();
    assert!(
        (rtt.as_nanos() as i64 - 100_000_000).abs() < 1_000_000,
        "{rtt:?}"
    );
    assert!(r.sent > 100);
}

#[test]
fn periodic_loss_converges_to_the_equation() {
    // Every 100th packet dropped, R = 100 ms, s = 1000 B. Once in equilibrium each loss is
    // its own loss event (losses are far more than one RTT apart at these rates), so every
    // interval is 100 packets and p = 0.01; X = throughput(1000, 0.1, 0.01) = 112.3 kB/s
    // = 112 packets/s. Measured over the second half of 60 s.
    let r = run(None, 1000, Duration::from_millis(50), 100, 60);
    let p = r.receiver.loss_event_rate(Time::from_secs(60));
    assert!((p - 0.01).abs() < 0.001, "p = {p}");
    let want = throughput(1000.0, 0.1, 0.01);
    let x = r.sender.allowed_rate();
    assert!((x / want - 1.0).abs() < 0.1, "X = {x}, equation {want}");
    let pps = r.sent_after as f64 / 30.0;
    assert!((pps / (want / 1000.0) - 1.0).abs() < 0.1, "{pps} pkt/s");
}

#[test]
fn tfrc_sp_small_packets_respect_min_interval_and_get_bytes_fairness() {
    // 200-byte packets, every 10th dropped (p = 0.1), R = 100 ms. Standard TFRC would allow
    // throughput(200, 0.1, 0.1) = 5.4 kB/s of data; TFRC-SP's losses in short intervals
    // count individually, so the loss event rate is the packet loss rate 0.1 and X is the
    // 1460-byte equation, 25.8 kB/s of X, i.e. 25.8e3/240 = 108 packets/s, above the
    // 100 packets/s of the Min Interval: the sender runs at ~100 packets/s.
    let sp = SmallPacketParams::rfc4828();
    let r = run(Some(sp), 200, Duration::from_millis(50), 10, 30);
    assert_eq!(r.max_burst_gap_violations, 0);
    let pps = r.sent_after as f64 / 15.0;
    assert!(pps <= 100.0 + 1e-9, "{pps}");
    assert!(pps > 80.0, "{pps}");
    let p = r.receiver.loss_event_rate(Time::from_secs(30));
    assert!(
        p > 0.05,
        "SP should count the losses of short intervals: p = {p}"
    );

    // The same flow with standard TFRC sends far fewer packets.
    let std = run(None, 200, Duration::from_millis(50), 10, 30);
    let std_pps = std.sent_after as f64 / 15.0;
    assert!(std_pps < 0.5 * pps, "standard {std_pps} vs SP {pps}");

    // The gradual rule behaves like the step rule here (every interval is about one RTT).
    let sp_g = SmallPacketParams::new(
        1460,
        40,
        Duration::from_millis(10),
        ShortIntervalRule::Gradual,
    )
    .unwrap();
    let g = run(Some(sp_g), 200, Duration::from_millis(50), 10, 30);
    let g_pps = g.sent_after as f64 / 15.0;
    assert!(g_pps > 0.8 * pps && g_pps <= 100.0 + 1e-9, "{g_pps}");
}
