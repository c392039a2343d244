//! Scripted-loss tests of `ns2_compat` Reno: what the ns-2 `Agent/TCP/Reno` of 2000–2001
//! (`tcp-reno.cc` v1.35, `tcp.cc` v1.122) does, step by step, beside the RFC mode.
//!
//! Common scenario (as in the parent module): MSS 1000, 50 ms each way (RTT 100 ms), no
//! bottleneck, IW 2, rwnd 1 MB, no limited transmit (ns-2's `singledup_ 0` of 2000), timer
//! G = 10 ms, min_rto 200 ms. Slow start: round r leaves at r·100 ms; round 4 (t = 400 ms)
//! carries segments 30..61 and cwnd is 32 segments.
//!
//! At t = 500 ms the ACKs of 30..39 arrive: cwnd 32 -> 42 segments, two new segments per
//! ACK (62..81 leave at 500 ms). Then come the duplicate ACKs for 40 000.
//!
//! RTO at 500 ms in ns-2 arithmetic: one timed segment per round, samples of exactly
//! 10 ticks at 100..500 ms; rttvar4 = 20, 15, 12, 9, 7 (each `+= 0 - rttvar4/4`), srtt8 = 80,
//! RTO = (8·rttvar4 + 80)/8 = 30, 25, 22, 19, 17 ticks; 170 ms is raised to min_rto = 200 ms.

use super::*;

fn ns2_reno() -> TcpParams {
    TcpParams {
        ns2_compat: true,
        limited_transmit: false,
        ..params(Variant::Reno)
    }
}

fn timeouts_ms(w: &Wire) -> Vec<u64> {
    w.log
        .iter()
        .filter_map(|l| match l {
            Log::Timeout(t) => Some(t.as_nanos() / 1_000_000),
            _ => None,
        })
        .collect()
}

/// Segment starts sent at `ms` (new and retransmitted), in order.
fn sent_at(w: &Wire, ms: u64) -> Vec<u64> {
    w.log
        .iter()
        .filter_map(|l| match l {
            Log::Sent(t, s) if *t == Time::from_millis(ms) => Some(s.seq),
            _ => None,
        })
        .collect()
}

#[test]
fn two_losses_in_one_window_two_fast_retransmits_no_timeout() {
    // Segments 40 and 50 lost. 20 duplicate ACKs for 40 000 at 500 ms (41..49, 51..61):
    //  3rd: fast retransmit of 40. halfwin = floor(42/2) = 21: ssthresh = cwnd = 21 000,
    //       dupwnd = 3 000; recover = 82 000. Then dupwnd grows to 20 000: window 41 000 <
    //       42 000 outstanding, nothing new.
    // 600 ms: 20 duplicate ACKs from 62..81 (they left before the retransmission): dupwnd
    //       40 000, window 61 000: new segments 82..100 (19). Then the partial ACK 50 000:
    //       recovery ends, dupwnd = 0, cwnd += 1000·1000/21 000 (congestion avoidance).
    // 700 ms: 19 duplicate ACKs for 50 000 (82..100). The last reduction was a fast
    //       retransmit, so the 3rd one retransmits 50 at once (ns-2.35 / the RFC mode would
    //       wait for the timer): halfwin = floor(21.05/2) = 10: ssthresh = cwnd = 10 000.
    //       FlightSize/2 would have been (101 000 - 50 000)/2 = 25 500.
    // 800 ms: ACK 101 000 covers all; the timer (restarted at 700 ms, RTO 200) never fires.
    let mut w = Wire::new(
        ns2_reno(),
        App::Bytes(150_000),
        50,
        None,
        &[(40_000, 1), (50_000, 1)],
    );
    w.run_until(Time::from_millis(500));
    assert_eq!((w.tx.ssthresh(), w.tx.cwnd()), (21_000, 21_000 + 20_000));
    assert_eq!(w.tx.rto(), Duration::from_millis(200));
    w.run_until(Time::from_millis(600));
    assert_eq!(
        sent_at(&w, 600),
        (82..=100).map(|k| k * 1000).collect::<Vec<_>>()
    );
    assert!(!w.tx.in_recovery());
    // 21 000 + 1 000 000 / 21 000 = 21 047.6
    assert_eq!(w.tx.cwnd(), 21_047);
    w.run_until(Time::from_millis(700));
    assert_eq!(w.tx.ssthresh(), 10_000);
    assert_eq!(w.tx.cwnd(), 10_000 + 3000 + 16 * 1000);
    w.run();
    assert!(w.tx.is_complete());
    let st = w.tx.stats();
    assert_eq!((st.fast_recoveries, st.timeouts, st.retransmits), (2, 0, 2));
    assert_eq!(w.retransmissions(), vec![(500, 40_000), (700, 50_000)]);

    // The RFC mode (ns-2.35's guard): the duplicate ACKs of 700 ms are ignored and the timer,
    // restarted by the partial ACK at 600 ms, fires at 800 ms.
    let mut rfc = Wire::new(
        TcpParams {
            ns2_compat: false,
            ..ns2_reno()
        },
        App::Bytes(150_000),
        50,
        None,
        &[(40_000, 1), (50_000, 1)],
    );
    rfc.run();
    assert_eq!(timeouts_ms(&rfc), vec![800]);
    assert_eq!(rfc.tx.stats().fast_recoveries, 1);
}

