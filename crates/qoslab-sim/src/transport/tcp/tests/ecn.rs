//! Scripted tests of RFC 3168 ECN and RFC 7323 timestamps.
//!
//! Common scenario (as in the parent module): MSS 1000, 50 ms each way (RTT 100 ms), no
//! bottleneck, IW 2, rwnd 1 MB, G = 10 ms, min_rto 200 ms. Slow start: round r leaves at
//! r·100 ms; round 3 (t = 300 ms) carries segments 14..29, round 4 (t = 400 ms) 30..61.
//! `ce_marks` deliver the given transmission of a segment with CE.

use super::*;

fn ecn(variant: Variant) -> TcpParams {
    TcpParams {
        ecn: true,
        ..params(variant)
    }
}

fn sent(w: &Wire) -> Vec<(u64, Segment)> {
    w.log
        .iter()
        .filter_map(|l| match l {
            Log::Sent(t, s) => Some((t.as_nanos() / 1_000_000, *s)),
            _ => None,
        })
        .collect()
}

#[test]
fn one_mark_halves_once_and_cwr_ends_the_echo() {
    // CE on segment 14 (round 3). Its ACK (15 000) arrives at 400 ms with ECE: before it,
    // cwnd = 2 + 14 ACKs = 16 segments, SND.UNA = 14 000, SND.MAX = 30 000, so
    // FlightSize = 16 000, ssthresh = max(8 000, 2 000) = 8 000, cwnd = 8 000.
    // The 15 ACKs that follow at 400 ms still carry ECE (no CWR seen yet): no second
    // reduction (ack <= SND.MAX at the reduction = 30 000), no growth. New data goes once
    // SND.MAX + 1 000 - SND.UNA <= 8 000, i.e. from the ACK of 23 000 on: segments 30..37,
    // the first with CWR. Their ACKs (500 ms) carry no ECE.
    for v in ALL {
        let mut w = Wire::new(ecn(v), App::Bytes(100_000), 50, None, &[]);
        w.ce_marks = vec![(14_000, 1)];
        w.run_until(Time::from_millis(450));
        let st = w.tx.stats();
        assert_eq!((st.ecn_reductions, st.ece_acks), (1, 16), "{v:?}");
        assert_eq!((w.tx.ssthresh(), w.tx.cwnd()), (8_000, 8_000), "{v:?}");
        let at_400: Vec<(u64, bool)> = sent(&w)
            .into_iter()
            .filter(|(t, _)| *t == 400)
            .map(|(_, s)| (s.seq / 1000, s.cwr))
            .collect();
        let expect: Vec<(u64, bool)> = (30..38).map(|k| (k, k == 30)).collect();
        assert_eq!(at_400, expect, "{v:?}");
        assert!(sent(&w).iter().all(|(_, s)| s.ect && !s.retransmission));
        w.run();
        assert!(w.tx.is_complete());
        // The receiver echoed exactly the 16 ACKs before the CWR segment.
        assert_eq!((w.rx.stats().ce_segments, w.rx.stats().ece_acks), (1, 16));
        assert_eq!(w.tx.stats().ecn_reductions, 1, "{v:?}");
        assert_eq!(w.tx.stats().cwr_sent, 1, "{v:?}");
        assert_eq!((w.tx.stats().retransmits, w.tx.stats().timeouts), (0, 0));
    }
}

#[test]
fn several_marks_in_one_window_reduce_once_the_next_window_again() {
    // CE on 14, 20, 25 (round 3, one window): one reduction at 400 ms as above (ssthresh
    // 8 000). CE on 31 (sent at 400 ms after the reduction): at 500 ms the ACK of 30
    // (no ECE) grows cwnd to 8 000 + 1 000·1 000/8 000 = 8 125 and sends 38 (SND.MAX 39 000);
    // the ACK of 31 (32 000 > 30 000) has ECE: FlightSize = 39 000 - 31 000 = 8 000,
    // ssthresh = 4 000, cwnd = min(8 125, 4 000) = 4 000.
    for v in ALL {
        let mut w = Wire::new(ecn(v), App::Bytes(100_000), 50, None, &[]);
        w.ce_marks = vec![(14_000, 1), (20_000, 1), (25_000, 1)];
        w.run_until(Time::from_millis(450));
        assert_eq!(w.tx.stats().ecn_reductions, 1, "{v:?}");
        assert_eq!(w.tx.ssthresh(), 8_000, "{v:?}");
        let mut w = Wire::new(ecn(v), App::Bytes(100_000), 50, None, &[]);
        w.ce_marks = vec![(14_000, 1), (20_000, 1), (25_000, 1), (31_000, 1)];
        w.run_until(Time::from_millis(550));
        assert_eq!(w.tx.stats().ecn_reductions, 2, "{v:?}");
        assert_eq!((w.tx.ssthresh(), w.tx.cwnd()), (4_000, 4_000), "{v:?}");
    }
}

