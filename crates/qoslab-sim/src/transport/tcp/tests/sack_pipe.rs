//! `TcpParams::sack_pipe` on a scripted ACK sequence: RFC 6675's `SetPipe()` / `NextSeg()`
//! beside ns-2.35 Sack1's counter `pipe_` (issue 14, finding 25). The sender is driven
//! directly, one ACK at a time, with no wire.
//!
//! MSS 1000, IW 10, no limited transmit, bulk. Segments 0..9 (`k` = bytes `k·1000..`) leave
//! at once; 0 and 2 are lost, so the receiver answers 1, 3, 4, ... with duplicate ACKs for 0
//! carrying SACK blocks. The third (segment 4 arrives) starts recovery in both modes:
//! FlightSize 10 000, ssthresh = cwnd = 5 000, fast retransmission of 0.

use super::*;

const MSS: u64 = 1000;

fn sender(mode: SackPipe, rwnd_segments: u64) -> TcpSender {
    let p = TcpParams {
        variant: Variant::Sack,
        mss: MSS as u32,
        rwnd: rwnd_segments * MSS,
        init_cwnd: 10,
        limited_transmit: false,
        sack_pipe: mode,
        ..TcpParams::default()
    };
    TcpSender::new(&TcpConfig::new(p).unwrap(), App::Bulk)
}

/// The ACK the receiver sends holding `ack` cumulatively and the segments `sacked` (ranges
/// of segment numbers, most recent first).
fn ack(cum_segments: u64, sacked: &[(u64, u64)]) -> Ack {
    let mut a = Ack::cumulative(cum_segments * MSS);
    for (i, &(s, e)) in sacked.iter().enumerate() {
        a.sack[i] = SackBlock {
            start: s * MSS,
            end: e * MSS,
        };
    }
    a.n_sack = sacked.len() as u8;
    a
}

/// Everything the sender sends now, as segment numbers.
fn drain(tx: &mut TcpSender, now: Time) -> Vec<u64> {
    let mut out = Vec::new();
    while let Some(s) = tx.poll_transmit(now) {
        out.push(s.seq / MSS);
        assert!(out.len() < 100, "runaway sender");
    }
    out
}

/// Per ACK: (segments sent in response, pipe afterwards in segments).
fn script(mode: SackPipe, rwnd_segments: u64) -> Vec<(Vec<u64>, u64)> {
    let mut tx = sender(mode, rwnd_segments);
    let t0 = Time::ZERO;
    assert_eq!(drain(&mut tx, t0), (0..10).collect::<Vec<_>>());
    let acks = [
        ack(0, &[(1, 2)]),          // 1 arrives
        ack(0, &[(3, 4), (1, 2)]),  // 3
        ack(0, &[(3, 5), (1, 2)]),  // 4: third duplicate ACK, recovery
        ack(0, &[(3, 6), (1, 2)]),  // 5
        ack(0, &[(3, 7), (1, 2)]),  // 6
        ack(0, &[(3, 8), (1, 2)]),  // 7
        ack(0, &[(3, 9), (1, 2)]),  // 8
        ack(0, &[(3, 10), (1, 2)]), // 9
        ack(2, &[(3, 10)]),         // retransmitted 0: partial ACK
    ];
    let mut out = Vec::new();
    for (i, a) in acks.iter().enumerate() {
        let now = t0 + Duration::from_millis(100 + i as u64);
        tx.on_ack(now, a);
        let sent = drain(&mut tx, now);
        out.push((sent, tx.pipe() / MSS));
    }
    out
}

#[test]
fn rfc6675_pipe_drops_a_lost_segment_and_retransmits_it_at_once() {
    // SetPipe after each ACK, then (C.4) pipe += each segment sent:
    //  4: 0 retransmitted (HighRxt 1), IsLost(0) (3 SACKed above), counted once as
    //     retransmitted; 2 not lost (2 SACKed above); 5..9 -> 1 + 1 + 5 = 7 > cwnd 5.
    //  5: IsLost(2) now: pipe = 1 (0) + 4 (6..9) = 5; nothing.
    //  6: pipe = 1 + 3 = 4: rule 1 retransmits 2 -> 5.
    //  7: pipe = 1 + 1 + 2 (8, 9) = 4: rule 2, new 10 -> 5.   (and so on, one per ACK)
    //  partial ACK 2: pipe = 1 (2) + 3 (10..12) = 4: new 13 -> 5.
    let got = script(SackPipe::Rfc6675, 100);
    let want: Vec<(Vec<u64>, u64)> = vec![
        (vec![], 10),
        (vec![], 10),
        (vec![0], 7),
        (vec![], 5),
        (vec![2], 5),
        (vec![10], 5),
        (vec![11], 5),
        (vec![12], 5),
        (vec![13], 5),
    ];
    assert_eq!(got, want);
}