#[test]
fn three_losses_in_one_window_two_fast_retransmits_then_timeout() {
    // Segments 40, 45, 50 lost. 500 ms: 19 duplicate ACKs (41..44, 46..49, 51..61); fast
    //   retransmit of 40, ssthresh = cwnd = 21 000, dupwnd 3 000 -> 19 000, nothing new.
    // 600 ms: 20 duplicate ACKs from 62..81: dupwnd 39 000, window 60 000: new 82..99 (18).
    //   Partial ACK 45 000: exit, cwnd = 21 047.6.
    // 700 ms: 18 duplicate ACKs for 45 000 (82..99): second fast retransmit (45),
    //   ssthresh = cwnd = 10 000 (halfwin of 21), dupwnd 3 000 -> 18 000: window 28 000 <
    //   55 000 outstanding, nothing new.
    // 800 ms: partial ACK 50 000: exit, cwnd = 10 000 + 100 = 10 100; 50 000 outstanding,
    //   nothing sent, no segment in flight to bring duplicate ACKs: the timer, restarted by
    //   this ACK (RTO 200 ms), fires at 1000 ms. ssthresh = max(floor(10/2), 2) = 5 000.
    let mut w = Wire::new(
        ns2_reno(),
        App::Bytes(150_000),
        50,
        None,
        &[(40_000, 1), (45_000, 1), (50_000, 1)],
    );
    w.run_until(Time::from_millis(999));
    assert_eq!(
        w.retransmissions(),
        vec![(500, 40_000), (700, 45_000)],
        "one fast retransmit per RTT"
    );
    assert_eq!(w.tx.cwnd(), 10_100);
    w.run_until(Time::from_millis(1000));
    assert_eq!(timeouts_ms(&w), vec![1000]);
    assert_eq!((w.tx.ssthresh(), w.tx.cwnd()), (5000, 1000));
    w.run();
    assert!(w.tx.is_complete());
    assert_eq!(
        w.retransmissions()[..3],
        [(500, 40_000), (700, 45_000), (1000, 50_000)]
    );
    let st = w.tx.stats();
    assert_eq!((st.fast_recoveries, st.timeouts), (2, 1));
}