#[test]
fn echo_at_one_segment_holds_sending_until_the_timer() {
    // IW 1: segment 0 (t = 0) arrives with CE; its ACK at 100 ms has ECE while cwnd = 1 MSS.
    // The sample (100 ms) gives RTO = 100 + max(10, 4·50) = 300 ms; ssthresh = max(500,
    // 2 000) = 2 000, cwnd stays 1 000, the timer is reset to 100 + 300 = 400 ms and nothing
    // is sent before it expires. At 400 ms segment 1 leaves with CWR; no timeout is counted
    // and the RTO is not backed off.
    let p = TcpParams {
        init_cwnd: 1,
        ..ecn(Variant::Sack)
    };
    let mut w = Wire::new(p, App::Bytes(5_000), 50, None, &[]);
    w.ce_marks = vec![(0, 1)];
    w.run_until(Time::from_millis(399));
    assert!(w.tx.ecn_hold());
    assert_eq!(w.tx.poll_timeout(), Some(Time::from_millis(400)));
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (1_000, 2_000));
    assert_eq!(sent(&w).len(), 1);
    w.run_until(Time::from_millis(400));
    let s = sent(&w);
    assert_eq!(s.len(), 2);
    assert_eq!((s[1].0, s[1].1.seq, s[1].1.cwr), (400, 1_000, true));
    let st = w.tx.stats();
    assert_eq!((st.ecn_timer_holds, st.timeouts), (1, 0));
    assert_eq!(w.tx.rto(), Duration::from_millis(300));
    w.run();
    assert!(w.tx.is_complete());
}

#[test]
fn echo_at_two_segments_halves_to_one_then_the_next_holds() {
    // RFC 3168 §6.1.2: cwnd "should in principle still [be reduced] in half ... bounded
    // below by a value of one MSS". IW 2, CE on segments 0 and 2. The ACK of 0..1 (2 000)
    // arrives at 100 ms with ECE: FlightSize = 2 000, ssthresh = max(1 000, 2 000) = 2 000,
    // cwnd = min(2 000, max(1 000, 1 000)) = 1 000 (with a 2·MSS floor it would stay 2 000
    // and two segments would leave). One segment (2) leaves at 100 ms with CWR; its ACK at
    // 200 ms has ECE again, beyond SND.MAX at the first reaction (2 000): cwnd is 1 MSS, so
    // the timer is reset and sending holds (RFC mode: no backoff, no timeout).
    let mut w = Wire::new(ecn(Variant::Sack), App::Bytes(8_000), 50, None, &[]);
    w.ce_marks = vec![(0, 1), (2_000, 1)];
    w.run_until(Time::from_millis(100));
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (1_000, 2_000));
    assert!(!w.tx.ecn_hold());
    let s = sent(&w);
    assert_eq!(s.len(), 3);
    assert_eq!((s[2].0, s[2].1.seq, s[2].1.cwr), (100, 2_000, true));
    w.run_until(Time::from_millis(200));
    assert!(w.tx.ecn_hold());
    assert_eq!(w.tx.cwnd(), 1_000);
    assert_eq!(sent(&w).len(), 3);
    let st = w.tx.stats();
    assert_eq!(
        (st.ecn_reductions, st.ecn_timer_holds, st.timeouts),
        (2, 1, 0)
    );
    w.run();
    assert!(w.tx.is_complete());
}