#[test]
fn ns2_sack1_pipe_counts_a_lost_segment_until_acks_drain_it() {
    // ns-2 Sack1: at the third duplicate ACK pipe_ = 10 - 0 - 3 = 7, the fast retransmission
    // of 0 is not added and nothing else goes on that ACK. Then --pipe_ per ACK, pipe_++ per
    // segment sent while pipe_ < cwnd_ = 5:
    //  5: 6.  6: 5.  7: 4 -> the first hole above HighRxt, 2 (one ACK after RFC 6675) -> 5.
    //  8: 4 -> new 10 -> 5.  9: new 11.
    //  partial ACK 2: --pipe_ twice (partial_ack_ false) -> 3: new 12 and 13 -> 5.
    let got = script(SackPipe::Ns2Sack1, 100);
    let want: Vec<(Vec<u64>, u64)> = vec![
        (vec![], 10),
        (vec![], 10),
        (vec![0], 7),
        (vec![], 6),
        (vec![], 5),
        (vec![2], 5),
        (vec![10], 5),
        (vec![11], 5),
        (vec![12, 13], 5),
    ];
    assert_eq!(got, want);
}

#[test]
fn only_rfc6675_sends_a_rescue_retransmission_when_the_receiver_window_is_full() {
    // rwnd 10 segments: no new data until the partial ACK (SND.UNA 2) lets 10 and 11 go.
    // RFC 6675 then has no lost segment (1), no more room in rwnd (2), no unSACKed segment
    // above HighRxt below the highest SACK (3), and HighACK 2 > RescueRxt 1: rule 4
    // retransmits the highest outstanding unSACKed segment, 11, sent a moment before (the
    // rescue retransmission). ns-2 Sack1 has no such rule and stops at pipe_ 3 < cwnd_ 5.
    let rfc = script(SackPipe::Rfc6675, 10);
    let ns2 = script(SackPipe::Ns2Sack1, 10);
    let v = |s: &[u64], p: u64| (s.to_vec(), p);
    let head = [v(&[], 10), v(&[], 10), v(&[0], 7)];
    let mut want_rfc = head.to_vec();
    want_rfc.extend([v(&[], 5), v(&[2], 5), v(&[], 4), v(&[], 3), v(&[], 2)]);
    want_rfc.push(v(&[10, 11, 11], 4));
    assert_eq!(rfc, want_rfc, "rfc6675");
    let mut want_ns2 = head.to_vec();
    want_ns2.extend([v(&[], 6), v(&[], 5), v(&[2], 5), v(&[], 4), v(&[], 3)]);
    want_ns2.push(v(&[10, 11], 3));
    assert_eq!(ns2, want_ns2, "ns2-sack1");
}

/// The sender's fixed-point shift of cwnd (`sender::FP`).
const FP: u32 = 16;

/// (cwnd, ssthresh) in bytes right after the fast retransmit, from a scripted state: IW 10
/// sent (FlightSize 10 000), cwnd then set to `cwnd_fp` (1/65536 byte), three duplicate ACKs
/// with SACK blocks (0 lost).
fn after_fast_retransmit(mode: SackPipe, rwnd_segments: u64, cwnd_fp: u64) -> (u64, u64) {
    let mut tx = sender(mode, rwnd_segments);
    let t0 = Time::ZERO;
    assert_eq!(drain(&mut tx, t0), (0..10).collect::<Vec<_>>());
    tx.set_cwnd_fp_for_test(cwnd_fp);
    for (i, a) in [ack(0, &[(1, 2)]), ack(0, &[(1, 3)]), ack(0, &[(1, 4)])]
        .iter()
        .enumerate()
    {
        tx.on_ack(t0 + Duration::from_millis(100 + i as u64), a);
    }
    assert!(tx.in_recovery());
    assert_eq!(drain(&mut tx, t0 + Duration::from_millis(102))[0], 0);
    (tx.cwnd(), tx.ssthresh())
}

#[test]
fn ns2_sack1_halves_the_real_window_at_a_fast_retransmit() {
    // ns-2.35 slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF), precision_reduce_: cwnd_ =
    // min(cwnd_, wnd_) / 2 as a real number, ssthresh_ = (int) of it, at least 2 packets.
    // 10.8666 segments (sack1a's second fast retransmit) -> cwnd 5.4333, ssthresh 5.
    let fp = |bytes_x10000: u64| (bytes_x10000 << FP) / 10_000;
    let w = fp(108_666_000); // 10 866.6 B
    let (cwnd, ssthresh) = after_fast_retransmit(SackPipe::Ns2Sack1, 100, w);
    assert_eq!((cwnd, ssthresh), (5433, 5000));
    // RFC 6675 (4.2): ssthresh = cwnd = FlightSize / 2 = 5 000 whatever cwnd was.
    assert_eq!(
        after_fast_retransmit(SackPipe::Rfc6675, 100, w),
        (5000, 5000)
    );
    // windowd() is capped by the receiver's window: 14 segments offered, cwnd 17.2.
    let (cwnd, ssthresh) = after_fast_retransmit(SackPipe::Ns2Sack1, 14, fp(172_000_000));
    assert_eq!((cwnd, ssthresh), (7000, 7000));
    // 7.817 segments (sack1's second fast retransmit, finding 23) -> 3.9085, ssthresh 3.
    let (cwnd, ssthresh) = after_fast_retransmit(SackPipe::Ns2Sack1, 100, fp(78_170_000));
    assert_eq!((cwnd, ssthresh), (3908, 3000));
    // Small windows: ssthresh at least 2 packets, cwnd at least 1 (3.0 -> 1.5, 2; 1.5 -> 1).
    assert_eq!(
        after_fast_retransmit(SackPipe::Ns2Sack1, 100, 3000 << FP),
        (1500, 2000)
    );
    assert_eq!(
        after_fast_retransmit(SackPipe::Ns2Sack1, 100, 1500 << FP),
        (1000, 2000)
    );
}