#[test]
fn after_a_timeout_duplicate_acks_inflate_without_fast_retransmit() {
    // Segment 40 lost, and its fast retransmission too; segment 50 lost.
    // 500 ms: 20 duplicate ACKs (41..49, 51..61): fast retransmit of 40 (lost), ssthresh =
    //   cwnd = 21 000, dupwnd -> 20 000. 600 ms: 20 more (62..81): dupwnd 40 000, new
    //   82..100. 700 ms: 19 more (82..100): dupwnd 59 000, window 80 000: new 101..119; then
    //   the timer (armed at 500 ms, RTO 200 ms) fires: ssthresh = halfwin(21) = 10 000,
    //   cwnd = 1 000, recover = 120 000, go-back-N sends 40.
    // 800 ms: 19 duplicate ACKs for 40 000 (101..119 arrived before 40), then ACK 50 000.
    //   bugFix_: below recover after a timeout, no fast retransmit; but ns-2 sets
    //   dupwnd_ = 3 at the 3rd and adds one per further ACK, so go-back-N runs on:
    //   window = 1 000 + dupwnd resends 41..59 (19 segments, 50 among them) before the
    //   partial ACK; the RFC mode sends nothing on them, then 50 and 51 after the ACK.
    let drops = [(40_000, 1), (40_000, 2), (50_000, 1)];
    let mut w = Wire::new(ns2_reno(), App::Bytes(150_000), 50, None, &drops);
    w.run_until(Time::from_millis(700));
    assert_eq!(timeouts_ms(&w), vec![700]);
    assert_eq!((w.tx.ssthresh(), w.tx.cwnd()), (10_000, 1000));
    assert_eq!(w.tx.snd_max(), 120_000);
    w.run_until(Time::from_millis(800));
    assert_eq!(
        sent_at(&w, 800),
        (41..=59).map(|k| k * 1000).collect::<Vec<_>>()
    );
    assert_eq!(w.tx.stats().fast_recoveries, 1);
    w.run();
    assert!(w.tx.is_complete());
    assert_eq!(w.tx.stats().fast_recoveries, 1);

    let mut rfc = Wire::new(
        TcpParams {
            ns2_compat: false,
            ..ns2_reno()
        },
        App::Bytes(150_000),
        50,
        None,
        &drops,
    );
    rfc.run_until(Time::from_millis(800));
    assert_eq!(sent_at(&rfc, 800), vec![50_000, 51_000]);
}

#[test]
fn ns2_timer_keeps_three_ticks_where_rfc_decays_to_two() {
    // tcpTick_ 0.1 (ns-2's default until 2002), RTT 30 ms: every sample is one tick.
    let g = Duration::from_millis(100);
    let min = Duration::from_millis(1);
    let max = Duration::from_secs(64);
    let mut ns2 = RttEstimator::ns2(Duration::from_secs(6), min, max, g);
    let mut rfc = RttEstimator::new(Duration::from_secs(6), min, max, g);
    let mut seq = vec![];
    for _ in 0..6 {
        ns2.sample(Duration::from_millis(30));
        rfc.sample(Duration::from_millis(30));
        seq.push((ns2.rto().0 / 1_000_000, rfc.rto().0 / 1_000_000));
    }
    // ns-2: srtt8 = 8, rttvar4 = 2 and 2 - 2/4 = 2 for ever: (16 + 8)/8 = 3 ticks.
    // RFC: 100 + max(100, 4·50 = 200) = 300; RTTVAR 37.5: 250 -> 300 (ticks, rounded up);
    // 28.1: 212.5 -> 300; 21.1: 100 + max(100, 84.4) = 200; then 200.
    assert_eq!(
        seq,
        vec![
            (300, 300),
            (300, 300),
            (300, 300),
            (300, 200),
            (300, 200),
            (300, 200)
        ]
    );
}

/// SACK with `ns2_compat` after a timeout (ns-2.35 `Agent/TCP/Sack1`, finding 39), against
/// the RFC mode. Common scenario, SACK, limited transmit on, initial RTO 1 s, 20 segments.
fn sack_after_rto(ns2: bool, drops: &[(u64, u32)]) -> Wire {
    let p = TcpParams {
        ns2_compat: ns2,
        limited_transmit: true,
        ..params(Variant::Sack)
    };
    let mut w = Wire::new(p, App::Bytes(20_000), 50, None, drops);
    w.run_until(Time::from_millis(4000));
    w
}