#[test]
fn ns2_echo_at_two_segments_halves_to_zero_and_waits_for_the_timer() {
    // ns2_compat: IW 2, CE on segment 0. At 100 ms the ECE ACK finds cwnd = 2 packets:
    // halfwin = 1, ssthresh = max(1, 2) = 2 packets, cwnd = 1 packet. With IW 1 instead the
    // ECE ACK finds cwnd = 1: halfwin = 0, i.e. ns-2's cwnd 0 — held until the timer.
    let p = TcpParams {
        ns2_compat: true,
        ..ecn(Variant::Sack)
    };
    let mut w = Wire::new(p, App::Bytes(5_000), 50, None, &[]);
    w.ce_marks = vec![(0, 1)];
    w.run_until(Time::from_millis(100));
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (1_000, 2_000));
    assert!(!w.tx.ecn_hold());
    let p = TcpParams { init_cwnd: 1, ..p };
    let mut w = Wire::new(p, App::Bytes(5_000), 50, None, &[]);
    w.ce_marks = vec![(0, 1), (1_000, 1)];
    w.run_until(Time::from_millis(100));
    assert!(w.tx.ecn_hold());
    // Segment 1 leaves at the timer; its ACK again has ECE at cwnd 1: this second reaction
    // at one packet backs the timer off (ns-2 `ecn_backoff_`).
    w.run();
    assert!(w.tx.is_complete());
    assert_eq!(w.tx.stats().ecn_timer_holds, 2);
    assert_eq!(w.tx.stats().timeouts, 0);
}

#[test]
fn timestamps_sample_the_retransmission_and_end_the_backoff() {
    // As lost_retransmission_times_out_backs_off_and_takes_no_rtt_sample, with timestamps:
    // segment 40 is lost at its 1st and 2nd transmission, the timer expires at 700 ms (RTO
    // doubled to 400 ms); the 3rd transmission (TSval 700 ms) fills the hole, the receiver
    // copies its TSval into TS.Recent (SEG.SEQ = Last.ACK.sent) and the ACK at 800 ms
    // echoes it: a sample of exactly 100 ms, which ends the backoff. Every sample is
    // 100 ms, so SRTT = 100 ms and the RTO is min_rto (200 ms) again.
    for v in ALL {
        let p = TcpParams {
            timestamps: true,
            ..params(v)
        };
        let mut w = Wire::new(
            p,
            App::Bytes(150_000),
            50,
            None,
            &[(40_000, 1), (40_000, 2)],
        );
        w.run_until(Time::from_millis(700));
        assert_eq!(w.tx.stats().timeouts, 1, "{v:?}");
        assert_eq!(w.tx.rto(), Duration::from_millis(400), "{v:?}");
        let samples = w.tx.stats().rtt_samples;
        w.run_until(Time::from_millis(800));
        assert_eq!(w.tx.stats().rtt_samples, samples + 1, "{v:?}");
        assert_eq!(w.tx.rtt_estimator().backoff_count(), 0, "{v:?}");
        assert_eq!(w.tx.srtt(), Some(Duration::from_millis(100)), "{v:?}");
        assert_eq!(w.tx.rto(), Duration::from_millis(200), "{v:?}");
        w.run();
        assert!(w.tx.is_complete());
    }
}

#[test]
fn a_loss_and_a_mark_in_one_window_reduce_once() {
    // Loss of 40 and CE on 35, both round 4 (sent at 400 ms). At 500 ms the ACKs of 30..34
    // grow cwnd to 37 segments and send 62..71; the ACK of 35 has ECE: FlightSize =
    // 72 000 - 35 000 = 37 000, ssthresh = 18 500, cwnd = 18 500. The duplicate ACKs for
    // 40 000 then trigger fast retransmit, which repairs the loss without a second
    // reduction: ssthresh stays 18 500 (21 000 without the mark, see
    // one_loss_recovers_by_fast_retransmit_in_every_variant).
    for v in ALL {
        let mut w = Wire::new(ecn(v), App::Bytes(150_000), 50, None, &[(40_000, 1)]);
        w.ce_marks = vec![(35_000, 1)];
        w.run();
        let st = w.tx.stats();
        assert!(w.tx.is_complete(), "{v:?}");
        assert_eq!(
            (st.ecn_reductions, st.fast_recoveries, st.timeouts),
            (1, 1, 0),
            "{v:?}"
        );
        assert_eq!(w.tx.ssthresh(), 18_500, "{v:?}");
        // The retransmission is Not-ECT.
        assert!(sent(&w).iter().all(|(_, s)| s.ect != s.retransmission));
    }
}