#[test]
fn sack_after_a_timeout_ns2_needs_one_segment_beyond_recover_for_a_fast_retransmit() {
    // Segments 0 and 1 (IW 2) are lost: timeout at 1000 ms (initial RTO 1 s; recover =
    // 2000, ssthresh 2000, backoff 2x). 0 is resent and acknowledged at 1100: cwnd 2000,
    // 1 (go-back-N) and 2 (new, timed) leave. 2 is lost. ACK 2000 at 1200: SND.UNA =
    // recover; cwnd 2500 (congestion avoidance), 3 leaves. Duplicate ACKs for 2000 (SACKing
    // 3, 4, 5) at 1300, 1400, 1500.
    let drops = [(0, 1), (1000, 1), (2000, 1)];
    // RFC 6675: recovery is allowed again (HighACK >= RecoveryPoint); limited transmit
    // sends 4 and 5, and the third duplicate ACK retransmits 2 at 1500 ms (then new data
    // as pipe allows).
    let w = sack_after_rto(false, &drops);
    assert_eq!(
        (sent_at(&w, 1300), sent_at(&w, 1400)),
        (vec![4000], vec![5000])
    );
    assert_eq!(sent_at(&w, 1500)[0], 2000);
    assert_eq!(w.tx.stats().fast_recoveries, 1);
    assert_eq!(timeouts_ms(&w), vec![1000]);
    // ns-2 Sack1: recovery needs highest_ack_ > recover_, i.e. 2 acknowledged. send_one()
    // sends 4 and 5 (cwnd 2.5 + 1, + 2 segments); the third duplicate ACK does nothing, and
    // the timer (restarted at 1200 ms, RTO 1 s backed off to 2 s, no sample since 2 was
    // lost) expires at 3200 ms.
    let w = sack_after_rto(true, &drops);
    assert_eq!(
        (sent_at(&w, 1300), sent_at(&w, 1400)),
        (vec![4000], vec![5000])
    );
    assert_eq!(sent_at(&w, 1500), Vec::<u64>::new());
    assert_eq!(w.tx.stats().fast_recoveries, 0);
    assert_eq!(timeouts_ms(&w), vec![1000, 3200]);
    assert_eq!(sent_at(&w, 3200), vec![2000]);
}

#[test]
fn sack_after_a_timeout_ns2_sends_one_segment_per_duplicate_ack_before_recover() {
    // Segments 0 and 1 are lost, timeout at 1000 ms (recover = 2000); 0 is resent, ACK 1000
    // at 1100: cwnd 2000, 1 (go-back-N) and 2 (new) leave; 1 is lost again. 2 arrives:
    // duplicate ACK for 1000 at 1200 ms, SND.UNA below recover.
    let drops = [(0, 1), (1000, 1), (1000, 2)];
    // RFC mode: no limited transmit while repairing after a timeout (RFC 6675 §5 (3) goes
    // with a possible recovery): nothing is sent until the timer.
    let w = sack_after_rto(false, &drops);
    assert_eq!(sent_at(&w, 1200), Vec::<u64>::new());
    assert_eq!(w.tx.stats().limited_transmits, 0);
    // ns-2 Sack1 send_one(): 3 at 1200 ms (t_seqno_ 3 <= highest_ack_ 0 + cwnd_ 2 +
    // dupacks_ 1), 4 at 1300 ms on the second duplicate ACK; the third (1400 ms) may not
    // start a recovery (2000 not yet acknowledged): the timer, restarted at 1100 ms with
    // the backed-off 2 s, expires at 3100 ms.
    let w = sack_after_rto(true, &drops);
    assert_eq!(
        (sent_at(&w, 1200), sent_at(&w, 1300), sent_at(&w, 1400)),
        (vec![3000], vec![4000], vec![])
    );
    assert_eq!(timeouts_ms(&w), vec![1000, 3100]);
}