#[test]
fn ns2_echo_halves_the_fractional_window_exactly() {
    // ns-2.35 slowdown() with precisionReduce_ true (the default since 2006): halfwin =
    // windowd()/2, fractional (issue 14, finding 20). ns2_compat, IW 2, CE on segment 3.
    // At 100 ms the ACKs of 0 and 1 open cwnd to 4 (segments 2..5 leave). At 200 ms the ACK
    // of 2 (3 000) opens cwnd to 5 (segments 6, 7 leave); the ACK of 3 (4 000) carries ECE:
    // window 5 packets -> cwnd = 2.5 packets = 2 500, ssthresh = max((int) 2.5, 2) = 2
    // packets (whole-packet halving, as before the fix: cwnd 2 000). The ACKs up to 8 000
    // still carry ECE (no CWR seen yet) and do not grow cwnd.
    let p = TcpParams {
        ns2_compat: true,
        ..ecn(Variant::Sack)
    };
    let mut w = Wire::new(p, App::Bytes(20_000), 50, None, &[]);
    w.ce_marks = vec![(3_000, 1)];
    w.run_until(Time::from_millis(350));
    assert_eq!(w.tx.stats().ecn_reductions, 1);
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (2_500, 2_000));
    assert!(!w.tx.ecn_hold());
    // With 2.5 packets, two segments per round trip (window() = (int) cwnd_): 8 (CWR) and 9
    // at 300 ms. Their ACKs at 400 ms have no ECE: congestion avoidance adds 1/cwnd packet
    // each, 2.5 -> 2.9 -> 2.9 + 1/2.9 = 3.2448 packets (whole-packet halving: 2 -> 2.5 -> 2.9).
    let at_300: Vec<u64> = sent(&w)
        .into_iter()
        .filter(|(t, _)| *t == 300)
        .map(|(_, s)| s.seq / 1000)
        .collect();
    assert_eq!(at_300, vec![8, 9]);
    w.run_until(Time::from_millis(400));
    assert_eq!(w.tx.cwnd(), 3_244);
    w.run();
    assert!(w.tx.is_complete());
}

#[test]
fn ns2_echo_below_one_packet_holds_with_the_fractional_window() {
    // ns2_compat, IW 3, CE on segments 0 and 3. The ECE ACK of 0 at 100 ms: window 3 ->
    // cwnd 1.5 packets (1 500), ssthresh 2 packets; one segment (3, CWR) leaves once 1 and 2
    // are acknowledged. Its ECE ACK at 200 ms: cwnd 1.5 > 1, so no ecn_backoff_; halved to
    // 0.75 packet: window() = 0, held until the timer; the timer sets cwnd_ = 1 packet
    // ("if (cwnd_ < 1) cwnd_ = 1"), ssthresh unchanged, no timeout counted, no backoff.
    let p = TcpParams {
        ns2_compat: true,
        init_cwnd: 3,
        ..ecn(Variant::Sack)
    };
    let mut w = Wire::new(p, App::Bytes(10_000), 50, None, &[]);
    w.ce_marks = vec![(0, 1), (3_000, 1)];
    w.run_until(Time::from_millis(150));
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (1_500, 2_000));
    assert_eq!(sent(&w).len(), 4);
    w.run_until(Time::from_millis(250));
    assert!(w.tx.ecn_hold());
    assert_eq!((w.tx.cwnd(), w.tx.ssthresh()), (750, 2_000));
    assert_eq!(sent(&w).len(), 4);
    let rto = w.tx.rto();
    let release = w.tx.poll_timeout().expect("the timer runs during the hold");
    w.run_until(release);
    assert!(!w.tx.ecn_hold());
    assert_eq!(w.tx.cwnd(), 1_000);
    assert_eq!(w.tx.rto(), rto);
    let s = sent(&w);
    assert_eq!((s.len(), s[4].1.seq), (5, 4_000));
    let st = w.tx.stats();
    assert_eq!(
        (st.ecn_reductions, st.ecn_timer_holds, st.timeouts),
        (2, 1, 0)
    );
    w.run();
    assert!(w.tx.is_complete());
}
